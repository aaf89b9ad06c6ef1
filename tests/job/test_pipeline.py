"""The whole job on the bundled sample logs (jobs/samples/EXPECTED.md) and on seed 004's scenarios:
expected rebalances, causes and culprits; schemas; idempotent re-runs; batch == incremental; split
runs == one run; a crashed run recovers."""

from __future__ import annotations

import datetime as dt
import os
import shutil

import pytest

from jobs import schemas
from jobs.pipeline import run_job
from jobs.run_context import RunContext
from jobs.sink import read_table
from tests.job.helpers import FIXTURES, REPLAY_TABLES, SAMPLE_INPUTS, job_config, rows, split_file_lines
from tests.job.util import fields_of

pytestmark = [pytest.mark.spark, pytest.mark.slow]

# (group, old gen, new gen, cause, culprit client id prefix, group_instance_id, before, after, coordinator)
EXPECTED = [
    ("orders", 0, 1, "new_member", "consumer-orders-1-", None, 0, 3, 1),
    ("orders", 1, 2, "member_leave", "consumer-orders-1-", None, 3, 2, 1),
    ("orders", 2, 3, "new_member", "consumer-orders-1-", None, 2, 3, 1),
    ("orders", 3, 4, "member_leave", "consumer-orders-2-", None, 3, 2, 1),
    ("orders", 4, 5, "new_member", "consumer-orders-2-", None, 2, 3, 1),
    ("orders", 5, 6, "member_leave", "consumer-orders-3-", None, 3, 2, 1),
    ("orders", 6, 7, "new_member", "consumer-orders-3-", None, 2, 3, 1),
    ("payments", 0, 1, "new_member", "consumer-payments-1-", None, 0, 2, 1),
    ("payments", 1, 2, "poll_timeout_leave", "consumer-payments-1-", None, 2, 1, 1),
    ("payments", 2, 3, "new_member", "consumer-payments-1-", None, 1, 2, 1),
    ("inventory", 0, 1, "new_member", "consumer-inventory-1-", None, 0, 3, 1),
    ("inventory", 1, 2, "session_timeout", "consumer-inventory-2-", None, 3, 2, 1),
    ("shipping", 0, 1, "new_member", "shipping-0-", "shipping-0", 0, 3, 2),
    ("shipping", 1, 2, "new_member", "shipping-3-", "shipping-3", 3, 4, 2),
    ("billing", 0, 1, "new_member", "consumer-billing-1-", None, 0, 2, 2),
    ("billing", 1, 2, "new_member", "consumer-billing-3-", None, 2, 3, 3),
]


@pytest.fixture(scope="module")
def sample_run(sample_job):
    """One clean batch run over the bundled samples (the session-wide ``sample_job`` of
    tests/conftest.py; read only - tests that write use their own lakehouse or a copy)."""
    return sample_job


def _rebalances(lake):
    pdf = read_table(None, lake, "rebalances").sort_values(["group_id", "old_generation"])
    return pdf


def test_sample_rebalances_causes_and_culprits(sample_run):
    lake, summary = sample_run
    pdf = _rebalances(lake)
    got = {(r.group_id, r.old_generation, r.new_generation): r for r in pdf.itertuples()}
    assert len(pdf) == len(EXPECTED) == 16
    for group, old, new, cause, culprit, giid, before, after, coord in EXPECTED:
        r = got[(group, old, new)]
        assert r.cause == cause, (group, old)
        assert r.culprit_member_id.startswith(culprit), (group, old, r.culprit_member_id)
        assert r.culprit_group_instance_id == giid
        assert (r.members_before, r.members_after) == (before, after), (group, old)
        assert r.coordinator_broker == coord, (group, old)
        assert r.outcome == "completed"
    poll = got[("payments", 1, 2)]
    assert poll.start_ts == dt.datetime(2024, 5, 14, 11, 20, 0, 421000, tzinfo=dt.UTC)
    assert poll.duration_ms == 2391
    assert summary.rebalances_total == 16 and summary.groups_total == 5
    assert summary.replay_errors == 0
    assert summary.top_causes[0] == ("new_member", 11)


