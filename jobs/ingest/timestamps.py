"""The timestamp locator: find a log line's timestamp wherever it sits, in the formats people have.

Known layouts say where their timestamp is; a line of an unknown layout (a custom logback pattern,
a log viewer's export, a syslog relay ...) does not. :data:`LOCATE` is one RE2 regex (Python's
``re`` reads it the same way) whose leftmost match is the first timestamp of a line, in any of:

==========================  ==============================================  ====================
form                        example                                         notes
==========================  ==============================================  ====================
ISO 8601 / log4j / logback  ``2024-05-01 10:00:00,123``, ``…T10:00:00.1Z``  ``,`` ``.`` ``:``
                                                                            millis up to nanos;
                                                                            zone ``Z``,
                                                                            ``+02:00``, ``+0200``,
                                                                            `` UTC``/`` GMT``
Go ``log``                  ``2018/01/18 04:38:29.123``
log4j ``DATE``              ``04 Mar 2021 10:00:00,123``
java.util.logging           ``May 01, 2024 10:00:00 AM``
Erlang ``error_logger``     ``1-May-2024::10:00:00.123456``                 its report header
zone after a space          ``2024-05-01 13:00:00 +0000``                   gunicorn
US date, 12-hour clock    ``05/01/2024 01:00:00 PM`` (Python datefmt)    ``%d/%m/%Y`` when the
                                                                            first field is > 12;
                                                                            NestJS adds a ``,``
Python ``%d-%b-%y``         ``01-May-24 13:00:00``                          20yy
TAI64N                      ``@4000000066323b18075bcd15``                   svlogd/runit, s6-log
syslog                      ``Mar  4 10:00:00``                              year: another line of
                                                                            the file, else
                                                                            ``ingest.default_year``
time of day only            ``10:00:00.123`` (logback ``%d{HH:mm:ss.SSS}``)  date: see
                            ``13:00:00`` (Serilog's console)                :mod:`~jobs.ingest.day_dates`
epoch seconds / millis      ``1714557600.123``, ``1714557600123``           only as a delimited
                                                                            field
==========================  ==============================================  ====================

:func:`to_iso` turns the forms :func:`jobs.ingest.epoch_ms.parse_timestamps` does not read (log4j
``DATE``, syslog, time-only, zone words) into ISO text, per distinct value (they are rare). A line
with several timestamps (a viewer's or shipper's column in front of the application's) is handled
by the general reader (:mod:`jobs.ingest.general`), which prefers the application's.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MON = "|".join(MONTHS)

ISO = r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,:]\d{1,9})?(?:Z| ?[+-]\d{2}:?\d{2}\b| ?(?:UTC|GMT)\b)?"
SLASH = r"\d{4}/\d{2}/\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?"
DATE4J = rf"\d{{1,2}} (?:{_MON}) \d{{4}} \d{{2}}:\d{{2}}:\d{{2}}(?:[.,]\d{{1,9}})?"
JUL = rf"(?:{_MON}) \d{{1,2}}, \d{{4}} \d{{1,2}}:\d{{2}}:\d{{2}} (?:AM|PM)"
SYSLOG = rf"(?:{_MON}) {{1,2}}\d{{1,2}} \d{{2}}:\d{{2}}:\d{{2}}(?:\.\d{{1,9}})?"
TIME_ONLY = r"\d{2}:\d{2}:\d{2}(?:[.,]\d{3,6})?"
ERLANG = rf"\d{{1,2}}-(?:{_MON})-\d{{4}}::\d{{2}}:\d{{2}}:\d{{2}}(?:\.\d{{1,9}})?"
EPOCH = r"1\d{9}(?:\.\d{1,9})?|1\d{12}"
#: Python ``logging`` datefmts: ``%m/%d/%Y %I:%M:%S %p`` (a day > 12 first: ``%d/%m/%Y``), NestJS'
#: ``05/01/2024, 1:00:00 PM``, and ``%d-%b-%y %H:%M:%S``
US = r"\d{2}/\d{2}/\d{4},? \d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?: ?[AP]M\b)?"
DMY2 = rf"\d{{2}}-(?:{_MON})-\d{{2}} \d{{2}}:\d{{2}}:\d{{2}}(?:[.,]\d{{1,9}})?"
#: TAI64N labels (svlogd/runit, s6-log ``t``, multilog): ``@`` + 2^62 + 10 + Unix seconds, nanoseconds
TAI64N = r"@4000000[0-9a-f]{17}"

#: a 12-hour clock (``hh:mm:ss a``), with a date in front or alone
ISO12 = r"\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,9})? ?[AP]M\b"
TIME12 = r"\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,9})? ?[AP]M\b"
#: ``dd-MMM-yyyy HH:mm:ss.SSS`` (Tomcat's console)
DMY4 = rf"\d{{1,2}}-(?:{_MON})-\d{{4}} \d{{2}}:\d{{2}}:\d{{2}}(?:[.,]\d{{1,9}})?"
#: Java's ``Date.toString()``: ``EEE MMM dd HH:mm:ss zzz yyyy`` (the zone word UTC or GMT)
JAVA_DATE = rf"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:{_MON}) \d{{2}} \d{{2}}:\d{{2}}:\d{{2}} (?:UTC|GMT) \d{{4}}"

#: every form, most specific first (RE2 alternation is leftmost-first at one position)
FORMS = (ISO12, ISO, SLASH, DATE4J, JUL, ERLANG, DMY4, JAVA_DATE, US, DMY2, SYSLOG, TIME12, TIME_ONLY, TAI64N, EPOCH)
_ANY = "|".join(f"(?:{f})" for f in FORMS)
#: the first timestamp of a line: ``pre`` the text before it, ``ts`` the timestamp, ``rest`` after.
#: A timestamp must stand on its own (not inside a longer number or word); epoch values only as a
#: delimited field (line start, ``|``, ``"``, ``=``, ``:``, ``[``, space).
LOCATE = (
    rf"^(?P<pre>(?:.*?[^\w.:/-])??)(?P<ts>{_ANY})(?P<rest>(?:[^\w:/].*|:(?:[ \t].*)?)?)$"
)

_DATE4J_RX = re.compile(rf"^(\d{{1,2}}) ({_MON}) (\d{{4}}) (.*)$")
_ERLANG_RX = re.compile(rf"^(\d{{1,2}})-({_MON})-(\d{{4}})::(.*)$")
_SYSLOG_RX = re.compile(rf"^({_MON}) {{1,2}}(\d{{1,2}}) (.*)$")
_TIME_RX = re.compile(rf"^(?:{TIME_ONLY}|{TIME12})$")
_AMPM_RX = re.compile(r"^(.*?)(\d{1,2}):(\d{2}:\d{2}(?:[.,]\d{1,9})?) ?([AP]M)$")
_JAVA_DATE_RX = re.compile(rf"^\w{{3}} ({_MON}) (\d{{2}}) (\S+) (?:UTC|GMT) (\d{{4}})$")
#: a time of day as a layout's head captures it (JBoss/Quarkus ``%d{HH:mm:ss}`` prints no fraction)
_HEAD_TIME_RX = re.compile(r"^\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?$")
_ZONE_WORD = re.compile(r" ?(?:UTC|GMT)$")
_US_RX = re.compile(r"^(\d{2})/(\d{2})/(\d{4}),? (\d{1,2}):(\d{2}:\d{2}(?:[.,]\d{1,9})?)(?: ?([AP]M))?$")
_DMY2_RX = re.compile(rf"^(\d{{2}})-({_MON})-(\d{{2}}) (.*)$")
_DMY4_RX = re.compile(rf"^(\d{{1,2}})-({_MON})-(\d{{4}}) (.*)$")
_TAI64N_RX = re.compile(r"^@(4000000[0-9a-f]{9})([0-9a-f]{8})$")
_YEAR_DATE = re.compile(r"^(\d{4})[-/](\d{2})[-/](\d{2})")
#: day, month name, year forms with the century their year lacks: log4j's ``DATE``, Erlang's report
#: header, Python's ``%d-%b-%y``.
_PY_DMY2 = ((_DMY2_RX, "20"),)
_DAY_MONTH_YEAR = ((_DATE4J_RX, ""), (_ERLANG_RX, ""), (_DMY4_RX, ""), *_PY_DMY2)


def is_time_only(ts: str) -> bool:
    return bool(_TIME_RX.match(ts))


def to_iso(ts: str | None, year: int | None = None, date: str | None = None) -> str | None:
    """ISO text of a located timestamp that :func:`jobs.ingest.epoch_ms.parse_timestamps` does not
    read as it is (others are returned unchanged). ``year``: for syslog timestamps (None: the value
    stays unreadable); ``date`` (``yyyy-MM-dd``): for time-only values."""
    if ts is None:
        return None
    ts = to_24h(ts)
    if m := _JAVA_DATE_RX.match(ts):
        mon, d, clock, y = m.groups()
        return f"{y}-{MONTHS.index(mon) + 1:02d}-{d} {clock}Z"
    if _ZONE_WORD.search(ts) and ts[:4].isdigit():
        return _ZONE_WORD.sub("Z", ts)
    iso = _day_month_year(ts, _DAY_MONTH_YEAR) or _us_tai(ts)
    if iso is not None:
        return iso
    m = _SYSLOG_RX.match(ts)
    if m:
        if year is None:
            return None
        mon, d, rest = m.groups()
        return f"{year:04d}-{MONTHS.index(mon) + 1:02d}-{int(d):02d} {rest}"
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


def _day_month_year(ts: str, forms: tuple[tuple[re.Pattern[str], str], ...]) -> str | None:
    """ISO text of a timestamp in one of ``forms`` (day, month name, year, rest; the century the year
    lacks), else None."""
    for rx, century in forms:
        m = rx.match(ts)
        if m:
            d, mon, y, rest = m.groups()
            return f"{century}{y}-{MONTHS.index(mon) + 1:02d}-{int(d):02d} {rest}"
    return None


def _us_tai(ts: str) -> str | None:
    """ISO text of a ``%m/%d/%Y [%I] … [AM|PM]`` or TAI64N timestamp (else None)."""
    m = _US_RX.match(ts)
    if m:
        a, b, y, h, rest, ap = m.groups()
        mo, d = (b, a) if int(a) > 12 else (a, b)
        hh = int(h) % 12 + (12 if ap == "PM" else 0) if ap else int(h)
        return f"{y}-{mo}-{d} {hh:02d}:{rest}"
    m = _TAI64N_RX.match(ts)
    if m:
        sec = int(m.group(1), 16) - (1 << 62) - 10
        return datetime.fromtimestamp(sec, UTC).strftime("%Y-%m-%dT%H:%M:%S") + f".{int(m.group(2), 16):09d}Z"
    return None


def date_of(ts: str | None) -> str | None:
    """``yyyy-MM-dd`` of a dated timestamp text (None for a time of day or syslog's month and day)."""
    if not ts:
        return None
    ts = _day_month_year(ts, (*_PY_DMY2, (_DMY4_RX, ""))) or _us_tai(ts) or ts
    if m := _JAVA_DATE_RX.match(ts):
        return f"{m.group(4)}-{MONTHS.index(m.group(1)) + 1:02d}-{m.group(2)}"
    m = _YEAR_DATE.match(ts)
    return f"{m.group(1)}-{m.group(2)}-{m.group(3)}" if m else None
