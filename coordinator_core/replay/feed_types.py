"""What the row-feeding functions of :mod:`.fastpath` call on a replay: a :class:`typing.Protocol`, so
that they depend on this surface, not on :class:`~coordinator_core.replay.group_replay.GroupReplay`
(which calls them)."""

from __future__ import annotations

from typing import Any, Protocol

from coordinator_core.replay.model import Member


class RowFed(Protocol):
    """A replay fed row by row: its members, file positions, generation and times, and its line,
    heartbeat and error handlers."""

    members: dict[str, Member]
    file_positions: dict[str, list[Any]]
    generation: int | None
    last_ts: int | None
    events: int

    def _normalise(self, row: Any) -> tuple: ...

    def _heartbeat(self, row: tuple) -> None: ...

    def _heartbeat_slow(self, row: tuple) -> None: ...

    def _check_order(self, row: tuple) -> None: ...

    def _out_of_order(self, row: tuple, rec: list[Any]) -> None: ...

    def _line(self, row: tuple) -> None: ...

    def _error(self, row: Any, exc: Exception) -> None: ...
