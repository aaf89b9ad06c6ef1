"""Storms and rebalance frequency from a hand-built rebalances table."""

from __future__ import annotations

import datetime as dt

import pyarrow as pa
import pytest

from jobs import rollups, schemas
from tests.job.util import fields_of

pytestmark = pytest.mark.spark

T0 = dt.datetime(2024, 3, 1, 9, 50)  # naive UTC, as Spark returns (session time zone UTC)


def _rb(group, minute, dur_ms, cause="session_timeout", culprit="m1", coord=1, outcome="completed", rounds=1,
        protocol_type=None, paused_partition_ms=None):  # fmt: skip
    start = T0 + dt.timedelta(minutes=minute)
    end = None if outcome == "open" else start + dt.timedelta(milliseconds=dur_ms)
    row = dict.fromkeys(schemas.REBALANCES.fieldNames())
    row.update(
        cluster="c",
        group_id=group,
        rebalance_id=f"{group}:{minute}",
        start_ts=start,
        end_ts=end,
        duration_ms=None if outcome == "open" else dur_ms,
        outcome=outcome,
        cause=cause,
        culprit_member_id=culprit,
        coordinator_broker=coord,
        join_rounds=rounds,
        inferred=False,
        protocol_type=protocol_type,
        paused_partition_ms=paused_partition_ms,
    )
    return row


@pytest.fixture(scope="module")
def rebalances(spark):
    rows = [
        # g1: 4 rebalances within 6 minutes (a storm), then one 2 hours later (not a storm)
        _rb("g1", 0, 3000, "member_leave", "a"), _rb("g1", 2, 4000, "new_member", "b"),
        _rb("g1", 4, 5000, "new_member", "c"), _rb("g1", 6, 6000, "new_member", "b", rounds=2),
        _rb("g1", 130, 1000, "session_timeout", "z"),
        # g2 on the same coordinator storms at an overlapping time; g3 storms on another coordinator
        _rb("g2", 3, 1000, culprit="x"), _rb("g2", 5, 1000, culprit="y"), _rb("g2", 7, 1000, culprit="x"),
        _rb("g3", 3, 1000, coord=2), _rb("g3", 4, 1000, coord=2), _rb("g3", 5, 1000, coord=2, outcome="open"),
        # g4: 3 rebalances but 20 minutes apart - no storm
        _rb("g4", 0, 1000), _rb("g4", 20, 1000), _rb("g4", 40, 1000),
        # g5: converted to the consumer protocol during its storm (classic, then two epoch episodes)
        _rb("g5", 0, 2000, "new_member", "k", coord=3, protocol_type="classic"),
        _rb("g5", 1, 4000, "new_member", "k", coord=3, protocol_type="consumer", paused_partition_ms=1500),
        _rb("g5", 2, 3000, "session_timeout", "k", coord=3, protocol_type="consumer", paused_partition_ms=700),
    ]  # fmt: skip
    return spark.createDataFrame(rows, schemas.REBALANCES)


def test_storm_episodes(rebalances):
    out = rollups.compute(rebalances, min_rebalances=3, window_minutes=10)
    st = {r.group_id: r for r in out["storms"].collect()}
    assert fields_of(out["storms"].schema) == fields_of(schemas.STORMS)
    assert set(st) == {"g1", "g2", "g3", "g5"}
    g1 = st["g1"]
    assert g1.rebalances == 4
    assert g1.start_ts == T0 and g1.end_ts == T0 + dt.timedelta(minutes=6, seconds=6)
    assert g1.dominant_cause == "new_member"
    assert g1.culprit_members == ["a", "b", "c"]
    assert g1.paused_ms == 3000 + 4000 + 5000 + 6000
    assert g1.coordinator_broker == 1
    assert g1.concurrent_groups == ["g2"] and g1.coordinator_wide is True
    assert st["g2"].concurrent_groups == ["g1"]
    assert st["g3"].concurrent_groups == [] and st["g3"].coordinator_wide is False
    assert st["g1"].storm_id == f"c:g1:{int(T0.replace(tzinfo=dt.UTC).timestamp() * 1000)}"
    # both protocols in one storm; partition-time paused only where the rebalances know it
    assert g1.protocol_types == ["classic"] and g1.paused_partition_ms is None
    g5 = st["g5"]
    assert g5.protocol_types == ["classic", "consumer"] and g5.paused_partition_ms == 2200
    assert (g5.rebalances, g5.paused_ms, g5.dominant_cause) == (3, 9000, "new_member")


def test_min_rebalances_threshold(rebalances):
    st = rollups.compute(rebalances, min_rebalances=4, window_minutes=10)["storms"].collect()
    assert sorted((r.group_id, r.rebalances) for r in st) == [("g1", 4)]
    wide = rollups.compute(rebalances, min_rebalances=3, window_minutes=45)["storms"].collect()
    assert {r.group_id for r in wide} == {"g1", "g2", "g3", "g4", "g5"}


