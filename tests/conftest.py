"""Shared fixtures. Spark tests share one session-scoped local SparkSession."""

from __future__ import annotations

import os
import sys

import pytest

os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
os.environ.setdefault("TZ", "UTC")

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")


@pytest.fixture(scope="session")
def spark():
    from jobs.session import local_session

    session = local_session(master="local[2]", app_name="rebalance-lens-tests", shuffle_partitions=4)
    yield session
    session.stop()


SAMPLE_LOGS = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "jobs", "samples", "logs"
)


@pytest.fixture(scope="session")
def sample_job(spark, tmp_path_factory):
    """ONE batch run of ``jobs.pipeline.run_job`` over the bundled samples (``jobs/samples/logs``, one
    cluster per sub-directory; Delta, storms 3 in 10 min = the defaults), shared by every test that
    only *reads* the sample lakehouse. Returns ``(lakehouse_dir, RunSummary)``.

    Tests that write (re-runs, crashes) must work on their own lakehouse or on a copy
    (``shutil.copytree(lakehouse, ...)``), never on this one."""
    from jobs.config import JobConfig, OutputConfig, RunConfig, StormsConfig
    from jobs.pipeline import run_job

    lake = str(tmp_path_factory.mktemp("sample-job") / "lakehouse")
    config = JobConfig().replace(
        output=OutputConfig(path=lake, format="delta", writer="auto"),
        run=RunConfig(mode="batch", progress=False),
        storms=StormsConfig(min_rebalances=3, window_minutes=10),
    )
    inputs = [(os.path.join(SAMPLE_LOGS, d), d) for d in sorted(os.listdir(SAMPLE_LOGS))
              if os.path.isdir(os.path.join(SAMPLE_LOGS, d))]  # fmt: skip
    summary = run_job(spark, config, inputs, "batch")
    return lake, summary


_EXIT_STATUS: list[int] = []


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    _EXIT_STATUS.append(int(exitstatus))


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    """Leave the test process the way the job's entry points do (``jobs.cli.exit_process``): after
    every report is written, with pytest's exit status and without the native static destructors,
    where Arrow's thread pools can abort a finished process ("terminate called without an active
    exception", exit 134) and fail a green run."""
    if _EXIT_STATUS and not os.environ.get("REBALANCE_LENS_PYTEST_NORMAL_EXIT"):
        from jobs.process import exit_process

        exit_process(_EXIT_STATUS[-1])
