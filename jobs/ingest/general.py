"""The general reader: message-first reading of lines whose layout is unknown.

The dialect table decides what a line *is*; a layout only says where the timestamp, level and
logger sit. When no known layout (:mod:`jobs.ingest.layouts`) matches a line, this module still
reads it:

* :func:`read_heads` (vectorised over the leftover lines): the timestamp from the locator
  (:mod:`jobs.ingest.timestamps`), preferring the application's over a viewer's or shipper's column
  in front of it (``kubectl --timestamps``, CloudWatch, Loki exports, syslog relays: two leading
  timestamps → the second is the application's); the level word and a logger name wherever they
  are; the rest is the message *region*. A line with neither timestamp, level nor group wording is
  not a head (it stays a continuation or ``unparsable_layout``).
* :func:`message_candidates` (per distinct message, for the group lines no dialect matched where
  their message was thought to start — in the general reader's region or in a known layout's
  message with extra fields in front, e.g. ``[component]: msg (logger) [thread]``): the positions
  where a message can start (line start and after ``] `` ``: `` `` - `` ``| `` ``> `` a tab, a
  level word, a column separator of an unquoted CSV row: ``,`` or ``;`` glued to the next field, a
  ``]`` or ``:`` glued to a capitalised word: ``[base.py:979][WARNING]Heartbeat …``,
  ``…:INFO:3766:Joined group …``, a Python list's ``['`` around the message), each with the known junk cut from its end (a ``(logger)`` tail, a trailing CSV
  column with a timestamp, `` /``, a `` [thread]``). The parser runs the dialect table on them; the
  leftmost candidate a dialect matches is the message.

Speed: the known layouts never come here (their lines are matched first, vectorised); this path
costs only on files or lines of unknown layouts, and per distinct message.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import arrowops as ao
from jobs.ingest import pyregex as PR
from jobs.ingest import timestamps as T
from jobs.ingest.layouts import LEVELS, MEL_LEVELS, PY_LOGGER, SHORT_LEVELS

#: a leading timestamp is at most this far into the line (after e.g. ``[``, ``[sarama]``, a pod name)
LEADING_MAX = 48
#: a second timestamp right after the first (a viewer's column, then the application's line)
SECOND_MAX = 48

_LEVEL = rf"^.{{0,60}}?(?:^|[^\w])(?P<level>{LEVELS})(?:[^\w]|$)"
#: a logger at the end of the line: log4j's ``(logger)`` / ``(logger:66)`` (not a host:port), or a
#: ``logger=name`` key written after the message (structlog's console and key-value renderers)
_LOGGER_TAIL = (
    r"(?:\((?P<lg>[A-Za-z_$][\w$-]*(?:\.[\w$-]+)+)(?::\d+)?\)\W{0,3}|\blogger=(?P<lg2>[A-Za-z_$][\w$.-]*)\s*)$"
)
#: what leads a message in a line of unknown layout: a level word, a lower-case dotted logger name
#: (Python's ``%(name)s``: ``kafka.coordinator``), a level after it (``name - LEVEL - msg``); in an
#: unquoted CSV row (``date,time,LEVEL,name,msg``) they are columns of their own
_LEVEL_LEAD = rf"\[?(?:{LEVELS})\]?(?:[\s|:>-]+|[,;]|$)"
_NAME_LEAD = rf"{PY_LOGGER}(?::\w+)*?(?:[\s|:>-]+|[,;])(?:{_LEVEL_LEAD})?"
#: a logger column of an unquoted CSV row (a dotted Java or Python name, then the separator)
_CSV_LOGGER = r"(?:[A-Za-z_$][\w$-]*\.)+[A-Za-z_$][\w$]*[,;]"
LEAD = rf"^(?:[\s\[\]|:>-]{{0,4}}|[,;])(?:{_LEVEL_LEAD}(?:{_NAME_LEAD}|{_CSV_LOGGER})?|{_NAME_LEAD})"
#: a Java logger (``%c{1}``, ``%c{2}``, ``%c{1.}``: ``AbstractCoordinator``, ``internals.AbstractCoordinator``) and a
#: colon before a Kafka context prefix, at the start of a message after :data:`LEAD`: a syslog program field
#: or a ``%c{n}: %m`` pattern (Spark's log4j default ``%d{yy/MM/dd HH:mm:ss} %p %c{2}: %m``); the logger's
#: name is no part of the message (replaced by the prefix, group 1)
CLASS_LEAD = (
    r"^(?:[A-Za-z_$][\w$]*\.)*[A-Z][\w$]*:[ \t]+"
    r"(\[(?:Consumer|Worker|Producer|AdminClient|GroupCoordinator|GroupMetadataManager) |stream-(?:thread|client) \[)"
)
#: a message that is one quoted CSV field (an export's last column): the quotes are no part of it
QUOTED_FIELD = r'^"([^"]*)"\s*$'
_LOGGER_WORD = r"(?:^|[\s\[(]|(?:^|\D):|\blogger=)(?P<lg>[A-Za-z][\w$]*(?:\.[\w$]+){1,}|sarama|kafka-node:\w+)(?:[\s\]):]|$)"


def _extract(a: pa.Array, rx: str) -> pa.StructArray:
    return PR.extract(a, rx)


def _valid(s: pa.StructArray) -> np.ndarray:
    return pc.fill_null(s.is_valid(), False).to_numpy(zero_copy_only=False)


def read_heads(
    text: pa.Array, group_hint: np.ndarray, cont: np.ndarray
) -> tuple[np.ndarray, dict[str, pa.Array]]:
    """Head fields of lines of unknown layout. ``group_hint``: lines that mention groups (the
    dialects' prefilter): they are heads even without a timestamp or level (their order in the file
    is evidence). ``cont``: lines shaped like a continuation (stack trace, indentation): heads only
    when a timestamp leads them. Returns (mask of the lines that are heads, {ts, level, logger, message, pts}) with
    one value per head (``ts``: the application's timestamp text, ``pts``: a viewer's timestamp in
    front of it, else null)."""
    if text.type != pa.string():
        text = text.cast(pa.string())  # (leftover lines of one file)
    n = len(text)
    loc = _extract(text, T.LOCATE)
    has = _valid(loc)
    pre_len = pc.fill_null(pc.utf8_length(loc.field("pre")), 0).to_numpy(zero_copy_only=False)
    leading = has & (pre_len <= LEADING_MAX)
    if (cont & ~leading).all():  # (only continuation-shaped lines without a leading timestamp: no head)
        return np.zeros(n, dtype=bool), {k: pa.nulls(n, pa.string()) for k in ("ts", "level", "logger", "message", "pts")}
    ts = pc.if_else(pa.array(has), loc.field("ts"), pa.scalar(None, pa.string()))
    region = pc.if_else(
        pa.array(leading),
        loc.field("rest"),
        pc.if_else(pa.array(has), pc.binary_join_element_wise(loc.field("pre"), loc.field("rest"), " "), text),
    )
    pts = pa.nulls(n, pa.string())
    if leading.any():
        # a second timestamp right after the first: the first is a viewer's / shipper's column
        sec = _extract(pc.fill_null(region, ""), T.LOCATE)
        sv = _valid(sec)
        sp = pc.fill_null(pc.utf8_length(sec.field("pre")), 99).to_numpy(zero_copy_only=False)
        two = leading & sv & (sp <= SECOND_MAX)
        if two.any():
            tw = pa.array(two)
            pts = pc.if_else(tw, ts, pts)
            ts = pc.if_else(tw, sec.field("ts"), ts)
            region = pc.if_else(tw, sec.field("rest"), region)
    region = pc.fill_null(region, "")
    lv = _extract(region, _LEVEL)
    lvv = _valid(lv)
    level = pc.if_else(pa.array(lvv), lv.field("level"), pa.scalar(None, pa.string()))
    lg = _extract(region, _LOGGER_TAIL)
    lgv = _valid(lg)
    named = pc.if_else(pc.equal(lg.field("lg"), ""), lg.field("lg2"), lg.field("lg"))
    logger = pc.if_else(pa.array(lgv), named, pa.scalar(None, pa.string()))
    if lgv.any():
        # (a "(logger)" tail is the layout's, not the message's)
        region = PR.replace(region, r"\s*" + _LOGGER_TAIL, "", max_replacements=1)
    if (~lgv).any():
        w = _extract(pc.fill_null(pc.utf8_slice_codeunits(text, 0, 160), ""), _LOGGER_WORD)
        logger = pc.coalesce(logger, pc.if_else(pa.array(_valid(w)), w.field("lg"), pa.scalar(None, pa.string())))
    message = PR.replace(region, LEAD, "", max_replacements=1)
    message = pc.utf8_ltrim(message, characters=" \t-:|>#")
    message = PR.replace(message, CLASS_LEAD, r"\1", max_replacements=1)
    message = PR.replace(message, QUOTED_FIELD, r"\1", max_replacements=1)
    head = (has & ~cont) | (leading & cont) | ((lvv | group_hint) & ~cont)
    return head, {"ts": ts, "level": level, "logger": logger, "message": message, "pts": pts}


# ------------------------------------------------------------------------------ message-first
_STARTS = re.compile(rf"(?:^\"(?=\S)|\}}[ \t]+(?=\S)|[\]:](?=[A-Z][a-z]|[(<][A-Z])|\[['\"](?=\S)|[,;]\"?(?=[^\s,;\"])|\b(?:msg|message)=\"?|[ \t]{{2,}}|\b{PY_LOGGER}:?[ \t]+|:\d+:?[ \t]+(?=[^\s|:>-])|\]:?[ \t]+|:[ \t]+\"?|\s-[ \t]+|\|[ \t]*|>[ \t]+|\t|\b(?:{LEVELS}|{SHORT_LEVELS})\b:?[ \t]+)")
_TAIL_LOGGER = re.compile(r"\s*\([A-Za-z_$][\w$-]*(?:\.[\w$-]+)+(?::\d+)?\)\s*$")
_TAIL_CSV = re.compile(rf"\s*[,;|]\s*\"?(?:{T.ISO}|{T.SLASH}|{T.EPOCH}).*$")
_TAIL_PUNCT = re.compile(r"\s+[/\\]\s*$|\s*[,;|]\s*$|\"\s*$|['\"]\]\s*$")
_TAIL_THREAD = re.compile(r"\s+\[[^\],]*\]\s*$")
#: ``key=value`` pairs after a message (logfmt fields, MDC written after ``%m``)
_TAIL_PAIRS = re.compile(r'(?:\s+[\w.@-]+=(?:"(?:[^"\\]|\\.)*"|[^\s"]*))+\s*$')
#: one ``key=value`` pair at the end of a message whose value holds no bracket (so that a printed
#: ``TopicPartition(topic='t', partition=0)}`` is not taken for pairs): cut one after another
_TAIL_PAIR = re.compile(r'\s+[\w.@-]+=(?:"(?:[^"\\]|\\.)*"|[^\s"()\[\]{}<>]*)\s*$')
#: a separator a layout writes between the message's tail and the fields after it
_TAIL_SEP = re.compile(r"\s+[-|]\s*$")
#: a dash after a separator (``[k=v] - msg``, ``%c  - msg``): the message starts after it
_DASH = re.compile(r"-[ \t]+")
#: a map after a message (log4j2's ``%X``/``%MDC``: ``{traceId=…, spanId=…}``; logback's ``%mdc`` in braces
#: behind a label, empty when no key is set: ``MDC: {}``)
_TAIL_MAP = re.compile(r"\s+(?:\w+:\s*)?\{(?:[\w.@-]+=[^{}]*)?\}\s*$")
#: a word after a blank may start the message too while every word before it is a head's part of some
#: kind (:data:`HEAD_WORD`): ``pid=1``, ``(thread-1)``, ``<6>``, ``info``, ``I``, a logger name with no
#: separator after it (``kafkajs``, ``StreamThread``, ``o.a.k.c.c.i.ConsumerCoordinator``); a capitalised
#: word (``Received SyncGroup response``) is the message's
_BLANK = re.compile(r"[ \t]+(?=\S)")
HEAD_WORD = re.compile(
    rf"(?:.*[\d\[\]()<>=|:./#@_-].*|[a-z][a-z0-9]*|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Za-z]"
    rf"|(?i:{LEVELS}|{SHORT_LEVELS}|{MEL_LEVELS}))"
)
HEAD_WITHIN = 160
#: at most this many start positions per message, within its first characters
MAX_STARTS = 24
START_WITHIN = 400


def cut_lead(region: str) -> str:
    """The message of a line's region (the reference reader's form of :func:`read_heads`' column steps):
    its :data:`LEAD` cut, the separators left in front trimmed, a :data:`CLASS_LEAD` logger replaced by
    its context prefix, a message that is one quoted CSV field unquoted (:data:`QUOTED_FIELD`)."""
    message = _py(LEAD).sub("", region, count=1).lstrip(" \t-:|>#")
    message = _py(CLASS_LEAD).sub(r"\1", message, count=1)
    return _py(QUOTED_FIELD).sub(r"\1", message, count=1)


@cache
def _py(pattern: str) -> re.Pattern[str]:
    """A table's RE2 regex as Python's, with RE2's meaning."""
    return re.compile(PR.translate(pattern), re.ASCII)


