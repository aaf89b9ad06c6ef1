"""Session keys and member identity when the logs do not name every join.

* Scala 3.x logs a pending member's second join at DEBUG: only MEMBER_ID_REQUIRED ("Created a new
  member id ...") names it. Kafka completes a join phase only once no member is pending, so the
  logged member count tells how many pending ids joined.
* ``joined_ts`` is part of the session key (group_id, member_id, joined_ts): it is never None.
* Static members' ids are ``<group.instance.id>-<uuid>``: the client id comes from client lines
  (``[Consumer instanceId=i, clientId=c, groupId=g]``), never from the broker line alone.
"""

from __future__ import annotations

from pathlib import Path

from coordinator_core.replay import GroupReplay
from tests.core.replay_helpers import G, broker, client, kinds, number, replay

REQ = "need to re-join with the given member-id"
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "replay_v1"


def _initial_join_with_pending(n_pending: int = 2, count: int = 3):
    """orders at 09:00 in the bundled sample: m1 is named by "Adding new member", m2/m3 only by their
    MEMBER_ID_REQUIRED lines."""
    evs = [
        broker("member_id_required", 100, member_id="m1", state="Empty"),
        broker(
            "rebalance_prepared",
            106,
            generation=0,
            reason=f"Adding new member m1 with group instance id None; client reason: {REQ}: m1",
        ),  # fmt: skip
    ]
    for i in range(n_pending):
        evs.append(
            broker("member_id_required", 500 + 100 * i, member_id=f"m{i + 2}", state="PreparingRebalance")
        )
    evs += [
        broker("join_completed", 4000, generation=1, member_count=count),
        broker("assignment_received", 4015, member_id="m1", generation=1, member_count=count),
    ]
    return evs


def _sessions(out):
    return {s.member_id: s for s in out.sessions}


def test_pending_members_fill_the_logged_member_count():
    evs = _initial_join_with_pending() + [
        broker("member_left", 9000, member_id="m2", reason="the consumer is being closed"),
        broker("rebalance_prepared", 9001, generation=1, reason="Removing member m2 on LeaveGroup"),
        broker("join_completed", 9500, generation=2, member_count=2),
        broker("assignment_received", 9510, member_id="m3", generation=2, member_count=2),
    ]
    out = replay(number(evs))
    ss = _sessions(out)
    got = {m: (s.joined_ts, s.left_ts, s.first_generation, s.last_generation, s.end_reason, s.inferred)
           for m, s in ss.items()}  # fmt: skip
    assert got == {
        "m1": (106, None, 1, 2, "open", False),  # named by "Adding new member"
        "m2": (500, 9000, 1, 1, "leave", True),  # joined when its id was handed out (inferred)
        "m3": (600, None, 1, 2, "open", True),
    }
    assert [(r.members_before, r.members_after) for r in out.rebalances] == [(0, 3), (3, 2)]
    assert "unknown_member" not in kinds(out)


def test_only_as_many_pending_ids_as_the_count_needs_this_rebalance_first():
    evs = [
        broker("member_id_required", 50, member_id="stale", state="Empty"),  # never rejoined
    ] + _initial_join_with_pending(n_pending=1, count=2)
    out = replay(number(evs))
    assert sorted(_sessions(out)) == ["m1", "m2"]
    assert _sessions(out)["m2"].joined_ts == 500


def test_unknown_member_count_promotes_nobody():
    evs = _initial_join_with_pending(count=3)
    evs[-2] = broker("join_completed", 4000, generation=1)  # 2.x "Stabilized" without a count
    evs[-1] = broker("assignment_received", 4015, member_id="m1", generation=1)
    assert sorted(_sessions(replay(number(evs)))) == ["m1"]


