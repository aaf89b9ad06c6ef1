"""The shape of a flat evidence row, defined once: the fields of the ``events`` table in order
(:data:`EVENT_FIELDS`), the position of each field in a row (the row accessor: ``row[MID]`` is the
row's ``member_id``), and the total order of a group's events (:data:`ORDER_FIELDS`,
:func:`order_key`).

Every replay (classic, consumer-protocol, the per-group history) and the job read rows through
these positions; nothing else builds a position map.
"""

from __future__ import annotations

from typing import Any

#: Rank of each ``side`` in the total order (broker lines before client lines at the same ms).
SIDE_ORDER = {"broker": 0, "client": 1, "connect": 2, "other": 3}
#: Rank of a side not in :data:`SIDE_ORDER` (and of a missing one).
UNKNOWN_SIDE_RANK = 9

#: The flat columns of the ``events`` table that carry event fields, in table order.
EVENT_FIELDS: tuple[str, ...] = (
    "ts", "group_id", "kind", "side", "member_id", "generation", "group_instance_id", "client_id",
    "coordinator", "host", "reason", "state", "protocol", "member_count", "static_count", "error",
    "old_member_id", "members", "partitions", "assignment", "static", "pending", "unexpected",
    "operation", "offsets_partition", "protocol_type", "member_epoch", "from_state", "revoked",
    "source_file", "line_no",
)  # fmt: skip
NFIELDS = len(EVENT_FIELDS)
#: field name -> position in a row
FIELD_POSITION: dict[str, int] = {name: i for i, name in enumerate(EVENT_FIELDS)}

# The row accessor: one constant per field, named after it, in EVENT_FIELDS order (checked below).
(
    TS, GID, KIND, SIDE, MID, GEN, GIID, CID,
    COORD, HOST, REASON, STATE, PROTO, MCOUNT, SCOUNT, ERR,
    OLDMID, MEMBERS, PARTS, ASSIGN, STATIC, PENDING, UNEXP,
    OPERATION, OFFSETS_PARTITION, PTYPE, MEPOCH, FROM, REVOKED,
    SF, LN,
) = range(NFIELDS)  # fmt: skip

#: accessor constant -> field it reads (the test of the row shape checks it against EVENT_FIELDS)
ACCESSOR: dict[str, str] = {
    "TS": "ts", "GID": "group_id", "KIND": "kind", "SIDE": "side", "MID": "member_id", "GEN": "generation",
    "GIID": "group_instance_id", "CID": "client_id", "COORD": "coordinator", "HOST": "host", "REASON": "reason",
    "STATE": "state", "PROTO": "protocol", "MCOUNT": "member_count", "SCOUNT": "static_count", "ERR": "error",
    "OLDMID": "old_member_id", "MEMBERS": "members", "PARTS": "partitions", "ASSIGN": "assignment",
    "STATIC": "static", "PENDING": "pending", "UNEXP": "unexpected", "OPERATION": "operation",
    "OFFSETS_PARTITION": "offsets_partition", "PTYPE": "protocol_type", "MEPOCH": "member_epoch",
    "FROM": "from_state", "REVOKED": "revoked", "SF": "source_file", "LN": "line_no",
}  # fmt: skip
assert all(globals()[c] == FIELD_POSITION[f] for c, f in ACCESSOR.items()) and len(ACCESSOR) == NFIELDS

#: The total order of one group's events: by these fields, ``side`` by its :data:`SIDE_ORDER` rank,
#: a missing file or line counting as "" / 0.
ORDER_FIELDS: tuple[str, ...] = ("ts", "side", "source_file", "line_no")


def side_rank(side: Any) -> int:
    """The rank of ``side`` in the total order."""
    return SIDE_ORDER.get(side, UNKNOWN_SIDE_RANK)


def order_key(ts: Any, side: Any, source_file: Any, line_no: Any) -> tuple:
    """The key of one event in the total order (ts, side rank, source file, line number)."""
    return (ts, side_rank(side), source_file or "", line_no or 0)


def row_order_key(row: tuple) -> tuple:
    """:func:`order_key` of a flat row (a row without a time sorts first)."""
    ts = row[TS]
    return order_key(ts if ts is not None else -1, row[SIDE], row[SF], row[LN])
