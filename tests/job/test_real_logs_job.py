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
from jobs.report.console import summary_text
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


def test_the_summary_says_what_could_not_be_read(real_job):
    """Every file from which nothing was read is named; the top quarantine reasons come with one real
    quarantined line and its file; the events without any timestamp (not replayed) are counted."""
    _, lake, summary = real_job
    audit = read_table(None, lake, "ingest_audit")
    nothing = set(audit[(audit.events == 0) & (audit.total_lines > 0)].source_file) | set(audit[audit.error.notna()].source_file)
    assert {f for f, _ in summary.files_not_read} == nothing and nothing
    quarantine = read_table(None, lake, "quarantine")
    assert set(summary.quarantine_examples) == set(summary.quarantine_reasons)
    for reason, (f, line_no, raw) in summary.quarantine_examples.items():
        row = quarantine[(quarantine.source_file == f) & (quarantine.line_no == line_no)].iloc[0]
        assert (row.reason, row.raw) == (reason, raw)
    text = summary_text(summary)
    top = sorted(summary.quarantine_reasons.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    f, line_no, _ = summary.quarantine_examples[top]
    assert f"    {top}: e.g. {f}:{line_no} " in text
    events = read_table(None, lake, "events")
    unattributed = events.group_id.str.startswith("unnamed-")
    assert summary.untimed_events == int((events.ts.isna() & ~unattributed).sum()) > 0
    assert f"events without any timestamp: {summary.untimed_events}" in text
    assert summary.unattributed_events == int(unattributed.sum()) > 0
    assert f"events naming no group: {summary.unattributed_events}" in text
    # the hint about declaring a layout is there because some unreadable line looks like a log line
    assert "hint: declare the layout" in text


def test_the_real_report_reads_true(real_job, tmp_path):
    """On real excerpts: counts agree with the console, no blank figure, advice strength matches its
    baseline, and the page fits 1400 px and 390 px (tests/report/page_checks.py)."""
    from jobs.report import build_report
    from tests.report import page_checks as PC

    _, lake, summary = real_job
    out = tmp_path / "report.html"
    build_report(lake, str(out))
    page = out.read_text(encoding="utf-8")
    PC.check_counts(page, summary)
    PC.check_advice(page)
    PC.check_page(page, out, tmp_path)
