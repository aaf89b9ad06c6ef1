"""The job's vectorised rules equal the core's: ``jobs.replay_udf.heartbeat_keep`` /
``compact_heartbeats`` and ``route_rows`` (Arrow) give what ``coordinator_core.row_rules``'s
``heartbeat_keep_mask`` and ``route_positions`` (plain Python over rows) give, on generated groups of
events (heartbeat runs broken by other kinds, unknown and missing members, other generations, rows
without a time, nested values on heartbeats, null kinds), and the job's event order is the core's."""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa

from coordinator_core.events.row import EVENT_FIELDS, ORDER_FIELDS, row_order_key, side_rank
from coordinator_core.row_rules import heartbeat_keep_mask, route_positions
from jobs.replay_udf import EVENT_ORDER, compact_heartbeats, heartbeat_keep, route_rows

_TYPES = {
    "ts": pa.int64(), "generation": pa.int64(), "coordinator": pa.int64(), "member_count": pa.int64(),
    "static_count": pa.int64(), "offsets_partition": pa.int64(), "member_epoch": pa.int64(),
    "line_no": pa.int64(), "static": pa.bool_(), "pending": pa.bool_(), "unexpected": pa.bool_(),
    "members": pa.list_(pa.string()), "partitions": pa.list_(pa.string()), "revoked": pa.list_(pa.string()),
    "assignment": pa.map_(pa.string(), pa.list_(pa.string())),
}  # fmt: skip
_KINDS = ["heartbeat_sent"] * 40 + ["joined", "rebalance_prepared", "consumer_member_joined", "group_loaded",
                                   "group_converted", "partitions_assigned", None]  # fmt: skip


def _group(rng: random.Random, n: int) -> list[tuple]:
    rows = []
    ts = 1000
    for line in range(n):
        ts += rng.choice([0, 0, 1, 250])
        kind = rng.choice(_KINDS)
        row = dict.fromkeys(EVENT_FIELDS)
        mid = rng.choice(["m1", "m1", "m1", "m2", None])
        odd = rng.random() < 0.1  # now and then a row that differs in a field a heartbeat rarely varies
        row.update(
            ts=None if rng.random() < 0.03 else ts, group_id="g", kind=kind, line_no=line, member_id=mid,
            side=rng.choice(["broker", "connect", None]) if odd else "client",
            generation=rng.choice([2, None]) if odd else 1, client_id=f"c-{mid}",
            source_file=f"{mid}.log", protocol_type=rng.choice(["consumer", "classic"]) if odd else None,
        )  # fmt: skip
        if rng.random() < 0.05:
            row["partitions"] = ["t-0"]
        rows.append(tuple(row[f] for f in EVENT_FIELDS))
    return rows


def _table(rows: list[tuple]) -> pa.Table:
    cols = {"cluster": pa.array(["c"] * len(rows)), "_side_rank": pa.array([side_rank(r[3]) for r in rows], pa.int32())}
    for i, f in enumerate(EVENT_FIELDS):
        vals = [r[i] for r in rows]
        if f == "assignment":
            vals = [None if v is None else list(v.items()) for v in vals]
        cols[f] = pa.array(vals, _TYPES.get(f, pa.string()))
    return pa.table(cols)


def test_heartbeat_compaction_and_routing_equal_the_core_rules() -> None:
    rng = random.Random(4)
    compacted = total = 0
    for _ in range(300):
        rows = _group(rng, rng.randint(0, 80))
        table = _table(rows)
        want = heartbeat_keep_mask(rows)
        got = heartbeat_keep(table)
        assert (want if not all(want) else None) == (None if got is None else got.tolist())
        kept = compact_heartbeats(table)
        assert kept.column("line_no").to_pylist() == [r[-1] for r, k in zip(rows, want, strict=True) if k]
        assert route_rows(table) == route_positions(rows)
        compacted += len(rows) - sum(want)
        total += len(rows)
    assert 0.1 * total < compacted < total  # the generated groups do exercise the compaction


