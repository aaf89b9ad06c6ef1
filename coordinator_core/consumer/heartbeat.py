"""``ConsumerGroupHeartbeat`` for joining and heartbeating members: request validation
(``throwIfConsumerGroupHeartbeatRequestIsInvalid``), member lookup and static replacement
(``getOrMaybeSubscribe*ConsumerGroupMember``), epoch validation, subscription changes and the group
epoch bump, the target assignment, reconciliation (``maybeReconcile``) and the response
(``GroupMetadataManager.consumerGroupHeartbeat``, Kafka 4.0-4.2).

Every handler returns records; nothing here changes the state (the coordinator replays the records).
"""

from __future__ import annotations

import re
import uuid

from coordinator_core.consumer.host import ConsumerCoordinatorHost
from coordinator_core.consumer.model import (
    JOIN_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
)
from coordinator_core.consumer.protocol import (
    FENCED_INSTANCE_ID,
    FENCED_MEMBER_EPOCH,
    GROUP_ID_NOT_FOUND,
    GROUP_MAX_SIZE_REACHED,
    INVALID_REGULAR_EXPRESSION,
    INVALID_REQUEST,
    UNKNOWN_MEMBER_ID,
    UNKNOWN_SERVER_ERROR,
    UNRELEASED_INSTANCE_ID,
    UNSUPPORTED_ASSIGNOR,
    CoordinatorError,
    HeartbeatRequest,
    HeartbeatResponse,
)
from coordinator_core.consumer.reconcile import build_next
from coordinator_core.consumer.records import (
    CurrentMemberAssignmentRecord,
    GroupMetadataRecord,
    MemberMetadataRecord,
    PartitionMetadataRecord,
    RegularExpressionRecord,
    TargetAssignmentMemberRecord,
    current_assignment_record,
    member_record,
)
from coordinator_core.consumer.state import M_UNREVOKED, ConsumerGroupState, ConsumerMember
from coordinator_core.consumer.target import (
    build_target_assignment,
    metadata_hash,
    preferred_assignor,
    subscription_metadata,
)

__all__ = ["HeartbeatMixin"]

Parts = dict[str, frozenset[int]]


def _invalid(msg: str) -> CoordinatorError:
    return CoordinatorError(INVALID_REQUEST, msg)


def _empty(value: str | None) -> bool:
    """``throwIfEmptyString``: non-null and blank."""
    return value is not None and not value.strip()


def _is_subset(owned: Parts | None, assigned: Parts) -> bool:
    """``isSubset``: the reported owned partitions are all in ``assigned`` (None is not)."""
    if owned is None:
        return False
    for t, ps in owned.items():
        a = assigned.get(t)
        if a is None or not ps <= a:
            return False
    return True


