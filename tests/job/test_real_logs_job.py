"""The whole job over the real-log corpus (``tests/fixtures/real/``: excerpts people pasted in
public threads): the job reads each file as ``parse_bytes`` does (the per-line expectations are
scored in ``tests/ingest/test_real_logs.py``), replays the groups without a replay error, and its
summary accounts for everything it did not read."""

from __future__ import annotations

import os
import shutil

import pytest

from jobs.ingest.parse import parse_bytes
from jobs.pipeline import run_job
from jobs.sink import read_table
from tests.ingest import real_corpus as RC
from tests.job.helpers import job_config

pytestmark = [pytest.mark.spark, pytest.mark.slow]


@pytest.fixture(scope="module")
def real_job(spark, tmp_path_factory):
    logs = tmp_path_factory.mktemp("real") / "logs"
    os.makedirs(logs)
    for name in RC.excerpts():
        shutil.copy(os.path.join(RC.REAL_DIR, name + ".log"), logs / (name + ".log"))
    lake = str(tmp_path_factory.mktemp("real-lake") / "lakehouse")
    summary = run_job(spark, job_config(lake), [(str(logs), "real")], "batch")
    return str(logs), lake, summary


def test_the_job_reads_every_excerpt_as_the_parser_does(real_job):
    logs, lake, summary = real_job
    audit = read_table(None, lake, "ingest_audit")
    events = read_table(None, lake, "events")
    assert summary.files_new == len(RC.excerpts()) == len(audit)
    per_file = events.groupby("source_file").size().to_dict()
    for name in RC.excerpts():
        path = os.path.join(logs, name + ".log")
        with open(path, "rb") as fh:
            ev, q, a = parse_bytes(fh.read(), path, "real")
        row = audit[audit.source_file == path].iloc[0]
        assert (row.events, row.quarantined, row.total_lines) == (a["events"], a["quarantined"], a["total_lines"]), name
        assert per_file.get(path, 0) == ev.num_rows, name


def test_the_real_groups_replay_without_errors_and_give_rebalances(real_job):
    _, lake, summary = real_job
    assert summary.replay_errors == 0
    assert summary.groups_total >= 30
    rebalances = read_table(None, lake, "rebalances")
    assert len(rebalances) >= 20
    assert set(rebalances.cause) - {"unknown"}  # causes were found, not only 'unknown'
    assert sum(summary.quarantine_reasons.values()) == summary.quarantined
