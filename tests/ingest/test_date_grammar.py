"""Every pattern of the date-time grammar (jobs/ingest/date_patterns.py) rendered the way its
framework prints it, at the start of a Kafka coordinator line, reads back to the millisecond in both
readers; look-alike numbers are no timestamps; ambiguous day/month orders are decided per file."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

import pyarrow as pa
import pytest

from jobs.ingest import date_grammar as DG
from jobs.ingest import timestamps as TS
from jobs.ingest.date_patterns import PATTERNS, DatePattern
from jobs.ingest.epoch_ms import parse_timestamps
from jobs.ingest.model import IngestSettings
from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes

MSG = ("INFO [Consumer clientId=c, groupId=g] Successfully joined group with generation "
       "Generation{{generationId={g}, memberId='m', protocol='range'}}")  # fmt: skip
#: a leap day at midnight, a day > 12 in the afternoon with nanoseconds, single-digit month and day
INSTANTS = (
    datetime(2024, 2, 29, 0, 0, 0, 0, tzinfo=UTC),
    datetime(2024, 12, 25, 13, 5, 9, 123456, tzinfo=UTC),
    datetime(2024, 3, 7, 9, 8, 7, 500000, tzinfo=UTC),
    datetime(2018, 8, 31, 17, 2, 28, 14000, tzinfo=UTC),
)
CEST = timezone(timedelta(hours=2))
_TOKEN = re.compile(r"'[^']*'|([A-Za-z@])\1*|.")
_ZONED = set("XxZz")
#: patterns another member of their family is preferred to when every value of a file reads both
#: ways (log4j2's ``dd/MM/yy`` and Spark/Hadoop's ``yy/MM/dd`` read the same text while the year is
#: below 32): the grammar reads such a file as the earlier member
SHADOWED = {"dd/MM/yy HH:mm:ss.SSS"}


def _frac(t: datetime, n: int) -> str:
    return (f"{t.microsecond:06d}789")[:n]  # (three more digits: nanoseconds)


def _offset(t: datetime, tok: str) -> str:
    off = t.utcoffset() or timedelta(0)
    if off == timedelta(0) and tok[0] == "X":
        return "Z"
    mins = int(off.total_seconds() // 60)
    sign, hh, mm = "-" if mins < 0 else "+", abs(mins) // 60, abs(mins) % 60
    return f"{sign}{hh:02d}" if len(tok) == 1 and tok[0] == "X" else f"{sign}{hh:02d}:{mm:02d}" if len(tok) == 3 \
        else f"{sign}{hh:02d}{mm:02d}"  # fmt: skip


def render(pattern: str, t: datetime) -> str:
    """``t`` formatted the way Java's ``DateTimeFormatter`` prints ``pattern`` (its zone name: UTC or CEST)."""
    out, pad = [], False
    for tok in (m.group(0) for m in _TOKEN.finditer(pattern)):
        c, n = tok[0], len(tok)
        h12 = t.hour % 12 or 12
        val = {
            "y": f"{t.year:04d}" if n >= 4 else f"{t.year % 100:02d}",
            "M": t.strftime("%B") if n >= 4 else t.strftime("%b") if n == 3 else f"{t.month:0{n}d}",
            "d": f"{t.day:0{n}d}", "H": f"{t.hour:0{n}d}", "h": f"{h12:0{n}d}", "m": f"{t.minute:02d}",
            "s": f"{t.second:02d}", "S": _frac(t, n), "n": _frac(t, n), "a": "AM" if t.hour < 12 else "PM",
            "E": t.strftime("%A") if n >= 4 else t.strftime("%a"), "z": "UTC" if t.utcoffset() == timedelta(0) else "CEST",
            "o": {1: "st", 2: "nd", 3: "rd"}.get(t.day % 10 if t.day not in (11, 12, 13) else 0, "th"), "@": "I",
        }.get(c)  # fmt: skip
        if c in "XxZ":
            val = _offset(t, tok)
        if c == "p":
            pad = True
            continue
        if val is None:
            val = tok[1:-1] if c == "'" and n > 2 else tok
        out.append(val.rjust(2) if pad else val)
        pad = False
    return "".join(out)


