"""Every notebook runs from the checkout: 01 runs the job on the bundled samples (shared ``spark``
fixture; on a copy of the session's ``sample_job`` lakehouse), 02-05 read that lakehouse locally
(delta-rs) and, with fake ``dbutils``/``display``, the way they run on Databricks (widgets, tables
through Spark)."""

from __future__ import annotations

import contextlib
import os
import runpy
import shutil

import pandas as pd
import pytest
from matplotlib.figure import Figure

NOTEBOOKS = os.path.join(os.path.dirname(__file__), "..", "..", "notebooks")
NAMES = ["01_run_job", "02_cluster_overview", "03_group_timeline", "04_skew_and_movement", "05_what_if"]

pytestmark = pytest.mark.spark


@contextlib.contextmanager
def env(**values: str):
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def run(name: str, **init) -> dict:
    return runpy.run_path(
        os.path.join(NOTEBOOKS, f"{name}.py"), init_globals=init or None, run_name="__main__"
    )


@pytest.fixture(scope="module")
def sample_lakehouse(sample_job) -> str:
    """The sample lakehouse of the session-wide ``sample_job`` (tests/conftest.py): read only."""
    return sample_job[0]


def test_01_run_job(spark, sample_lakehouse, tmp_path):
    """Notebook 01 runs the job (samples, defaults) on a copy of the sample lakehouse: every file
    is already ingested, the tables stay those of the one run."""
    lakehouse = str(tmp_path / "lakehouse")
    shutil.copytree(sample_lakehouse, lakehouse)
    with env(LAKEHOUSE=lakehouse, INPUT="", MODE="batch", CONFIG=""):
        g = run("01_run_job", spark=spark)
    assert g["summary"].rebalances_total == 16  # jobs/samples/EXPECTED.md
    assert g["summary"].table_rows["rebalances"] == 16
    assert g["summary"].files_seen == 6 and g["summary"].files_skipped == 6


@pytest.mark.parametrize("name", NAMES)
def test_databricks_source_format(name):
    with open(os.path.join(NOTEBOOKS, f"{name}.py"), encoding="utf-8") as fh:
        text = fh.read()
    assert text.startswith("# Databricks notebook source\n")
    assert text.count("\n# COMMAND ----------\n") >= 2
    assert "# MAGIC %md" in text
    assert "nb.text(" in text  # widgets (dbutils.widgets on Databricks)
    assert "    import _bootstrap  # noqa: F401\n" in text and "sys.path.insert" not in text  # one bootstrap
    compile(text, name, "exec")


