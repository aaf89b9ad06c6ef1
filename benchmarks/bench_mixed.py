"""Whole job vs. the floor job on a MIXED simulated corpus, with the job's stage times, CPU use and a
single-process parse profile per file kind.

    python -m benchmarks.bench_mixed --lines 2000000 [--reuse] [--master local[2]] [--cprofile]

1. *Corpus* (``benchmarks/corpus/mixed-<lines>/``, git-ignored; ``--reuse`` keeps it): one simulator
   run (``jobs.simulate``) per part of :data:`PARTS` - every broker dialect the simulator offers
   (Scala coordinator of 2.8 and 3.9, the Java coordinator of 4.x), Spring Boot and plain log4j
   client layouts, DEBUG heartbeats in most parts, 10-20 % unrelated lines, classic and
   consumer-protocol groups - each part its own cluster; then a quarter of the log files (spread
   over the kinds) gzipped. Deterministic by ``--seed``. ``manifest.json`` lists every file with its
   part, role, dialect, layout, lines and DEBUG lines.
2. *Spark* (a fresh child process at ``--master``): a warm-up (floor and whole job once over a few
   small files of different kinds), then the *floor* job (``read.text`` + one ``regexp_extract`` of
   the timestamp + Parquet write, :func:`benchmarks.run.floor_job`) and the *whole job*
   (``jobs.pipeline.run_job`` batch into an empty lakehouse), in the same child. Per phase: wall
   time, the CPU time of the child's process tree (``utime + stime`` from ``/proc/<pid>/stat`` of
   every process of the tree, sampled every 100 ms; the sampler's own thread left out) as average
   utilisation = CPU / (wall x cores), and the peak RSS by role. The job's own stage times come from
   its progress stages (``RunSummary.stages``).
3. *Single-process profile*: ``jobs.ingest.parse.parse_bytes`` over every file in this process, lines/s
   per kind (broker logs per dialect, client logs per layout with / without DEBUG heartbeats, the
   gzipped files; for those also the gunzip alone and the parse of the same text uncompressed).
   ``--cprofile`` also writes a cProfile of that pass to ``out/mixed-<lines>.prof`` and prints the top
   functions.

Writes ``benchmarks/out/mixed-<lines>.json`` and ``benchmarks/out/mixed-<lines>.md`` (command, commit).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from benchmarks.run import RssPoller, floor_job, git_head  # noqa: E402

GOAL_RATIO = 1.5  # the whole job on the mixed corpus, against the floor job of the same run
CORPUS_VERSION = 1  # bump when PARTS or the gzip rule change (a reused corpus must match)


@dataclass(frozen=True)
class Part:
    """One simulator run of the mixed corpus (its own cluster)."""

    name: str
    dialect: str
    layout: str
    share: float
    protocol: str = "classic"
    debug_heartbeats: bool = True
    broker_debug: bool = False
    noise_ratio: float = 0.1


PARTS = (
    Part("scala28-log4j", "scala2", "log4j", 0.15),
    Part("scala39-springboot", "scala3", "springboot", 0.30, noise_ratio=0.2),
    Part("scala39-log4j-nodebug", "scala3", "log4j", 0.10, debug_heartbeats=False),
    Part("java4-springboot-mixed", "java4", "springboot", 0.25, protocol="mixed", broker_debug=True),
    Part("java4-log4j-consumer", "java4", "log4j", 0.10, protocol="consumer"),
    Part("java4-log4j-classic", "java4", "log4j", 0.10),
)


# ----------------------------------------------------------------------------------- corpus
def build_corpus(lines: int, reuse: bool, seed: int) -> tuple[str, dict[str, Any]]:
    """The mixed corpus of about ``lines`` lines; returns its folder and its manifest."""
    out = os.path.join(HERE, "corpus", f"mixed-{lines}")
    manifest_path = os.path.join(out, "manifest.json")
    if reuse and os.path.exists(manifest_path):
        with open(manifest_path, encoding="utf-8") as fh:
            manifest = json.load(fh)
        if manifest.get("version") == CORPUS_VERSION and manifest.get("seed") == seed:
            manifest["reused"] = True
            return out, manifest
    shutil.rmtree(out, ignore_errors=True)
    t0 = time.perf_counter()
    files: list[dict[str, Any]] = []
    for i, part in enumerate(PARTS):
        files += _simulate_part(out, part, int(lines * part.share), seed * 100 + i)
    _gzip_quarter(out, files, seed)
    manifest = {"version": CORPUS_VERSION, "seed": seed, "target_lines": lines, "files": files,
                "parts": [asdict(p) for p in PARTS], "lines": sum(f["lines"] for f in files),
                "bytes": sum(f["bytes"] for f in files), "seconds": time.perf_counter() - t0}  # fmt: skip
    with open(manifest_path, "w", encoding="utf-8") as fh:
        json.dump(manifest, fh, indent=1)
    manifest["reused"] = False
    print(f"corpus: {manifest['lines']:,} lines, {len(files)} files in {manifest['seconds']:.0f}s -> {out}",
          flush=True)  # fmt: skip
    return out, manifest


def _simulate_part(out: str, part: Part, lines: int, seed: int) -> list[dict[str, Any]]:
    """One simulator run into ``out/<part>/``; one manifest row per log file."""
    from jobs.simulate import SimConfig, simulate

    folder = os.path.join(out, part.name)
    res = simulate(SimConfig(out=folder, groups=max(4, lines // 40_000), members=5, hours=10_000, seed=seed,
                             target_lines=lines, dialect=part.dialect, layout=part.layout,
                             debug_heartbeats=part.debug_heartbeats, noise_ratio=part.noise_ratio,
                             protocol=part.protocol, broker_debug=part.broker_debug,
                             incident_gap_ms=20 * 60_000))  # fmt: skip
    rows = []
    for rel in sorted(res.files):
        with open(os.path.join(folder, rel), "rb") as fh:
            data = fh.read()
        rows.append({"path": os.path.join(part.name, rel), "part": part.name, "dialect": part.dialect,
                     "role": "broker" if rel.startswith("broker") else "client",
                     "layout": "broker" if rel.startswith("broker") else part.layout,
                     "lines": data.count(b"\n"), "debug_lines": data.count(b" DEBUG "),
                     "bytes": len(data), "gz": False})  # fmt: skip
    return rows


def _gzip_quarter(out: str, files: list[dict[str, Any]], seed: int) -> None:
    """Gzip every fourth file of the list ordered by kind (role, layout, part, path), so that each
    kind has gzipped files; the rows get ``gz`` and the new path."""
    ordered = sorted(files, key=lambda f: (f["role"], f["layout"], f["part"], f["path"]))
    for i, f in enumerate(ordered):
        if (i + seed) % 4:
            continue
        src = os.path.join(out, f["path"])
        with open(src, "rb") as fh:
            data = gzip.compress(fh.read(), compresslevel=6, mtime=0)
        with open(src + ".gz", "wb") as fh:
            fh.write(data)
        os.remove(src)
        f.update(path=f["path"] + ".gz", gz=True, gz_bytes=len(data))


def corpus_paths(root: str, manifest: dict[str, Any]) -> list[tuple[str, str]]:
    """``(absolute path, cluster)`` of every log file: one cluster per part."""
    return [(os.path.join(root, f["path"]), f["part"]) for f in manifest["files"]]


def _warm_files(root: str, manifest: dict[str, Any]) -> list[tuple[str, str]]:
    """The smallest file of each kind (broker, Spring Boot, log4j client, gzipped): warm-up input."""
    picks: dict[tuple[Any, ...], dict[str, Any]] = {}
    for f in manifest["files"]:
        key = (f["role"], f["layout"], f["gz"])
        if key not in picks or f["lines"] < picks[key]["lines"]:
            picks[key] = f
    return [(os.path.join(root, f["path"]), f["part"]) for f in picks.values()]


# ----------------------------------------------------------------------------------- CPU + RSS sampler
class _TreeSampler(RssPoller):
    """Peak RSS by role (as :class:`benchmarks.run.RssPoller`) plus the CPU seconds of the process
    tree: ``utime + stime`` of every process seen (keyed by pid and start time, so a process that
    exits keeps its last sample), minus the values at entry and minus this sampler's own thread."""

    _TICK = os.sysconf("SC_CLK_TCK")

    def __init__(self, pid: int) -> None:
        super().__init__(pid)
        self._base: dict[tuple[int, int], int] = {}
        self._last: dict[tuple[int, int], int] = {}
        self._own_cpu = 0.0
        self.cpu_s = 0.0
        self.wall_s = 0.0

    def __enter__(self) -> _TreeSampler:
        self._base = self._cpu_ticks(self._tree())
        self._t0 = time.perf_counter()
        return super().__enter__()

    def __exit__(self, *exc) -> None:
        super().__exit__(*exc)
        self.wall_s = time.perf_counter() - self._t0
        ticks = sum(v - self._base.get(k, 0) for k, v in self._last.items())
        self.cpu_s = max(0.0, ticks / self._TICK - self._own_cpu)

    @staticmethod
    def _cpu_ticks(pids: list[int]) -> dict[tuple[int, int], int]:
        out = {}
        for p in pids:
            try:
                with open(f"/proc/{p}/stat", encoding="utf-8") as fh:
                    f = fh.read().rsplit(")", 1)[1].split()
                out[(p, int(f[19]))] = int(f[11]) + int(f[12])  # utime + stime; key: pid, starttime
            except (OSError, ValueError, IndexError):
                continue
        return out

    def _run(self) -> None:
        own0 = time.thread_time()
        while True:
            stop = self._stop.wait(0.1)
            tree = self._tree()
            self._last.update(self._cpu_ticks(tree))
            self._sample_rss(tree)
            if stop:
                break
        self._own_cpu = time.thread_time() - own0

    def result(self, cores: int) -> dict[str, Any]:
        return {"wall_s": round(self.wall_s, 2), "cpu_s": round(self.cpu_s, 2),
                "cores_busy": round(self.cpu_s / self.wall_s, 2) if self.wall_s else None,
                "cpu_utilisation": round(self.cpu_s / (self.wall_s * cores), 3) if self.wall_s else None,
                "rss_peak_mb": {k: round(v) for k, v in self.peak.items()}}  # fmt: skip


