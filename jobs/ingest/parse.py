"""Parse one log file's bytes into canonical events, quarantine rows and one audit row.

Pure Python + pyarrow (no Spark): :func:`parse_bytes` runs inside ``mapInArrow`` and in the
single-process benchmark. Everything is vectorised over whole Arrow columns (RE2 kernels of
``pyarrow.compute``, numpy over the offsets of string columns); only the regex of the rare leader
assignment maps and invalid-UTF-8 files are looked at line by line.

Speed (every shortcut gives exactly the result of the plain way; ``tests/ingest/
test_parse_speed_equivalence.py``, ``test_fastheads.py``, ``test_pyregex.py``): pyarrow compiles a
regex on every call (~0.1-0.2 ms, the largest fixed cost of a small file), so the parser avoids
calls that cannot match and rows whose result is known, and answers anchored regexes on small
columns with Python's ``re`` (:mod:`jobs.ingest.pyregex`). Kafka's default log4j heads are split
from byte positions (:mod:`jobs.ingest.fastheads`, with the timestamp converted on the way). Work that is a pure function
of a line's message runs once per *distinct* value and is spread back with one ``take``: the group
prefilter (when a sample of the file repeats its messages), dialect matching and event field
conversion (per distinct message, logger and layout: a consumer logs the same heartbeat line for a
whole generation), the client context prefix (per distinct prefix) and logger checks. Layout
regexes run only on the lines whose first byte they can start with (:data:`L.FIRST_CHARS`),
dialect regexes only on the bodies starting with their literal text (``Dialect.literal``).

Pipeline of one file:

1. gunzip (by magic bytes; a ``.gz`` name without them is corrupt), sha256 of the content;
2. split lines (1-based ``line_no``); quarantine ``binary`` (NUL bytes), ``invalid_utf8`` and
   ``line_too_long`` lines; strip ``\\r`` and ANSI colours;
3. layouts (:mod:`jobs.ingest.layouts`): each line becomes a *head* (a log entry's first line), a
   *continuation* (stack trace lines, tab-indented blocks, the JUL message line), a blank line
   (unrelated) or ``unparsable_layout``; a head whose message itself holds newlines (a JSON
   ``"message"`` with a config dump or the cooperative ``Updating assignment with\n\tAssigned
   partitions: ...`` block) keeps its first line as the message and the rest as the event's
   ``continuation`` text, exactly like the same entry written over several lines (it is still one
   line of the file: counted once, as its head);
4. the cheap :data:`~jobs.ingest.dialects.GROUP_PREFILTER` splits heads into unrelated noise (only
   counted) and group candidates; candidates go through the dialect table
   (:mod:`jobs.ingest.dialects`) → events, recognised non-events (unrelated), ``no_timestamp`` or
   ``group_line_not_understood`` (no dialect matches);
4b. *context attribution* (:func:`_attribute_groups`): a recognised event whose line names no group
   (Kafka logs the static "will not trigger a rebalance" line, fenced-instance lines, leader
   re-election and the 2.3 static replacement while handling one group's request, next to a line
   that names it) takes the group of the nearest preceding event line of the file naming its
   member / instance id, else of the nearest preceding group line within 1000 ms (same coordinator
   partition when the Java prefix gives one); when nothing attributes it: ``group_unknown``;
5. accounting, per line exactly one of: event, continuation (of an event), unrelated, quarantined.
   A continuation takes the class of its head: continuations of an unrelated head count as
   *unrelated*, of a quarantined head as *quarantined* (one quarantine row each, same reason, detail
   ``continuation of line N``), of an event head as *continuations* (their text is the event's
   ``continuation``). A continuation with no head line before it is ``unparsable_layout``.
   ``total_lines = events + continuations + unrelated + quarantined`` always holds.

Quarantine reasons written here: ``corrupt_gzip``, ``binary``, ``invalid_utf8``,
``line_too_long``, ``unparsable_layout``, ``group_line_not_understood`` (passes the group
prefilter, matches no dialect), ``group_unknown`` (a recognised event whose group neither the line
nor its context gives) and ``no_timestamp``.
"""

from __future__ import annotations

import bisect
import gzip
import hashlib
import io
import re
import zlib
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyarrow import json as pa_json

from jobs.ingest import dialects as D
from jobs.ingest import fastheads as FH
from jobs.ingest import general as G
from jobs.ingest import layouts as L
from jobs.ingest import pyregex as PR
from jobs.ingest import redaction as RD
from jobs.ingest import timestamps as TS
from jobs.ingest.model import (
    AUDIT_ARROW,
    EVENTS_ARROW,
    QUARANTINE_ARROW,
    IngestError,
    IngestSettings,
)
from jobs.ingest.rawbytes import Raw

MAX_INT = 2147483647
_RDKAFKA_LEVELS = {
    "0": "EMERG",
    "1": "ALERT",
    "2": "CRITICAL",
    "3": "ERROR",
    "4": "WARN",
    "5": "NOTICE",
    "6": "INFO",
    "7": "DEBUG",
}
_FIELDS_STR = [
    "group_id",
    "member_id",
    "group_instance_id",
    "client_id",
    "host",
    "reason",
    "state",
    "protocol",
    "error",
    "old_member_id",
    "operation",
    "protocol_type",
    "from_state",
]
#: kind / side of each dialect as codes into small vocabularies (columns are built with a take)
_KIND_VOCAB = sorted({d.kind or "" for d in D.DIALECTS})
_KIND_NAMES = pa.array(_KIND_VOCAB, pa.string())
_KIND_CODES = np.array([_KIND_VOCAB.index(d.kind or "") for d in D.DIALECTS], dtype=np.int32)
_SIDE_VOCAB = ["broker", "client", "connect", "other"]
_SIDE_NAMES = pa.array(_SIDE_VOCAB, pa.string())
_SIDE_CODES = np.array([_SIDE_VOCAB.index(d.side) for d in D.DIALECTS], dtype=np.int32)
_CLIENT, _CONNECT, _OTHER = (_SIDE_VOCAB.index(x) for x in ("client", "connect", "other"))
_IDS = pa.array([d.id for d in D.DIALECTS], pa.string())
_FAIL_KINDS = ("join_failed", "sync_failed", "heartbeat_failed", "offset_commit_failed")
_FAILING = np.array([d.kind in _FAIL_KINDS for d in D.DIALECTS], dtype=bool)


# ------------------------------------------------------------------------------------ helpers
def _np(a: pa.Array | pa.ChunkedArray) -> np.ndarray:
    if isinstance(a, pa.ChunkedArray):
        a = a.combine_chunks()
    return a.to_numpy(zero_copy_only=False)


def _mask(a: pa.Array) -> np.ndarray:
    """Boolean Arrow array → numpy bool (null = False)."""
    return _np(pc.fill_null(a, False) if a.null_count else a).astype(bool)


def _nullify_empty(a: pa.Array) -> pa.Array:
    """``a`` with empty strings as null (``a`` itself when it holds none: the offsets tell)."""
    if isinstance(a, pa.Array) and (pa.types.is_string(a.type) or pa.types.is_large_string(a.type)):
        r = Raw(a)
        if not ((r.lengths == 0) & r.valid).any():
            return a
    return pc.if_else(pc.equal(a, ""), pa.scalar(None, a.type), a)


def _take(a: pa.Array, idx: np.ndarray) -> pa.Array:
    return a.take(pa.array(idx, pa.int64()))


def _extract(a: pa.Array, regex: str) -> pa.StructArray:
    """``pc.extract_regex`` (small columns through Python's ``re``, see :mod:`jobs.ingest.pyregex`)."""
    return PR.extract(a, regex)


def _split_list(raw: pa.Array, strip: str) -> pa.Array:
    """``"[a, b]"``/``"Set(a, b)"``/``"a, b"`` → list<string> (null stays null, ``[]`` → empty)."""
    s = pc.replace_substring_regex(raw, strip, "")
    parts = pc.split_pattern_regex(s, r",\s*")
    flat = pc.utf8_trim_whitespace(pc.list_flatten(parts))
    parents = _np(pc.list_parent_indices(parts))
    keep = _mask(pc.not_equal(flat, ""))
    flat = flat.filter(pa.array(keep))
    parents = parents[keep]
    offsets = np.searchsorted(parents, np.arange(len(raw) + 1)).astype(np.int32)
    lst = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), flat.cast(pa.string()))
    valid = _mask(pc.is_valid(raw))
    if valid.all():
        return lst
    return pc.if_else(pa.array(valid), lst, pa.scalar(None, lst.type))


_PART_STRIP = r"^\s*(?:Set|List|HashSet)?[\[({]+|[\])}]+\s*$|[\[\]{}]"
_MEMBER_STRIP = r"^\s*(?:Set|List|HashSet)?[\[({]+|[\])}]+\s*\.?$"
_TOPIC_PARTITION = r"TopicPartition\(topic=u?'([^']*)', partition=(\d+)\)"


def _partitions(raw: pa.Array) -> pa.Array:
    if pc.any(pc.match_substring(raw, "TopicPartition(")).as_py():
        raw = pc.replace_substring_regex(raw, _TOPIC_PARTITION, r"\1-\2")
    return _split_list(raw, _PART_STRIP)


_ASSIGN_RX = re.compile(r"([^\s{},=]+)=Assignment\(partitions=\[([^\]]*)\]")


_MAP_TYPE = pa.map_(pa.string(), pa.list_(pa.string()))
_NOT_PRINTABLE_ASCII = r"[^\x20-\x7e]"


def _assignment_reference(raw: pa.Array) -> pa.Array:
    """The leader's ``{m=Assignment(partitions=[t-0, t-1]), ...}`` → map member → partitions
    (the plain definition, row by row)."""
    out: list[Any] = []
    for s in raw.to_pylist():
        if s is None:
            out.append(None)
            continue
        out.append(
            [(m, [p.strip() for p in parts.split(",") if p.strip()]) for m, parts in _ASSIGN_RX.findall(s)]
        )
    return pa.array(out, _MAP_TYPE)


def _assignment(raw: pa.Array) -> pa.Array:
    """:func:`_assignment_reference` with the partition lists split and trimmed by Arrow kernels
    over all members at once (the regex still runs per row, with Python's whitespace class). Only printable
    ASCII partition lists take this way (there ``str.strip`` and the ASCII trim agree)."""
    strs = raw.to_pylist()
    found = [_ASSIGN_RX.findall(s) if s is not None else () for s in strs]
    counts = np.fromiter((len(f) for f in found), np.int64, len(found))
    members = [m for f in found for m, _ in f]
    lists = pa.array([p for f in found for _, p in f], pa.string())
    if len(lists) and pc.any(PR.match(lists, _NOT_PRINTABLE_ASCII)).as_py():
        return _assignment_reference(raw)
    parts = pc.split_pattern(lists, ",")
    flat = pc.ascii_trim_whitespace(pc.list_flatten(parts))
    parents = _np(pc.list_parent_indices(parts)) if len(flat) else np.zeros(0, np.int64)
    keep = _mask(pc.not_equal(flat, "")) if len(flat) else np.zeros(0, dtype=bool)
    poffs = np.searchsorted(parents[keep], np.arange(len(lists) + 1)).astype(np.int32)
    items = pa.ListArray.from_arrays(pa.array(poffs, pa.int32()), flat.filter(pa.array(keep)))
    moffs = np.zeros(len(strs) + 1, np.int32)
    np.cumsum(counts, out=moffs[1:])
    null = np.fromiter((s is None for s in strs), bool, len(strs))
    offsets = pa.array(moffs, pa.int32(), mask=np.append(null, False) if null.any() else None)
    return pa.MapArray.from_arrays(offsets, pa.array(members, pa.string()), items, type=_MAP_TYPE)


def _instance_id(a: pa.Array) -> pa.Array:
    """Scala ``Some(i)``/``None``, Java ``null``/``Optional[i]``/``Optional.empty`` → i or null."""
    a = pc.replace_substring_regex(a, r"^(?:Some\((.*)\)|Optional\[(.*)\])$", r"\1\2")
    bad = pc.is_in(a, pa.array(["None", "null", "Optional.empty", ""]))
    return pc.if_else(pc.fill_null(bad, False), pa.scalar(None, pa.string()), a)


def _int(a: pa.Array, typ: pa.DataType | None = None) -> pa.Array:
    return pc.cast(_nullify_empty(a), typ or pa.int32(), safe=False) if a is not None else None


def _coalesce(*arrs: pa.Array | None) -> pa.Array:
    arrs = [a for a in arrs if a is not None]
    return arrs[0] if len(arrs) == 1 else pc.coalesce(*arrs)


