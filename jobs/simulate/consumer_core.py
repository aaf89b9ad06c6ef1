"""The simulator's handle on the core's consumer-group coordinator
(:class:`coordinator_core.consumer.coordinator.ConsumerGroupCoordinator`): one coordinator per
simulated consumer group, the requests the simulated clients send, and the conversions between the
core's partitions (``{topic: frozenset}``) and the simulator's ``"topic-p"`` strings.

:class:`GroupModel` is what the rest of the simulator (scenarios, truth, the what-if) reads of a
group: epochs, members present, whether every present member has reached the group epoch, the
target assignment, the topics. Every state change goes through the coordinator (heartbeats,
timers, topic changes); nothing here decides what Kafka does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from coordinator_core.consumer.coordinator import ConsumerGroupCoordinator
from coordinator_core.consumer.model import LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH
from coordinator_core.consumer.protocol import ConsumerOutcome, HeartbeatRequest, HeartbeatResponse
from coordinator_core.consumer.settings import ConsumerCoordinatorConfig
from coordinator_core.consumer.state import ConsumerGroupState

__all__ = ["GroupModel", "Reply", "tps", "parts", "tp_key", "sorted_tps", "LEAVE_EPOCH", "TEMP_LEAVE_EPOCH"]

LEAVE_EPOCH = LEAVE_GROUP_MEMBER_EPOCH
TEMP_LEAVE_EPOCH = LEAVE_GROUP_STATIC_MEMBER_EPOCH


def tp_key(tp: str) -> tuple[str, int]:
    t, _, p = tp.rpartition("-")
    return (t, int(p))


def sorted_tps(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(items, key=tp_key))


def tps(assignment: Mapping[str, Iterable[int]] | None) -> tuple[str, ...]:
    """``{topic: partitions}`` as sorted ``"topic-p"`` strings."""
    if not assignment:
        return ()
    return tuple(f"{t}-{p}" for t in sorted(assignment) for p in sorted(assignment[t]))


_PARTS: dict[frozenset[str], dict[str, frozenset[int]]] = {}


def parts(items: Iterable[str]) -> dict[str, frozenset[int]]:
    """``"topic-p"`` strings as ``{topic: frozenset}`` (memoised: clients report the same sets)."""
    key = frozenset(items)
    got = _PARTS.get(key)
    if got is None:
        out: dict[str, set[int]] = {}
        for tp in key:
            t, p = tp_key(tp)
            out.setdefault(t, set()).add(p)
        got = {t: frozenset(ps) for t, ps in sorted(out.items())}
        if len(_PARTS) > 4096:
            _PARTS.clear()
        _PARTS[key] = got
    return dict(got)


@dataclass(slots=True)
class Reply:
    """A heartbeat answer as the simulated client reads it."""

    error: str
    member_epoch: int
    assigned: tuple[str, ...] | None


class GroupModel:
    """One consumer group on its own coordinator (Kafka rules of ``version``)."""

    __slots__ = ("coord", "group_id", "session_ms", "rebalance_ms")

    def __init__(self, group_id: str, topics: Mapping[str, int], session_ms: int, rebalance_ms: int,
                 version: str = "4.0") -> None:  # fmt: skip
        self.coord = ConsumerGroupCoordinator(ConsumerCoordinatorConfig(version, session_timeout_ms=session_ms), topics)
        self.group_id = group_id
        self.session_ms = session_ms
        self.rebalance_ms = rebalance_ms

    # ------------------------------------------------------------------ requests
    def heartbeat(self, now: int, member_id: str, epoch: int, instance: str | None, client_id: str,
                  owned: set[str], topics: tuple[str, ...]) -> tuple[Reply, ConsumerOutcome]:  # fmt: skip
        """A join (epoch 0), a heartbeat reporting ``owned``, or a leave (-1, static -2)."""
        req = HeartbeatRequest(self.group_id, member_id, epoch, instance_id=instance, client_id=client_id)
        if epoch == 0:
            req.rebalance_timeout_ms = self.rebalance_ms
            req.subscribed_topic_names = list(topics)
            req.topic_partitions = []
        elif epoch > 0:
            req.subscribed_topic_names = list(topics)
            req.topic_partitions = parts(owned)
        out = self.coord.heartbeat(now, req)
        r = out.reply
        if not isinstance(r, HeartbeatResponse):
            raise RuntimeError(f"ConsumerGroupHeartbeat of {self.group_id} answered without a heartbeat reply")
        assigned = tps(r.assignment) if r.assignment is not None else None
        return Reply(r.error, r.member_epoch if r.error == "NONE" else -1, assigned), out

    def advance_to(self, now: int) -> ConsumerOutcome:
        return self.coord.advance_to(now)

    def set_partitions(self, now: int, topic: str, count: int) -> ConsumerOutcome:
        """The topic now has ``count`` partitions (a new topic is created)."""
        return self.coord.update_topics(now, {topic: count})

    def convert(self, now: int, generation: int, members: list[tuple[str, str | None, str, list[str]]]) -> ConsumerOutcome:
        """The classic group's members (id, instance, client, owned) become consumer members."""
        topics = sorted(self.coord.topics)
        # owned as "topic-p" strings, a shape the core reads (norm_partitions) that its annotation omits
        converted = [(m, i, c, topics, owned) for m, i, c, owned in members]
        return self.coord.load_converted_group(now, self.group_id, generation, converted, self.rebalance_ms)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ what the simulator reads
    @property
    def group(self) -> ConsumerGroupState | None:
        return self.coord.group(self.group_id)

    @property
    def topics(self) -> dict[str, int]:
        return self.coord.topics

    @property
    def metadata_pending(self) -> bool:
        """A topic change the group has not seen yet (its next heartbeat bumps the epoch)."""
        return self.coord.metadata_pending(self.group_id)

    @property
    def group_epoch(self) -> int:
        g = self.group
        return g.group_epoch if g is not None else 0

    @property
    def target_epoch(self) -> int:
        g = self.group
        return g.assignment_epoch if g is not None else 0

    @property
    def target(self) -> dict[str, tuple[str, ...]]:
        g = self.group
        return {m: tps(a) for m, a in sorted(g.target_assignment.items())} if g is not None else {}

    def present(self) -> list[str]:
        """Members that must reach the group epoch (not static members away with epoch -2)."""
        g = self.group
        return [m for m, x in g.members.items() if x.member_epoch != TEMP_LEAVE_EPOCH] if g is not None else []

    def reconciled(self) -> bool:
        g = self.group
        if g is None:
            return True
        return all(
            x.member_epoch == g.group_epoch and x.state == "STABLE"
            for x in g.members.values() if x.member_epoch != TEMP_LEAVE_EPOCH
        )  # fmt: skip

    def member_count(self) -> int:
        g = self.group
        return len(g.members) if g is not None else 0

    def partition_count(self) -> int:
        g = self.group
        if g is None:
            return 0
        topics = self.coord.topics
        return sum(topics.get(t, 0) for t in g.subscribed_topics())

    def next_deadline(self) -> int | None:
        return self.coord.next_deadline()