# ----------------------------------------------------------------------------------- spark child
def child(master: str, root: str, workdir: str) -> dict[str, Any]:
    """Runs in a fresh process: warm-up, then the floor job and the whole job, each sampled."""
    from jobs.config import JobConfig
    from jobs.pipeline import run_job
    from jobs.session import local_session

    with open(os.path.join(root, "manifest.json"), encoding="utf-8") as fh:
        manifest = json.load(fh)
    inputs = corpus_paths(root, manifest)
    cores = len(os.sched_getaffinity(0))
    spark = local_session(master=master, app_name="bench-mixed", shuffle_partitions=8)
    spark.sparkContext.setLogLevel("ERROR")
    spark.range(1000).selectExpr("sum(id)").collect()
    warm = _warm_files(root, manifest)
    floor_job(spark, [p for p, _ in warm], os.path.join(workdir, "warm-floor"))
    warm_cfg = JobConfig().with_values(
        **{"output.path": os.path.join(workdir, "warm-job"), "run.progress": False}
    )
    run_job(spark, warm_cfg, warm, mode="batch")

    res: dict[str, Any] = {"master": master, "cores": cores, "files": len(inputs), "warm_files": len(warm)}
    with _TreeSampler(os.getpid()) as floor:
        floor_job(spark, [p for p, _ in inputs], os.path.join(workdir, "floor"))
    res["floor"] = floor.result(cores)
    cfg = JobConfig().with_values(**{"output.path": os.path.join(workdir, "lake"), "run.progress": False})
    with _TreeSampler(os.getpid()) as job:
        summary = run_job(spark, cfg, inputs, mode="batch")
    res["job"] = job.result(cores)
    res["stages"] = job_stages(summary.stages)
    res["summary"] = {k: getattr(summary, k) for k in (
        "files_new", "events", "quarantined", "groups_replayed", "replay_errors", "rebalances_total",
        "storms_total", "files_not_read", "quarantine_reasons", "seconds")}  # fmt: skip
    res["summary"]["unreadable_files"] = len(summary.unreadable)
    spark.stop()
    return res