def _repeat(value: str | None, n: int) -> pa.Array:
    """A string column of ``n`` times ``value``."""
    return pa.repeat(pa.scalar(value, pa.string()), n)


def _decode_lossy(b: bytes | None, keep: int) -> str:
    if b is None:
        return ""
    return b[:keep].decode("utf-8", errors="backslashreplace")


# ------------------------------------------------------------------------------------ layouts
_COMPILED_ORDER_SAMPLE = 400
_FIRST_LOOK = 8


class _FirstBytes:
    """The first byte of each string of a column (256: empty or null): every layout regex is
    anchored and can only start with a few characters (:data:`L.FIRST_CHARS`), so a cheap lookup
    tells which lines a layout could match at all."""

    def __init__(self, a: pa.Array | None, codes: np.ndarray | None = None) -> None:
        if a is not None:
            codes = Raw(a).first_bytes()
        self.codes: np.ndarray = codes if codes is not None else np.zeros(0, np.int16)
        self._cache: dict[str, np.ndarray] = {}

    def possible(self, chars: str) -> np.ndarray:
        """Mask of the strings whose first character is one of ``chars`` (ASCII)."""
        m = self._cache.get(chars)
        if m is None:
            lut = np.zeros(257, dtype=bool)
            lut[[ord(c) for c in chars if ord(c) < 256]] = True
            m = lut[self.codes]
            self._cache[chars] = m
        return m

    def take(self, idx: np.ndarray | slice) -> _FirstBytes:
        return _FirstBytes(None, self.codes[idx])


def _layout_order(text: pa.Array, fb: _FirstBytes | None = None) -> list[L.Layout]:
    """The layout table with the layouts that match none of the file's first lines moved to the end
    (table order otherwise: specific layouts before general ones). A layout none of whose sample
    lines starts with one of its first characters cannot hit: its regex is not run."""
    sample = text.slice(0, _COMPILED_ORDER_SAMPLE)
    sfb = (fb or _FirstBytes(sample)).take(slice(0, _COMPILED_ORDER_SAMPLE))

    def hits(lay: L.Layout) -> bool:
        possible = np.nonzero(sfb.possible(L.FIRST_CHARS.get(lay.id, L.ALL_CHARS)))[0]
        if not len(possible):
            return False
        # a hit among the first possible lines (Python's re, no RE2 compile) settles it
        if _mask(PR.match(_take(sample, possible[:_FIRST_LOOK]), lay.regex)).any():
            return True
        return len(possible) > _FIRST_LOOK and bool(
            pc.any(pc.match_substring_regex(sample, lay.regex)).as_py()
        )

    hit = [hits(lay) for lay in L.LAYOUTS]
    return [lay for lay, h in zip(L.LAYOUTS, hit) if h] + [lay for lay, h in zip(L.LAYOUTS, hit) if not h]


def _mostly_json(text: pa.Array, fb: _FirstBytes | None = None) -> bool:
    sample = text.slice(0, _COMPILED_ORDER_SAMPLE)
    sfb = (fb or _FirstBytes(sample)).take(slice(0, _COMPILED_ORDER_SAMPLE))
    if sfb.possible(L.FIRST_CHARS["json"]).sum() * 2 <= len(sample):
        return False
    return (pc.sum(PR.match(sample, L.JSON_LINE)).as_py() or 0) * 2 > len(sample)


class _Heads:
    """Accumulates head-line chunks (row index + layout fields)."""

    def __init__(self) -> None:
        self.chunks: list[pa.Table] = []
        #: whether a JSON head was added (only JSON messages can hold a newline: lines are split at them)
        self.json = False

    def add(
        self, rows: np.ndarray, layout: str, st: dict[str, pa.Array | None], pts: pa.Array | None
    ) -> None:
        n = len(rows)
        cols: dict[str, pa.Array] = {"_row": pa.array(rows, pa.int64())}
        for name in ("ts", "level", "logger", "thread", "message", *L.JSON_EXTRA):
            v = st.get(name)
            cols[name] = v.cast(pa.string()) if v is not None else pa.nulls(n, pa.string())
        cols["pts"] = pts.cast(pa.string()) if pts is not None else pa.nulls(n, pa.string())
        # naive epoch ms of ts when a fast path converted it already (else null)
        tsms = st.get("tsms")
        cols["tsms"] = tsms if tsms is not None else pa.nulls(n, pa.int64())
        nolog = st.get("_nologger")  # (log4j lines without a logger tail: layout "...log4j-nologger")
        codes = nolog.astype(np.int32) if nolog is not None else np.zeros(n, np.int32)
        names = [layout, layout + "-nologger"] if nolog is not None else [layout]
        cols["layout"] = (
            pa.array([names[c] for c in codes], pa.string())
            if n < 64
            else pc.cast(pa.DictionaryArray.from_arrays(pa.array(codes), pa.array(names)), pa.string())
        )
        self.chunks.append(pa.table(cols))

    def table(self) -> pa.Table:
        if not self.chunks:
            return pa.table(
                {
                    "_row": pa.array([], pa.int64()),
                    **{
                        k: pa.array([], pa.string())
                        for k in ("ts", "level", "logger", "thread", "message", "pts", "layout", *L.JSON_EXTRA)
                    },
                    "tsms": pa.array([], pa.int64()),
                }
            )
        t = pa.concat_tables(self.chunks)
        if len(self.chunks) > 1:
            t = t.take(pc.sort_indices(t["_row"]))
        return t.combine_chunks()


def _elem(lists: pa.Array, i: int) -> pa.Array:
    """Element ``i`` of each list; null where the list is shorter (or null).

    A ``take`` from the flat values at ``offsets + i`` (several times cheaper than
    ``list_element`` on the split results of whole columns)."""
    if isinstance(lists, pa.ChunkedArray):
        lists = lists.combine_chunks()
    offs = lists.offsets.to_numpy(zero_copy_only=False)
    starts = offs[:-1]
    ok = (offs[1:] - starts) > i
    if lists.null_count:
        ok &= _mask(pc.is_valid(lists))
    idx = (starts + i).astype(np.int64)
    if ok.all():
        return lists.values.take(pa.array(idx, pa.int64()))
    return lists.values.take(pa.array(idx, pa.int64(), mask=~ok))


def _dict_apply(a: pa.Array, fn: Any) -> pa.Array:
    """``fn`` (an element-wise kernel) of the distinct values of ``a`` only, spread back to every
    row (for columns with few distinct values, e.g. logger names)."""
    enc = pc.dictionary_encode(a)
    return fn(enc.dictionary).take(enc.indices)


def _fast_log4j(sub: pa.Array, with_logger: bool) -> tuple[np.ndarray, dict[str, pa.Array]] | None:
    """Kafka's ``[%d] %p %m (%c)`` with the default date format from byte positions
    (:func:`jobs.ingest.fastheads.split_log4j`; the string kernels of :func:`_fast_log4j_kernels`
    when a line does not fit it). Same result as the layout regex for the lines it accepts, plus
    ``tsms`` (the naive epoch ms of ``ts``, null when left to the timestamp parser)."""
    sp = FH.split_log4j(sub)
    if sp is None:
        return _fast_log4j_kernels(sub, with_logger)
    if not sp.ok.any():
        return None
    ok = sp.tail if with_logger else sp.ok & ~sp.tail
    st = sp.columns(np.nonzero(ok)[0])
    if not with_logger:
        del st["logger"]
    return ok, st


def _fast_log4j_kernels(sub: pa.Array, with_logger: bool) -> tuple[np.ndarray, dict[str, pa.Array]] | None:
    """Kafka's ``[%d] %p %m (%c)`` with the default date format, by splitting (no sub-matches).
    Same result as the layout regex for the lines it accepts."""
    ok = _mask(PR.match(sub, L.FAST_LOG4J))
    if not ok.any():
        return None
    s = sub if ok.all() else sub.filter(pa.array(ok))
    parts = pc.split_pattern(s, " ", max_splits=3)
    ts = pc.utf8_slice_codeunits(s, 1, 24)
    level = _elem(parts, 2)
    rest = _elem(parts, 3)
    rest = pc.utf8_ltrim(rest, " ")
    tail = pc.split_pattern(rest, " (", max_splits=1, reverse=True)
    has_tail = _mask(pc.greater(pc.list_value_length(tail), 1))
    logger_raw = _elem(tail, 1)
    lg_ok = _mask(_dict_apply(logger_raw, lambda u: PR.match(u, L.LOG4J_LOGGER_TAIL))) & has_tail
    if not with_logger:
        # log4j-nologger: the lines without a valid "(logger)" tail
        keep = ~lg_ok
        pos = np.nonzero(ok)[0]
        ok[pos[~keep]] = False
        kp = pa.array(keep)
        return ok, {"ts": ts.filter(kp), "level": level.filter(kp), "message": rest.filter(kp)}
    pos = np.nonzero(ok)[0]
    ok[pos[~lg_ok]] = False
    kp = pa.array(lg_ok)
    head = _elem(tail, 0).filter(kp)
    logger = pc.utf8_slice_codeunits(logger_raw.filter(kp), 0, -1)
    return ok, {"ts": ts.filter(kp), "level": level.filter(kp), "message": head, "logger": logger}


def _fast_springboot(sub: pa.Array) -> tuple[np.ndarray, dict[str, pa.Array]] | None:
    """Spring Boot 2/3 console lines by splitting (no sub-matches); same result as the regexes."""
    ok = _mask(PR.match(sub, L.FAST_SPRINGBOOT))
    if not ok.any():
        return None
    s = sub if ok.all() else sub.filter(pa.array(ok))
    halves = pc.split_pattern(s, " --- ", max_splits=1)
    # (the part before " --- " is ASCII, as FAST_SPRINGBOOT checked: the cheaper ASCII split)
    left = pc.ascii_split_whitespace(_elem(halves, 0), max_splits=3)
    right = _elem(halves, 1)
    # Spring Boot 3.2+: "[app] [thread] logger : msg"
    app = _mask(PR.match(right, r"^\[[^\]]*\] \["))
    if app.any():
        right = pc.if_else(
            pa.array(app), pc.replace_substring_regex(right, r"^\[[^\]]*\] ", "", max_replacements=1), right
        )
    th = pc.split_pattern(right, "] ", max_splits=1)
    thread = pc.utf8_trim_whitespace(pc.utf8_slice_codeunits(_elem(th, 0), 1, 1 << 30))
    lm = pc.split_pattern(_elem(th, 1), " : ", max_splits=1)
    good = _mask(pc.equal(pc.list_value_length(lm), 2))
    logger = pc.utf8_rtrim_whitespace(_elem(lm, 0))
    message = _elem(lm, 1)
    pos = np.nonzero(ok)[0]
    ok[pos[~good]] = False
    g = pa.array(good)
    t0 = _elem(left, 0)
    spaced = pc.equal(pc.utf8_length(t0), 10)  # "2024-05-01 10:00:00.123" (Spring Boot 2) vs ISO "...T..."
    ts = pc.if_else(spaced, pc.binary_join_element_wise(t0, _elem(left, 1), pa.scalar(" ", t0.type)), t0)
    level = pc.if_else(spaced, _elem(left, 2), _elem(left, 1))
    return ok, {
        "ts": ts.filter(g),
        "level": level.filter(g),
        "thread": thread.filter(g),
        "logger": logger.filter(g),
        "message": message.filter(g),
    }


def _match_one(
    sub: pa.Array, lay: L.Layout, possible: np.ndarray | None = None
) -> tuple[np.ndarray, dict[str, pa.Array]]:
    """(matched mask, fields of the matched lines) of one layout on ``sub`` (``possible``: the lines
    that start with one of the layout's first characters; no other line can match)."""
    fast = None
    if lay.id == "log4j":
        fast = _fast_log4j_both(sub)
    elif lay.id == "log4j-nologger":
        fast = _fast_log4j(sub, False)
    elif lay.id in ("springboot", "springboot3"):
        fast = _fast_springboot(sub)
    if fast is not None:
        ok, st = fast
        # lines the fast path does not accept still get the regex
        rest = np.nonzero(~ok if possible is None else ~ok & possible)[0]
        if len(rest) and lay.id != "log4j-nologger":
            ok2, st2 = _match_one_regex(_take(sub, rest), lay)
            if ok2.any():
                nolog = st.pop("_nologger", None)
                ok_m, st = _merge(ok, st, rest, ok2, st2)
                if nolog is not None:
                    # (the regex lines are log4j lines; merged rows are in line order)
                    flags = np.concatenate([nolog, np.zeros(int(ok2.sum()), dtype=bool)])
                    order = np.argsort(np.concatenate([np.nonzero(ok)[0], rest[ok2]]), kind="stable")
                    st["_nologger"] = flags[order]
                return ok_m, st
        return ok, st
    return _match_one_regex(sub, lay)