def _tokens(pattern: str) -> list[str]:
    return [m.group(0) for m in _TOKEN.finditer(pattern)]


def _expected_ms(p: DatePattern, t: datetime) -> int:
    """The instant as printed (its fraction cut to the digits the pattern prints), in whole ms."""
    digits = max((len(tok) for tok in _tokens(p.pattern) if tok[0] in "Sn"), default=0)
    return int(t.replace(microsecond=0).timestamp()) * 1000 + int((_frac(t, digits) if digits else "")[:3].ljust(3, "0"))


def _dated(p: DatePattern) -> bool:
    return DG.compile_pattern(p).dated


def _yearless(p: DatePattern) -> bool:
    return "y" not in p.pattern.replace("'", "")


def _lines(p: DatePattern) -> list[tuple[str, int]]:
    """(the rendered timestamp, its epoch ms) of each instant (those of 2024 for a year-less pattern,
    read with ``ingest.default_year`` 2024; in CEST for a pattern that prints a zone)."""
    zoned = any(tok[0] in _ZONED for tok in _tokens(p.pattern))
    insts = [i.astimezone(CEST) if zoned else i for i in INSTANTS if not _yearless(p) or i.year == 2024]
    return [(render(p.pattern, t), _expected_ms(p, t)) for t in insts]


DATED_PATTERNS = [p for p in {p.pattern: p for p in PATTERNS if _dated(p)}.values() if p.pattern not in SHADOWED]


def _files() -> list[list[DatePattern]]:
    """The dated patterns in as few files as hold at most one pattern of each family (a file's
    ambiguous orders are decided for the whole file)."""
    files: list[list[DatePattern]] = []
    for p in DATED_PATTERNS:
        fam = DG.compile_pattern(p).family
        f = next((f for f in files if all(DG.compile_pattern(q).family != fam for q in f)), None)
        if f is None:
            files.append(f := [])
        f.append(p)
    return files


@pytest.mark.parametrize("reader", [parse_bytes, read_bytes])
@pytest.mark.parametrize("patterns", _files(), ids=lambda ps: ps[0].pattern)
def test_every_dated_pattern_reads_back_to_the_millisecond_in_both_readers(patterns, reader) -> None:
    rows = [(p.pattern, ts, ms) for p in patterns for ts, ms in _lines(p)]
    data = "".join(f"{ts} {MSG.format(g=k + 1)}\n" for k, (_, ts, _) in enumerate(rows)).encode()
    ev, q, _ = reader(data, "app.log", "c", IngestSettings(default_year=2024), "r")
    assert q.num_rows == 0 and ev.num_rows == len(rows)
    got = dict(zip(ev.column("line_no").to_pylist(), ev.column("ts_ms").to_pylist()))
    wrong = [(pat, ts, got.get(k + 1), ms) for k, (pat, ts, ms) in enumerate(rows) if got.get(k + 1) != ms]
    assert wrong == []
    assert ev.column("kind").to_pylist() == ["joined"] * len(rows)


def test_a_shadowed_pattern_reads_as_the_earlier_member_of_its_family() -> None:
    assert DG.iso_texts(["31/08/18 17:02:28.014", "07/03/24 09:08:07.500"]) == [
        "2031-08-18 17:02:28.014", "2007-03-24 09:08:07.500"]  # fmt: skip


@pytest.mark.parametrize("p", [p for p in PATTERNS if not _dated(p)], ids=lambda p: p.pattern)
def test_a_pattern_without_a_date_is_a_time_of_day_for_day_dates(p: DatePattern) -> None:
    ts = render(p.pattern, INSTANTS[1])
    assert TS.is_time_only(ts) and not DG.is_dated(ts) and TS.date_of(ts) is None


