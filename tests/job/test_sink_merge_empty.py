"""delta-rs merges on the driver (jobs/sink_delta.py ``DeltaRsSink.merge_arrow``): into a table
without rows the rows are appended instead of merged, and the table is the MERGE's (the plain way),
also with duplicate keys in the source and for a second merge on top."""

from __future__ import annotations

import pyarrow as pa
from deltalake import DeltaTable

from jobs.replay_union import MERGE_KEYS
from jobs.sink import table_arrow_schema
from jobs.sink_delta import DeltaRsSink


def _rebalances(ids: list[tuple[str, int]]):
    schema = table_arrow_schema("rebalances")
    rows = [{"cluster": "c", "group_id": "g", "rebalance_id": rid, "join_rounds": n} for rid, n in ids]
    return pa.Table.from_pylist(rows, schema=schema)


def _sorted(t):
    return t.sort_by([("rebalance_id", "ascending")])


def test_merge_into_an_empty_table_appends_the_merges_rows(tmp_path) -> None:
    first = _rebalances([("r1", 1), ("r2", 2), ("r1", 3), ("r3", 4)])  # r1 twice: the last row wins
    second = _rebalances([("r2", 9), ("r4", 5)])
    got = {}
    for plain in (True, False):
        sink = DeltaRsSink(None, str(tmp_path / f"plain={plain}"), "run")
        sink.merge_arrow("rebalances", first, MERGE_KEYS["rebalances"], plain=plain)
        after_first = _sorted(sink.read_arrow("rebalances"))
        ops = [h["operation"] for h in DeltaTable(sink.path("rebalances")).history()]
        sink.merge_arrow("rebalances", second, MERGE_KEYS["rebalances"], plain=plain)
        got[plain] = (after_first, _sorted(sink.read_arrow("rebalances")), ops)
    assert got[False][0].equals(got[True][0]) and got[False][1].equals(got[True][1])
    assert got[True][0].column("join_rounds").to_pylist() == [3, 2, 4]
    assert got[True][1].column("join_rounds").to_pylist() == [3, 9, 4, 5]
    assert "MERGE" in got[True][2] and "MERGE" not in got[False][2]  # the append did not merge


def test_merge_into_a_table_with_rows_merges(tmp_path) -> None:
    sink = DeltaRsSink(None, str(tmp_path / "lake"), "run")
    sink.merge_arrow("rebalances", _rebalances([("r1", 1)]), MERGE_KEYS["rebalances"])
    sink.merge_arrow("rebalances", _rebalances([("r1", 2)]), MERGE_KEYS["rebalances"])
    assert sink.read_arrow("rebalances").column("join_rounds").to_pylist() == [2]
    assert DeltaTable(sink.path("rebalances")).history()[0]["operation"] == "MERGE"
