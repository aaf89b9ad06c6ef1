"""Test oracle: the first implementation of the roll-ups, in Spark SQL window functions (jobs/rollups.py
computes the same with numpy per cluster; tests/job/test_rollups.py checks that both agree).

Roll-ups of the whole ``rebalances`` table: ``storms`` and ``rebalance_frequency`` (Spark SQL
window functions, no Python per row).

They are recomputed from the whole rebalances table on every run and overwritten, so a run split
over two days gives the same roll-ups as one run over both.

Definitions:

* A rebalance occupies ``[start, end]`` with ``start = coalesce(start_ts, end_ts)`` and
  ``end = coalesce(end_ts, start + duration_ms, start)`` (open rebalances end where the logs end).
* **Storm**: an episode of at least ``N = storms.min_rebalances`` rebalances of one group within
  ``W = storms.window_minutes`` minutes.  A rebalance is *stormy* when some window ``[t, t+W]`` that
  contains its start holds >= N rebalance starts; consecutive stormy rebalances less than W apart
  form one episode.  ``dominant_cause`` is the most frequent cause (ties: alphabetical),
  ``culprit_members`` the distinct culprit member ids, ``paused_ms`` the sum of durations,
  ``coordinator_broker`` the most frequent coordinator, ``concurrent_groups`` the other groups of the
  same cluster whose storms on the same coordinator overlap in time, and ``coordinator_wide`` is true
  when there is at least one such group (a broker-side cause is likely).
* **Frequency**: per group and hour / day window (UTC): rebalances, completed and open started in the
  window, their join rounds, ``paused_ms`` = the time of all rebalances clipped to the window, and
  ``storm`` = the window overlaps a storm of the group.
"""

from __future__ import annotations

from pyspark.sql import DataFrame, Window
from pyspark.sql import functions as F

from jobs import schemas


def _intervals(rebalances: DataFrame) -> DataFrame:
    s = F.coalesce(F.unix_millis("start_ts"), F.unix_millis("end_ts"))
    e = F.coalesce(F.unix_millis("end_ts"), s + F.col("duration_ms"), s)
    return rebalances.withColumn("_s", s).withColumn("_e", F.greatest(e, s)).where(F.col("_s").isNotNull())


def storms(rebalances: DataFrame, min_rebalances: int, window_minutes: int) -> DataFrame:
    """Storm episodes (schema ``jobs.schemas.STORMS``)."""
    w_ms = int(window_minutes) * 60_000
    n = int(min_rebalances)
    r = _intervals(rebalances)
    by_group = Window.partitionBy("cluster", "group_id").orderBy("_s")
    fwd = by_group.rangeBetween(0, w_ms)
    back = by_group.rangeBetween(-w_ms, 0)
    r = r.withColumn("_dense", (F.count(F.lit(1)).over(fwd) >= n).cast("int"))
    r = r.withColumn("_stormy", F.max("_dense").over(back) == 1).where("_stormy")
    gap = F.col("_s") - F.lag("_s").over(by_group)
    r = r.withColumn("_new", F.when(gap.isNull() | (gap > w_ms), 1).otherwise(0))
    r = r.withColumn("_episode", F.sum("_new").over(by_group.rowsBetween(Window.unboundedPreceding, 0)))
    keys = ["cluster", "group_id", "_episode"]

    cause_counts = r.groupBy(*keys, "cause").agg(F.count(F.lit(1)).alias("_n"))
    dominant = (
        cause_counts.withColumn(
            "_rk",
            F.row_number().over(Window.partitionBy(*keys).orderBy(F.desc("_n"), F.asc_nulls_last("cause"))),
        )
        .where("_rk = 1")
        .select(*keys, F.coalesce(F.col("cause"), F.lit("unknown")).alias("dominant_cause"))
    )
    coord_counts = (
        r.where(F.col("coordinator_broker").isNotNull())
        .groupBy(*keys, "coordinator_broker")
        .agg(F.count(F.lit(1)).alias("_n"))
    )
    coordinator = (
        coord_counts.withColumn(
            "_rk",
            F.row_number().over(Window.partitionBy(*keys).orderBy(F.desc("_n"), F.asc("coordinator_broker"))),
        )
        .where("_rk = 1")
        .select(*keys, "coordinator_broker")
    )
    episodes = (
        r.groupBy(*keys)
        .agg(
            F.min("_s").alias("_start"),
            F.max("_e").alias("_end"),
            F.count(F.lit(1)).cast("int").alias("rebalances"),
            F.array_sort(F.collect_set("culprit_member_id")).alias("culprit_members"),
            F.sum(F.coalesce(F.col("duration_ms"), F.lit(0))).cast("long").alias("paused_ms"),
            F.array_sort(F.collect_set(F.coalesce(F.col("protocol_type"), F.lit("classic")))).alias("protocol_types"),
            F.sum("paused_partition_ms").cast("long").alias("paused_partition_ms"),
        )
        .join(dominant, keys, "left")
        .join(coordinator, keys, "left")
    )
    a, b = episodes.alias("a"), episodes.alias("b")
    overlap = (
        (F.col("a.cluster") == F.col("b.cluster"))
        & (F.col("a.coordinator_broker") == F.col("b.coordinator_broker"))
        & (F.col("a.group_id") != F.col("b.group_id"))
        & (F.col("a._start") <= F.col("b._end"))
        & (F.col("b._start") <= F.col("a._end"))
    )
    concurrent = (
        a.join(b, overlap, "inner")
        .groupBy(F.col("a.cluster").alias("cluster"), F.col("a.group_id").alias("group_id"),
                 F.col("a._episode").alias("_episode"))
        .agg(F.array_sort(F.collect_set(F.col("b.group_id"))).alias("concurrent_groups"))
    )  # fmt: skip
    out = episodes.join(concurrent, keys, "left").withColumn(
        "concurrent_groups", F.coalesce(F.col("concurrent_groups"), F.array().cast("array<string>"))
    )
    return out.select(
        "cluster",
        "group_id",
        F.concat_ws(":", "cluster", "group_id", F.col("_start").cast("string")).alias("storm_id"),
        F.timestamp_millis("_start").alias("start_ts"),
        F.timestamp_millis("_end").alias("end_ts"),
        "rebalances",
        "dominant_cause",
        "culprit_members",
        "paused_ms",
        F.col("coordinator_broker").cast("int").alias("coordinator_broker"),
        "concurrent_groups",
        (F.size("concurrent_groups") > 0).alias("coordinator_wide"),
        "protocol_types",
        "paused_partition_ms",
    )


