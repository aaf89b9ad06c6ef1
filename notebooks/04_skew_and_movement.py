# Databricks notebook source
# MAGIC %md
# MAGIC # 04 · Assignment skew and partition movement
# MAGIC Per generation of one group: partitions per member (min, mean, max), the skew ratio (max / mean), idle
# MAGIC members (no partition) and partitions moved between members, by assignor. Topic `*` = all topics.

# COMMAND ----------

try:  # the repository root on sys.path: notebooks/_bootstrap.py (Databricks Git folders have it already)
    import _bootstrap  # noqa: F401
except ImportError:
    pass

from jobs.report.notebook import Notebook  # noqa: E402

nb = Notebook.from_globals(globals())  # spark / dbutils / display on Databricks; env vars locally

# COMMAND ----------

LAKEHOUSE = nb.text("lakehouse", "./lakehouse", "lakehouse directory")
GROUP = nb.text("group", "", "consumer group (empty = most generations)", env="GROUP_ID")
TOPIC = nb.text("topic", "*", "topic (* = all)", env="TOPIC")

# COMMAND ----------

from jobs.report import plots, summary  # noqa: E402

skew = nb.tables(LAKEHOUSE, group=GROUP or None)["partition_skew"]
if not GROUP and len(skew):
    GROUP = skew.groupby("group_id").size().sort_values(ascending=False).index[0]
print(f"group: {GROUP!r}")
nb.show(summary.skew_table(skew, GROUP, TOPIC), "skew per generation", rows=50)

# COMMAND ----------

nb.show(plots.skew_by_generation(skew, GROUP, TOPIC), "skew_by_generation")
nb.show(plots.movement_by_generation(skew, GROUP, TOPIC), "movement_by_generation")

# COMMAND ----------

# MAGIC %md
# MAGIC ## By assignor (all groups of the lakehouse)

# COMMAND ----------

nb.show(summary.assignor_summary(nb.tables(LAKEHOUSE)["partition_skew"], TOPIC), "by assignor")
