"""Accuracy of the re-simulation what-if: ``python -m benchmarks.bench_whatif [--seeds 10]``.

For every scenario of :data:`jobs.whatif.accuracy.SCENARIOS` and seed, the simulator plays the
scenario's behaviour under the baseline settings and writes its logs; the what-if reads the logs
back, infers the behaviour and predicts each change of :data:`jobs.whatif.accuracy.CHANGES`; the
simulator then plays the true behaviour under that change. Writes ``benchmarks/out/whatif.json``
(every case and the summaries), ``benchmarks/out/whatif.md`` (the tables) and, with ``--publish``,
``jobs/whatif/accuracy.json`` (the per-change summary the report's advice shows beside each
recommendation).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import time

from jobs.whatif.accuracy import CHANGES, SCENARIOS, as_rows, run_scenario, summarise

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PUBLISHED = os.path.join(ROOT, "jobs", "whatif", "accuracy.json")


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _table(rows: list[dict], keys: list[str]) -> str:
    cols = [*keys, "cases", "exact_pct", "rules_exact_pct", "paused_within_10pct", "expectation_within_10pct",
            "paused_in_range_pct", "median_paused_error_pct", "mean_moved_error", "baseline_reproduced_pct"]  # fmt: skip
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        out.append("| " + " | ".join("" if r.get(c) is None else str(r[c]) for c in cols) + " |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.bench_whatif", description=__doc__.split("\n")[0])
    p.add_argument("--seeds", type=int, default=10, help="seeds per scenario (default 10)")
    p.add_argument("--out", default=os.path.join(HERE, "out"))
    p.add_argument("--publish", action="store_true", help="also write jobs/whatif/accuracy.json")
    a = p.parse_args(argv)
    started = time.perf_counter()
    cases = [c for sc in SCENARIOS for seed in range(1, a.seeds + 1) for c in run_scenario(sc, seed)]
    took = time.perf_counter() - started
    by_change = summarise(cases, by=("change",))
    by_both = summarise(cases, by=("scenario", "change"))
    overall = summarise(cases, by=())[0]
    commit = _commit()
    meta = {"command": f"python -m benchmarks.bench_whatif --seeds {a.seeds}", "commit": commit,
            "seconds": round(took, 1), "scenarios": list(SCENARIOS), "changes": {k: {n: sorted(v) if
            isinstance(v, frozenset) else v for n, v in c.items()} for k, c in CHANGES.items()}}  # fmt: skip
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "whatif.json"), "w", encoding="utf-8") as fh:
        json.dump({**meta, "overall": overall, "by_change": by_change, "by_scenario_change": by_both,
                   "cases": as_rows(cases)}, fh, indent=1)  # fmt: skip
    md = (
        f"# What-if accuracy\n\n`{meta['command']}` at commit `{commit}` ({len(cases)} cases, {took:.0f} s)\n\n"
        f"Overall: rebalance count exact in {overall['exact_pct']}% of cases; paused time within 10% in "
        f"{overall['paused_within_10pct']}%; truth inside the predicted range in {overall['paused_in_range_pct']}%; "
        f"baseline reproduced in {overall['baseline_reproduced_pct']}%.\n\n"
        f"## By change\n\n{_table(by_change, ['change'])}\n\n"
        f"## By scenario and change\n\n{_table(by_both, ['scenario', 'change'])}\n"
    )
    with open(os.path.join(a.out, "whatif.md"), "w", encoding="utf-8") as fh:
        fh.write(md)
    if a.publish:
        with open(PUBLISHED, "w", encoding="utf-8") as fh:
            json.dump({**meta, "overall": overall, "by_change": by_change}, fh, indent=1)
            fh.write("\n")
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
