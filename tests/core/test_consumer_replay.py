"""Consumer-protocol (KIP-848) replay: scenarios from the lines Kafka logs (contract section 2).

Events are flat rows in ``EVENT_FIELDS`` order (``row``), in the exact shape of the KIP-848 event
kinds; when ``coordinator_core.events`` has the class of a kind, the row goes through the class
(``event_from_row(...).to_row()``) so the shapes cannot drift apart.
"""

from __future__ import annotations

from coordinator_core.consumer import ConsumerGroupReplay
from coordinator_core.consumer.replay import fence_cause
from coordinator_core.events import EVENT_FIELDS, EVENT_TYPES, event_from_row
from coordinator_core.records import CAUSES, SESSION_ENDS
from coordinator_core.replay import ReplayOutput, ReplaySettings

G = "orders"
BROKER = "server.log"
CLIENT_KINDS = {"member_state_changed", "reconciliation_started", "partitions_revoked", "partitions_assigned"}


def row(kind: str, ts: int, **kw) -> tuple:
    """One event as a flat row (EVENT_FIELDS order)."""
    side = "client" if kind in CLIENT_KINDS else "broker"
    d = dict.fromkeys(EVENT_FIELDS)
    d.update(ts=ts, group_id=G, kind=kind, side=side)
    if side == "broker":
        d.update(coordinator=1, source_file=BROKER, protocol_type="consumer")
    else:
        d.update(source_file=kw.pop("file", "app.log"))
    for k, v in kw.items():
        assert k in d, k
        d[k] = tuple(v) if isinstance(v, list) else v
    if kind in EVENT_TYPES:  # the event class exists: go through it
        d = {**dict.fromkeys(EVENT_FIELDS), **event_from_row(d).to_row()}
    return tuple(d[f] for f in EVENT_FIELDS)


# --- broker lines (GroupMetadataManager) -----------------------------------------------------------
def joined(ts, mid, giid=None):
    return row("consumer_member_joined", ts, member_id=mid, group_instance_id=giid, static=giid is not None,
               protocol="consumer")  # fmt: skip


def replaced(ts, mid, old, giid):
    return row(
        "consumer_member_replaced", ts, member_id=mid, old_member_id=old, group_instance_id=giid, static=True
    )


def bumped(ts, n, hash_=None):
    return row("group_epoch_bumped", ts, generation=n, reason=f"metadata hash {hash_}" if hash_ else None)


def target(ts, n, assignor="uniform"):
    return row("target_assignment_computed", ts, generation=n, protocol=assignor)


def left(ts, mid, giid=None, epoch=-1):
    return row("consumer_member_left", ts, member_id=mid, group_instance_id=giid, static=giid is not None,
               member_epoch=epoch)  # fmt: skip


def fenced(ts, mid, reason):
    return row("consumer_member_fenced", ts, member_id=mid, reason=reason)


def astate(ts, mid, epoch, prev, state, assigned=(), revoked=()):
    return row("member_assignment_state", ts, member_id=mid, member_epoch=epoch, generation=prev, state=state,
               partitions=list(assigned), revoked=list(revoked))  # fmt: skip


# --- client lines (AbstractMembershipManager) ------------------------------------------------------
def transition(ts, mid, epoch, frm, to, cid):
    return row("member_state_changed", ts, member_id=mid, member_epoch=epoch, from_state=frm, state=to, client_id=cid,
               file=f"{cid}.log")  # fmt: skip


def reconciling(ts, cid, added=(), revoked=(), mid=None):
    return row("reconciliation_started", ts, client_id=cid, member_id=mid, partitions=list(added),
               revoked=list(revoked), file=f"{cid}.log")  # fmt: skip


def tps(*ns, topic="t"):
    return [f"{topic}-{n}" for n in ns]


def run(rows, settings=None, final=True) -> ReplayOutput:
    r = ConsumerGroupReplay(G, settings)
    r.feed_rows(sorted(rows, key=lambda x: (x[0], 0 if x[3] == "broker" else 1)))
    return r.flush(final=final)


