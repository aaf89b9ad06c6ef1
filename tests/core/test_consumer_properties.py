"""Hypothesis properties of the consumer-protocol replay.

* it never raises and records no ``replay_error`` for well-formed rows;
* cut-and-resume (flush, snapshot, resume at any k) equals one replay;
* records stay inside their vocabularies; durations and paused partition-ms are never negative;
  group epochs never decrease in the transitions; rebalance ids are unique; joined_ts is never null.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coordinator_core.consumer import ConsumerGroupReplay
from coordinator_core.consumer.model import GROUP_STATES
from coordinator_core.records import ANOMALY_KINDS, CAUSES, OUTCOMES, SESSION_ENDS
from coordinator_core.replay import ReplayOutput
from tests.core.test_consumer_replay import (
    G,
    astate,
    bumped,
    fenced,
    joined,
    left,
    reconciling,
    replaced,
    row,
    target,
    tps,
    transition,
)

SETTINGS = settings(
    max_examples=int(os.environ.get("REPLAY_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
MEMBERS = ("m1", "m2", "m3", "m4")
CLIENT_STATES = ("UNSUBSCRIBED", "JOINING", "RECONCILING", "ACKNOWLEDGING", "STABLE", "FENCED", "LEAVING")
FENCE_REASONS = (
    "the member session expired.", "its session expired", "it failed to transition from epoch 3 within 300000ms",
    "the member failed to sync within timeout",
)  # fmt: skip


@st.composite
def evidence(draw, max_size=40) -> list[tuple]:
    n = draw(st.integers(0, max_size))
    ts = draw(st.integers(0, 10_000))
    epoch = draw(st.integers(0, 3))
    parts = st.lists(st.integers(0, 5), max_size=3, unique=True).map(lambda xs: tps(*xs))
    out: list[tuple] = []
    for _ in range(n):
        ts += draw(st.sampled_from((0, 0, 10, 500, 2000, 5000, 400_000)))
        mid = draw(st.sampled_from(MEMBERS))
        giid = draw(st.sampled_from((None, None, f"i-{mid}")))
        k = draw(st.integers(0, 11))
        if k == 0:
            out.append(joined(ts, mid, giid))
            if draw(st.booleans()):
                epoch += 1
                out.append(bumped(ts, epoch))
        elif k == 1:
            epoch = max(0, epoch + draw(st.sampled_from((1, 1, 1, 0, -1, 2))))
            out.append(bumped(ts, epoch, draw(st.sampled_from((None, "123")))))
        elif k == 2:
            out.append(target(ts, epoch))
        elif k == 3:
            out.append(left(ts, mid, giid, -2 if giid and draw(st.booleans()) else -1))
        elif k == 4:
            out.append(fenced(ts, mid, draw(st.sampled_from(FENCE_REASONS))))
        elif k == 5:
            out.append(replaced(ts, f"{mid}-{ts}", mid, f"i-{mid}"))
        elif k in (6, 7):
            st_ = draw(st.sampled_from(("STABLE", "STABLE", "UNREVOKED_PARTITIONS", "UNRELEASED_PARTITIONS")))
            e = draw(st.integers(max(0, epoch - 1), epoch + 1))
            out.append(astate(ts, mid, e, e - 1, st_, draw(parts), draw(parts)))
        elif k in (8, 9):
            frm, to = draw(st.sampled_from(CLIENT_STATES)), draw(st.sampled_from(CLIENT_STATES))
            out.append(transition(ts, mid, draw(st.integers(0, max(0, epoch) + 1)), frm, to, f"c-{mid}"))
        elif k == 10:
            out.append(reconciling(ts, f"c-{mid}", draw(parts), draw(parts)))
        elif draw(st.booleans()):
            out.append(row(draw(st.sampled_from(("group_unloaded", "group_loaded"))), ts))
        else:
            kind = draw(st.sampled_from(("partitions_revoked", "partitions_assigned")))
            out.append(row(kind, ts, client_id=f"c-{mid}", partitions=draw(parts), file=f"c-{mid}.log"))
    return out


def run(rows, final=True) -> ReplayOutput:
    r = ConsumerGroupReplay(G)
    r.feed_rows(rows)
    return r.flush(final=final)


def merged(outputs: list[ReplayOutput]) -> dict:
    res: dict = {"transitions": [], "anomalies": [], "assignments": [], "rebalances": {}, "sessions": {}}
    for o in outputs:
        res["transitions"] += o.transitions
        res["anomalies"] += o.anomalies
        res["assignments"] += o.assignments
        for r in o.rebalances:
            res["rebalances"][r.rebalance_id] = r
        for s in o.sessions:
            res["sessions"][(s.member_id, s.joined_ts)] = s
    return res


@SETTINGS
@given(evidence())
def test_consumer_replay_invariants(rows):
    out = run(rows)
    kinds = [a.kind for a in out.anomalies]
    assert "replay_error" not in kinds, [a.detail for a in out.anomalies]
    assert set(kinds) <= set(ANOMALY_KINDS)
    epochs = [t.generation for t in out.transitions if t.generation >= 0]
    assert epochs == sorted(epochs)
    assert all(t.to_state in GROUP_STATES and t.protocol_type == "consumer" for t in out.transitions)
    for r in out.rebalances:
        assert r.outcome in OUTCOMES and r.cause in CAUSES
        assert r.duration_ms is None or r.duration_ms >= 0
        assert r.outcome != "open" or r.end_ts is None
        assert r.end_ts is not None or r.outcome != "ended_empty"
        assert r.end_ts is not None or r.outcome == "open" or r.inferred
        assert r.join_rounds >= 1
        assert r.paused_partition_ms is None or r.paused_partition_ms >= 0
        if r.old_generation is not None and r.new_generation is not None:
            assert r.new_generation > r.old_generation
    assert len({r.rebalance_id for r in out.rebalances}) == len(out.rebalances)
    for s in out.sessions:
        assert s.end_reason in SESSION_ENDS and s.joined_ts is not None


@SETTINGS
@given(evidence(), st.data())
def test_consumer_cut_and_resume_equals_one_replay(rows, data):
    k = data.draw(st.integers(0, len(rows)))
    whole = merged([run(rows)])
    r = ConsumerGroupReplay(G)
    r.feed_rows(rows[:k])
    first = r.flush()
    r2 = ConsumerGroupReplay.resume(G, r.snapshot())
    r2.feed_rows(rows[k:])
    second = r2.flush(final=True)
    assert merged([first, second]) == whole


@SETTINGS
@given(evidence(max_size=25), st.data())
def test_consumer_snapshot_without_flush_keeps_pending_records(rows, data):
    k = data.draw(st.integers(0, len(rows)))
    r = ConsumerGroupReplay(G)
    r.feed_rows(rows[:k])
    r2 = ConsumerGroupReplay.resume(G, r.snapshot())
    r2.feed_rows(rows[k:])
    assert merged([r2.flush(final=True)]) == merged([run(rows)])


def test_unreadable_snapshot_starts_fresh():
    r = ConsumerGroupReplay.resume(G, '{"v": 1, "p": "classic"}')
    assert [a.kind for a in r.flush().anomalies] == ["replay_error"]
    assert ConsumerGroupReplay.resume(G, None).snapshot() == ConsumerGroupReplay(G).snapshot()


def _scenarios() -> list[tuple[list[tuple], object]]:
    """The event lists of every scenario test in test_consumer_replay (recorded through its ``run``)."""
    import tests.core.test_consumer_replay as scen

    seen: list[tuple[list[tuple], object]] = []
    orig = scen.run

    def spy(rows, settings=None, final=True):
        seen.append((sorted(rows, key=lambda x: (x[0], 0 if x[3] == "broker" else 1)), settings))
        return orig(rows, settings, final)

    scen.run = spy
    try:
        for name in sorted(dir(scen)):
            if name.startswith("test_"):
                getattr(scen, name)()
    finally:
        scen.run = orig
    return seen


def test_every_scenario_cut_anywhere_equals_one_replay():
    scenarios = _scenarios()
    assert len(scenarios) >= 15
    for rows, st_ in scenarios:
        r = ConsumerGroupReplay(G, st_)
        r.feed_rows(rows)
        whole = merged([r.flush(final=True)])
        for k in range(len(rows) + 1):
            a = ConsumerGroupReplay(G, st_)
            a.feed_rows(rows[:k])
            first = a.flush()
            b = ConsumerGroupReplay.resume(G, a.snapshot(), st_)
            b.feed_rows(rows[k:])
            assert merged([first, b.flush(final=True)]) == whole, (k, rows[k - 1] if k else None)
