"""Core replay benchmark: events/s of GroupReplay.feed_rows on in-memory streams.

Two synthetic streams of flat rows (tuples in EVENT_FIELDS order, as the job feeds them;
:mod:`jobs.simulate.event_streams`): ``heartbeat`` (a stable group, DEBUG heartbeats > 99 % of the
lines, a rebalance every ~10 minutes) and ``storm`` (back-to-back rebalances, no heartbeats).

Baseline measured in the same run: a bare Python loop over the same rows doing one dict update per
row (``last[row[4]] = row[0]``). Reported: events/s of both and the ratio replay/baseline.

Usage: ``python benchmarks/bench_core.py [--rows N] [--repeat R]``; writes ``benchmarks/out/core.json``.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import platform
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from coordinator_core.history import ROUTE_KINDS, GroupHistory  # noqa: E402
from coordinator_core.replay import GroupReplay  # noqa: E402
from jobs.simulate.event_streams import G, heartbeat_stream, storm_stream  # noqa: E402

__all__ = ["G", "heartbeat_stream", "measure", "storm_stream"]


def baseline(rows) -> float:
    t0 = time.perf_counter()
    last = {}
    for r in rows:
        last[r[4]] = r[0]
    return time.perf_counter() - t0


def replay(rows, cls: type = GroupReplay) -> tuple[float, GroupReplay]:
    r = cls(G)
    # the job finds the rows that may switch the protocol with one Arrow call (jobs.replay_udf.route_rows)
    route = [i for i, x in enumerate(rows) if x[2] in ROUTE_KINDS] if cls is GroupHistory else None
    t0 = time.perf_counter()
    if route is None:
        r.feed_rows(rows)
    else:
        r.feed_rows(rows, route)
    out = r.flush(final=True)
    dt = time.perf_counter() - t0
    assert not [a for a in out.anomalies if a.kind == "replay_error"], out.anomalies[:3]
    return dt, (r.classic if isinstance(r, GroupHistory) else r)


def measure(name: str, rows: list[tuple], repeat: int, cls: type = GroupReplay) -> dict:
    base = min(baseline(rows) for _ in range(repeat))
    runs = [replay(rows, cls) for _ in range(repeat)]
    best = min(dt for dt, _ in runs)
    _, r = runs[0]
    hb = sum(1 for x in rows if x[2] == "heartbeat_sent")
    res = {
        "stream": name,
        "rows": len(rows),
        "heartbeat_share": round(hb / len(rows), 4),
        "replay_events_per_s": round(len(rows) / best),
        "baseline_events_per_s": round(len(rows) / base),
        "ratio_replay_to_baseline": round(base / best, 4),
        "replay_seconds": round(best, 4),
        "final_generation": r.gen,
    }
    print(json.dumps(res))
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=str(pathlib.Path(__file__).parent / "out" / "core.json"))
    a = ap.parse_args(argv)
    results = [
        measure("heartbeat", heartbeat_stream(a.rows), a.repeat),
        measure("storm", storm_stream(max(a.rows // 10, 1000)), a.repeat),
        # the job replays through the per-group history (protocol routing in front of the same replay)
        measure("heartbeat_via_history", heartbeat_stream(a.rows), a.repeat, GroupHistory),
    ]
    doc = {
        "benchmark": "bench_core",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "target_heartbeat_events_per_s": 500_000,
        "heartbeat_target_met": results[0]["replay_events_per_s"] >= 500_000,
        "results": results,
    }
    out = pathlib.Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    from jobs.process import run_main  # leaves without the Arrow thread-pool abort at exit

    run_main(main)