def test_sample_storm(sample_run):
    lake, summary = sample_run
    st = read_table(None, lake, "storms")
    assert len(st) == 1
    s = st.iloc[0]
    assert (s.cluster, s.group_id, s.rebalances, s.dominant_cause) == ("prod-eu", "orders", 6, "member_leave")
    assert s.start_ts == dt.datetime(2024, 5, 14, 10, 0, 0, 7000, tzinfo=dt.UTC)
    assert s.end_ts == dt.datetime(2024, 5, 14, 10, 3, 37, 904000, tzinfo=dt.UTC)
    assert s.paused_ms == 3 * 2954 + 3 * 2690
    assert len(s.culprit_members) == 6
    assert sorted({m.rsplit("-", 5)[0] for m in s.culprit_members}) == [
        "consumer-orders-1", "consumer-orders-2", "consumer-orders-3"]  # fmt: skip
    assert s.coordinator_broker == 1 and not s.coordinator_wide and list(s.concurrent_groups) == []
    assert summary.worst_storm["group_id"] == "orders"
    freq = read_table(None, lake, "rebalance_frequency")
    day = freq[(freq.granularity == "day")].set_index("group_id")
    assert day.loc["orders", "rebalances"] == 7 and bool(day.loc["orders", "storm"])
    assert day.loc["payments", "rebalances"] == 3 and not bool(day.loc["payments", "storm"])
    hour10 = freq[(freq.granularity == "hour") & (freq.group_id == "orders")].set_index("window_start")
    assert bool(hour10.loc[dt.datetime(2024, 5, 14, 10, tzinfo=dt.UTC), "storm"])
    assert hour10.loc[dt.datetime(2024, 5, 14, 10, tzinfo=dt.UTC), "paused_ms"] == 16932


def test_sample_sessions(sample_run):
    lake, _ = sample_run
    ss = read_table(None, lake, "member_sessions")
    ended = {
        (r.group_id, r.member_id.rsplit("-", 5)[0], r.end_reason)
        for r in ss.itertuples()
        if r.end_reason != "open"
    }
    assert ("payments", "consumer-payments-1", "poll_timeout_leave") in ended
    assert ("inventory", "consumer-inventory-2", "session_timeout") in ended
    assert ("shipping", "shipping-1", "replaced") in ended  # static: <group.instance.id>-<uuid>
    assert {m for g, m, e in ended if g == "orders"} == {
        "consumer-orders-1",
        "consumer-orders-2",
        "consumer-orders-3",
    }


def test_sample_ingest_tables(sample_run):
    lake, summary = sample_run
    assert summary.files_new == 6 and summary.events == 119
    assert len(read_table(None, lake, "events")) == 119
    q = read_table(None, lake, "quarantine")
    assert len(q) == 0  # the group-less static line of shipping is attributed (jobs/samples/EXPECTED.md)
    assert len(read_table(None, lake, "ingest_audit")) == 6
    assert set(read_table(None, lake, "events").cluster) == {"prod-eu", "prod-us"}


def test_every_table_has_its_schema(spark, sample_run):
    lake, _ = sample_run
    for name, schema in schemas.TABLES.items():
        df = read_table(spark, lake, name)
        assert fields_of(df.schema) == fields_of(schema), name
        pdf = read_table(None, lake, name)
        assert list(pdf.columns) == schema.fieldNames(), name
    from deltalake import DeltaTable

    for name in schemas.TABLES:
        assert (
            DeltaTable(os.path.join(lake, name)).schema().to_arrow().names
            == schemas.TABLES[name].fieldNames()
        )


def test_rerun_is_idempotent(spark, sample_run, tmp_path):
    lake = str(tmp_path / "rerun")
    shutil.copytree(sample_run[0], lake)  # the shared sample lakehouse stays untouched
    before = {name: rows(lake, name) for name in schemas.TABLES}
    again = run_job(spark, job_config(lake), SAMPLE_INPUTS, "batch")
    assert again.files_new == 0 and again.files_skipped == 6
    for name in schemas.TABLES:
        assert rows(lake, name) == before[name], name


def test_batch_equals_incremental(spark, sample_run, tmp_path):
    lake, _ = sample_run
    inc = str(tmp_path / "incremental")
    summary = run_job(spark, job_config(inc, mode="incremental"), SAMPLE_INPUTS, "incremental")
    assert summary.mode == "incremental" and summary.groups_replayed == 5
    for name in REPLAY_TABLES:
        assert rows(inc, name) == rows(lake, name), name
    for name in ("events", "quarantine", "ingest_audit"):
        assert rows(inc, name, drop=("run_id",)) == rows(lake, name, drop=("run_id",)), name
    keep = ("state_json", "run_id")
    assert rows(inc, "group_state", drop=keep) == rows(lake, "group_state", drop=keep)
    assert os.path.isdir(os.path.join(inc, "_checkpoints", "replay"))