def _fast_log4j_both(sub: pa.Array) -> tuple[np.ndarray, dict[str, Any]] | None:
    """The ``log4j`` fast path that also takes the FAST_LOG4J lines without a valid ``(logger)``
    tail, as ``log4j-nologger`` lines (``_nologger`` mask): whatever the layout order, they end up
    there (the log4j regex cannot match them: its logger would have to be the text after the last
    ``" ("``, and no other layout can match a line starting ``[dddd-``), and taking them in the
    same pass keeps the heads in line order (no second split, no reordering of the head table)."""
    sp = FH.split_log4j(sub)
    if sp is None:
        return _fast_log4j_kernels(sub, True)
    if not sp.ok.any():
        return None
    st: dict[str, Any] = sp.columns(np.nonzero(sp.ok)[0])
    tail = sp.tail[sp.ok]
    if not tail.all():
        st["logger"] = pc.if_else(pa.array(tail), st["logger"], pa.scalar(None, st["logger"].type))
        st["_nologger"] = ~tail
    return sp.ok, st


def _merge(ok: np.ndarray, st: dict, rest: np.ndarray, ok2: np.ndarray, st2: dict) -> tuple[np.ndarray, dict]:
    """Combine two partial matches (positions of ``ok`` order)."""
    pos1 = np.nonzero(ok)[0]
    pos2 = rest[ok2]
    allpos = np.concatenate([pos1, pos2])
    order = np.argsort(allpos, kind="stable")
    out = {}
    for k in set(st) | set(st2):
        a = st.get(k)
        b = st2.get(k)
        typ = pa.int64() if k == "tsms" else pa.large_string()
        a = a.cast(typ) if a is not None else pa.nulls(len(pos1), typ)
        b = b.cast(typ) if b is not None else pa.nulls(len(pos2), typ)
        out[k] = pa.concat_arrays([a, b]).take(pa.array(order))
    ok = ok.copy()
    ok[pos2] = True
    return ok, out


def _match_one_regex(sub: pa.Array, lay: L.Layout) -> tuple[np.ndarray, dict[str, pa.Array]]:
    if lay.head is None:
        m = _extract(sub, lay.regex)
        ok = _mask(m.is_valid())
        mf = m.filter(pa.array(ok))
        return ok, {f.name: mf.field(f.name) for f in m.type}
    m = _extract(sub, lay.head)
    ok = _mask(m.is_valid())
    if not ok.any():
        return ok, {}
    okp = pa.array(ok)
    mf = m.filter(okp)
    st = {f.name: mf.field(f.name) for f in m.type}
    rest = pc.replace_substring_regex(sub.filter(okp), lay.head, "", max_replacements=1)
    if lay.tail is not None:
        t = _extract(rest, lay.tail)
        tok = _mask(t.is_valid())
        pos = np.nonzero(ok)[0]
        ok[pos[~tok]] = False
        tp = pa.array(tok)
        st = {k: v.filter(tp) for k, v in st.items()}
        tf = t.filter(tp)
        st.update({f.name: tf.field(f.name) for f in t.type})
        rest = pc.replace_substring_regex(rest.filter(tp), lay.tail, "", max_replacements=1)
    st["message"] = rest
    return ok, st


def _json_fields(js: pa.Array) -> dict[str, pa.Array | None]:
    """Fields of JSON lines: pyarrow's JSON reader (fast); per-key regexes if a line is malformed."""
    try:
        nl = pc.binary_join_element_wise(
            js.cast(pa.large_string()), pa.scalar("\n", pa.large_string()), pa.scalar("", pa.large_string())
        )
        offs = np.frombuffer(nl.buffers()[1], dtype=np.int64, count=len(nl) + 1, offset=nl.offset * 8)
        block = nl.buffers()[2][int(offs[0]) : int(offs[-1])]
        tbl = pa_json.read_json(
            io.BytesIO(block), read_options=pa_json.ReadOptions(use_threads=False, block_size=1 << 26)
        )
        if tbl.num_rows != len(js):
            raise ValueError("row count")
        flat = tbl.flatten()
        cols: dict[str, pa.Array] = {}
        for i, c in enumerate(flat.column_names):
            # a flat "log.level" key and a nested {"log": {"level": ...}} flatten to the same name
            col = flat.column(i).combine_chunks()
            cols[c] = col if c not in cols else pc.coalesce(cols[c], col.cast(cols[c].type))
        st: dict[str, pa.Array | None] = {}
        for key, names in L.JSON_NAMES.items():
            v = None
            for name in names:
                c = cols.get(name)
                if c is None:
                    continue
                c = (
                    c.cast(pa.string())
                    if not pa.types.is_timestamp(c.type)
                    else pc.strftime(c, "%Y-%m-%dT%H:%M:%S.%fZ")
                )
                v = c if v is None else pc.coalesce(v, c)
            st[key] = v
        return st
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, ValueError, TypeError, KeyError):
        pass  # the per-key regexes below
    st = {}
    for key, rx in L.JSON_KEYS.items():
        m = _extract(js, rx)
        v = m.field("v")
        if key == "ts":
            v = pc.if_else(pc.equal(v, ""), m.field("n"), v)
        nested = L.JSON_NESTED.get(key)
        if nested is not None:
            v = pc.if_else(pc.equal(v, ""), _extract(js, nested).field("v"), v)
        st[key] = _nullify_empty(v)
    st["message"] = L.json_unescape(pc.fill_null(st["message"], ""))
    return st


def _match_layouts(
    text: pa.Array,
    rows: np.ndarray,
    order: list[L.Layout],
    heads: _Heads,
    label: str,
    pts: pa.Array | None,
    fb: _FirstBytes | None = None,
) -> np.ndarray:
    """Match ``text`` (the lines ``rows``) against the layouts; returns the rows left unmatched.
    JSON lines are tried first when most of the file's first lines are JSON, else last. A layout
    runs only on the lines starting with one of its first characters (:data:`L.FIRST_CHARS`)."""
    fb = fb or _FirstBytes(text)
    left = np.ones(len(rows), dtype=bool)
    if _mostly_json(text, fb):
        left = _match_json(text, rows, left, heads, label, pts, fb)
    nologger_taken = False
    for lay in order:
        pos = np.nonzero(left)[0]
        if not len(pos):
            break
        if lay.id == "log4j-nologger" and nologger_taken:
            # the log4j pass took this layout's FAST_LOG4J lines: the layout's own pass would have
            # found them (and then not tried its regex on the other lines)
            continue
        poss = fb.possible(L.FIRST_CHARS.get(lay.id, L.ALL_CHARS))[pos]
        if not poss.any():
            continue
        if len(pos) < len(text) and not poss.all():
            pos, poss = pos[poss], None  # (no copy of the whole column for the narrowing)
        sub = text if len(pos) == len(text) else _take(text, pos)
        ok, st = _match_one(sub, lay, poss)
        if not ok.any():
            continue
        nologger_taken |= bool(lay.id == "log4j" and "_nologger" in st and st["_nologger"].any())
        heads.add(rows[pos[ok]], label + lay.id, st, _take(pts, pos[ok]) if pts is not None else None)
        left[pos[ok]] = False
    left = _match_json(text, rows, left, heads, label, pts, fb)
    return rows[left]


def _match_json(
    text: pa.Array,
    rows: np.ndarray,
    left: np.ndarray,
    heads: _Heads,
    label: str,
    pts: pa.Array | None,
    fb: _FirstBytes,
) -> np.ndarray:
    pos = np.nonzero(left)[0]
    if len(pos) and fb.possible(L.FIRST_CHARS["json"])[pos].any():
        sub = text if len(pos) == len(text) else _take(text, pos)
        isj = _mask(PR.match(sub, L.JSON_LINE))
        if isj.any():
            jp = pos[isj]
            st = _json_fields(sub if isj.all() else _take(text, jp))
            # a JSON line without a message field is still a head (message "")
            st["message"] = pc.fill_null(st["message"], "") if st.get("message") is not None else None
            heads.add(rows[jp], label + "json", st, _take(pts, jp) if pts is not None else None)
            heads.json = True
            left = left.copy()
            left[jp] = False
    return left


# ------------------------------------------------------------------------------------ dialects
_CLIENT_PREFIX_RX = next(rx for lits, rx in D.BODY_PREFIXES if "[Consumer " in lits)


def _extract_client_prefix(sub: pa.Array, rx: str) -> pa.StructArray:
    """``extract_regex(sub, rx)`` of the client prefix alternative, once per distinct text before
    the first ``"] "``: nothing the prefix matches before its closing ``"] "`` can be a ``]``, so a
    match ends at the first ``"]"``, which must be followed by a space, and depends only on the
    text up to there (lines without ``"] "`` cannot match). A file logs a few client prefixes."""
    parts = pc.split_pattern(sub, "] ", max_splits=1)
    has = _np(pc.equal(pc.list_value_length(parts), 2)).astype(bool)
    enc = pc.dictionary_encode(_elem(parts, 0))
    typ = enc.dictionary.type
    keys = pc.binary_join_element_wise(enc.dictionary, pa.scalar("] ", typ), pa.scalar("", typ))
    return _extract(keys, rx).take(pa.array(_np(enc.indices), pa.int32(), mask=~has))


def _prefix_fields(message: pa.Array) -> tuple[np.ndarray, dict[str, pa.Array]]:
    """Which messages start with a context prefix (:data:`D.BODY_PREFIX`) and its fields (``""``
    when absent). Each alternative runs on the rows starting with its literal
    (:data:`D.BODY_PREFIXES`); the other rows starting with ``[`` (e.g. an MDC block before a client
    prefix) get the whole alternation. Same result as one ``extract_regex`` of ``BODY_PREFIX``."""
    n = len(message)
    typ = message.type
    has_pre = np.zeros(n, dtype=bool)
    empty = pc.fill_null(pa.nulls(n, typ), pa.scalar("", typ))
    fields = dict.fromkeys(D.PREFIX_FIELDS, empty)
    bracket = _mask(pc.starts_with(message, "["))
    left = bracket.copy()  # rows not matched by a specific alternative yet

    def run(sel: np.ndarray, rx: str) -> None:
        rows = np.nonzero(sel)[0]
        sub = message if len(rows) == n else _take(message, rows)
        m = _extract_client_prefix(sub, rx) if rx == _CLIENT_PREFIX_RX else _extract(sub, rx)
        ok = _mask(m.is_valid())
        if not ok.any():
            return
        hit = np.zeros(n, dtype=bool)
        hit[rows[ok]] = True
        has_pre[hit] = True
        left[hit] = False
        mf = m.filter(pa.array(ok))
        hp = pa.array(hit)
        for f in m.type:
            fields[f.name] = pc.replace_with_mask(fields[f.name], hp, mf.field(f.name).cast(typ))

    for literals, rx in D.BODY_PREFIXES:
        sel = np.zeros(n, dtype=bool)
        for lit in literals:
            sel |= _mask(pc.starts_with(message, lit))
        sel &= left
        if sel.any():
            run(sel, rx)
    if left.any():
        run(left, D.BODY_PREFIX)
    return has_pre, fields


def _strip_prefix(message: pa.Array, has_pre: np.ndarray) -> pa.Array:
    """``message`` without its context prefix (rows ``has_pre``). Every :data:`D.BODY_PREFIX`
    alternative ends at its first ``"] "`` / ``"]: "``, so a split finds the body (much cheaper than
    a regex replacement); only a client prefix behind an MDC block ``[a|b] `` needs the regex."""
    parts = pc.split_pattern_regex(message, r"\]:? ", max_splits=1)
    mdc = has_pre & _mask(PR.match(message, r"^\[[^\]|]*\|"))
    simple = has_pre & ~mdc
    body = pc.if_else(pa.array(simple), _elem(parts, 1), message)
    if mdc.any():
        rows = np.nonzero(mdc)[0]
        stripped = pc.replace_substring_regex(_take(message, rows), D.BODY_PREFIX, "", max_replacements=1)
        body = pc.replace_with_mask(body, pa.array(mdc), stripped.cast(body.type))
    return body


_DIALECTS_BY_KEY: dict[str, list[tuple[int, D.Dialect]]] = {}
for _i, _d in enumerate(D.DIALECTS):
    if _d.key is not None:
        _DIALECTS_BY_KEY.setdefault(_d.key, []).append((_i, _d))
