"""The replay's records (coordinator_core/records.py) are slotted dataclasses compared and hashed by
value: equal records are one key of a set, and a record has no ``__dict__``."""

from __future__ import annotations

import dataclasses

import pytest

from coordinator_core.records import Anomaly, AssignmentRow, MemberSession, Rebalance, Transition

CLASSES = (Anomaly, AssignmentRow, MemberSession, Rebalance, Transition)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_records_are_slotted_and_hashed_by_value(cls) -> None:
    n = len(dataclasses.fields(cls))
    a, b = cls(*(["x"] * n)), cls(*(["x"] * n))
    assert not hasattr(a, "__dict__")
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    c = dataclasses.replace(a, group_id="y")
    assert c != a and c.group_id == "y" and a.group_id == "x"


def test_assignment_row_values() -> None:
    r = AssignmentRow("g", 3, "m-1", "orders", (0, 2), "member", 17)
    assert dataclasses.astuple(r) == ("g", 3, "m-1", "orders", (0, 2), "member", 17)
    assert {r: 1}[AssignmentRow("g", 3, "m-1", "orders", (0, 2), "member", 17)] == 1