def one(out, **kw):
    rb = [r for r in out.rebalances if all(getattr(r, k) == v for k, v in kw.items())]
    assert len(rb) == 1, out.rebalances
    return rb[0]


def anomalies(out):
    return [a.kind for a in out.anomalies]


def sessions(out):
    return {s.member_id: s for s in out.sessions}


# ---------------------------------------------------------------------------------------------------
def first_member(t0=1000):
    """A new group: member a joins, epoch 1, owns t-0..t-5 (3.8/3.9 INFO: assignment state lines)."""
    return [
        joined(t0, "a"), bumped(t0, 1), target(t0, 1),
        astate(t0, "a", 1, 0, "STABLE", tps(0, 1, 2, 3, 4, 5)),
    ]  # fmt: skip


def test_first_member_creates_the_group():
    out = run(first_member())
    r = one(out)
    assert (r.old_generation, r.new_generation, r.join_rounds) == (0, 1, 1)
    assert (r.start_ts, r.end_ts, r.duration_ms, r.outcome) == (1000, 1000, 0, "completed")
    assert (r.cause, r.culprit_member_id, r.members_before, r.members_after) == ("new_member", "a", 0, 1)
    assert (r.protocol_type, r.protocol, r.coordinator_broker, r.inferred) == (
        "consumer",
        "uniform",
        1,
        False,
    )
    assert [(t.from_state, t.to_state, t.generation, t.trigger) for t in out.transitions] == [
        (None, "Assigning", 1, "group_epoch_bumped"),
        ("Assigning", "Reconciling", 1, "target_assignment_computed"),
        ("Reconciling", "Stable", 1, "member_assignment_state"),
    ]
    assert all(t.protocol_type == "consumer" and not t.inferred for t in out.transitions)
    assert [(a.generation, a.member_id, a.topic, a.partitions, a.source) for a in out.assignments] == [
        (1, "a", "t", (0, 1, 2, 3, 4, 5), "member")
    ]
    assert anomalies(out) == []


def test_join_storm_is_one_rebalance_with_rounds_and_paused_partitions():
    ev = first_member() + [
        joined(10_000, "b"), bumped(10_000, 2), target(10_000, 2),
        astate(10_000, "b", 2, 0, "UNRELEASED_PARTITIONS"),
        joined(10_050, "c"), bumped(10_050, 3), target(10_050, 3),
        astate(10_060, "a", 1, 1, "UNREVOKED_PARTITIONS", tps(0, 1), revoked=tps(2, 3, 4, 5)),
        astate(10_070, "b", 3, 2, "UNRELEASED_PARTITIONS"),
        astate(10_080, "c", 3, 0, "UNRELEASED_PARTITIONS"),
        astate(10_500, "a", 3, 1, "STABLE", tps(0, 1)),
        astate(10_600, "b", 3, 3, "STABLE", tps(2, 3)),
        astate(10_700, "c", 3, 3, "STABLE", tps(4, 5)),
    ]  # fmt: skip
    out = run(ev)
    r = one(out, start_ts=10_000)
    assert (r.old_generation, r.new_generation, r.join_rounds) == (1, 3, 2)
    assert (r.end_ts, r.duration_ms, r.outcome, r.inferred) == (10_700, 700, "completed", False)
    assert (r.cause, r.culprit_member_id, r.members_before, r.members_after) == ("new_member", "b", 1, 3)
    assert (r.partitions_revoked, r.partitions_assigned) == (4, 4)
    # t-2, t-3 revoked at 10060, back at 10600; t-4, t-5 back at 10700
    assert r.paused_partition_ms == 2 * 540 + 2 * 640
    assert r.rebalance_id == f"{G}:10000:1"
    assert len(out.rebalances) == 2
    assert out.transitions[-1].to_state == "Stable" and out.transitions[-1].generation == 3
    s = sessions(out)
    assert (s["b"].joined_ts, s["b"].first_generation, s["b"].last_generation, s["b"].end_reason) == (
        10_000,
        2,
        3,
        "open",
    )
    assert not s["b"].inferred and s["b"].protocol_type == "consumer"
    assert anomalies(out) == []