def cut_logger_tail(msg: str) -> str:
    """``msg`` without a log4j ``(logger)`` tail."""
    return _TAIL_LOGGER.sub("", msg)


def _behind_fields(msg: str) -> str:
    """``msg`` (its trailing ``key=value`` fields cut) without the layout's parts that stood before those
    fields: a separator (`` - ``, `` | ``) and a ``(logger)`` / ``(logger:line)`` tail
    (``… msg (c.Logger:1019) - app=connect, clusterId=c``: a pattern that writes its MDC fields last)."""
    cut = _TAIL_SEP.sub("", msg)
    if cut == msg:
        return msg
    for rx in (_TAIL_LOGGER, _TAIL_PUNCT):
        cut = rx.sub("", cut)
    return cut


def _tails(msg: str) -> list[str]:
    """``msg`` without its end junk, then as it is, then without a trailing ``[thread]`` too (the
    order in which they are tried: a partition list ``[t-0]`` must not be taken for a thread), then
    without trailing ``key=value`` pairs, then without those of them whose values hold no bracket,
    then without a trailing ``{key=value, …}`` map."""
    cut = msg
    for rx in (_TAIL_CSV, _TAIL_PUNCT, _TAIL_LOGGER, _TAIL_PUNCT):
        cut = rx.sub("", cut)
    out = [cut] if cut != msg else []
    out.append(msg)
    th = _TAIL_THREAD.sub("", cut)
    if th != cut:
        th2 = th
        for rx in (_TAIL_PUNCT, _TAIL_LOGGER):
            th2 = rx.sub("", th2)
        out.append(th2)
    pairs = _TAIL_PAIRS.sub("", msg)
    if pairs != msg:
        out.append(pairs)
        if (fields := _behind_fields(pairs)) != pairs:
            out.append(fields)
    clean = msg
    while (cut_pair := _TAIL_PAIR.sub("", clean)) != clean:
        clean = cut_pair
    if clean not in (msg, pairs):
        out.append(clean)
    mdc = _TAIL_MAP.sub("", msg)
    if mdc != msg:
        out.append(mdc)
    return [t for t in out if t]


