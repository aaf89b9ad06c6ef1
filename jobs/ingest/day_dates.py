"""The date of a timestamp that prints only the time of day (logback ``HH:mm:ss.SSS``, Elixir's
``Logger``, pino-pretty, Serilog's console: ``13:00:00.123``, ``13:00:00``).

A timestamp is a time of day only when it is nothing else (:func:`jobs.ingest.timestamps.is_time_only`):
a value any dated form of the date-time grammar reads (:mod:`jobs.ingest.date_grammar`: ``18/08/31
17:02:28``, ``24-03-17.12:29:01.334``) is a dated line, never dated by these rules, and it anchors the
times of day around it like any dated line.

One rule, used by both readers (:func:`time_only_dates`), in this order:

1. ``ingest.default_date`` when it is set: every time of day of every file takes that date;
2. else the line's own envelope or viewer column when it is dated (docker's, CRI's, ``kubectl
   --timestamps``: the same moment, so the date whose time of day is nearest to the envelope's);
   else a dated line of the same file: the nearest earlier one, else the first later one;
3. else a date in the file's name (``app-2024-05-01.log``, ``server.log.2024-05-01-13``,
   ``app_20240501.log``);
4. else the file's modification time (in ``ingest.default_timezone``): the file's last line was
   written before it, so the dates run backwards from it;
5. else the timestamp stays unread (the event is kept, its time inferred from its neighbours as for
   any line without a timestamp).

Walking away from the anchor (forwards from a dated line, the file's name or the setting; backwards
from a later dated line or the modification time), the day moves by one each time the time of day
jumps back (forwards: by more than 12 hours) — a log that runs past midnight. Events dated by
rules 1, 3 and 4 are counted per rule in the file's audit (``dated_from``: ``setting``,
``file_name``, ``modification_time``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from jobs.ingest import timestamps as TS

#: a time of day that goes back by more than this (seconds) starts the next day
ROLLOVER = 12 * 3600
_CLOCK = re.compile(r"(\d{1,2}):(\d{2}):(\d{2})")
#: a date in a file's name: ``2024-05-01`` / ``2024_05_01`` / ``2024.05.01`` / ``20240501``, not
#: inside a longer number
_NAME_DATE = re.compile(r"(?<!\d)(20\d{2}|19\d{2})([-_.]?)(\d{2})\2(\d{2})(?!\d)")

SETTING, FILE_NAME, MTIME = "setting", "file_name", "modification_time"


@dataclass(frozen=True)
class FileDates:
    """What a file offers its times of day besides its own dated lines."""

    forced: str | None = None  # ``ingest.default_date`` (yyyy-MM-dd)
    name: str | None = None  # the date in the file's name
    mtime: tuple[str, int] | None = None  # the modification time: (date, seconds of the day)


#: a file that offers nothing besides its own lines
NO_DATES = FileDates()


def file_dates(source_file: str, default_date: str | None, mtime_ms: int | None, tz: str) -> FileDates:
    """:class:`FileDates` of a file: its name's date and its modification time in zone ``tz``."""
    base = source_file.replace("\\", "/").rsplit("/", 1)[-1]
    name = None
    for m in _NAME_DATE.finditer(base):
        try:
            name = date(int(m.group(1)), int(m.group(3)), int(m.group(4))).isoformat()
            break
        except ValueError:
            continue
    mt = None
    if mtime_ms is not None:
        t = datetime.fromtimestamp(mtime_ms / 1000, UTC).astimezone(ZoneInfo(tz))
        mt = (t.date().isoformat(), t.hour * 3600 + t.minute * 60 + t.second)
    return FileDates(default_date, name, mt)


def _clock(ts: str) -> int | None:
    m = _CLOCK.search(TS.to_iso(ts) or TS.to_24h(ts))
    return None if m is None else int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))


def _shift(d: str, days: int) -> str:
    return (date.fromisoformat(d) + timedelta(days=days)).isoformat()


def time_only_dates(
    raws: list[str | None], fd: FileDates, envelopes: list[str | None] | None = None
) -> tuple[list[str | None], list[str | None]]:
    """For each timestamp text of a file's heads (file order): the date its time of day takes (None
    when it is no time of day or nothing dates it) and the rule that gave it when that is not a
    dated line of the file (:data:`SETTING`, :data:`FILE_NAME`, :data:`MTIME`, else None).
    ``envelopes``: each head's envelope or viewer timestamp text (None: none)."""
    n = len(raws)
    out: list[str | None] = [None] * n
    only = [r is not None and TS.is_time_only(r) for r in raws]
    if not any(only):
        return out, [None] * n
    clock = [(_clock(r) if r is not None else None) or 0 for r in raws]  # (every timestamp has a clock)
    dated = [None if (o or r is None) else TS.date_of(r) for r, o in zip(raws, only)]
    rule = None
    if fd.forced is not None:
        dated, rule = [None] * n, SETTING
    elif envelopes is not None:
        _own_envelope(out, only, clock, envelopes)
    anchors = [i for i in range(n) if dated[i] or out[i] is not None]
    if rule is None and not anchors:
        rule = FILE_NAME if fd.name is not None else MTIME if fd.mtime is not None else None
    start = {SETTING: (fd.forced, 0), FILE_NAME: (fd.name, 0)}.get(rule or "")
    _forward(out, only, clock, dated, start)
    if anchors:
        first = anchors[0]
        _backward(out, only, clock, first, (dated[first] or out[first] or "", clock[first]))
    elif rule == MTIME:
        _backward(out, only, clock, n, fd.mtime)  # type: ignore[arg-type]
    return out, [None if rule is None or d is None else rule for d in out]


def _own_envelope(out: list[str | None], only: list[bool], clock: list[int], envelopes: list[str | None]) -> None:
    """A time of day dated by its own line's dated envelope (a day apart when the two times of day
    are more than 12 hours apart: the envelope's clock passed midnight, or the application's)."""
    for i, env in enumerate(envelopes):
        if only[i] and env is not None and (d := TS.date_of(env)) and (sec := _clock(env)) is not None:
            out[i] = _shift(d, -1) if clock[i] > sec + ROLLOVER else _shift(d, 1) if clock[i] < sec - ROLLOVER else d


def _forward(
    out: list[str | None], only: list[bool], clock: list[int], dated: list[str | None],
    state: tuple[str | None, int] | None,
) -> None:
    for i in range(len(out)):
        if dated[i]:
            state = (dated[i], clock[i])
        elif out[i] is not None:  # (dated by its own envelope)
            state = (out[i], clock[i])
        elif only[i] and state is not None and (d := state[0]) is not None:
            sec = state[1]
            if clock[i] < sec - ROLLOVER:
                d = _shift(d, 1)
            out[i], state = d, (d, clock[i])


def _backward(out: list[str | None], only: list[bool], clock: list[int], end: int, state: tuple[str, int]) -> None:
    d, sec = state
    for i in range(end - 1, -1, -1):
        if out[i] is not None:
            d, sec = out[i] or d, clock[i]
        elif only[i]:
            if clock[i] > sec + ROLLOVER:
                d = _shift(d, -1)
            out[i], sec = d, clock[i]


def dated_from(rules: list[str | None], is_event: list[bool]) -> dict[str, int]:
    """The audit's ``dated_from``: events per rule that dated their time of day (``{}``: none, and the
    audit leaves the key out)."""
    out: dict[str, int] = {}
    for r, e in zip(rules, is_event):
        if r is not None and e:
            out[r] = out.get(r, 0) + 1
    return out