def test_pending_member_first_seen_as_leader_joined_when_its_id_was_handed_out():
    """payments in the sample: member 2 is never named joining; it becomes the leader at gen 2."""
    evs = [
        broker("member_id_required", 100, member_id="p1", state="Empty"),
        broker(
            "rebalance_prepared",
            105,
            generation=0,
            reason=f"Adding new member p1 with group instance id None; client reason: {REQ}: p1",
        ),  # fmt: skip
        broker("member_id_required", 700, member_id="p2", state="PreparingRebalance"),
        broker("join_completed", 3900, generation=1),  # no count: p2 stays pending
        broker("assignment_received", 3910, member_id="p1", generation=1),
        broker("member_left", 8000, member_id="p1", reason="consumer poll timeout has expired."),
        broker(
            "rebalance_prepared",
            8001,
            generation=1,
            reason="Removing member p1 on LeaveGroup; client reason: consumer poll timeout has expired.",
        ),  # fmt: skip
        broker("join_completed", 9000, generation=2),
        broker("assignment_received", 9010, member_id="p2", generation=2),
    ]
    ss = _sessions(replay(number(evs)))
    p2 = ss["p2"]
    assert (p2.joined_ts, p2.left_ts, p2.first_generation, p2.last_generation, p2.inferred) == (
        700, None, 2, 2, True,
    )  # fmt: skip
    assert (ss["p1"].end_reason, ss["p1"].joined_ts) == ("poll_timeout_leave", 105)


def test_member_first_seen_by_heartbeat_or_by_its_end_has_a_joined_ts():
    evs = [
        broker("group_loaded", 100, generation=3, member_count=1),
        client("heartbeat_sent", 200, member_id="h1", generation=3, client_id="c-h1"),
        broker("member_session_expired", 900, member_id="x1"),  # never seen before
    ]
    ss = _sessions(replay(number(evs)))
    assert (ss["h1"].joined_ts, ss["h1"].inferred, ss["h1"].first_generation) == (200, True, 3)
    assert (ss["x1"].joined_ts, ss["x1"].left_ts, ss["x1"].end_reason, ss["x1"].inferred) == (
        900, 900, "session_timeout", True,
    )  # fmt: skip


def test_joined_ts_is_stable_across_cut_and_resume():
    evs = number(_initial_join_with_pending())
    r = GroupReplay(G)
    for e in evs[:4]:  # cut while m2/m3 are still pending
        r.feed(e)
    first = r.flush()
    r2 = GroupReplay.resume(G, r.snapshot())
    for e in evs[4:]:
        r2.feed(e)
    r2.feed(broker("member_session_expired", 60000, member_id="m3", line_no=99))
    second = r2.flush(final=True)
    keys = {(s.member_id, s.joined_ts) for s in first.sessions + second.sessions}
    assert keys == {("m1", 106), ("m2", 500), ("m3", 600)}


def test_legacy_snapshot_member_without_joined_ts_gets_one():
    # a format 1 snapshot (members as lists) of _initial_join_with_pending(), written by the
    # single-module replay: tests/fixtures/replay_v1/initial_join_with_pending.snapshot.json
    snap = (FIXTURES / "initial_join_with_pending.snapshot.json").read_text().strip()
    snap = snap.replace('"m1":[null,null,null,106,', '"m1":[null,null,null,null,')
    assert '"m1":[null,null,null,null,' in snap
    s = _sessions(GroupReplay.resume(G, snap).flush())
    assert s["m1"].joined_ts is not None


# ----------------------------------------------------------------------------- static members


def _static_group(client_lines):
    """shipping in the sample (Java 4.0): static members whose ids do not encode the client id."""
    evs = list(client_lines) + [
        broker("member_added", 210, member_id="i0-u0", group_instance_id="i0", static=True, state="Empty"),
        broker(
            "rebalance_prepared",
            213,
            generation=0,
            reason="Adding new member i0-u0 with group instance id i0; client reason: not provided",
        ),  # fmt: skip
        broker("member_added", 650, member_id="i1-u1", group_instance_id="i1", static=True),
        broker("join_completed", 4030, generation=1, member_count=2),
        broker("assignment_received", 4047, member_id="i0-u0", generation=1, member_count=2, static_count=2),
    ]
    return number(evs)


def test_static_members_client_id_from_client_lines_by_instance_id():
    lines = [
        client("coordinator_discovered", 200, group_instance_id="i0", client_id="c-0", coordinator=2, file="i0.log"),
        client("join_sent", 202, group_instance_id="i0", client_id="c-0", file="i0.log"),
        client("joined", 4035, member_id="i1-u1", generation=1, group_instance_id="i1", client_id="c-1", file="i1.log"),
    ]  # fmt: skip
    out = replay(_static_group(lines))
    ss = _sessions(out)
    assert (ss["i0-u0"].client_id, ss["i0-u0"].host) == ("c-0", None)  # the logged host is the coordinator's
    assert ss["i1-u1"].client_id == "c-1"
    (r,) = out.rebalances
    assert (r.culprit_member_id, r.culprit_group_instance_id, r.culprit_client_id) == ("i0-u0", "i0", "c-0")


