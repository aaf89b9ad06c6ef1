"""The vectorised shortcuts of the parser give the same values as the plain Arrow/regex forms."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from jobs.ingest import arrowops as ao
from jobs.ingest import dialects as D
from jobs.ingest.arrowops import elem, mask
from jobs.ingest.messages import _prefix_fields, _strip_prefix
from jobs.ingest.rawbytes import may_contain, single_digit

MESSAGES = [
    "[GroupCoordinator 1]: Stabilized group g generation 4 (__consumer_offsets-12) with 2 members",
    "[GroupCoordinator id=2 topic=__consumer_offsets partition=8] Static member which joins during Stable stage",
    "[GroupMetadataManager brokerId=1] Group g transitioned to Dead in generation 7",
    "[Consumer clientId=consumer-g-1, groupId=g] (Re-)joining group",
    "[Consumer instanceId=i1, clientId=consumer-g-1, groupId=g] Request joining group due to: x] y",
    "[Worker clientId=connect-1, groupId=connect-cluster] Rebalance started",
    "[req-7|tenant-a] [Consumer clientId=c1, groupId=g] Successfully joined group with generation 3",
    '[thrd:main]: Group "g" changed join state init -> wait-join (state up)',
    "Group leader [memberId: m1, groupInstanceId: null] failed to join before the rebalance timeout.",
    "[Consumer clientId=c1, groupId=g]",
    "",
    "[GroupCoordinator 1]: ",
]


@pytest.mark.parametrize("typ", [pa.string(), pa.large_string()])
def test_strip_prefix_equals_regex_replacement(typ: pa.DataType) -> None:
    msg = pa.array(MESSAGES, typ)
    has_pre = mask(pc.extract_regex(msg, D.BODY_PREFIX).is_valid())
    want = pc.if_else(
        pa.array(has_pre), pc.replace_substring_regex(msg, D.BODY_PREFIX, "", max_replacements=1), msg
    )
    got = _strip_prefix(msg, has_pre)
    assert got.to_pylist() == want.to_pylist()
    assert got.to_pylist()[6] == "Successfully joined group with generation 3"  # behind an MDC block
    assert got.to_pylist()[4] == "Request joining group due to: x] y"


def test_elem_like_list_element_with_nulls_short_lists_and_slices() -> None:
    lists = pc.split_pattern(
        pa.array(["a b c", "d e", None, "f", "g h i j", ""], pa.large_string()), " ", max_splits=2
    )
    for arr in (lists, lists.slice(1, 4), pa.chunked_array([lists.slice(0, 2), lists.slice(2)])):
        flat = arr.combine_chunks() if isinstance(arr, pa.ChunkedArray) else arr
        for i in range(4):
            want = [v[i] if v is not None and len(v) > i else None for v in flat.to_pylist()]
            assert elem(arr, i).to_pylist() == want, (i, want)


def test_elem_of_empty_array() -> None:
    lists = pc.split_pattern(pa.array([], pa.string()), " ")
    assert elem(lists, 0).to_pylist() == []
    assert np.asarray(elem(lists, 1)).size == 0


@pytest.mark.parametrize("typ", [pa.string(), pa.large_string()])
def test_prefix_fields_equal_one_extraction(typ: pa.DataType) -> None:
    msg = pa.array(
        [*MESSAGES, "[GroupCoordinator x]: odd", "[Consumer a|b] [Worker clientId=w, groupId=cc] x"], typ
    )
    m = pc.extract_regex(msg, D.BODY_PREFIX)
    has_pre, fields = _prefix_fields(msg)
    assert has_pre.tolist() == mask(m.is_valid()).tolist()
    for name in D.PREFIX_FIELDS:
        assert fields[name].to_pylist() == pc.fill_null(m.field(name), "").to_pylist(), name
    assert fields["pfx_opart"].to_pylist()[1] == "8"
    assert fields["pfx_gid"].to_pylist()[6] == "g"  # client prefix behind an MDC block


@pytest.mark.parametrize("typ", [pa.string(), pa.large_string()])
def test_may_contain_is_never_false_when_a_string_contains_the_needle(typ: pa.DataType) -> None:
    """The one search over a column's bytes against the per-string kernel: sliced, taken, with
    nulls, a needle across two strings (a harmless "maybe")."""
    lines = ['x {"a": 1}', "plain", None, "", "tail {", '"head', '{"}', 'ab{"']
    arr = pa.array(lines, typ)
    cases = [arr, arr.slice(1, 3), arr.slice(4, 2), arr.take(pa.array([1, 3])), arr.slice(0, 0),
             pa.array(["no brace here"] * 3, typ), arr.filter(pa.array([False, True, True, True] * 2))]
    for a in cases:
        plain = bool(pc.any(pc.fill_null(pc.match_substring(a, '{"'), False)).as_py())
        got = may_contain(a, b'{"')
        assert got or not plain, a.to_pylist()
        if a.to_pylist() in (["plain", None, ""], ["no brace here"] * 3, []):
            assert not got
    assert may_contain(arr.slice(4, 2), b'{"')  # 'tail {' + '"head': across two strings


@pytest.mark.parametrize("width", [1, 5, 40, 200])
def test_window_equals_the_index_gather(width: int) -> None:
    """Lines' byte windows (rows of a sliding view; the last lines of the buffer padded with its
    last byte) equal the gather through an index matrix, also past the buffer's end."""
    from jobs.ingest.rawbytes import Raw, _window_plain

    lines = ["2024-05-01 10:00:00.123  INFO 1 --- [main] a.B : x", "", "short", "\u00e9" * 30, "tail"]
    raw = Raw(pa.array(lines * 3, pa.large_string()))
    rows = np.array([0, 1, 2, 3, 4, 14, 13, 0], np.int64)
    for start in (0, 3, 17):
        got = raw.window(rows, start, width)
        assert got.shape == (len(rows), width)
        assert got.tolist() == _window_plain(raw.data, raw.starts[rows] + start, width).tolist()