@pytest.mark.parametrize(
    ("suffix", "ms"),
    [("Z", 0), ("+02:00", -7200_000), ("+0200", -7200_000), (" +0200", -7200_000), (" UTC", 0), (" CEST", -7200_000),
     ("-05", 18000_000), (" +0000 UTC", 0), (" CST", 0)],
)  # fmt: skip
def test_a_zone_after_a_pattern_that_prints_none(suffix: str, ms: int) -> None:
    """(an ambiguous name, CST, is read in the default zone)"""
    for base, epoch in (("18/08/31 17:02:28", 1535734948000), ("2024-02-29 00:00:00.5", 1709164800500)):
        m = re.match(TS.LOCATE, f"{base}{suffix} INFO x")
        assert m is not None and m.group("ts") == base + suffix
        assert parse_timestamps(pa.array([base + suffix])).to_pylist() == [epoch + ms]


@pytest.mark.parametrize(
    "line",
    [
        "Kafka version: 1.0.1 (org.apache.kafka.common.utils.AppInfoParser)",
        "connected to 10.0.0.1:9092 (id: 2147483646 rack: null)",
        "Rebalance took 00:00:05.000 over 3.1.2 members",
        "Assigned partitions: [t-0, t-1, t-12, t-31]",
        "Setting offset for partition t-0 to the committed offset FetchPosition{offset=20240501, epoch=12}",
        "version 2.12-3.6.1 build 20240501 15",
    ],
)
def test_look_alike_numbers_are_no_dated_timestamp(line: str) -> None:
    m = re.match(TS.LOCATE, line)
    assert m is None or not DG.is_dated(m.group("ts"))
    m = re.match(TS.LOCATE, "2024-05-01 10:00:00,123 " + line)
    assert m is not None and m.group("ts") == "2024-05-01 10:00:00,123"


def test_day_and_month_order_is_decided_per_file() -> None:
    us = ["05/01/2024 13:00:00", "05/02/2024 13:00:00"]
    eu = ["05/01/2024 13:00:00", "25/01/2024 13:00:00"]
    assert [v[:10] for v in DG.iso_texts(us)] == ["2024-05-01", "2024-05-02"]
    assert [v[:10] for v in DG.iso_texts(eu)] == ["2024-01-05", "2024-01-25"]  # (one day > 12: the whole file)
    spark = ["18/08/31 17:02:28", "12/05/24 10:00:00"]
    assert [v[:10] for v in DG.iso_texts(spark)] == ["2018-08-31", "2012-05-24"]
    us2 = ["12/25/24 10:00:00", "12/05/24 10:00:00"]  # (a value that cannot be yy/MM/dd)
    assert [v[:10] for v in DG.iso_texts(us2)] == ["2024-12-25", "2024-12-05"]


def test_a_dated_line_is_never_dated_by_the_time_of_day_rules() -> None:
    data = ("13:00:00.100 " + MSG.format(g=1) + "\n" + "18/08/31 17:02:28 " + MSG.format(g=2) + "\n").encode()
    for reader in (parse_bytes, read_bytes):
        ev, _, audit = reader(data, "app.log", "c", IngestSettings(), "r", mtime_ms=1_800_000_000_000)
        assert ev.column("ts_ms").to_pylist() == [1535720400100, 1535734948000]
        assert "dated_from" not in audit


def test_every_pattern_compiles_and_each_form_keeps_its_source() -> None:
    assert {f.source.pattern for f in DG.FORMS} <= {p.pattern for p in PATTERNS}
    assert all(p.source and p.ref and p.option for p in PATTERNS)
    with pytest.raises(ValueError, match="not in the grammar"):
        DG.compile_pattern(DatePattern("yyyy-MM-dd HH:mm:ss Q", "x", "x", "x"))
