"""Benchmark suite: ``python -m benchmarks.run --size 1M|10M|100M [--reuse]``.

One run measures, on one simulated corpus (``benchmarks/corpus/<size>/``, made by
``jobs.simulate`` with DEBUG heartbeat lines, so heartbeats dominate like real DEBUG client logs):

* core replay events/s per core: ``benchmarks.bench_core`` (heartbeat- and storm-dominated
  synthetic streams) when present, and the replay of the corpus' own parsed events;
* the job's single-process pipeline (``jobs.local.run_local``: ``parse_bytes`` + the core's
  per-group replay) - lines/s;
* per Spark master (``local[1]``, ``local[2]``), each in a fresh child process: the *floor* job
  (``read.text`` + one ``regexp_extract`` of the timestamp + Parquet write; from
  ``benchmarks.bench_ingest`` when present), ingestion (``jobs.ingest.ingest`` -> events Parquet) and
  the whole job (``jobs.pipeline.run_job`` batch into an empty lakehouse); wall times, lines/s and
  ratios to the floor of the same child; peak RSS of the driver JVM, the driver Python and the
  Python workers (``/proc`` of the child's process tree, polled every 100 ms);
* scale: seconds per million lines of the whole job, compared across sizes (results of earlier
  sizes are kept in ``benchmarks/out/results-<size>.json``).

Writes ``benchmarks/out/report.json`` and ``benchmarks/out/report.md`` (targets met/missed with the
likely reason). Timings are wall-clock, single measurements, on a shared machine: read the ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

from benchmarks.run_report import (
    HERE,
    ROOT,
    SIZES,
    cpu_scaling,
    earlier_results,
    evaluate,
    git_head,
    machine,
    scale_table,
    write_report,
)

#: simulator shape per size (groups, members); hours is an upper bound, --target-lines stops it
SHAPES = {"20k": (4, 3), "1M": (40, 5), "2M": (60, 5), "3M": (80, 5), "10M": (120, 6), "100M": (400, 8)}
TS_REGEX = r"^\[?(\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d[,.]\d{3})"


# ----------------------------------------------------------------------------------- corpus
def corpus(size: str, reuse: bool, seed: int = 42, protocol: str = "classic") -> tuple[str, dict[str, Any]]:
    """The simulated corpus of ``size`` lines; ``protocol`` ``mixed`` / ``consumer`` adds / makes
    KIP-848 groups (Java 4.x broker lines, brokers at DEBUG) in ``corpus/<size>-<protocol>``."""
    from jobs.simulate import SimConfig, simulate

    out = os.path.join(HERE, "corpus", size if protocol == "classic" else f"{size}-{protocol}")
    summary_path = os.path.join(out, "truth", "summary.json")
    if reuse and os.path.exists(summary_path):
        with open(summary_path, encoding="utf-8") as fh:
            s = json.load(fh)
        return out, {"reused": True, "lines": s["lines"], "bytes": s["bytes"], "files": len(s["files"]),
                     "seconds": s.get("extra_seconds")}  # fmt: skip
    shutil.rmtree(out, ignore_errors=True)
    groups, members = SHAPES[size]
    t0 = time.perf_counter()
    kip848 = {} if protocol == "classic" else {"protocol": protocol, "dialect": "java4", "broker_debug": True}
    cfg = {"dialect": "scala3", **kip848}
    res = simulate(SimConfig(out=out, groups=groups, members=members, hours=10_000, seed=seed,
                             target_lines=SIZES[size], layout="log4j", debug_heartbeats=True, noise_ratio=0.1,
                             incident_gap_ms=20 * 60_000, **cfg))  # fmt: skip
    secs = time.perf_counter() - t0
    with open(summary_path, encoding="utf-8") as fh:
        s = json.load(fh)
    s["extra_seconds"] = secs
    with open(summary_path, "w", encoding="utf-8") as fh:
        json.dump(s, fh, indent=1, sort_keys=True)
    return out, {
        "reused": False,
        "lines": res.lines,
        "bytes": res.bytes,
        "files": len(res.files),
        "seconds": secs,
    }


# ----------------------------------------------------------------------------------- core replay
def core_bench(rows: int = 1_000_000, repeat: int = 2) -> dict[str, Any]:
    """Core replay events/s with the replay helper's ``benchmarks/bench_core.py`` streams and
    ``measure`` (heartbeat-dominated and storm-dominated; one process = one core)."""
    try:
        from benchmarks import bench_core
    except ImportError as exc:
        return {"available": False, "error": f"benchmarks.bench_core not importable: {exc}"}
    out: dict[str, Any] = {"available": True}
    out["heartbeat"] = bench_core.measure("heartbeat", bench_core.heartbeat_stream(rows), repeat)
    out["storm"] = bench_core.measure("storm", bench_core.storm_stream(max(rows // 10, 1000)), repeat)
    return out




# ----------------------------------------------------------------------------------- pure python
def python_pipeline(root: str) -> dict[str, Any]:
    from jobs.local import run_local

    t0 = time.perf_counter()
    res = run_local(root)
    wall = time.perf_counter() - t0
    rebalances = sum(len(o.rebalances) for o in res.outputs.values())
    accuracy = truth_agreement(root, {g: o.rebalances for g, o in res.outputs.items()})
    lines = res.parsed.lines
    return {
        "truth": accuracy,
        "seconds": wall, "parse_s": res.parsed.seconds, "replay_s": res.replay_s, "lines": lines,
        "events": res.events, "groups": len(res.outputs), "rebalances": rebalances,
        "lines_per_s": lines / wall if wall else None,
        "core_s": res.core_s,
        "replay_events_per_s": res.events / res.core_s if res.core_s else None,
    }  # fmt: skip


def truth_agreement(root: str, replayed: dict[str, list[Any]]) -> dict[str, Any]:
    """How many of the simulator's true rebalances the replay found (same group and old
    generation) and how many of those have the same cause and culprit."""
    path = os.path.join(root, "truth", "rebalances.jsonl")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as fh:
        truth = [json.loads(line) for line in fh]
    got = {(g, r.old_generation): r for g, rs in replayed.items() for r in rs}
    found = same_cause = same_culprit = 0
    for t in truth:
        r = got.get((t["group_id"], t["old_generation"]))
        if r is None:
            continue
        found += 1
        same_cause += r.cause == t["cause"]
        same_culprit += r.culprit_member_id == t["culprit_member_id"]
    return {"truth_rebalances": len(truth), "replayed_rebalances": len(got), "found": found,
            "same_cause": same_cause, "same_culprit": same_culprit}  # fmt: skip


# ----------------------------------------------------------------------------------- spark child
def floor_job(spark, paths: list[str], out: str) -> None:
    """The floor job: read.text, one regexp_extract of the timestamp, write Parquet (the same job
    as ``benchmarks/bench_ingest.py``, which has it inline; reused from there if it ever exports a
    ``floor_job(spark, paths, out)`` function)."""
    try:
        from benchmarks import bench_ingest

        fn = getattr(bench_ingest, "floor_job", None)
        if callable(fn):
            fn(spark, paths, out)
            return
    except ImportError:
        pass
    from pyspark.sql import functions as F

    (spark.read.text(paths).select(F.regexp_extract("value", TS_REGEX, 1).alias("ts"), "value")
     .write.mode("overwrite").parquet(out))  # fmt: skip


def child(master: str, root: str, workdir: str) -> dict[str, Any]:
    """Runs in a fresh process: floor, ingestion and whole job on one Spark master."""
    sys.path.insert(0, ROOT)
    from jobs.local import log_files
    from jobs.session import local_session

    paths = log_files(root)
    spark = local_session(master=master, app_name=f"bench-{master}", shuffle_partitions=8)
    spark.sparkContext.setLogLevel("ERROR") if hasattr(spark, "sparkContext") else None
    res: dict[str, Any] = {"master": master, "files": len(paths)}
    # warm-up: JVM start, JIT of the text/Parquet/Arrow/cogroup paths and the Python workers: the
    # floor, the ingestion and the whole job each run once over a few small files first, so the
    # timings compare like with like (steady state, not first-use costs)
    spark.range(1000).selectExpr("sum(id)").collect()
    from benchmarks.bench_ingest import ingest_tables
    from jobs.config import JobConfig
    from jobs.pipeline import run_job

    few = sorted(paths, key=os.path.getsize)[:3]
    floor_job(spark, few, os.path.join(workdir, "warm-floor"))
    ingest_tables(spark, few, os.path.join(workdir, "warm-lake"), run_id="warm")
    warm_cfg = JobConfig().with_values(
        **{"output.path": os.path.join(workdir, "warm-job"), "run.progress": False}
    )
    run_job(spark, warm_cfg, [(p, "bench") for p in few], mode="batch")

    t0 = time.perf_counter()
    floor_job(spark, paths, os.path.join(workdir, "floor"))
    res["floor_s"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    ing, phases = ingest_tables(spark, paths, os.path.join(workdir, "ingest_lake"))
    res["ingest_s"] = time.perf_counter() - t0
    res["ingest_phases"] = {k: round(v, 2) for k, v in phases.items()}
    if hasattr(ing, "unpersist"):
        ing.unpersist()

    lake = os.path.join(workdir, "lake")
    cfg = JobConfig().with_values(**{"output.path": lake, "run.progress": False})
    t0 = time.perf_counter()
    summary = run_job(spark, cfg, [(p, "bench") for p in paths], mode="batch")
    res["job_s"] = time.perf_counter() - t0
    res["job_events"] = getattr(summary, "events", None)
    stages, prev = [], 0.0
    for name, at in getattr(summary, "stages", []):
        stages.append([name, round(at - prev, 2)])
        prev = at
    res["job_stages"] = stages
    res["job_groups"] = getattr(summary, "groups_replayed", None)
    res["replay_errors"] = getattr(summary, "replay_errors", None)
    spark.stop()
    return res


class RssPoller:
    """Peak RSS of a process tree by role: driver JVM, driver Python, Python workers."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = {"jvm_mb": 0.0, "driver_python_mb": 0.0, "workers_mb": 0.0}
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> RssPoller:
        self._t.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._t.join()

    @staticmethod
    def _children() -> dict[int, list[int]]:
        kids: dict[int, list[int]] = {}
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                with open(f"/proc/{d}/stat", encoding="utf-8") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            kids.setdefault(ppid, []).append(int(d))
        return kids

    @staticmethod
    def _rss_cmd(pid: int) -> tuple[float, str]:
        try:
            with open(f"/proc/{pid}/status", encoding="utf-8") as fh:
                rss = next((int(line.split()[1]) for line in fh if line.startswith("VmRSS:")), 0)
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmd = fh.read().replace(b"\0", b" ").decode(errors="replace")
            return rss / 1024.0, cmd
        except OSError:
            return 0.0, ""

    def _tree(self) -> list[int]:
        """This process and all its descendants."""
        kids = self._children()
        tree, todo = [], [self.pid]
        while todo:
            p = todo.pop()
            tree.append(p)
            todo.extend(kids.get(p, ()))
        return tree

    def _sample_rss(self, tree: list[int]) -> None:
        """Peak RSS by role: the driver JVM, this (driver) Python, the Python workers."""
        jvm = py = workers = 0.0
        for p in tree:
            mb, cmd = self._rss_cmd(p)
            if p == self.pid:
                py += mb
            elif "java" in cmd.split(" ", 1)[0]:
                jvm += mb
            elif "python" in cmd:
                workers += mb
        for k, v in (("jvm_mb", jvm), ("driver_python_mb", py), ("workers_mb", workers)):
            self.peak[k] = max(self.peak[k], v)

    def _run(self) -> None:
        while not self._stop.wait(0.1):
            self._sample_rss(self._tree())


