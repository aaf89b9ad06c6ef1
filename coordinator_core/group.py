"""Group and member data of the classic protocol (Scala ``GroupMetadata``/``MemberMetadata``, Java
``ClassicGroup``/``ClassicGroupMember``), without request handling (that is the ``coordinator`` package).

Member iteration order is **insertion order** (a Python dict). Kafka keeps members in a Scala
``mutable.HashMap`` / Java ``HashMap`` whose order is effectively arbitrary; every place where that
order shows (new leader after the leader left, re-elected leader, vote ties, log sets) follows
insertion order here. A parked JoinGroup/SyncGroup response is represented by the member flags
``awaiting_join`` / ``awaiting_sync`` (the coordinator answers them when it completes the phase).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from coordinator_core.states import (
    COMPLETING_REBALANCE,
    DEAD,
    EMPTY,
    PREPARING_REBALANCE,
    VALID_PREVIOUS_STATES,
    GroupState,
)

Protocols = tuple[tuple[str, Any], ...]


class IllegalStateTransition(Exception):
    """``transition_to`` was asked for a move that ``VALID_PREVIOUS_STATES`` forbids (Kafka throws
    ``IllegalStateException`` from ``assertValidTransition``). Always a model bug, never a client's."""


class Member:
    """One group member (``MemberMetadata`` / ``ClassicGroupMember``)."""

    __slots__ = (
        "member_id", "group_instance_id", "client_id", "client_host", "rebalance_timeout_ms",
        "session_timeout_ms", "protocol_type", "protocols", "assignment", "awaiting_join",
        "awaiting_sync", "is_new", "join_token", "sync_token",
    )  # fmt: skip

    def __init__(
        self,
        member_id: str,
        group_instance_id: str | None,
        client_id: str,
        client_host: str,
        rebalance_timeout_ms: int,
        session_timeout_ms: int,
        protocol_type: str,
        protocols: Protocols,
        assignment: Any = b"",
    ) -> None:
        self.member_id = member_id
        self.group_instance_id = group_instance_id
        self.client_id = client_id
        self.client_host = client_host
        self.rebalance_timeout_ms = rebalance_timeout_ms
        self.session_timeout_ms = session_timeout_ms
        self.protocol_type = protocol_type
        self.protocols: Protocols = protocols
        self.assignment: Any = assignment
        #: a JoinGroup response is parked for this member
        self.awaiting_join = False
        #: a SyncGroup response is parked for this member
        self.awaiting_sync = False
        #: added in the current join phase and not yet answered (new-member join timeout applies)
        self.is_new = False
        # request tokens of the parked responses (lets the coordinator spot "the reply to this call")
        self.join_token = 0
        self.sync_token = 0

    @property
    def is_static(self) -> bool:
        return self.group_instance_id is not None

    @property
    def protocol_names(self) -> tuple[str, ...]:
        return tuple(p[0] for p in self.protocols)

    def matches(self, protocols: Protocols) -> bool:
        """Same protocol names and metadata in the same order (``MemberMetadata.matches``)."""
        return tuple(protocols) == self.protocols

    def metadata(self, protocol: str | None) -> Any:
        for name, meta in self.protocols:
            if name == protocol:
                return meta
        raise ValueError(f"member {self.member_id} does not support protocol {protocol}")

    def vote(self, candidates: set[str]) -> str:
        for name, _meta in self.protocols:
            if name in candidates:
                return name
        raise ValueError(f"member {self.member_id} supports none of {sorted(candidates)}")

    def __repr__(self) -> str:
        return (
            f"Member(member_id={self.member_id!r}, group_instance_id={self.group_instance_id!r}, "
            f"client_id={self.client_id!r}, awaiting_join={self.awaiting_join}, "
            f"awaiting_sync={self.awaiting_sync}, is_new={self.is_new})"
        )


