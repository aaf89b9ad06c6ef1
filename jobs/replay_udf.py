"""Replay every consumer group inside Spark: one :class:`coordinator_core.replay.GroupReplay` per
(``cluster``, ``group_id``), mapGroupsWithState style.

The pandas/Arrow UDFs here receive all new events of one group (any order), sort them by the total
order (ts, broker before client, source_file, line_no), resume the group from its previous state,
replay, and return every output record of the group in ONE long "union" frame: a ``_table``
discriminator column plus the union of the replay tables' columns (timestamps as epoch-ms longs).
:func:`split_union` turns it into the tables, so the UDF runs once per group, not once per table.

State travels as an *envelope* (the ``state_json`` column of ``group_state``)::

    {"v": 1, "replay": <GroupReplay.snapshot()>, "last_key": [ts, side, file, line],
     "run_id": "...", "events": n, "last_ts": ms, "prev": <the envelope before this run>}

``prev`` makes a crashed run harmless: a state written by a run that never committed (its run id is
not in ``ingest_audit``) is ignored and the group resumes from ``prev``.  ``last_key`` guards against
feeding an event twice: events at or before it are skipped and reported as one ``out_of_order``
anomaly.  A failure inside one group's replay becomes a ``replay_error`` anomaly; the job goes on.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Iterable, Iterator
from dataclasses import asdict, fields, is_dataclass
from typing import Any

from coordinator_core.events import EVENT_FIELDS, SIDE_ORDER
from jobs import schemas

#: replay tables written from the union frame, in write order (group_state last)
REPLAY_TABLES: tuple[str, ...] = (
    "group_transitions",
    "rebalances",
    "member_sessions",
    "assignments",
    "anomalies",
    "partition_skew",
    "group_state",
)

#: merge keys of each replay table (upserts make re-runs replace, never duplicate)
MERGE_KEYS: dict[str, list[str]] = {
    "group_transitions": ["cluster", "group_id", "ts", "from_state", "to_state", "generation", "trigger",
                          "source_file", "line_no"],
    "rebalances": ["cluster", "group_id", "rebalance_id"],
    "member_sessions": ["cluster", "group_id", "member_id", "joined_ts"],
    "assignments": ["cluster", "group_id", "generation", "member_id", "topic", "source"],
    "anomalies": ["cluster", "group_id", "ts", "kind", "event_kind", "source_file", "line_no", "detail"],
    "partition_skew": ["cluster", "group_id", "generation", "topic"],
    "group_state": ["cluster", "group_id"],
}  # fmt: skip

#: columns fed to the UDF: the group key, the side rank for ordering, then EVENT_FIELDS (ts = ts_ms)
INPUT_COLUMNS: tuple[str, ...] = ("cluster", "_side_rank", *EVENT_FIELDS)

TABLE_COL = "_table"


def _union_layout() -> tuple[list[tuple[str, Any]], dict[tuple[str, str], str]]:
    """Union columns ``[(name, spark type)]`` and ``{(table, column): union column}``.

    Timestamp columns become epoch-ms longs; a column whose type differs between tables gets a
    ``<table>__`` prefix."""
    from pyspark.sql.types import LongType, StringType, TimestampType

    cols: dict[str, Any] = {TABLE_COL: StringType(), "cluster": StringType(), "group_id": StringType()}
    mapping: dict[tuple[str, str], str] = {}
    for table in REPLAY_TABLES:
        for f in schemas.TABLES.get(table, schemas.GROUP_STATE).fields:
            typ = LongType() if isinstance(f.dataType, TimestampType) else f.dataType
            name = f.name
            if name in cols and cols[name] != typ:
                name = f"{table}__{f.name}"
            cols.setdefault(name, typ)
            mapping[(table, f.name)] = name
    return list(cols.items()), mapping


UNION_COLUMNS, UNION_MAP = _union_layout()


def union_schema():
    from pyspark.sql.types import StructField, StructType

    return StructType([StructField(n, t, True) for n, t in UNION_COLUMNS])


def _union_arrow_schema():
    from pyspark.sql.pandas.types import to_arrow_schema

    return to_arrow_schema(union_schema(), timezone="UTC")


# ------------------------------------------------------------------------------- Spark side


def replay_input(events_df):
    """The events as the UDFs want them: group key, side rank, EVENT_FIELDS with ``ts`` in epoch ms.
    Events without a group id cannot be replayed (they stay in the events table)."""
    from pyspark.sql import functions as F

    rank = F.lit(9)
    for side, r in sorted(SIDE_ORDER.items(), key=lambda kv: -kv[1]):
        rank = F.when(F.col("side") == side, F.lit(r)).otherwise(rank)
    cols = [F.col("cluster"), rank.cast("int").alias("_side_rank")]
    for name in EVENT_FIELDS:
        cols.append(F.col("ts_ms").alias("ts") if name == "ts" else F.col(name))
    return events_df.where(F.col("group_id").isNotNull()).select(cols)


def split_union(union_df, table: str):
    """Rows of ``table`` from the union frame, with the table's exact schema."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import TimestampType

    schema = schemas.TABLES.get(table, schemas.GROUP_STATE)
    out = []
    for f in schema.fields:
        c = F.col(UNION_MAP[(table, f.name)])
        c = F.timestamp_millis(c) if isinstance(f.dataType, TimestampType) else c.cast(f.dataType)
        out.append(c.alias(f.name))
    return union_df.where(F.col(TABLE_COL) == table).select(out)


