"""What the reference reader (:mod:`jobs.ingest.reference`) works on: a file's lines and what each
became (:class:`File`), a log entry's first line with its fields (:class:`Head`), and :func:`rx`,
a table's RE2 regex with RE2's meaning in Python. Both the reader and its events step
(:mod:`jobs.ingest.reference_events`) build on them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from jobs.ingest.pyregex import Untranslatable, translate


@cache
def rx(pattern: str) -> re.Pattern[str]:
    """A table's RE2 regex as a Python regex with RE2's meaning (:func:`jobs.ingest.pyregex.translate`;
    a pattern it does not translate, e.g. with ``(?i)``, as it stands)."""
    try:
        return re.compile(translate(pattern), re.ASCII)
    except Untranslatable:
        return re.compile(pattern)


@dataclass
class Head:
    """A log entry's first line: where its fields are (``ts``/``level``/... as the layout found
    them: "" when the layout's group took no text, None when the layout has no such group)."""

    row: int
    layout: str
    ts: str | None = None
    level: str | None = None
    logger: str | None = None
    thread: str | None = None
    message: str | None = None
    pts: str | None = None  # a viewer's timestamp in front of the entry
    json: dict[str, str | None] = field(default_factory=dict)  # j_group, j_member, j_gen, j_client
    inline_cont: str | None = None  # the rest of a multi-line JSON message
    ts_ms: int | None = None
    env_ms: int | None = None  # the envelope's time (``pts``)
    dated_by: str | None = None  # the rule that dated a time of day, when no line of the file did


@dataclass
class File:
    """One file's lines and what each became (``cls``: unrelated/event/continuation/quarantined)."""

    raw: list[bytes]
    text: list[str]
    bad: list[bool]
    cls: list[str]
    reason: list[str | None]
    detail: list[str | None]
    qgroup: dict[int, str | None] = field(default_factory=dict)
    heads: dict[int, Head] = field(default_factory=dict)
    is_cont: list[bool] = field(default_factory=list)
    orig: dict[int, str] = field(default_factory=dict)  # a peeled line's text before peeling
    joined: dict[int, int] = field(default_factory=dict)  # a piece joined into an earlier line → that line
    env: dict[int, tuple[str | None, str]] = field(default_factory=dict)  # peeled: (pts, label)

    def quarantine(self, i: int, reason: str, detail: str) -> None:
        self.cls[i], self.reason[i], self.detail[i] = "quarantined", reason, detail