def steady(epoch=5, t0=0):
    """Members a (t-0..2) and b (t-3..5) at epoch ``epoch`` (logs begin here)."""
    return [
        astate(t0, "a", epoch, epoch - 1, "STABLE", tps(0, 1, 2)),
        astate(t0, "b", epoch, epoch - 1, "STABLE", tps(3, 4, 5)),
    ]


def test_rolling_restart_without_static_members_two_rebalances():
    ev = steady() + [
        left(20_000, "a"),  # 4.0 logs no "Bumped" for a leave: implied (epoch 6)
        target(20_010, 6),
        astate(20_100, "b", 6, 5, "STABLE", tps(0, 1, 2, 3, 4, 5)),
        joined(25_000, "a2"), bumped(25_000, 7), target(25_000, 7),
        astate(25_010, "b", 6, 6, "UNREVOKED_PARTITIONS", tps(3, 4, 5), revoked=tps(0, 1, 2)),
        astate(25_020, "a2", 7, 0, "UNRELEASED_PARTITIONS"),
        astate(25_300, "b", 7, 6, "STABLE", tps(3, 4, 5)),
        astate(25_400, "a2", 7, 7, "STABLE", tps(0, 1, 2)),
    ]  # fmt: skip
    out = run(ev)
    leave, join = sorted(out.rebalances, key=lambda r: r.start_ts)
    assert (leave.cause, leave.culprit_member_id, leave.old_generation, leave.new_generation) == (
        "member_leave",
        "a",
        5,
        6,
    )
    assert (leave.start_ts, leave.end_ts, leave.duration_ms, leave.join_rounds) == (20_000, 20_100, 100, 1)
    assert (leave.members_before, leave.members_after) == (2, 1)
    # a's partitions stop at its leave and are b's at 20100
    assert (leave.partitions_revoked, leave.partitions_assigned, leave.paused_partition_ms) == (3, 3, 300)
    assert (join.cause, join.culprit_member_id, join.old_generation, join.new_generation) == (
        "new_member",
        "a2",
        6,
        7,
    )
    assert (join.duration_ms, join.paused_partition_ms, join.partitions_revoked) == (400, 3 * 390, 3)
    s = sessions(out)
    assert (s["a"].end_reason, s["a"].left_ts, s["a"].inferred) == ("leave", 20_000, True)
    assert s["a2"].end_reason == "open"
    assert anomalies(out) == []


def test_rolling_restart_with_static_members_no_rebalance():
    ev = [
        astate(0, "a", 5, 4, "STABLE", tps(0, 1, 2)),
        astate(0, "b", 5, 4, "STABLE", tps(3, 4, 5)),
        left(30_000, "a", giid="i-a", epoch=-2),  # Static Member a ... temporarily left
        replaced(30_500, "a2", "a", "i-a"),
        astate(30_600, "a2", 5, 0, "STABLE", tps(0, 1, 2)),
        left(40_000, "b", giid="i-b", epoch=-2),
        replaced(40_400, "b2", "b", "i-b"),
        astate(40_500, "b2", 5, 0, "STABLE", tps(3, 4, 5)),
    ]
    out = run(ev)
    assert out.rebalances == []
    s = sessions(out)
    assert (s["a"].end_reason, s["a"].left_ts, s["a"].group_instance_id) == ("replaced", 30_500, "i-a")
    assert (s["b"].end_reason, s["b"].left_ts) == ("replaced", 40_400)
    assert (s["a2"].end_reason, s["a2"].joined_ts, s["a2"].group_instance_id, s["a2"].inferred) == (
        "open",
        30_500,
        "i-a",
        False,
    )
    assert "leave" not in [x.end_reason for x in out.sessions]
    assert [t.to_state for t in out.transitions] == [
        "Stable",
        "Reconciling",
        "Stable",
        "Reconciling",
        "Stable",
    ]
    assert anomalies(out) == []