# ------------------------------------------------------------------------------- per group


def _settings(options: dict[str, Any]):
    from coordinator_core.replay import ReplaySettings

    known = {f.name for f in fields(ReplaySettings)} if is_dataclass(ReplaySettings) else set(options)
    return ReplaySettings(**{k: v for k, v in options.items() if k in known and v is not None})


def load_envelope(state_json: str | None, committed_runs: frozenset[str] | None) -> dict[str, Any] | None:
    """The envelope to resume from: ``prev`` when the stored one was written by an uncommitted run."""
    if not state_json:
        return None
    env = json.loads(state_json)
    if committed_runs is not None:
        while env is not None and env.get("run_id") not in committed_runs:
            env = env.get("prev")
    return env


def _record_rows(table: str, cluster: str, group_id: str, records: Iterable[Any]) -> Iterator[dict[str, Any]]:
    for rec in records:
        d = asdict(rec) if is_dataclass(rec) else dict(rec)
        row = {TABLE_COL: table, "cluster": cluster, "group_id": d.get("group_id", group_id)}
        for k, v in d.items():
            col = UNION_MAP.get((table, k))
            if col is None or k in ("cluster", "group_id"):
                continue
            row[col] = list(v) if isinstance(v, tuple) else v
        yield row


def _anomaly(cluster: str, group_id: str, ts: int | None, kind: str, detail: str) -> dict[str, Any]:
    return next(_record_rows("anomalies", cluster, group_id, [{"ts": ts, "kind": kind, "detail": detail}]))


