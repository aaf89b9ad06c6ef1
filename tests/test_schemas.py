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
