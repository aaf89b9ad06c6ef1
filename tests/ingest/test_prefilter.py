"""The group prefilter in three searches (:func:`jobs.ingest.prefilter.group_candidates`) equals the
one search of the whole alternation (:func:`group_candidates_plain`), with both regex engines."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from hypothesis import given, settings
from hypothesis import strategies as st

from jobs.ingest import dialects as D
from jobs.ingest import prefilter as PF
from jobs.ingest import pyregex as PR

#: pieces of group lines, callback lines, near misses and noise
_PIECES = [
    "Revoked", "revoking", "ON_PARTITIONS_REVOKED", "on_assign", "assigned", "Assigning", "setup", "Claims",
    "cleanup", "lost", "partitions lost", " ", ": ", "\t", "[orders-0, orders-1]", "[]", "{orders=[0, 1]}",
    "map[orders:[0 1]]", "set()", "[TopicPartition(topic='orders', partition=0)]", "orders[0]@12",
    "group", "Group", "groupId=g", "generation", "heartbeat", "rebalance", "sync", "joined", "x", "1",
    "Partitions assigned for `", "(", ")", "unassigned", "reassigned", "\u00e9", "producer ",
]  # fmt: skip


def _both(values: list[str | None]) -> None:
    arr = pa.array(values, pa.large_string())
    plain = PF.group_candidates_plain(arr)
    assert PF.group_candidates(arr).tolist() == plain.tolist()
    re2 = pc.fill_null(pc.match_substring_regex(arr, D.GROUP_PREFILTER), False).to_numpy(zero_copy_only=False)
    assert plain.tolist() == np.asarray(re2, dtype=bool).tolist()


def test_the_table_prefilter_splits() -> None:
    """The table's prefilter has the shape the fast form needs (else every call runs the plain search)."""
    parts = PF.PARTS
    assert parts is not None
    assert f"{parts.base}|{parts.callback}" == D.GROUP_PREFILTER
    assert parts.callback.startswith(parts.verb) and parts.verb.startswith(r"\b(?:") and parts.verb.endswith(r")\b")


def test_split_refuses_other_shapes() -> None:
    assert PF.split_prefilter(r"x|\b(?:a)\bq|r", r"\b(?:a)\bq|r") is None  # (alternation at the top)
    assert PF.split_prefilter(r"(?i)x|\b(?:a)\bq", r"\b(?:a)\bq") is None  # (a flag of the base)
    assert PF.split_prefilter(r"\b(?:a)\bq", r"\b(?:a)\bq") is None  # (no base)
    assert PF.split_prefilter(r"x|(?:a)q", r"(?:a)q") is None  # (no leading word group)
    p = PF.split_prefilter(r"x|\b(?:a|[)(]|b\)c)\b(?:q|r)", r"\b(?:a|[)(]|b\)c)\b(?:q|r)")
    assert p is not None and p.verb == r"\b(?:a|[)(]|b\)c)\b" and p.base == "x"


def test_examples_of_every_dialect() -> None:
    _both([d.example for d in D.DIALECTS] + [None, ""])


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=10).map("".join), min_size=1, max_size=30))
def test_equals_the_whole_alternation(msgs: list[str]) -> None:
    _both(msgs)
    # (a column over pyregex's size limit: RE2 answers)
    _both(msgs * (PR.MAX_BYTES // max(1, sum(map(len, msgs))) + 2))
