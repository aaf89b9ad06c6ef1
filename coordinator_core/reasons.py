"""Rebalance reason texts exactly as the modelled broker version writes them.

The text is what appears inside ``(reason: ...)`` of "Preparing to rebalance group ..." (Scala
2.1+, Java 3.7+). Sources: ``GroupCoordinator.scala`` at tags 2.1, 2.3, 2.4, 2.7, 3.0, 3.2 and branch
3.9, ``GroupMetadataManager.java`` at trunk ``1eb7644`` (reference section 3.2 and 3.4).

Rendering conventions of the two implementations:

* Scala renders ``Option`` as ``Some(x)`` / ``None`` and immutable sets as ``Set(a, b)`` (Scala 2.13
  switches to ``HashSet(...)`` above four elements for ``Set`` values built with ``toSet``).
* Java renders ``null`` as ``null`` and ``Set``/``List`` as ``[a, b]``.

Set and map iteration order in Kafka is hash order; the model uses insertion order.
"""

from __future__ import annotations

from collections.abc import Iterable

from coordinator_core.config import Features

NOT_PROVIDED = "not provided"


def render_option(f: Features, value: str | None) -> str:
    """An optional string as the implementation prints it (``Some(x)``/``None`` or ``x``/``null``)."""
    if f.java:
        return "null" if value is None else value
    return "None" if value is None else f"Some({value})"


def render_set(f: Features, ids: Iterable[str], *, to_set: bool = False) -> str:
    """A set of member ids as printed by the implementation. ``to_set`` marks Scala values built
    with ``.toSet`` (they print as ``HashSet(...)`` when larger than four elements)."""
    items = list(ids)
    if f.java:
        return "[" + ", ".join(items) + "]"
    prefix = "HashSet" if to_set and len(items) > 4 else "Set"
    return prefix + "(" + ", ".join(items) + ")"


def client_reason(reason: str | None) -> str:
    """KIP-800 reason as the coordinator uses it (``not provided`` when absent or empty)."""
    return reason if reason else NOT_PROVIDED


def _with_client(f: Features, text: str, reason: str | None) -> str:
    if f.client_reasons:
        return f"{text}; client reason: {client_reason(reason)}"
    return text


def add_member(f: Features, member_id: str, instance_id: str | None, reason: str | None) -> str:
    """``addMemberAndRebalance`` / ``addMemberThenRebalanceOrCompleteJoin``."""
    v = f.version
    if v < (2, 3, 0):
        return f"Adding new member {member_id}"
    if v < (2, 4, 0):
        return f"Adding new member {member_id} with group instanceid {render_option(f, instance_id)}"
    text = f"Adding new member {member_id} with group instance id {render_option(f, instance_id)}"
    return _with_client(f, text, reason)


def member_joining(f: Features, member_id: str, state: str, reason: str | None) -> str:
    """Known member rejoining during PreparingRebalance (never logged: the group cannot rebalance
    then, but kept for completeness)."""
    if f.java:
        return _with_client(f, f"Member {member_id} is joining group during {state}", reason)
    if not f.reasons_with_state:
        return f"Updating metadata for member {member_id}"
    return _with_client(f, f"Member {member_id} joining group during {state}", reason)


def updating_metadata(f: Features, member_id: str, state: str, reason: str | None) -> str:
    """Known member rejoining with changed protocols (CompletingRebalance or Stable)."""
    if not f.reasons_with_state:
        return f"Updating metadata for member {member_id}"
    return _with_client(f, f"Updating metadata for member {member_id} during {state}", reason)


def leader_rejoin(f: Features, member_id: str, state: str, reason: str | None) -> str:
    """The leader rejoining a Stable group (forces a rebalance)."""
    if not f.reasons_with_state:
        return f"Updating metadata for member {member_id}"
    if f.version < (3, 0, 0):
        return f"leader {member_id} re-joining group during {state}"
    return _with_client(f, f"Leader {member_id} re-joining group during {state}", reason)


def heartbeat_expiration(f: Features, member_id: str) -> str:
    text = f"removing member {member_id} on heartbeat expiration"
    return text + "." if f.java else text


def leave_group(f: Features, member_id: str, reason: str | None) -> str:
    """Scala: one reason per leaving member."""
    if f.version < (3, 0, 0):
        return f"removing member {member_id} on LeaveGroup"
    return _with_client(f, f"Removing member {member_id} on LeaveGroup", reason)


def leave_group_batch(member_ids: Iterable[str]) -> str:
    """Java: one reason for the whole LeaveGroup batch (ids of the members answered NONE)."""
    return "explicit `LeaveGroup` request for (" + ", ".join(member_ids) + ") members."


def pending_sync_expiration(f: Features, member_ids: Iterable[str]) -> str:
    return f"Removing {render_set(f, member_ids, to_set=True)} on pending sync request expiration"


def _static_instance(f: Features, instance_id: str) -> str:
    # Scala 2.x passed Option[String] here, 3.0+ a plain String; Java a plain String
    return render_option(f, instance_id) if f.version < (3, 0, 0) else instance_id


def static_protocol_change(f: Features, member_id: str, instance_id: str, reason: str | None) -> str:
    inst = _static_instance(f, instance_id)
    text = (
        f"Group's selectedProtocol will change because static member {member_id} with instance id "
        f"{inst} joined with change of protocol"
    )
    return _with_client(f, text, reason)


def static_update(f: Features, member_id: str, instance_id: str, reason: str | None) -> str:
    inst = _static_instance(f, instance_id)
    return _with_client(f, f"Updating metadata for static member {member_id} with instance id {inst}", reason)


def over_capacity(f: Features, group_id: str, size: int, max_size: int) -> str:
    if f.java:
        return (
            f"Freshly-loaded group {group_id} (size {size}) is over capacity {max_size}. "
            "Rebalancing in order to give a chance for consumers to commit offsets"
        )
    if f.version < (3, 1, 0):
        # the Scala string interpolation bug of 2.3-3.0: "$groupConfig.groupMaxSize"
        return (
            "Freshly-loaded group is over capacity (GroupConfig.groupMaxSize). "
            "Rebalacing in order to give a chance for consumers to commit offsets"
        )
    return (
        f"Freshly-loaded group is over capacity ({max_size}). "
        "Rebalancing in order to give a chance for consumers to commit offsets"
    )
