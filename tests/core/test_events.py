"""The evidence vocabulary: kinds, flat rows and round trips."""

from __future__ import annotations

import dataclasses

import pytest

from coordinator_core import events as ev


def test_kinds_are_unique_and_cover_every_class():
    assert len(ev.EVENT_KINDS) == len(ev.EVENT_CLASSES) == 54
    assert ev.EVENT_TYPES["rebalance_prepared"] is ev.RebalancePrepared
    assert ev.BROKER_KINDS.isdisjoint(ev.CLIENT_KINDS)
    assert "heartbeat_sent" in ev.CLIENT_KINDS and "join_completed" in ev.BROKER_KINDS
    # KIP-848: nine broker kinds, two client kinds, no catch-all
    assert {"group_epoch_bumped", "consumer_member_fenced", "group_converted"} <= ev.BROKER_KINDS
    assert {"member_state_changed", "reconciliation_started"} <= ev.CLIENT_KINDS
    assert "kip848" not in ev.EVENT_KINDS


def test_kip848_events_round_trip():
    e = ev.MemberAssignmentState(
        ts=5, group_id="g", member_id="m1", member_epoch=5, generation=4, state="STABLE",
        partitions=("t-0",), revoked=("t-1",), protocol_type="consumer",
    )  # fmt: skip
    row = e.to_row()
    assert row["kind"] == "member_assignment_state" and row["side"] == "broker" and row["revoked"] == ("t-1",)
    assert ev.event_from_row(dict(row, revoked=["t-1"])) == e
    c = ev.ReconciliationStarted(ts=6, group_id="g", partitions=("t-2",), reason="local epoch 3")
    assert c.to_row()["side"] == "client" and c.to_row()["member_epoch"] is None


def test_every_field_of_every_event_is_a_flat_column():
    for cls in ev.EVENT_CLASSES:
        names = {f.name for f in dataclasses.fields(cls)} - {"origin"}
        assert names <= set(ev.EVENT_FIELDS), (cls.__name__, names - set(ev.EVENT_FIELDS))


def test_events_are_frozen_and_keyword_only():
    e = ev.JoinCompleted(ts=1, group_id="g", generation=3, member_count=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.generation = 4  # type: ignore[misc]
    with pytest.raises(TypeError):
        ev.JoinCompleted(1, "g")  # type: ignore[misc]


def test_row_round_trip_keeps_kind_side_and_values():
    e = ev.LeaderAssigned(
        ts=1000, group_id="g", generation=4, member_id="c-1",
        assignment=(("c-1", ("t-0", "t-1")), ("c-2", ("t-2",))), origin="connect", line_no=7,
    )  # fmt: skip
    row = e.to_row()
    assert row["kind"] == "leader_assigned" and row["side"] == "connect" and row["line_no"] == 7
    assert set(row) == set(ev.EVENT_FIELDS)
    row["assignment"] = {"c-1": ["t-0", "t-1"], "c-2": ["t-2"]}  # as Spark hands back a map
    assert ev.event_from_row(row) == e


def test_row_from_spark_style_lists_and_unknown_kind():
    e = ev.event_from_row({"kind": "members_removed_not_joined", "ts": 5, "group_id": "g", "members": ["a", "b"], "side": "broker"})
    assert e == ev.MembersRemovedNotJoined(ts=5, group_id="g", members=("a", "b"))
    with pytest.raises(KeyError):
        ev.event_from_row({"kind": "no_such_kind", "ts": 1, "group_id": "g"})


def test_total_order_puts_broker_before_client_at_the_same_ms():
    b = ev.JoinCompleted(ts=10, group_id="g", generation=1, source_file="z.log", line_no=9)
    c = ev.Joined(ts=10, group_id="g", generation=1, source_file="a.log", line_no=1)
    assert sorted([c, b], key=ev.Event.sort_key) == [b, c]
