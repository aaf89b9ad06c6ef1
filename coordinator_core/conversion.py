"""Protocol conversion (KIP-848 online upgrade / downgrade): what a group carries from one protocol's
model to the other's.

Kafka converts a classic group to a consumer group when a consumer-protocol member joins it (4.1+
logs ``Converted the classic group to a consumer group.``; 4.0 logs nothing, the first consumer-group
line of a classic group shows it), and back when the last consumer-protocol member leaves
(``Converted the consumer group to a classic group.``). The converted group keeps its members, their
assignment and its epoch: ``ConsumerGroup.fromClassicGroup`` sets the group epoch to the classic
generation, ``ClassicGroup.fromConsumerGroup`` the generation to the group epoch.

So the replay hands the members over as :class:`HandedOverMember` records: their sessions go on in the
other model with the same key (``group_id, member_id, joined_ts``), so a converted group reads as ONE
history across protocols. Sans-IO, like the rest of the core.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["HandedOverMember", "CONVERSION_KINDS"]

#: the kind of the conversion line (``protocol_type`` = the new group type)
CONVERSION_KINDS = frozenset({"group_converted"})


@dataclass(frozen=True, slots=True)
class HandedOverMember:
    """A member of a group at its conversion, as the new protocol's model takes it over."""

    member_id: str
    group_instance_id: str | None
    client_id: str | None
    #: the session key's time (kept, so the session continues)
    joined_ts: int | None
    inferred: bool
    #: the member's partitions ("topic-p") when the model knew them, else None
    partitions: tuple[str, ...] | None
    host: str | None = None