def spark_run(master: str, root: str) -> dict[str, Any]:
    workdir = tempfile.mkdtemp(prefix="rl-bench-")
    result_file = os.path.join(workdir, "result.json")
    code = (
        f"import json,sys; sys.path.insert(0, {ROOT!r}); from benchmarks.run import child; "
        f"r = child({master!r}, {root!r}, {workdir!r}); json.dump(r, open({result_file!r}, 'w')); "
        "from jobs.process import exit_process; exit_process(0)"  # no Arrow thread-pool abort at exit
    )
    env = {
        **os.environ,
        # workers import this tree (not an editable install elsewhere)
        "PYTHONPATH": os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p),
        "PYSPARK_PYTHON": sys.executable,
        "PYSPARK_DRIVER_PYTHON": sys.executable,
        "TZ": "UTC",
    }
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)  # fmt: skip
    with RssPoller(proc.pid) as poller:
        log, _ = proc.communicate()
    wall = time.perf_counter() - t0
    res: dict[str, Any] = {
        "master": master,
        "child_wall_s": wall,
        "rss_peak": poller.peak,
        "returncode": proc.returncode,
    }
    if proc.returncode == 0 and os.path.exists(result_file):
        with open(result_file, encoding="utf-8") as fh:
            res.update(json.load(fh))
    else:
        res["error"] = log[-3000:]
    shutil.rmtree(workdir, ignore_errors=True)
    return res


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line (``--help``)."""
    ap = argparse.ArgumentParser(prog="python -m benchmarks.run")
    ap.add_argument("--size", choices=sorted(SIZES), default="1M")
    ap.add_argument("--reuse", action="store_true", help="reuse benchmarks/corpus/<size> if present")
    ap.add_argument("--masters", default="local[1],local[2]", help="Spark masters to measure")
    ap.add_argument("--skip-spark", action="store_true")
    ap.add_argument("--skip-python", action="store_true", help="skip the single-process pipeline")
    ap.add_argument("--skip-core", action="store_true", help="skip bench_core")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument(
        "--protocol",
        choices=("classic", "mixed", "consumer"),
        default="classic",
        help="groups' protocol in the corpus (mixed: classic and KIP-848 groups, one converted)",
    )
    ap.add_argument(
        "--rewrite-report", action="store_true", help="only re-render report.md from out/results-<size>.json"
    )
    return ap.parse_args(argv)


def _rewrite_report(a: argparse.Namespace) -> None:
    """Re-evaluate and re-render the stored results of ``--size`` (no measurement)."""
    with open(os.path.join(a.out, f"results-{a.size}.json"), encoding="utf-8") as fh:
        stored = json.load(fh)
    earlier = earlier_results(a.out, a.size)
    stored["scale"] = scale_table(earlier, a.size, stored)
    stored["checks"] = evaluate(stored, earlier)
    with open(os.path.join(a.out, "report.json"), "w", encoding="utf-8") as fh:
        json.dump(stored, fh, indent=1, default=str)
    print(write_report(stored, a.out))


def _measure(a: argparse.Namespace) -> dict[str, Any]:
    """Machine, corpus, core replay, the pure-Python pipeline and the Spark masters."""
    results: dict[str, Any] = {
        "size": a.size,
        "protocol": a.protocol,
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    results["machine"] = machine()
    results["loadavg_start"] = os.getloadavg()
    results["cpu_scaling"] = cpu_scaling()
    print(f"cpu scaling: {results['cpu_scaling']}", flush=True)
    results["commit"] = os.environ.get("BENCH_COMMIT") or git_head()
    root, results["corpus"] = corpus(a.size, a.reuse, protocol=a.protocol)
    print(f"corpus: {results['corpus']}", flush=True)
    results["core"] = {"available": False, "error": "skipped (--skip-core)"} if a.skip_core else core_bench()
    print("core done", flush=True)
    results["python"] = {} if a.skip_python else python_pipeline(root)
    print(f"python pipeline: {results['python'].get('seconds')} s", flush=True)
    results["spark"] = []
    if not a.skip_spark:
        for master in [m.strip() for m in a.masters.split(",") if m.strip()]:
            r = spark_run(master, root)
            print(
                f"{master}: { {k: r.get(k) for k in ('floor_s', 'ingest_s', 'job_s', 'error')} }", flush=True
            )
            results["spark"].append(r)
    return results


def _conclude(results: dict[str, Any], a: argparse.Namespace) -> None:
    """Scale figures, target checks, ``results-<size>.json`` / ``report.json`` and the report."""
    lines = results["corpus"]["lines"]
    best = [r["job_s"] for r in results["spark"] if "job_s" in r]
    if best:
        results["job_s_per_mline"] = min(best) / lines * 1e6
    earlier = earlier_results(a.out, a.size)
    results["scale"] = scale_table(earlier, a.size, results)
    results["loadavg_end"] = os.getloadavg()
    results["checks"] = evaluate(results, earlier)
    tag = a.size if a.protocol == "classic" else f"{a.size}-{a.protocol}"
    with open(os.path.join(a.out, f"results-{tag}.json"), "w", encoding="utf-8") as fh:
        json.dump(results, fh, indent=1, default=str)
    with open(os.path.join(a.out, "report.json"), "w", encoding="utf-8") as fh:
        json.dump(results, fh, indent=1, default=str)
    print(write_report(results, a.out))


def main(argv: list[str] | None = None) -> int:
    a = _parse_args(argv)
    if a.rewrite_report:
        _rewrite_report(a)
        return 0
    os.makedirs(a.out, exist_ok=True)
    _conclude(_measure(a), a)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, ROOT)
    from jobs.process import run_main  # leaves without the Arrow thread-pool abort at exit

    run_main(main)