_KEYLESS = [(i, d) for i, d in enumerate(D.DIALECTS) if d.key is None]
_REPEAT_SAMPLE = 2048


def _repetitive(message: pa.Array) -> bool:
    """Whether at most half of the first messages are distinct (then per-distinct-message work
    pays for the hashing of every message)."""
    sample = message.slice(0, _REPEAT_SAMPLE)
    return len(sample) > 0 and len(pc.unique(sample)) * 2 <= len(sample)


def _match_dialects(message: pa.Array, logger: pa.Array) -> tuple[pa.Table, np.ndarray]:
    """Run the dialect table on candidate messages. Returns (fields table with ``_row`` and
    ``_dialect``, unmatched-row mask)."""
    n = len(message)
    if message.type != pa.string():
        message = message.cast(pa.string())
    has_pre, pre = _prefix_fields(message)
    body = message
    if has_pre.any():
        body = _strip_prefix(message, has_pre)
    first = _extract(body, r"^(?P<w>\S*)").field("w")
    enc = pc.dictionary_encode(first)
    codes = _np(enc.indices)
    word_code = {w: i for i, w in enumerate(enc.dictionary.to_pylist())}
    unmatched = np.ones(n, dtype=bool)
    chunks: list[tuple[bool, int, pa.Table]] = []
    logger_ok: dict[str, np.ndarray] = {}
    # keyed dialects of the first words present (rows of different keys are disjoint: table order
    # only matters within one key), then the keyless ones on every row left
    work = [(code, di, d) for w, code in word_code.items() for di, d in _DIALECTS_BY_KEY.get(w, ())] + [
        (None, di, d) for di, d in _KEYLESS
    ]
    for code, di, d in work:
        if not unmatched.any():
            break
        if code is not None:
            rows = np.nonzero(unmatched & (codes == code))[0]
        elif d.first_words is not None:
            # (a keyless dialect whose matches start with one of a few words: only those bodies)
            wc = [word_code[w] for w in d.first_words if w in word_code]
            if not wc:
                continue
            rows = np.nonzero(unmatched & np.isin(codes, wc))[0]
        else:
            rows = np.nonzero(unmatched)[0]
        if d.logger and len(rows):
            if d.logger not in logger_ok:
                rx = d.logger
                logger_ok[rx] = _mask(_dict_apply(logger, lambda u, rx=rx: PR.match(u, rx)))
            rows = rows[logger_ok[d.logger][rows]]
        if d.needs_prefix and len(rows):
            rows = rows[has_pre[rows]]
        if not len(rows):
            continue
        sub = _take(body, rows)
        if len(d.literal) > len(d.key or "") + 1:
            # every match starts with this text: a cheap test before the regex
            lit = _mask(pc.starts_with(sub, d.literal))
            if not lit.any():
                continue
            if not lit.all():
                rows = rows[lit]
                sub = _take(body, rows)
        if d.groups:
            m = _extract(sub, d.pattern)
            ok = _np(m.is_valid()).astype(bool)
        else:
            m = None
            ok = _mask(PR.match(sub, d.pattern))
        if not ok.any():
            continue
        r = rows[ok]
        unmatched[r] = False
        cols: dict[str, pa.Array] = {
            "_row": pa.array(r, pa.int64()),
            "_dialect": pa.array(np.full(len(r), di, np.int32)),
        }
        if m is not None:
            mf = m.filter(pa.array(ok)) if not ok.all() else m
            for f in m.type:
                cols[f.name] = mf.field(f.name)
        chunks.append((d.key is None, di, pa.table(cols)))
    # (keyed then keyless, each in table order: the column order of the result follows the first
    # chunk with each field)
    chunks = [c for _, _, c in sorted(chunks, key=lambda x: x[:2])]
    if chunks:
        t = pa.concat_tables(chunks, promote_options="default")
        t = t.take(pc.sort_indices(t["_row"])).combine_chunks()
        # empty sub-matches are null (once per column, not per dialect); an empty partition list is
        # a fact ("Adding newly assigned partitions: ")
        for i, name in enumerate(t.column_names):
            if name not in ("_row", "_dialect", "partitions_raw"):
                t = t.set_column(i, name, _nullify_empty(t[name].combine_chunks()))
    else:
        t = pa.table({"_row": pa.array([], pa.int64()), "_dialect": pa.array([], pa.int32())})
    rows = pa.array(_np(t["_row"]) if len(t) else np.zeros(0, np.int64))
    # prefix fields for the matched rows
    for name in ("pfx_broker", "pfx_broker2", "pfx_opart", "pfx_ctype", "pfx_iid", "pfx_cid", "pfx_gid"):
        t = t.append_column(name, _nullify_empty(pc.fill_null(pre[name], "").take(rows)).cast(pa.string()))
    t = t.append_column("_body", body.take(rows).cast(pa.string()))
    return t, unmatched


def _col(t: pa.Table, name: str) -> pa.Array | None:
    return t[name].combine_chunks() if name in t.column_names else None


def _event_fields(t: pa.Table, logger: pa.Array, layout: pa.Array) -> pa.Table:
    """Typed event columns (EVENTS fields) from the dialect matches ``t`` (``logger``/``layout``:
    the head columns of its rows). A pure function of each row (it runs on distinct messages, see
    :func:`_candidate_events`); the two steps that look at other rows are in :func:`_event_rows`,
    which get the hidden columns ``_other`` (side ``other``) and ``_groups_raw``."""
    n = len(t)
    dia = _np(t["_dialect"]) if n else np.zeros(0, np.int32)
    hrow = pa.array(_np(t["_row"]) if n else np.zeros(0, np.int64))
    sides = _SIDE_CODES[dia]
    out: dict[str, pa.Array] = {}
    for f in _FIELDS_STR:
        c = _col(t, f)
        out[f] = c if c is not None else pa.nulls(n, pa.string())
    gid_pfx = _col(t, "pfx_gid")
    gid_pfx = pc.if_else(pc.equal(gid_pfx, "null"), pa.scalar(None, pa.string()), gid_pfx)
    out["group_id"] = _coalesce(out["group_id"], gid_pfx)
    out["client_id"] = _coalesce(out["client_id"], _col(t, "pfx_cid"))
    out["group_instance_id"] = _coalesce(
        _instance_id(out["group_instance_id"]), _nullify_empty(_col(t, "pfx_iid"))
    )
    node = _int(_col(t, "node_id"), pa.int64()) if "node_id" in t.column_names else pa.nulls(n, pa.int64())
    node_broker = pc.if_else(pc.greater(node, 1 << 30), pc.subtract(MAX_INT, node), node)
    out["coordinator"] = pc.cast(
        _coalesce(
            _int(_col(t, "coordinator"), pa.int64()) if "coordinator" in t.column_names else None,
            _int(_col(t, "pfx_broker"), pa.int64()),
            _int(_col(t, "pfx_broker2"), pa.int64()),
            node_broker,
        ),
        pa.int32(),
    )
    out["offsets_partition"] = _coalesce(
        _int(_col(t, "offsets_partition")) if "offsets_partition" in t.column_names else None,
        _int(_col(t, "pfx_opart")),
    )
    for f in ("generation", "member_count", "static_count", "member_epoch"):
        c = _col(t, f)
        out[f] = _int(c) if c is not None else pa.nulls(n, pa.int32())
    pr = _col(t, "partitions_raw")
    out["partitions"] = _partitions(pr) if pr is not None else pa.nulls(n, pa.list_(pa.string()))
    rr = _col(t, "revoked_raw")
    out["revoked"] = _partitions(rr) if rr is not None else pa.nulls(n, pa.list_(pa.string()))
    mr = _col(t, "members_raw")
    out["members"] = _split_list(mr, _MEMBER_STRIP) if mr is not None else pa.nulls(n, pa.list_(pa.string()))
    ar = _col(t, "assignment_raw")
    out["assignment"] = (
        _assignment(ar) if ar is not None else pa.nulls(n, pa.map_(pa.string(), pa.list_(pa.string())))
    )
    sw = _col(t, "static_word")
    static = pc.equal(sw, "Static") if sw is not None else pa.nulls(n, pa.bool_())
    pending = pa.nulls(n, pa.bool_())
    unexpected = pa.nulls(n, pa.bool_())
    # side: Connect worker prefix, kafka-python logger, librdkafka / Go layouts
    ctype = _col(t, "pfx_ctype")
    worker = _mask(pc.equal(ctype, "Worker"))
    py = _mask(PR.match(logger, D.PYTHON_LOGGER))
    foreign = _mask(PR.match(layout, r"(?:^|\+)(?:librdkafka|golog|python|python-basic)$"))
    sides = np.where(worker & (sides == _CLIENT), _CONNECT, sides)
    sides = np.where((py | foreign) & (sides == _CLIENT), _OTHER, sides)
    # constant fields of dialects
    bools = {"static": static, "pending": pending, "unexpected": unexpected}
    for di in np.unique(dia):
        d = D.DIALECTS[di]
        if not d.fixed:
            continue
        sel = pa.array(dia == di)
        for k, v in d.fixed.items():
            if k in bools:
                bools[k] = pc.if_else(sel, pa.scalar(v, pa.bool_()), bools[k])
            else:
                out[k] = pc.if_else(sel, pa.scalar(v, pa.string()), out[k])
    out.update(bools)
    # error names of failures
    failing = _FAILING[dia]
    if failing.any():
        # only the failing rows are searched (the needles would otherwise scan every event body)
        frows = np.nonzero(failing)[0]
        body = _take(_col(t, "_body"), frows)
        err = _nullify_empty(_extract(body, D.ERROR_NAME).field("error"))
        for needle, name in D.ERROR_MESSAGES:
            if not pc.any(pc.is_null(err)).as_py():
                break
            hit = pc.match_substring(body, needle)
            err = pc.if_else(pc.and_(pc.is_null(err), hit), pa.scalar(name, pa.string()), err)
        err = pc.coalesce(_take(out["error"], frows), err)
        out["error"] = pc.replace_with_mask(out["error"], pa.array(failing), err.cast(out["error"].type))
    # non-Java clients: generation / member id anywhere in the message
    other = sides == _OTHER
    if other.any():
        body = _col(t, "_body")
        g = _nullify_empty(_extract(body, r"[Gg]eneration(?:Id| id|_id)?:? ?=?(?P<g>-?\d+)").field("g"))
        m = _nullify_empty(_extract(body, r"(?:MemberId|[Mm]ember[ _]id):? ?=?'?(?P<m>[\w.-]+)").field("m"))
        sel = pa.array(other)
        out["generation"] = pc.if_else(
            sel, pc.coalesce(out["generation"], pc.cast(g, pa.int32(), safe=False)), out["generation"]
        )
        out["member_id"] = pc.if_else(sel, pc.coalesce(out["member_id"], m), out["member_id"])
    out["kind"] = _KIND_NAMES.take(pa.array(_KIND_CODES[dia], pa.int32()))
    out["side"] = _SIDE_NAMES.take(pa.array(sides, pa.int32()))
    out["dialect"] = _IDS.take(pa.array(dia, pa.int32()))
    out["_row"] = hrow
    out["_other"] = pa.array(other)
    gr = _col(t, "groups_raw")
    out["_groups_raw"] = gr if gr is not None else pa.nulls(n, pa.string())
    return pa.table(out)


def _event_rows(res: pa.Table, thread: pa.Array) -> pa.Table:
    """The steps of event building that look at other lines: librdkafka lines without a group name
    take the group of the same client instance's (``thread``) last line; one event per group of
    "The following groups were deleted: g1, g2". Drops the hidden columns of :func:`_event_fields`."""
    other = _np(res["_other"]).astype(bool)
    # librdkafka lines without a group name: the group of the same client instance's last line
    if other.any() and pc.any(pc.and_(pc.is_null(res["group_id"]), pa.array(other))).as_py():
        res = res.set_column(
            res.column_names.index("group_id"), "group_id", _carry_groups(res["group_id"], other, thread)
        )
    # one event per group of "The following groups were deleted: g1, g2"
    gr = res["_groups_raw"].combine_chunks()
    res = res.drop_columns(["_other", "_groups_raw"])
    if pc.any(pc.is_valid(gr)).as_py():
        lst = _split_list(gr, _MEMBER_STRIP)
        has = _mask(pc.is_valid(lst))
        plain = res.filter(pa.array(~has))
        ex = res.filter(pa.array(has))
        lst = lst.filter(pa.array(has))
        parents = _np(pc.list_parent_indices(lst))
        ex = ex.take(pa.array(parents))
        ex = ex.set_column(
            ex.column_names.index("group_id"), "group_id", pc.list_flatten(lst).cast(pa.string())
        )
        res = pa.concat_tables([plain, ex]).combine_chunks()
        res = res.take(pc.sort_indices(res["_row"]))
    return res


