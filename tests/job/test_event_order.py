"""The total order over Arrow columns (jobs/event_order.py) is the core's order (Event.sort_key)."""

from __future__ import annotations

import pyarrow as pa

from coordinator_core.events.row import UNKNOWN_SIDE_RANK, order_key
from jobs.event_order import EVENT_ORDER, group_order, order_codes, side_ranks


def _table() -> pa.Table:
    return pa.table({
        "cluster": ["b", "a", "a", "a", "a", "a", "a"],
        "group_id": ["g", "g", "g", "g", "g", "h", "g"],
        "ts_ms": [1, 5, 5, 5, None, 0, 5],
        "side": ["broker", "client", "broker", "client", "broker", "other", None],
        "source_file": ["x", "b.log", "z.log", "a.log", "a.log", "a.log", "a.log"],
        "line_no": [1, 1, 9, 2, 1, 1, 3],
    })  # fmt: skip


def test_side_ranks_follow_the_core_and_put_unknown_sides_last() -> None:
    got = side_ranks(pa.chunked_array([["client", "broker", None, "martian", "connect", "other"]])).to_pylist()
    assert got == [1, 0, UNKNOWN_SIDE_RANK, UNKNOWN_SIDE_RANK, 2, 3]


def test_order_codes_sort_like_the_strings_with_nulls_last() -> None:
    codes = order_codes(pa.array(["b", None, "a", "b"])).to_pylist()
    assert codes[2] < codes[0] == codes[3] and codes[1] is None


def test_group_order_is_cluster_group_then_the_cores_order() -> None:
    t = _table()
    got = t.take(group_order(t, side_ranks(t["side"]))).to_pylist()
    assert [(r["cluster"], r["group_id"], r["ts_ms"], r["side"], r["source_file"], r["line_no"]) for r in got] == [
        ("a", "g", 5, "broker", "z.log", 9),  # same time: broker before client, then file, then line
        ("a", "g", 5, "client", "a.log", 2),
        ("a", "g", 5, "client", "b.log", 1),
        ("a", "g", 5, None, "a.log", 3),  # no side: after every known side
        ("a", "g", None, "broker", "a.log", 1),  # no time: last in its group (not replayed)
        ("a", "h", 0, "other", "a.log", 1),
        ("b", "g", 1, "broker", "x", 1),
    ]
    timed = [r for r in got if r["ts_ms"] is not None and r["cluster"] == "a" and r["group_id"] == "g"]
    keys = [order_key(r["ts_ms"], r["side"], r["source_file"], r["line_no"]) for r in timed]
    assert keys == sorted(keys)


def test_event_order_names_the_udf_input_columns() -> None:
    assert [c for c, _ in EVENT_ORDER] == ["ts", "_side_rank", "source_file", "line_no"]


def test_dictionary_columns_order_like_their_strings() -> None:
    """The bucket replay reads its string columns as dictionaries (one per file, a value may repeat
    across them): the order is the strings' order."""
    t = _table()
    half = [pa.table({n: t[n].slice(0, 4).combine_chunks().dictionary_encode() if t[n].type == pa.string()
                      else t[n].slice(0, 4) for n in t.column_names}),
            pa.table({n: t[n].slice(4).combine_chunks().dictionary_encode() if t[n].type == pa.string()
                      else t[n].slice(4) for n in t.column_names})]  # fmt: skip
    d = pa.concat_tables(half)
    want = t.take(group_order(t, side_ranks(t["side"]))).to_pylist()
    assert d.take(group_order(d, side_ranks(d["side"]))).to_pylist() == want
    repeated = pa.DictionaryArray.from_arrays(pa.array([0, 1, 2, None, 1]), pa.array(["b", "a", "b"]))
    codes = order_codes(repeated).to_pylist()
    assert codes[0] == codes[2] > codes[1] == codes[4] and codes[3] is None
