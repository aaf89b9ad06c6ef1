# Databricks notebook source
# MAGIC %md
# MAGIC # 04 · Assignment skew and partition movement
# MAGIC Per generation of one group: partitions per member (min, mean, max), the skew ratio (max / mean), idle
# MAGIC members (no partition) and partitions moved between members, by assignor. Topic `*` = all topics.

# COMMAND ----------

# Put the repository root on sys.path: Databricks Git folders already do; run locally as a script
# (`LAKEHOUSE=./lakehouse python notebooks/04_skew_and_movement.py`) this finds it from the notebook's location.
import os
import sys

_here = os.path.dirname(os.path.abspath(globals().get("__file__") or os.path.join(os.getcwd(), "_")))
for _root in (os.path.dirname(_here), _here):
    if os.path.isdir(os.path.join(_root, "jobs")) and _root not in sys.path:
        sys.path.insert(0, _root)

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
