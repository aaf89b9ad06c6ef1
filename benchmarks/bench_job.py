"""Whole-job benchmark: ``run_job`` (batch) on a >= 5M-line simulated corpus vs. the floor job.

    python -m benchmarks.bench_job [--lines 5000000] [--master local[2]] [--reuse]

The corpus comes from the simulator (``python -m jobs.simulate``: scala3 brokers, log4j clients with
DEBUG heartbeats, 10 % unrelated lines) under ``benchmarks/corpus/job-<lines>/`` (git-ignored). A
fresh child process runs, after a warm-up query, the *floor* job (``read.text`` + one
``regexp_extract`` of the timestamp + Parquet write, as in ``bench_ingest.py``) and then the whole
job into an empty lakehouse; peak RSS of the driver JVM, the driver Python and the Python workers is
sampled from ``/proc`` every 100 ms per phase. Reported: lines/s, the job/floor ratio (target <= 3x),
the job's stage timings, and RSS. Results go to ``benchmarks/out/job.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TS_REGEX = r"^\[?(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[,.]\d{3})"
TARGET_RATIO = 3.0


def build_corpus(lines: int, reuse: bool, seed: int = 11) -> tuple[str, dict[str, Any]]:
    out = os.path.join(HERE, "corpus", f"job-{lines}")
    summary = os.path.join(out, "truth", "summary.json")
    if not (reuse and os.path.exists(summary)):
        shutil.rmtree(out, ignore_errors=True)
        groups = max(8, lines // 40_000)
        cmd = [sys.executable, "-m", "jobs.simulate", "--out", out, "--groups", str(groups), "--members", "6",
               "--hours", "10000", "--seed", str(seed), "--target-lines", str(lines), "--dialect", "scala3",
               "--layout", "log4j", "--debug-heartbeats", "--noise-ratio", "0.1"]  # fmt: skip
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        print(f"corpus: {lines:,} lines in {time.perf_counter() - t0:.0f}s -> {out}", flush=True)
    with open(summary, encoding="utf-8") as fh:
        s = json.load(fh)
    return out, {
        "lines": s["lines"],
        "bytes": s["bytes"],
        "files": len(s["files"]),
        "truth": s.get("truth_counts"),
    }


def log_paths(root: str) -> list[str]:
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x != "truth"]
        out += [os.path.join(d, f) for f in files if ".log" in f]
    return sorted(out)


def child(master: str, root: str, workdir: str) -> dict[str, Any]:
    """Runs in a fresh process: warm-up, floor job, whole job; RSS per phase of this process tree."""
    sys.path.insert(0, ROOT)
    from benchmarks.run import RssPoller
    from jobs.config import JobConfig
    from jobs.pipeline import run_job
    from jobs.session import local_session

    paths = log_paths(root)
    spark = local_session(master=master, app_name="bench-job", shuffle_partitions=8)
    spark.range(1000).selectExpr("sum(id)").collect()
    res: dict[str, Any] = {"master": master, "files": len(paths)}
    from pyspark.sql import functions as F

    with RssPoller(os.getpid()) as rss:
        t0 = time.perf_counter()
        (spark.read.text(paths).select(F.regexp_extract("value", TS_REGEX, 1).alias("ts"), "value")
         .write.mode("overwrite").parquet(os.path.join(workdir, "floor")))  # fmt: skip
        res["floor_s"] = time.perf_counter() - t0
    res["floor_rss"] = rss.peak
    cfg = JobConfig().with_values(**{"output.path": os.path.join(workdir, "lake"), "run.progress": True})
    with RssPoller(os.getpid()) as rss:
        t0 = time.perf_counter()
        summary = run_job(spark, cfg, [(os.path.join(root, d), "bench") for d in sorted(os.listdir(root))
                                       if d != "truth"], mode="batch")  # fmt: skip
        res["job_s"] = time.perf_counter() - t0
    res["job_rss"] = rss.peak
    res["summary"] = {k: getattr(summary, k) for k in ("files_new", "events", "quarantined", "groups_replayed",
                                                        "replay_errors", "rebalances_total", "storms_total",
                                                        "top_causes", "table_rows", "stages")}  # fmt: skip
    spark.stop()
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lines", type=int, default=5_000_000)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--reuse", action="store_true", help="reuse an existing corpus of that size")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    args = ap.parse_args(argv)
    root, corpus = build_corpus(args.lines, args.reuse)
    workdir = tempfile.mkdtemp(prefix="rl-bench-job-")
    result_file = os.path.join(workdir, "result.json")
    code = (f"import json,sys; sys.path.insert(0, {ROOT!r}); from benchmarks.bench_job import child; "
            f"json.dump(child({args.master!r}, {root!r}, {workdir!r}), open({result_file!r}, 'w'), default=str); "
            "from jobs.process import exit_process; exit_process(0)")  # fmt: skip
    env = {**os.environ, "PYTHONPATH": ROOT, "PYSPARK_PYTHON": sys.executable,
           "PYSPARK_DRIVER_PYTHON": sys.executable, "TZ": "UTC"}  # fmt: skip
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0 or not os.path.exists(result_file):
        print(proc.stdout[-3000:], proc.stderr[-6000:], file=sys.stderr)
        return 1
    with open(result_file, encoding="utf-8") as fh:
        res = json.load(fh)
    shutil.rmtree(workdir, ignore_errors=True)
    lines = corpus["lines"]
    res.update(corpus=corpus, child_wall_s=wall, lines_per_s=lines / res["job_s"],
               floor_lines_per_s=lines / res["floor_s"], job_vs_floor=res["job_s"] / res["floor_s"],
               target_job_vs_floor=TARGET_RATIO, uptime_load=os.getloadavg())  # fmt: skip
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "job.json"), "w", encoding="utf-8") as fh:
        json.dump(res, fh, indent=1, default=str)
    s = res["summary"]
    print(f"corpus           {lines:,} lines, {corpus['bytes'] / 1e6:,.0f} MB, {corpus['files']} files")
    print(f"floor            {res['floor_s']:.1f}s  ({res['floor_lines_per_s']:,.0f} lines/s)")
    print(f"whole job        {res['job_s']:.1f}s  ({res['lines_per_s']:,.0f} lines/s)  "
          f"= {res['job_vs_floor']:.2f}x floor (target <= {TARGET_RATIO}x: "
          f"{'met' if res['job_vs_floor'] <= TARGET_RATIO else 'missed'})")  # fmt: skip
    print(f"events {s['events']:,}, groups {s['groups_replayed']}, rebalances {s['rebalances_total']}, "
          f"storms {s['storms_total']}, replay errors {s['replay_errors']}")  # fmt: skip
    print("stages           " + ", ".join(f"{n} @{t:.0f}s" for n, t in s["stages"]))
    for phase in ("floor_rss", "job_rss"):
        r = res[phase]
        print(f"peak RSS {phase[:-4]:<6}  driver JVM {r['jvm_mb']:,.0f} MB, driver Python "
              f"{r['driver_python_mb']:,.0f} MB, Python workers {r['workers_mb']:,.0f} MB")  # fmt: skip
    print(f"load average     {res['uptime_load'][0]:.1f} (2 cores shared)")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    from jobs.process import run_main  # leaves without the Arrow thread-pool abort at exit

    run_main(main)