#: the job's progress stages grouped into the stages reported (a stage's time runs from the stage
#: before it to itself; "start" is the set-up before the first stage)
STAGE_GROUPS = {"start": "setup", "recover": "ingest", "ingest": "ingest", "events written": "ingest",
                "replayed": "replay", "replay tables merged": "merges", "roll-ups written": "roll-ups",
                "done": "summary"}  # fmt: skip


def job_stages(stages: list[tuple[str, float]]) -> dict[str, Any]:
    """Seconds per progress stage (``raw``) and per reported stage (``grouped``: setup, ingest,
    replay, merges, roll-ups, summary - the last is the group-state merge, the commit marker and
    the row counts)."""
    raw, grouped, prev = (
        [],
        dict.fromkeys(("setup", "ingest", "replay", "merges", "roll-ups", "summary"), 0.0),
        0.0,
    )
    for name, at in stages:
        raw.append([name, round(at - prev, 2)])
        key = STAGE_GROUPS.get(name, name)
        grouped[key] = round(grouped.get(key, 0.0) + at - prev, 2)
        prev = at
    return {"raw": raw, "grouped": grouped}


def spark_run(master: str, root: str) -> dict[str, Any]:
    """:func:`child` in a fresh Python process; its result (or the error) with the child's wall time."""
    workdir = tempfile.mkdtemp(prefix="rl-bench-mixed-")
    result_file = os.path.join(workdir, "result.json")
    code = (f"import json,sys; sys.path.insert(0, {ROOT!r}); from benchmarks.bench_mixed import child; "
            f"json.dump(child({master!r}, {root!r}, {workdir!r}), open({result_file!r}, 'w'), default=str); "
            "from jobs.process import exit_process; exit_process(0)")  # fmt: skip
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (ROOT, os.environ.get("PYTHONPATH")) if p),
           "PYSPARK_PYTHON": sys.executable, "PYSPARK_DRIVER_PYTHON": sys.executable, "TZ": "UTC"}  # fmt: skip
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    try:
        if proc.returncode != 0 or not os.path.exists(result_file):
            return {
                "master": master,
                "error": (proc.stdout[-2000:] + proc.stderr[-6000:]),
                "child_wall_s": wall,
            }
        with open(result_file, encoding="utf-8") as fh:
            return {**json.load(fh), "child_wall_s": round(wall, 1)}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


