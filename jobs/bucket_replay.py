"""The replay of one group bucket (:mod:`jobs.buckets`) in one Python worker: read the bucket's event
files (one per ingestion task) and stored states with pyarrow, order the events by group and total
order, leave out the heartbeats a replay learns nothing from, and replay each group
(:func:`jobs.replay_udf.replay_parts`) into one Arrow table of the union schema.

The heartbeat compaction runs once over the whole bucket (:func:`compact_bucket`), before any group
is sliced out: the same rows as :func:`jobs.replay_udf.compact_heartbeats` of each group (the
heartbeat key holds the cluster and the group id, so no two groups share a key), and the bucket's
other columns are then decoded for the kept rows only. ``replay_bucket(..., compact="group")`` is
the plain version (each group compacted on its own); ``tests/job/test_replay_udf_rules.py`` checks
the two give equal tables.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from coordinator_core.events.row import EVENT_FIELDS
from coordinator_core.replay.settings import ReplaySettings
from jobs.event_order import group_order, group_order_codes, side_ranks
from jobs.replay_udf import heartbeat_keep, paused_gc, plain_strings, replay_parts, resume_envelope
from jobs.replay_union import replay_tables, tables_count_rows, union_count_rows, union_table

__all__ = [
    "DICTIONARY_READ", "read_bucket_events", "bucket_input", "group_bounds", "compact_bucket", "replay_bucket",
    "replay_bucket_parts", "bucket_udf", "union_part_path", "table_part_path", "write_union_part", "write_table_parts",
]  # fmt: skip

#: events table columns a bucket replay reads (``ts_ms`` becomes the input's ``ts``)
_BUCKET_READ: tuple[str, ...] = ("cluster", "ts_ms", *(f for f in EVENT_FIELDS if f != "ts"))


#: string columns a bucket replay reads dictionary-encoded: few distinct values on many rows, and
#: decoding them was most of the read; the rows the replay keeps are decoded after the heartbeat
#: compaction (:func:`jobs.replay_udf.dictionary_values`). Same replay either way
#: (``tests/job/test_replay_udf_rules.py``).
DICTIONARY_READ: tuple[str, ...] = ("cluster", "group_id", "kind", "side", "source_file", "member_id",
                                    "group_instance_id", "client_id", "host")  # fmt: skip


def read_bucket_events(event_files: list[str], dictionary: bool = True):
    """The events of a bucket's files (:data:`_BUCKET_READ` columns); ``dictionary``: the columns of
    :data:`DICTIONARY_READ` as dictionary columns, one dictionary per column (the plain read, with
    ``False``, gives the same values)."""
    cols = list(_BUCKET_READ)
    read_dict = list(DICTIONARY_READ) if dictionary else None
    events = pa.concat_tables([pq.read_table(f, columns=cols, read_dictionary=read_dict) for f in event_files])
    return events.unify_dictionaries() if dictionary else events


def _input_columns(events) -> dict[str, Any]:
    """``events`` columns in the UDF input layout, in the rows' own order (no group-less rows)."""
    cols = {"cluster": events["cluster"], "_side_rank": side_ranks(events["side"])}
    for name in EVENT_FIELDS:
        cols[name] = events["ts_ms"] if name == "ts" else events[name]
    return cols


def bucket_input(events):
    """An Arrow table of ``events`` columns (as the ingestion workers wrote them) in the UDF input
    layout (:data:`jobs.replay_udf.INPUT_COLUMNS`: ``ts`` in epoch ms, the side's rank, nested
    columns as they are), rows without a group id left out, sorted by group and then by the events'
    total order (the strings sort as integer codes of the same order: several times faster than
    string keys)."""
    if events["group_id"].null_count:
        events = events.filter(pc.is_valid(events["group_id"]))
    cols = _input_columns(events)
    return pa.table(cols).take(group_order(events, cols["_side_rank"]))


def group_bounds(table) -> list[tuple[int, int]]:
    """(offset, length) of each run of equal (cluster, group_id) in a table sorted by them."""
    n = table.num_rows
    if n == 0:
        return []
    if n == 1:
        return [(0, 1)]
    starts = [0]
    keys = plain_strings(table.select(["cluster", "group_id"]))
    for name in ("cluster", "group_id"):
        col = keys[name].combine_chunks()
        diff = pc.fill_null(pc.not_equal(col.slice(1), col.slice(0, n - 1)), True)
        starts.extend((pc.indices_nonzero(diff).to_numpy() + 1).tolist())
    starts = sorted(set(starts))
    return [(s, e - s) for s, e in zip(starts, [*starts[1:], n], strict=True)]


