"""Realistic Kafka cluster simulator: broker and client logs of consumer groups plus ground truth.

``simulate(SimConfig(out=..., ...))`` runs a discrete-event simulation of consumer groups on a
cluster whose brokers run :class:`coordinator_core.coordinator.GroupCoordinator`, renders every
broker and client line in the chosen dialect/layout, and writes ``truth/*.jsonl``. CLI:
``python -m jobs.simulate --out DIR ...`` (see :mod:`jobs.simulate.__main__`).
"""

from __future__ import annotations

import json
import os

from jobs.simulate.cluster import SimConfig, SimResult, Simulation
from jobs.simulate.scenario_table import SCENARIOS, TABLE
from jobs.simulate.scenarios import ScenarioDriver

__all__ = ["SCENARIOS", "SimConfig", "SimResult", "simulate"]


def simulate(cfg: SimConfig) -> SimResult:
    """Run one simulation into ``cfg.out``; returns line/byte counts, files and truth counts."""
    if not cfg.out:
        raise ValueError("SimConfig.out: the folder to write the logs to is required")
    os.makedirs(cfg.out, exist_ok=True)
    sim = Simulation(cfg)
    result = sim.run(ScenarioDriver(sim, TABLE))
    summary = {
        "config": {k: v for k, v in vars(cfg).items() if k != "out"},
        "lines": result.lines,
        "bytes": result.bytes,
        "files": result.files,
        "truth_counts": result.truth_counts,
        "end_ms": result.end_ms,
    }
    with open(os.path.join(cfg.out, "truth", "summary.json"), "w", encoding="utf-8") as fh:
        json.dump(summary, fh, indent=1, sort_keys=True, default=list)
    return result
