"""A time of day without a date (logback ``HH:mm:ss.SSS``, Elixir's Logger, Serilog's console) takes its
date by one rule (jobs/ingest/day_dates.py), the same in both readers, and the audit counts the events
dated from outside the file's lines."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from jobs.config import ConfigError, config_from_dict
from jobs.ingest import day_dates as DD
from jobs.ingest.model import IngestSettings
from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes

JOINED = ("{t} [main] INFO  o.a.k.c.c.i.AbstractCoordinator - [Consumer clientId=c, groupId=g] Successfully joined "
          "group with generation Generation{{generationId={g}, memberId='m', protocol='range'}}")  # fmt: skip
READERS = [parse_bytes, read_bytes]


def _ms(*a: int) -> int:
    return int(datetime(*a, tzinfo=UTC).timestamp() * 1000)


def _file(*times: str) -> bytes:
    return "".join(JOINED.format(t=t, g=k + 1) + "\n" for k, t in enumerate(times)).encode()


def _read(reader, data: bytes, name: str = "app.log", settings: IngestSettings | None = None,
          mtime_ms: int | None = None) -> tuple[list[int | None], dict]:  # fmt: skip
    ev, _, audit = reader(data, name, "c", settings or IngestSettings(), "r", mtime_ms=mtime_ms)
    assert ev.column("kind").to_pylist() == ["joined"] * ev.num_rows
    return ev.column("ts_ms").to_pylist(), audit


@pytest.mark.parametrize("reader", READERS)
def test_a_dated_line_dates_the_times_of_day_after_it_and_before_it(reader) -> None:
    data = _file("13:00:00.100", "2024-05-01 13:00:01,200", "13:00:02.300")
    ts, audit = _read(reader, data, "app-2023-01-01.log")
    assert ts == [_ms(2024, 5, 1, 13, 0, 0, 100000), _ms(2024, 5, 1, 13, 0, 1, 200000), _ms(2024, 5, 1, 13, 0, 2, 300000)]
    assert "dated_from" not in audit  # (the file's own line dated them, not its name)


@pytest.mark.parametrize("reader", READERS)
def test_the_day_rolls_forward_past_midnight_and_back_before_a_later_dated_line(reader) -> None:
    after = _file("2024-05-01 23:59:58,000", "23:59:59.500", "00:00:00.250", "00:10:00.000")
    assert _read(reader, after)[0] == [_ms(2024, 5, 1, 23, 59, 58), _ms(2024, 5, 1, 23, 59, 59, 500000),
                                       _ms(2024, 5, 2, 0, 0, 0, 250000), _ms(2024, 5, 2, 0, 10)]  # fmt: skip
    before = _file("23:59:59.000", "00:00:01.000", "2024-05-02 00:00:02,000")
    assert _read(reader, before)[0] == [_ms(2024, 5, 1, 23, 59, 59), _ms(2024, 5, 2, 0, 0, 1), _ms(2024, 5, 2, 0, 0, 2)]


@pytest.mark.parametrize("reader", READERS)
def test_without_a_dated_line_the_file_name_dates_them_and_the_audit_says_so(reader) -> None:
    data = _file("22:00:00.000", "23:30:00.000", "01:15:00.000")
    for name in ("app-2024-05-01.log", "logs/server.log.2024-05-01-22", "app_20240501.log"):
        ts, audit = _read(reader, data, name)
        assert ts == [_ms(2024, 5, 1, 22), _ms(2024, 5, 1, 23, 30), _ms(2024, 5, 2, 1, 15)], name
        assert audit["dated_from"] == {"file_name": 3}


@pytest.mark.parametrize("reader", READERS)
def test_else_the_modification_time_dates_them_backwards(reader) -> None:
    """The last line was written before the file's modification time: 23:30 with an mtime of 00:05 on
    May 2 is May 1."""
    data = _file("23:30:00.000", "00:01:00.000")
    ts, audit = _read(reader, data, "app.log", mtime_ms=_ms(2024, 5, 2, 0, 5))
    assert ts == [_ms(2024, 5, 1, 23, 30), _ms(2024, 5, 2, 0, 1)]
    assert audit["dated_from"] == {"modification_time": 2}
    # the file's name comes before the modification time
    assert _read(reader, data, "app-2024-03-03.log", mtime_ms=_ms(2024, 5, 2, 0, 5))[0][0] == _ms(2024, 3, 3, 23, 30)


@pytest.mark.parametrize("reader", READERS)
def test_the_setting_forces_the_date_over_the_files_own_lines(reader) -> None:
    data = _file("2024-05-01 12:00:00,000", "13:00:00.000", "00:30:00.000")
    ts, audit = _read(reader, data, "app-2024-05-01.log", IngestSettings(default_date="2023-12-31"))
    assert ts == [_ms(2024, 5, 1, 12), _ms(2023, 12, 31, 13), _ms(2024, 1, 1, 0, 30)]
    assert audit["dated_from"] == {"setting": 2}


@pytest.mark.parametrize("reader", READERS)
def test_with_nothing_to_date_them_the_events_are_kept_without_a_time(reader) -> None:
    ev, q, audit = reader(_file("13:00:00.000", "13:00:01.000"), "app.log", "c", IngestSettings(), "r")
    assert ev.column("ts_ms").to_pylist() == [None, None] and ev.column("ts_inferred").to_pylist() == [True, True]
    assert audit["events"] == 2 and q.num_rows == 0 and "dated_from" not in audit


def test_serilogs_seconds_are_a_time_of_day() -> None:
    data = b"[13:00:05 INF] [thrd:main]: Group \"g\" changed join state init -> wait-coord (state up)\n"
    ev, _, audit = parse_bytes(data, "svc-2024-05-01.log", "c", IngestSettings(), "r")
    assert ev.column("ts_ms").to_pylist() == [_ms(2024, 5, 1, 13, 0, 5)] and audit["dated_from"] == {"file_name": 1}


def test_file_dates_reads_names_and_the_modification_time_in_the_zone() -> None:
    assert DD.file_dates("a/app-2024-02-30.log", None, None, "UTC").name is None  # (no such day)
    assert DD.file_dates("app.20240229.log", None, None, "UTC").name == "2024-02-29"
    assert DD.file_dates("part-00000-1234567890.log", None, None, "UTC").name is None
    fd = DD.file_dates("app.log", None, _ms(2024, 5, 1, 23, 30), "Europe/Berlin")
    assert fd.mtime == ("2024-05-02", 1 * 3600 + 30 * 60)


def test_the_setting_is_read_from_the_config() -> None:
    assert config_from_dict({"ingest": {"default_date": "2024-05-01"}}).ingest.default_date == "2024-05-01"
    with pytest.raises(ConfigError, match="ingest.default_date"):
        config_from_dict({"ingest": {"default_date": "May 1st"}})


@pytest.mark.parametrize("reader", READERS)
def test_a_lines_own_dated_envelope_dates_its_time_of_day(reader) -> None:
    """logback's ``HH:mm:ss.SSS`` inside docker's json-file: docker's time gives the date (the day before
    when docker's clock has passed midnight and the application's has not)."""
    rec = '{{"log":"{t} [main] INFO  o.a.k.c.c.i.AbstractCoordinator - [Consumer clientId=c, groupId=g] Successfully joined group with generation Generation{{generationId=7, memberId=\'m\', protocol=\'range\'}}\\n","stream":"stdout","time":"{d}"}}\n'  # noqa: E501
    data = (rec.format(t="23:59:59.900", d="2024-05-02T00:00:00.100Z") + rec.format(t="00:00:00.300", d="2024-05-02T00:00:00.400Z")).encode()
    ts, audit = _read(reader, data, "app-2023-01-01.log")
    assert ts == [_ms(2024, 5, 1, 23, 59, 59, 900000), _ms(2024, 5, 2, 0, 0, 0, 300000)]
    assert "dated_from" not in audit


MTIME = _ms(2024, 5, 1, 18, 0, 0)


def _dated_file(tmp_path, name: str = "app.log"):
    import os

    p = tmp_path / name
    p.write_bytes(_file("13:00:00.100", "13:00:01.200"))
    os.utime(p, ns=(MTIME * 1_000_000, MTIME * 1_000_000))
    return p


def test_the_jobs_readers_pass_the_file_modification_time(tmp_path) -> None:
    """The local pipeline, a worker reading its files and the binaryFile rows give the parse the
    file's modification time, so its times of day are dated from it."""
    import pyarrow as pa

    from jobs import local
    from jobs.ingest.spark_ingest import _binary_items
    from jobs.ingest.task_files import local_items

    p = _dated_file(tmp_path)
    ev, _, audit = local.parse_file(p)
    assert ev.column("ts_ms").to_pylist() == [_ms(2024, 5, 1, 13, 0, 0) + 100, _ms(2024, 5, 1, 13, 0, 1) + 200]
    assert audit["dated_from"] == {DD.MTIME: 2}
    assert [(path, c, t) for _, path, c, t in local_items([(str(p), "c")])] == [(str(p), "c", MTIME)]
    batch = pa.record_batch({"cluster": ["c"], "path": [f"file:{p}"], "content": [p.read_bytes()],
                             "modificationTime": pa.array([MTIME * 1000], pa.timestamp("us", tz="UTC"))})  # fmt: skip
    assert [t for *_, t in _binary_items([batch])] == [MTIME]
