"""The partitions of a member grouped by topic (coordinator_core/partition_groups.py): the
remembered and once-read versions give what the plain readings give, on generated lists (repeats,
unreadable strings, any order)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from coordinator_core.partition_groups import (
    by_topic,
    by_topic_plain,
    parsed_assignment,
    parsed_assignment_plain,
)

TOPICS = st.sampled_from(["orders", "a-b", "", "pay-ments-7", "t"])
PART = st.one_of(
    st.builds(lambda t, p: f"{t}-{p}", TOPICS, st.integers(0, 40)),
    st.sampled_from(["orders", "orders-", "-3", "x-1a", "x--2", "t-٣"]),
)
PAIR = st.tuples(st.sampled_from(["orders", "t"]), st.integers(0, 5))


@settings(max_examples=400, deadline=None)
@given(parts=st.lists(PART, max_size=12))
def test_by_topic_equals_the_plain_reading(parts) -> None:
    try:
        want = by_topic_plain(parts)
    except ValueError:  # a digit int() does not read: both raise
        return
    assert by_topic(parts) == want
    assert by_topic(list(reversed(parts))) == want


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(st.one_of(PART, PAIR, PAIR.map(list)), max_size=10))
def test_parsed_assignment_equals_the_plain_reading(parts) -> None:
    want = parsed_assignment_plain(parts)
    assert parsed_assignment(parts) == want
    assert parsed_assignment(parts) == want  # remembered
    assert parsed_assignment(None) == parsed_assignment_plain(())


def test_values() -> None:
    assert by_topic(["b-2", "a-10", "a-9", "b-x", "a-9"]) == (("a", (9, 9, 10)), ("b", (2,)))
    pairs, rows = parsed_assignment(["t-1", ("u", 0), "bad", "t-0"])
    assert pairs == (("t", 1), ("u", 0), ("t", 0))
    assert rows == (("t", (0, 1)), ("u", (0,)))