def _carry_groups(gid: pa.Array | pa.ChunkedArray, other: np.ndarray, thread: pa.Array) -> pa.Array:
    """``gid`` with the null group ids of the ``other`` rows filled from the last ``other`` row of
    the same ``thread`` (null threads are one key) that has one (a forward fill per thread)."""
    if isinstance(gid, pa.ChunkedArray):
        gid = gid.combine_chunks()
    o = np.nonzero(other)[0]
    key = _np(pc.dictionary_encode(_take(thread, o), null_encoding="encode").indices).astype(np.int64)
    order = np.lexsort((o, key))  # by thread, then line
    so = o[order]
    valid = _mask(pc.is_valid(_take(gid, so)))
    last = np.maximum.accumulate(np.where(valid, np.arange(len(so)), -1))
    sk = key[order]
    fill = ~valid & (last >= 0)
    fill[fill] = sk[last[fill]] == sk[fill]
    if not fill.any():
        return gid
    mask = np.zeros(len(gid), dtype=bool)
    mask[so[fill]] = True
    # replace_with_mask takes the replacements in row order
    src = np.zeros(len(gid), dtype=np.int64)
    src[so[fill]] = so[last[fill]]
    return pc.replace_with_mask(gid, pa.array(mask), _take(gid, src[mask]))


def _candidate_events(
    cpos: np.ndarray, ccodes: np.ndarray, message: pa.Array, head_t: pa.Table, layout_col: pa.Array
) -> tuple[pa.Table | None, np.ndarray]:
    """Events of the candidate heads ``cpos`` (``ccodes``: dictionary codes of their messages) and
    the mask of the candidates no dialect matches.

    Dialect matching and field conversion are pure functions of (message, logger, layout), and the
    messages of a file repeat a lot (a consumer logs the same heartbeat line for a whole
    generation), so they run once per distinct triple and are spread back to the lines with one
    ``take``."""
    logger = _take(head_t["logger"].combine_chunks(), cpos)
    layout = _take(layout_col, cpos)
    lc = _np(pc.dictionary_encode(logger, null_encoding="encode").indices).astype(np.int64)
    yc = _np(pc.dictionary_encode(layout).indices).astype(np.int64)
    key = (ccodes.astype(np.int64) * (int(lc.max()) + 1) + lc) * (int(yc.max()) + 1) + yc
    inv = _np(pc.dictionary_encode(pa.array(key, pa.int64())).indices).astype(np.int64)
    nu = int(inv.max()) + 1
    rep = np.empty(nu, dtype=np.int64)
    rep[inv] = np.arange(len(cpos))  # any line of each distinct triple
    ulog = _take(logger, rep)
    umsg = _take(message, cpos[rep])
    mt, unmatched_u = _match_dialects(umsg, pc.fill_null(ulog, ""))
    if unmatched_u.any():
        mt = _message_first(umsg, pc.fill_null(ulog, ""), mt, unmatched_u)
    unmatched = unmatched_u[inv]
    if not len(mt):
        return None, unmatched
    urow = _np(mt["_row"])
    fields = _event_fields(mt, _take(ulog, urow), _take(layout, rep[urow]))
    if "_msg" in mt.column_names:
        fields = fields.append_column("_msg", mt["_msg"])
    j = np.full(nu, -1, dtype=np.int64)
    j[urow] = np.arange(len(urow))
    jr = j[inv][~unmatched]
    hrow = cpos[~unmatched]
    thread = _take(head_t["thread"].combine_chunks(), hrow)
    if pc.any(pc.is_valid(fields["_groups_raw"])).as_py():
        # (rare) lines listing several groups: every line's event first, then the explosion
        ev = fields.take(pa.array(jr, pa.int64()))
        ev = ev.set_column(ev.column_names.index("_row"), "_row", pa.array(hrow, pa.int64()))
        return _event_rows(ev, thread), unmatched
    # the same as _event_rows without materialising the recognised non-events: only the group
    # carry of librdkafka lines looks at them
    gid = None
    other = _np(fields["_other"]).astype(bool)[jr]
    if other.any():
        gid = _take(fields["group_id"].combine_chunks(), jr)
        if pc.any(pc.and_(pc.is_null(gid), pa.array(other))).as_py():
            gid = _carry_groups(gid, other, thread)
        else:
            gid = None
    keep = _np(pc.not_equal(fields["kind"], "")).astype(bool)[jr]
    if not keep.all():
        jr, hrow = jr[keep], hrow[keep]
        gid = gid.filter(pa.array(keep)) if gid is not None else None
    # (columns without a value in the file, e.g. assignment maps, are not gathered)
    jra = pa.array(jr, pa.int64())
    ev = pa.table(
        {
            c: pa.array(hrow, pa.int64())
            if c == "_row"
            else pa.nulls(len(jr), fields.schema.field(c).type)
            if fields[c].null_count == len(fields)
            else fields[c].take(jra)
            for c in fields.column_names
            if c not in ("_other", "_groups_raw")
        }
    )
    if gid is not None:
        ev = ev.set_column(ev.column_names.index("group_id"), "group_id", gid)
    return ev, unmatched


#: catch-all dialects (``(?P<reason>.*`` ...): message-first prefers any specific dialect to them
_CATCHALL = np.array([d.regex.startswith("(?P<reason>.*") for d in D.DIALECTS], dtype=bool)


def _message_first(umsg: pa.Array, ulog: pa.Array, mt: pa.Table, unmatched: np.ndarray) -> pa.Table:
    """Second look at the distinct messages no dialect matched (``unmatched``, updated in place):
    the message may start later in the text (extra layout fields, a viewer's columns) or carry junk
    at its end. The dialect table runs on the candidates of :func:`G.message_candidates`; per
    message the first candidate a specific dialect matches wins (a catch-all only when no specific
    one does). The winner's rows join ``mt`` with its text in ``_msg`` (the event's message)."""
    idx = np.nonzero(unmatched)[0]
    cands, owner_l, rank_l = G.message_candidates(_take(umsg, idx).cast(pa.string()).to_pylist())
    if not cands:
        return mt
    owner = np.array(owner_l, np.int64)
    m2, _ = _match_dialects(pa.array(cands, pa.string()), _take(ulog, idx[owner]))
    if not len(m2):
        return mt
    crow = _np(m2["_row"])
    own = owner[crow]
    key = np.array(rank_l, np.int64)[crow] + _CATCHALL[_np(m2["_dialect"])] * (1 << 20)
    order = np.lexsort((key, own))
    first = order[np.r_[True, own[order][1:] != own[order][:-1]]]
    best = m2.take(pa.array(first, pa.int64()))
    rows = idx[own[first]]
    unmatched[rows] = False
    best = best.set_column(best.column_names.index("_row"), "_row", pa.array(rows, pa.int64()))
    best = best.append_column("_msg", pa.array([cands[i] for i in crow[first]], pa.string()))
    if "_msg" not in mt.column_names:
        mt = mt.append_column("_msg", pa.nulls(len(mt), pa.string()))
    t = pa.concat_tables([mt, best], promote_options="default")
    return t.take(pc.sort_indices(t["_row"])).combine_chunks()


# ------------------------------------------------------------------------------------ attribution
#: how far back (ms) the time fallback of :func:`_attribute_groups` looks for a group line
ATTRIBUTION_WINDOW_MS = 1000
_ID_BOUNDARY = r"[^\w.\-]"


def _partition_ok(opart: np.ndarray, cand: int, other: int) -> bool:
    """Same coordinator partition when the candidate's prefix names one (Java ``partition=P``)."""
    return opart[cand] < 0 or opart[other] == opart[cand]


def _nearest_before(positions: list[int], pos: int, opart: np.ndarray) -> int:
    """The last entry of the sorted ``positions`` before ``pos`` on the candidate's partition, or -1."""
    k = bisect.bisect_left(positions, pos) - 1
    while k >= 0:
        if _partition_ok(opart, pos, positions[k]):
            return positions[k]
        k -= 1
    return -1


def _attribute_groups(ev: pa.Table, msg: pa.Array, ts: np.ndarray) -> tuple[pa.Array, np.ndarray]:
    """Context attribution of events whose line names no group (``ev`` in line order of one file).

    Kafka logs some lines while handling one group's request without naming the group (the static
    "will not trigger a rebalance" line, fenced-instance lines, ``GroupMetadata``/``ClassicGroup``
    leader re-election, the 2.3 static replacement). Such an event takes the ``group_id`` of

    1. the nearest preceding event line of the file that names one of its ids: its
       ``member_id``/``old_member_id`` first, else its ``group_instance_id`` (in an id field or as a
       whole word of the message; an event attributed this way counts as naming its ids for later
       lines), else
    2. the nearest preceding line that names a group, if at most :data:`ATTRIBUTION_WINDOW_MS`
       apart.

    Both look only at lines of the same coordinator partition when the candidate's context prefix
    names one (Java ``[GroupCoordinator id=B topic=__consumer_offsets partition=P]``). ``msg`` is the
    message of each event, ``ts`` its epoch ms (-1 when missing). Returns the new ``group_id``
    column and the mask of rows that got a group this way. The loop runs over the few group-less
    rows only; the lines that mention their ids are found with one RE2 scan.
    """
    gid = ev["group_id"].combine_chunks()
    n = len(gid)
    nog = _mask(pc.is_null(gid))
    attributed = np.zeros(n, dtype=bool)
    if not nog.any() or nog.all():
        return gid, attributed
    cands = np.nonzero(nog)[0]
    opart = _np(pc.fill_null(ev["offsets_partition"].combine_chunks().cast(pa.int64()), -1)).astype(np.int64)
    cols = {c: ev[c].combine_chunks() for c in ("member_id", "old_member_id", "group_instance_id")}
    cand_vals = {c: _take(a, cands).to_pylist() for c, a in cols.items()}
    member_ids = [
        {v for v in (m, o) if v} for m, o in zip(cand_vals["member_id"], cand_vals["old_member_id"])
    ]
    inst_ids = [{i} if i else set() for i in cand_vals["group_instance_id"]]
    all_ids = sorted(set().union(*member_ids, *inst_ids))
    # id -> sorted positions of named rows mentioning it (an id field or a whole word of the message)
    where: dict[str, list[int]] = {}
    if all_ids:
        ida = pa.array(all_ids, pa.string())
        hit = np.zeros(n, dtype=bool)
        for a in cols.values():
            hit |= _mask(pc.is_in(a, ida))
        # whole-word mentions in the message text (ids in bounded alternations)
        alts = ["|".join(re.escape(i) for i in all_ids[c : c + 256]) for c in range(0, len(all_ids), 256)]
        for alt in alts:
            rx = rf"(?:^|{_ID_BOUNDARY})(?:{alt})(?:$|{_ID_BOUNDARY})"
            hit |= _mask(pc.match_substring_regex(msg, rx))
        hit &= ~nog
        if hit.any():
            hrows = np.nonzero(hit)[0]
            words = [re.compile(rf"(?<![\w.\-])(?:{alt})(?![\w.\-])") for alt in alts]
            texts = _take(msg, hrows).to_pylist()
            fields = [_take(a, hrows).to_pylist() for a in cols.values()]
            idset = set(all_ids)
            for k, r in enumerate(hrows.tolist()):
                found = {f[k] for f in fields} & idset
                for w in words:
                    found.update(w.findall(texts[k] or ""))
                for i in found:
                    where.setdefault(i, []).append(r)
    named = np.nonzero(~nog)[0]
    named_by_part: dict[int, np.ndarray] = {}
    cand_groups: list[str] = []
    resolved: dict[int, str] = {}  # candidates attributed so far (their group for chained lines)

    def group_at(r: int) -> str:
        return resolved[r] if r in resolved else gid[r].as_py()

    for k, p in enumerate(cands.tolist()):
        src = -1
        for ids in (member_ids[k], inst_ids[k]):
            for i in ids:
                src = max(src, _nearest_before(where.get(i, []), p, opart))
            if src >= 0:
                break
        if src < 0 and ts[p] >= 0:
            pool = named
            if opart[p] >= 0:
                if opart[p] not in named_by_part:
                    named_by_part[opart[p]] = named[opart[named] == opart[p]]
                pool = named_by_part[opart[p]]
            j = int(np.searchsorted(pool, p)) - 1
            if j >= 0 and ts[pool[j]] >= 0 and abs(int(ts[p]) - int(ts[pool[j]])) <= ATTRIBUTION_WINDOW_MS:
                src = int(pool[j])
        if src < 0:
            continue
        g = group_at(src)
        resolved[p] = g
        attributed[p] = True
        cand_groups.append(g)
        for i in member_ids[k] | inst_ids[k]:
            bisect.insort(where.setdefault(i, []), p)
    if not attributed.any():
        return gid, attributed
    out = pc.replace_with_mask(gid, pa.array(attributed), pa.array(cand_groups, pa.string()))
    return out, attributed