def test_bucket_compaction_keeps_what_each_groups_own_compaction_keeps() -> None:
    """``jobs.bucket_replay.compact_bucket`` (one heartbeat mask over a bucket sorted by group) keeps
    of each group it compacts the rows ``heartbeat_keep`` keeps of the group alone, counts the rest
    as left out, and leaves the other groups whole; the same from the rows in any order with the
    indices that sort them."""
    from jobs.bucket_replay import compact_bucket, group_bounds

    rng = random.Random(6)
    for _ in range(40):
        groups = []
        for g in range(rng.randint(1, 6)):
            rows = [(r[0], f"g{g}", *r[2:]) for r in _group(rng, rng.randint(1, 80))]
            groups.append(_table(rows).sort_by(EVENT_ORDER))
        table = pa.concat_tables(groups)
        bounds = group_bounds(table)
        assert [n for _, n in bounds] == [t.num_rows for t in groups]
        fresh = [rng.random() < 0.7 for _ in groups]
        out, new_bounds, skipped = compact_bucket(table, bounds, fresh)
        for t, f, (o, n), left in zip(groups, fresh, new_bounds, skipped, strict=True):
            keep = heartbeat_keep(t)
            want = t if not f or keep is None else t.filter(pa.array(keep))
            assert out.slice(o, n).equals(want) and left == (t.num_rows - n if f else None)
        assert sum(s or 0 for s in skipped) == table.num_rows - out.num_rows
        perm = np.array(rng.sample(range(table.num_rows), table.num_rows), dtype=np.int64)
        unsorted = compact_bucket(table.take(pa.array(perm)), bounds, fresh, order=np.argsort(perm))
        assert unsorted[0].equals(out) and unsorted[1:] == (new_bounds, skipped)


def test_heartbeat_keep_mask_values() -> None:
    hb = {"kind": "heartbeat_sent", "member_id": "m1", "generation": 1, "group_id": "g"}

    def row(ts, **kw):
        d = dict.fromkeys(EVENT_FIELDS)
        d.update(hb, ts=ts, **kw)
        return tuple(d[f] for f in EVENT_FIELDS)

    rows = [row(1), row(2), row(3), row(4), row(5, generation=2), row(6), row(7, kind="joined"), row(8), row(9)]
    # run 1: m1/gen1 at 1,2,3,4,6 -> first (1) and last (6) kept; gen 2 alone kept; run 2 (8, 9) kept
    assert heartbeat_keep_mask(rows) == [True, False, False, False, True, True, True, True, True]
    assert heartbeat_keep_mask([row(None), row(None), row(None)]) == [True, True, True]


def test_event_order_is_the_cores() -> None:
    assert [c for c, _ in EVENT_ORDER] == ["_side_rank" if f == "side" else f for f in ORDER_FIELDS]
    rng = random.Random(5)
    rows = [r for r in _group(rng, 200) if r[0] is not None]
    table = _table(rows).sort_by(EVENT_ORDER)
    got = list(zip(table["ts"].to_pylist(), table["source_file"].to_pylist(), table["line_no"].to_pylist(), strict=True))
    want = [(r[0], r[-2], r[-1]) for r in sorted(rows, key=row_order_key)]
    assert got == want


def _sample_event_files(tmp_path) -> list[str]:
    """One events file per bundled sample log (a dictionary per file, as one per ingestion task)."""
    import os

    import pyarrow.parquet as pq

    from jobs.ingest.parse import parse_bytes

    logs = os.path.join(os.path.dirname(__file__), "..", "..", "jobs", "samples", "logs")
    paths = sorted(os.path.join(r, f) for r, _, fs in os.walk(logs) for f in fs)
    files = []
    for i, p in enumerate(paths):
        with open(p, "rb") as fh:
            ev = parse_bytes(fh.read(), p, "c")[0]
        if ev.num_rows:
            files.append(str(tmp_path / f"e{i}.parquet"))
            pq.write_table(ev, files[-1])
    assert len(files) > 2
    return files