def test_static_member_away_does_not_block_a_rebalance_end():
    ev = [
        astate(0, "a", 5, 4, "STABLE", tps(0, 1, 2)),
        astate(0, "b", 5, 4, "STABLE", tps(3, 4, 5)),
        left(1000, "a", giid="i-a", epoch=-2),
        bumped(2000, 6, hash_=42),
        target(2000, 6),
        astate(2100, "b", 6, 5, "STABLE", tps(3, 4, 5, 6)),
    ]
    r = one(run(ev))
    assert (r.cause, r.reason, r.culprit_member_id, r.end_ts, r.members_before) == (
        "metadata_change",
        "metadata hash 42",
        None,
        2100,
        1,
    )


def test_session_timeout_fence():
    ev = steady() + [
        fenced(50_000, "b", "the member session expired.."),  # doubled final period (some versions)
        target(50_005, 6),
        astate(50_200, "a", 6, 5, "STABLE", tps(0, 1, 2, 3, 4, 5)),
    ]
    out = run(ev)
    r = one(out)
    assert (r.cause, r.culprit_member_id, r.reason) == ("session_timeout", "b", "the member session expired")
    assert (r.old_generation, r.new_generation, r.duration_ms, r.paused_partition_ms) == (5, 6, 200, 600)
    s = sessions(out)["b"]
    assert (s.end_reason, s.left_ts, s.last_generation) == ("session_timeout", 50_000, 5)


def test_fence_reasons():
    assert fence_cause("its session expired") == ("session_timeout", "session_timeout")
    assert fence_cause("it failed to transition from epoch 5 within 300000ms") == (
        "rebalance_timeout",
        "fenced",
    )
    assert fence_cause("the classic member failed to join within the rebalance timeout") == (
        "rebalance_timeout",
        "fenced",
    )
    assert fence_cause("the member failed to sync within timeout") == ("sync_timeout", "sync_timeout")
    assert "rebalance_timeout" in CAUSES and "fenced" in SESSION_ENDS


def test_rebalance_timeout_fence_during_reconciliation_is_a_round_of_it():
    ev = steady() + [
        joined(60_000, "c"), bumped(60_000, 6), target(60_000, 6),
        astate(60_010, "a", 5, 5, "UNREVOKED_PARTITIONS", tps(0, 1), revoked=tps(2)),
        astate(60_020, "b", 5, 5, "UNREVOKED_PARTITIONS", tps(3, 4), revoked=tps(5)),
        astate(60_030, "c", 6, 0, "UNRELEASED_PARTITIONS"),
        astate(60_400, "a", 6, 5, "STABLE", tps(0, 1)),
        fenced(360_020, "b", "it failed to transition from epoch 5 within 300000ms"),
        target(360_030, 7),
        astate(360_040, "a", 7, 6, "STABLE", tps(0, 1, 3)),
        astate(360_050, "c", 7, 6, "STABLE", tps(2, 4, 5)),
    ]  # fmt: skip
    out = run(ev)
    r = one(out)
    assert (r.cause, r.culprit_member_id, r.join_rounds, r.old_generation, r.new_generation) == (
        "new_member",
        "c",
        2,
        5,
        6 + 1,
    )
    assert (r.end_ts, r.members_before, r.members_after) == (360_050, 2, 2)
    # t-2 and t-5 revoked at 60010/60020, t-3, t-4 with b's fence; all back at 360040/360050
    assert r.partitions_revoked == 4
    assert r.paused_partition_ms == (360_050 - 60_010) + (360_050 - 60_020) + (360_040 - 360_020) + (
        360_050 - 360_020
    )
    assert r.partitions_assigned == 4
    s = sessions(out)["b"]
    assert (s.end_reason, s.left_ts) == ("fenced", 360_020)


