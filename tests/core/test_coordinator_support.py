"""Test harness for the request-level coordinator (mirrors the helpers of Kafka's
``GroupCoordinatorTest.scala``, branch 3.9) plus tests of the timer heap and the version switch.

``Harness`` keeps a clock (``advance`` = ``timer.advanceClock``) and futures keyed by request id, so
a parked JoinGroup/SyncGroup answered by a later call is found like Kafka's ``Future`` results.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from coordinator_core.config import CoordinatorConfig, Features, parse_version
from coordinator_core.coordinator import GroupCoordinator, Outcome, Response
from coordinator_core.timers import TimerHeap

# GroupCoordinatorTest constants
CLIENT_ID = "consumer-test"
CLIENT_HOST = "localhost"
MIN_SESSION = 10
MAX_SESSION = 10 * 60 * 1000
MAX_SIZE = 4
REBALANCE = 500
SESSION = 500
INITIAL_DELAY = 50
GROUP = "groupId"
PROTOCOLS = (("range", b""),)
SUPERSET = (("range", b""), ("roundrobin", b""))


@dataclass
class Future:
    harness: Harness
    request_id: int

    @property
    def done(self) -> bool:
        return bool(self.harness.answers.get(self.request_id))

    @property
    def value(self) -> Response:
        got = self.harness.answers.get(self.request_id)
        assert got, f"request {self.request_id} not answered"
        return got[-1]


class Harness:
    """A GroupCoordinator with Kafka's test configuration and a manual clock."""

    def __init__(self, version: str = "3.9", **cfg) -> None:
        settings = dict(
            min_session_timeout_ms=MIN_SESSION,
            max_session_timeout_ms=MAX_SESSION,
            group_max_size=MAX_SIZE,
            initial_rebalance_delay_ms=INITIAL_DELAY,
        )
        settings.update(cfg)
        # Kafka's MockTimer runs a task only when the clock is strictly past its expiration
        self.c = GroupCoordinator(CoordinatorConfig(version=version, **settings), strict_timers=True)
        self.t = 0
        self.answers: dict[int, list[Response]] = {}
        self.events: list = []
        self.transitions: list = []
        self.last: Outcome | None = None

    # plumbing ---------------------------------------------------------------------------------
    def take(self, out: Outcome) -> Outcome:
        for r in out.responses:
            self.answers.setdefault(r.request_id, []).append(r)
        self.events.extend(out.events)
        self.transitions.extend(out.transitions)
        self.last = out
        return out

    def advance(self, ms: int) -> Outcome:
        self.t += ms
        return self.take(self.c.advance_to(self.t))

    def group(self, group_id: str = GROUP):
        return self.c.group(group_id)

    def state(self, group_id: str = GROUP) -> str:
        return self.c.group(group_id).state.value

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]

    def states(self, group_id: str = GROUP) -> list[str]:
        """The sequence of states the group went through (creation first)."""
        seq: list[str] = []
        for _ts, gid, _frm, to, _gen in self.transitions:
            if gid == group_id:
                seq.append(to)
        return seq

    # requests (names follow GroupCoordinatorTest) ----------------------------------------------
    def send_join(
        self,
        member_id: str = "",
        *,
        group_id: str = GROUP,
        protocols=PROTOCOLS,
        instance_id: str | None = None,
        session: int = SESSION,
        rebalance: int = REBALANCE,
        require_known: bool = False,
        skip_ok: bool = True,
        protocol_type: str = "consumer",
        client_id: str = CLIENT_ID,
        reason: str | None = None,
    ) -> Future:
        out = self.take(
            self.c.join_group(
                self.t,
                group_id,
                member_id=member_id,
                group_instance_id=instance_id,
                client_id=client_id,
                client_host=CLIENT_HOST,
                session_timeout_ms=session,
                rebalance_timeout_ms=rebalance,
                protocol_type=protocol_type,
                protocols=protocols,
                reason=reason,
                require_known_member_id=require_known,
                support_skip_assignment=skip_ok,
            )  # fmt: skip
        )
        return Future(self, out.request_id)

    def dynamic_join(self, member_id: str = "", **kw) -> Response:
        """``dynamicJoinGroup``: two-step join, then advance the initial delay + 1."""
        kw.setdefault("require_known", True)
        fut = self.send_join(member_id, **kw)
        if member_id == "":
            first = fut.value
            if first.error != "MEMBER_ID_REQUIRED":
                return first
            fut = self.send_join(first.member_id, **kw)
        self.advance(INITIAL_DELAY + 1)
        return fut.value

    def static_join(self, member_id: str, instance_id: str, clock_advance: int = INITIAL_DELAY + 1, **kw):
        fut = self.send_join(member_id, instance_id=instance_id, **kw)
        self.advance(clock_advance)
        return fut.value

    def send_sync(
        self, member_id: str, generation: int, assignments=None, *, group_id: str = GROUP, **kw
    ) -> Future:
        out = self.take(
            self.c.sync_group(
                self.t, group_id, member_id=member_id, generation=generation, assignments=assignments, **kw
            )
        )
        return Future(self, out.request_id)

    def sync_leader(self, member_id: str, generation: int, assignments=None, **kw) -> Response:
        return self.send_sync(member_id, generation, assignments or {member_id: b""}, **kw).value

    def heartbeat(self, member_id: str, generation: int, *, group_id: str = GROUP, instance_id=None) -> str:
        out = self.take(
            self.c.heartbeat(
                self.t, group_id, member_id=member_id, generation=generation, group_instance_id=instance_id
            )
        )
        return out.reply.error

    def commit(
        self, member_id: str = "", generation: int = -1, *, group_id: str = GROUP, instance_id=None
    ) -> str:
        out = self.take(
            self.c.commit_offsets(
                self.t, group_id, member_id=member_id, generation=generation, group_instance_id=instance_id
            )
        )
        return out.reply.error

    def leave(self, members, *, group_id: str = GROUP) -> Response:
        out = self.take(self.c.leave_group(self.t, group_id, members))
        return out.reply

    def stable_group(self, **kw) -> Response:
        """One dynamic member joined and synced: the group is Stable at generation 1."""
        j = self.dynamic_join(**kw)
        assert j.error == "NONE"
        s = self.sync_leader(j.member_id, j.generation)
        assert s.error == "NONE"
        return j