def sample_days(tmp_path) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The sample logs cut at 10:00:01 (inside the orders rebalance 1->2) into day 1 and day 2
    inputs, ``(path, cluster)`` each."""
    a, b = str(tmp_path / "day1"), str(tmp_path / "day2")
    for _, cluster in SAMPLE_INPUTS:
        split_file_lines(os.path.join(os.path.dirname(SAMPLE_INPUTS[0][0]), cluster),
                         os.path.join(a, cluster), os.path.join(b, cluster), "10:00:01")  # fmt: skip
    return [(os.path.join(a, c), c) for _, c in SAMPLE_INPUTS], [
        (os.path.join(b, c), c) for _, c in SAMPLE_INPUTS
    ]


def test_split_run_equals_single_run(spark, sample_run, tmp_path):
    """Cut every log at 10:00:01, in the middle of the orders rebalance 1->2 (10:00:00.007 -
    10:00:02.961): run 1 leaves it open, run 2 completes the same rebalance (same rebalance_id)."""
    lake, _ = sample_run
    day1, day2 = sample_days(tmp_path)
    split = str(tmp_path / "split")
    cfg = job_config(split)
    run_job(spark, cfg, day1, "batch")
    mid = read_table(None, split, "rebalances")
    open_ = mid[mid.outcome == "open"]
    assert list(open_.group_id) == ["orders"] and list(open_.old_generation) == [1]
    run_job(spark, cfg, day2, "batch")
    loc = ("source_file", "line_no")
    for name in REPLAY_TABLES:
        assert rows(split, name, drop=loc) == rows(lake, name, drop=loc), name
    assert len(read_table(None, split, "events")) == 119


@pytest.mark.parametrize(
    ("day1", "day2", "lose_checkpoint"),
    [("batch", "incremental", False), ("incremental", "batch", False), ("incremental", "incremental", True)],
)
def test_modes_mixed_or_checkpoint_lost_equal_single_run(
    spark, sample_run, tmp_path, day1, day2, lose_checkpoint
):
    """Day 1 and day 2 of the split sample (a rebalance open across the cut) in different modes, or
    incremental twice with the streaming checkpoint deleted in between: the group_state table seeds
    the stream, so the tables equal one run over both days."""
    lake, _ = sample_run
    inputs1, inputs2 = sample_days(tmp_path)
    out = str(tmp_path / "mixed")
    run_job(spark, job_config(out, mode=day1), inputs1, day1)
    if lose_checkpoint:
        shutil.rmtree(os.path.join(out, "_checkpoints"))
    second = run_job(spark, job_config(out, mode=day2), inputs2, day2)
    assert second.replay_errors == 0
    loc = ("source_file", "line_no")
    for name in REPLAY_TABLES:
        assert rows(out, name, drop=loc) == rows(lake, name, drop=loc), name


def assert_tables_of_one_clean_run(lake: str, clean: str) -> None:
    """Every table of ``lake`` equals the clean run's, but for run ids and the state envelopes (which
    name the run that wrote them)."""
    for name in schemas.TABLES:
        by_run = name in ("events", "quarantine", "ingest_audit", "group_state")
        drop = ("run_id", "state_json") if by_run else ()
        assert rows(lake, name, drop=drop) == rows(clean, name, drop=drop), name


class InjectedFailure(RuntimeError):
    """The run killed at a commit point (:func:`kill_after`)."""


def kill_after(monkeypatch, table: str) -> None:
    """Make the run die right after ``table`` is committed (a crash mid-run)."""

    def committed(self, name: str) -> None:
        if name == table:
            raise InjectedFailure(f"killed after committing {name}")

    monkeypatch.setattr(RunContext, "committed", committed)


def test_killed_run_recovers(spark, sample_run, tmp_path, monkeypatch):
    """Crash after the state table was written but before the run's commit marker (ingest_audit),
    then run again: exactly the tables of one clean run."""
    lake, _ = sample_run
    crashed = str(tmp_path / "crashed")
    kill_after(monkeypatch, "group_state")
    with pytest.raises(InjectedFailure):
        run_job(spark, job_config(crashed), SAMPLE_INPUTS, "batch")
    assert len(read_table(None, crashed, "ingest_audit")) == 0
    assert len(read_table(None, crashed, "events")) == 119  # written by the crashed run
    monkeypatch.undo()
    again = run_job(spark, job_config(crashed), SAMPLE_INPUTS, "batch")
    assert again.files_new == 6
    assert_tables_of_one_clean_run(crashed, lake)


@pytest.mark.parametrize("fail_after", ["stream inbox", "group_state"])
def test_killed_incremental_run_recovers(spark, sample_run, tmp_path, monkeypatch, fail_after):
    """Incremental mode, killed (a) after the run's stream inbox was written but before the stream
    read it, (b) after the stream committed its state and the tables were merged, before the commit
    marker. Run again: exactly the tables of one clean run (no event replayed twice or skipped)."""
    lake, _ = sample_run
    crashed = str(tmp_path / "crashed")
    kill_after(monkeypatch, fail_after)
    with pytest.raises(InjectedFailure):
        run_job(spark, job_config(crashed, mode="incremental"), SAMPLE_INPUTS, "incremental")
    assert len(read_table(None, crashed, "ingest_audit")) == 0
    monkeypatch.undo()
    again = run_job(spark, job_config(crashed, mode="incremental"), SAMPLE_INPUTS, "incremental")
    assert again.files_new == 6 and again.groups_replayed == 5
    inbox = os.path.join(crashed, "_stream", "inbox")
    assert os.listdir(inbox) == [f"run={again.run_id}"]  # the killed run's inbox is gone
    assert_tables_of_one_clean_run(crashed, lake)


def test_seed004_scenarios(spark, tmp_path):
    lake = str(tmp_path / "seed004")
    run_job(spark, job_config(lake), [(os.path.join(FIXTURES, "seed004"), "seed")], "batch")
    pdf = read_table(None, lake, "rebalances").sort_values(["group_id", "start_ts"])
    got = {g: [(r.old_generation, r.new_generation, r.join_rounds, r.outcome) for r in d.itertuples()]
           for g, d in pdf.groupby("group_id")}  # fmt: skip
    assert got["seed004-one"] == [(0, 2, 2, "completed"), (2, 3, 1, "ended_empty")]
    assert got["seed004-two"] == [(0, 1, 1, "completed"), (1, 2, 1, "completed"), (2, 3, 1, "ended_empty")]
    assert got["seed004-three"] == [
        (0, 1, 1, "completed"), (1, 2, 1, "completed"), (2, 3, 1, "completed"), (3, 4, 1, "ended_empty")]  # fmt: skip
    assert set(pdf.coordinator_broker) == {0}
    storms = read_table(None, lake, "storms").set_index("group_id")
    assert sorted(storms.index) == ["seed004-three", "seed004-two"]
    assert storms.loc["seed004-three", "rebalances"] == 4
    assert not storms.coordinator_wide.any()


def test_parquet_sink_gives_the_same_tables_and_summary(spark, sample_run, tmp_path):
    """The Parquet sink (no driver-side Arrow reads: Spark roll-ups and summary queries) gives the
    tables and the summary of the delta-rs run (driver-side roll-ups and summary)."""
    lake, summary = sample_run
    pq_lake = str(tmp_path / "parquet")
    got = run_job(spark, job_config(pq_lake, fmt="parquet"), SAMPLE_INPUTS, "batch")
    for name in (*REPLAY_TABLES, "rebalance_frequency", "storms"):
        assert rows(pq_lake, name) == rows(lake, name), name
    assert got.top_causes == summary.top_causes
    assert got.worst_storm == summary.worst_storm and summary.worst_storm["rebalances"] == 6
    assert got.table_rows == summary.table_rows


def test_summary_names_culprits_by_client():
    from jobs.report.console import culprits_text

    ids = ["consumer-orders-1-7604744b-dd92-f931-218d-47e7163ae8b2", "consumer-orders-1-8dfcf2fb-cb46-2e04-fdbb-e996dd35dde4",
           "consumer-orders-2-5efaf5c0-85b5-a278-7b75-d7f39af1e20d"]  # fmt: skip
    assert culprits_text(ids) == "consumer-orders-1 ×2, consumer-orders-2 (3 member ids)"
    assert culprits_text(["rdkafka-abc", "sarama"]) == "rdkafka-abc, sarama"  # other forms as they are
    assert culprits_text([]) == "-"


def test_summary_span_text():
    import datetime as dt

    from jobs.report.console import span_text

    a, b = dt.datetime(2024, 5, 14, 10, 0, 0, 7000), dt.datetime(2024, 5, 14, 10, 3, 37, 904999)
    assert span_text(a, b) == "2024-05-14 10:00:00.007 .. 10:03:37.904"
    assert (
        span_text(a, dt.datetime(2024, 5, 15, 0, 0, 1))
        == "2024-05-14 10:00:00.007 .. 2024-05-15 00:00:01.000"
    )
    assert span_text(None, b) == "None .. 2024-05-14 10:03:37.904"