def test_rebalance_timeout_fence_is_the_cause_when_nothing_else_is_open():
    # 4.x broker INFO only: no member-level lines; the fence is minutes after the join's bump
    ev = [
        joined(0, "a"), bumped(0, 1), target(0, 1),
        joined(10_000, "b"), bumped(10_000, 2), target(10_000, 2),
        fenced(301_000, "a", "it failed to transition from epoch 1 within 300000ms."),
        target(301_010, 3),
    ]  # fmt: skip
    out = run(ev)
    rb = sorted(out.rebalances, key=lambda r: r.start_ts)
    assert [(r.cause, r.culprit_member_id, r.outcome, r.end_ts, r.inferred) for r in rb] == [
        ("new_member", "a", "completed", None, True),
        ("new_member", "b", "completed", None, True),
        ("rebalance_timeout", "a", "open", None, False),
    ]
    assert rb[2].reason == "it failed to transition from epoch 1 within 300000ms"
    assert sessions(out)["a"].end_reason == "fenced"


def test_metadata_only_bump():
    ev = steady() + [
        bumped(70_000, 6, hash_="8812"), target(70_000, 6),
        astate(70_100, "a", 6, 5, "STABLE", tps(0, 1, 2, 6)),
        astate(70_200, "b", 6, 5, "STABLE", tps(3, 4, 5, 7)),
    ]  # fmt: skip
    r = one(run(ev))
    assert (r.cause, r.reason, r.culprit_member_id, r.culprit_client_id) == (
        "metadata_change",
        "metadata hash 8812",
        None,
        None,
    )
    assert (r.old_generation, r.new_generation, r.duration_ms, r.members_before, r.members_after) == (
        5,
        6,
        200,
        2,
        2,
    )
    assert (r.partitions_revoked, r.partitions_assigned, r.paused_partition_ms) == (0, 2, 0)


def test_broker_info_only_4x_open_then_inferred():
    """4.x: no per-member lines at INFO. Each bump opens a rebalance whose end is unseen; bumps within
    signal_window_ms merge; the next bump closes it (completed, inferred, null end)."""
    ev = [
        joined(0, "a"), bumped(0, 1), target(0, 1),
        joined(60_000, "b"), bumped(60_000, 2), target(60_000, 2),
        joined(60_500, "c"), bumped(60_500, 3), target(60_500, 3),
        bumped(120_000, 4, hash_="77"), target(120_000, 4),
    ]  # fmt: skip
    out = run(ev)
    rb = sorted(out.rebalances, key=lambda r: r.start_ts)
    assert [
        (r.old_generation, r.new_generation, r.join_rounds, r.outcome, r.end_ts, r.duration_ms, r.inferred)
        for r in rb
    ] == [
        (0, 1, 1, "completed", None, None, True),
        (1, 3, 2, "completed", None, None, True),
        (3, 4, 1, "open", None, None, False),
    ]
    assert [r.cause for r in rb] == ["new_member", "new_member", "metadata_change"]
    assert all(r.paused_partition_ms is None and r.partitions_revoked is None for r in rb)
    assert anomalies(out) == ["rebalance_without_end"]
    # without member lines the state stays Reconciling (never shown reconciled)
    assert out.transitions[-1].to_state == "Reconciling"
    # a non-final flush reports it open without the anomaly
    assert anomalies(run(ev, final=False)) == []