def frequency(rebalances: DataFrame, storms_df: DataFrame) -> DataFrame:
    """Per group per hour and per day (schema ``jobs.schemas.REBALANCE_FREQUENCY``)."""
    r = _intervals(rebalances)
    parts = []
    for granularity, unit, step_ms in (("hour", "hour", 3_600_000), ("day", "day", 86_400_000)):
        first = F.unix_millis(F.date_trunc(unit, F.timestamp_millis("_s")))
        last = F.unix_millis(F.date_trunc(unit, F.timestamp_millis("_e")))
        w = r.withColumn("_ws", F.explode(F.sequence(first, last, F.lit(step_ms))))
        clipped = F.greatest(F.lit(0), F.least(F.col("_e"), F.col("_ws") + step_ms) - F.greatest("_s", "_ws"))
        starts_here = (F.col("_s") >= F.col("_ws")) & (F.col("_s") < F.col("_ws") + step_ms)
        agg = w.groupBy("cluster", "group_id", "_ws").agg(
            F.sum(starts_here.cast("long")).alias("rebalances"),
            F.sum((starts_here & (F.col("outcome") != "open")).cast("long")).alias("completed"),
            F.sum((starts_here & (F.col("outcome") == "open")).cast("long")).alias("open"),
            F.sum(F.when(starts_here, F.coalesce(F.col("join_rounds"), F.lit(0))).otherwise(0)).cast("long")
            .alias("join_rounds"),
            F.sum(clipped).cast("long").alias("paused_ms"),
        )  # fmt: skip
        st = storms_df.select(
            F.col("cluster").alias("s_cluster"),
            F.col("group_id").alias("s_group"),
            F.unix_millis("start_ts").alias("s_start"),
            F.unix_millis("end_ts").alias("s_end"),
        )
        flagged = (
            agg.join(
                st,
                (agg.cluster == st.s_cluster)
                & (agg.group_id == st.s_group)
                & (st.s_start < agg._ws + step_ms)
                & (st.s_end >= agg._ws),
                "left",
            )
            .groupBy(
                "cluster", "group_id", "_ws", "rebalances", "completed", "open", "join_rounds", "paused_ms"
            )
            .agg(F.max(F.col("s_start").isNotNull()).alias("storm"))
        )
        parts.append(flagged.withColumn("granularity", F.lit(granularity)))
    out = parts[0].unionByName(parts[1])
    return out.select(
        "cluster",
        "group_id",
        "granularity",
        F.timestamp_millis("_ws").alias("window_start"),
        "rebalances",
        "completed",
        "open",
        "join_rounds",
        "paused_ms",
        F.coalesce(F.col("storm"), F.lit(False)).alias("storm"),
    )


def compute(
    rebalances: DataFrame, min_rebalances: int, window_minutes: int, *, cache: bool = False
) -> dict[str, DataFrame]:
    """Both roll-ups from the whole rebalances table: ``{"storms": ..., "rebalance_frequency": ...}``.
    ``cache=True`` caches the (small) storms frame, which the frequency roll-up reads again."""

    def conform(df: DataFrame, schema) -> DataFrame:
        return df.select([F.col(f.name).cast(f.dataType) for f in schema.fields])

    st = conform(storms(rebalances, min_rebalances, window_minutes), schemas.STORMS)
    if cache:
        st = st.cache()
    freq = conform(frequency(rebalances, st), schemas.REBALANCE_FREQUENCY)
    return {"storms": st, "rebalance_frequency": freq}
