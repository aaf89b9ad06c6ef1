"""Answers by wording (:mod:`jobs.ingest.wordings`): which regexes cannot tell digits apart, the
wording column, and the prefilter's memo by wording equal to the plain prefilter."""

from __future__ import annotations

import re

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobs.ingest import dialects as D
from jobs.ingest import layouts as L
from jobs.ingest import prefilter as PF
from jobs.ingest import wordings as W


@pytest.mark.parametrize(
    "pattern, invariant",
    [
        (r"\d{4}-\d{2}[ T]\d{1,9}", True), (r"[A-Za-z0-9._\-]+-\d+", True), (r"[^0-9]x{0,40}?", True),
        (r"(?P<g2>\w+)\b", True), (r"[ -~]", True), (r"\{\"a\"", True),
        (r"a1", False), (r"[0-8]", False), (r"[1-9]", False), (r"[+-0-9]", False), (r"[0-9-z]", False),
        (r"(\w)\1", False), (r"\x30", False), (r"\pN", False), (r"[{3}]", False), (r"x{,3}", False),
        (r"\Q1\E", False), ("\\", False),
    ],
)  # fmt: skip
def test_digit_invariant(pattern: str, invariant: bool) -> None:
    assert W.digit_invariant(pattern) is invariant


def test_the_prefilter_regexes_are_invariant() -> None:
    """The prefilter's searches cannot tell digits apart (else its memo by wording is off)."""
    assert W.digit_invariant(D.GROUP_PREFILTER)
    assert PF._MEMO is not None


def test_a_layout_naming_digits_is_seen() -> None:
    """The layouts are not memoised by wording: java.util.logging's localized dates name months by number
    (``9月``, ``10월``), which the check must see."""
    assert not all(W.digit_invariant(lay.regex) for lay in L.LAYOUTS)
    assert not W.digit_invariant("(?:9月|10월) \\d{1,2}")


def test_wordings_column() -> None:
    a = pa.array(["ab12", None, "gén 9ér", "", "x0y99", "٣3"])
    want = ["ab00", None, "gén 0ér", "", "x0y00", "٣0"]
    assert W.wordings(a).to_pylist() == want
    assert W.wordings(a.slice(1, 4)).to_pylist() == want[1:5]
    assert W.wordings(pa.array(["a1"] * 3, pa.large_string())).to_pylist() == ["a0"] * 3
    assert W.wordings(pa.array([], pa.string())).to_pylist() == []
    assert "x9y1".translate(W.WORDING) == "x0y0"


_PIECES = [
    "group", "Group", "groupId=g", "generation ", "1", "42", "0", "9", "heartbeat", "rebalance", "x", " ",
    "consumer/broker/", " added subscription to ", "StreamThread-", "\" ", "Revoked", "[orders-", "]", ", ",
    "TopicPartition(topic='t', partition=", ")", "Group7", "GroupI", "\u00e9", "CGRP", "sync", "ing; ",
]  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=10).map("".join) | st.none(), min_size=1, max_size=40))
def test_memo_equals_the_prefilter(msgs: list[str | None]) -> None:
    """Twice (the second call answered from the memo) and on the same messages with other digits."""
    memo = W.WordingMemo(PF.group_candidates)
    arr = pa.array(msgs, pa.string())
    plain = PF.group_candidates_plain(arr).tolist()
    assert memo(arr).tolist() == plain
    other = pa.array([None if m is None else re.sub(r"\d", lambda d: str(9 - int(d.group())), m) for m in msgs], pa.string())
    assert memo(other).tolist() == PF.group_candidates_plain(other).tolist()
    assert memo(arr.slice(1)).tolist() == plain[1:]


def test_memo_on_dialect_examples() -> None:
    msgs = [d.example for d in D.DIALECTS] + [None, ""]
    arr = pa.array(msgs, pa.string())
    assert PF.group_candidates_by_wording(arr).tolist() == PF.group_candidates_plain(arr).tolist()
    assert PF.group_candidates_by_wording(arr).tolist() == PF.group_candidates_plain(arr).tolist()


def test_memo_starts_over_when_full() -> None:
    memo = W.WordingMemo(PF.group_candidates, limit=3)
    arr = pa.array(["group a", "b", "Rebalance c", "d e"])
    assert memo(arr).tolist() == [True, False, True, False]
    assert len(memo.known) == 4  # (cleared before, then all four of this column kept)
    assert memo(pa.array(["x"])).tolist() == [False] and len(memo.known) == 1
