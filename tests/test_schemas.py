"""One set of output schemas: the core's records and the Spark schemas agree column by column."""

from __future__ import annotations

import dataclasses

import pytest

from coordinator_core import records
from coordinator_core.events import EVENT_FIELDS
from jobs import schemas

PAIRS = [
    (records.Transition, schemas.GROUP_TRANSITIONS),
    (records.Rebalance, schemas.REBALANCES),
    (records.MemberSession, schemas.MEMBER_SESSIONS),
    (records.AssignmentRow, schemas.ASSIGNMENTS),
    (records.Anomaly, schemas.ANOMALIES),
]


@pytest.mark.parametrize("record, schema", PAIRS, ids=lambda x: getattr(x, "__name__", ""))
def test_record_fields_are_the_table_columns_after_cluster(record, schema):
    assert schema.fieldNames()[0] == "cluster"
    assert [f.name for f in dataclasses.fields(record)] == schema.fieldNames()[1:]


def test_every_event_field_is_an_events_column():
    assert set(EVENT_FIELDS) <= set(schemas.EVENTS.fieldNames())


def test_every_table_starts_with_cluster_and_names_are_unique():
    assert len(schemas.TABLES) == 12
    for name, schema in schemas.TABLES.items():
        cols = schema.fieldNames()
        assert cols[0] == "cluster", name
        assert len(cols) == len(set(cols)), name


def _readme_tables() -> dict[str, list[str]]:
    """docs/tables.md's "## Columns" rows: table -> column names (parenthesised notes dropped)."""
    import pathlib
    import re

    text = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "tables.md").read_text(encoding="utf-8")
    section = text.split("\n## Columns", 1)[1].split("\n## ", 1)[0]
    out = {}
    for m in re.finditer(r"^\| `(\w+)` \| ([^|]*(?:\\\|[^|]*)*) \|", section, re.M):
        cols = re.sub(r"\([^()]*\)", "", m.group(2))
        out[m.group(1)] = [c.strip() for c in cols.split(",") if c.strip()]
    return out


#: columns documented in an internals page until the README's table lists them (README.md is
#: rewritten by its owner; the column is named there at the merge)
_DOCUMENTED_IN: dict[tuple[str, str], str] = {}  # (table, column) -> the page documenting it instead


def test_the_readme_documents_every_table_with_its_columns():
    import pathlib

    documented = _readme_tables()
    assert set(documented) == set(schemas.TABLES)
    root = pathlib.Path(__file__).resolve().parents[1]
    for name, schema in schemas.TABLES.items():
        elsewhere = [c for c in schema.fieldNames() if (name, c) in _DOCUMENTED_IN and c not in documented[name]]
        for c in elsewhere:
            assert f"`{c}`" in (root / _DOCUMENTED_IN[(name, c)]).read_text(encoding="utf-8"), (name, c)
        assert documented[name] == [c for c in schema.fieldNames() if c not in elsewhere], name