def test_static_member_client_id_learned_after_it_was_added_reaches_the_culprit():
    lines = [client("synced", 4040, member_id="i0-u0", generation=1, group_instance_id="i0", client_id="c-0", file="i0.log")]  # fmt: skip
    out = replay(_static_group(lines))
    (r,) = out.rebalances
    assert r.culprit_client_id == "c-0"
    assert _sessions(out)["i0-u0"].client_id == "c-0"


def test_static_member_without_client_evidence_keeps_client_id_unknown():
    out = replay(_static_group([]))
    assert {s.member_id: s.client_id for s in out.sessions} == {"i0-u0": None, "i1-u1": None}
    assert out.rebalances[0].culprit_client_id is None


def test_broker_takeover_never_reports_a_new_generation_below_the_old_one():
    """Hypothesis found it: client lines inferred a round to generation 1, then the broker's
    lines (with a gap) put the group at generation 2 before it went empty."""
    evs = [
        client("joined", 0, member_id="m1", generation=0, client_id="c-m1"),
        client("joined", 0, member_id="m1", generation=1, client_id="c-m1"),
        broker("member_added", 0, member_id="m1"),
        broker("rebalance_prepared", 0, generation=2),
        broker("group_empty", 0, generation=0),
    ]
    out = replay(number(evs), sort=False)
    last = out.rebalances[-1]
    assert (last.old_generation, last.new_generation, last.outcome) == (2, 2, "ended_empty")


def test_pending_member_heartbeating_has_joined():
    """2.x "Stabilized" lines carry no member count: a client heartbeat from a pending id shows that
    its JoinGroup succeeded."""
    evs = _initial_join_with_pending(n_pending=1, count=2)
    evs[-2] = broker("join_completed", 4000, generation=1)
    evs[-1] = broker("assignment_received", 4015, member_id="m1", generation=1)
    evs.append(client("heartbeat_sent", 7000, member_id="m2", generation=1, client_id="c-m2", file="m2.log"))
    out = replay(number(evs))
    m2 = _sessions(out)["m2"]
    assert (m2.joined_ts, m2.first_generation, m2.last_generation, m2.client_id, m2.inferred) == (
        500, 1, 1, "c-m2", True,
    )  # fmt: skip
    assert "unknown_member" not in kinds(out)


def test_pending_member_in_the_leaders_map_has_joined():
    evs = _initial_join_with_pending(n_pending=1, count=2)
    evs[-2] = broker("join_completed", 4000, generation=1)
    evs.insert(-1, client("leader_assigned", 4010, member_id="m1", generation=1, client_id="c-m1",
                          assignment=(("m1", ("t-0",)), ("m2", ("t-1",))), file="m1.log"))  # fmt: skip
    m2 = _sessions(replay(number(evs)))["m2"]
    assert (m2.joined_ts, m2.first_generation, m2.last_generation, m2.inferred) == (500, 1, 1, True)


def test_culprit_client_id_learned_after_the_rebalance_ended_reemits_it_with_the_same_id():
    lines = [
        client("heartbeat_failed", 9000, group_instance_id="i0", client_id="c-0", error="NONE", file="i0.log")
    ]
    r = GroupReplay(G)
    for e in _static_group([]):
        r.feed(e)
    first = r.flush()
    assert [x.culprit_client_id for x in first.rebalances] == [None]
    for e in number(lines):
        r.feed(e)
    (again,) = r.flush().rebalances
    assert (again.rebalance_id, again.culprit_client_id, again.outcome) == (
        first.rebalances[0].rebalance_id, "c-0", "completed",
    )  # fmt: skip


def test_member_missing_from_a_known_membership_joined_in_the_open_rebalance():
    evs = [
        broker("rebalance_prepared", 1000, generation=0, reason="Adding new member m9 with group instance id None"),
        client("heartbeat_sent", 1200, member_id="m8", generation=0, client_id="c-m8", file="m8.log"),
    ]  # fmt: skip
    out = replay(number(evs))
    ss = _sessions(out)
    assert (ss["m9"].joined_ts, ss["m9"].inferred) == (1000, False)  # named joining by the reason
    assert (ss["m8"].joined_ts, ss["m8"].inferred) == (1000, True)  # unknown to a known membership
    assert "unknown_member" in kinds(out)
