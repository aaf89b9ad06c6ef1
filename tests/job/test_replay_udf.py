"""The per-group replay wrapper (no Spark): envelopes, skipped events, replay errors, union layout."""

from __future__ import annotations

import json

import pyarrow as pa
import pytest

from coordinator_core.events import EVENT_FIELDS
from coordinator_core.replay import ReplaySettings
from jobs import replay_udf, schemas
from jobs.replay_udf import UNION_MAP, load_envelope, replay_group

SETTINGS = ReplaySettings()


def _batch(events):
    cols = {name: [] for name in ("cluster", "_side_rank", *EVENT_FIELDS)}
    for e in events:
        for k in cols:
            cols[k].append(e.get(k, 0 if k == "_side_rank" else None))
    cols["cluster"] = ["c"] * len(events)
    return pa.table(cols)


def _broker(ts, kind, line, **kw):
    return {"ts": ts, "group_id": "g", "kind": kind, "side": "broker", "coordinator": 1, "source_file": "b.log",
            "line_no": line, **kw}  # fmt: skip


EVENTS = [
    _broker(
        1000, "rebalance_prepared", 1, generation=0, reason="Adding new member m1 with group instance id None"
    ),
    _broker(4000, "join_completed", 2, generation=1, member_count=1),
    _broker(4010, "assignment_received", 3, generation=1, member_id="m1", member_count=1, static_count=0),
]


def _tables(rows):
    out = {}
    for r in rows:
        out.setdefault(r["_table"], []).append(r)
    return out


def test_replay_group_outputs_rows_and_envelope():
    rows, env = replay_group("c", "g", _batch(EVENTS), None, SETTINGS, "run1")
    t = _tables(rows)
    assert [r["outcome"] for r in t["rebalances"]] == ["completed"]
    assert t["rebalances"][0]["cluster"] == "c" and t["rebalances"][0]["new_generation"] == 1
    assert env["run_id"] == "run1" and env["events"] == 3 and env["last_key"] == [4010, 0, "b.log", 3]
    state = t["group_state"][0]
    assert json.loads(state["state_json"])["replay"] == env["replay"]
    assert state["events_replayed"] == 3


def test_events_already_replayed_are_skipped_with_an_anomaly():
    _, env = replay_group("c", "g", _batch(EVENTS[:2]), None, SETTINGS, "run1")
    rows, env2 = replay_group("c", "g", _batch(EVENTS), env, SETTINGS, "run2")
    t = _tables(rows)
    skipped = [a for a in t["anomalies"] if a["kind"] == "out_of_order"]
    assert len(skipped) == 1 and skipped[0]["detail"].startswith("2 event(s) at or before")
    assert env2["events"] == 3 and env2["prev"]["run_id"] == "run1"
    assert [r["outcome"] for r in t["rebalances"]] == ["completed"]


def test_uncommitted_state_falls_back_to_prev():
    _, env1 = replay_group("c", "g", _batch(EVENTS[:1]), None, SETTINGS, "run1")
    _, env2 = replay_group("c", "g", _batch(EVENTS[1:]), env1, SETTINGS, "run2")
    stored = json.dumps(env2)
    assert load_envelope(stored, frozenset({"run1", "run2"}))["run_id"] == "run2"
    assert load_envelope(stored, frozenset({"run1"}))["run_id"] == "run1"
    assert load_envelope(stored, frozenset()) is None
    assert load_envelope(None, frozenset()) is None


def test_replay_failure_becomes_a_replay_error_anomaly(monkeypatch):
    from coordinator_core import replay

    def boom(self, rows):
        raise RuntimeError("model exploded")

    monkeypatch.setattr(replay.GroupReplay, "feed_rows", boom)
    rows, env = replay_group("c", "g", _batch(EVENTS), None, SETTINGS, "run1")
    assert env is None
    assert [(r["_table"], r["kind"]) for r in rows] == [("anomalies", "replay_error")]
    assert "RuntimeError: model exploded" in rows[0]["detail"]
    assert rows[0]["ts"] == 1000