def test_client_lines_lag_the_epoch_match_by_time():
    """Broker 4.x INFO (bump) + client INFO lines; 'with epoch N' shows the old epoch."""
    r = ConsumerGroupReplay(G)
    r.feed_rows([transition(10, "a", 4, "RECONCILING", "STABLE", "ca")])  # the logs begin here
    later = [
        transition(990, "b", 0, "UNSUBSCRIBED", "JOINING", "cb"),
        joined(1000, "b"), bumped(1000, 5), target(1000, 5),
        transition(1100, "b", 5, "JOINING", "RECONCILING", "cb"),
        reconciling(1110, "cb"),
        transition(1120, "b", 5, "RECONCILING", "ACKNOWLEDGING", "cb"),
        transition(1130, "b", 5, "ACKNOWLEDGING", "STABLE", "cb"),
        transition(1200, "a", 4, "STABLE", "RECONCILING", "ca"),
        reconciling(1210, "ca", revoked=tps(1)),
        transition(1300, "a", 4, "RECONCILING", "ACKNOWLEDGING", "ca"),
        transition(1400, "a", 4, "ACKNOWLEDGING", "STABLE", "ca"),
        # b gets t-1 once a released it: a second phase at the same epoch
        transition(1600, "b", 5, "STABLE", "RECONCILING", "cb"),
        reconciling(1610, "cb", added=tps(1)),
        transition(1700, "b", 5, "ACKNOWLEDGING", "STABLE", "cb"),
    ]  # fmt: skip
    r.feed_rows(sorted(later, key=lambda x: (x[0], 0 if x[3] == "broker" else 1)))
    out = r.flush(final=True)
    rb = one(out)
    assert (rb.start_ts, rb.end_ts, rb.duration_ms, rb.outcome) == (1000, 1700, 700, "completed")
    assert (rb.old_generation, rb.new_generation, rb.cause, rb.culprit_member_id, rb.culprit_client_id) == (
        4,
        5,
        "new_member",
        "b",
        "cb",
    )
    assert (rb.partitions_revoked, rb.partitions_assigned, rb.paused_partition_ms) == (1, 1, 1610 - 1210)
    assert rb.inferred is False
    assert r.model.members["a"].member_epoch == 5  # by time, not the lagging "with epoch 4"
    assert out.transitions[-1].to_state == "Stable"
    assert anomalies(out) == []


def test_local_epoch_is_not_a_member_epoch():
    # reconciliation_started carries no member_epoch (the "local epoch" is a client counter)
    ev = steady() + [bumped(1000, 6), reconciling(1100, "ca", revoked=tps(2), mid="a")]
    r = ConsumerGroupReplay(G)
    r.feed_rows(ev)
    assert r.model.members["a"].member_epoch == 5


def test_leave_with_bump_logged_after_is_one_bump():
    ev = steady() + [
        left(1000, "a"),
        bumped(1000, 6),
        target(1000, 6),
        astate(1100, "b", 6, 5, "STABLE", tps(0, 1, 2, 3, 4, 5)),
    ]
    out = run(ev)
    r = one(out)
    assert (r.cause, r.old_generation, r.new_generation, r.join_rounds) == ("member_leave", 5, 6, 1)
    assert anomalies(out) == []


def test_last_member_leaving_ends_empty():
    ev = [astate(0, "a", 5, 4, "STABLE", tps(0)), bumped(100, 6), target(100, 6), left(200, "a")]
    out = run(ev)
    r = one(out)
    assert (r.outcome, r.end_ts, r.members_after, r.cause) == ("ended_empty", 200, 0, "metadata_change")
    assert out.transitions[-1].to_state == "Empty"


def test_anomalies_never_exceptions():
    ev = first_member() + [
        bumped(2000, 1),  # epoch going backwards
        astate(2100, "ghost", 1, 0, "STABLE"),  # unknown member of a group known from its creation
        astate(2200, "a", 0, 1, "STABLE"),  # member epoch backwards
        bumped(2300, 5),  # bumps missing
        row("no_such_kind", 2400),
    ]
    r = ConsumerGroupReplay(G)
    r.feed_rows(ev + [row("group_epoch_bumped", "bad")])
    out = r.flush(final=True)
    assert anomalies(out) == [
        "generation_gap", "unknown_member", "generation_gap", "generation_gap", "unknown_kind", "no_timestamp",
        "rebalance_without_end",
    ]  # fmt: skip
    assert [a.ts for a in out.anomalies] == [2000, 2100, 2200, 2300, 2400, None, 2300]
    assert r.model.group_epoch == 5


