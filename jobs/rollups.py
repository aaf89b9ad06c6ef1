"""Roll-ups of the whole ``rebalances`` table: ``storms`` and ``rebalance_frequency``.

They are recomputed from the whole rebalances table on every run and overwritten, so a run split
over two days gives the same roll-ups as one run over both. The rebalances table holds one small row
per rebalance, so each Kafka cluster's rows are rolled up in one vectorised call (``groupBy("cluster")
.applyInArrow``, numpy inside): one shuffle per roll-up instead of the ~15 shuffle stages the same
definitions take as Spark window functions (whose fixed cost dominated small and medium runs).

Definitions:

* A rebalance occupies ``[start, end]`` with ``start = coalesce(start_ts, end_ts)`` and
  ``end = coalesce(end_ts, start + duration_ms, start)`` (open rebalances end where the logs end).
* **Storm**: an episode of at least ``N = storms.min_rebalances`` rebalances of one group within
  ``W = storms.window_minutes`` minutes.  A rebalance is *stormy* when some window ``[t, t+W]`` that
  contains its start holds >= N rebalance starts; consecutive stormy rebalances at most W apart
  form one episode.  ``dominant_cause`` is the most frequent cause (ties: alphabetical; no cause:
  ``unknown``), ``culprit_members`` the distinct culprit member ids, ``paused_ms`` the sum of
  durations, ``coordinator_broker`` the most frequent coordinator (ties: the lowest id),
  ``concurrent_groups`` the other groups of the same cluster whose storms on the same coordinator
  overlap in time, and ``coordinator_wide`` is true when there is at least one such group (a
  broker-side cause is likely). ``protocol_types`` lists the protocols of its rebalances (a group
  converted during a storm has both); ``paused_partition_ms`` sums the partition-time paused of
  the rebalances that know it (consumer-protocol rebalances: only revoked partitions stop), null
  when none does.
* **Frequency**: per group and hour / day window (UTC): rebalances, completed and open started in the
  window, their join rounds, ``paused_ms`` = the time of all rebalances clipped to the window, and
  ``storm`` = the window overlaps a storm of the group.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql import DataFrame

from jobs import schemas

#: the rebalances columns the roll-ups read
INPUT_COLUMNS = (
    "cluster", "group_id", "start_ts", "end_ts", "duration_ms", "outcome", "join_rounds", "cause",
    "culprit_member_id", "coordinator_broker", "protocol_type", "paused_partition_ms",
)  # fmt: skip
STORMS_ARROW = schemas.ARROW["storms"]
FREQUENCY_ARROW = schemas.ARROW["rebalance_frequency"]
GRANULARITIES = (("hour", 3_600_000), ("day", 86_400_000))
_NULL = np.iinfo(np.int64).min


def _ms(col: pa.ChunkedArray | pa.Array) -> np.ndarray:
    """Timestamp / integer column → int64 milliseconds, nulls as ``_NULL``."""
    v = np.asarray(col.cast(pa.int64()).fill_null(_NULL).to_numpy(zero_copy_only=False), np.int64)
    if not pa.types.is_timestamp(col.type) or col.type.unit == "ms":
        return v
    unit = col.type.unit
    out = v * 1000 if unit == "s" else v // (1000 if unit == "us" else 1_000_000)
    out[v == _NULL] = _NULL
    return out


def _intervals(t: pa.Table) -> dict[str, Any]:
    """Columns of the rebalances with a start, as numpy arrays sorted by (group_id, start)."""
    start, end, dur = _ms(t["start_ts"]), _ms(t["end_ts"]), _ms(t["duration_ms"])
    s = np.where(start != _NULL, start, end)
    e = np.where(end != _NULL, end, np.where((s != _NULL) & (dur != _NULL), s + dur, s))
    e = np.maximum(e, s)
    keep = s != _NULL
    cols = {
        "group_id": np.asarray(t["group_id"].to_pylist(), dtype=object)[keep],
        "s": s[keep],
        "e": e[keep],
        "dur": np.where(dur == _NULL, 0, dur)[keep],
        "outcome": np.asarray(t["outcome"].to_pylist(), dtype=object)[keep],
        "rounds": np.where((r := _ms(t["join_rounds"])) == _NULL, 0, r)[keep],
        "cause": np.asarray(t["cause"].to_pylist(), dtype=object)[keep],
        "culprit": np.asarray(t["culprit_member_id"].to_pylist(), dtype=object)[keep],
        "coord": _ms(t["coordinator_broker"])[keep],
        "ptype": np.asarray(t["protocol_type"].to_pylist(), dtype=object)[keep],
        "ppart": _ms(t["paused_partition_ms"])[keep],
    }
    order = np.lexsort((cols["s"], cols["group_id"].astype(str)))
    return {k: v[order] for k, v in cols.items()}


def _groups(group_ids: np.ndarray) -> list[tuple[str, int, int]]:
    """(group_id, first, end) slices of the rows of each group (rows sorted by group)."""
    if not len(group_ids):
        return []
    g = group_ids.astype(str)
    cuts = np.nonzero(g[1:] != g[:-1])[0] + 1
    bounds = [0, *cuts.tolist(), len(g)]
    return [(group_ids[a], a, b) for a, b in zip(bounds[:-1], bounds[1:])]


def _episodes(s: np.ndarray, n: int, w_ms: int) -> list[np.ndarray]:
    """Row indexes (into the sorted starts ``s`` of one group) of each storm episode."""
    right = np.searchsorted(s, s + w_ms, side="right")
    left = np.searchsorted(s, s, side="left")
    dense = (right - left) >= n  # the window [s_i, s_i + W] holds >= n starts
    acc = np.concatenate([[0], np.cumsum(dense)])
    lo = np.searchsorted(s, s - w_ms, side="left")
    hi = np.searchsorted(s, s, side="right")
    stormy = np.nonzero((acc[hi] - acc[lo]) > 0)[0]  # some dense window start in [s_i - W, s_i]
    if not len(stormy):
        return []
    gaps = np.diff(s[stormy])
    cuts = np.nonzero(gaps > w_ms)[0] + 1
    return np.split(stormy, cuts)


def _most_common(values: list[Any], key) -> Any:
    counts = Counter(values)
    return min(counts, key=lambda v: (-counts[v], key(v))) if counts else None


def _storm_rows(cluster: str, iv: dict[str, Any], n: int, w_ms: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for gid, a, b in _groups(iv["group_id"]):
        s = iv["s"][a:b]
        for ep in _episodes(s, n, w_ms):
            idx = ep + a
            causes = list(iv["cause"][idx])
            # ties alphabetical, a missing cause after every named one
            dominant = _most_common(causes, lambda c: (c is None, c or ""))
            coords = [int(c) for c in iv["coord"][idx] if c != _NULL]
            start, end = int(iv["s"][idx].min()), int(iv["e"][idx].max())
            rows.append({
                "cluster": cluster, "group_id": gid, "storm_id": f"{cluster}:{gid}:{start}",
                "start_ts": start, "end_ts": end, "rebalances": len(idx),
                "dominant_cause": dominant if dominant is not None else "unknown",
                "culprit_members": sorted({c for c in iv["culprit"][idx] if c is not None}),
                "paused_ms": int(iv["dur"][idx].sum()),
                "coordinator_broker": _most_common(coords, lambda c: c),
                "protocol_types": sorted({p or "classic" for p in iv["ptype"][idx]}),
                "paused_partition_ms": int(pp[pp != _NULL].sum()) if ((pp := iv["ppart"][idx]) != _NULL).any() else None,
            })  # fmt: skip
    for r in rows:
        r["concurrent_groups"] = sorted({
            o["group_id"] for o in rows
            if r["coordinator_broker"] is not None and o["coordinator_broker"] == r["coordinator_broker"]
            and o["group_id"] != r["group_id"] and r["start_ts"] <= o["end_ts"] and o["start_ts"] <= r["end_ts"]
        })  # fmt: skip
        r["coordinator_wide"] = bool(r["concurrent_groups"])
    return rows


def _frequency_rows(cluster: str, iv: dict[str, Any], storms: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_group: dict[str, list[tuple[int, int]]] = {}
    for st in storms:
        by_group.setdefault(st["group_id"], []).append((st["start_ts"], st["end_ts"]))
    rows: list[dict[str, Any]] = []
    for gid, a, b in _groups(iv["group_id"]):
        s, e = iv["s"][a:b], iv["e"][a:b]
        outcome, rounds = iv["outcome"][a:b], iv["rounds"][a:b]
        is_open = np.asarray([o == "open" for o in outcome])
        completed = np.asarray([o is not None and o != "open" for o in outcome])
        for name, step in GRANULARITIES:
            first, last = (s // step) * step, (e // step) * step
            counts = (last - first) // step + 1
            rep = np.repeat(np.arange(len(s)), counts)  # one row per (rebalance, window it touches)
            offs = np.arange(len(rep)) - np.repeat(np.cumsum(counts) - counts, counts)
            ws = first[rep] + offs * step
            rs, re_ = s[rep], e[rep]
            here = (rs >= ws) & (rs < ws + step)
            clipped = np.maximum(0, np.minimum(re_, ws + step) - np.maximum(rs, ws))
            windows, inv = np.unique(ws, return_inverse=True)

            def per_window(values: np.ndarray, inv: np.ndarray = inv, k: int = len(windows)) -> list[int]:
                acc = np.zeros(k, np.int64)
                np.add.at(acc, inv, values.astype(np.int64))
                return acc.tolist()

            stats = zip(
                windows.tolist(),
                per_window(here),
                per_window(here & completed[rep]),
                per_window(here & is_open[rep]),
                per_window(np.where(here, rounds[rep], 0)),
                per_window(clipped),
            )
            spans = by_group.get(gid, ())
            for w, n_here, n_done, n_open, n_rounds, paused in stats:
                rows.append({
                    "cluster": cluster, "group_id": gid, "granularity": name, "window_start": w,
                    "rebalances": n_here, "completed": n_done, "open": n_open, "join_rounds": n_rounds,
                    "paused_ms": paused, "storm": any(st < w + step and en >= w for st, en in spans),
                })  # fmt: skip
    return rows


def _table(rows: list[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    ts = [f.name for f in schema if pa.types.is_timestamp(f.type)]
    cols = {}
    for f in schema:
        vals = [r[f.name] for r in rows]
        cols[f.name] = (
            pa.array(vals, pa.int64()).cast(pa.timestamp("ms", tz="UTC")).cast(f.type)
            if f.name in ts
            else pa.array(vals, f.type)
        )
    return pa.table(cols, schema=schema)


def cluster_rollups(t: pa.Table, min_rebalances: int, window_minutes: int) -> tuple[pa.Table, pa.Table]:
    """(storms, rebalance_frequency) of one cluster's rebalances (an Arrow table of
    :data:`INPUT_COLUMNS`), as Arrow tables of the tables' schemas."""
    if not t.num_rows:
        return STORMS_ARROW.empty_table(), FREQUENCY_ARROW.empty_table()
    cluster = t["cluster"][0].as_py()
    iv = _intervals(t)
    storms = _storm_rows(cluster, iv, int(min_rebalances), int(window_minutes) * 60_000)
    return _table(storms, STORMS_ARROW), _table(_frequency_rows(cluster, iv, storms), FREQUENCY_ARROW)