# ------------------------------------------------------------------------------------ main
def _empty_audit(source_file: str, cluster: str, run_id: str | None) -> dict[str, Any]:
    return {
        "cluster": cluster, "run_id": run_id, "source_file": source_file, "content_sha256": None, "bytes": 0,
        "compressed": False, "total_lines": 0, "events": 0, "continuations": 0, "unrelated": 0, "quarantined": 0,
        "duplicate_of": None, "error": None, "first_ts": None, "last_ts": None, "out_of_order_lines": 0,
        "layouts": [], "quarantine_reasons": {}, "unreadable_example": None,
    }  # fmt: skip


#: a file whose first bytes hold a NUL or are mostly not text is binary: one quarantine row for
#: the file, not one per "line" of garbage
BINARY_SNIFF = 8192


def _is_binary(data: bytes) -> bool:
    """Control bytes (NUL included; not tab/newline/CR/FF/VT) are at least 5 % of the file's first
    8 KiB: a Kafka segment, an archive, an image. A text log with a few corrupt lines is not
    binary (its bad lines are quarantined one by one)."""
    head = data[:BINARY_SNIFF]
    ctrl = sum(head.count(bytes([c])) for c in (*range(0, 9), *range(14, 32), 127))
    return ctrl >= 0.05 * len(head)


def _file_quarantine(source_file, cluster, run_id, reason: str, detail: str) -> pa.Table:
    return quarantine_table([{
        "cluster": cluster, "source_file": source_file, "line_no": None, "reason": reason,
        "detail": detail, "layout": None, "group_id": None, "raw": None, "run_id": run_id,
    }])  # fmt: skip


def empty_events() -> pa.Table:
    return EVENTS_ARROW.empty_table()


def empty_quarantine() -> pa.Table:
    return QUARANTINE_ARROW.empty_table()


def quarantine_table(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=QUARANTINE_ARROW)


def audit_table(rows: list[dict[str, Any]]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=AUDIT_ARROW)


def parse_bytes(
    data: bytes,
    source_file: str,
    cluster: str = "default",
    settings: IngestSettings | None = None,
    run_id: str | None = None,
) -> tuple[pa.Table, pa.Table, dict[str, Any]]:
    """Parse one file's content. Returns ``(events, quarantine, audit)``: Arrow tables with the
    schemas of ``jobs.schemas.EVENTS`` / ``QUARANTINE`` and one ``INGEST_AUDIT`` row as a dict.

    A corrupt gzip raises :class:`IngestError` unless ``settings.on_corrupt == "quarantine"``.
    """
    settings = settings or IngestSettings()
    audit = _empty_audit(source_file, cluster, run_id)
    audit["bytes"] = len(data)
    gz_magic = data[:2] == b"\x1f\x8b"
    audit["compressed"] = gz_magic or source_file.endswith(".gz")
    if audit["compressed"]:
        try:
            if not gz_magic:
                raise OSError("not a gzip file (no gzip magic bytes)")
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as e:
            msg = f"corrupt_gzip: {source_file}: {e}"
            if settings.on_corrupt == "error":
                raise IngestError(msg) from e
            audit["error"] = msg
            audit["quarantine_reasons"] = {"corrupt_gzip": 1}
            return empty_events(), _file_quarantine(source_file, cluster, run_id, "corrupt_gzip", str(e)), audit
    audit["content_sha256"] = hashlib.sha256(data).hexdigest()
    if not data:
        return empty_events(), empty_quarantine(), audit
    if _is_binary(data):
        audit["error"] = f"binary: {source_file}: not a text log ({len(data):,} bytes)"
        audit["quarantine_reasons"] = {"binary": 1}
        return empty_events(), _file_quarantine(source_file, cluster, run_id, "binary", "binary file, not read"), audit
    return _parse_text(data, source_file, cluster, settings, run_id, audit)


def _split_lines(data: bytes) -> pa.Array:
    buf = pa.py_buffer(data)
    whole = pa.LargeBinaryArray.from_buffers(
        pa.large_binary(), 1, [None, pa.array([0, len(data)], pa.int64()).buffers()[1], buf]
    )
    lines = pc.list_flatten(pc.split_pattern(whole, b"\n"))
    if data.endswith(b"\n"):
        lines = lines.slice(0, len(lines) - 1)
    return lines


