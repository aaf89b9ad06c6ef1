"""Version differences of the request-level model (reference section 1.14), one test per row that
the model implements, plus the Java coordinator's differences (4.0 default; trunk
``GroupMetadataManager.java``, ported facts from ``GroupMetadataManagerTest.java``), reason texts
per version and coordinator moves (load/unload)."""

from __future__ import annotations

import pytest
from test_coordinator_support import INITIAL_DELAY, PROTOCOLS, REBALANCE, SESSION, Harness

from coordinator_core import reasons as R
from coordinator_core.config import CoordinatorConfig, Features
from coordinator_core.coordinator import GroupCoordinator
from coordinator_core.group import ClassicGroup
from coordinator_core.states import DEAD


def prepared_reasons(h: Harness) -> list[str | None]:
    return [e.reason for e in h.events if e.kind == "rebalance_prepared"]


# --- 0.10.0 / 0.10.1 / 0.11 ----------------------------------------------------------------------


def test_0_10_new_group_starts_stable_and_dies_when_empty_0_10_1_uses_empty():
    """Empty state since 0.10.1 (KAFKA-2720): before, a new group is Stable and a group left without
    members goes Dead and is removed."""
    old = Harness("0.10", initial_rebalance_delay_ms=None)
    j = old.send_join().value  # completes synchronously: no initial delay, no MEMBER_ID_REQUIRED
    assert (j.error, j.generation) == ("NONE", 1)
    assert old.states()[0] == "Stable"
    old.leave([(j.member_id, None, None)])
    assert old.group() is None and old.states()[-1] == "Dead"
    new = Harness("0.10.1", initial_rebalance_delay_ms=None)
    j = new.send_join().value
    assert new.states()[0] == "Empty"
    new.leave([(j.member_id, None, None)])
    assert new.state() == "Empty" and new.group().generation == 2


def test_initial_rebalance_delay_from_0_11():
    """group.initial.rebalance.delay.ms exists from 0.11 (default 3000; 0 before)."""
    assert CoordinatorConfig(version="0.10.2").initial_rebalance_delay_ms == 0
    assert CoordinatorConfig(version="0.11").initial_rebalance_delay_ms == 3000
    h = Harness("0.11", initial_rebalance_delay_ms=None)
    fut = h.send_join()
    assert not fut.done
    h.advance(3001)
    assert fut.value.generation == 1


def test_rebalance_timeout_is_session_timeout_before_0_10_1():
    """KIP-62 (0.10.1) added rebalanceTimeoutMs; 0.10.0 waits the session timeout."""
    h = Harness("0.10", initial_rebalance_delay_ms=None)
    h.send_join(session=700, rebalance=99999)
    assert h.group().rebalance_timeout_ms() == 700


# --- 2.1 / 2.2: reason, MEMBER_ID_REQUIRED, group.max.size -----------------------------------------


def test_member_id_required_and_max_size_from_2_2():
    """KIP-394 (2.2): MEMBER_ID_REQUIRED two-step join and group.max.size."""
    old = Harness("2.1", group_max_size=1)
    r = old.send_join(require_known=True)
    assert r.done is False  # added directly, parked in the initial delay
    assert old.send_join(require_known=True).done is False  # no max size before 2.2
    assert old.group().size == 2
    new = Harness("2.2", group_max_size=1)
    first = new.send_join(require_known=True).value
    assert first.error == "MEMBER_ID_REQUIRED" and new.group().size == 0
    new.send_join(first.member_id, require_known=True)
    second = new.send_join(require_known=False).value
    assert second.error == "GROUP_MAX_SIZE_REACHED" and second.member_id == ""


def test_rebalance_reason_logged_from_2_1():
    assert prepared_reasons(_one_join("2.0")) == [None]
    assert prepared_reasons(_one_join("2.1"))[0].startswith("Adding new member consumer-test-")


def _one_join(version: str) -> Harness:
    h = Harness(version)
    h.send_join()
    return h


# --- 2.3: static membership ------------------------------------------------------------------------