def replay_group(
    cluster: str,
    group_id: str,
    batch,  # pyarrow.Table of INPUT_COLUMNS
    envelope: dict[str, Any] | None,
    options: dict[str, Any],
    run_id: str,
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """Replay one group's new events on top of ``envelope``; returns (union rows, new envelope).
    The new envelope is None when nothing was replayed (the stored state stays as it is)."""
    if batch.num_rows == 0:
        return [], None
    batch = batch.sort_by([("ts", "ascending"), ("_side_rank", "ascending"), ("source_file", "ascending"),
                           ("line_no", "ascending")])  # fmt: skip
    cols = [batch.column(name).to_pylist() for name in EVENT_FIELDS]
    ranks = batch.column("_side_rank").to_pylist()
    i_ts, i_file, i_line = (
        EVENT_FIELDS.index("ts"),
        EVENT_FIELDS.index("source_file"),
        EVENT_FIELDS.index("line_no"),
    )
    rows = list(zip(*cols))
    out: list[dict[str, Any]] = []
    last_key = tuple(envelope["last_key"]) if envelope and envelope.get("last_key") else None
    if last_key is not None:
        keep, skipped = [], 0
        for row, rank in zip(rows, ranks):
            key = (row[i_ts] or 0, rank, row[i_file] or "", row[i_line] or 0)
            if key <= last_key:
                skipped += 1
            else:
                keep.append(row)
        if skipped:
            out.append(_anomaly(cluster, group_id, rows[0][i_ts], "out_of_order",
                                f"{skipped} event(s) at or before the group's replayed position "
                                f"(ts {last_key[0]}, {last_key[2]}:{last_key[3]}) were not replayed again"))  # fmt: skip
        rows = keep
    if not rows:
        return out, None
    try:
        from coordinator_core.replay import GroupReplay

        replay = GroupReplay.resume(group_id, envelope["replay"] if envelope else None, _settings(options))
        replay.feed_rows(rows)
        result = replay.flush(final=False)
        snapshot = replay.snapshot()
    except Exception as exc:  # noqa: BLE001 - one group's failure must not stop the job
        tb = traceback.format_exc(limit=3).strip().splitlines()
        detail = f"{type(exc).__name__}: {exc} | {' / '.join(tb[-3:])}"[:2000]
        out.append(_anomaly(cluster, group_id, rows[0][i_ts], "replay_error", detail))
        return out, None
    for table, recs in (
        ("group_transitions", result.transitions),
        ("rebalances", result.rebalances),
        ("member_sessions", result.sessions),
        ("assignments", result.assignments),
        ("anomalies", result.anomalies),
        ("partition_skew", getattr(result, "skew", []) or []),
    ):
        out.extend(_record_rows(table, cluster, group_id, recs))
    last = rows[-1]
    last_rank = SIDE_ORDER.get(last[EVENT_FIELDS.index("side")], 9)
    prev = dict(envelope) if envelope else None
    if prev is not None:
        prev.pop("prev", None)  # keep one level: enough to undo one uncommitted run
    new_env = {
        "v": 1,
        "replay": snapshot,
        "last_key": [last[i_ts] or 0, last_rank, last[i_file] or "", last[i_line] or 0],
        "run_id": run_id,
        "events": (envelope or {}).get("events", 0) + len(rows),
        "last_ts": last[i_ts],
        "prev": prev,
    }
    state_json = json.dumps(new_env, separators=(",", ":"), default=str)
    out.extend(
        _record_rows(
            "group_state",
            cluster,
            group_id,
            [
                {
                    "state_json": state_json,
                    "last_ts": last[i_ts],
                    "events_replayed": new_env["events"],
                    "run_id": run_id,
                }
            ],
        )  # fmt: skip
    )
    return out, new_env


def _to_arrow(rows: list[dict[str, Any]]):
    import pyarrow as pa

    return pa.Table.from_pylist(rows, schema=_union_arrow_schema())


def _input_arrow(pdf):
    """A pandas frame from Spark (NaN for null numbers) as an Arrow table with proper nulls."""
    import pyarrow as pa

    return pa.Table.from_pandas(pdf, preserve_index=False)


# ------------------------------------------------------------------------------- UDF factories


def batch_udf(options: dict[str, Any], run_id: str, committed_runs: frozenset[str]):
    """cogroup(events, state).applyInArrow function: (key, events table, state table) -> union table."""

    def run(key, events, state):
        cluster, group_id = (
            key[0].as_py() if hasattr(key[0], "as_py") else key[0],
            (key[1].as_py() if hasattr(key[1], "as_py") else key[1]),
        )
        state_json = state.column("state_json")[0].as_py() if state.num_rows else None
        try:
            env = load_envelope(state_json, committed_runs)
        except (ValueError, TypeError) as exc:
            env = None
            bad = [_anomaly(cluster, group_id, None, "replay_error", f"unreadable stored state: {exc}")]
        else:
            bad = []
        rows, _ = replay_group(cluster, group_id, events, env, options, run_id)
        return _to_arrow(bad + rows)

    return run


def batch_udf_pandas(options: dict[str, Any], run_id: str, committed_runs: frozenset[str]):
    """The same for cogroup(...).applyInPandas (Spark without applyInArrow)."""
    inner = batch_udf(options, run_id, committed_runs)

    def run(key, events_pdf, state_pdf):
        return inner(key, _input_arrow(events_pdf), _input_arrow(state_pdf)).to_pandas()

    return run


def streaming_udf(options: dict[str, Any], run_id: str):
    """groupBy(...).applyInPandasWithState function (GroupStateTimeout.NoTimeout): the Spark state is
    a one-column tuple holding the envelope JSON."""

    def run(key, pdf_iter, state):
        import pandas as pd
        import pyarrow as pa

        cluster, group_id = key
        tables = [_input_arrow(p) for p in pdf_iter if len(p)]
        if not tables:
            yield _to_arrow([]).to_pandas()
            return
        batch = pa.concat_tables(tables, promote_options="permissive")
        env = json.loads(state.get[0]) if state.exists else None
        rows, new_env = replay_group(cluster, group_id, batch, env, options, run_id)
        if new_env is not None:
            state.update((json.dumps(new_env, separators=(",", ":"), default=str),))
        out = _to_arrow(rows).to_pandas()
        yield out if len(out) else pd.DataFrame(columns=[n for n, _ in UNION_COLUMNS])

    return run