def test_bucket_replay_reads_strings_as_dictionaries_and_compacts_once_with_the_same_tables(tmp_path) -> None:
    """A bucket replay reads its string columns as dictionaries (one per task file) and leaves the
    heartbeats out once over the whole bucket (``jobs.bucket_replay.compact_bucket``): its union
    table equals the plain read's with each group compacted on its own, for a first run and for a
    run resumed from the first's states (events at or before a group's replayed position are
    counted, not replayed again; such groups are compacted on their own)."""
    import itertools

    import pyarrow.parquet as pq

    from coordinator_core.replay.settings import ReplaySettings
    from jobs.bucket_replay import replay_bucket
    from jobs.replay_udf import split_union_arrow

    files = _sample_event_files(tmp_path)
    ways = list(itertools.product((True, False), ("bucket", "group")))
    first = [replay_bucket(files[:-1], [], ReplaySettings(), "r1", None, dictionary=d, compact=c) for d, c in ways]
    assert first[0].num_rows > 50 and all(first[0].equals(t) for t in first[1:])
    states = split_union_arrow(first[0], "group_state").select(["cluster", "group_id", "state_json"])
    pq.write_table(states, str(tmp_path / "s.parquet"))
    again = [replay_bucket(files, [str(tmp_path / "s.parquet")], ReplaySettings(), "r2", None, dictionary=d,
                           compact=c) for d, c in ways]  # fmt: skip
    assert "out_of_order" in split_union_arrow(again[0], "anomalies")["kind"].to_pylist()
    assert again[0].num_rows > 0 and all(again[0].equals(t) for t in again[1:])


def test_dictionary_values_equal_the_plain_decoding() -> None:
    """``jobs.replay_udf.dictionary_values`` (each chunk's dictionary converted once, indexed by the
    codes) gives what decoding the column and ``to_pylist`` give: chunked, with nulls, empty."""
    from jobs.replay_udf import dictionary_values

    rng = random.Random(3)
    for n in (0, 1, 7, 200):
        vals = [rng.choice(["a", "bb", None, "a", "c"]) for _ in range(n)]
        halves = (vals[: n // 2], vals[n // 2 :])
        col = pa.chunked_array([pa.array(h, pa.string()).dictionary_encode() for h in halves])
        assert dictionary_values(col) == col.cast(pa.string()).to_pylist() == vals
        assert dictionary_values(col.chunk(1)) == vals[n // 2 :]


def test_paused_gc_replays_the_same_tables_and_restores_the_collector(tmp_path, monkeypatch) -> None:
    """A bucket replay with the cyclic collector paused (:func:`jobs.replay_udf.paused_gc`) gives the
    same union table as with the collector running; the collector's state is restored after it
    (enabled stays enabled, disabled stays disabled), also when the body raises."""
    import contextlib
    import gc

    import jobs.bucket_replay as br
    import jobs.replay_udf as ru
    from coordinator_core.replay.settings import ReplaySettings

    files = _sample_event_files(tmp_path)
    paused = br.replay_bucket(files, [], ReplaySettings(), "r1", None)
    monkeypatch.setattr(br, "paused_gc", contextlib.nullcontext)
    plain = br.replay_bucket(files, [], ReplaySettings(), "r1", None)
    assert paused.num_rows > 50 and paused.equals(plain)
    monkeypatch.undo()
    was = gc.isenabled()
    try:
        gc.enable()
        with ru.paused_gc():
            assert not gc.isenabled()
        assert gc.isenabled()
        gc.disable()
        with contextlib.suppress(RuntimeError), ru.paused_gc():
            raise RuntimeError
        assert not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_merge_dedupe_keeps_the_last_row_of_each_key_like_the_plain_way() -> None:
    """The driver merge's de-duplication (``jobs.sink_delta._dedupe_arrow``, one Arrow aggregation)
    keeps the rows the plain dictionary of keys keeps (nulls equal, the last row of a key), on
    generated tables with repeated and null keys of several types."""
    import random

    from jobs.sink_delta import _dedupe_arrow, _dedupe_arrow_plain

    rng = random.Random(7)
    for n in (0, 1, 2, 5, 40, 300):
        t = pa.table({
            "g": pa.array([rng.choice(["a", "b", None]) for _ in range(n)], pa.string()),
            "ts": pa.array([rng.choice([1, 2, None]) for _ in range(n)], pa.timestamp("ms", tz="UTC")),
            "k": pa.array([rng.choice([0, 7, None]) for _ in range(n)], pa.int32()),
            "v": pa.array(list(range(n)), pa.int64()),
        })  # fmt: skip
        for keys in (["g"], ["g", "ts", "k"], ["v"]):
            got, want = _dedupe_arrow(t, keys), _dedupe_arrow_plain(t, keys)
            assert got.equals(want), (n, keys)
    assert _dedupe_arrow(pa.table({"g": ["a", "a", "b"], "v": [1, 2, 3]}), ["g"])["v"].to_pylist() == [2, 3]