# --------------------------------------------------------------------------------------------------
# TimerHeap
# --------------------------------------------------------------------------------------------------


def test_timer_heap_orders_by_deadline_then_sequence():
    h = TimerHeap()
    h.schedule("b", 10, "B")
    h.schedule("a", 10, "A")
    h.schedule("c", 5, "C")
    assert h.next_deadline() == 5
    assert h.pop_due(9) == (5, "c", "C")
    assert h.pop_due(9) is None
    assert h.pop_due(10) == (10, "b", "B")
    assert h.pop_due(10) == (10, "a", "A")
    assert len(h) == 0


def test_timer_heap_reschedule_replaces_and_cancel_disarms():
    h = TimerHeap()
    h.schedule("k", 10)
    h.schedule("k", 20, "late")
    assert h.deadline("k") == 20
    assert h.pop_due(15) is None
    assert h.pop_due(20) == (20, "k", "late")
    h.schedule("x", 1)
    assert h.cancel("x") is True
    assert h.cancel("x") is False
    assert h.next_deadline() is None


def test_timer_heap_compacts_stale_entries():
    h = TimerHeap()
    for i in range(2000):
        h.schedule("same", 1000 + i)
    assert len(h) == 1
    assert len(h._heap) < 1100
    assert h.pop_due(10**9) == (2999, "same", None)


# --------------------------------------------------------------------------------------------------
# version switch
# --------------------------------------------------------------------------------------------------


def test_parse_version():
    assert parse_version("3.9") == (3, 9, 0)
    assert parse_version("2.8.1") == (2, 8, 1)
    assert parse_version("0.10") == (0, 10, 0)
    with pytest.raises(ValueError, match="invalid Kafka version"):
        parse_version("three")


def test_config_resolves_version_defaults():
    c010 = CoordinatorConfig(version="0.10")
    assert c010.initial_rebalance_delay_ms == 0
    assert c010.max_session_timeout_ms == 300000
    assert c010.implementation == "scala"
    c39 = CoordinatorConfig()
    assert c39.initial_rebalance_delay_ms == 3000
    assert c39.max_session_timeout_ms == 1800000
    assert c39.implementation == "scala"
    assert CoordinatorConfig(version="4.0").implementation == "java"
    assert CoordinatorConfig(version="0.10", initial_rebalance_delay_ms=100).initial_rebalance_delay_ms == 100
    with pytest.raises(ValueError, match="Java coordinator does not exist"):
        CoordinatorConfig(version="3.0", implementation="java")
    with pytest.raises(ValueError, match="group_max_size"):
        CoordinatorConfig(group_max_size=-1)


@pytest.mark.parametrize(
    ("version", "feature", "before", "first"),
    [
        ("0.10.1", "empty_state", "0.10", "0.10.1"),
        ("2.2", "member_id_required", "2.1", "2.2"),
        ("2.3", "static_membership", "2.2", "2.3"),
        ("2.4", "dead_coordinator_not_available", "2.3", "2.4"),
        ("2.6", "accept_joining_member", "2.5", "2.6"),
        ("2.6.1", "heartbeat_none_in_completing", "2.6", "2.6.1"),
        ("2.8.1", "delayed_sync", "2.8", "2.8.1"),
        ("3.0", "delayed_sync", "2.8", "3.0"),
        ("3.2", "client_reasons", "3.1", "3.2"),
        ("3.2", "skip_assignment", "3.1", "3.2"),
        ("3.4", "update_timeouts_on_rejoin", "3.3", "3.4"),
        ("4.0", "java", "3.9", "4.0"),
    ],
)
def test_features_first_version(version, feature, before, first):
    assert getattr(Features.for_version(before), feature) is False
    assert getattr(Features.for_version(first), feature) is True


def test_harness_future_tracks_parked_responses():
    h = Harness()
    fut = h.send_join()  # old-protocol join: parked in the initial delay
    assert not fut.done
    h.advance(INITIAL_DELAY + 1)
    assert fut.done and fut.value.error == "NONE" and fut.value.generation == 1
