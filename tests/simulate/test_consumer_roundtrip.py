"""Round trip of consumer-protocol (KIP-848) groups: simulate -> ``jobs.ingest.parse`` -> replay ->
compare with the simulator's ground truth.

Consumer runs go straight into :class:`coordinator_core.consumer.ConsumerGroupReplay`
(``feed_columns``); the mixed run (classic groups, consumer groups, one converted) goes through the
pipeline's per-group history (the job's local pipeline, ``jobs.local.run_local``).

Rebalances are matched on (group, old group epoch). With the broker's per-member assignment lines
every rebalance is exact: epochs, cause, culprit, rounds, start, END and partitions revoked. (Two
gaps found by this test were fixed in the replay: a joining client whose clock runs ahead showing its
reconciliation before the broker's first bump, and a member STABLE on the client's side while the
broker still holds it UNRELEASED_PARTITIONS.)
"""

from __future__ import annotations

import pytest
from sim_compare import load_truth

from coordinator_core.consumer import ConsumerGroupReplay
from jobs.local import group_columns, log_files, parse_files, run_local
from jobs.simulate import SimConfig, simulate

KEY_FIELDS = (
    ("new_generation", "new_generation"),
    ("cause", "cause"),
    ("culprit_member_id", "culprit_member_id"),
)


def _sim(out: str, **kw) -> None:
    cfg = dict(out=out, groups=3, members=3, hours=1.0, seed=3, protocol="consumer", dialect="java4",
               noise_ratio=0.1, incident_gap_ms=180_000, static_share=0.0, broker_debug=True)  # fmt: skip
    cfg.update(kw)
    simulate(SimConfig(**cfg))


def replay_consumer(out: str) -> dict[str, list]:
    """Parse every log and replay each group with ConsumerGroupReplay (total order as the job)."""
    out_by: dict[str, list] = {}
    for g, cols in group_columns(parse_files(log_files(out), out).events).items():
        r = ConsumerGroupReplay(g)
        r.feed_columns(cols)
        out_by[g] = list(r.flush(final=True).rebalances)
    return out_by


def match(truth: list[dict], replayed: dict[str, list]) -> tuple[list[tuple[dict, object]], list, list, int]:
    """(pairs, missing truth, extra replayed, first-rebalance fallbacks used)."""
    by = {(g, r.old_generation): r for g, rs in replayed.items() for r in rs}
    pairs, missing, fallbacks = [], [], 0
    for t in truth:
        r = by.pop((t["group_id"], t["old_generation"]), None)
        if r is None and t["old_generation"] == 0:
            r = by.get((t["group_id"], None))
            if r is not None and all(getattr(r, a) == t[b] for a, b in KEY_FIELDS):
                by.pop((t["group_id"], None))
                fallbacks += 1
            else:
                r = None
        if r is None:
            missing.append((t["group_id"], t["old_generation"], t["cause"]))
        else:
            pairs.append((t, r))
    return pairs, missing, sorted(by, key=str), fallbacks


def assert_exact(truth: list[dict], replayed: dict[str, list], groups: int) -> list[tuple[dict, object]]:
    pairs, missing, extra, fallbacks = match(truth, replayed)
    assert (missing, extra) == ([], [])
    assert fallbacks == 0
    wrong = [(t["group_id"], t["old_generation"]) for t, r in pairs
             if any(getattr(r, a) != t[b] for a, b in KEY_FIELDS)]  # fmt: skip
    assert wrong == []
    for t, r in pairs:
        got = (r.join_rounds, r.start_ts, r.partitions_revoked)
        assert got == (t["join_rounds"], t["start_ms"], t["partitions_revoked"])
        if t["outcome"] == "open":  # still reconciling when the run stopped
            assert r.outcome == "open" or r.end_ts is None
        else:
            assert r.end_ts == t["end_ms"]
        assert r.protocol_type == "consumer"
    return pairs


@pytest.mark.parametrize(("flavour", "seed"), [("4.0", 3), ("4.1", 7)])
def test_consumer_roundtrip_with_assignment_states(tmp_path, flavour, seed):
    out = str(tmp_path / f"c{flavour}")
    _sim(out, consumer_flavour=flavour, seed=seed)
    truth = load_truth(out)
    assert len(truth) >= 40 and {t["protocol_type"] for t in truth} == {"consumer"}
    pairs = assert_exact(truth, replay_consumer(out), groups=3)
    same_end = [(t, r) for t, r in pairs if r.end_ts == t["end_ms"]]
    assert len(same_end) >= 0.5 * len(pairs)
    # paused partition-ms: the replay times a revocation by the client line it sees, whose clock is off
    # by up to 60 ms (the simulator's client skew): within 5%, or within 60 ms per revoked partition
    for t, r in same_end:
        if t["paused_partition_ms"] and r.paused_partition_ms is not None:
            bound = max(0.05 * t["paused_partition_ms"], 60 * t["partitions_revoked"])
            assert abs(r.paused_partition_ms - t["paused_partition_ms"]) <= bound


def test_consumer_roundtrip_info_only(tmp_path):
    """4.x brokers at INFO: no member-level broker lines; the replay matches ends by client lines."""
    out = str(tmp_path / "info")
    _sim(out, consumer_flavour="4.1", broker_debug=False)
    truth = load_truth(out)
    pairs, missing, extra, _ = match(truth, replay_consumer(out))
    good = [t for t, r in pairs if all(getattr(r, a) == t[b] for a, b in KEY_FIELDS)]
    assert len(good) >= 0.85 * len(truth)
    assert len(missing) + len(extra) <= 0.15 * len(truth)


def test_mixed_roundtrip_through_the_history(tmp_path):
    out = str(tmp_path / "mixed")
    _sim(out, protocol="mixed", consumer_flavour="4.1", groups=4, seed=2)
    truth = load_truth(out)
    res = run_local(out)
    replayed = {g: list(o.rebalances) for g, o in res.outputs.items()}
    pairs, missing, extra, fallbacks = match(truth, replayed)
    assert (missing, extra) == ([], []) and fallbacks <= 4
    for t, r in pairs:
        assert tuple(getattr(r, a) for a, _ in KEY_FIELDS) == tuple(t[b] for _, b in KEY_FIELDS)
        assert r.protocol_type == t.get("protocol_type", "classic")
    converted = {t["group_id"] for t in truth if t.get("scenario") == "conversion"}
    assert len(converted) == 1
    kinds = {t.get("protocol_type", "classic") for t in truth if t["group_id"] in converted}
    assert kinds == {"classic", "consumer"}