def test_static_membership_from_2_3():
    old = Harness("2.2")
    j = old.static_join("", "inst")
    assert j.member_id.startswith("consumer-test-") and old.group().static_members == {}
    new = Harness("2.3")
    j = new.static_join("", "inst")
    assert j.member_id.startswith("inst-") and new.group().static_members == {"inst": j.member_id}


# --- 2.4: Dead group and batch leave ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "error"), [("2.3", "UNKNOWN_MEMBER_ID"), ("2.4", "COORDINATOR_NOT_AVAILABLE")]
)
def test_join_dead_group_error_by_version(version, error):
    h = Harness(version)
    h.c.add_group(ClassicGroup("dead", DEAD))
    assert h.send_join(group_id="dead").value.error == error


def test_admin_leave_by_instance_id_from_2_4():
    for version, expected in (("2.3", "UNKNOWN_MEMBER_ID"), ("2.4", "NONE")):
        h = Harness(version)
        h.static_join("", "inst")
        r = h.leave([("", "inst", None)])
        assert r.members == [("", "inst", expected)]


# --- 2.6: acceptJoiningMember ----------------------------------------------------------------------


def test_accept_joining_member_rule_from_2_6():
    """2.6: in PreparingRebalance a pending id is accepted only while fewer than group.max.size
    members await a JoinGroup response; 2.2-2.5 accepted any known id."""
    results = {}
    for version in ("2.5", "2.6"):
        h = Harness(version, group_max_size=2)
        ids = [h.send_join(require_known=True).value.member_id for _ in range(3)]
        h.send_join(ids[0], require_known=True)
        h.send_join(ids[1], require_known=True)
        assert h.group().num_awaiting_join == 2
        third = h.send_join(ids[2], require_known=True)
        results[version] = third.value.error if third.done else "parked"
    assert results == {"2.5": "parked", "2.6": "GROUP_MAX_SIZE_REACHED"}


# --- 2.6.1: heartbeat in CompletingRebalance --------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "error", "reset"), [("2.6", "REBALANCE_IN_PROGRESS", False), ("2.6.1", "NONE", True)]
)
def test_heartbeat_in_completing_rebalance(version, error, reset):
    h = Harness(version)
    j = h.dynamic_join()
    assert h.state() == "CompletingRebalance"
    before = h.c.timer_deadline("hb", "groupId", j.member_id)
    h.advance(100)
    assert h.heartbeat(j.member_id, j.generation) == error
    after = h.c.timer_deadline("hb", "groupId", j.member_id)
    assert (after == h.t + SESSION) is reset and (after == before) is not reset


