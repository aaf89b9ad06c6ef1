"""Per-layout reading: recall of every envelope / record shape and single-process parse speed.

    python benchmarks/bench_layouts.py [--baseline DIR] [--lines 20000] [--repeat 3]

1. *recall*: the coordinator messages of ``tests/ingest/envelope_shapes.py`` (the golden lines of
   ``tests/fixtures/dialects``, those the control layout reads as expected) rendered in every shape
   of ``SHAPES``; per shape the share read with the expected kind, group, generation, member id
   and the application's timestamp to the millisecond;
2. *speed*: ``parse_bytes`` lines/s (fast reader) per corpus: the files of ``bench_ingest``'s
   mixed corpus (Kafka log4j brokers, Spring Boot clients, JSON lines), the samples, a simulated
   corpus per client layout, and each shape's file (``--lines`` lines); ``read_bytes`` lines/s
   (reference reader) per shape on a tenth of them.

``--baseline DIR``: DIR holds another version's ``jobs`` package (e.g. ``git archive <commit> jobs
| tar -x -C DIR``); recall and fast-reader speed are measured for it too, in the same run
(alternating subprocesses, best of ``--repeat`` runs × ``--inner`` timings of each known-layout
corpus), and reported as before → after and as time ratios after/before per corpus (with their
geometric mean over the known-layout corpora). ``--interleave``: the known-layout corpora only,
both versions loaded in this one process and timed alternately, file by file (the steadiest
ratios on a shared machine). Prints a table; writes ``benchmarks/out/layouts.json``.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


# ------------------------------------------------------------------------------ corpora
def _load(path: str) -> list:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def _write(path: str, data: bytes) -> str:
    with open(path, "wb") as fh:
        fh.write(data)
    return path


def _shape_files(work: str, items_path: str, lines: int) -> dict[str, str]:
    from tests.ingest import envelope_shapes as S

    its = [S.Item(**x) for x in _load(items_path)]
    out = {}
    for shape in S.SHAPES:
        reps = max(1, lines // len(its))
        data, _ = S.render(shape, its * reps)
        out[f"shape:{shape}"] = _write(os.path.join(work, f"shape-{shape}.log"), data)
    return out


def _simulated(work: str) -> dict[str, str]:
    from jobs.simulate import SimConfig, simulate
    from jobs.simulate.render_client import LAYOUTS

    out = {}
    for k, layout in enumerate(LAYOUTS):
        d = os.path.join(work, f"sim-{layout}")
        simulate(SimConfig(out=d, groups=3, members=4, hours=0.5, seed=11 + k, layout=layout, noise_ratio=0.3))
        files = sorted(f for f in glob.glob(os.path.join(d, "**/*"), recursive=True)
                       if os.path.isfile(f) and "/truth/" not in f)  # fmt: skip
        out[f"sim:{layout}"] = _write(os.path.join(work, f"sim-{layout}.log"),
                                      b"".join(_read_plain(f) for f in files if "client" in f) or _read_plain(files[0]))  # fmt: skip
    return out


def _read_file(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def _read_plain(path: str) -> bytes:
    import gzip

    with open(path, "rb") as fh:
        data = fh.read()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def corpora(work: str, items_path: str, lines: int, shapes: bool = True) -> dict[str, str]:
    """Name → file of every corpus measured."""
    from benchmarks.bench_ingest import build_corpus

    out = {f"mixed:{os.path.basename(p)}": p for p in build_corpus(lines * 5, os.path.join(work, "mixed"))}
    for p in sorted(glob.glob(os.path.join(ROOT, "jobs/samples/**/*.log"), recursive=True)):
        out[f"sample:{os.path.relpath(p, os.path.join(ROOT, 'jobs/samples'))}"] = p
    out.update(_simulated(work))
    if shapes:
        out.update(_shape_files(work, items_path, lines))
    return out


# ------------------------------------------------------------------------------ one version
def _lines(data: bytes) -> int:
    return data.count(b"\n") + (0 if data.endswith(b"\n") else 1)


def measure(spec: dict) -> dict:
    """In this process (one version of ``jobs``): recall per shape and seconds per corpus."""
    from jobs.ingest.parse import parse_bytes
    from tests.ingest import envelope_shapes as S

    its = [S.Item(**x) for x in _load(spec["items"])]
    out: dict = {"recall": {sh: S.score(sh, its)[0] for sh in S.SHAPES}, "n_items": len(its), "fast": {}, "ref": {}}
    for name, path in spec["corpora"].items():
        data = _read_file(path)
        parse_bytes(_read_plain(path)[:65536], "warm.log", settings=S.SETTINGS)  # (warm: compiled regexes)
        best = float("inf")
        for _ in range(1 if name.startswith("shape:") else spec.get("inner", 3)):  # (known layouts: best of n)
            t = time.process_time()  # (CPU time: the machine may be shared)
            parse_bytes(data, path, settings=S.SETTINGS)
            best = min(best, time.process_time() - t)
        out["fast"][name] = (best, _lines(_read_plain(path)))
        if spec.get("reference") and name.startswith("shape:"):
            from jobs.ingest.reference import read_bytes

            part = data[: max(1, len(data) // 10)]
            part = part[: part.rfind(b"\n") + 1]
            t = time.process_time()
            read_bytes(part, path, settings=S.SETTINGS)
            out["ref"][name] = (time.process_time() - t, _lines(part))
    return out


def _run(tree: str, spec: dict) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([tree, ROOT]))
    code = "import json,sys; from benchmarks.bench_layouts import measure; print(json.dumps(measure(json.load(sys.stdin))))"
    p = subprocess.run([sys.executable, "-c", code], input=json.dumps(spec), env=env, capture_output=True, text=True,
                       check=True, cwd=tree)  # fmt: skip
    return json.loads(p.stdout.strip().splitlines()[-1])


def _best(runs: list[dict]) -> dict:
    best = runs[0]
    for r in runs[1:]:
        for kind in ("fast", "ref"):
            for k, (sec, n) in r[kind].items():
                if sec < best[kind][k][0]:
                    best[kind][k] = (sec, n)
    return best


# ------------------------------------------------------------------------------ both versions in one process
def _version(tree: str) -> tuple[object, dict]:
    """``parse_bytes`` of the ``jobs`` package under ``tree``, loaded beside this process's own, and
    that version's modules (swapped into ``sys.modules`` around each call)."""
    mine = {k: sys.modules.pop(k) for k in list(sys.modules) if k == "jobs" or k.startswith("jobs.")}
    sys.path.insert(0, tree)
    try:
        from jobs.ingest.parse import parse_bytes
    finally:
        sys.path.remove(tree)
    theirs = {k: sys.modules.pop(k) for k in list(sys.modules) if k == "jobs" or k.startswith("jobs.")}
    sys.modules.update(mine)
    return parse_bytes, theirs