def compute_arrow(rebalances: pa.Table, min_rebalances: int, window_minutes: int) -> dict[str, pa.Table]:
    """:func:`compute` on an Arrow table of the rebalances (the sink read it on the driver because
    it is small): the same per-cluster function, without a Spark job."""
    t = rebalances.select(list(INPUT_COLUMNS))
    out: dict[str, list[pa.Table]] = {"storms": [], "rebalance_frequency": []}
    for cluster in sorted(set(t["cluster"].to_pylist()), key=lambda c: (c is None, c)):
        part = t.filter(pc.is_null(t["cluster"]) if cluster is None else pc.equal(t["cluster"], cluster))
        storms, freq = cluster_rollups(part, min_rebalances, window_minutes)
        out["storms"].append(storms)
        out["rebalance_frequency"].append(freq)
    return {
        "storms": pa.concat_tables(out["storms"]) if out["storms"] else STORMS_ARROW.empty_table(),
        "rebalance_frequency": pa.concat_tables(out["rebalance_frequency"])
        if out["rebalance_frequency"]
        else FREQUENCY_ARROW.empty_table(),
    }


def compute(rebalances: DataFrame, min_rebalances: int, window_minutes: int) -> dict[str, DataFrame]:
    """Both roll-ups from the whole rebalances table: ``{"storms": ..., "rebalance_frequency": ...}``
    (one ``applyInArrow`` per cluster each; both read ``rebalances``, so cache it if it is costly)."""
    r = rebalances.select(*INPUT_COLUMNS)

    def storms_fn(t: pa.Table) -> pa.Table:
        return cluster_rollups(t, min_rebalances, window_minutes)[0]

    def frequency_fn(t: pa.Table) -> pa.Table:
        return cluster_rollups(t, min_rebalances, window_minutes)[1]

    grouped = r.groupBy("cluster")
    return {
        "storms": grouped.applyInArrow(storms_fn, schema=schemas.spark_schema("storms")),
        "rebalance_frequency": grouped.applyInArrow(frequency_fn, schema=schemas.spark_schema("rebalance_frequency")),
    }