def _starts(msg: str) -> list[int]:
    """Where ``msg`` may start: its start, after a separator (:data:`_STARTS`, past a dash that follows
    one), after a blank within its first :data:`HEAD_WITHIN` characters; leftmost first."""
    found = {0}
    for m in _STARTS.finditer(msg, 0, START_WITHIN):
        e = m.end()
        if d := _DASH.match(msg, e):  # ("] - msg", "logger  - msg": the dash separates too)
            e = d.end()
        found.add(e)
    word = 0
    for m in _BLANK.finditer(msg, 0, HEAD_WITHIN):
        if not HEAD_WORD.fullmatch(msg, word, m.start()):
            break
        found.add(word := m.end())
    return sorted(e for e in found if e < len(msg))[:MAX_STARTS]


def message_candidates(messages: list[str]) -> tuple[list[str], list[int], list[int]]:
    """Candidate messages of each text: every plausible start (see the module doc) × its tail
    variants. Returns (candidates, owner index, rank): for one owner, a lower rank is tried first
    (leftmost start, then the tail order of :func:`_tails`)."""
    cands: list[str] = []
    owner: list[int] = []
    rank: list[int] = []
    for i, msg in enumerate(messages):
        seen: set[str] = set()
        r = 0
        for s in _starts(msg):
            for t in _tails(msg[s:]):
                if t not in seen:
                    seen.add(t)
                    cands.append(t)
                    owner.append(i)
                    rank.append(r)
                    r += 1
    return cands, owner, rank