def _timed(version: tuple[object, dict], data: bytes, name: str, settings) -> float:
    fn, mods = version
    mine = {k: sys.modules[k] for k in mods if k in sys.modules}
    sys.modules.update(mods)
    try:  # (CPU time of the process: the machine may be shared)
        t = time.process_time()
        fn(data, name, settings=settings)
        return time.process_time() - t
    finally:
        sys.modules.update(mine)


def interleaved(files: dict[str, str], baseline: str, rounds: int) -> dict[str, tuple[float, float, int]]:
    """Per corpus: (best seconds before, best seconds after, lines), the two versions timed
    alternately in this process (``rounds`` each, the order flipped every round)."""
    from tests.ingest import envelope_shapes as S

    versions = [_version(baseline), _version(ROOT)]
    out = {}
    for name, path in files.items():
        data = _read_file(path)
        best = [float("inf"), float("inf")]
        for v in versions:
            _timed(v, _read_plain(path)[:65536], "warm.log", S.SETTINGS)
        for r in range(rounds):
            for k in ((0, 1) if r % 2 == 0 else (1, 0)):
                best[k] = min(best[k], _timed(versions[k], data, path, S.SETTINGS))
        out[name] = (best[0], best[1], _lines(_read_plain(path)))
    return out


# ------------------------------------------------------------------------------ report
def _report(cur: dict, base: dict | None) -> str:
    n = cur["n_items"]
    rows = [f"recall over {n} messages per shape" + (" (before -> after)" if base else "")]
    for sh, ok in cur["recall"].items():
        before = f"{100 * base['recall'].get(sh, 0) / n:5.1f}% -> " if base else ""
        rows.append(f"  {sh:24s} {before}{100 * ok / n:5.1f}%")
    if base:
        import math

        known = [sec / base["fast"][k][0] for k, (sec, _) in cur["fast"].items() if not k.startswith("shape:")]
        rows.append(f"known-layout corpora: geometric mean time ratio after/before x{math.exp(sum(map(math.log, known)) / len(known)):.3f}")
    rows.append("speed: lines/s (fast" + (", time ratio after/before" if base else "") + "; reference on shapes)")
    for k, (sec, lines) in cur["fast"].items():
        ratio = f"  x{sec / base['fast'][k][0]:.2f}" if base and k in base["fast"] else ""
        ref = f"  ref {cur['ref'][k][1] / cur['ref'][k][0]:9.0f}" if k in cur["ref"] else ""
        rows.append(f"  {k:44s} {lines / sec:10.0f}{ratio}{ref}")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", help="a directory holding another version's jobs package")
    ap.add_argument("--lines", type=int, default=20000, help="lines per shape file (the mixed corpus: 5x)")
    ap.add_argument("--repeat", type=int, default=3, help="alternating runs per version")
    ap.add_argument("--inner", type=int, default=3, help="timings per known-layout corpus in a run (best)")
    ap.add_argument("--no-shapes", action="store_true", help="speed of the known-layout corpora only")
    ap.add_argument("--interleave", action="store_true",
                    help="known-layout corpora only: both versions in this process, timed alternately --inner times")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    args = ap.parse_args()
    sys.path.insert(0, ROOT)
    from tests.ingest import envelope_shapes as S

    work = tempfile.mkdtemp(prefix="bench-layouts-")
    items_path = os.path.join(work, "items.json")
    its = S.controlled(S.items(S.dialect_fixture_catalogue()))
    with open(items_path, "w", encoding="utf-8") as fh:
        json.dump([it.__dict__ for it in its], fh)
    spec = {"items": items_path, "corpora": corpora(work, items_path, args.lines, not args.no_shapes),
            "inner": args.inner}  # fmt: skip
    if args.interleave:
        if not args.baseline:
            ap.error("--interleave needs --baseline")
        files = {k: v for k, v in spec["corpora"].items() if not k.startswith("shape:")}
        res = interleaved(files, args.baseline, args.inner)
        for k, (before, after, lines) in res.items():
            print(f"  {k:44s} before {lines / before:9.0f}  after {lines / after:9.0f} lines/s  x{after / before:.3f}")
        import math

        print(f"geometric mean time ratio after/before x{math.exp(sum(math.log(a / b) for b, a, _ in res.values()) / len(res)):.3f}")
        return
    cur_runs, base_runs = [], []
    for k in range(args.repeat):
        if args.baseline:
            base_runs.append(_run(args.baseline, spec))
        cur_runs.append(_run(ROOT, {**spec, "reference": k == 0}))
    cur, base = _best(cur_runs), (_best(base_runs) if base_runs else None)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "layouts.json"), "w", encoding="utf-8") as fh:
        json.dump({"after": cur, "before": base}, fh, indent=1)
    print(_report(cur, base))


if __name__ == "__main__":
    main()