class ClassicGroup:
    """A classic group's state (``GroupMetadata`` / ``ClassicGroup``)."""

    __slots__ = (
        "group_id", "state", "previous_state", "generation", "protocol_type", "protocol_name",
        "leader_id", "members", "static_members", "pending_members", "pending_sync_members",
        "num_awaiting_join", "supported_protocols", "new_member_added", "state_ts", "persisted",
        "owned",
    )  # fmt: skip

    def __init__(self, group_id: str, state: GroupState = EMPTY, ts: int = 0) -> None:
        self.group_id = group_id
        self.state: GroupState = state
        self.previous_state: GroupState = state
        self.generation = 0
        self.protocol_type: str | None = None
        self.protocol_name: str | None = None
        self.leader_id: str | None = None
        self.members: dict[str, Member] = {}
        #: group.instance.id -> member id
        self.static_members: dict[str, str] = {}
        #: ids handed out with MEMBER_ID_REQUIRED and not joined yet (dict used as ordered set)
        self.pending_members: dict[str, None] = {}
        #: members that still owe a SyncGroup for the current generation (2.8.1+)
        self.pending_sync_members: dict[str, None] = {}
        self.num_awaiting_join = 0
        #: protocol name -> number of members supporting it
        self.supported_protocols: dict[str, int] = {}
        #: a member was added during the initial (delayed) rebalance: extend the delay
        self.new_member_added = False
        self.state_ts = ts
        #: last group metadata written to __consumer_offsets (what a new coordinator loads)
        self.persisted: dict[str, Any] | None = None
        #: this coordinator currently owns the group's offsets partition
        self.owned = True

    # -- state ----------------------------------------------------------------------------------

    def transition_to(self, target: GroupState, ts: int | None = None) -> None:
        """Move to ``target``; raises :class:`IllegalStateTransition` (state unchanged) when the
        current state is not a valid previous state of ``target``."""
        if self.state not in VALID_PREVIOUS_STATES[target]:
            raise IllegalStateTransition(
                f"Group {self.group_id} should be in the "
                f"{','.join(sorted(s.value for s in VALID_PREVIOUS_STATES[target]))} states before "
                f"moving to {target.value} state. Instead it is in {self.state.value} state."
            )
        self.previous_state = self.state
        self.state = target
        if ts is not None:
            self.state_ts = ts

    def can_rebalance(self) -> bool:
        return self.state in VALID_PREVIOUS_STATES[PREPARING_REBALANCE]

    @property
    def size(self) -> int:
        return len(self.members)

    @property
    def static_count(self) -> int:
        return len(self.static_members)

    def is_leader(self, member_id: str) -> bool:
        return self.leader_id == member_id

    def has_all_members_joined(self) -> bool:
        return len(self.members) == self.num_awaiting_join and not self.pending_members

    def rebalance_timeout_ms(self) -> int:
        return max((m.rebalance_timeout_ms for m in self.members.values()), default=0)

    def not_yet_rejoined(self) -> list[Member]:
        return [m for m in self.members.values() if not m.awaiting_join]

    # -- protocols ------------------------------------------------------------------------------

    def candidate_protocols(self) -> set[str]:
        n = len(self.members)
        return {p for p, c in self.supported_protocols.items() if c == n}

    def supports_protocols(self, protocol_type: str, names: Sequence[str]) -> bool:
        if self.state is EMPTY or (not self.members and self.protocol_type is None):
            # Kafka checks "is(Empty)"; a new 0.10.0 group (no Empty state) has no protocol type
            # yet and accepts any non-empty protocol list the same way
            return bool(protocol_type) and bool(names)
        if self.protocol_type != protocol_type:
            return False
        n = len(self.members)
        sp = self.supported_protocols
        return any(sp.get(p, 0) == n for p in names)

    def select_protocol(self) -> str:
        """Every member votes for its most preferred candidate; most votes wins (ties: the first
        protocol, in member insertion order, that reached the maximum)."""
        if not self.members:
            raise ValueError(f"Cannot select protocol for empty group {self.group_id}")
        candidates = self.candidate_protocols()
        votes: dict[str, int] = {}
        for m in self.members.values():
            p = m.vote(candidates)
            votes[p] = votes.get(p, 0) + 1
        best = max(votes.values())
        return next(p for p, c in votes.items() if c == best)

    def _inc(self, member: Member) -> None:
        sp = self.supported_protocols
        for name, _ in member.protocols:
            sp[name] = sp.get(name, 0) + 1

    def _dec(self, member: Member) -> None:
        sp = self.supported_protocols
        for name, _ in member.protocols:
            c = sp.get(name, 0) - 1
            if c > 0:
                sp[name] = c
            else:
                sp.pop(name, None)

    # -- membership -----------------------------------------------------------------------------

    def add(self, member: Member, awaiting_join: bool = False) -> None:
        iid = member.group_instance_id
        if iid is not None:
            if iid in self.static_members:
                raise ValueError(f"static member {iid} already in group {self.group_id}")
            self.static_members[iid] = member.member_id
        if not self.members:
            self.protocol_type = member.protocol_type
        if self.leader_id is None:
            self.leader_id = member.member_id
        self.members[member.member_id] = member
        self._inc(member)
        member.awaiting_join = awaiting_join
        if awaiting_join:
            self.num_awaiting_join += 1
        self.pending_members.pop(member.member_id, None)

    def remove(self, member_id: str) -> Member | None:
        """Remove a member or pending id (parked responses must be answered before)."""
        member = self.members.pop(member_id, None)
        if member is not None:
            self._dec(member)
            if member.awaiting_join:
                self.num_awaiting_join -= 1
            if member.group_instance_id is not None:
                self.static_members.pop(member.group_instance_id, None)
        if self.leader_id == member_id:
            self.leader_id = next(iter(self.members), None)
        self.pending_members.pop(member_id, None)
        self.pending_sync_members.pop(member_id, None)
        return member

    def update_member(
        self,
        member: Member,
        protocols: Protocols,
        rebalance_timeout_ms: int | None,
        session_timeout_ms: int | None,
        awaiting_join: bool,
    ) -> None:
        """``updateMember``: new protocols (and timeouts when given), park or unpark the join."""
        self._dec(member)
        member.protocols = protocols
        self._inc(member)
        if rebalance_timeout_ms is not None:
            member.rebalance_timeout_ms = rebalance_timeout_ms
        if session_timeout_ms is not None:
            member.session_timeout_ms = session_timeout_ms
        if awaiting_join and not member.awaiting_join:
            self.num_awaiting_join += 1
        elif not awaiting_join and member.awaiting_join:
            self.num_awaiting_join -= 1
        member.awaiting_join = awaiting_join

    def clear_awaiting_join(self, member: Member) -> bool:
        """Unpark a member's JoinGroup (the caller answers it); returns whether one was parked."""
        if not member.awaiting_join:
            return False
        member.awaiting_join = False
        self.num_awaiting_join -= 1
        return True

    def replace_static_member(self, instance_id: str, old_member_id: str, new_member_id: str) -> Member:
        """Re-key the static member (assignment, timeouts kept); leadership moves along. The caller
        answers the old id's parked responses with FENCED_INSTANCE_ID *before* calling this."""
        member = self.members.pop(old_member_id)
        member.member_id = new_member_id
        self.members[new_member_id] = member
        if self.leader_id == old_member_id:
            self.leader_id = new_member_id
        self.static_members[instance_id] = new_member_id
        # like Kafka, an old id left in pending_sync_members stays there: a later sync expiry
        # "removes" it (a no-op) and still prepares a rebalance
        return member

    def maybe_elect_new_joined_leader(self) -> tuple[bool, str | None]:
        """``maybeElectNewJoinedLeader``: (ok, old leader id if it was replaced or blocked)."""
        if self.leader_id is None:
            return False, None
        leader = self.members.get(self.leader_id)
        if leader is not None and leader.awaiting_join:
            return True, None
        old = self.leader_id
        for mid, m in self.members.items():
            if m.awaiting_join:
                self.leader_id = mid
                return True, old
        return False, old

    def init_next_generation(self, ts: int | None = None, empty_state: bool = True) -> None:
        self.generation += 1
        if self.members:
            self.protocol_name = self.select_protocol()
            self.transition_to(COMPLETING_REBALANCE, ts)
        else:
            self.protocol_name = None
            self.transition_to(EMPTY if empty_state else DEAD, ts)
        self.pending_sync_members.clear()

    # -- persistence ----------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The group metadata record Kafka would write now (state is implied: Empty when there are
        no members, else Stable on load)."""
        return {
            "generation": self.generation,
            "protocol_type": self.protocol_type,
            "protocol_name": self.protocol_name,
            "leader_id": self.leader_id,
            "members": [
                {
                    "member_id": m.member_id,
                    "group_instance_id": m.group_instance_id,
                    "client_id": m.client_id,
                    "client_host": m.client_host,
                    "rebalance_timeout_ms": m.rebalance_timeout_ms,
                    "session_timeout_ms": m.session_timeout_ms,
                    "protocol_type": m.protocol_type,
                    "protocols": m.protocols,
                    "assignment": m.assignment,
                }
                for m in self.members.values()
            ],
        }

    def member_list(self) -> list[tuple[str, str | None, Any]]:
        """``currentMemberMetadata``: (member_id, group_instance_id, metadata of the selected
        protocol) for the leader's JoinGroup response."""
        p = self.protocol_name
        return [(m.member_id, m.group_instance_id, m.metadata(p)) for m in self.members.values()]

    def __repr__(self) -> str:
        return (
            f"ClassicGroup({self.group_id!r}, state={self.state.value}, generation={self.generation}, "
            f"leader={self.leader_id!r}, members={list(self.members)})"
        )