def test_frequency_hour_and_day(rebalances):
    out = rollups.compute(rebalances, min_rebalances=3, window_minutes=10)
    freq = out["rebalance_frequency"]
    assert fields_of(freq.schema) == fields_of(schemas.REBALANCE_FREQUENCY)
    rows = {(r.group_id, r.granularity, r.window_start): r for r in freq.collect()}
    h9, h10 = T0.replace(minute=0), T0.replace(hour=10, minute=0)
    # g1 rebalance at 09:56 lasts 6 s: all in hour 9; 4 starts in hour 9, join rounds 1+1+1+2
    r9 = rows[("g1", "hour", h9)]
    assert (r9.rebalances, r9.completed, r9.open, r9.join_rounds, r9.paused_ms, r9.storm) == (
        4, 4, 0, 5, 18000, True)  # fmt: skip
    # g1's late rebalance at 12:00 is in hour 12 and not in a storm
    r12 = rows[("g1", "hour", T0.replace(hour=12, minute=0))]
    assert (r12.rebalances, r12.paused_ms, r12.storm) == (1, 1000, False)
    day = rows[("g1", "day", T0.replace(hour=0, minute=0))]
    assert (day.rebalances, day.paused_ms, day.storm) == (5, 19000, True)
    # g3's open rebalance counts as open
    g3 = rows[("g3", "hour", h10)] if ("g3", "hour", h10) in rows else rows[("g3", "hour", h9)]
    assert g3.open == 1
    # g4 windows are not stormy
    assert not any(r.storm for k, r in rows.items() if k[0] == "g4")


def test_paused_ms_clipped_across_hour_boundary(spark):
    # one rebalance from 09:59:00 lasting 2 minutes: 60 s in hour 9, 60 s in hour 10
    rb = spark.createDataFrame([_rb("g", 9, 120_000)], schemas.REBALANCES)
    freq = (
        rollups.compute(rb, 3, 10)["rebalance_frequency"]
        .where("granularity = 'hour'")
        .orderBy("window_start")
    )
    got = [(r.window_start.hour, r.rebalances, r.paused_ms) for r in freq.collect()]
    assert got == [(9, 1, 60_000), (10, 0, 60_000)]


def _random_rebalances(seed: int, n: int = 400) -> list[dict]:
    """Rebalances of 2 clusters x 6 groups over ~3 days with storms, ties, nulls and open ones."""
    import random

    rnd = random.Random(seed)
    rows = []
    for i in range(n):
        cluster, group = rnd.choice(["eu", "us"]), f"g{rnd.randrange(6)}"
        # bursts (storms) and scattered rebalances; equal starts on purpose
        base = rnd.choice([0, 600, 1500, 3000]) * 60_000 + rnd.randrange(0, 40) * 15_000
        start = T0 + dt.timedelta(
            milliseconds=base if rnd.random() < 0.7 else rnd.randrange(0, 3 * 86_400_000)
        )
        outcome = rnd.choice(["completed", "completed", "open", "failed"])  # never null in the table
        dur = None if outcome == "open" or rnd.random() < 0.05 else rnd.randrange(0, 7_200_000)
        end = None if dur is None else start + dt.timedelta(milliseconds=dur)
        if rnd.random() < 0.05:  # only the end is known
            start = None
        if rnd.random() < 0.02:  # neither: not placed in time
            start = end = None
        row = dict.fromkeys(schemas.REBALANCES.fieldNames())
        row.update(
            cluster=cluster, group_id=group, rebalance_id=f"r{i}", start_ts=start, end_ts=end, duration_ms=dur,
            outcome=outcome, cause=rnd.choice(["new_member", "member_leave", "session_timeout", None]),
            culprit_member_id=rnd.choice(["a", "b", "c", None]), coordinator_broker=rnd.choice([1, 2, None]),
            join_rounds=rnd.choice([1, 2, None]), inferred=False,
        )  # fmt: skip
        rows.append(row)
    return rows


@pytest.mark.parametrize("seed,n,w", [(1, 3, 10), (2, 4, 30), (3, 2, 5), (4, 3, 120)])
def test_numpy_rollups_equal_the_spark_sql_definition(spark, seed, n, w):
    """The per-cluster numpy roll-ups give exactly the rows of the Spark SQL window-function
    version (tests/job/rollups_sql_reference.py) on random rebalances with ties and nulls."""
    from tests.job import rollups_sql_reference as ref

    rb = spark.createDataFrame(_random_rebalances(seed), schemas.REBALANCES).cache()
    # cache=True: the reference's storms frame is computed once, not once per reader (same rows)
    got, want = rollups.compute(rb, n, w), ref.compute(rb, n, w, cache=True)
    try:
        for name in ("storms", "rebalance_frequency"):
            g = sorted(tuple(r) for r in got[name].collect())
            e = sorted(tuple(r) for r in want[name].collect())
            assert g == e, name
            assert fields_of(got[name].schema) == fields_of(want[name].schema)
            assert len(g) > (0 if name == "storms" else 100), name
    finally:
        want["storms"].unpersist()
        rb.unpersist()


@pytest.mark.parametrize("seed,n,w", [(5, 3, 10), (6, 2, 30)])
def test_driver_rollups_equal_the_spark_ones(spark, seed, n, w):
    """compute_arrow (small rebalances tables read on the driver) gives the rows of compute."""
    from jobs.ingest.model import arrow_schema

    data = _random_rebalances(seed)
    rb = spark.createDataFrame(data, schemas.REBALANCES)
    table = pa.Table.from_pylist(data, schema=arrow_schema(schemas.REBALANCES))
    got, want = rollups.compute_arrow(table, n, w), rollups.compute(rb, n, w)
    for name in ("storms", "rebalance_frequency"):
        g = spark.createDataFrame(got[name].to_pandas(), schemas.TABLES[name])
        assert sorted(tuple(r) for r in g.collect()) == sorted(tuple(r) for r in want[name].collect()), name
    assert got["storms"].num_rows > 0
    empty = rollups.compute_arrow(table.slice(0, 0), n, w)
    assert empty["storms"].num_rows == 0 and empty["rebalance_frequency"].num_rows == 0
