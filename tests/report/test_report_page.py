"""The sample's report as a reader sees it (tests/report/page_checks.py): real figures, counts that
agree with the run's console summary, advice whose strength matches its baseline, and a page that
fits 1400 px and 390 px without horizontal scrolling (in a headless Chromium when one is installed)."""

from __future__ import annotations

import pathlib
import re

import pytest

from jobs.report import build_report
from tests.report import page_checks as PC

pytestmark = pytest.mark.spark


@pytest.fixture(scope="module")
def sample_page(sample_job, tmp_path_factory):
    lake, summary = sample_job
    out = tmp_path_factory.mktemp("page") / "report.html"
    build_report(lake, str(out))
    return out, out.read_text(encoding="utf-8"), summary


def test_the_sample_report_reads_true(sample_page, tmp_path):
    report, page, summary = sample_page
    PC.check_counts(page, summary)
    PC.check_advice(page)
    assert "Client settings assumed: session.timeout.ms=45000 (Kafka&#x27;s default)" in page
    # a figure with nothing to draw is one line saying why, never an empty picture
    assert re.findall(r"<p class=\"muted\">([^<]*): not drawn, ([^<]*)\.</p>", page) == [
        ("Partitions moved per generation of group orders", "no partition moved between two known assignments")]
    assert page.count("<h4>") >= 1 and page.count("<table>") == page.count('<div class="scroll"><table>')
    PC.check_page(page, report, tmp_path)


def test_a_browser_checks_the_layout_where_one_is_installed():
    """Says plainly whether the layout was looked at in a browser here (skipped, not passed, if not)."""
    if PC.browser() is None:
        pytest.skip("no Chromium installed: the layout was checked statically only (tables scroll, figures scale)")
    assert pathlib.Path(PC.browser()).exists()