# ------------------------------------------------------------------------------ a layout's map after the message
#: a ``{key=value, …}`` map at the end of a message (log4j2's ``%X`` / ``%MDC`` written after ``%m``)
_MAP_END = re.compile(r"\s+\{([\w.@-]+=[^{}=,]*(?:, ?[\w.@-]+=[^{}=,]*)*)\}\s*$")
#: the heads (in file order) whose messages decide it
MAP_SAMPLE = 400


def layout_map_tail(messages: list[str | None]) -> str | None:
    """The regex of the map a layout writes after every message (``%m %X``: ``msg {traceId=…,
    spanId=…}``), when more than half of the file's first heads' messages (at least two) end with a
    map of the same keys; else None. A message's own map (``Assignment{…}``, a partition map) has
    keys of its own, so it does not repeat on most lines."""
    seen, n = Counter[tuple[str, ...]](), 0
    for msg in messages[:MAP_SAMPLE]:
        if not msg:
            continue
        n += 1
        if m := _MAP_END.search(msg):
            seen[tuple(kv.split("=", 1)[0].strip() for kv in m.group(1).split(","))] += 1
    if not seen:
        return None
    keys, count = seen.most_common(1)[0]
    if count < 2 or count * 2 <= n:
        return None
    return r"\s+\{" + ", ?".join(re.escape(k) + "=[^{}=,]*" for k in keys) + r"\}\s*$"


