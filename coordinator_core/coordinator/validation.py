"""Request validation shared by every API: ``validateGroupStatus`` and ``validateCurrentMember``."""

from __future__ import annotations

from coordinator_core.coordinator.host import CoordinatorHost
from coordinator_core.coordinator.protocol import (
    COMMIT,
    FENCED_INSTANCE_ID,
    INVALID_GROUP_ID,
    NOT_COORDINATOR,
    UNKNOWN_MEMBER_ID,
)
from coordinator_core.events import StaticMemberFenced
from coordinator_core.group import ClassicGroup


class ValidationMixin(CoordinatorHost):
    """Group status and current-member validation.

    Mixed into :class:`~coordinator_core.coordinator.core.GroupCoordinator`, whose state it uses.
    """

    def _status(self, group_id: str, api: str) -> str | None:
        """``validateGroupStatus``: invalid id, then NOT_COORDINATOR for groups unloaded here."""
        if group_id is None or (group_id == "" and api != COMMIT):
            return INVALID_GROUP_ID
        group = self._groups.get(group_id)
        if group is not None and not group.owned:
            return NOT_COORDINATOR
        return None

    def _validate_member(
        self, group: ClassicGroup, member_id: str, instance_id: str | None, operation: str
    ) -> str | None:
        """``validateCurrentMember``: fenced static instance, unknown instance, unknown member."""
        if instance_id is not None:
            current = group.static_members.get(instance_id)
            if current is None:
                return UNKNOWN_MEMBER_ID
            if current != member_id:
                m = group.members.get(current)
                self._emit(
                    StaticMemberFenced, group, member_id=member_id, group_instance_id=instance_id,
                    old_member_id=current, operation=operation,
                    client_id=m.client_id if m is not None else None,
                )  # fmt: skip
                return FENCED_INSTANCE_ID
            return None
        if member_id not in group.members:
            return UNKNOWN_MEMBER_ID
        return None
