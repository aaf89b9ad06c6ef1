"""Replay every consumer group inside Spark: one :class:`coordinator_core.history.GroupHistory` (the
classic or the consumer-protocol model, chosen from the evidence) per
(``cluster``, ``group_id``), mapGroupsWithState style.

The pandas/Arrow UDFs here receive all new events of one group (any order), sort them by the total
order (ts, broker before client, source_file, line_no), resume the group from its previous state,
replay, and return every output record of the group in ONE long "union" frame: a ``_table``
discriminator column plus the union of the replay tables' columns (timestamps as epoch-ms longs).
:func:`split_union` turns it into the tables, so the UDF runs once per group, not once per table.

State travels as an *envelope* (the ``state_json`` column of ``group_state``)::

    {"v": 1, "replay": <GroupHistory.snapshot()>, "last_key": [ts, side, file, line],
     "run_id": "...", "events": n, "last_ts": ms, "prev": <the envelope before this run>}

``prev`` makes a crashed run harmless: a state written by a run that never committed (its run id is
not in ``ingest_audit``) is ignored and the group resumes from ``prev``.  ``last_key`` guards against
feeding an event twice: events at or before it are skipped and reported as one ``out_of_order``
anomaly.  A failure inside one group's replay becomes a ``replay_error`` anomaly; the job goes on.
"""

from __future__ import annotations

import gc
import json
import traceback
from contextlib import contextmanager
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql import functions as F

from coordinator_core.events.row import (
    EVENT_FIELDS,
    LN,
    SF,
    SIDE,
    SIDE_ORDER,
    TS,
    UNKNOWN_SIDE_RANK,
    side_rank,
)  # fmt: skip
from coordinator_core.history import GroupHistory
from coordinator_core.replay.settings import ReplaySettings
from coordinator_core.row_rules import HEARTBEAT, NESTED_FIELDS, ROUTE_KINDS
from jobs.event_order import EVENT_ORDER
from jobs.replay_union import (  # re-exported: the job imports the union layout from here
    MERGE_KEYS,
    REPLAY_TABLES,
    TABLE_COL,
    UNION_COLUMNS,
    UNION_MAP,
    anomaly_columns,
    record_columns,
    split_union,
    split_union_arrow,
    split_union_arrow_all,
    union_arrow_schema,
    union_schema,
    union_table,
)  # fmt: skip

__all__ = [
    "MERGE_KEYS", "REPLAY_TABLES", "TABLE_COL", "UNION_COLUMNS", "UNION_MAP", "split_union", "split_union_arrow", "split_union_arrow_all",
    "union_arrow_schema", "union_schema", "union_table", "INPUT_COLUMNS", "JSON_COLUMNS", "EVENT_ORDER",
    "SEED_COLUMN", "replay_input", "envelope_json", "load_envelope", "column_values", "replay_group",
    "replay_group_table", "heartbeat_keep", "compact_heartbeats", "route_rows", "replay_parts", "plain_strings",
    "resume_envelope", "batch_udf", "newer_envelope", "streaming_udf", "paused_gc",
]  # fmt: skip

#: columns fed to the UDF: the group key, the side rank for ordering, then EVENT_FIELDS (ts = ts_ms)
INPUT_COLUMNS: tuple[str, ...] = ("cluster", "_side_rank", *EVENT_FIELDS)

#: nested event columns handed to the UDFs as JSON text (see :func:`replay_input`): name -> is a map
JSON_COLUMNS: dict[str, bool] = {"members": False, "partitions": False, "assignment": True}


# ------------------------------------------------------------------------------- Spark side


