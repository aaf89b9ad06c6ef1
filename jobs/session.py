"""SparkSession helpers. The job itself takes any SparkSession (local, cluster, Connect, Databricks);
these helpers only build the local one used by the sample run, the tests and the benchmarks."""

from __future__ import annotations

import os
import re
import sys

from pyspark.sql import SparkSession


def local_session(
    master: str = "local[*]",
    app_name: str = "rebalance-lens",
    shuffle_partitions: int = 8,
    extra_conf: dict[str, str] | None = None,
):
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    builder = (
        SparkSession.builder.master(master)
        .appName(app_name)
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", str(shuffle_partitions))
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", os.environ.get("REBALANCE_LENS_DRIVER_MEMORY", "4g"))
        .config("spark.sql.adaptive.enabled", "true")
        .config("spark.python.worker.reuse", "true")
    )
    for k, v in (extra_conf or {}).items():
        builder = builder.config(k, v)
    return builder.getOrCreate()


def is_connect(spark) -> bool:
    """True for a Spark Connect session (Databricks serverless / shared clusters)."""
    return type(spark).__module__.startswith("pyspark.sql.connect")


def parallelism(spark) -> int:
    """How many tasks the session runs at once, from its configuration only (no SparkContext, so
    it works over Spark Connect): ``spark.default.parallelism`` when set, else the N of a
    ``local[N]`` master (``local[*]``: this machine's cores), else ``spark.sql.shuffle.partitions``."""
    def conf(key: str) -> str | None:
        try:
            return spark.conf.get(key, None)
        except Exception:  # noqa: BLE001 - a Connect/serverless session may refuse to show a key
            return None

    value = conf("spark.default.parallelism")
    if value and value.isdigit():
        return max(1, int(value))
    m = re.fullmatch(r"local(?:\[(\*|\d+)(?:,\s*\d+)?\])?", conf("spark.master") or "")
    if m:
        n = m.group(1)
        if n is None:  # "local": one thread
            return 1
        return max(1, os.cpu_count() or 1) if n == "*" else max(1, int(n))
    value = conf("spark.sql.shuffle.partitions")
    return max(1, int(value)) if value and value.isdigit() else max(1, os.cpu_count() or 1)
