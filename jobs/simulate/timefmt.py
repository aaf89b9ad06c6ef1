"""Cheap timestamp rendering for the hot path (one strftime per second, not per line)."""

from __future__ import annotations

import datetime as _dt

_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC)


_SHARED: dict[tuple[str, str], dict[int, str]] = {}


class TsFormat:
    """Formats epoch milliseconds; the per-second part is cached (shared by every formatter of the
    same pattern, so many interleaved log files cost one ``strftime`` per second)."""

    __slots__ = ("_fmt", "_sep", "_suffix", "_cache")

    def __init__(self, fmt: str, sep: str, suffix: str = "") -> None:
        self._fmt = fmt
        self._sep = sep
        self._suffix = suffix
        self._cache = _SHARED.setdefault((fmt, sep), {})

    def __call__(self, ms: int) -> str:
        sec, milli = divmod(ms, 1000)
        base = self._cache.get(sec)
        if base is None:
            if len(self._cache) > 8192:
                self._cache.clear()
            base = self._cache[sec] = (_EPOCH + _dt.timedelta(seconds=sec)).strftime(self._fmt) + self._sep
        return f"{base}{milli:03d}{self._suffix}"


def log4j_ts() -> TsFormat:
    """``2026-01-01 00:00:03,123`` (log4j ``%d``)."""
    return TsFormat("%Y-%m-%d %H:%M:%S", ",")


def iso_ts() -> TsFormat:
    """``2026-01-01T00:00:03.123Z`` (logback ``yyyy-MM-dd'T'HH:mm:ss.SSSXXX`` in UTC, logstash)."""
    return TsFormat("%Y-%m-%dT%H:%M:%S", ".", "Z")