def replay_input(events_df, files: list[str] | None = None):
    """The events as the UDFs want them: group key, side rank, EVENT_FIELDS with ``ts`` in epoch ms
    and the nested columns (:data:`JSON_COLUMNS`) as JSON text. Events without a group id cannot be
    replayed (they stay in the events table).

    Why JSON: they are null on almost every line (heartbeats), and Spark's Arrow transfer of
    array/map columns into the Python workers cost more than the replay itself (1 M lines: ~50 s of
    a ~65 s hand-over, vs ~15 s as strings); the UDF decodes the few non-null values.

    ``files``: the sorted names of every file the events come from (the run's audit). Then
    ``source_file`` crosses the shuffle as its index in that list (a quarter of the bytes of a
    heartbeat-dominated hand-over were file paths): the order of the indexes is the order of the
    names, and the UDF (:func:`batch_udf` with the same list) maps them back."""
    rank = F.lit(UNKNOWN_SIDE_RANK)
    for side, r in sorted(SIDE_ORDER.items(), key=lambda kv: -kv[1]):
        rank = F.when(F.col("side") == side, F.lit(r)).otherwise(rank)
    events = events_df.where(F.col("group_id").isNotNull())
    file_col = F.col("source_file")
    if files:
        index = events_df.sparkSession.createDataFrame(
            list(enumerate(files)), "_file_index int, _file_name string"
        )
        events = events.join(F.broadcast(index), events["source_file"] == index["_file_name"], "left")
        file_col = F.col("_file_index")
    cols = [F.col("cluster"), rank.cast("int").alias("_side_rank")]
    for name in EVENT_FIELDS:
        if name == "ts":
            cols.append(F.col("ts_ms").alias("ts"))
        elif name == "source_file":
            cols.append(file_col.alias(name))
        elif name in JSON_COLUMNS:
            cols.append(F.to_json(F.col(name)).alias(name))
        else:
            cols.append(F.col(name))
    return events.select(cols)


# ------------------------------------------------------------------------------- per group


def envelope_json(env: dict[str, Any]) -> str:
    """An envelope as the compact JSON text stored in ``group_state.state_json`` and the stream state."""
    return json.dumps(env, separators=(",", ":"), default=str)


def load_envelope(state_json: str | None, committed_runs: frozenset[str] | None) -> dict[str, Any] | None:
    """The envelope to resume from: ``prev`` when the stored one was written by an uncommitted run."""
    if not state_json:
        return None
    env = json.loads(state_json)
    if committed_runs is not None:
        while env is not None and env.get("run_id") not in committed_runs:
            env = env.get("prev")
    return env


def column_values(col, name: str | None = None) -> list[Any]:
    """An Arrow column as a Python list, like ``to_pylist()`` but cheap for the common cases: an
    all-null column is ``[None] * n`` and a null-free integer/boolean column goes through numpy
    (``tolist`` gives Python ints/bools). Strings and nested values use ``to_pylist``; a
    :data:`JSON_COLUMNS` column given as text is decoded to the values ``to_pylist`` gives for the
    nested type (lists; a map as a list of ``(key, value)`` tuples); a dictionary column gives its
    values (:func:`dictionary_values`)."""
    n = len(col)
    if col.null_count == n:
        return [None] * n
    t = col.type
    if pa.types.is_dictionary(t):
        return dictionary_values(col)
    if name in JSON_COLUMNS and (pa.types.is_string(t) or pa.types.is_large_string(t)):
        loads, is_map = json.loads, JSON_COLUMNS[name]
        vals = col.to_pylist()
        if is_map:
            return [None if v is None else list(loads(v).items()) for v in vals]
        return [None if v is None else loads(v) for v in vals]
    if col.null_count == 0 and (pa.types.is_integer(t) or pa.types.is_boolean(t)):
        if isinstance(col, pa.ChunkedArray):
            col = col.combine_chunks()
        return col.to_numpy(zero_copy_only=False).tolist()
    return col.to_pylist()


def plain_strings(table):
    """``table`` with its dictionary columns decoded to their values' type."""
    for i, field in enumerate(table.schema):
        if pa.types.is_dictionary(field.type):
            table = table.set_column(i, field.name, table.column(i).cast(field.type.value_type))
    return table


