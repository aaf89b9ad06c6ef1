"""The dialect table on a file's distinct message bodies, one body at a time in Python: the fast
form of :func:`jobs.ingest.messages.dialect_matches_by_column` (the reference, which runs each
dialect over the column of bodies it can match; tested equal in
``tests/ingest/test_dialect_dispatch.py`` and on whole corpora by ``benchmarks/bench_mixed.py``).

Why: the column form runs one Arrow regex call per dialect a file's bodies can reach (about 35 per
file, each compiling its RE2 pattern again: 0.1-0.2 ms), whatever the number of bodies. Here every
pattern is compiled once per process (:func:`jobs.ingest.pyregex.translated`, RE2's meaning in
Python's ``re``, checked on every dialect by ``tests/ingest/test_pyregex.py``), and a body tries
the dialects in the order the column form gives it: the dialects keyed by its first word, then the
keyless ones (those with :attr:`~jobs.ingest.dialect_model.Dialect.first_words` only when the word is
one of them), each in table order, with the same conditions (context prefix, logger condition,
literal start); the first that matches wins. A body's result depends on that body alone, so the
order of the bodies or of the files changes nothing, and nothing is kept between files but the
compiled table.

A dialect's pattern is compiled when a message first tries it (a file reaches a few dozen of the
table). One Python cannot read with RE2's meaning (none in the table today) makes this form give up
on the messages of that call, and the column form runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from jobs.ingest import dialect_model as DM
from jobs.ingest import dialects as D
from jobs.ingest import pyregex as PR

#: the most distinct messages dispatched here; above it the column form's RE2 calls (compiled once per
#: dialect and call) cost less than Python's regexes per message (on the mixed benchmark corpus the
#: two are even at about 1,000-2,000 messages; below 200 this form takes a fifth to a tenth of the time)
MAX_MESSAGES = 1000

#: the first word of a body: RE2's ``^\S*`` (``\S``: anything but ``[\t\n\f\r ]``)
_FIRST_WORD = re.compile(r"[^\t\n\f\r ]*")


@dataclass(frozen=True)
class _Entry:
    """One dialect as the dispatcher tries it."""

    index: int
    pattern: str  # compiled on first use (:func:`_compiled`): a file tries a few dozen of the table
    literal: str  # tested with startswith first ("" : no test), as the column form does
    logger_rx: re.Pattern[str] | None
    source_prefix: str | None
    needs_prefix: bool
    #: whether a body whose logger is unknown reads it (:func:`D.open_wording`), and the regex of its
    #: open wordings such a body must match (None: any)
    is_open: bool
    open_rx: re.Pattern[str] | None


@dataclass(frozen=True, eq=False)
class TableDispatch:
    """The dialect table compiled for per-body dispatch."""

    prefix: re.Pattern[str]  # :data:`D.BODY_PREFIX`
    entries: tuple[_Entry, ...]
    keyed: dict[str, tuple[int, ...]]
    keyless: tuple[tuple[int, frozenset[str] | None], ...]
    keyless_set: frozenset[int]
    conditions: tuple[re.Pattern[str], ...]  # :data:`D.LOGGER_CONDITIONS`

    def order(self, word: str) -> list[int]:
        """The entries a body starting with ``word`` tries, in order."""
        return list(self.keyed.get(word, ())) + [i for i, fw in self.keyless if fw is None or word in fw]


class _Untranslatable(Exception):
    """A dialect tried has a pattern Python cannot read with RE2's meaning."""


def _compiled(e: _Entry) -> tuple[re.Pattern[str], list[str]]:
    c = PR.translated(e.pattern)  # (cached per process)
    if c is None:
        raise _Untranslatable(e.pattern)
    return c


def _entry(i: int, d: D.Dialect) -> _Entry | None:
    lg = DM.logger_condition(d)
    lrx = PR.translated(lg) if lg is not None else None
    if lg is not None and lrx is None:
        return None
    literal = d.literal if len(d.literal) > len(d.key or "") + 1 else ""
    ow = D.open_wording(d)
    orx = PR.translated(ow) if ow else None
    if ow and orx is None:
        return None
    return _Entry(i, d.pattern, literal, lrx[0] if lrx else None, DM.SOURCE_PREFIX.get(lg) if lg is not None else None,
                  d.needs_prefix, ow is not None, orx[0] if orx else None)  # fmt: skip


_BUILT: dict[int, tuple[object, int, TableDispatch | None]] = {}


def table_dispatch() -> TableDispatch | None:
    """The dispatcher of :data:`D.DIALECTS` (built once per process, again if the table is
    replaced or grows); None when a dialect cannot be tried in Python with RE2's meaning."""
    b = _BUILT.get(0)
    if b is None or b[0] is not D.DIALECTS or b[1] != len(D.DIALECTS):
        b = _BUILT[0] = (D.DIALECTS, len(D.DIALECTS), build_dispatch(tuple(D.DIALECTS)))
    return b[2]


def build_dispatch(dialects: tuple[D.Dialect, ...]) -> TableDispatch | None:
    """The dispatcher of a dialect table; None when one of its dialects cannot be tried in Python
    with RE2's meaning."""
    entries = [_entry(i, d) for i, d in enumerate(dialects)]
    prefix = PR.translated(D.BODY_PREFIX)
    conds = [PR.translated(c) for c in D.LOGGER_CONDITIONS]
    if any(e is None for e in entries) or prefix is None or not set(D.PREFIX_FIELDS) <= set(prefix[1]):
        return None
    if any(c is None for c in conds):
        return None
    keyed: dict[str, list[int]] = {}
    keyless: list[tuple[int, frozenset[str] | None]] = []
    for i, d in enumerate(dialects):
        if d.key is not None:
            keyed.setdefault(d.key, []).append(i)
        else:
            keyless.append((i, d.first_words))
    return TableDispatch(prefix[0], tuple(e for e in entries if e is not None), {k: tuple(v) for k, v in keyed.items()},
                         tuple(keyless), frozenset(i for i, _ in keyless),
                         tuple(c[0] for c in conds if c is not None))  # fmt: skip