def test_parsed_partitions_equal_the_parser_and_are_remembered() -> None:
    from jobs.ingest import fields as FL
    from jobs.ingest import partition_reprs as PREPR

    texts = ["[orders-0, orders-1]", "", "{orders=[0, 1]}", "[TopicPartition(topic='o', partition=3)]", "x, y"]
    saved, before = dict(FL._PARSED), FL._PARSED_MAX
    FL._PARSED.clear()  # (other tests of this process parsed lists already)
    try:
        for t in texts * 2:
            want = PREPR.parse(t)
            assert FL.parsed_partitions(t) == (tuple(want) if want is not None else None)
        assert set(FL._PARSED) == set(texts)
        FL._PARSED_MAX = len(FL._PARSED)
        FL.parsed_partitions("[b-1]")  # (full: emptied, then this one remembered)
        assert list(FL._PARSED) == ["[b-1]"]
    finally:
        FL._PARSED_MAX = before
        FL._PARSED.clear()
        FL._PARSED.update(saved)


@pytest.mark.parametrize("typ", [pa.string(), pa.large_string()])
def test_single_digit_equals_the_regex(typ: pa.DataType) -> None:
    vals = ["7", "0", "9", "", None, "12", "a", " 7", "7 ", "\u0663", "/", ":", "é", "3"]
    a = pa.array(vals, typ)
    for arr in (a, a.slice(3), a.slice(2, 5), a.slice(len(vals))):
        want = mask(pc.match_substring_regex(arr, r"^\d$")) if len(arr) else np.zeros(0, bool)
        assert single_digit(arr).tolist() == want.tolist()
    assert single_digit(pa.array([None, None], typ)).tolist() == [False, False]


def test_instance_id_skips_the_replacement_only_when_it_changes_nothing() -> None:
    from jobs.ingest.fields import _instance_id

    for vals in (["i1", None, "None", "null", "", "Optional.empty"], ["Some(i1)", "Optional[i2]", "x", "Some()"],
                 ["Some(i1", "Optional[i2", "None"]):  # fmt: skip
        a = pa.array(vals, pa.string())
        plain = pc.replace_substring_regex(a, r"^(?:Some\((.*)\)|Optional\[(.*)\])$", r"\1\2")
        bad = pc.fill_null(pc.is_in(plain, pa.array(["None", "null", "Optional.empty", ""])), False)
        want = pc.if_else(bad, pa.scalar(None, pa.string()), plain)
        assert _instance_id(a).to_pylist() == want.to_pylist()


def test_distinct_rows_numbers_combinations_in_order_of_first_appearance() -> None:
    msg = ao.codes(pa.array(["a", "b", "a", "a", None, "b"]))
    log = ao.codes(pa.array(["x", "x", "x", "y", "x", "x"]))
    assert msg.tolist() == [0, 1, 0, 0, 2, 1]
    inv, rep = ao.distinct_rows(msg, log)
    assert inv.tolist() == [0, 1, 0, 2, 3, 1]
    assert [inv[r] for r in rep] == [0, 1, 2, 3]  # one row of each combination, its own
    one, rep1 = ao.distinct_rows(np.array([5, 5, 2]))
    assert one.tolist() == [0, 0, 1] and rep1.tolist()[1] == 2
