# Databricks notebook source
# MAGIC %md
# MAGIC # 03 · One group's timeline
# MAGIC State lanes over time (from `group_transitions`), member sessions (joins and leaves, with how they
# MAGIC ended), each rebalance as a bar with its duration and generations, and the evidence anomalies.
# MAGIC Consumer-protocol (KIP-848) groups show group epochs (`e3→4`) instead of generations, their
# MAGIC Assigning / Reconciling states, and the partitions each rebalance revoked: under KIP-848 only those
# MAGIC stop, so `paused_partition_ms` says more than `duration_ms`. A converted group shows both protocols.
# MAGIC Leave **group** empty to pick the group with the most rebalances; **start**/**end** zoom into a
# MAGIC window (a storm).

# COMMAND ----------

try:  # the repository root on sys.path: notebooks/_bootstrap.py (Databricks Git folders have it already)
    import _bootstrap  # noqa: F401
except ImportError:
    pass

from jobs.report.notebook import Notebook  # noqa: E402

nb = Notebook.from_globals(globals())  # spark / dbutils / display on Databricks; env vars locally

# COMMAND ----------

LAKEHOUSE = nb.text("lakehouse", "./lakehouse", "lakehouse directory")
GROUP = nb.text("group", "", "consumer group (empty = most rebalances)", env="GROUP_ID")
MAX_MEMBERS = int(nb.text("max_members", "25", "member lanes", env="MAX_MEMBERS"))
START = nb.text("start", "", "zoom from (UTC, e.g. 2024-05-14 09:59)", env="START") or None
END = nb.text("end", "", "zoom to (UTC)", env="END") or None

# COMMAND ----------

from jobs.report import summary, timeline  # noqa: E402

if not GROUP:
    ranking = summary.group_ranking(nb.tables(LAKEHOUSE)["rebalances"])
    GROUP = ranking["group_id"].iloc[0] if len(ranking) else ""
print(f"group: {GROUP!r}")
tables = nb.tables(LAKEHOUSE, group=GROUP)

# COMMAND ----------

from jobs.report.data import read_table  # noqa: E402

# consumer-protocol members' reconciling spans: only the group's member-state lines are read
events = read_table(LAKEHOUSE, "events", spark=nb.table_spark(), group=GROUP or None,
                    kinds=summary.MEMBER_STATE_KINDS, cols=summary.MEMBER_STATE_COLUMNS)
reconciling = summary.reconciling_spans(events, GROUP)
nb.show(timeline.group_timeline(tables["group_transitions"], tables["member_sessions"], tables["rebalances"],
                                tables["anomalies"], GROUP, max_members=MAX_MEMBERS, start=START, end=END,
                                reconciling=reconciling),
        "group_timeline")

# COMMAND ----------

# MAGIC %md
# MAGIC ## Rebalances, member joins and leaves, anomalies

# COMMAND ----------

rb_cols = ["start_ts", "protocol_type", "duration_ms", "old_generation", "new_generation", "outcome", "cause",
           "culprit_member_id", "reason", "partitions_revoked", "partitions_assigned", "paused_partition_ms"]
rb = tables["rebalances"]
nb.show(rb.sort_values("start_ts")[[c for c in rb_cols if c in rb.columns]], "rebalances", rows=50)
nb.show(summary.member_events(tables["member_sessions"], tables["rebalances"], GROUP), "member joins and leaves",
        rows=50)
nb.show(summary.anomaly_counts(tables["anomalies"]), "anomalies")
