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