def _parse_text(
    data: bytes,
    source_file: str,
    cluster: str,
    settings: IngestSettings,
    run_id: str | None,
    audit: dict[str, Any],
) -> tuple[pa.Table, pa.Table, dict[str, Any]]:
    lines = _split_lines(data)
    n = len(lines)
    audit["total_lines"] = n
    cls = np.zeros(n, dtype=np.int8)  # 0 unrelated, 1 event, 2 continuation, 3 quarantined
    qreason = np.full(n, None, dtype=object)
    qdetail = np.full(n, None, dtype=object)
    qgroup: dict[int, str | None] = {}
    # ---- malformed lines
    bad = np.zeros(n, dtype=bool)
    lengths = _np(pc.binary_length(lines))
    too_long = lengths > settings.max_line_bytes
    if too_long.any():
        bad |= too_long
        qreason[too_long] = "line_too_long"
        for i in np.nonzero(too_long)[0]:
            qdetail[i] = f"{int(lengths[i])} bytes > {settings.max_line_bytes}"
    if b"\x00" in data:
        nul = _mask(pc.match_substring(lines, b"\x00")) & ~bad
        bad |= nul
        qreason[nul] = "binary"
        qdetail[nul] = "NUL bytes"
    try:
        text = pc.cast(
            lines if not bad.any() else pc.if_else(pa.array(bad), pa.scalar(b"", pa.large_binary()), lines),
            pa.large_string(),
        )
    except pa.ArrowInvalid:
        vals = lines.to_pylist()
        for i, v in enumerate(vals):
            if bad[i]:
                continue
            try:
                v.decode("utf-8")
            except UnicodeDecodeError:
                bad[i] = True
                ctrl = sum(1 for ch in v if ch < 9 or 13 < ch < 32 or ch == 127)
                nontext = ctrl + sum(1 for ch in v if ch >= 128)
                if ctrl >= 2 or nontext > 0.3 * max(1, len(v)):
                    qreason[i], qdetail[i] = "binary", "non-text bytes"
                else:
                    qreason[i], qdetail[i] = "invalid_utf8", "invalid UTF-8 byte sequence"
        text = pc.cast(pc.if_else(pa.array(bad), pa.scalar(b"", pa.large_binary()), lines), pa.large_string())
    cls[bad] = 3
    if b"\r" in data:
        text = pc.utf8_rtrim(text, characters="\r")
    if b"\x1b" in data and b"\x1b[" in data:  # (memchr first: the 2-byte search is slow)
        text = pc.replace_substring_regex(text, L.ANSI, "")
    # ---- what a paste or a screen capture puts around every line
    text = _unwrap_paste(text, data)
    # ---- wrapping prefixes (docker-compose, kubectl --prefix)
    wrap_label = ""
    if pc.any(PR.match(text.slice(0, 400), r"^[\w.-]+\s+\| |^\[pod/[^\]\s]+\] ")).as_py():
        w = _extract(text, r"^(?:(?P<svc>[\w.-]+)\s+\| |\[(?P<pod>pod/[^\]\s]+)\] )?(?P<rest>.*)$")
        wrap_label = "kubectl+" if pc.any(pc.not_equal(w.field("pod"), "")).as_py() else "docker+"
        text = w.field("rest")
    blank = _np(pc.binary_length(text)) == 0
    # ---- layouts
    heads = _Heads()
    rows = np.nonzero(~bad & ~blank)[0]
    sub = text if len(rows) == n else _take(text, rows)
    fb = _FirstBytes(sub)
    order = _layout_order(sub, fb)
    if settings.layouts:
        order = list(settings.layouts) + order  # (the user's own layouts first)
    left = _match_layouts(sub, rows, order, heads, wrap_label, None, fb)
    if len(left) and fb.take(np.searchsorted(rows, left)).possible(L.FIRST_CHARS["ts"]).any():
        sub = _take(text, left)
        m = _extract(sub, L.TS_PREFIX)
        ok = _mask(m.is_valid())
        if ok.any():
            okp = pa.array(ok)
            inner = m.field("rest").filter(okp)
            pts = m.field("pts").filter(okp)
            prow = left[ok]
            still = _match_layouts(inner, prow, order, heads, wrap_label + "ts+", pts)
            # lines that are a timestamp + continuation text stay for the continuation check
            keep = np.ones(len(left), dtype=bool)
            keep[ok] = False
            left = np.union1d(left[keep], still)
    # ---- lines of unknown layouts: the general reader (timestamp locator, message-first)
    if len(left):
        left = _general_heads(text, left, heads, wrap_label)
    head_t = heads.table()
    head_rows = _np(head_t["_row"]) if len(head_t) else np.zeros(0, np.int64)
    is_head = np.zeros(n, dtype=bool)
    is_head[head_rows] = True
    # ---- JUL message lines (line after a `jul` head)
    is_cont = np.zeros(n, dtype=bool)
    message = head_t["message"].combine_chunks()
    level = head_t["level"].combine_chunks()
    layout_col = head_t["layout"].combine_chunks()
    jul = _mask(pc.ends_with(layout_col, "jul"))
    if jul.any():
        jpos = np.nonzero(jul)[0]
        nxt = head_rows[jpos] + 1
        okn = nxt < n
        jpos, nxt = jpos[okn], nxt[okn]
        cand = ~is_head[nxt] & ~bad[nxt]
        jpos, nxt = jpos[cand], nxt[cand]
        mm = _extract(_take(text, nxt), L.JUL_MESSAGE)
        ok = _mask(mm.is_valid())
        jpos, nxt = jpos[ok], nxt[ok]
        mm = mm.filter(pa.array(ok))
        if len(jpos):
            jm = np.zeros(len(message), dtype=bool)
            jm[jpos] = True
            jm = pa.array(jm)
            message = pc.replace_with_mask(message, jm, mm.field("message").cast(message.type))
            level = pc.replace_with_mask(level, jm, mm.field("level").cast(level.type))
        is_cont[nxt] = True
        left = np.setdiff1d(left, nxt)
    message = pc.fill_null(message, "")
    # ---- multi-line messages inside one line (JSON layouts: "message": "head\n\tmore\n"): the
    # first line is the head message, the rest its continuation text (like a multi-line entry)
    inline_cont = None
    if heads.json and len(message) and pc.any(pc.match_substring(message, "\n")).as_py():
        sp = _extract(message, r"(?s)^(?P<h>[^\n]*)\n(?P<c>.*)$")
        multi = sp.is_valid()
        inline_cont = _nullify_empty(
            pc.if_else(multi, pc.utf8_rtrim(sp.field("c"), characters="\r\n"), pa.scalar(None, message.type))
        )
        message = pc.if_else(multi, pc.utf8_rtrim(sp.field("h"), characters="\r"), message)
    # ---- continuations and unparsable lines
    if len(left):
        sub = _take(text, left)
        c = _mask(PR.match(sub, L.CONTINUATION))
        if (~c).any():
            # a continuation-looking line behind a k8s/viewer timestamp
            m = _extract(_take(sub, np.nonzero(~c)[0]), L.TS_PREFIX)
            inner_c = _mask(PR.match(pc.fill_null(m.field("rest"), ""), L.CONTINUATION)) & _mask(m.is_valid())
            c[np.nonzero(~c)[0][inner_c]] = True
        is_cont[left[c]] = True
        un = left[~c]
        cls[un] = 3
        qreason[un] = "unparsable_layout"
        qdetail[un] = "no known layout matches"
    # ---- timestamps of heads
    ts_ms = _head_timestamps(head_t, settings.default_timezone)
    if ts_ms.null_count and len(head_t):
        ts_ms = _located_timestamps(head_t, ts_ms, settings)
    ts_np = _np(pc.fill_null(ts_ms, -1)) if len(ts_ms) else np.zeros(0, np.int64)
    has_ts = ts_np >= 0
    if has_ts.any():
        tv = ts_np[has_ts]
        audit["first_ts"] = datetime.fromtimestamp(int(tv.min()) / 1000, tz=UTC)
        audit["last_ts"] = datetime.fromtimestamp(int(tv.max()) / 1000, tz=UTC)
        prev_max = np.maximum.accumulate(tv)
        audit["out_of_order_lines"] = int((tv[1:] < prev_max[:-1]).sum())
    audit["layouts"] = sorted(set(pc.unique(layout_col).to_pylist())) if len(head_t) else []
    # ---- group candidates → dialects
    # (once per distinct message when the file repeats its messages a lot, as clients do)
    if _repetitive(message):
        menc = pc.dictionary_encode(message)
        mcodes = _np(menc.indices)
        cand = _mask(PR.match(menc.dictionary, D.GROUP_PREFILTER))[mcodes]
        ccodes = mcodes[cand]
    else:
        cand = _mask(PR.match(message, D.GROUP_PREFILTER))
        ccodes = None
    events = None
    if cand.any():
        cpos = np.nonzero(cand)[0]
        if ccodes is None:
            ccodes = _np(pc.dictionary_encode(_take(message, cpos)).indices)
        ev, unmatched = _candidate_events(cpos, ccodes, message, head_t, layout_col)
        if unmatched.any():
            ev, message = _wrapped_lines(cpos, unmatched, ev, message, head_t, layout_col, text, cls, is_cont, qreason, qdetail)
        un_h = cpos[unmatched]
        line_un = head_rows[un_h]
        cls[line_un] = 3
        qreason[line_un] = "group_line_not_understood"
        qdetail[line_un] = "no dialect matches this group-related message"
        if len(un_h):
            gq = _extract(_take(message, un_h), r"(?:groupId=|[Gg]roup[ =]\"?)(?P<g>[\w.\-]+)").field("g")
            for r, g in zip(line_un, gq.to_pylist()):
                qgroup[int(r)] = g or None
        if ev is not None and len(ev):
            evh = _np(ev["_row"])
            kind = ev["kind"].combine_chunks()
            notevent = _mask(pc.equal(kind, ""))
            # recognised non-events count as unrelated (cls stays 0)
            if notevent.any():
                ev = ev.filter(pa.array(~notevent))
                evh = evh[~notevent]
            if heads.json:
                ev = _json_event_fields(ev, head_t, evh)
            # lines that name no group take it from their context (same file), see _attribute_groups
            if 0 < ev["group_id"].null_count < len(ev):
                gids, _ = _attribute_groups(ev, _take(message, evh), np.where(has_ts[evh], ts_np[evh], -1))
                ev = ev.set_column(ev.column_names.index("group_id"), "group_id", gids)
            nogroup = _mask(pc.is_null(ev["group_id"]))
            if nogroup.any():
                lr = head_rows[evh[nogroup]]
                cls[lr] = 3
                qreason[lr] = "group_unknown"
                for r, dname in zip(lr, ev["dialect"].filter(pa.array(nogroup)).to_pylist()):
                    qdetail[r] = f"recognised ({dname}) but neither the line nor its context names the group"
            okm = ~nogroup
            if not okm.all():
                ev = ev.filter(pa.array(okm))
                evh = evh[okm]
            # several events of one line (deleted groups) count once
            cls[head_rows[evh]] = 1
            if "_msg" in ev.column_names:
                # (message-first: the message a dialect matched, without what wrapped it)
                alt = ev["_msg"].combine_chunks()
                has_alt = _mask(pc.is_valid(alt))
                if has_alt.any():
                    mm = np.zeros(len(message), dtype=bool)
                    mm[evh[has_alt]] = True
                    message = pc.replace_with_mask(
                        message, pa.array(mm), alt.filter(pa.array(has_alt)).cast(message.type)
                    )
                ev = ev.drop_columns(["_msg"])
            # a line without a timestamp of its own keeps its place in the file: it takes the
            # time of the nearest earlier line that has one (null when none has), flagged
            ts_inferred = ~has_ts
            if ts_inferred[evh].any():
                last = np.maximum.accumulate(np.where(has_ts, np.arange(len(has_ts)), -1))
                src = last[evh]
                fill = np.where(src >= 0, ts_np[np.maximum(src, 0)], 0)
                ev_ts = pa.array(np.where(has_ts[evh], ts_np[evh], fill), pa.int64(), mask=src < 0)
            else:
                ev_ts = None
            events = _finish_events(
                ev,
                evh,
                head_t,
                head_rows,
                message,
                level,
                ts_ms,
                text,
                is_cont,
                cls,
                source_file,
                cluster,
                run_id,
                inline_cont,
                ev_ts,
                ts_inferred[evh],
                audit.get("content_sha256"),
            )
    # ---- continuation classes
    if is_cont.any():
        cont_rows = np.nonzero(is_cont)[0]
        last_non = np.maximum.accumulate(np.where(~is_cont, np.arange(n), -1))
        head_of = last_non[cont_rows]
        orphan = head_of < 0
        if orphan.any():
            o = cont_rows[orphan]
            cls[o] = 3
            qreason[o] = "unparsable_layout"
            qdetail[o] = "continuation line without a head line"
        cr, ho = cont_rows[~orphan], head_of[~orphan]
        hc = cls[ho]
        cls[cr[hc == 1]] = 2
        cls[cr[hc == 0]] = 0
        qc = hc == 3
        if qc.any():
            q_rows = cr[qc]
            cls[q_rows] = 3
            qreason[q_rows] = qreason[ho[qc]]
            for r, h in zip(q_rows, ho[qc]):
                qdetail[r] = f"continuation of line {int(h) + 1}"
                if int(h) in qgroup:
                    qgroup[int(r)] = qgroup[int(h)]
    audit["events"] = int((cls == 1).sum())
    audit["continuations"] = int((cls == 2).sum())
    audit["unrelated"] = int((cls == 0).sum())
    audit["quarantined"] = int((cls == 3).sum())
    # ---- quarantine rows
    qrows = np.nonzero(cls == 3)[0]
    if len(qrows):
        reasons, counts = np.unique(qreason[qrows].astype(str), return_counts=True)
        audit["quarantine_reasons"] = {str(r): int(c) for r, c in zip(reasons, counts)}
        unread = qrows[qreason[qrows] == "unparsable_layout"]
        if len(unread):
            audit["unreadable_example"] = _decode_lossy(
                text[int(unread[0])].as_py().encode("utf-8", "replace"), 300
            )
    quarantine = empty_quarantine()
    if len(qrows):
        # layout of the quarantined lines that are heads (null for the others)
        hp = np.minimum(np.searchsorted(head_rows, qrows), max(len(head_rows) - 1, 0))
        is_h = (head_rows[hp] == qrows) if len(head_rows) else np.zeros(len(qrows), dtype=bool)
        q_layout = layout_col.take(pa.array(hp, pa.int64(), mask=~is_h)) if len(head_rows) else None
        raw_txt = _take(text, qrows).to_pylist()
        badset = bad[qrows]
        if badset.any():
            braw = _take(lines, qrows[badset]).to_pylist()
            bi = iter(braw)
            raw_txt = [
                _decode_lossy(next(bi), settings.raw_keep_bytes) if b else t for t, b in zip(raw_txt, badset)
            ]
        quarantine = pa.table({
            "cluster": _repeat(cluster, len(qrows)),
            "source_file": _repeat(source_file, len(qrows)),
            "line_no": pa.array(qrows + 1, pa.int64()),
            "reason": pa.array(qreason[qrows].tolist(), pa.string()),
            "detail": pa.array(qdetail[qrows].tolist(), pa.string()),
            "layout": q_layout if q_layout is not None else pa.nulls(len(qrows), pa.string()),
            "group_id": pa.array([qgroup.get(int(r)) for r in qrows], pa.string()),
            "raw": pa.array(raw_txt, pa.string()),
            "run_id": _repeat(run_id, len(qrows)),
        }, schema=QUARANTINE_ARROW)  # fmt: skip
    return (events if events is not None else empty_events()), quarantine, audit


_BOX = "\u2502\u2503\u2551"  # │ ┃ ║ (terminal UIs, e.g. k9s)


def _unwrap_paste(text: pa.Array, data: bytes) -> pa.Array:
    """Undo what surrounds every line of a pasted or captured log: the side borders of a terminal
    UI box (``│ line │``), an e-mail quote (``> ``) on most lines, and an indentation shared by
    every non-blank line (an indented code block). Cheap tests first: most files have none."""
    sniff = data[:65536]  # (a capture has its borders on every line: the start tells)
    if any(c.encode() in sniff for c in _BOX):
        text = pc.replace_substring_regex(text, f"^[{_BOX}]+ ?|\\s*[{_BOX}]+\\s*$", "")
    head = text.slice(0, 400)
    nonblank = pc.filter(head, pc.greater(pc.utf8_length(pc.utf8_trim_whitespace(head)), 0))
    if not len(nonblank):
        return text
    quoted = pc.sum(pc.starts_with(nonblank, ">")).as_py() or 0
    if quoted * 2 > len(nonblank):
        text = pc.replace_substring_regex(text, r"^>+ ?", "", max_replacements=1)
        nonblank = pc.replace_substring_regex(nonblank, r"^>+ ?", "", max_replacements=1)
    first = nonblank[0].as_py() or ""
    if first[:1] in (" ", "\t"):
        lead = pc.subtract(pc.utf8_length(nonblank), pc.utf8_length(pc.utf8_ltrim_whitespace(nonblank)))
        k = pc.min(lead).as_py() or 0
        if k > 0:
            ws = pc.subtract(pc.utf8_length(text), pc.utf8_length(pc.utf8_ltrim_whitespace(text)))
            # every non-blank line of the file must carry the indentation (else it is structure)
            blank = pc.equal(pc.utf8_length(pc.utf8_trim_whitespace(text)), 0)
            short = pc.and_(pc.invert(blank), pc.less(ws, k))
            if not pc.any(short).as_py():
                text = pc.utf8_slice_codeunits(text, k)
    return text


#: a hard-wrapped entry (a mailing-list paste, a terminal box) continues on at most this many lines
WRAP_MAX = 3


def _wrapped_lines(
    cpos: np.ndarray,
    unmatched: np.ndarray,
    ev: pa.Table | None,
    message: pa.Array,
    head_t: pa.Table,
    layout_col: pa.Array,
    text: pa.Array,
    cls: np.ndarray,
    is_cont: np.ndarray,
    qreason: np.ndarray,
    qdetail: np.ndarray,
) -> tuple[pa.Table | None, pa.Array]:
    """Group lines no dialect matched, joined with the lines that follow them when those are no
    log entry of their own (no layout, not a stack trace): pasted text is often hard-wrapped. The
    joins are tried in order (1, 2, 3 following lines; with a space, then without one: a terminal
    box cuts words); the first a dialect matches makes the event, whose message is the joined text,
    and the joined lines become its continuations. ``unmatched`` (per candidate) is updated."""
    n = len(text)
    head_rows = _np(head_t["_row"])
    # a line that can be the wrapped rest of the line before it: no entry of its own (no layout;
    # or read by the general reader without a timestamp or level) and not matched by a dialect
    bare = _mask(pc.and_(pc.equal(layout_col, "general"),
                         pc.and_(pc.is_null(head_t["ts"].combine_chunks()), pc.is_null(head_t["level"].combine_chunks()))))  # fmt: skip
    joinable = (cls == 3) & (qreason == "unparsable_layout")
    joinable[head_rows[bare]] = True
    if ev is not None and len(ev):
        joinable[head_rows[_np(ev["_row"])]] = False
    cand_of = dict(zip(head_rows[cpos].tolist(), range(len(cpos))))
    un = np.nonzero(unmatched)[0]
    rows = head_rows[cpos[un]]
    jul = _mask(pc.ends_with(_take(layout_col, cpos[un]), "jul"))
    orphan_of: list[list[int]] = []
    for r, j in zip(rows, jul):
        nxt: list[int] = []
        k = int(r) + 1
        while not j and k < n and len(nxt) < WRAP_MAX and joinable[k]:
            nxt.append(k)
            k += 1
        orphan_of.append(nxt)
    if not any(orphan_of):
        return ev, message
    texts = {k: t for k, t in zip(sorted({k for o in orphan_of for k in o}), _take(text, np.array(sorted({k for o in orphan_of for k in o}))).to_pylist())}
    msgs = _take(message, cpos[un]).to_pylist()
    found: list[pa.Table] = [] if ev is None else [ev]
    open_ = np.array([bool(o) for o in orphan_of])
    for lines in range(1, WRAP_MAX + 1):
        for sep in (" ", ""):
            todo = np.nonzero(open_ & np.array([len(o) >= lines for o in orphan_of]))[0]
            if not len(todo):
                continue
            joined = [
                G.cut_logger_tail(msgs[i].rstrip() + sep + sep.join(texts[k].strip() for k in orphan_of[i][:lines]))
                for i in todo
            ]
            mask = np.zeros(len(message), dtype=bool)
            mask[cpos[un[todo]]] = True
            msg2 = pc.replace_with_mask(message, pa.array(mask), pa.array(joined, message.type))
            pos = cpos[un[todo]]
            codes = _np(pc.dictionary_encode(_take(msg2, pos)).indices)
            ev2, un2 = _candidate_events(pos, codes, msg2, head_t, layout_col)
            hit = todo[~un2]
            if not len(hit):
                continue
            found.append(ev2)
            hm = np.zeros(len(message), dtype=bool)
            hm[cpos[un[hit]]] = True
            message = pc.replace_with_mask(message, pa.array(hm), pa.array([j for j, u in zip(joined, un2) if not u], message.type))
            for i in hit:
                for k in orphan_of[i][:lines]:
                    is_cont[k], cls[k], qreason[k], qdetail[k] = True, 0, None, None
                    if k in cand_of:  # (a bare line that was a candidate of its own)
                        unmatched[cand_of[k]] = False
                open_[i] = False
                unmatched[un[i]] = False
    if len(found) <= 1:
        return (found[0] if found else None), message
    t = pa.concat_tables(found, promote_options="default")
    return t.take(pc.sort_indices(t["_row"])).combine_chunks(), message