def _logger_ok(e: _Entry, logger: str | None, message: str | None) -> bool:
    """The logger meets the dialect's condition, or the message starts with the context prefix of
    the same source (:data:`jobs.ingest.dialect_model.SOURCE_PREFIX`)."""
    if logger is not None and e.logger_rx is not None and e.logger_rx.search(logger) is not None:
        return True
    return e.source_prefix is not None and message is not None and message.startswith(e.source_prefix)


def _open(td: TableDispatch, e: _Entry, logger: str | None, body: str, unknown: dict[str | None, bool]) -> bool:
    """A body of an open wording of the entry, whose logger no condition of the table names."""
    if not e.is_open:
        return False
    u = unknown.get(logger)
    if u is None:
        u = unknown[logger] = not any(c.search(logger or "") for c in td.conditions)
    if not u:
        return False
    return e.open_rx is None or e.open_rx.search(body) is not None


def _first_match(
    td: TableDispatch,
    body: str,
    logger: str | None,
    message: str | None,
    has_pre: bool,
    order_of: dict[str, list[int]],
    unknown: dict[str | None, bool],
) -> tuple[int, re.Match[str]] | None:
    """The first entry matching ``body`` (and its match), or None (``unknown``: per logger, whether
    it is unknown, filled as needed)."""
    word = _FIRST_WORD.match(body).group(0)  # type: ignore[union-attr]
    order = order_of.get(word)
    if order is None:
        order = order_of[word] = td.order(word)
    for i in order:
        e = td.entries[i]
        if e.needs_prefix and not has_pre:
            continue
        if e.logger_rx is not None and not _logger_ok(e, logger, message) and not _open(td, e, logger, body, unknown):
            continue
        if e.literal and not body.startswith(e.literal):
            continue
        m = _compiled(e)[0].search(body)
        if m is not None:
            return i, m
    return None


def match_messages(
    td: TableDispatch, message: pa.Array, logger: pa.Array
) -> tuple[pa.Table, np.ndarray] | None:
    """The fast form of :func:`jobs.ingest.messages.match_messages_by_column` (same result: the
    matches table with ``_row``, ``_dialect``, the groups of the dialects matched, null for an empty
    one but ``partitions_raw``, the context prefix's ``pfx_*`` and the ``_body``; the unmatched
    mask): the context prefix split (:data:`D.BODY_PREFIX`, the body after it) and the dialects
    one message at a time. None when a message or logger is null or a dialect tried cannot be read
    by Python with RE2's meaning (left to the column form)."""
    if message.null_count or logger.null_count:
        return None
    try:
        return _match_all(td, message.to_pylist(), logger.to_pylist())
    except _Untranslatable:
        return None


def _match_all(td: TableDispatch, msgs: list[str], loggers: list[str]) -> tuple[pa.Table, np.ndarray]:
    unmatched = np.ones(len(msgs), dtype=bool)
    order_of: dict[str, list[int]] = {}
    unknown: dict[str | None, bool] = {}
    rows: list[int] = []
    found: list[tuple[int, re.Match[str], re.Match[str] | None, str]] = []
    for r, msg in enumerate(msgs):
        p = td.prefix.search(msg)
        body = msg[p.end() :] if p is not None else msg
        hit = _first_match(td, body, loggers[r], msg, p is not None, order_of, unknown)
        if hit is not None:
            rows.append(r)
            found.append((hit[0], hit[1], p, body))
            unmatched[r] = False
    return _matches_of(td, rows, found), unmatched


def _matches_of(
    td: TableDispatch, rows: list[int], found: list[tuple[int, re.Match[str], re.Match[str] | None, str]]
) -> pa.Table:
    """The matches table of the rows ``rows`` (increasing) and their (dialect, match, prefix match,
    body); columns in the order of the column form (dialects keyed then keyless, each in table
    order, each adding the groups it brings first)."""
    cols: dict[str, pa.Array] = {"_row": pa.array(rows, pa.int64()),
                                 "_dialect": pa.array([f[0] for f in found], pa.int32())}  # fmt: skip
    names: dict[str, None] = {}
    for i in sorted({f[0] for f in found}, key=lambda i: (i in td.keyless_set, i)):
        names.update(dict.fromkeys(_compiled(td.entries[i])[1]))
    n = len(found)
    vals: dict[str, list[str | None]] = {name: [None] * n for name in (*names, *D.PREFIX_FIELDS)}
    for j, (_, m, p, _) in enumerate(found):
        for name, v in m.groupdict().items():
            # (empty is no value, except an empty partition list: a fact)
            vals[name][j] = v or ("" if name == "partitions_raw" else None)
        if p is not None:
            pd = p.groupdict()
            for name in D.PREFIX_FIELDS:
                vals[name][j] = pd[name] or None
    for name in (*names, *D.PREFIX_FIELDS):
        cols[name] = pa.array(vals[name], pa.string())
    cols["_body"] = pa.array([f[3] for f in found], pa.string())
    return pa.table(cols)
