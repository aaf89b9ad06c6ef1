"""OffsetCommit (non-transactional): only the group/member/generation validation is modelled."""

from __future__ import annotations

from coordinator_core.coordinator.host import CoordinatorHost
from coordinator_core.coordinator.protocol import (
    COMMIT,
    COORDINATOR_NOT_AVAILABLE,
    ILLEGAL_GENERATION,
    NONE,
    REBALANCE_IN_PROGRESS,
    UNKNOWN_MEMBER_ID,
    Outcome,
    Response,
)
from coordinator_core.group import ClassicGroup
from coordinator_core.states import COMPLETING_REBALANCE, DEAD, EMPTY


class OffsetsMixin(CoordinatorHost):
    """OffsetCommit request validation.

    Mixed into :class:`~coordinator_core.coordinator.core.GroupCoordinator`, whose state it uses.
    """

    def commit_offsets(
        self,
        now_ms: int,
        group_id: str,
        *,
        member_id: str = "",
        generation: int = -1,
        group_instance_id: str | None = None,
    ) -> Outcome:
        """OffsetCommit (non-transactional); offsets are not stored, only validated."""
        out = self._begin(now_ms)
        f = self.features
        group_instance_id = self._instance_id(group_instance_id)
        err = self._status(group_id, COMMIT)
        if err is None:
            group = self._groups.get(group_id)
            if group is None:
                if generation < 0:
                    if f.empty_state:  # 0.10.0 stored the offsets without creating a group
                        self._create_group(group_id, EMPTY)
                    err = NONE
                else:
                    err = ILLEGAL_GENERATION
            else:
                err = self._commit(group, member_id, generation, group_instance_id)
        self._reply(Response(COMMIT, member_id, err, generation=generation, group_id=group_id))
        return self._finish(out)

    def _commit(self, group: ClassicGroup, member_id: str, generation: int, instance_id: str | None) -> str:
        f = self.features
        state = group.state
        if state is DEAD:
            return COORDINATOR_NOT_AVAILABLE if f.dead_coordinator_not_available else UNKNOWN_MEMBER_ID
        if generation < 0 and state is EMPTY:
            return NONE
        if generation >= 0 or member_id or instance_id is not None:
            err = self._validate_member(group, member_id, instance_id, "offset-commit")
            if err is not None:
                return err
            if generation != group.generation:
                return ILLEGAL_GENERATION
        elif state is not EMPTY:
            return UNKNOWN_MEMBER_ID
        if state is EMPTY:
            return NONE
        if state is COMPLETING_REBALANCE:
            return REBALANCE_IN_PROGRESS
        self._reset_heartbeat(group, group.members[member_id])
        return NONE