# ----------------------------------------------------------------------------------- single-process profile
def _kind(f: dict[str, Any]) -> str:
    if f["role"] == "broker":
        return f"broker {f['dialect']}"
    return f"client {f['layout']} ({'DEBUG heartbeats' if f['debug_lines'] else 'no DEBUG'})"


def parse_profile(root: str, manifest: dict[str, Any]) -> dict[str, Any]:
    """``parse_bytes`` over every file in this process: lines/s per kind (plain files by role,
    dialect and layout; the gzipped files as they are, gunzipped alone, and parsed uncompressed)."""
    from jobs.ingest.parse import parse_bytes

    kinds: dict[str, dict[str, Any]] = {}
    audit_sum = dict.fromkeys(("total_lines", "events", "continuations", "unrelated", "quarantined"), 0)
    per_file: list[tuple[int, float]] = []

    def add(kind: str, f: dict[str, Any], seconds: float, events: int, cpu: float) -> None:
        k = kinds.setdefault(kind, {"files": 0, "lines": 0, "debug_lines": 0, "events": 0, "seconds": 0.0,
                                    "cpu_s": 0.0})  # fmt: skip
        k["files"] += 1
        k["lines"] += f["lines"]
        k["debug_lines"] += f["debug_lines"]
        k["events"] += events
        k["seconds"] += seconds
        k["cpu_s"] += cpu

    for f in manifest["files"]:
        with open(os.path.join(root, f["path"]), "rb") as fh:
            data = fh.read()
        t, c = time.perf_counter(), time.process_time()
        _, _, audit = parse_bytes(data, f["path"], f["part"])
        dt, cpu = time.perf_counter() - t, time.process_time() - c
        per_file.append((f["lines"], cpu))
        for key in audit_sum:
            audit_sum[key] += int(audit.get(key) or 0)
        add("all files", f, dt, int(audit["events"] or 0), cpu)
        if not f["gz"]:
            add(_kind(f), f, dt, int(audit["events"] or 0), cpu)
            continue
        add("gzipped files, as they are", f, dt, int(audit["events"] or 0), cpu)
        t, c = time.perf_counter(), time.process_time()
        plain = gzip.decompress(data)
        add("gzipped files: gunzip alone", f, time.perf_counter() - t, 0, time.process_time() - c)
        t, c = time.perf_counter(), time.process_time()
        _, _, audit = parse_bytes(plain, f["path"].removesuffix(".gz"), f["part"])
        add("gzipped files: same text uncompressed", f, time.perf_counter() - t, int(audit["events"] or 0),
            time.process_time() - c)  # fmt: skip
    for k in kinds.values():
        k["lines_per_s"] = round(k["lines"] / k["seconds"]) if k["seconds"] else None
        k["lines_per_cpu_s"] = round(k["lines"] / k["cpu_s"]) if k["cpu_s"] else None
        k["debug_share"] = round(k["debug_lines"] / k["lines"], 3) if k["lines"] else None
        k["seconds"], k["cpu_s"] = round(k["seconds"], 2), round(k["cpu_s"], 2)
    reconciles = audit_sum["total_lines"] == sum(v for k, v in audit_sum.items() if k != "total_lines")
    return {"kinds": dict(sorted(kinds.items())), "audit": audit_sum, "accounting_reconciles": reconciles,
            "per_file_fit": per_file_fit(per_file)}  # fmt: skip