class HeartbeatMixin(ConsumerCoordinatorHost):
    """Mixed into :class:`~coordinator_core.consumer.coordinator.ConsumerGroupCoordinator`."""

    # ------------------------------------------------------------------ validation
    def _validate(self, req: HeartbeatRequest) -> None:
        e = req.member_epoch
        needs_id = req.api_version >= 1 or e > 0 or e == LEAVE_GROUP_MEMBER_EPOCH
        if needs_id and (req.member_id is None or _empty(req.member_id)):
            raise _invalid("MemberId can't be empty.")
        if req.group_id is None or _empty(req.group_id):
            raise _invalid("GroupId can't be empty.")
        if _empty(req.instance_id):
            raise _invalid("InstanceId can't be empty.")
        if _empty(req.rack_id):
            raise _invalid("RackId can't be empty.")
        if e == 0:
            if req.rebalance_timeout_ms == -1:
                raise _invalid("RebalanceTimeoutMs must be provided in first request.")
            if req.topic_partitions is None or len(req.topic_partitions) > 0:
                raise _invalid("TopicPartitions must be empty when (re-)joining.")
            if not req.subscribed_topic_names and not req.subscribed_topic_regex:
                raise _invalid("SubscribedTopicNames or SubscribedTopicRegex must be set in first request.")
        elif e == LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            if req.instance_id is None:
                raise _invalid("InstanceId can't be null.")
        elif e < LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            raise _invalid("MemberEpoch is invalid.")
        if req.server_assignor is not None and req.server_assignor not in self.config.assignors:
            raise CoordinatorError(
                UNSUPPORTED_ASSIGNOR,
                f"ServerAssignor {req.server_assignor} is not supported. Supported assignors: "
                f"{', '.join(self.config.assignors)}.",
            )
        if req.subscribed_topic_regex:
            try:
                re.compile(req.subscribed_topic_regex)
            except re.error as exc:
                raise CoordinatorError(
                    INVALID_REGULAR_EXPRESSION,
                    f"SubscribedTopicRegex `{req.subscribed_topic_regex}` is not a valid regular expression: {exc}.",
                ) from None

    # ------------------------------------------------------------------ group and member
    def _consumer_group(self, group_id: str, create: bool) -> ConsumerGroupState:
        """``getOrMaybeCreateConsumerGroup``: a new group is not in the map until its records replay."""
        g = self._groups.get(group_id)
        if g is None:
            if not create:
                raise CoordinatorError(GROUP_ID_NOT_FOUND, f"Consumer group {group_id} not found.")
            return ConsumerGroupState(group_id)
        return g

    def _throw_if_full(self, g: ConsumerGroupState, member_id: str) -> None:
        mx = self.config.max_size
        if len(g.members) >= mx and (not member_id or member_id not in g.members):
            raise CoordinatorError(
                GROUP_MAX_SIZE_REACHED, f"The consumer group has reached its maximum capacity of {mx} members."
            )

    def _check_epoch(self, m: ConsumerMember, received: int, owned: Parts | None) -> None:
        """``throwIfConsumerGroupMemberEpochIsInvalid``."""
        if received > m.member_epoch:
            raise CoordinatorError(
                FENCED_MEMBER_EPOCH,
                f"The consumer group member has a greater member epoch ({received}) than the one known by the "
                f"group coordinator ({m.member_epoch}). The member must abandon all its partitions and rejoin.",
            )
        if received < m.member_epoch and (
            received != m.previous_member_epoch or not _is_subset(owned, m.assigned_partitions)
        ):
            raise CoordinatorError(
                FENCED_MEMBER_EPOCH,
                f"The consumer group member has a smaller member epoch ({received}) than the one known by the "
                f"group coordinator ({m.member_epoch}). The member must abandon all its partitions and rejoin.",
            )

    def _unknown_member(self, g: ConsumerGroupState, member_id: str) -> CoordinatorError:
        return CoordinatorError(UNKNOWN_MEMBER_ID, f"Member {member_id} is not a member of group {g.group_id}.")

    def _dynamic_member(
        self, g: ConsumerGroupState, mid: str, epoch: int, owned: Parts | None, create: bool, classic: bool = False
    ) -> ConsumerMember:
        """``getOrMaybeSubscribeDynamicConsumerGroupMember``; a classic member's epoch is not checked."""
        m = g.members.get(mid)
        if m is None:
            if not create:
                raise self._unknown_member(g, mid)
            m = ConsumerMember(mid)
        if not classic:
            self._check_epoch(m, epoch, owned)
        if create:
            self._log("joined", g.group_id, member_id=mid, protocol="classic" if classic else "consumer")
        return m

    def _static_member(
        self, g: ConsumerGroupState, mid: str, epoch: int, iid: str, owned: Parts | None, create: bool,
        records: list, classic: bool = False,
    ) -> tuple[ConsumerMember, str | None]:  # fmt: skip
        """``getOrMaybeSubscribeStaticConsumerGroupMember``: the static member and the member id it
        replaces (None when it replaces nobody). ``classic``: the request is a JoinGroup."""
        proto = "classic" if classic else "consumer"
        gid = g.group_id
        old_id = g.static_members.get(iid)
        old = g.members.get(old_id) if old_id is not None else None
        if create:
            if old is None:
                m = g.members.get(mid) or ConsumerMember(mid)
                self._log("static_joined", gid, member_id=mid, instance_id=iid, protocol=proto)
                return m, None
            if not classic and not old.use_classic_protocol and old.member_epoch != LEAVE_GROUP_STATIC_MEMBER_EPOCH:
                self._log("unreleased_instance", gid, member_id=mid, instance_id=iid, old_member_id=old.member_id)
                raise CoordinatorError(
                    UNRELEASED_INSTANCE_ID,
                    f"Static member {mid} with instance id {iid} cannot join the group because the instance id "
                    f"is owned by {old.member_id} member.",
                )
            new = old.copy(member_id=mid, member_epoch=0, previous_member_epoch=0)
            self._replace_member_records(g, old, new, records)
            self._log("static_replaced", gid, member_id=mid, instance_id=iid, old_member_id=old.member_id, protocol=proto)
            return new, old.member_id
        if old is None:
            raise CoordinatorError(UNKNOWN_MEMBER_ID, f"Instance id {iid} is unknown.")
        if old.member_id != mid:
            self._log("static_fenced", gid, member_id=mid, instance_id=iid, old_member_id=old.member_id)
            raise CoordinatorError(
                FENCED_INSTANCE_ID,
                f"Static member {mid} with instance id {iid} was fenced by member {old.member_id}.",
            )
        if not classic:
            self._check_epoch(old, epoch, owned)
        return old, None

    def _replace_member_records(self, g: ConsumerGroupState, old: ConsumerMember, new: ConsumerMember, records: list) -> None:
        """``replaceMember``: tombstones of the old member, then the new one with the old target."""
        self._remove_member_records(g.group_id, old.member_id, records)
        records.append(member_record(g.group_id, new))
        records.append(TargetAssignmentMemberRecord(g.group_id, new.member_id, g.target_assignment.get(old.member_id, {})))
        records.append(current_assignment_record(g.group_id, new))

    @staticmethod
    def _remove_member_records(gid: str, mid: str, records: list) -> None:
        records.append(CurrentMemberAssignmentRecord(gid, mid, deleted=True))
        records.append(TargetAssignmentMemberRecord(gid, mid, deleted=True))
        records.append(MemberMetadataRecord(gid, mid, deleted=True))

    # ------------------------------------------------------------------ the heartbeat
    def _join_or_heartbeat(self, req: HeartbeatRequest, owned: Parts | None) -> tuple[HeartbeatResponse, list]:
        records: list = []
        epoch = req.member_epoch
        create = epoch == JOIN_GROUP_MEMBER_EPOCH
        g = self._consumer_group(req.group_id or "", create)  # not empty: checked by _validate
        mid = req.member_id or ""
        self._throw_if_full(g, mid)
        if not mid:
            mid = str(uuid.UUID(int=self._rng.getrandbits(128), version=4))
        replaced = None
        if req.instance_id is None:
            member = self._dynamic_member(g, mid, epoch, owned, create)
        else:
            member, replaced = self._static_member(g, mid, epoch, req.instance_id, owned, create, records)
        updated = self._updated_member(member, req)
        bump = self._subscription_changed(g, member, updated, records, create and replaced is None)
        updated = self._bump_assign_reconcile(g, member, updated, bump, replaced, owned, records)
        self._schedule_session(g.group_id, mid)
        full = create or (req.rebalance_timeout_ms != -1 and req.subscribed_topic_names is not None and owned is not None)
        changed = updated.assigned_partitions != member.assigned_partitions
        resp = HeartbeatResponse(
            "NONE", updated.member_id, updated.member_epoch, self.config.heartbeat_interval_ms,
            dict(updated.assigned_partitions) if (full or changed) else None, group_id=g.group_id,
        )  # fmt: skip
        return resp, records

    def _bump_assign_reconcile(
        self, g: ConsumerGroupState, member: ConsumerMember, updated: ConsumerMember, bump: bool,
        replaced: str | None, owned: Parts | None, records: list,
    ) -> ConsumerMember:  # fmt: skip
        """Steps 1-3 of a heartbeat or a classic member's JoinGroup: the group epoch bump, the target
        assignment, the member's reconciliation."""
        group_epoch = self._maybe_bump(g, member, updated, bump, replaced, records)
        if group_epoch > g.assignment_epoch:
            target = self._update_target(g, group_epoch, updated, replaced, records)
            target_epoch = group_epoch
        else:
            target_epoch = g.assignment_epoch
            target = g.target_of(updated.member_id, updated.instance_id)
        return self._maybe_reconcile(g, updated, target_epoch, target, owned, records)

    def _updated_member(self, member: ConsumerMember, req: HeartbeatRequest) -> ConsumerMember:
        """``maybeUpdate*``: a field sent in the request replaces the member's."""
        u = member.copy(client_id=req.client_id, client_host=req.client_host, classic_member_metadata=None)
        if req.instance_id is not None:
            u.instance_id = req.instance_id
        if req.rack_id is not None:
            u.rack_id = req.rack_id
        if req.rebalance_timeout_ms != -1:
            u.rebalance_timeout_ms = req.rebalance_timeout_ms
        if req.server_assignor is not None:
            u.server_assignor_name = req.server_assignor
        if req.subscribed_topic_names is not None:
            u.subscribed_topic_names = frozenset(req.subscribed_topic_names)
        if req.subscribed_topic_regex is not None:
            u.subscribed_topic_regex = req.subscribed_topic_regex or None
        return u

    def _subscription_changed(
        self, g: ConsumerGroupState, member: ConsumerMember, updated: ConsumerMember, records: list, new: bool
    ) -> bool:
        """``hasMemberSubscriptionChanged``: write the member record when it changed; bump when the
        topic names or the regex changed."""
        if not new and updated.subscription_key() == member.subscription_key():
            return False
        records.append(member_record(g.group_id, updated))
        if new or updated.subscribed_topic_names != member.subscribed_topic_names:
            self._log("subscription_changed", g.group_id, member_id=updated.member_id, level="DEBUG",
                      detail=", ".join(sorted(updated.subscribed_topic_names)))  # fmt: skip
            return True
        if updated.subscribed_topic_regex != member.subscribed_topic_regex:
            self._log("subscription_changed", g.group_id, member_id=updated.member_id, level="DEBUG",
                      detail=updated.subscribed_topic_regex)  # fmt: skip
            return True
        return False

    def _maybe_bump(
        self, g: ConsumerGroupState, member: ConsumerMember, updated: ConsumerMember, bump: bool,
        replaced: str | None, records: list,
    ) -> int:  # fmt: skip
        """Resolve a new regex, recompute the subscription metadata (or 4.1's metadata hash) and
        bump the group epoch when the subscription or the metadata changed."""
        group_epoch = g.group_epoch
        if not (bump or self._refresh_epochs.get(g.group_id) != g.group_epoch):
            return group_epoch
        regex = updated.subscribed_topic_regex
        if regex and regex not in g.resolved_regexes:
            topics = frozenset(t for t in self._topics if re.fullmatch(regex, t))
            records.append(RegularExpressionRecord(g.group_id, regex, topics))
            resolved = dict(g.resolved_regexes)
            resolved[regex] = topics
        else:
            resolved = g.resolved_regexes
        saved = g.resolved_regexes
        g.resolved_regexes = resolved
        try:
            subscribed = g.subscribed_topics(extra=updated, drop=replaced)
        finally:
            g.resolved_regexes = saved
        meta = subscription_metadata(subscribed, self._topics)
        rules = self.rules
        mhash = metadata_hash(meta)
        if rules.metadata_hash_epoch_record:
            if mhash != g.metadata_hash:
                bump = True
        elif meta != g.subscription_metadata:
            bump = True
            records.append(PartitionMetadataRecord(g.group_id, tuple(meta.items())))
        if bump:
            group_epoch += 1
            records.append(GroupMetadataRecord(g.group_id, group_epoch, mhash if rules.metadata_hash_epoch_record else None))
            cause = self._bump_cause(g, member, updated, replaced)
            self._log("bumped", g.group_id, member_id=updated.member_id if cause != "metadata_change" else None,
                      epoch=group_epoch, metadata_hash=mhash, cause=cause)  # fmt: skip
        self._refresh_epochs[g.group_id] = group_epoch
        return group_epoch

    @staticmethod
    def _bump_cause(g: ConsumerGroupState, member: ConsumerMember, updated: ConsumerMember, replaced: str | None) -> str:
        """What triggered a bump on a heartbeat (the simulator's truth): a new member, a static
        replacement with a new subscription, else a subscription or metadata change."""
        if replaced is not None:
            return "static_member"
        if updated.member_id not in g.members:
            return "new_member"
        return "metadata_change"

    def _update_target(
        self, g: ConsumerGroupState, epoch: int, updated: ConsumerMember, replaced: str | None, records: list
    ) -> Parts:
        """``updateTargetAssignment``: the assignor over the members after this request."""
        members = dict(g.members)
        if replaced is not None:
            members.pop(replaced, None)
        members[updated.member_id] = updated
        name = preferred_assignor(members, self.config.default_assignor)
        assign = self.config.assignors[name]
        reps = {updated.member_id: replaced} if replaced is not None else None
        try:
            new, recs = build_target_assignment(g, epoch, members, assign, self._topics, reps)
        except Exception as exc:  # PartitionAssignorException -> UnknownServerException
            msg = f"Failed to compute a new target assignment for epoch {epoch}: {exc}"
            self._log("target_failed", g.group_id, epoch=epoch, detail=msg, level="ERROR")
            raise CoordinatorError(UNKNOWN_SERVER_ERROR, msg) from None
        records.extend(recs)
        self._log("target", g.group_id, epoch=epoch, assignor=name, took_ms=0)
        return new.get(updated.member_id, {})

    def _maybe_reconcile(
        self, g: ConsumerGroupState, member: ConsumerMember, target_epoch: int, target: Parts,
        owned: Parts | None, records: list,
    ) -> ConsumerMember:  # fmt: skip
        """``maybeReconcile``: one step of the member's state machine; a changed member gets its
        current-assignment record and its rebalance timeout (scheduled in UNREVOKED_PARTITIONS,
        cancelled otherwise)."""
        rules = self.rules
        subscribed = g.member_topics(member) if rules.enforce_subscription_consistency else None
        if member.is_reconciled_to(target_epoch) and (
            subscribed is None or all(t in subscribed for t in member.assigned_partitions)
        ):
            return member
        new = build_next(member, target_epoch, target, g.current_partition_epoch, owned, rules, subscribed)
        if new is member or new.assignment_key() == member.assignment_key():
            return member
        records.append(current_assignment_record(g.group_id, new))
        self._log(
            "assignment_state", g.group_id, member_id=new.member_id, instance_id=new.instance_id,
            epoch=new.member_epoch, previous_epoch=new.previous_member_epoch, state=new.state,
            assigned=new.assigned_partitions, revoked=new.partitions_pending_revocation, level="DEBUG",
        )  # fmt: skip
        if not new.use_classic_protocol:
            if new.state == M_UNREVOKED:
                self._schedule_rebalance(g.group_id, new.member_id, new.member_epoch, new.rebalance_timeout_ms)
            else:
                self._cancel_rebalance(g.group_id, new.member_id)
        return new
