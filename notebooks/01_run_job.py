# Databricks notebook source
# MAGIC %md
# MAGIC # 01 · Run the rebalance-lens job
# MAGIC Reads Kafka broker/client/Connect logs from a path, replays every consumer group through the model of
# MAGIC Kafka's group coordinator and writes the Delta tables (`rebalances`, `storms`, `partition_skew`, ...)
# MAGIC to the lakehouse directory.
# MAGIC
# MAGIC Widgets: **input** (comma-separated paths or globs; empty = the bundled sample logs), **cluster**,
# MAGIC **lakehouse** (output directory), **mode** (`batch`: re-read everything not ingested yet;
# MAGIC `incremental`: streaming-style, state carried in the checkpoint) and **config** (optional YAML file,
# MAGIC see `conf/local.yaml`).

# COMMAND ----------

try:  # the repository root on sys.path: notebooks/_bootstrap.py (Databricks Git folders have it already)
    import _bootstrap  # noqa: F401
except ImportError:
    pass

from jobs.report.notebook import Notebook  # noqa: E402

nb = Notebook.from_globals(globals())  # spark / dbutils / display on Databricks; env vars locally

# COMMAND ----------

INPUT = nb.text("input", "", "input paths (empty = samples)")
CLUSTER = nb.text("cluster", "default", "cluster name of the inputs")
LAKEHOUSE = nb.text("lakehouse", "./lakehouse", "lakehouse directory")
MODE = nb.dropdown("mode", "batch", ["batch", "incremental"], "mode")
CONFIG = nb.text("config", "", "config YAML (optional)")

# COMMAND ----------

from jobs.pipeline import run_job  # noqa: E402
from jobs.report.console import summary_text  # noqa: E402
from jobs.report.notebook import job_config, job_inputs  # noqa: E402

config = job_config(CONFIG, LAKEHOUSE)
inputs = job_inputs(INPUT, CLUSTER)
summary = run_job(nb.session(), config, inputs, MODE)
print(summary_text(summary))

# COMMAND ----------

# MAGIC %md
# MAGIC Next: **02_cluster_overview** (which groups suffer, why, storms) with the same `lakehouse` widget.

# COMMAND ----------

import pandas as pd  # noqa: E402

nb.show(pd.DataFrame(sorted(summary.table_rows.items()), columns=["table", "rows"]), "table rows")
