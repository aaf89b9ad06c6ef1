"""Test context for the consumer-group coordinator, after Kafka's ``GroupMetadataManagerTestContext``:
a mock server assignor returning a prepared assignment (``MockPartitionAssignor``), a group builder
that replays records (``ConsumerGroupBuilder``), and a clock (``context.sleep``)."""

from __future__ import annotations

from coordinator_core.consumer.classic import ConsumerProtocolSubscription
from coordinator_core.consumer.coordinator import ConsumerGroupCoordinator
from coordinator_core.consumer.protocol import HeartbeatRequest
from coordinator_core.consumer.records import (
    GroupMetadataRecord,
    PartitionMetadataRecord,
    TargetAssignmentMemberRecord,
    TargetAssignmentMetadataRecord,
    current_assignment_record,
    member_record,
)
from coordinator_core.consumer.settings import ConsumerCoordinatorConfig
from coordinator_core.consumer.state import ClassicMemberMetadata, ConsumerMember
from coordinator_core.consumer.target import metadata_hash, subscription_metadata

CLIENT_ID, CLIENT_HOST = "client", "localhost/127.0.0.1"


def mk(**topics):
    return {t: frozenset(ps) for t, ps in topics.items() if ps}


class Ctx:
    def __init__(self, version="4.0", topics=None, assignor="range", **cfg):
        self.prepared: dict[str, dict] = {}
        self.fail: str | None = None

        def mock(specs, topics_):
            if self.fail:
                raise RuntimeError(self.fail)
            return {s[0]: self.prepared[s[0]] for s in specs if s[0] in self.prepared}

        # Kafka's shard tests skip the service's session-timeout range check (JoinGroup uses 500 ms)
        cfg.setdefault("classic_min_session_timeout_ms", 0)
        config = ConsumerCoordinatorConfig(version, assignors={assignor: mock}, **cfg)
        self.c = ConsumerGroupCoordinator(config, topics or {})
        self.now = 0

    def sleep(self, ms):
        self.now += ms
        return self.c.advance_to(self.now)

    def hb(self, group_id="fooup", **kw):
        kw.setdefault("client_id", CLIENT_ID)
        kw.setdefault("client_host", CLIENT_HOST)
        return self.c.heartbeat(self.now, HeartbeatRequest(group_id, **kw))

    def join(self, group_id="fooup", **kw):
        """JoinGroup (``JoinGroupRequestBuilder``: session and rebalance timeouts 500 ms)."""
        kw.setdefault("client_id", CLIENT_ID)
        kw.setdefault("client_host", CLIENT_HOST)
        kw.setdefault("session_timeout_ms", 500)
        kw.setdefault("rebalance_timeout_ms", 500)
        return self.c.join_group(self.now, group_id, **kw)

    def sync(self, group_id="fooup", **kw):
        return self.c.sync_group(self.now, group_id, **kw)

    def classic_hb(self, group_id="fooup", **kw):
        return self.c.classic_heartbeat(self.now, group_id, **kw)

    def leave(self, group_id="fooup", members=()):
        return self.c.leave_group(self.now, group_id, members)

    def timeout(self, kind, gid, mid):
        """The timer's delay from now (``assertSessionTimeout`` etc.); None when not scheduled."""
        d = self.c.timer_deadline(kind, gid, mid)
        return None if d is None else d - self.now

    def group(self, gid="fooup"):
        return self.c.group(gid)

    def build_group(self, gid, epoch, members, assignments, assignment_epoch):
        """``ConsumerGroupBuilder``: member, assignment and epoch records replayed."""
        recs = []
        subs: dict[str, int] = {}
        for m in members:
            recs.append(member_record(gid, m))
            for t in m.subscribed_topic_names:
                subs[t] = subs.get(t, 0) + 1
        for mid, a in assignments.items():
            recs.append(TargetAssignmentMemberRecord(gid, mid, a))
        meta = subscription_metadata(subs, self.c.topics)
        if self.c.rules.metadata_hash_epoch_record:
            recs.append(GroupMetadataRecord(gid, epoch, metadata_hash(meta)))
        else:
            recs.append(PartitionMetadataRecord(gid, tuple(meta.items())))
            recs.append(GroupMetadataRecord(gid, epoch))
        recs.append(TargetAssignmentMetadataRecord(gid, assignment_epoch))
        for m in members:
            recs.append(current_assignment_record(gid, m))
        assert self.c.replay(recs) == []


def member(mid, epoch, prev, assigned, *, instance=None, state="STABLE", subs=("foo", "bar"), pending=None,
           rebalance_timeout_ms=5000, assignor="range"):  # fmt: skip
    return ConsumerMember(
        mid, epoch, prev, state, instance, None, rebalance_timeout_ms, CLIENT_ID, CLIENT_HOST, frozenset(subs), None,
        assignor, assigned, pending or {},
    )  # fmt: skip


def sub(topics, owned=()):
    """A JoinGroup protocol list ``[("range", ConsumerProtocolSubscription)]``
    (``GroupMetadataManagerTestContext.toConsumerProtocol``)."""
    return (("range", ConsumerProtocolSubscription(tuple(topics), tuple(owned))),)


def classic(m, session_timeout_ms=5000, protocols=None):
    """The member with ``ClassicMemberMetadata`` (a member using the classic protocol)."""
    protos = protocols if protocols is not None else sub(sorted(m.subscribed_topic_names))
    return m.copy(classic_member_metadata=ClassicMemberMetadata(session_timeout_ms, tuple(protos)))
