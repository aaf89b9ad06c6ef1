"""The row shape is defined once (coordinator_core.events.row): every accessor constant reads the field
it is named after, the replays' modules hold no position map of their own, and the total order of
events and rows is one key."""

from __future__ import annotations

import ast
import pathlib

from coordinator_core.events import HeartbeatSent, JoinCompleted, event_from_row
from coordinator_core.events import row as shape
from coordinator_core.rows import normalise

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_accessor_reads_the_named_field() -> None:
    ev = JoinCompleted(ts=5, group_id="g", generation=3, member_count=2, source_file="f", line_no=9)
    row = normalise(ev.to_row())
    assert len(row) == shape.NFIELDS == len(shape.EVENT_FIELDS)
    assert (row[shape.TS], row[shape.GID], row[shape.KIND], row[shape.GEN], row[shape.MCOUNT]) == (
        5, "g", "join_completed", 3, 2,
    )  # fmt: skip
    assert (row[shape.SF], row[shape.LN], row[shape.SIDE]) == ("f", 9, "broker")
    for const, field in shape.ACCESSOR.items():
        assert getattr(shape, const) == shape.EVENT_FIELDS.index(field)


def test_no_module_builds_its_own_position_map() -> None:
    """No ``EVENT_FIELDS.index(...)`` nor ``{name: i for i, name in enumerate(EVENT_FIELDS)}`` outside
    the row shape module, in the core and in the replay UDF."""
    files = [*sorted((ROOT / "coordinator_core").rglob("*.py")), ROOT / "jobs" / "replay_udf.py"]
    offenders = []
    for path in files:
        if path.name == "row.py" and path.parent.name == "events":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "index"
                and getattr(node.func.value, "id", None) == "EVENT_FIELDS"
            ):
                offenders.append(str(path))
            if isinstance(node, ast.DictComp) and "EVENT_FIELDS" in ast.unparse(node):
                offenders.append(str(path))
    assert offenders == []


def test_total_order_of_events_and_rows_is_one_key() -> None:
    b = JoinCompleted(ts=5, group_id="g", source_file="z", line_no=1)
    c = HeartbeatSent(ts=5, group_id="g", source_file="a", line_no=0)
    assert b.sort_key() == shape.order_key(5, "broker", "z", 1) == (5, 0, "z", 1)
    assert sorted([c, b], key=lambda e: e.sort_key()) == [b, c]  # broker before client at the same ms
    rows = [normalise(e.to_row()) for e in (c, b)]
    assert sorted(rows, key=shape.row_order_key) == rows[::-1]
    assert shape.side_rank("elsewhere") == shape.UNKNOWN_SIDE_RANK
    assert event_from_row(dict(zip(shape.EVENT_FIELDS, rows[0], strict=True))) == c
