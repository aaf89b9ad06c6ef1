"""The replay's model of one consumer group: typed records with Kafka's field names.

:class:`GroupModel` is everything a replay knows about its group between two lines (and what a
snapshot carries between runs): the state, generation, leader, protocol, coordinator, the members
(:class:`Member`), members whose id was handed out but who did not join yet (:class:`PendingMember`),
recently departed members (:class:`DepartedMember`), the rebalance under construction
(:class:`OpenRebalance`) and the bookkeeping the evidence rules need (signals, hints, the current
generation's assignment, per-file positions, duplicate detection).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from coordinator_core.states import COMPLETING_REBALANCE, DEAD, EMPTY, PREPARING_REBALANCE, STABLE

#: the group states as the plain strings the model keeps (``GroupState`` values)
E, PR, CR, S, D = (s.value for s in (EMPTY, PREPARING_REBALANCE, COMPLETING_REBALANCE, STABLE, DEAD))


@dataclass(slots=True)
class Member:
    """A current member (``MemberMetadata``). ``joined_ts`` is part of the session key: never None
    once the member exists. The generations are the first/last the member is known to be part of;
    ``client_generation`` is the last one its own client logged (heartbeat, joined, synced)."""

    client_id: str | None = None
    client_host: str | None = None
    group_instance_id: str | None = None
    joined_ts: int | None = None
    first_generation: int | None = None
    last_generation: int | None = None
    #: time of the last line naming the member (heartbeats refresh it)
    last_seen: int | None = None
    inferred: bool = False
    client_generation: int | None = None


@dataclass(slots=True)
class DepartedMember:
    """A member that left (kept a while: a removed member keeps heartbeating, a client may log its
    poll timeout just after the broker removed it)."""

    client_id: str | None = None
    client_host: str | None = None
    group_instance_id: str | None = None
    left_ts: int | None = None
    joined_ts: int | None = None
    first_generation: int | None = None
    last_generation: int | None = None
    inferred: bool = False
    end_reason: str | None = None


@dataclass(slots=True)
class PendingMember:
    """A member id handed out by MEMBER_ID_REQUIRED (``pendingMembers``) whose second JoinGroup was
    not seen yet; ``member_id_ts`` is when the id was handed out."""

    client_id: str | None = None
    client_host: str | None = None
    member_id_ts: int | None = None


@dataclass(slots=True)
class OpenRebalance:
    """A rebalance under construction (fields named as the :class:`~coordinator_core.records.Rebalance`
    record it becomes). Kept after it closes (``outcome``, ``end_ts``, ``members_after`` set) as the
    group's last rebalance, for refinements by evidence logged just after the end."""

    rebalance_id: str | None
    start_ts: int | None
    start_unknown: bool = False
    old_generation: int | None = None
    new_generation: int | None = None
    join_rounds: int = 0
    cause: str = "unknown"
    reason: str | None = None
    culprit_member_id: str | None = None
    culprit_client_id: str | None = None
    culprit_host: str | None = None
    culprit_group_instance_id: str | None = None
    members_before: int | None = None
    leader_id: str | None = None
    protocol: str | None = None
    coordinator_broker: int | None = None
    inferred: bool = False
    #: the cause is the one of the signal that preceded the rebalance (a client's "rebalance in
    #: progress": somebody else's fact started it)
    follows_signal: bool = False
    #: a client-inferred cause that gives way to a later, decisive signal
    weak_cause: bool = False
    #: the culprit consumer's log file (its member id may come later)
    culprit_file: str | None = None
    outcome: str | None = None
    end_ts: int | None = None
    members_after: int | None = None


@dataclass(slots=True)
class Signal:
    """The last member fact that can explain a rebalance line without a reason (2.0-style logs)."""

    ts: int
    cause: str
    member_id: str | None


@dataclass(slots=True)
class GenerationAssignment:
    """What is known of one generation's assignment: the leader's map, and the members' own
    notifications (``member_sources``: which kind of line gave each member's partitions).
    Partitions are ``[topic, partition]`` pairs."""

    generation: int
    leader_map: dict[str, list[list[Any]]] | None = None
    member_maps: dict[str, list[list[Any]]] = field(default_factory=dict)
    member_sources: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True, eq=False, repr=False)
class GroupModel:
    """One group as the replay reconstructs it. Every field is carried by snapshots. (A replay *is*
    its group model: :class:`~coordinator_core.replay.group_replay.GroupReplay` extends it, and keeps
    identity equality and hashing.)

    Small pairs stay lists (plain JSON, and mutated in place on the hot path): ``hints`` member ->
    ``[ts, cause]``, ``file_positions`` source file -> ``[ts, line_no]`` of its last state-bearing
    line, ``client_ahead`` ``[generation, ts]``, ``last_completion`` ``[ts, generation]``."""

    state: str | None = None
    generation: int | None = None
    members: dict[str, Member] = field(default_factory=dict)
    pending: dict[str, PendingMember] = field(default_factory=dict)
    departed: dict[str, DepartedMember] = field(default_factory=dict)
    #: client id (and ``source_file\x1fclient id``) -> member id last seen with it
    member_by_client: dict[str, str] = field(default_factory=dict)
    leader: str | None = None
    protocol: str | None = None
    coordinator: int | None = None
    rebalance: OpenRebalance | None = None
    #: members when the last rebalance ended (the next one's members_before)
    stable_member_count: int | None = None
    #: the model's membership is complete (a logged member count confirmed it)
    membership_known: bool = False
    broker_seen: bool = False
    #: the current state was inferred from client lines
    client_inferred_state: bool = False
    loaded_ts: int | None = None
    signal: Signal | None = None
    hints: dict[str, list[Any]] = field(default_factory=dict)
    file_positions: dict[str, list[Any]] = field(default_factory=dict)
    dedup_ts: int | None = None
    #: facts seen at ``dedup_ts``: key -> (source_file, line_no) of the first line stating it
    dedup_keys: dict[tuple, tuple] = field(default_factory=dict)
    last_ts: int | None = None
    #: highest generation a heartbeat ran ahead of the model with (reported once)
    heartbeat_gap_generation: int = -1
    client_ahead: list[Any] | None = None
    assignment: GenerationAssignment | None = None
    previous_assignment: dict[str, list[list[Any]]] | None = None
    skew_generation: int | None = None
    warned_members: list[str] = field(default_factory=list)
    generations: list[dict[str, Any]] = field(default_factory=list)
    events: int = 0
    #: Dead because removed (group_dead), not because unloaded
    removed: bool = False
    #: ids of recent rebalances (kept unique)
    recent_rebalance_ids: list[str] = field(default_factory=list)
    last_completion: list[Any] | None = None
    last_rebalance: OpenRebalance | None = None
    #: group.instance.id -> client id, from client lines ("[Consumer instanceId=i, clientId=c, ...]")
    client_by_instance: dict[str, str] = field(default_factory=dict)
