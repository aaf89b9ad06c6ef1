# Databricks notebook source
# MAGIC %md
# MAGIC # 02 · Cluster overview
# MAGIC Which groups rebalance most and how long consumption was paused, why (cause breakdown), when (a heatmap
# MAGIC of rebalances per group over time), the storms and the groups that stormed together on the same
# MAGIC coordinator.

# COMMAND ----------

try:  # the repository root on sys.path: notebooks/_bootstrap.py (Databricks Git folders have it already)
    import _bootstrap  # noqa: F401
except ImportError:
    pass

from jobs.report.notebook import Notebook  # noqa: E402

nb = Notebook.from_globals(globals())  # spark / dbutils / display on Databricks; env vars locally

# COMMAND ----------

LAKEHOUSE = nb.text("lakehouse", "./lakehouse", "lakehouse directory")
TOP_N = int(nb.text("top_n", "15", "groups to show", env="TOP_N"))
REPORT = nb.text("report", "", "also write the HTML report here (optional)", env="REPORT")

# COMMAND ----------

import dataclasses  # noqa: E402

import pandas as pd  # noqa: E402

from jobs.report import plots, summary  # noqa: E402

tables = nb.tables(LAKEHOUSE)
nb.show(pd.DataFrame([dataclasses.asdict(summary.totals(tables))]), "totals")

# COMMAND ----------

# MAGIC %md
# MAGIC ## Groups ranked by rebalances and paused time

# COMMAND ----------

nb.show(summary.group_ranking(tables["rebalances"], tables["storms"]).head(TOP_N), "group ranking")
nb.show(plots.group_ranking(tables["rebalances"], top_n=TOP_N), "group_ranking")

# COMMAND ----------

# MAGIC %md
# MAGIC ## Why: causes

# COMMAND ----------

nb.show(summary.cause_counts(tables["rebalances"]), "causes")
nb.show(plots.cause_breakdown(tables["rebalances"]), "cause_breakdown")
nb.show(summary.top_culprits(tables["rebalances"]), "top culprits")

# COMMAND ----------

# MAGIC %md
# MAGIC ## When: rebalances per group over time (minute, hour, day or week cells by span)

# COMMAND ----------

nb.show(plots.rebalances_heatmap(tables["rebalance_frequency"], top_n=TOP_N, rebalances=tables["rebalances"]),
        "rebalances_heatmap")

# COMMAND ----------

# MAGIC %md
# MAGIC ## Storms, and groups that stormed together on one coordinator

# COMMAND ----------

nb.show(summary.worst_storms(tables["storms"]), "worst storms")
nb.show(plots.storm_timeline(tables["storms"]), "storm_timeline")
nb.show(summary.co_storms(tables["storms"]), "groups that stormed together")

# COMMAND ----------

# MAGIC %md
# MAGIC ## The storm report
# MAGIC The same, as one self-contained HTML page (shown below on Databricks; written to the `report` widget's
# MAGIC path when given, e.g. `/dbfs/tmp/rebalance-report.html` or a Volume path).

# COMMAND ----------

html_report = nb.report(LAKEHOUSE, REPORT)