def test_union_layout_covers_every_replay_table():
    for table in replay_udf.REPLAY_TABLES:
        for f in schemas.TABLES.get(table, schemas.GROUP_STATE).fields:
            assert (table, f.name) in UNION_MAP
    # the two 'partitions' columns have different types and must not share a union column
    assert UNION_MAP[("assignments", "partitions")] != UNION_MAP[("partition_skew", "partitions")]


@pytest.mark.spark
def test_split_union_gives_exact_schemas(spark):
    df = spark.createDataFrame([], replay_udf.union_schema())
    for table in replay_udf.REPLAY_TABLES:
        got = replay_udf.split_union(df, table).schema
        assert [(f.name, f.dataType) for f in got.fields] == [
            (f.name, f.dataType) for f in schemas.TABLES.get(table, schemas.GROUP_STATE).fields]  # fmt: skip


def test_file_indexes_replay_like_file_names():
    """A batch whose ``source_file`` holds indexes into the sorted file list replays to the same rows
    as the batch with the names (the shuffle-saving form of :func:`replay_input`)."""
    events = [*EVENTS, _broker(4010, "heartbeat_sent", 1, generation=1, member_id="m1", source_file="a.log")]
    files = sorted({e["source_file"] for e in events})
    named = replay_udf.replay_group_table("c", "g", _batch(events), None, SETTINGS, "r1")[0]
    idx = _batch(events)
    col = pa.array([files.index(v) for v in idx.column("source_file").to_pylist()], pa.int32())
    idx = idx.set_column(idx.column_names.index("source_file"), "source_file", col)
    indexed = replay_udf.replay_group_table("c", "g", idx, None, SETTINGS, "r1", files=files)[0]
    assert indexed.equals(named)
    with pytest.raises(ValueError, match="file names"):
        replay_udf.replay_group_table("c", "g", idx, None, SETTINGS, "r1")


@pytest.mark.spark
def test_replay_input_sends_file_indexes_in_name_order(spark):
    rows = [{**dict.fromkeys(schemas.EVENTS.fieldNames()), "cluster": "c", "group_id": "g", "kind": "heartbeat_sent",
             "side": "client", "ts_ms": 1, "source_file": f, "line_no": 1} for f in ("/b/x.log", "/a/y.log", "/c.log")]  # fmt: skip
    df = spark.createDataFrame(rows, schemas.EVENTS)
    files = sorted(r["source_file"] for r in rows)
    got = replay_udf.replay_input(df, files).select("source_file").collect()
    assert sorted(r.source_file for r in got) == [0, 1, 2]
    assert replay_udf.replay_input(df, files).columns == replay_udf.replay_input(df).columns


class _FakeGroupState:
    """The part of PySpark's GroupState the streaming function uses."""

    def __init__(self, state_json=None):
        self.value = (state_json,) if state_json is not None else None

    @property
    def exists(self):
        return self.value is not None

    @property
    def get(self):
        return self.value

    def update(self, value):
        self.value = value


def _stream_call(state, run_id, committed, events):
    fn = replay_udf.streaming_udf(SETTINGS, run_id, committed)
    out = pa.concat_tables([pa.Table.from_pandas(p, preserve_index=False) for p in
                            fn(("c", "g"), iter([_batch(events).to_pandas()]), state)])  # fmt: skip
    return out, json.loads(state.value[0])


def test_streaming_state_of_a_killed_run_is_rolled_back():
    """The stream's state store kept the state of a run that never committed: the next run resumes
    from the state before it and replays its events again, without an out_of_order anomaly."""
    _, env1 = replay_group("c", "g", _batch(EVENTS[:1]), None, SETTINGS, "run1")
    _, killed = replay_group("c", "g", _batch(EVENTS[1:]), env1, SETTINGS, "killed")
    state = _FakeGroupState(json.dumps(killed))
    out, env = _stream_call(state, "rerun", frozenset({"run1"}), EVENTS[1:])
    kinds = out.column("kind").to_pylist()
    assert "out_of_order" not in kinds
    assert env["run_id"] == "rerun" and env["prev"]["run_id"] == "run1" and env["events"] == 3
    tables = out.column("_table").to_pylist()
    assert tables.count("rebalances") == 1
    # without the committed runs (the old behaviour) the killed run's events count as replayed
    out_old, _ = _stream_call(_FakeGroupState(json.dumps(killed)), "rerun", None, EVENTS[1:])
    assert "out_of_order" in out_old.column("kind").to_pylist()


