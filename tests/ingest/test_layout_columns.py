"""The date and the time in columns of their own (CSV, TSV and spreadsheet exports): one timestamp, read by the
date-time grammar's column separator and the CSV classifier; JVM catalogue statements rendered in each export
(tests/ingest/jvm_layouts.py) and read the same by both readers."""

from __future__ import annotations

import pytest

from jobs.ingest import date_grammar as DG
from jobs.ingest import records as R
from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes
from tests.ingest import framework_layouts as F
from tests.ingest import jvm_layouts as J

EXPORTS = ["csv-date-time", "csv-unquoted-date-time", "tsv-date-time", "excel-us-date-time", "excel-de-date-time"]
SOURCES = ("kafka-consumer-classic", "spring-kafka", "kafka-connect")


@pytest.mark.parametrize(("text", "iso"), [
    ("2024-05-01,13:00:00.123", "2024-05-01 13:00:00.123"),
    ('2024-05-01","13:00:00.123', "2024-05-01 13:00:00.123"),
    ("2024-05-01\t13:00:00,123", "2024-05-01 13:00:00.123"),
    ("01.05.2024;13:00:00,123", "2024-05-01 13:00:00.123"),
    ("5/1/2024,1:00:00 PM", "2024-05-01 13:00:00.000"),
    ("2024-05-01 | 13:00:00", "2024-05-01 13:00:00.000"),
])  # fmt: skip
def test_a_column_separator_between_date_and_time_is_one_timestamp(text: str, iso: str) -> None:
    assert DG.to_iso(text) == iso


def test_a_csv_date_column_joins_the_time_column_after_it() -> None:
    f = R.classify_columns(["2024-05-01", "13:00:00.123", "INFO", "kafka.coordinator", "Joined group g"], False)
    assert f is not None and (f["ts"], f["level"], f["logger"], f["message"]) == (
        "2024-05-01 13:00:00.123", "INFO", "kafka.coordinator", "Joined group g")


@pytest.mark.parametrize("layout", EXPORTS)
def test_every_export_reads_the_statements_with_their_time_in_both_readers(layout: str) -> None:
    msgs = [m for s in SOURCES for m in J.messages(s)]
    for reader in (parse_bytes, read_bytes):
        ok, bad = F.score(msgs, J.LAYOUTS[layout], reader, f"export-{layout}")
        assert ok == len(msgs), bad[:3]
