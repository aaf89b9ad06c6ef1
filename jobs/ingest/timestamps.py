"""The timestamp locator: find a log line's timestamp wherever it sits, in the formats people have.

Known layouts say where their timestamp is; a line of an unknown layout (a custom logback pattern,
a log viewer's export, a syslog relay ...) does not. :data:`LOCATE` is one RE2 regex (Python's
``re`` reads it the same way) whose leftmost match is the first timestamp of a line, in any of:

* the dated forms of the date-time grammar (:mod:`jobs.ingest.date_grammar`, compiled from the
  frameworks' documented patterns in :mod:`jobs.ingest.date_patterns`): ISO 8601 and log4j/logback
  (``2024-05-01 10:00:00,123``, ``…T10:00:00.123456789+02:00``), Spark/Hadoop ``yy/MM/dd HH:mm:ss``,
  Go ``2018/01/18 04:38:29.123456``, log4j ``DATE``, JUL ``May 01, 2024 10:00:00 AM``, US and
  European dates, nginx ``01/May/2024:13:00:00 +0000``, Java's ``Date.toString()``, syslog
  ``Mar  4 10:00:00``, glog ``I0501 13:00:00.123456`` …, each with a zone after it or none;
* a time of day alone: ``10:00:00.123`` (logback ``%d{HH:mm:ss.SSS}``), ``13:00:00`` (Serilog's
  console), ``1:00:00 PM`` (foreman): dated by :mod:`~jobs.ingest.day_dates`;
* TAI64N labels ``@4000000066323b18075bcd15`` (svlogd/runit, s6-log);
* epoch seconds or millis ``1714557600.123``, ``1714557600123``, only as a delimited field.

A timestamp stands on its own: not inside a longer number or word (a terminal's ``^C`` echo may
precede it). :func:`to_iso` turns the forms :func:`jobs.ingest.epoch_ms.parse_timestamps` does not
read (a year-less date with the file's year, a time of day with its date) into ISO text. A line
with several timestamps (a viewer's or shipper's column in front of the application's) is handled
by the general reader (:mod:`jobs.ingest.general`), which prefers the application's.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

from jobs.ingest import date_grammar as DG
from jobs.ingest import jul_levels as JUL

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MON = "|".join(MONTHS)

#: spans other modules' layouts name (an envelope's syslog time, a viewer's leading column, a CSV
#: column): the locator itself reads the grammar's forms (:data:`FORMS`)
ISO = r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,:]\d{1,9})?(?:Z| ?[+-]\d{2}:?\d{2}\b| ?(?:UTC|GMT)\b)?"
SLASH = r"\d{4}/\d{2}/\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?"
DATE4J = rf"\d{{1,2}} (?:{_MON}) \d{{4}} \d{{2}}:\d{{2}}:\d{{2}}(?:[.,]\d{{1,9}})?"
SYSLOG = rf"(?:{_MON}) {{1,2}}\d{{1,2}} \d{{2}}:\d{{2}}:\d{{2}}(?:\.\d{{1,9}})?"
ERLANG = rf"\d{{1,2}}-(?:{_MON})-\d{{4}}::\d{{2}}:\d{{2}}:\d{{2}}(?:\.\d{{1,9}})?"
#: a time of day alone (24-hour, or 12-hour ``hh:mm:ss a``: foreman), dated by :mod:`~jobs.ingest.day_dates`
TIME_ONLY = r"\d{2}:\d{2}:\d{2}(?:[.,]\d{3,6})?"
TIME12 = r"\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,9})? ?[AP]M\b"
EPOCH = r"1\d{9}(?:\.\d{1,9})?|1\d{12}"
#: TAI64N labels (svlogd/runit, s6-log ``t``, multilog): ``@`` + 2^62 + 10 + Unix seconds, nanoseconds
TAI64N = r"@4000000[0-9a-f]{17}"

#: every form: the grammar's dated forms (heaviest first), then a time of day alone, TAI64N and epoch
#: values (RE2 alternation is leftmost-first at one position)
FORMS = (DG.ANY_DATED, TIME12, TIME_ONLY, TAI64N, EPOCH)
_ANY = "|".join(f"(?:{f})" for f in FORMS)
#: the first timestamp of a line: ``pre`` the text before it, ``ts`` the timestamp, ``rest`` after.
#: A timestamp must stand on its own (not inside a longer number or word; at the line's start, a
#: terminal's echo of Ctrl-C, ``^C``, or a code comment's ``//`` (a log pasted into code) may be glued
#: to it); epoch values only as a delimited field
#: (line start, ``|``, ``"``, ``=``, ``:``, ``[``, space).
LOCATE = (
    rf"^(?P<pre>(?:\^C|[ \t]*//[ \t]*|.*?[^\w.:/-])??)(?P<ts>{_ANY})(?P<rest>(?:[^\w:/].*|:(?:[ \t].*)?)?)$"
)

_TIME_RX = re.compile(rf"^(?:{TIME_ONLY}|{TIME12})$")
_AMPM_RX = re.compile(r"^(.*?)(\d{1,2}):(\d{2}:\d{2}(?:[.,]\d{1,9})?) ?([AP]M)$")
#: a time of day as a layout's head captures it (JBoss/Quarkus ``%d{HH:mm:ss}`` prints no fraction)
_HEAD_TIME_RX = re.compile(r"^\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?$")
_TAI64N_RX = re.compile(r"^@(4000000[0-9a-f]{9})([0-9a-f]{8})$")
_YEAR_DATE = re.compile(r"^(\d{4})[-/](\d{2})[-/](\d{2})")


def is_time_only(ts: str) -> bool:
    return bool(_TIME_RX.match(ts))


def to_iso(ts: str | None, year: int | None = None, date: str | None = None) -> str | None:
    """ISO text of a located timestamp that :func:`jobs.ingest.epoch_ms.parse_timestamps` does not
    read as it is (others are returned unchanged). ``year``: for the grammar's year-less forms
    (syslog, glog; None: the value stays unreadable); ``date`` (``yyyy-MM-dd``): for a time of day."""
    if ts is None:
        return None
    ts = JUL.english_date(ts) or ts  # (java.util.logging's head date in the JVM's locale)
    if DG.is_dated(ts):
        return DG.to_iso(ts, year)
    ts = to_24h(ts)
    if (iso := _tai64n(ts)) is not None:
        return iso
    if _HEAD_TIME_RX.match(ts):
        return f"{date} {ts}" if date else None
    return ts


def to_24h(ts: str) -> str:
    """``ts`` with a 12-hour clock at its end (``… 01:00:00 PM``) on the 24-hour clock (``… 13:00:00``)."""
    m = _AMPM_RX.match(ts)
    if m is None:
        return ts
    pre, h, rest, ap = m.groups()
    return f"{pre}{int(h) % 12 + (12 if ap == 'PM' else 0):02d}:{rest}"


def _tai64n(ts: str) -> str | None:
    """ISO text of a TAI64N label (else None)."""
    m = _TAI64N_RX.match(ts)
    if m:
        sec = int(m.group(1), 16) - (1 << 62) - 10
        return datetime.fromtimestamp(sec, UTC).strftime("%Y-%m-%dT%H:%M:%S") + f".{int(m.group(2), 16):09d}Z"
    return None


def date_of(ts: str | None) -> str | None:
    """``yyyy-MM-dd`` of a dated timestamp text (None for a time of day or a year-less date)."""
    if not ts:
        return None
    m = _YEAR_DATE.match(ts)
    if m:
        return f"{m.group(1)}-{m.group(2)}-{m.group(3)}"
    iso = DG.to_iso(ts) if DG.is_dated(ts) else _tai64n(ts)
    return iso[:10] if iso else None