def per_file_fit(per_file: list[tuple[int, float]]) -> dict[str, Any] | None:
    """Least-squares ``cpu = fixed + lines / marginal`` over every file's parse CPU seconds (CPU, not
    wall time: robust to a loaded machine): the fixed cost of a file and the marginal lines/s."""
    import numpy as np

    if len(per_file) < 3:
        return None
    x = np.array([n for n, _ in per_file], dtype=float)
    y = np.array([c for _, c in per_file])
    slope, fixed = np.polyfit(x, y, 1)
    return {"files": len(per_file), "fixed_ms_per_file": round(float(fixed) * 1000, 1),
            "marginal_lines_per_cpu_s": round(1 / slope) if slope > 0 else None,
            "fixed_share_of_cpu": round(float(fixed) * len(x) / float(y.sum()), 3),
            "cpu_s": round(float(y.sum()), 2)}  # fmt: skip


def cprofile_parse(root: str, manifest: dict[str, Any], out_path: str, top: int = 30) -> list[dict[str, Any]]:
    """cProfile of one ``parse_bytes`` pass over the corpus; the stats go to ``out_path``; returns the
    ``top`` functions by own time."""
    import cProfile
    import pstats

    from jobs.ingest.parse import parse_bytes

    blobs = []
    for f in manifest["files"]:
        with open(os.path.join(root, f["path"]), "rb") as fh:
            blobs.append((fh.read(), f["path"], f["part"]))
    prof = cProfile.Profile()
    prof.enable()
    for data, path, part in blobs:
        parse_bytes(data, path, part)
    prof.disable()
    prof.dump_stats(out_path)
    st = pstats.Stats(prof)
    rows = [{"function": f"{os.path.relpath(fn, ROOT) if fn.startswith(ROOT) else fn}:{line}({name})",
             "ncalls": nc, "tottime": round(tt, 3), "cumtime": round(ct, 3)}
            for (fn, line, name), (_cc, nc, tt, ct, _callers) in st.stats.items()]  # type: ignore[attr-defined]  # fmt: skip
    return sorted(rows, key=lambda r: -r["tottime"])[:top]