def _sorted_groups(events) -> tuple[Any, np.ndarray, list[tuple[int, int]], list[tuple[str, str]]]:
    """(input columns in the rows' own order, the indices that sort them like :func:`bucket_input`,
    :func:`group_bounds` of the sorted rows, each group's (cluster, group id)). The bounds come from
    the sorted key codes (equal codes: equal values); a null cluster takes :func:`group_bounds`."""
    if events["group_id"].null_count:
        events = events.filter(pc.is_valid(events["group_id"]))
    table = pa.table(_input_columns(events))
    order, codes = group_order_codes(events, table["_side_rank"])
    n = table.num_rows
    if n == 0:
        return table, np.zeros(0, np.int64), [], []
    if codes[0].null_count:
        bounds = group_bounds(table.select(["cluster", "group_id"]).take(order))
    else:
        new = np.zeros(n, dtype=bool)
        new[0] = True
        for c in codes:
            s = np.asarray(c.take(order).to_numpy(zero_copy_only=False))
            new[1:] |= s[1:] != s[:-1]
        starts = np.flatnonzero(new).tolist()
        bounds = [(a, b - a) for a, b in zip(starts, [*starts[1:], n], strict=True)]
    order_np = np.asarray(order.to_numpy(zero_copy_only=False), dtype=np.int64)
    first = pa.array(order_np[[o for o, _ in bounds]])
    heads = plain_strings(table.select(["cluster", "group_id"]).take(first))
    return table, order_np, bounds, list(zip(heads["cluster"].to_pylist(), heads["group_id"].to_pylist(), strict=True))


def compact_bucket(table, bounds: list[tuple[int, int]], compact: list[bool], order: np.ndarray | None = None):
    """(the bucket's rows in order without the heartbeats :func:`jobs.replay_udf.compact_heartbeats`
    leaves out of each group whose ``compact`` flag is set, the new bounds, per group the rows left
    out or None for a group not compacted). ``table``: the bucket input, sorted by group and total
    order, or in any order with ``order`` the indices that sort it (``bounds`` are in the sorted
    rows). One :func:`jobs.replay_udf.heartbeat_keep` over the whole bucket (the heartbeat key holds
    ``cluster`` and ``group_id``, so the kept rows of a group are the ones its own compaction keeps),
    on the rows as they are; the kept rows are then taken in the sorted order."""
    keep = heartbeat_keep(table, order)
    if keep is None:
        keep = np.ones(table.num_rows, dtype=bool)
    for (offset, length), c in zip(bounds, compact, strict=True):
        if not c:
            keep[offset : offset + length] = True
    kept = np.add.reduceat(keep.astype(np.int64), np.array([o for o, _ in bounds], dtype=np.int64)).tolist() if bounds else []
    offsets = np.concatenate([[0], np.cumsum(kept)[:-1]]).astype(np.int64).tolist() if bounds else []
    skipped = [n - k if c else None for (_, n), k, c in zip(bounds, kept, compact, strict=True)]
    rows = np.flatnonzero(keep) if order is None else order[keep]
    out = table.take(pa.array(rows, pa.int64()))
    return out, list(zip(offsets, kept, strict=True)), skipped


def _read_states(state_files: list[str]) -> dict[tuple[str, str], str | None]:
    states: dict[tuple[str, str], str | None] = {}
    for f in state_files:
        st = pq.read_table(f, columns=["cluster", "group_id", "state_json"]).to_pydict()
        states.update(zip(zip(st["cluster"], st["group_id"], strict=True), st["state_json"], strict=True))
    return states


def replay_bucket(
    event_files: list[str],
    state_files: list[str],
    settings: ReplaySettings,
    run_id: str,
    committed_runs: frozenset[str] | None,
    exclude: frozenset[str] = frozenset(),
    dictionary: bool = True,
    compact: str = "bucket",
):
    """Replay every group of one bucket (:mod:`jobs.buckets`): read its event files (one per
    ingestion task) and stored states with pyarrow, resume each group, replay it, and return one
    Arrow table of the union schema. ``exclude``: source files whose events are not part of this
    run (already ingested, or duplicates of another file); ``dictionary``: see
    :func:`read_bucket_events`; ``compact``: ``"bucket"`` (:func:`compact_bucket`, the groups
    without a replayed position) or ``"group"`` (each group on its own, the plain version)."""
    with paused_gc():
        return union_table(replay_bucket_parts(event_files, state_files, settings, run_id, committed_runs, exclude,
                                               dictionary, compact))  # fmt: skip


