"""The classic replay's inferred transitions (client-only groups, re-created groups, the protocol
hand-over) are one table, applied in one place: its entries follow Kafka's valid previous states
except the listed skips, and applying a fact the table does not allow is an anomaly that changes
nothing."""

from __future__ import annotations

from coordinator_core.events import Joined, RejoinRequested, Synced
from coordinator_core.replay import GroupReplay
from coordinator_core.replay.inferred import INFERRED_TRANSITIONS, NEW_GROUP, SKIPS, TAKEN_OVER
from coordinator_core.rows import normalise
from coordinator_core.states import VALID_PREVIOUS_STATES, GroupState


def test_entries_follow_kafkas_valid_previous_states_or_are_listed_skips() -> None:
    unexplained = []
    for (src, fact), to in INFERRED_TRANSITIONS.items():
        if src is None or src == to or (src, fact) in SKIPS:
            continue
        targets = [GroupState.EMPTY.value] if to in (NEW_GROUP, TAKEN_OVER) else [to]
        if not all(src in {s.value for s in VALID_PREVIOUS_STATES[GroupState(t)]} for t in targets):
            unexplained.append((src, fact, to))
    assert unexplained == []
    assert set(INFERRED_TRANSITIONS) >= SKIPS


def test_client_only_group_goes_through_the_table() -> None:
    rp = GroupReplay("g")
    rp.feed(RejoinRequested(ts=1, group_id="g", member_id="m1", reason="rebalance"))
    rp.feed(Joined(ts=2, group_id="g", member_id="m1", generation=1))
    rp.feed(Synced(ts=3, group_id="g", member_id="m1", generation=1))
    out = rp.flush()
    assert [(t.from_state, t.to_state, t.trigger, t.inferred) for t in out.transitions] == [
        (None, "PreparingRebalance", "rejoin_requested", True),
        ("PreparingRebalance", "CompletingRebalance", "joined", True),
        ("CompletingRebalance", "Stable", "synced", True),
    ]
    assert [r.outcome for r in out.rebalances] == ["completed"]


def test_an_impossible_fact_is_an_anomaly_and_changes_nothing() -> None:
    rp = GroupReplay("g")
    row = normalise(Synced(ts=5, group_id="g", member_id="m1", generation=1).to_row())
    assert not rp._can("synced") and not rp._apply(row, "synced")
    out = rp.flush()
    assert rp.state is None and out.transitions == []
    assert [(a.kind, a.detail) for a in out.anomalies] == [
        ("impossible_transition", "synced is impossible in state None; ignored")
    ]