# ----------------------------------------------------------------------------------- report
def round_ratios(spark: dict[str, Any]) -> dict[str, Any] | None:
    """Whole job / floor of one child run: wall and CPU ratios, the two wall times, the job's stages."""
    if "job" not in spark or "floor" not in spark:
        return None
    job, floor = spark["job"], spark["floor"]
    return {"job_vs_floor": round(job["wall_s"] / floor["wall_s"], 3),
            "job_vs_floor_cpu": round(job["cpu_s"] / floor["cpu_s"], 3) if floor["cpu_s"] else None,
            "floor_s": floor["wall_s"], "job_s": job["wall_s"], "stages": spark["stages"]["grouped"]}  # fmt: skip


def conclude(args: argparse.Namespace, manifest: dict[str, Any], spark: dict[str, Any],
             profile: dict[str, Any] | None, rounds: list[dict[str, Any]] | None = None) -> dict[str, Any]:  # fmt: skip
    """The ``mixed-<lines>.json`` figures: ratio and lines/s from the first child run; with several
    ``rounds`` (one fresh child each) the headline ratios are their mean."""
    lines = manifest["lines"]
    res: dict[str, Any] = {
        "command": "python -m benchmarks.bench_mixed " + " ".join(args.argv),
        "commit": os.environ.get("BENCH_COMMIT") or _commit(),
        "cores": len(os.sched_getaffinity(0)),
        "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "loadavg_end": os.getloadavg(),
        "corpus": {k: manifest[k] for k in ("lines", "bytes", "seed", "reused", "parts")}
        | {"files": len(manifest["files"]), "gz_files": sum(f["gz"] for f in manifest["files"])},
        "spark": spark,
        "parse_profile": profile,
        "goal_job_vs_floor": GOAL_RATIO,
    }
    if "job" in spark and "floor" in spark:
        job_s, floor_s = spark["job"]["wall_s"], spark["floor"]["wall_s"]
        cpu = spark["job"]["cpu_s"] / spark["floor"]["cpu_s"] if spark["floor"]["cpu_s"] else None
        res.update(job_vs_floor=round(job_s / floor_s, 3), job_vs_floor_cpu=round(cpu, 3) if cpu else None,
                   job_lines_per_s=round(lines / job_s),
                   floor_lines_per_s=round(lines / floor_s))  # fmt: skip
    done = [r for r in (rounds or []) if r]
    if len(done) > 1:
        res["rounds"] = done
        res["job_vs_floor"] = round(statistics.fmean(r["job_vs_floor"] for r in done), 3)
        cpus = [r["job_vs_floor_cpu"] for r in done if r["job_vs_floor_cpu"]]
        res["job_vs_floor_cpu"] = round(statistics.fmean(cpus), 3) if cpus else None
    return res


def _commit() -> str | None:
    """``git rev-parse --short HEAD``, with ``+changes`` when tracked files differ from it."""
    head = git_head()
    st = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True
    )
    return f"{head}+changes" if head and st.stdout.strip() else head


