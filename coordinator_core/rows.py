"""Flat evidence rows, the input of every replay: tuples in :data:`~coordinator_core.events.EVENT_FIELDS`
order (read through the accessor of :mod:`coordinator_core.events.row`), made from dicts, column lists
or event objects; the readers of row values (:func:`to_int`, :func:`partition_strings`,
:func:`split_partition`, :func:`assignment_map`); and the ``replay_error`` anomaly of a row a replay
could not take (nothing raises on evidence).

:class:`RowInput` gives a replay (classic, consumer-protocol, or the per-group history) its ``feed`` /
``feed_columns`` on top of its own ``feed_rows``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from coordinator_core.events import Event
from coordinator_core.events.row import EVENT_FIELDS, KIND, LN, NFIELDS, SF, TS
from coordinator_core.records import Anomaly

__all__ = [
    "NFIELDS", "normalise", "rows_from_columns", "RowInput", "to_int", "partition_strings", "split_partition",
    "assignment_map",
]  # fmt: skip



def normalise(row: Any) -> tuple:
    """``row`` as a full tuple: a dict by field name (``ts_ms`` stands for a missing ``ts``), a short
    sequence padded with None."""
    if type(row) is tuple and len(row) >= NFIELDS:
        return row  # already one (the rows the job feeds)
    if isinstance(row, Mapping):
        if "ts" not in row and "ts_ms" in row:
            row = {**row, "ts": row["ts_ms"]}
        return tuple(row.get(f) for f in EVENT_FIELDS)
    t = tuple(row)
    return t + (None,) * (NFIELDS - len(t)) if len(t) < NFIELDS else t


def rows_from_columns(columns: Mapping[str, Sequence[Any]]) -> Iterator[tuple]:
    """Rows of column lists (e.g. ``pyarrow.Table.to_pydict()``); missing columns are None."""
    n = max((len(v) for v in columns.values()), default=0)
    none = [None] * n
    return zip(*[columns.get(f, none) for f in EVENT_FIELDS])


class RowInput:
    """``feed`` and ``feed_columns`` of a replay that has ``feed_rows``, ``group_id`` and an anomaly
    buffer ``_an``; ``_position()`` says where the model is for the anomalies (state, generation)."""

    __slots__ = ()

    _normalise = staticmethod(normalise)
    # provided by the replay that extends this class
    group_id: str
    _an: list[Anomaly]
    feed_rows: Callable[..., None]

    def feed(self, event: Event) -> None:
        """Consume one evidence event (any :mod:`coordinator_core.events` class)."""
        try:
            row = normalise(event.to_row())
        except Exception as exc:  # never raise on evidence
            self._an.append(Anomaly(self.group_id, None, "replay_error", f"unreadable event: {exc}"))
            return
        self.feed_rows((row,))

    def feed_columns(self, columns: Mapping[str, Sequence[Any]]) -> None:
        """Consume column lists; missing columns are None."""
        self.feed_rows(list(rows_from_columns(columns)))

    def _position(self) -> tuple[str | None, int | None]:
        return None, None

    def _error(self, row: Any, exc: Exception) -> None:
        """A row the replay could not take: a ``replay_error`` anomaly with what the row says."""
        try:
            ts, kind, sf, ln = row[TS], row[KIND], row[SF], row[LN]
        except Exception:
            ts = kind = sf = ln = None
        state, generation = self._position()
        self._an.append(
            Anomaly(
                self.group_id, ts if isinstance(ts, int) else None, "replay_error",
                f"{type(exc).__name__}: {exc}", state, generation, kind if isinstance(kind, str) else None,
                sf if isinstance(sf, str) else None, ln if isinstance(ln, int) else None,
            )
        )  # fmt: skip


# ---------------------------------------------------------------------- readers of row values


def to_int(v: Any) -> int | None:
    """An integer field of a row as an int; None when missing or unreadable (a bool, pandas NaN, text
    that is no number)."""
    if type(v) is int:
        return v  # the common case, first
    if v is None or isinstance(v, bool):
        return None
    try:
        if v != v:  # NaN from pandas
            return None
        return int(v)
    except (TypeError, ValueError):
        return None


def partition_strings(v: Any) -> list[str]:
    """A partitions field (a list of ``"topic-partition"`` strings) as a list of strings."""
    if v is None:
        return []
    if isinstance(v, str):
        return [v]
    try:
        return [str(x) for x in v]
    except TypeError:
        return []


def split_partition(tp: Any) -> tuple[str, int] | None:
    """``"topic-3"`` (or a (topic, partition) pair) as ``("topic", 3)``; None when unreadable."""
    if type(tp) is str:
        topic, sep, p = tp.rpartition("-")
        if sep and topic and p.isascii() and p.isdigit():
            return topic, int(p)
        return None
    if isinstance(tp, (tuple, list)) and len(tp) == 2:
        n = to_int(tp[1])
        return (str(tp[0]), n) if n is not None else None
    return None


def assignment_map(v: Any) -> dict[str, list[Any]]:
    """The leader's assignment as {member: [partition strings]} from a tuple of pairs, a dict or an
    Arrow map (list of (key, value) pairs)."""
    if v is None:
        return {}
    items = v.items() if isinstance(v, Mapping) else v
    out: dict[str, list[Any]] = {}
    for item in items:
        try:
            m, parts = item
        except (TypeError, ValueError):
            continue
        out[str(m)] = list(parts) if parts is not None else []
    return out