# --- 2.8.1 / 3.0: DelayedSync ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("version", "removed"), [("2.8", False), ("2.8.1", True), ("2.9", False), ("3.0", True)]
)
def test_delayed_sync(version, removed):
    """Members that heartbeat but never SyncGroup are removed after the rebalance timeout only with
    DelayedSync (2.8.1 backport, 3.0+). ("2.9" is not a release; it stands for "2.x without")."""
    h = Harness(version)
    j = h.dynamic_join()
    h.advance(REBALANCE // 2)
    assert h.heartbeat(j.member_id, j.generation) == "NONE"
    h.advance(REBALANCE // 2 + 1)
    hb = h.heartbeat(j.member_id, j.generation)
    assert (hb == "UNKNOWN_MEMBER_ID") is removed
    assert ("sync_expired" in h.kinds()) is removed


# --- 3.2: KIP-800 reasons, KIP-814 skipAssignment --------------------------------------------------


def test_client_reasons_from_3_2():
    h31 = Harness("3.1")
    j = h31.stable_group()
    h31.send_join(j.member_id, reason="cached metadata has changed")
    assert prepared_reasons(h31)[-1] == f"Leader {j.member_id} re-joining group during Stable"
    h32 = Harness("3.2")
    j = h32.stable_group()
    h32.send_join(j.member_id, reason="cached metadata has changed")
    assert prepared_reasons(h32)[-1] == (
        f"Leader {j.member_id} re-joining group during Stable; client reason: cached metadata has changed"
    )


@pytest.mark.parametrize(("version", "skip"), [("3.1", False), ("3.2", True)])
def test_skip_assignment_from_3_2(version, skip):
    h = Harness(version)
    lead = h.static_join("", "leader")
    assert h.sync_leader(lead.member_id, lead.generation).error == "NONE"
    r = h.static_join("", "leader", clock_advance=1)
    assert (r.error, r.generation, r.skip_assignment) == ("NONE", 1, skip)
    assert r.leader_id == (r.member_id if skip else lead.member_id)


# --- 3.4: timeouts updated on rejoin ----------------------------------------------------------------


@pytest.mark.parametrize(("version", "session"), [("3.3", SESSION), ("3.4", 2 * SESSION)])
def test_timeouts_updated_on_rejoin_from_3_4(version, session):
    h = Harness(version)
    j = h.stable_group()
    h.send_join(j.member_id, session=2 * SESSION, rebalance=2 * REBALANCE)
    assert h.group().members[j.member_id].session_timeout_ms == session


# --- 4.0: Java coordinator -------------------------------------------------------------------------


def test_java_extends_initial_delay_after_empty_scala_only_at_generation_0():
    """newMemberAdded: Scala only while generationId == 0, Java whenever previousState == Empty."""
    ends = {}
    for version in ("3.9", "4.0"):
        h = Harness(version)
        j = h.stable_group()  # generation 1
        h.leave([(j.member_id, None, None)])
        assert (h.state(), h.group().generation) == ("Empty", 2)
        start = h.t
        a = h.send_join()
        b = h.send_join()
        while not (a.done and b.done):
            h.advance(1)
        ends[version] = h.t - start
    # MockTimer: the first delay (50) fires at +51; Java extends it by 50 from then (remaining 450)
    assert ends == {"3.9": INITIAL_DELAY + 1, "4.0": 2 * (INITIAL_DELAY + 1)}


def test_java_pending_member_expiry_completes_initial_rebalance_early():
    """Java's removePendingMemberAndUpdateClassicGroup completes the join directly when everyone
    joined, even during the initial delay; Scala's checkAndComplete cannot complete it."""
    done_at = {}
    for version in ("3.9", "4.0"):
        h = Harness(version, initial_rebalance_delay_ms=3000)
        fut = h.send_join(rebalance=10000)
        pending = h.send_join(require_known=True, session=1000).value
        assert pending.error == "MEMBER_ID_REQUIRED"
        while not fut.done:
            h.advance(100)
        done_at[version] = h.t
        assert "pending_member_expired" in h.kinds()
    assert done_at == {"3.9": 3100, "4.0": 1100}


def test_java_batch_leave_one_rebalance_with_java_reason_and_event_order():
    """Java handles the whole LeaveGroup batch, then rebalances once ("explicit `LeaveGroup` request
    for (a, b) members."), logging the member-left lines first; Scala rebalances on the first
    member (3.x: "Removing member a on LeaveGroup; client reason: ...") and logs after."""
    out = {}
    for version in ("3.9", "4.0"):
        h = Harness(version)
        first, _rejoin, other = _two_members(h)
        h.sync_leader(first.member_id, 2, {first.member_id: b"", other.member_id: b""})
        n = len(h.events)
        h.leave([(first.member_id, None, "bye"), (other.member_id, None, "bye")])
        out[version] = ([e.kind for e in h.events[n:]], prepared_reasons(h)[-1])
        assert h.state() == "Empty" and h.group().generation == 3
        ids = (first.member_id, other.member_id)
    assert out["3.9"] == (
        ["rebalance_prepared", "member_left", "group_empty", "member_left"],
        f"Removing member {ids[0]} on LeaveGroup; client reason: bye",
    )
    assert out["4.0"] == (
        ["member_left", "member_left", "rebalance_prepared", "group_empty"],
        f"explicit `LeaveGroup` request for ({ids[0]}, {ids[1]}) members.",
    )


def _two_members(h: Harness):
    first = h.stable_group()
    other = h.send_join()
    rejoin = h.send_join(first.member_id)
    return first, rejoin.value, other.value


def test_java_reason_and_option_rendering():
    f39, f40 = Features.for_version("3.9"), Features.for_version("4.0")
    assert (
        R.add_member(f39, "m", None, None)
        == "Adding new member m with group instance id None; client reason: not provided"
    )
    assert (
        R.add_member(f39, "m", "i", "r")
        == "Adding new member m with group instance id Some(i); client reason: r"
    )
    assert (
        R.add_member(f40, "m", None, "r")
        == "Adding new member m with group instance id null; client reason: r"
    )
    assert R.heartbeat_expiration(f39, "m") == "removing member m on heartbeat expiration"
    assert R.heartbeat_expiration(f40, "m") == "removing member m on heartbeat expiration."
    assert (
        R.pending_sync_expiration(f39, ["a", "b"]) == "Removing Set(a, b) on pending sync request expiration"
    )
    assert (
        R.pending_sync_expiration(f39, list("abcde"))
        == "Removing HashSet(a, b, c, d, e) on pending sync request expiration"
    )
    assert R.pending_sync_expiration(f40, ["a", "b"]) == "Removing [a, b] on pending sync request expiration"
    assert R.member_joining(f40, "m", "PreparingRebalance", None) == (
        "Member m is joining group during PreparingRebalance; client reason: not provided"
    )


@pytest.mark.parametrize(
    ("version", "text"),
    [
        ("2.2", "Adding new member m"),
        ("2.3", "Adding new member m with group instanceid None"),
        ("2.4", "Adding new member m with group instance id None"),
        ("3.2", "Adding new member m with group instance id None; client reason: not provided"),
    ],
)
def test_add_member_reason_by_version(version, text):
    assert R.add_member(Features.for_version(version), "m", None, None) == text


@pytest.mark.parametrize(
    ("version", "text"),
    [
        ("2.6", "removing member m on LeaveGroup"),
        ("3.0", "Removing member m on LeaveGroup"),
        ("3.2", "Removing member m on LeaveGroup; client reason: closing"),
    ],
)
def test_leave_reason_by_version(version, text):
    assert R.leave_group(Features.for_version(version), "m", "closing") == text


def test_leader_rejoin_reason_by_version():
    assert (
        R.leader_rejoin(Features.for_version("2.6"), "m", "Stable", None) == "Updating metadata for member m"
    )
    assert (
        R.leader_rejoin(Features.for_version("2.8"), "m", "Stable", None)
        == "leader m re-joining group during Stable"
    )
    assert (
        R.leader_rejoin(Features.for_version("3.0"), "m", "Stable", "x")
        == "Leader m re-joining group during Stable"
    )


# --- coordinator moves -----------------------------------------------------------------------------


def test_unload_answers_parked_joins_not_coordinator_and_load_restores_persisted_group():
    """onGroupUnloaded: -> Dead, parked JoinGroups answered NOT_COORDINATOR; the new coordinator
    loads the last *persisted* metadata (the Stable generation), state Stable, and schedules every
    member's heartbeat (onGroupLoaded)."""
    old = Harness()
    first, rejoin, other = _two_members(old)
    assert old.sync_leader(first.member_id, 2, {first.member_id: b"A", other.member_id: b"B"}).error == "NONE"
    # a third member starts a rebalance; the first rejoins and waits
    third = old.send_join()
    parked = old.send_join(first.member_id)
    assert old.state() == "PreparingRebalance" and not parked.done
    out = old.take(old.c.unload_group(old.t, "groupId"))
    assert parked.value.error == "NOT_COORDINATOR" and third.value.error == "NOT_COORDINATOR"
    assert old.state() == "Dead" and out.kinds() == ["group_unloaded"]
    assert old.c.next_deadline() is None
    assert old.send_join(first.member_id).value.error == "NOT_COORDINATOR"

    new = GroupCoordinator(CoordinatorConfig(min_session_timeout_ms=10), broker_id=2)
    loaded = new.load_group(old.t + 5, "groupId", old.group())
    g = new.group("groupId")
    assert (g.state.value, g.generation, g.leader_id) == ("Stable", 2, first.member_id)
    assert set(g.members) == {first.member_id, other.member_id}
    assert g.members[other.member_id].assignment == b"B"
    ev = loaded.events[0]
    assert (ev.kind, ev.coordinator, ev.generation, ev.member_count) == ("group_loaded", 2, 2, 2)
    assert ev.offsets_partition == GroupCoordinator()._partition("groupId")
    assert new.timer_deadline("hb", "groupId", other.member_id) == old.t + 5 + SESSION
    hb = new.heartbeat(old.t + 10, "groupId", member_id=other.member_id, generation=2)
    assert hb.reply.error == "NONE"


def test_load_over_capacity_group_rebalances():
    """onGroupLoaded: a group above group.max.size prepares a rebalance (3.1+ reason text)."""
    src = Harness(group_max_size=4)
    first, _rejoin, other = _two_members(src)
    src.sync_leader(first.member_id, 2, {})
    c = GroupCoordinator(CoordinatorConfig(group_max_size=1, min_session_timeout_ms=10))
    out = c.load_group(0, "groupId", src.group().persisted)
    assert [e.kind for e in out.events] == ["group_loaded", "rebalance_prepared"]
    assert out.events[1].reason == (
        "Freshly-loaded group is over capacity (1). Rebalancing in order to give a chance for consumers to commit offsets"
    )
    assert c.group("groupId").state.value == "PreparingRebalance"


def test_events_carry_coordinator_timestamp_and_fields():
    c = GroupCoordinator(CoordinatorConfig(min_session_timeout_ms=10), broker_id=7)
    r = c.join_group(1000, "g", client_id="app", client_host="/10.0.0.1", session_timeout_ms=500).reply
    out = c.join_group(
        1001, "g", member_id=r.member_id, client_id="app", client_host="/10.0.0.1", session_timeout_ms=500
    )
    added, prepared = out.events
    assert (added.kind, added.ts, added.coordinator, added.client_id, added.host, added.static) == (
        "member_added", 1001, 7, "app", "/10.0.0.1", False,
    )  # fmt: skip
    assert (prepared.generation, prepared.state) == (0, "PreparingRebalance")
    done = c.advance_to(4001)
    jc = done.events[0]
    assert (jc.kind, jc.ts, jc.generation, jc.member_count, jc.member_id) == (
        "join_completed",
        4001,
        1,
        1,
        r.member_id,
    )
    assert c.next_deadline() == 4001 + 500  # heartbeat; the sync timer is at +300000
    assert PROTOCOLS and c.group("g").protocol_name == "range"


def test_load_of_never_persisted_group_loads_nothing():
    """A group that never wrote metadata (it never reached Stable or Empty) has no record in
    __consumer_offsets: the new coordinator loads nothing and the next JoinGroup recreates it."""
    old = Harness()
    old.send_join()  # parked in the initial delay, nothing persisted yet
    old.take(old.c.unload_group(old.t, "groupId"))
    new = GroupCoordinator(CoordinatorConfig(min_session_timeout_ms=10))
    out = new.load_group(old.t, "groupId", old.group())
    assert out.events == [] and new.group("groupId") is None
    r = new.join_group(old.t, "groupId", session_timeout_ms=SESSION, require_known_member_id=False)
    assert r.reply is None and new.group("groupId").state.value == "PreparingRebalance"


def test_member_ids_are_reproducible_per_seed_and_overridable():
    def ids(**kw):
        c = GroupCoordinator(CoordinatorConfig(), **kw)
        return [c.join_group(0, "g", client_id="app").reply.member_id for _ in range(3)]

    assert ids(seed=1) == ids(seed=1) != ids(seed=2)
    assert all(i.startswith("app-") and len(i) == len("app-") + 36 for i in ids(seed=1))
    counter = iter(range(100))
    assert ids(member_id_factory=lambda prefix: f"{prefix}-{next(counter)}") == ["app-0", "app-1", "app-2"]


def test_commit_without_group_management_on_0_10_creates_no_group():
    h = Harness("0.10", initial_rebalance_delay_ms=None)
    assert h.commit() == "NONE" and h.group() is None
    h2 = Harness("0.10.1", initial_rebalance_delay_ms=None)
    assert h2.commit() == "NONE" and h2.state() == "Empty"
