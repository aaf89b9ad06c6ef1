"""The total order of a group's events over Arrow columns: the twin of the core's order
(:data:`coordinator_core.events.row.ORDER_FIELDS`, :func:`~coordinator_core.events.row.side_rank`,
``Event.sort_key``), used by the Spark adapter (:mod:`jobs.replay_udf`) and the local pipeline
(:mod:`jobs.local`). Pure pyarrow: no Spark.

Within a group: time (epoch ms), the side's rank (broker before client), source file, line number.
Rows without a time sort last here; the replay does not replay them (they are counted as events with
no timestamp), so their place never changes a replay.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc

from coordinator_core.events.row import ORDER_FIELDS, UNKNOWN_SIDE_RANK, side_rank

#: the order of a group's rows in the UDF input layout: the core's ORDER_FIELDS, ``side`` as its rank
#: column ``_side_rank``
EVENT_ORDER: list[tuple[str, str]] = [("_side_rank" if f == "side" else f, "ascending") for f in ORDER_FIELDS]


def side_ranks(side: pa.ChunkedArray | pa.Array) -> pa.Array:
    """The rank of each row's side in the total order (unknown and missing sides last), as int32."""
    enc = pc.dictionary_encode(side.combine_chunks() if isinstance(side, pa.ChunkedArray) else side)
    ranks = pa.array([side_rank(v) for v in enc.dictionary.to_pylist()], pa.int32())
    return pc.fill_null(pc.take(ranks, enc.indices), UNKNOWN_SIDE_RANK)


def order_codes(col: pa.ChunkedArray | pa.Array) -> pa.Array:
    """Integer codes of a string column that sort like its values (nulls last): sorting by them is
    several times faster than sorting by the strings. A dictionary column (as the bucket replay reads
    it) is ranked through its own dictionary, equal values ranked equal (a dictionary may repeat a
    value)."""
    enc = pc.dictionary_encode(col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col)
    if len(enc.dictionary) == 0:
        return pa.nulls(len(enc), pa.uint64())
    ranks = pc.rank(enc.dictionary, sort_keys="ascending", tiebreaker="dense")
    return pc.take(ranks, enc.indices)


def group_order(events: pa.Table, rank: pa.Array, keys: tuple[str, ...] = ("cluster", "group_id")) -> pa.Array:
    """The indices that sort ``events`` by ``keys`` and then by the total order (``rank``: the rows'
    :func:`side_ranks`); nulls last."""
    return group_order_codes(events, rank, keys)[0]


def group_order_codes(
    events: pa.Table, rank: pa.Array, keys: tuple[str, ...] = ("cluster", "group_id")
) -> tuple[pa.Array, list[pa.Array]]:
    """(:func:`group_order`, the :func:`order_codes` of each key column in the rows' own order): equal
    codes are equal values, so the groups' bounds in the sorted rows come from the codes."""
    codes = [order_codes(events[k]) for k in keys]
    cols = {f"k{i}": c for i, c in enumerate(codes)}
    cols.update(ts=events["ts_ms"], r=rank, f=order_codes(events["source_file"]), l=events["line_no"])
    table = pa.table(cols)
    return pc.sort_indices(table, sort_keys=[(k, "ascending") for k in table.column_names]), codes