def _fmt(v: Any, nd: int = 0) -> str:
    if v is None:
        return "n/a"
    return f"{v:,.{nd}f}" if isinstance(v, int | float) else str(v)


def render_md(res: dict[str, Any]) -> str:
    """The short markdown report."""
    c, sp = res["corpus"], res["spark"]
    md = [f"# Mixed-corpus whole-job benchmark ({_fmt(c['lines'])} lines)", "",
          f"Command: `{res['command']}`  ", f"Commit: `{res['commit']}`, {res['when']}, load average at end "
          f"{res['loadavg_end'][0]:.1f} on {res['cores']} cores (read the ratios, not the seconds).", "",
          f"Corpus: {_fmt(c['lines'])} lines, {_fmt(c['bytes'] / 1e6, 1)} MB, {c['files']} files ({c['gz_files']} "
          "gzipped), seed " + str(c["seed"]) + "; parts: "
          + ", ".join(f"{p['name']} {p['share']:.0%}" for p in c["parts"]) + ".", ""]  # fmt: skip
    if "error" in sp:
        return "\n".join([*md, "Spark child failed:", "", "```", sp["error"][-2000:], "```", ""])
    if "job" not in sp:
        return "\n".join(md + ["Spark not run (`--skip-spark`).", ""] + _profile_md(res.get("parse_profile")))
    md += ["| phase | wall s | lines/s | x floor | CPU s | cores busy | CPU use | peak RSS JVM / driver py / workers MB |",
           "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for label, key in (("floor job", "floor"), ("whole job", "job")):
        r = sp[key]
        rss = r["rss_peak_mb"]
        md.append(f"| {label} ({sp['master']}) | {r['wall_s']:.1f} | {_fmt(c['lines'] / r['wall_s'])} | "
                  f"{r['wall_s'] / sp['floor']['wall_s']:.2f} | {r['cpu_s']:.1f} | {r['cores_busy']:.2f} | "
                  f"{r['cpu_utilisation']:.0%} | {rss['jvm_mb']} / {rss['driver_python_mb']} / {rss['workers_mb']} |")  # fmt: skip
    g = sp["stages"]["grouped"]
    rounds = res.get("rounds")
    if rounds:
        md += ["", f"{len(rounds)} rounds, each a fresh child (warm-up, floor job, whole job); the first is above:", "",
               "| round | floor s | job s | job / floor | in CPU s | ingest / replay / merges s |", "|---|---|---|---|---|---|"]  # fmt: skip
        for i, r in enumerate(rounds, 1):
            st = r["stages"]
            md.append(f"| {i} | {r['floor_s']:.1f} | {r['job_s']:.1f} | {r['job_vs_floor']:.2f} | "
                      f"{_fmt(r['job_vs_floor_cpu'], 2)} | {st['ingest']:.1f} / {st['replay']:.1f} / {st['merges']:.1f} |")  # fmt: skip
    what = f"mean of {len(rounds)} rounds" if rounds else "first round"
    md += ["", f"Whole job / floor ({what}): **{res['job_vs_floor']:.2f}x** (goal <= {res['goal_job_vs_floor']}x); "
           f"in CPU seconds of the process tree {_fmt(res.get('job_vs_floor_cpu'), 2)}x. "
           "Job stages (s): " + ", ".join(f"{k} {v:.1f}" for k, v in g.items()) + ".", ""]  # fmt: skip
    s = sp["summary"]
    md += [f"Job: {_fmt(s['events'])} events, {_fmt(s['quarantined'])} quarantined, {s['groups_replayed']} groups, "
           f"{s['rebalances_total']} rebalances, {s['replay_errors']} replay errors, "
           f"{len(s['files_not_read'])} files not read, {s['unreadable_files']} files with unreadable lines.", ""]  # fmt: skip
    prof = res.get("parse_profile")
    if prof:
        same = prof["audit"]["events"] == s["events"]
        md += [f"Events of the job {'=' if same else '!='} events of the single-process parse below.", ""]
    md += _profile_md(prof)
    return "\n".join(md)


def _profile_md(p: dict[str, Any] | None) -> list[str]:
    if not p:
        return []
    md = ["## Single-process parse (`parse_bytes`, one process, no Spark)", "",
          "| kind | files | lines | DEBUG share | s | lines/s | CPU s | lines/CPU-s |",
          "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for name, k in p["kinds"].items():
        md.append(f"| {name} | {k['files']} | {_fmt(k['lines'])} | {_fmt(k['debug_share'], 2)} | "
                  f"{k['seconds']:.2f} | {_fmt(k['lines_per_s'])} | {_fmt(k.get('cpu_s'), 2)} | "
                  f"{_fmt(k.get('lines_per_cpu_s'))} |")  # fmt: skip
    a = p["audit"]
    md += ["", f"Line accounting: {_fmt(a['total_lines'])} lines = {_fmt(a['events'])} events + "
           f"{_fmt(a['continuations'])} continuations + {_fmt(a['unrelated'])} unrelated + "
           f"{_fmt(a['quarantined'])} quarantined ({'reconciles' if p['accounting_reconciles'] else 'DOES NOT reconcile'}).", ""]  # fmt: skip
    fit = p.get("per_file_fit")
    if fit:
        md += [f"Per-file cost (least squares over the {fit['files']} files' parse CPU seconds): "
               f"{fit['fixed_ms_per_file']} ms fixed per file + {_fmt(fit['marginal_lines_per_cpu_s'])} lines per "
               f"CPU-second; the fixed part is {fit['fixed_share_of_cpu']:.0%} of the {fit['cpu_s']} CPU-s.", ""]  # fmt: skip
    return md


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.bench_mixed", description=__doc__.split("\n")[0])
    ap.add_argument("--lines", type=int, default=2_000_000)
    ap.add_argument("--master", default="local[2]")
    ap.add_argument("--reuse", action="store_true", help="reuse benchmarks/corpus/mixed-<lines> if present")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--skip-spark", action="store_true", help="corpus and single-process profile only")
    ap.add_argument("--skip-profile", action="store_true", help="no single-process parse profile")
    ap.add_argument("--cprofile", action="store_true", help="also a cProfile of single-process parsing")
    ap.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="fresh child runs (warm-up, floor, job) to average the ratio over (default 1)",
    )
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    args = ap.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    root, manifest = build_corpus(args.lines, args.reuse, args.seed)
    runs = [] if args.skip_spark else [spark_run(args.master, root) for _ in range(max(1, args.rounds))]
    spark = runs[0] if runs else {"skipped": True}
    if "error" in spark:
        print(spark["error"], file=sys.stderr)
    profile = None if args.skip_profile else parse_profile(root, manifest)
    os.makedirs(args.out, exist_ok=True)
    res = conclude(args, manifest, spark, profile, [round_ratios(r) for r in runs])
    if args.cprofile:
        res["cprofile_top"] = cprofile_parse(
            root, manifest, os.path.join(args.out, f"mixed-{args.lines}.prof")
        )
    stem = os.path.join(args.out, f"mixed-{args.lines}")
    with open(stem + ".json", "w", encoding="utf-8") as fh:
        json.dump(res, fh, indent=1, default=str)
    text = render_md(res)
    with open(stem + ".md", "w", encoding="utf-8") as fh:
        fh.write(text)
    print(text)
    for r in res.get("cprofile_top", []):
        print(f"{r['tottime']:8.3f} {r['cumtime']:8.3f} {r['ncalls']:>9} {r['function']}")
    return 0 if "error" not in spark else 1


if __name__ == "__main__":
    from jobs.process import run_main  # leaves without the Arrow thread-pool abort at exit

    run_main(main)
