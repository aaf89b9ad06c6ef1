"""What-if rules: longer session timeout, static membership, another assignor."""

from __future__ import annotations

from coordinator_core.whatif import what_if
from tests.core.replay_helpers import broker, number


def _round(ts, gen, reason, leader="m1", count=None):
    return [
        broker("rebalance_prepared", ts, generation=gen, reason=reason),
        broker("join_completed", ts + 100, generation=gen + 1, member_count=count),
        broker("assignment_received", ts + 200, member_id=leader, generation=gen + 1, member_count=count),
    ]


def _add(ts, mid, cid):
    return broker("member_added", ts, member_id=mid, client_id=cid, host=f"/{cid}")


def restarts():
    """m2 crashes (session expiry, rejoins 15 s after its last heartbeat); m1 is restarted
    (LeaveGroup, back 20 s later)."""
    return number(
        [broker("group_loaded", 0, generation=3, member_count=2), _add(0, "m1", "c1"), _add(0, "m2", "c2")]
        + [broker("member_session_expired", 100_000, member_id="m2")]
        + _round(100_000, 3, "removing member m2 on heartbeat expiration")
        + [_add(105_000, "m2b", "c2")]
        + _round(105_000, 4, "Adding new member m2b with group instance id None")
        + [broker("member_left", 200_000, member_id="m1", reason="the consumer is being closed")]
        + _round(
            200_000,
            5,
            "Removing member m1 on LeaveGroup; client reason: the consumer is being closed",
            leader="m2b",
        )
        + [_add(220_000, "m1b", "c1")]
        + _round(220_000, 6, "Adding new member m1b with group instance id None", leader="m2b")
    )


def test_baseline_counts():
    res = what_if(restarts())
    assert (res.baseline_rebalances, res.scenario_rebalances) == (4, 4)
    assert res.baseline_paused_ms == res.scenario_paused_ms == 800
    assert res.removed == ()


def test_longer_session_timeout_removes_the_expiry_and_the_rejoin():
    res = what_if(restarts(), session_timeout_ms=30_000, baseline_session_timeout_ms=10_000)
    assert res.removed == ("g:100000:3", "g:105000:4")
    assert (res.scenario_rebalances, res.rebalances_saved, res.paused_ms_saved) == (2, 2, 400)
    # the member was back 15 s after its last heartbeat: a 12 s timeout would not have helped
    assert what_if(restarts(), session_timeout_ms=12_000, baseline_session_timeout_ms=10_000).removed == ()
    shorter = what_if(restarts(), session_timeout_ms=5_000, baseline_session_timeout_ms=10_000)
    assert shorter.removed == () and shorter.notes


def test_static_membership_removes_restarts_of_chosen_members():
    res = what_if(restarts(), static_members={"c1"})
    assert res.removed == ("g:200000:5", "g:220000:6")
    # m2 was last alive 55 s before it came back (expired 100 s, timeout 45 s): too late for a
    # 45 s session; with 60 s both restarts are absorbed
    assert what_if(restarts(), static_members={"c*"}).scenario_rebalances == 2
    assert what_if(restarts(), static_members={"c*"}, session_timeout_ms=60_000).scenario_rebalances == 0
    assert what_if(restarts(), static_members={"m2"}, baseline_session_timeout_ms=10_000).removed == ()
    assert what_if(restarts(), static_members={"other-*"}).removed == ()
    # back after 20 s: a 10 s session timeout would have expired the static member anyway
    assert what_if(restarts(), static_members={"c1"}, session_timeout_ms=10_000).removed == ()


def membership_changes():
    """gen 1 {a, b}; gen 2 {a, b, c}; gen 3 {a, c}: one topic with 6 partitions."""
    return number(
        [_add(0, "a", "ca"), _add(0, "b", "cb")]
        + _round(0, 0, "Adding new member b with group instance id None", leader="a", count=2)
        + [_add(1000, "c", "cc")]
        + _round(1000, 1, "Adding new member c with group instance id None", leader="a", count=3)
        + [broker("member_left", 2000, member_id="b", reason="the consumer is being closed")]
        + _round(
            2000,
            2,
            "Removing member b on LeaveGroup; client reason: the consumer is being closed",
            leader="a",
            count=2,
        )
    )


def test_another_assignor_moves_fewer_partitions():
    res = what_if(membership_changes(), assignor="sticky", partitions_per_topic={"t": 6})
    # range: {a:0-2, b:3-5} -> {a:0-1, b:2-3, c:4-5} moves 2,4,5 -> {a:0-2, c:3-5} moves 2,3
    assert res.baseline_moved_partitions == 5
    # sticky keeps what it can: one partition each from a and b, then b's two partitions
    assert res.scenario_moved_partitions == 4
    assert res.scenario_rebalances == res.baseline_rebalances == 3
    rr = what_if(membership_changes(), assignor="range", partitions_per_topic={"t": 6})
    assert rr.baseline_moved_partitions == rr.scenario_moved_partitions == 5


def test_assignor_without_partition_counts_is_skipped_with_a_note():
    res = what_if(membership_changes(), assignor="sticky")
    assert res.scenario_moved_partitions is None and res.notes


def test_a_logged_assignor_the_model_does_not_know_leaves_the_baseline_moves_uncounted():
    """A custom assignor (or Connect's ``sessioned``) without every generation's assignment logged:
    the baseline's moves are unknown (a note says so); the scenario's are still counted."""
    from tests.core.replay_helpers import client

    joined = [client("joined", ts + 150, generation=gen, member_id="a", protocol="sessioned")
              for ts, gen in ((0, 1), (1000, 2), (2000, 3))]  # fmt: skip
    events = number(sorted(membership_changes() + joined, key=lambda e: e.ts))
    res = what_if(events, assignor="sticky", partitions_per_topic={"t": 6})
    assert res.baseline_moved_partitions is None
    assert res.scenario_moved_partitions == 4
    assert any("'sessioned' is not modelled" in n for n in res.notes)