def test_a_notebook_runs_as_a_script_from_any_directory(sample_lakehouse, tmp_path):
    """``python notebooks/04_skew_and_movement.py`` from another directory: Python puts the notebook's
    folder first on sys.path, notebooks/_bootstrap.py puts this checkout's root before anything else."""
    import subprocess
    import sys

    nb = os.path.abspath(os.path.join(NOTEBOOKS, "04_skew_and_movement.py"))
    code = ("import runpy, sys\nsys.path[0] = sys.argv[1]\nrunpy.run_path(sys.argv[2], run_name='__main__')\n"
            "import jobs\nprint('jobs from', jobs.__file__)")  # as `python <notebook>` sets sys.path[0]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(LAKEHOUSE=sample_lakehouse, NOTEBOOK_OUT=str(tmp_path / "out"), GROUP_ID="orders", TOPIC="*")
    done = subprocess.run([sys.executable, "-c", code, os.path.dirname(nb), nb], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    root = os.path.dirname(os.path.abspath(NOTEBOOKS))
    assert f"jobs from {os.path.join(root, 'jobs', '__init__.py')}" in done.stdout
    assert sorted(os.listdir(tmp_path / "out")) == ["movement_by_generation.png", "skew_by_generation.png"]


def test_02_cluster_overview(sample_lakehouse, tmp_path):
    report = str(tmp_path / "html" / "report.html")
    with env(LAKEHOUSE=sample_lakehouse, NOTEBOOK_OUT=str(tmp_path), REPORT=report):
        g = run("02_cluster_overview")
    with open(report, encoding="utf-8") as fh:
        assert fh.read() == g["html_report"]
    assert "<b>orders</b> rebalanced most: <b>7</b> times" in g["html_report"]
    os.remove(report)
    os.rmdir(os.path.dirname(report))
    assert len(g["tables"]["rebalances"]) == 16
    assert sorted(os.listdir(tmp_path)) == [
        "cause_breakdown.png", "group_ranking.png", "rebalances_heatmap.png", "storm_timeline.png",
    ]  # fmt: skip
    ranking = g["summary"].group_ranking(g["tables"]["rebalances"])
    assert ranking["group_id"].iloc[0] == "orders" and ranking["rebalances"].iloc[0] == 7


def test_03_group_timeline_picks_the_busiest_group(sample_lakehouse, tmp_path):
    with env(LAKEHOUSE=sample_lakehouse, NOTEBOOK_OUT=str(tmp_path), GROUP_ID="", START="", END=""):
        g = run("03_group_timeline")
    assert g["GROUP"] == "orders"
    assert set(g["tables"]["rebalances"]["group_id"]) == {"orders"}
    assert os.listdir(tmp_path) == ["group_timeline.png"]


def test_04_skew_and_movement(sample_lakehouse, tmp_path):
    with env(LAKEHOUSE=sample_lakehouse, NOTEBOOK_OUT=str(tmp_path), GROUP_ID="orders", TOPIC="*"):
        g = run("04_skew_and_movement")
    assert len(g["skew"]) > 0 and set(g["skew"]["group_id"]) == {"orders"}
    assert sorted(os.listdir(tmp_path)) == ["movement_by_generation.png", "skew_by_generation.png"]


def test_05_what_if(sample_lakehouse, tmp_path):
    with env(LAKEHOUSE=sample_lakehouse, NOTEBOOK_OUT=str(tmp_path), GROUP_ID="orders", STATIC_MEMBERS="*",
             SESSION_TIMEOUT_MS="120000", ASSIGNOR="cooperative-sticky"):  # fmt: skip
        g = run("05_what_if")
    c = g["comparison"].set_index("scenario")
    assert c.loc["observed", "rebalances"] == 7  # orders: 7 rebalances in the samples
    assert c.loc["static members", "rebalances"] < c.loc["observed", "rebalances"]
    assert c.loc["static members", "paused_ms"] < c.loc["observed", "paused_ms"]
    assert os.listdir(tmp_path) == ["what_if_comparison.png"]
    advice = g["advice"].set_index("change")
    # orders' storm is a rolling restart of 3 consumers on 6 partitions: static membership
    # re-simulates it away (the group's first forming stays), cooperative-sticky keeps every
    # rebalance (plus its follow-ups) but stops only the moved partitions: the two save the most
    # partition-time; a longer session timeout changes nothing
    static = advice.loc["static_membership"]
    assert (static["rebalances_before"], static["rebalances_after"]) == (7, 1)
    assert advice.loc["cooperative_sticky", "rebalances_after"] > 7
    assert set(g["advice"]["change"].iloc[:2]) == {"static_membership", "cooperative_sticky"}
    assert advice.loc["static_membership", "paused_ms_saved"] > advice.loc["cooperative_sticky", "paused_ms_saved"]
    assert advice.loc["longer_session", "strength"] == "no effect"
    # no config: Kafka's defaults, said so (the one home of these settings is the config's kafka: section)
    assert g["given"] == {} and g["BASELINE_SESSION_TIMEOUT_MS"] == 45_000


class FakeWidgets:
    def __init__(self, values: dict[str, str]):
        self.values, self.defined = values, {}

    def text(self, name, default, label=None):
        self.defined[name] = ("text", default)

    def dropdown(self, name, default, choices, label=None):
        assert default in choices
        self.defined[name] = ("dropdown", default)

    def get(self, name):
        return self.values.get(name, self.defined[name][1])


class FakeDbutils:
    def __init__(self, values):
        self.widgets = FakeWidgets(values)


def test_02_on_databricks_uses_widgets_spark_and_display(sample_lakehouse, spark):
    dbutils, shown, html = FakeDbutils({"lakehouse": sample_lakehouse, "top_n": "3"}), [], []
    g = run(
        "02_cluster_overview", spark=spark, dbutils=dbutils, display=shown.append, displayHTML=html.append
    )
    assert len(html) == 1 and html[0].startswith("<!DOCTYPE html>") and html[0].count("<img") >= 6
    assert dbutils.widgets.defined["lakehouse"] == ("text", "./lakehouse")
    assert g["TOP_N"] == 3
    assert len(g["tables"]["rebalances"]) == 16
    figures = [o for o in shown if isinstance(o, Figure)]
    frames = [o for o in shown if isinstance(o, pd.DataFrame)]
    assert len(figures) == 4 and len(frames) == 6
    assert len(frames[1]) == 3  # group ranking capped by the top_n widget


def test_05_on_databricks_reads_events_through_spark(sample_lakehouse, spark):
    dbutils = FakeDbutils(
        {"lakehouse": sample_lakehouse, "group": "orders", "static_members": "consumer-orders-*"}
    )
    shown: list = []
    g = run("05_what_if", spark=spark, dbutils=dbutils, display=shown.append)
    assert dbutils.widgets.defined["assignor"] == ("dropdown", "cooperative-sticky")
    assert len(g["events"]) == 50  # the orders events of the samples, as in the local run
    c = g["comparison"].set_index("scenario")
    assert c.loc["observed", "rebalances"] == 7
    assert c.loc["static members", "rebalances"] < 7
    assert any(isinstance(o, Figure) for o in shown)