# ------------------------------------------------------------------------------ per distinct line
def head_fields(
    cand: pa.Array, hint: np.ndarray, cont: np.ndarray
) -> tuple[np.ndarray, dict[str, pa.Array]]:
    """:func:`head_fields_plain`, run once per distinct (line, hint, continuation shape) when
    the lines repeat (a consumer's configuration dump or assignment block, logged at every start, is
    most of what reaches the general reader): :func:`read_heads` is a function of each line and its
    two flags (what it decides for the whole column - no head at all - is decided alike on the
    distinct lines), so its answers are spread back to the lines."""
    if len(cand) < _DISTINCT_MIN:
        return head_fields_plain(cand, hint, cont)
    codes = ao.numpy_of(pc.dictionary_encode(cand, null_encoding="encode").indices).astype(np.int64)
    key = codes * 4 + hint * 2 + cont
    _, first, inv = np.unique(key, return_index=True, return_inverse=True)
    if len(first) * 2 > len(cand):
        return head_fields_plain(cand, hint, cont)
    is_head, st = read_heads(ao.take(cand, first), hint[first], cont[first])
    heads = is_head[inv]
    if not heads.any():
        return heads, {}
    head_keys = key[first][is_head]  # (the distinct heads' keys, increasing)
    at = np.searchsorted(head_keys, key[heads])  # (each head line's distinct head)
    hp = pa.array(is_head)
    return heads, {k: ao.take(v.filter(hp), at) for k, v in st.items()}


#: fewer lines than this go to the general reader as they are (no distinct values looked for)
_DISTINCT_MIN = 32


def head_fields_plain(
    cand: pa.Array, hint: np.ndarray, cont: np.ndarray
) -> tuple[np.ndarray, dict[str, pa.Array]]:
    """The lines of ``cand`` the general reader takes as heads and their fields (one value per head)."""
    is_head, st = read_heads(cand, hint, cont)
    if not is_head.any():
        return is_head, {}
    hp = pa.array(is_head)
    return is_head, {k: v.filter(hp) for k, v in st.items()}
