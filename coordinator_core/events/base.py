"""The base classes of the evidence events: :class:`Event` (the fields every event has) and
:class:`ClientEvent` (lines of a client, a Connect worker or a non-Java client)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from coordinator_core.events.row import EVENT_FIELDS, order_key


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Fields shared by every evidence event."""

    kind: ClassVar[str] = "event"
    #: broker, client, connect or other
    side: ClassVar[str] = "broker"

    ts: int
    group_id: str
    member_id: str | None = None
    generation: int | None = None
    group_instance_id: str | None = None
    client_id: str | None = None
    #: broker id of the coordinator (broker lines: the logging broker; client lines: from the node)
    coordinator: int | None = None
    source_file: str | None = None
    line_no: int | None = None

    def to_row(self) -> dict[str, Any]:
        row = dict.fromkeys(EVENT_FIELDS)
        for f in fields(self):
            row[f.name] = getattr(self, f.name)
        row.pop("origin", None)
        row["kind"] = self.kind
        row["side"] = self.side_of()
        return row

    def side_of(self) -> str:
        return getattr(self, "origin", None) or self.side

    def sort_key(self) -> tuple:
        """The event's place in the total order (:func:`coordinator_core.events.row.order_key`)."""
        return order_key(self.ts, self.side_of(), self.source_file, self.line_no)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientEvent(Event):
    side: ClassVar[str] = "client"
    #: "connect" for Kafka Connect worker lines, "other" for non-Java clients; None means "client"
    origin: str | None = None
