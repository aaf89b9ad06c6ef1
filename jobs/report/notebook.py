"""The glue the notebooks share, so they stay wiring only.

On Databricks a notebook has ``spark``, ``dbutils`` and ``display`` as globals; run locally as a plain
script (``LAKEHOUSE=./lakehouse python notebooks/02_cluster_overview.py``) it has none of them. A
:class:`Notebook` built from ``globals()`` hides the difference: widgets become environment variables
with defaults, ``show`` displays on Databricks and prints / saves PNGs locally (into ``$NOTEBOOK_OUT``
when set), and tables come through Spark on Databricks and delta-rs locally.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Sequence
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from jobs.config import JobConfig, load_config
from jobs.ingest.model import InputSpec
from jobs.report import report_html, write_report
from jobs.report.data import load_tables
from jobs.session import local_session


class Notebook:
    def __init__(self, spark: Any = None, dbutils: Any = None, display: Any = None):
        self.spark = spark
        self.dbutils = dbutils
        self._display = display
        self.out_dir = os.environ.get("NOTEBOOK_OUT") or None
        self.shown: list[str] = []
        self._display_html: Any = None

    @classmethod
    def from_globals(cls, g: dict[str, Any]) -> Notebook:
        nb = cls(g.get("spark"), g.get("dbutils"), g.get("display"))
        nb._display_html = g.get("displayHTML")
        return nb

    @property
    def on_databricks(self) -> bool:
        return self.dbutils is not None

    # ------------------------------------------------------------------ widgets
    def text(self, name: str, default: str = "", label: str | None = None, env: str | None = None) -> str:
        """A text widget on Databricks; locally the environment variable ``env`` (default: NAME upper-cased)."""
        if self.dbutils is not None:
            self.dbutils.widgets.text(name, default, label or name)
            return self.dbutils.widgets.get(name)
        return os.environ.get(env or name.upper(), default)

    def dropdown(
        self,
        name: str,
        default: str,
        choices: Sequence[str],
        label: str | None = None,
        env: str | None = None,
    ) -> str:
        if self.dbutils is not None:
            self.dbutils.widgets.dropdown(name, default, list(choices), label or name)
            return self.dbutils.widgets.get(name)
        value = os.environ.get(env or name.upper(), default)
        if value not in choices:
            raise ValueError(f"{env or name.upper()}={value!r}: expected one of {', '.join(choices)}")
        return value

    # ------------------------------------------------------------------ data
    def table_spark(self) -> Any:
        """The session tables are read with: Databricks' ``spark``; None locally (delta-rs)."""
        return self.spark if self.on_databricks else None

    def session(self) -> Any:
        """A SparkSession to run the job: the notebook's, else a local one."""
        if self.spark is not None:
            return self.spark
        self.spark = local_session(master=os.environ.get("SPARK_MASTER", "local[2]"), shuffle_partitions=4)
        return self.spark

    def tables(self, lakehouse: str, group: str | None = None) -> dict[str, pd.DataFrame]:
        return load_tables(lakehouse, spark=self.table_spark(), group=group or None)

    # ------------------------------------------------------------------ output
    def report(self, lakehouse: str, path: str = "", group: str | None = None) -> str:
        """Build the HTML storm report; shown inline on Databricks (``displayHTML``), written to
        ``path`` when given. Returns the HTML."""
        text = report_html(lakehouse, group or None, spark=self.table_spark())
        if path:
            write_report(text, path)
            print(f"report written to {path}")
        if self._display_html is not None and self.on_databricks:
            self._display_html(text)
        return text

    def show(self, obj: Any, name: str = "output", rows: int = 20) -> None:
        """``display`` on Databricks; locally print frames and save figures (when ``$NOTEBOOK_OUT`` is set)."""
        self.shown.append(name)
        if self._display is not None and self.on_databricks:
            self._display(obj)
            return
        if isinstance(obj, Figure):
            if self.out_dir:
                os.makedirs(self.out_dir, exist_ok=True)
                safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:80]
                obj.savefig(os.path.join(self.out_dir, f"{safe}.png"), dpi=90)
            print(f"[figure] {name}")
            return
        if isinstance(obj, pd.DataFrame):
            print(f"[table] {name} ({len(obj)} rows)")
            with pd.option_context("display.width", 160, "display.max_columns", 12):
                print(obj.head(rows).to_string(index=False) if len(obj) else "(empty)")
            return
        print(obj)


# ---------------------------------------------------------------------- job wiring (notebook 01)
def job_inputs(paths: str, cluster: str = "default") -> list[Any]:
    """Comma-separated input paths as the job's inputs; empty = the bundled sample logs, one cluster
    per sub-directory (like ``./spark-submit.sh --sample``)."""
    items = [p.strip() for p in (paths or "").split(",") if p.strip()]
    if items:
        return [InputSpec(path=p, cluster=cluster or "default") for p in items]
    samples = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "samples", "logs")
    return [InputSpec(path=os.path.join(samples, d), cluster=d) for d in sorted(os.listdir(samples))
            if os.path.isdir(os.path.join(samples, d))]  # fmt: skip


def job_config(config_path: str | None, lakehouse: str) -> Any:
    """The job configuration of ``config_path`` (YAML; empty = defaults) writing to ``lakehouse``."""
    cfg = load_config(config_path) if config_path else JobConfig()
    return cfg.replace(output=dataclasses.replace(cfg.output, path=lakehouse))


def parse_members(text: str) -> set[str] | None:
    """``a, b*`` -> {"a", "b*"} (member ids or fnmatch patterns of client ids / hosts); empty -> None."""
    items = {p.strip() for p in (text or "").split(",") if p.strip()}
    return items or None
