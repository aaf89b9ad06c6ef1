"""Cheap timestamp rendering for the hot path (one strftime per second, not per line)."""

from __future__ import annotations

import datetime as _dt

_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC)


class TsFormat:
    """Formats epoch milliseconds; caches the per-second part of the last second seen."""

    __slots__ = ("_fmt", "_sep", "_suffix", "_sec", "_base")

    def __init__(self, fmt: str, sep: str, suffix: str = "") -> None:
        self._fmt = fmt
        self._sep = sep
        self._suffix = suffix
        self._sec = -1
        self._base = ""

    def __call__(self, ms: int) -> str:
        sec, milli = divmod(ms, 1000)
        if sec != self._sec:
            self._sec = sec
            self._base = (_EPOCH + _dt.timedelta(seconds=sec)).strftime(self._fmt) + self._sep
        return f"{self._base}{milli:03d}{self._suffix}"


def log4j_ts() -> TsFormat:
    """``2026-01-01 00:00:03,123`` (log4j ``%d``)."""
    return TsFormat("%Y-%m-%d %H:%M:%S", ",")


def iso_ts() -> TsFormat:
    """``2026-01-01T00:00:03.123Z`` (logback ``yyyy-MM-dd'T'HH:mm:ss.SSSXXX`` in UTC, logstash)."""
    return TsFormat("%Y-%m-%dT%H:%M:%S", ".", "Z")