def _json_event_fields(ev: pa.Table, head_t: pa.Table, evh: np.ndarray) -> pa.Table:
    """Event fields that a structured (JSON) line carries as keys of its own (kafkajs logs
    ``groupId``, ``memberId``, ``generationId``, ``clientId`` beside its message): they fill the
    fields the message does not state."""
    idx = pa.array(evh, pa.int64())
    for col, key, typ in (
        ("group_id", "j_group", pa.string()),
        ("member_id", "j_member", pa.string()),
        ("generation", "j_gen", pa.int32()),
        ("client_id", "j_client", pa.string()),
    ):
        extra = _nullify_empty(head_t[key].combine_chunks().take(idx))
        if extra.null_count == len(extra):
            continue
        i = ev.column_names.index(col)
        extra = pc.cast(extra, typ, safe=False)
        ev = ev.set_column(i, col, pc.coalesce(ev[col].combine_chunks(), extra.cast(ev.schema.field(col).type)))
    return ev


def _general_heads(text: pa.Array, left: np.ndarray, heads: _Heads, label: str) -> np.ndarray:
    """Heads of the lines no known layout matched, read by :mod:`jobs.ingest.general` (layout
    ``general``); returns the rows still left (continuations, lines with nothing to read). A line
    that looks like the continuation of an entry (stack trace, indented block) is a head only when
    it starts with a timestamp (an indented or commented log line); the message line of a JUL head
    is not looked at."""
    sub = _take(text, left)
    skip = np.zeros(len(left), dtype=bool)
    ht = heads.table()
    if len(ht):
        jul = _np(ht["_row"])[_mask(pc.ends_with(ht["layout"], "jul"))]
        skip |= np.isin(left, jul + 1)
    if skip.all():
        return left
    pos = np.nonzero(~skip)[0]
    cand = sub if len(pos) == len(sub) else _take(sub, pos)
    hint = _mask(PR.match(cand, D.GROUP_PREFILTER))
    is_head, st = G.read_heads(cand, hint, _mask(PR.match(cand, L.CONTINUATION)))
    if not is_head.any():
        return left
    hp = pa.array(is_head)
    fields = {k: v.filter(hp) for k, v in st.items()}
    pts = fields.pop("pts")
    heads.add(left[pos[is_head]], label + "general", fields, pts)
    keep = np.ones(len(left), dtype=bool)
    keep[pos[is_head]] = False
    return left[keep]


def _head_timestamps(head_t: pa.Table, default_tz: str) -> pa.Array:
    """Epoch ms of the heads' timestamps (``ts``, else the wrapping prefix's ``pts``): the values
    a fast path converted already (``tsms``, naive) get the default zone, the others go through
    :func:`L.parse_timestamps` (the same result: both are per value)."""
    if not len(head_t):
        return pa.array([], pa.int64())
    ts_raw = pc.coalesce(_nullify_empty(head_t["ts"].combine_chunks()), head_t["pts"].combine_chunks())
    tsms = head_t["tsms"].combine_chunks()
    if tsms.null_count == len(tsms):
        return L.parse_timestamps(ts_raw, default_tz)
    pre = _mask(pc.is_valid(tsms))
    out = np.zeros(len(tsms), np.int64)
    out[pre] = L._apply_zone(
        _np(tsms)[pre] if pre.all() else _np(tsms.filter(pa.array(pre))), pre[pre], default_tz
    )
    if pre.all():
        return pa.array(out, pa.int64())
    rest = np.nonzero(~pre)[0]
    slow = L.parse_timestamps(_take(ts_raw, rest), default_tz)
    valid = pre.copy()
    valid[rest] = _mask(pc.is_valid(slow))
    out[rest] = _np(pc.fill_null(slow, 0))
    return pa.array(out, pa.int64(), mask=~valid)


def _located_timestamps(head_t: pa.Table, ts_ms: pa.Array, settings: IngestSettings) -> pa.Array:
    """Timestamps of the forms the plain conversion does not read (:func:`TS.to_iso`): log4j
    ``DATE`` (``04 Mar 2021 10:00:00,123``), a zone word, syslog ``Mar  4 10:00:00`` (the year of
    the file's dated lines, else ``ingest.default_year``) and a time of day alone (the date of the
    previous dated line). Per line in file order, only on the heads the plain conversion left null."""
    raw = pc.coalesce(_nullify_empty(head_t["ts"].combine_chunks()), head_t["pts"].combine_chunks())
    miss = _mask(pc.and_(pc.is_null(ts_ms), pc.is_valid(raw)))
    if not miss.any():
        return ts_ms
    raws = raw.to_pylist()
    year = settings.default_year
    dated = [TS.date_of(r) for r in raws]
    if year is None:
        year = next((int(d[:4]) for d in dated if d), None)
    out = _np(pc.fill_null(ts_ms, 0)).copy()
    ok = _mask(pc.is_valid(ts_ms))
    last_date = None
    fixed_rows, fixed_text = [], []
    for i, r in enumerate(raws):
        if miss[i]:
            iso = TS.to_iso(r, year=year, date=last_date)
            if iso is not None:
                fixed_rows.append(i)
                fixed_text.append(iso)
        if dated[i]:
            last_date = dated[i]
    if fixed_rows:
        conv = L.parse_timestamps(pa.array(fixed_text, pa.string()), settings.default_timezone)
        cv = _mask(pc.is_valid(conv))
        fr = np.array(fixed_rows)[cv]
        out[fr] = _np(pc.fill_null(conv, 0))[cv]
        ok[fr] = True
    return pa.array(out, pa.int64(), mask=~ok)


def _finish_events(
    ev: pa.Table,
    evh: np.ndarray,
    head_t: pa.Table,
    head_rows: np.ndarray,
    message: pa.Array,
    level: pa.Array,
    ts_ms: pa.Array,
    text: pa.Array,
    is_cont: np.ndarray,
    cls: np.ndarray,
    source_file: str,
    cluster: str,
    run_id: str | None,
    inline_cont: pa.Array | None = None,
    ev_ts: pa.Array | None = None,
    ts_inferred: np.ndarray | None = None,
    file_key: str | None = None,
) -> pa.Table:
    n = len(ev)
    hidx = pa.array(evh, pa.int64())
    line_rows = head_rows[evh]
    ts = ts_ms.take(hidx) if ev_ts is None else ev_ts
    ts_us = pc.cast(pc.multiply(ts, 1000), pa.int64()).cast(pa.timestamp("us", tz="UTC"))
    lvl = pc.utf8_upper(level.take(hidx))
    if pc.any(PR.match(lvl, r"^\d$")).as_py():
        # librdkafka's syslog numbers → names (on the few distinct levels)
        enc = pc.dictionary_encode(lvl)
        names = pa.array([_RDKAFKA_LEVELS.get(x, x) for x in enc.dictionary.to_pylist()], pa.string())
        lvl = names.take(enc.indices)
    # continuation text of each event line
    cont = pa.nulls(n, pa.string())
    if is_cont.any():
        cont_rows = np.nonzero(is_cont)[0]
        last_non = np.maximum.accumulate(np.where(~is_cont, np.arange(len(is_cont)), -1))
        head_of = last_non[cont_rows]
        sel = np.isin(head_of, line_rows)
        if sel.any():
            cr, ho = cont_rows[sel], head_of[sel]
            uh, starts = np.unique(ho, return_index=True)
            offsets = np.append(starts, len(ho)).astype(np.int32)
            lst = pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), _take(text, cr).cast(pa.string()))
            joined = pc.binary_join(lst, "\n")
            pos = np.searchsorted(uh, line_rows)
            pos_ok = (pos < len(uh)) & (uh[np.minimum(pos, len(uh) - 1)] == line_rows)
            cont = pc.if_else(pa.array(pos_ok), joined.take(pa.array(np.minimum(pos, len(uh) - 1))), cont)
    if inline_cont is not None:
        cont = _coalesce(cont, inline_cont.take(hidx).cast(pa.string()))
    partitions = ev["partitions"].combine_chunks()
    # "Updating assignment with" + "\tAssigned partitions: [..]" block
    dia = ev["dialect"].combine_chunks()
    upd = _mask(pc.equal(dia, "client.updating_assignment"))
    if upd.any():
        # (on those lines only: the extraction and list split are per line)
        ur = np.nonzero(upd)[0]
        ap = _extract(pc.fill_null(_take(cont, ur), ""), r"(?s)Assigned partitions:\s*(?P<p>\[[^\]]*\])")
        parts = _partitions(_nullify_empty(ap.field("p")))
        pos = np.cumsum(upd) - 1
        spread = parts.take(pa.array(np.maximum(pos, 0), pa.int64(), mask=~upd))
        partitions = pc.if_else(pa.array(upd), spread, partitions)
    ids = {"group_id": ev["group_id"].combine_chunks(), "member_id": ev["member_id"].combine_chunks()}
    redacted = np.zeros(n, bool)
    red = RD.placeholders(ids, file_key) if file_key is not None else None
    if red is not None:
        ids, redacted = red
    cols = {
        "cluster": _repeat(cluster, n),
        "event_date": pc.cast(ts_us, pa.date32()),
        "ts": ts_us,
        "ts_ms": ts,
        "group_id": ids["group_id"], "kind": ev["kind"], "side": ev["side"], "member_id": ids["member_id"],
        "generation": ev["generation"], "group_instance_id": ev["group_instance_id"], "client_id": ev["client_id"],
        "coordinator": ev["coordinator"], "host": ev["host"], "reason": ev["reason"], "state": ev["state"],
        "protocol": ev["protocol"], "member_count": ev["member_count"], "static_count": ev["static_count"],
        "error": ev["error"], "old_member_id": ev["old_member_id"], "members": ev["members"], "partitions": partitions,
        "assignment": ev["assignment"], "static": ev["static"], "pending": ev["pending"], "unexpected": ev["unexpected"],
        "operation": ev["operation"], "offsets_partition": ev["offsets_partition"],
        "protocol_type": ev["protocol_type"], "member_epoch": ev["member_epoch"], "from_state": ev["from_state"],
        "revoked": ev["revoked"],
        "ts_inferred": pa.array(ts_inferred if ts_inferred is not None else np.zeros(n, bool), pa.bool_()),
        "redacted": pa.array(redacted, pa.bool_()),
        "level": lvl,
        "logger": head_t["logger"].combine_chunks().take(hidx),
        "dialect": dia,
        "layout": head_t["layout"].combine_chunks().take(hidx),
        "message": message.take(hidx).cast(pa.string()),
        "continuation": cont,
        "source_file": _repeat(source_file, n),
        "line_no": pa.array(line_rows + 1, pa.int64()),
        "run_id": _repeat(run_id, n),
    }  # fmt: skip
    arrays = [
        pc.cast(cols[f.name], f.type) if cols[f.name].type != f.type else cols[f.name] for f in EVENTS_ARROW
    ]
    return pa.Table.from_arrays(
        [a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a for a in arrays], schema=EVENTS_ARROW
    )