def test_streaming_state_of_this_run_is_kept_across_micro_batches():
    state = _FakeGroupState()
    _, env1 = replay_group("c", "g", _batch(EVENTS[:1]), None, SETTINGS, "run1")
    state = _FakeGroupState(json.dumps(env1))
    _stream_call(state, "run2", frozenset({"run1"}), EVENTS[1:2])  # micro-batch 0 of run2
    out, env = _stream_call(state, "run2", frozenset({"run1"}), EVENTS[2:])  # micro-batch 1 of run2
    assert env["events"] == 3 and env["run_id"] == "run2"
    assert "out_of_order" not in out.column("kind").to_pylist()
    # the state before the run stays the one to roll back to, however many micro-batches it had
    assert env["prev"]["run_id"] == "run1" and env["prev"]["events"] == 1
    assert load_envelope(json.dumps(env), frozenset({"run1"}))["run_id"] == "run1"


def _with_seed(events, seed_json):
    typed = _batch(EVENTS).schema  # an empty batch would have null-typed columns
    t = _batch(events).cast(typed) if events else typed.empty_table()
    t = t.append_column(replay_udf.SEED_COLUMN, pa.array([None] * len(events), pa.string()))
    seed = {name: [None] for name in t.column_names}
    seed.update(cluster=["c"], group_id=["g"], _side_rank=[None], **{replay_udf.SEED_COLUMN: [seed_json]})
    return pa.concat_tables([t, pa.table(seed, schema=t.schema)])


def _stream_rows(state, run_id, committed, table):
    fn = replay_udf.streaming_udf(SETTINGS, run_id, committed)
    parts = [
        pa.Table.from_pandas(p, preserve_index=False)
        for p in fn(("c", "g"), iter([table.to_pandas()]), state)
    ]
    return pa.concat_tables(parts) if parts else None


def test_newer_envelope_prefers_the_one_that_saw_more_events():
    a, b = {"events": 3, "run_id": "x"}, {"events": 5, "run_id": "y"}
    assert replay_udf.newer_envelope(a, b) is b and replay_udf.newer_envelope(b, a) is b
    assert replay_udf.newer_envelope(a, dict(a, run_id="z")) is a  # a tie keeps the state store's
    assert replay_udf.newer_envelope(None, b) is b and replay_udf.newer_envelope(a, None) is a
    assert replay_udf.newer_envelope(None, None) is None


def test_stream_resumes_from_the_seed_when_the_state_store_is_empty_or_behind():
    _, env1 = replay_group("c", "g", _batch(EVENTS[:1]), None, SETTINGS, "run1")
    _, env2 = replay_group("c", "g", _batch(EVENTS[1:2]), env1, SETTINGS, "run2")  # a batch run in between
    for store in (None, json.dumps(env1)):  # lost checkpoint / a state store one run behind
        state = _FakeGroupState(store)
        out = _stream_rows(
            state, "run3", frozenset({"run1", "run2"}), _with_seed(EVENTS[2:], json.dumps(env2))
        )
        env = json.loads(state.value[0])
        assert env["events"] == 3 and env["prev"]["run_id"] == "run2"
        assert "out_of_order" not in out.column("kind").to_pylist()
        assert out.column("_table").to_pylist().count("rebalances") == 1
    # a seed written by a run that never committed falls back to its prev, like group_state reads
    state = _FakeGroupState(None)
    _stream_rows(state, "run3", frozenset({"run1"}), _with_seed(EVENTS[1:], json.dumps(env2)))
    assert json.loads(state.value[0])["prev"]["run_id"] == "run1"


def test_stream_seed_alone_only_primes_the_state():
    _, env1 = replay_group("c", "g", _batch(EVENTS[:1]), None, SETTINGS, "run1")
    state = _FakeGroupState(None)
    out = _stream_rows(state, "run2", frozenset({"run1"}), _with_seed([], json.dumps(env1)))
    assert out.num_rows == 0 and json.loads(state.value[0])["run_id"] == "run1"