def dictionary_values(col) -> list[Any]:
    """A dictionary column's values as a Python list: each chunk's dictionary converted once, then
    indexed by the codes, the speed trick beside the plain decoding ``col.cast(value type).to_pylist()``
    (:func:`plain_strings`), tested equal in ``tests/job/test_replay_udf_rules.py``."""
    out: list[Any] = []
    for chunk in col.chunks if isinstance(col, pa.ChunkedArray) else [col]:
        values = chunk.dictionary.to_pylist()
        codes = chunk.indices
        if codes.null_count:
            values.append(None)
            codes = codes.fill_null(len(values) - 1)
        out.extend(map(values.__getitem__, codes.to_numpy(zero_copy_only=False).tolist()))
    return out


def replay_group(
    cluster: str,
    group_id: str,
    batch,  # pyarrow.Table of INPUT_COLUMNS
    envelope: dict[str, Any] | None,
    settings: ReplaySettings,
    run_id: str,
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Replay one group's new events on top of ``envelope``; returns (union rows, new envelope).
    The new envelope is None when nothing was replayed (the stored state stays as it is)."""
    table, env = replay_group_table(cluster, group_id, batch, envelope, settings, run_id)
    return table.to_pylist(), env


def replay_group_table(
    cluster: str,
    group_id: str,
    batch,  # pyarrow.Table of INPUT_COLUMNS
    envelope: dict[str, Any] | None,
    settings: ReplaySettings,
    run_id: str,
    prefix: list[dict[str, list[Any]]] | None = None,
    files: list[str] | None = None,
):
    """:func:`replay_group` as (one Arrow table of the union schema, new envelope); ``prefix``:
    union column dicts to put first (e.g. an unreadable-state anomaly); ``files``: the names behind
    an integer ``source_file`` column (see :func:`replay_input`)."""
    with paused_gc():
        parts, env = replay_parts(cluster, group_id, batch, envelope, settings, run_id, files)
        return union_table([*(prefix or []), *parts]), env


def _replayed_mask(batch, last_key: tuple):
    """True for the rows at or before ``last_key`` = (ts, side rank, source file, line) in the total
    order, nulls counting as 0 / "" / 0: events an earlier run already replayed."""
    k_ts, k_rank, k_file, k_line = last_key
    ts = pc.fill_null(batch.column("ts"), 0)
    rank = pc.fill_null(batch.column("_side_rank"), UNKNOWN_SIDE_RANK)
    sf = pc.fill_null(plain_strings(batch.select(["source_file"])).column(0), "")
    ln = pc.fill_null(batch.column("line_no"), 0)

    def lit(v, t):
        return pa.scalar(v, t)

    line_le = pc.less_equal(ln, lit(k_line or 0, ln.type))
    file_part = pc.or_(pc.less(sf, lit(k_file or "", pa.string())),
                       pc.and_(pc.equal(sf, lit(k_file or "", pa.string())), line_le))  # fmt: skip
    rank_part = pc.or_(pc.less(rank, lit(k_rank, rank.type)),
                       pc.and_(pc.equal(rank, lit(k_rank, rank.type)), file_part))  # fmt: skip
    return pc.or_(pc.less(ts, lit(k_ts or 0, ts.type)),
                  pc.and_(pc.equal(ts, lit(k_ts or 0, ts.type)), rank_part))  # fmt: skip


def heartbeat_keep(batch, order: np.ndarray | None = None):
    """:func:`coordinator_core.row_rules.heartbeat_keep_mask` of a group's events (in the total order)
    as one vectorised Arrow computation: a numpy bool mask, or None when every row is kept
    (``tests/job/test_replay_udf_rules.py`` checks it equal to the core's rule on generated rows).
    ``order``: the rows are in any order and these indices sort them; the mask is then of the sorted
    rows (nothing is taken: the rule's grouping does not depend on the rows' order)."""
    n = batch.num_rows
    if n < 3:
        return None
    is_hb = pc.fill_null(pc.equal(batch.column("kind"), HEARTBEAT), False)
    if (pc.sum(is_hb).as_py() or 0) < 3:
        return None
    names = [f.name for f in batch.schema if f.name not in ("ts", "line_no")]
    key = [c for c in names if c not in NESTED_FIELDS]
    candidate = pc.and_(is_hb, pc.is_valid(batch.column("ts")))
    for name in names:
        if name in NESTED_FIELDS:
            candidate = pc.and_(candidate, pc.is_null(batch.column(name)))
    hb = np.asarray(is_hb.to_numpy(zero_copy_only=False), dtype=bool)
    cand = np.asarray(candidate.to_numpy(zero_copy_only=False), dtype=bool)
    if order is None:
        pos = np.arange(n, dtype=np.int64)
    else:  # the sorted position of each row
        hb, cand = hb[order], cand[order]
        pos = np.empty(n, dtype=np.int64)
        pos[order] = np.arange(n, dtype=np.int64)
    # the run a row belongs to: how many non-heartbeat rows come before it in the sorted rows
    run = np.cumsum(~hb)[pos]
    if int(cand.sum()) < 3:
        return None
    # a column null on every candidate row cannot tell two of them apart (left out before the
    # filter), nor can the kind (every candidate is a heartbeat)
    cand_rows = cand if order is None else cand[pos]
    key = [c for c in key if c != "kind" and batch.column(c).null_count < n and _valid(batch.column(c))[cand_rows].any()]
    keys = batch.select(key).append_column("_run", pa.array(run)).append_column("_i", pa.array(pos))
    keys = keys.filter(candidate)
    ends = keys.group_by([*key, "_run"], use_threads=False).aggregate([("_i", "min"), ("_i", "max")])
    keep = ~cand
    keep[ends.column("_i_min").to_numpy()] = True
    keep[ends.column("_i_max").to_numpy()] = True
    return None if keep.all() else keep


def _valid(col) -> np.ndarray:
    """Which rows of an Arrow column are not null, as a numpy bool array."""
    return np.asarray(pc.is_valid(col).to_numpy(zero_copy_only=False), dtype=bool)


def compact_heartbeats(batch):
    """The group's events (in the total order) without the heartbeats whose replay changes nothing
    (:func:`coordinator_core.row_rules.heartbeat_keep_mask`), left out before the rows become Python
    objects: most of a DEBUG-logging group's events. ``tests/job/test_compaction.py`` replays event
    sequences with and without this and compares every output and the snapshot."""
    keep = heartbeat_keep(batch)
    return batch if keep is None else batch.filter(pa.array(keep))


def route_rows(batch) -> list[int]:
    """:func:`coordinator_core.row_rules.route_positions` (the rows whose kind may switch the group's
    protocol) as one vectorised call (tested equal)."""
    kind = plain_strings(batch.select(["kind"])).column(0)
    hit = pc.fill_null(pc.is_in(kind, value_set=pa.array(sorted(ROUTE_KINDS), pa.string())), False)
    return np.flatnonzero(hit.to_numpy(zero_copy_only=False)).tolist()


@contextmanager
def paused_gc():
    """The cyclic garbage collector paused (its state restored after): the one speed trick of the
    replay's memory. A replay allocates many long-lived objects (rows, members, records), and the
    collector's passes over them were about a seventh of a bucket's CPU; reference counting still frees
    everything without cycles, and the collector runs again after the group. Same tables either way."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def replay_parts(
    cluster: str,
    group_id: str,
    batch,
    envelope: dict[str, Any] | None,
    settings: ReplaySettings,
    run_id: str,
    files: list[str] | None = None,
    presorted: bool = False,
    compacted: int | None = None,
) -> tuple[list[dict[str, list[Any]]], dict[str, Any] | None]:
    """The work of :func:`replay_group`: union column dicts (one per output table) and envelope.
    ``presorted``: the rows are already in :data:`EVENT_ORDER`; ``compacted``: the caller has left
    out this many heartbeats already (:func:`compact_heartbeats` of the group's rows: only for a
    group without a replayed position, whose rows :func:`_without_replayed` keeps); None: compact here."""
    if batch.num_rows == 0:
        return [], None
    batch = _in_event_order(batch, files, presorted)
    out: list[dict[str, list[Any]]] = []
    batch = _without_replayed(cluster, group_id, batch, envelope, out)
    fed = batch.num_rows + (compacted or 0)
    if compacted is None:
        batch = compact_heartbeats(batch)
    rows = list(zip(*[column_values(batch.column(name), name) for name in EVENT_FIELDS]))
    if not rows:
        return out, None
    try:
        replay = GroupHistory.resume(group_id, envelope["replay"] if envelope else None, settings)
        replay.feed_rows(rows, route_rows(batch))
        replay.count_skipped(fed - len(rows))  # the heartbeats compact_heartbeats left out count as fed
        result = replay.flush(final=False)
        snapshot = replay.snapshot()
    except Exception as exc:  # noqa: BLE001 - one group's failure must not stop the job
        tb = traceback.format_exc(limit=3).strip().splitlines()
        detail = f"{type(exc).__name__}: {exc} | {' / '.join(tb[-3:])}"[:2000]
        out.append(anomaly_columns(cluster, group_id, rows[0][TS], "replay_error", detail))
        return out, None
    for table, recs in (
        ("group_transitions", result.transitions),
        ("rebalances", result.rebalances),
        ("member_sessions", result.sessions),
        ("assignments", result.assignments),
        ("anomalies", result.anomalies),
        ("partition_skew", getattr(result, "skew", []) or []),
    ):
        if recs:
            out.append(record_columns(table, cluster, group_id, list(recs)))
    new_env = _next_envelope(envelope, snapshot, rows[-1], run_id, fed)
    state = {"state_json": envelope_json(new_env), "last_ts": new_env["last_ts"],
             "events_replayed": new_env["events"], "run_id": run_id}  # fmt: skip
    out.append(record_columns("group_state", cluster, group_id, [state]))
    return out, new_env


def _in_event_order(batch, files: list[str] | None, presorted: bool):
    """The batch sorted by :data:`EVENT_ORDER` (unless ``presorted``), file indexes named."""
    if not presorted:
        batch = batch.sort_by(EVENT_ORDER)
    if pa.types.is_integer(batch.column("source_file").type):
        if files is None:
            raise ValueError("source_file given as file indexes but no file names")
        names = pc.take(pa.array(files, pa.string()), batch.column("source_file"))
        batch = batch.set_column(batch.schema.get_field_index("source_file"), "source_file", names)
    return batch


def _without_replayed(cluster: str, group_id: str, batch, envelope: dict[str, Any] | None, out: list):
    """The batch without the events at or before the group's replayed position (an ``out_of_order``
    anomaly row in ``out`` counts them)."""
    last_key = tuple(envelope["last_key"]) if envelope and envelope.get("last_key") else None
    if last_key is None:
        return batch
    done = _replayed_mask(batch, last_key)
    skipped = pc.sum(done).as_py() or 0
    if not skipped:
        return batch
    out.append(anomaly_columns(cluster, group_id, batch.column("ts")[0].as_py(), "out_of_order",
                                f"{skipped} event(s) at or before the group's replayed position "
                                f"(ts {last_key[0]}, {last_key[2]}:{last_key[3]}) were not replayed again"))  # fmt: skip
    return batch.filter(pc.invert(done))


def _next_envelope(
    envelope: dict[str, Any] | None, snapshot: Any, last: tuple, run_id: str, fed: int
) -> dict[str, Any]:
    """The group's state after this batch: the replay's snapshot, the last replayed position, and
    the state before this run (``prev``: one level, enough to undo one uncommitted run)."""
    last_rank = side_rank(last[SIDE])
    if envelope and envelope.get("run_id") == run_id:
        prev = envelope.get("prev")  # an earlier micro-batch of this run: keep the state before the run
    else:
        prev = dict(envelope) if envelope else None
        if prev is not None:
            prev.pop("prev", None)
    return {
        "v": 1,
        "replay": snapshot,
        "last_key": [last[TS] or 0, last_rank, last[SF] or "", last[LN] or 0],
        "run_id": run_id,
        "events": (envelope or {}).get("events", 0) + fed,
        "last_ts": last[TS],
        "prev": prev,
    }


def resume_envelope(
    cluster: str, group_id: str, state_json: str | None, committed_runs: frozenset[str] | None
) -> tuple[dict[str, Any] | None, list[dict[str, list[Any]]]]:
    """(envelope to resume from, union parts to emit first): an unreadable stored state is a
    ``replay_error`` anomaly and the group starts afresh."""
    try:
        return load_envelope(state_json, committed_runs), []
    except (ValueError, TypeError) as exc:
        return None, [
            anomaly_columns(cluster, group_id, None, "replay_error", f"unreadable stored state: {exc}")
        ]


def _input_arrow(pdf):
    """A pandas frame from Spark (NaN for null numbers) as an Arrow table with proper nulls."""
    return pa.Table.from_pandas(pdf, preserve_index=False)


# ------------------------------------------------------------------------------- UDF factories


def batch_udf(
    settings: ReplaySettings, run_id: str, committed_runs: frozenset[str], files: list[str] | None = None
):
    """cogroup(events, state).applyInArrow function: (key, events table, state table) -> union table.
    ``files``: the list given to :func:`replay_input`, when it was given one."""

    def run(key, events, state):
        cluster, group_id = (
            key[0].as_py() if hasattr(key[0], "as_py") else key[0],
            (key[1].as_py() if hasattr(key[1], "as_py") else key[1]),
        )
        state_json = state.column("state_json")[0].as_py() if state.num_rows else None
        env, bad = resume_envelope(cluster, group_id, state_json, committed_runs)
        table, _ = replay_group_table(
            cluster, group_id, events, env, settings, run_id, prefix=bad, files=files
        )
        return table

    return run


#: the stream input's column that carries a group's stored ``group_state`` envelope (seed rows)
SEED_COLUMN = "seed_state"


def newer_envelope(a: dict[str, Any] | None, b: dict[str, Any] | None) -> dict[str, Any] | None:
    """The envelope that has seen more of the group's events (``a`` on a tie): the streaming state
    store's and the ``group_state`` table's may differ when batch and incremental runs share a
    lakehouse or the checkpoint was lost."""
    if a is None or b is None:
        return a if b is None else b
    return b if b.get("events", 0) > a.get("events", 0) else a


def _split_seed(batch):
    """(events without the seed rows and column, the seed envelope JSON or None)."""
    if SEED_COLUMN not in batch.column_names:
        return batch, None
    col = batch.column(SEED_COLUMN)
    seed = None
    if col.null_count < len(col):
        is_seed = pc.is_valid(col)
        seed = col.filter(is_seed)[0].as_py()
        batch = batch.filter(pc.invert(is_seed))
    return batch.drop_columns([SEED_COLUMN]), seed


def streaming_udf(settings: ReplaySettings, run_id: str, committed_runs: frozenset[str] | None = None):
    """groupBy(...).applyInPandasWithState function (GroupStateTimeout.NoTimeout): the Spark state is
    a one-column tuple holding the envelope JSON. With ``committed_runs``, a state written by a run
    not among them (a killed run) is rolled back to the envelope it resumed from; this run's own
    states (an earlier micro-batch of the same query) are kept. A seed row (:data:`SEED_COLUMN`: the
    group's ``group_state`` envelope) wins over the state store when it has seen more events."""
    valid = None if committed_runs is None else frozenset(committed_runs) | {run_id}

    def run(key, pdf_iter, state):
        cluster, group_id = key
        tables = [_input_arrow(p) for p in pdf_iter if len(p)]
        if not tables:
            yield union_table([]).to_pandas()
            return
        batch, seed = _split_seed(pa.concat_tables(tables, promote_options="permissive"))
        env = load_envelope(state.get[0], valid) if state.exists else None
        env = newer_envelope(env, load_envelope(seed, committed_runs) if seed else None)
        if batch.num_rows == 0:  # only the seed (its events come in a later micro-batch)
            if env is not None:
                state.update((envelope_json(env),))
            yield union_table([]).to_pandas()
            return
        table, new_env = replay_group_table(cluster, group_id, batch, env, settings, run_id)
        if new_env is not None:
            state.update((envelope_json(new_env),))
        out = table.to_pandas()
        yield out if len(out) else pd.DataFrame(columns=[n for n, _ in UNION_COLUMNS])

    return run