def test_unloaded_then_lines_without_load_are_adopted():
    ev = steady() + [row("group_unloaded", 100), bumped(200, 6)]
    out = run(ev)
    assert [t.to_state for t in out.transitions][-2:] == ["Dead", "Assigning"]
    assert "impossible_transition" in anomalies(out)
    ev = steady() + [row("group_unloaded", 100), row("group_loaded", 150, member_count=2), bumped(200, 6)]
    out = run(ev)
    assert [t.to_state for t in out.transitions][-3:] == ["Dead", "Stable", "Assigning"]
    assert anomalies(out) == ["rebalance_without_end"]


def test_feed_event_objects_and_columns_equal_rows():
    ev = first_member() + [joined(10_000, "b"), bumped(10_000, 2)]
    a = run(ev)
    r = ConsumerGroupReplay(G)
    r.feed_columns({f: [x[i] for x in ev] for i, f in enumerate(EVENT_FIELDS)})
    b = r.flush(final=True)
    r = ConsumerGroupReplay(G)
    r.feed_rows([dict(zip(EVENT_FIELDS, x)) for x in ev])
    c = r.flush(final=True)
    assert a == b == c


def test_settings_window():
    ev = [joined(0, "a"), bumped(0, 1), joined(5000, "b"), bumped(5000, 2)]
    assert len(run(ev).rebalances) == 2
    assert len(run(ev, ReplaySettings(signal_window_ms=6000)).rebalances) == 1


def test_client_only_end_that_never_shows_is_closed_by_a_much_later_bump():
    ev = [
        transition(0, "a", 4, "RECONCILING", "STABLE", "ca"),
        bumped(1000, 5), target(1000, 5),
        transition(1200, "a", 4, "STABLE", "RECONCILING", "ca"),  # its STABLE line never comes
        bumped(2_000_000, 6, hash_="9"), target(2_000_000, 6),
    ]  # fmt: skip
    out = run(ev)
    first, second = sorted(out.rebalances, key=lambda r: r.start_ts)
    assert (first.outcome, first.end_ts, first.inferred, first.join_rounds) == ("completed", None, True, 1)
    assert (second.outcome, second.old_generation, second.new_generation) == ("open", 5, 6)


def test_leave_with_client_lines_late_reconciler_extends_the_rebalance():
    """4.x broker INFO + client INFO: c leaves; a reconciles first, b heartbeats later."""
    ev = [
        transition(0, "a", 5, "RECONCILING", "STABLE", "ca"),
        transition(0, "b", 5, "RECONCILING", "STABLE", "cb"),
        transition(0, "c", 5, "RECONCILING", "STABLE", "cc"),
        transition(9_990, "c", 5, "STABLE", "PREPARE_LEAVING", "cc"),
        transition(9_995, "c", 5, "PREPARE_LEAVING", "LEAVING", "cc"),
        left(10_000, "c"), target(10_100, 6),
        transition(10_100, "a", 5, "STABLE", "RECONCILING", "ca"),
        reconciling(10_110, "ca", added=tps(4)),
        transition(10_200, "a", 6, "ACKNOWLEDGING", "STABLE", "ca"),
        transition(14_000, "b", 5, "STABLE", "RECONCILING", "cb"),
        reconciling(14_010, "cb", added=tps(5)),
        transition(14_100, "b", 6, "ACKNOWLEDGING", "STABLE", "cb"),
        # a static member restarted later reconciles without a rebalance
        replaced(50_000, "a2", "a", "i-a"),
        transition(50_100, "a2", 6, "JOINING", "RECONCILING", "ca"),
        transition(50_200, "a2", 6, "ACKNOWLEDGING", "STABLE", "ca"),
    ]  # fmt: skip
    out = run(ev)
    r = one(out)
    assert (r.cause, r.culprit_member_id, r.culprit_client_id, r.old_generation, r.new_generation) == (
        "member_leave",
        "c",
        "cc",
        5,
        6,
    )
    assert (r.start_ts, r.end_ts, r.duration_ms, r.outcome, r.inferred) == (
        10_000,
        14_100,
        4_100,
        "completed",
        False,
    )
    assert (r.members_before, r.members_after, r.partitions_assigned, r.partitions_revoked) == (3, 2, 2, 0)
    s = sessions(out)
    assert (s["c"].end_reason, s["c"].client_id, s["a"].end_reason) == ("leave", "cc", "replaced")