def replay_bucket_parts(
    event_files: list[str],
    state_files: list[str],
    settings: ReplaySettings,
    run_id: str,
    committed_runs: frozenset[str] | None,
    exclude: frozenset[str] = frozenset(),
    dictionary: bool = True,
    compact: str = "bucket",
) -> list[dict[str, list[Any]]]:
    """:func:`replay_bucket` as the union column dicts of its groups, in order (one table each)."""
    if not event_files:
        return []
    events = read_bucket_events(event_files, dictionary)
    if exclude:
        events = events.filter(pc.invert(pc.is_in(events["source_file"], pa.array(sorted(exclude)))))
    states = _read_states(state_files)
    if compact == "bucket":
        table, order, bounds, keys = _sorted_groups(events)
    else:
        table = bucket_input(events)
        bounds = group_bounds(table)
        keys = [(table["cluster"][o].as_py(), table["group_id"][o].as_py()) for o, _ in bounds]
    resumed = [resume_envelope(c, g, states.get((c, g)), committed_runs) for c, g in keys]
    skipped: list[int | None] = [None] * len(bounds)
    if compact == "bucket":
        fresh = [not (env and env.get("last_key")) for env, _ in resumed]
        table, bounds, skipped = compact_bucket(table, bounds, fresh, order)
    parts: list[dict[str, list[Any]]] = []
    with paused_gc():
        for (offset, length), (cluster, group_id), (env, bad), left_out in zip(
            bounds, keys, resumed, skipped, strict=True
        ):
            group, _ = replay_parts(cluster, group_id, table.slice(offset, length), env, settings, run_id,
                                    presorted=True, compacted=left_out)  # fmt: skip
            parts += bad + group
    return parts


def union_part_path(out_dir: str, task: int) -> str:
    """The union file task ``task`` writes in ``out_dir`` (names sort in task order)."""
    return os.path.join(out_dir, f"part-{task:05d}.parquet")


def table_part_path(out_dir: str, table: str, task: int) -> str:
    """The file of replay table ``table`` task ``task`` writes: ``out_dir/<table>/part-<task>.parquet``."""
    return union_part_path(os.path.join(out_dir, table), task)


def _write_replace(table, path: str) -> None:
    """Write ``table`` to ``path`` whole (written aside, then renamed: a retried task replaces it)."""
    tmp = f"{path}.{os.getpid()}.tmp"
    pq.write_table(table, tmp, compression="snappy")
    os.replace(tmp, path)


def write_union_part(union, out_dir: str, task: int):
    """Write one task's union table to :func:`union_part_path` (nothing for no rows) and return its
    :func:`jobs.replay_union.union_count_rows`."""
    if union.num_rows:
        _write_replace(union, union_part_path(out_dir, task))
    return union_count_rows(union)


def write_table_parts(tables: dict[str, Any], out_dir: str, task: int):
    """Write one task's replay tables (:func:`jobs.replay_union.replay_tables`), each to its
    :func:`table_part_path` (nothing for a table without rows), and return their counts
    (:func:`jobs.replay_union.tables_count_rows`)."""
    for name, table in tables.items():
        if table.num_rows:
            os.makedirs(os.path.join(out_dir, name), exist_ok=True)
            _write_replace(table, table_part_path(out_dir, name, task))
    return tables_count_rows(tables)


def bucket_udf(
    settings: ReplaySettings,
    run_id: str,
    committed_runs: frozenset[str],
    event_files: dict[int, list[str]],
    state_files: dict[int, list[str]],
    exclude: frozenset[str] = frozenset(),
    out_dir: str | None = None,
):
    """mapInArrow function over ``spark.range(buckets)``: task ``k`` replays bucket ``k``. It
    returns the union rows (schema :func:`jobs.replay_union.union_schema`), or with ``out_dir``
    writes its replay tables there itself (:func:`write_table_parts`: no union, no split on the
    driver) and returns only their counts (:data:`jobs.replay_union.COUNT_SCHEMA`)."""

    def run(batches):
        for batch in batches:
            for k in batch.column("id").to_pylist():
                args = (event_files.get(k, []), state_files.get(k, []), settings, run_id, committed_runs, exclude)
                if out_dir is None:
                    out = replay_bucket(*args)
                else:
                    with paused_gc():
                        tables = replay_tables(replay_bucket_parts(*args))
                    out = write_table_parts(tables, out_dir, k)
                yield from out.to_batches(max_chunksize=65_536)

    return run