def test_client_lines_only():
    """No broker logs at all: the rebalance is reconstructed from the members' own lines (inferred)."""
    ev = [
        transition(0, "a", 2, "ACKNOWLEDGING", "STABLE", "ca"),
        transition(990, "b", 0, "UNSUBSCRIBED", "JOINING", "cb"),
        transition(1000, "b", 3, "JOINING", "RECONCILING", "cb"),
        transition(1010, "b", 3, "ACKNOWLEDGING", "STABLE", "cb"),
        transition(1100, "a", 2, "STABLE", "RECONCILING", "ca"),
        reconciling(1110, "ca", revoked=tps(2, 3)),
        transition(1200, "a", 2, "ACKNOWLEDGING", "STABLE", "ca"),
        transition(1300, "b", 3, "STABLE", "RECONCILING", "cb"),
        reconciling(1310, "cb", added=tps(2, 3)),
        transition(1400, "b", 3, "ACKNOWLEDGING", "STABLE", "cb"),
    ]
    out = run(ev)
    r = one(out)
    assert (r.start_ts, r.end_ts, r.duration_ms, r.outcome, r.inferred) == (
        1000,
        1400,
        400,
        "completed",
        True,
    )
    assert (r.cause, r.culprit_member_id, r.culprit_client_id, r.old_generation, r.new_generation) == (
        "new_member", "b", "cb", 2, 3,
    )  # fmt: skip
    assert (r.partitions_revoked, r.partitions_assigned, r.paused_partition_ms) == (2, 2, 2 * 200)
    assert all(t.inferred for t in out.transitions)
    assert out.transitions[-1].to_state == "Stable"
    assert anomalies(out) == []


def test_share_group_is_replayed_with_its_type():
    """Share groups (KIP-932) log the per-member assignment state at INFO; no revocation step."""

    def share(r):
        i = EVENT_FIELDS.index("protocol_type")
        return r[:i] + ("share",) + r[i + 1 :]

    ev = [
        share(joined(0, "a")), share(bumped(0, 1)), share(target(0, 1)),
        share(astate(5, "a", 1, 0, "STABLE", tps(0, 1))),
        share(joined(1000, "b")), share(bumped(1000, 2)), share(target(1000, 2)),
        share(astate(1000, "b", 2, 0, "STABLE", tps(0, 1))),
        share(astate(3000, "a", 2, 1, "STABLE", tps(0, 1))),
    ]  # fmt: skip
    out = run(ev)
    r = one(out, start_ts=1000)
    assert (r.protocol_type, r.cause, r.old_generation, r.new_generation, r.end_ts) == (
        "share",
        "new_member",
        1,
        2,
        3000,
    )
    assert {s.protocol_type for s in out.sessions} == {"share"}
    assert {t.protocol_type for t in out.transitions} == {"share"}


def test_logs_beginning_mid_rebalance():
    ev = [
        astate(0, "a", 4, 4, "UNREVOKED_PARTITIONS", tps(0), revoked=tps(1)),
        astate(10, "b", 5, 4, "UNRELEASED_PARTITIONS", tps(2)),
        astate(300, "a", 5, 4, "STABLE", tps(0)),
        astate(400, "b", 5, 5, "STABLE", tps(1, 2)),
    ]
    out = run(ev)
    r = one(out)
    assert (r.start_unknown, r.start_ts, r.end_ts, r.duration_ms, r.outcome) == (
        True,
        None,
        400,
        None,
        "completed",
    )
    assert (r.old_generation, r.new_generation, r.cause, r.rebalance_id) == (
        None,
        5,
        "unknown",
        f"{G}:unknown:None",
    )
    assert (r.partitions_revoked, r.partitions_assigned, r.paused_partition_ms) == (1, 1, 400)
    assert anomalies(out) == ["rebalance_without_start"]
