"""Head lines of a file: the layouts (known ones, declared ones, JSON), the viewer/wrapping prefixes,
the general reader for unknown layouts, pasted-text unwrapping and the heads' timestamps.

A *head* is a log entry's first line; :class:`Heads` accumulates them with their fields (ts, level,
logger, thread, message, a viewer's timestamp ``pts``, the layout id).
(Layout detection - :class:`FirstBytes`, :func:`layout_order` - is :mod:`jobs.ingest.layout_sample`'s.)
"""

from __future__ import annotations

import io

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from pyarrow import json as pa_json

from jobs.ingest import arrowops as ao
from jobs.ingest import day_dates as DD
from jobs.ingest import epoch_ms as EM
from jobs.ingest import general as G
from jobs.ingest import layouts as L
from jobs.ingest import line_prefixes as LP
from jobs.ingest import pyregex as PR
from jobs.ingest import timestamps as TS
from jobs.ingest.fastpaths import fast_log4j, fast_log4j_both, fast_springboot, merge_partial
from jobs.ingest.layout_sample import ORDER_SAMPLE, FirstBytes
from jobs.ingest.layout_sample import layout_order as layout_order  # (re-exported: the parser's step)
from jobs.ingest.layout_sample import layout_order_plain as layout_order_plain
from jobs.ingest.model import (
    IngestSettings,
)
from jobs.ingest.prefilter import group_candidates_by_wording
from jobs.ingest.rawbytes import may_contain


# ------------------------------------------------------------------------------------ layouts
def _mostly_json(text: pa.Array, fb: FirstBytes | None = None) -> bool:
    sample = text.slice(0, ORDER_SAMPLE)
    sfb = (fb or FirstBytes(sample)).take(slice(0, ORDER_SAMPLE))
    if sfb.possible(L.FIRST_CHARS["json"]).sum() * 2 <= len(sample):
        return False
    return (pc.sum(PR.match(sample, L.JSON_LINE)).as_py() or 0) * 2 > len(sample)


class Heads:
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
        return _cut_map_tail(t.combine_chunks())

    def rows_of(self, suffixes: tuple[str, ...]) -> np.ndarray:
        """The lines (``_row``) of the heads whose layout ends with one of ``suffixes``, in no
        particular order (what :meth:`table` holds for them, without building it)."""
        out = []
        for c in self.chunks:
            hit = np.zeros(len(c), dtype=bool)
            for s in suffixes:
                hit |= ao.mask(pc.ends_with(c["layout"], s))
            out.append(ao.numpy_of(c["_row"])[hit])
        return np.concatenate(out) if out else np.zeros(0, np.int64)


def _cut_map_tail(t: pa.Table) -> pa.Table:
    """The heads without the map their layout writes after every message (:func:`G.layout_map_tail`)."""
    sample = t["message"].slice(0, G.MAP_SAMPLE)
    if not may_contain(sample, b"}") or (pc.sum(PR.match(sample, r"\}\s*$")).as_py() or 0) < 2:
        # (cheap: most files have none; without a "}" in the sample's bytes no message ends with one)
        return t
    regex = G.layout_map_tail(sample.to_pylist())
    if regex is None:
        return t
    cut = PR.replace(t["message"], regex, "", max_replacements=1)
    return t.set_column(t.schema.get_field_index("message"), "message", cut)


def _match_one(
    sub: pa.Array, lay: L.Layout, possible: np.ndarray | None = None
) -> tuple[np.ndarray, dict[str, pa.Array]]:
    """(matched mask, fields of the matched lines) of one layout on ``sub`` (``possible``: the lines
    that start with one of the layout's first characters; no other line can match)."""
    fast = None
    if lay.id == "log4j":
        fast = fast_log4j_both(sub)
    elif lay.id == "log4j-nologger":
        fast = fast_log4j(sub, False)
    elif lay.id in ("springboot", "springboot3"):
        fast = fast_springboot(sub, lay.id == "springboot3")
    if fast is not None:
        ok, st = fast
        # lines the fast path does not accept still get the regex
        rest = np.nonzero(~ok if possible is None else ~ok & possible)[0]
        if len(rest):
            ok2, st2 = _match_one_regex(ao.take(sub, rest), lay)
            if ok2.any():
                nolog = st.pop("_nologger", None)
                ok_m, st = merge_partial(ok, st, rest, ok2, st2)
                if nolog is not None:
                    # (the regex lines are log4j lines; merged rows are in line order)
                    flags = np.concatenate([nolog, np.zeros(int(ok2.sum()), dtype=bool)])
                    order = np.argsort(np.concatenate([np.nonzero(ok)[0], rest[ok2]]), kind="stable")
                    st["_nologger"] = flags[order]
                return ok_m, st
        return ok, st
    return _match_one_regex(sub, lay)


def _match_one_regex(sub: pa.Array, lay: L.Layout) -> tuple[np.ndarray, dict[str, pa.Array]]:
    # (the head/tail split is exact for the built-in layouts, whose tails are anchored literals;
    # a declared layout is read by its whole regex)
    if lay.head is None or lay.id not in L.LAYOUT_BY_ID:
        m = ao.extract(sub, lay.regex)
        ok = ao.mask(m.is_valid())
        mf = m.filter(pa.array(ok))
        return ok, {f.name: mf.field(f.name) for f in m.type}
    m = ao.extract(sub, lay.head)
    ok = ao.mask(m.is_valid())
    if not ok.any():
        return ok, {}
    okp = pa.array(ok)
    mf = m.filter(okp)
    st = {f.name: mf.field(f.name) for f in m.type}
    rest = PR.replace(sub.filter(okp), lay.head, "", max_replacements=1)
    if lay.tail is not None:
        t = ao.extract(rest, lay.tail)
        tok = ao.mask(t.is_valid())
        pos = np.nonzero(ok)[0]
        ok[pos[~tok]] = False
        tp = pa.array(tok)
        st = {k: v.filter(tp) for k, v in st.items()}
        tf = t.filter(tp)
        st.update({f.name: tf.field(f.name) for f in t.type})
        rest = PR.replace(rest.filter(tp), lay.tail, "", max_replacements=1)
    st["message"] = rest
    return ok, st


def _epoch_pair_ts(cols: dict[str, pa.Array], ts: pa.Array | None) -> pa.Array | None:
    """The JSON time column, else a time in two keys, seconds and nanoseconds (``L.JSON_EPOCH_PAIRS``)."""
    for sec, nano in L.JSON_EPOCH_PAIRS:
        if sec in cols and nano in cols and pa.types.is_integer(cols[sec].type) and pa.types.is_integer(cols[nano].type):
            pair = pc.binary_join_element_wise(cols[sec].cast(pa.string()),
                                               pc.utf8_lpad(cols[nano].cast(pa.string()), 9, "0"), ".")  # fmt: skip
            ts = pair if ts is None else pc.coalesce(ts, pair)
    return ts


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
                    else pc.strftime(c, "%Y-%m-%dT%H:%M:%SZ")  # (%S has the fraction of sub-second units)
                )
                v = c if v is None else pc.coalesce(v, c)
            st[key] = v
        for key, suffixes in L.JSON_SUFFIXES.items():  # (nested MDC keys, in column order)
            for name, c in cols.items():
                if any(name.endswith("." + x) for x in suffixes) and not pa.types.is_nested(c.type):
                    v = c.cast(pa.string())
                    st[key] = v if st[key] is None else pc.coalesce(st[key], v)
        st["ts"] = _epoch_pair_ts(cols, st["ts"])
        if st["message"] is not None:
            _unwrap_envelope(st)
            st["message"] = L.with_response_error(st["message"], st.get("j_error"))
        return st
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, ValueError, TypeError, KeyError):
        pass  # the per-key regexes below
    st = {}
    for key, rx in L.JSON_KEYS.items():
        m = ao.extract(js, rx)
        v = m.field("v")
        if key == "ts":
            v = pc.if_else(pc.equal(v, ""), m.field("n"), v)
        nested = L.JSON_NESTED.get(key)
        if nested is not None:
            v = pc.if_else(pc.equal(v, ""), ao.extract(js, nested).field("v"), v)
        st[key] = ao.nullify_empty(v)
    st["message"] = L.json_unescape(pc.fill_null(st["message"], ""))
    _unwrap_envelope(st)
    st["message"] = L.with_response_error(st["message"], st.get("j_error"))
    return st


def _unwrap_envelope(st: dict[str, pa.Array | None]) -> None:
    """A message that is a text line with a JSON object of its own (:data:`L.ENVELOPE`): the text
    becomes the message and the object's keys fill the fields the outer object lacks."""
    msg = st["message"]
    if msg is None or not pc.any(pc.fill_null(PR.match(msg, L.ENVELOPE), False)).as_py():
        return
    m = ao.extract(msg, L.ENVELOPE)
    ok = pc.fill_null(m.is_valid(), False)
    st["message"] = pc.if_else(ok, m.field("m").cast(msg.type), msg)
    inner = m.field("j")
    for key in L.ENVELOPE_KEYS:
        x = ao.extract(pc.fill_null(inner, ""), L.JSON_KEYS[key])
        v = x.field("v")
        if key == "ts":
            v = pc.if_else(pc.equal(v, ""), x.field("n"), v)
        v = pc.if_else(ok, ao.nullify_empty(v), pa.scalar(None, v.type))
        cur = st.get(key)
        st[key] = v if cur is None else pc.coalesce(cur, v.cast(cur.type))


def match_layouts(
    text: pa.Array,
    rows: np.ndarray,
    order: list[L.Layout],
    heads: Heads,
    label: str,
    pts: pa.Array | None,
    fb: FirstBytes | None = None,
) -> np.ndarray:
    """Match ``text`` (the lines ``rows``) against the layouts; returns the rows left unmatched.
    JSON lines are tried first when most of the file's first lines are JSON, else last. A layout
    runs only on the lines starting with one of its first characters (:data:`L.FIRST_CHARS`)."""
    fb = fb or FirstBytes(text)
    left = np.ones(len(rows), dtype=bool)
    if _mostly_json(text, fb):
        left = match_json(text, rows, left, heads, label, pts, fb)
    for lay in order:
        pos = np.nonzero(left)[0]
        if not len(pos):
            break
        poss = fb.possible(L.FIRST_CHARS.get(lay.id, L.ALL_CHARS))[pos]
        if not poss.any():
            continue
        possible: np.ndarray | None = poss
        if len(pos) < len(text) and not poss.all():
            pos, possible = pos[poss], None  # (no copy of the whole column for the narrowing)
        sub = text if len(pos) == len(text) else ao.take(text, pos)
        ok, st = _match_one(sub, lay, possible)
        if not ok.any():
            continue
        heads.add(rows[pos[ok]], label + lay.id, st, ao.take(pts, pos[ok]) if pts is not None else None)
        left[pos[ok]] = False
    left = match_json(text, rows, left, heads, label, pts, fb)
    return rows[left]


def match_json(
    text: pa.Array,
    rows: np.ndarray,
    left: np.ndarray,
    heads: Heads,
    label: str,
    pts: pa.Array | None,
    fb: FirstBytes,
) -> np.ndarray:
    pos = np.nonzero(left)[0]
    if len(pos) and fb.possible(L.FIRST_CHARS["json"])[pos].any():
        sub = text if len(pos) == len(text) else ao.take(text, pos)
        isj = ao.mask(PR.match(sub, L.JSON_LINE))
        if isj.any():
            jp = pos[isj]
            st = _json_fields(sub if isj.all() else ao.take(text, jp))
            # a JSON line without a message field is still a head (message "")
            st["message"] = pc.fill_null(st["message"], "") if st.get("message") is not None else None
            heads.add(rows[jp], label + "json", st, ao.take(pts, jp) if pts is not None else None)
            heads.json = True
            left = left.copy()
            left[jp] = False
    return left


_BOX = "\u2502\u2503\u2551"  # │ ┃ ║ (terminal UIs, e.g. k9s)


def unwrap_paste(text: pa.Array, data: bytes) -> pa.Array:
    """Undo what surrounds every line of a pasted or captured log: the side borders of a terminal
    UI box (``│ line │``), an e-mail quote (``> ``) on most lines, and an indentation shared by
    every non-blank line (an indented code block). Cheap tests first: most files have none."""
    sniff = data[:65536]  # (a capture has its borders on every line: the start tells)
    if any(c.encode() in sniff for c in _BOX):
        text = PR.replace(text, f"^[{_BOX}]+ ?|\\s*[{_BOX}]+\\s*$", "")
    head = text.slice(0, 400)
    nonblank = pc.filter(head, pc.greater(pc.utf8_length(pc.utf8_trim_whitespace(head)), 0))
    if not len(nonblank):
        return text
    quoted = pc.sum(pc.starts_with(nonblank, ">")).as_py() or 0
    if quoted * 2 > len(nonblank):
        text = PR.replace(text, r"^>+ ?", "", max_replacements=1)
        nonblank = PR.replace(nonblank, r"^>+ ?", "", max_replacements=1)
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


def peel_line_prefix(text: pa.Array) -> tuple[pa.Array, pa.Array | None]:
    """The text without a supervisor's or system log's prefix on every line (:func:`LP.line_prefix`
    decides on the first lines, as the reference reader does), and the prefix's time of each line
    (None: no prefix peeled)."""
    regex = LP.line_prefix([t or "" for t in text.slice(0, 400).to_pylist()])
    if regex is None:
        return text, None
    m = ao.extract(text, regex)
    ok = m.is_valid()
    return pc.if_else(ok, m.field("rest"), text), pc.if_else(ok, m.field("pts"), pa.scalar(None, pa.string()))


def general_heads(
    text: pa.Array, left: np.ndarray, heads: Heads, label: str, enveloped: np.ndarray | None = None
) -> np.ndarray:
    """Heads of the lines no known layout matched, read by :mod:`jobs.ingest.general` (layout
    ``general``); returns the rows still left (continuations, lines with nothing to read). A line
    that looks like the continuation of an entry (stack trace, indented block) is a head only when
    it starts with a timestamp (an indented or commented log line); the message line of a two-line
    entry (a JUL or Microsoft.Extensions.Logging head, :data:`L.NEXT_LINE`) is not looked at. A line an envelope held (``enveloped``: rows) is an entry of its own unless
    it is continuation-shaped."""
    sub = ao.take(text, left)
    skip = np.zeros(len(left), dtype=bool)
    if heads.chunks:
        skip |= np.isin(left, heads.rows_of(tuple(L.NEXT_LINE)) + 1)
    if skip.all():
        return left
    pos = np.nonzero(~skip)[0]
    cand = sub if len(pos) == len(sub) else ao.take(sub, pos)
    cont = ao.mask(PR.match(cand, L.CONTINUATION))
    # (a stack frame or an indented block line is read only when a timestamp may lead it: the
    # general reader's leading timestamp starts within G.LEADING_MAX characters and has a digit
    # within its first 6, so a line without a digit that early cannot have one)
    maybe = ~cont | ao.mask(PR.match(cand, "^.{0,%d}\\d" % (G.LEADING_MAX + 6)))  # noqa: UP031
    if not maybe.all():
        pos = pos[maybe]
        if not len(pos):
            return left
        cand, cont = ao.take(sub, pos), cont[maybe]
    hint = group_candidates_by_wording(cand)
    if enveloped is not None:
        hint |= np.isin(left[pos], enveloped)
    is_head, fields = G.head_fields(cand, hint, cont)
    if not is_head.any():
        return left
    pts = fields.pop("pts")
    heads.add(left[pos[is_head]], label + "general", fields, pts)
    keep = np.ones(len(left), dtype=bool)
    keep[pos[is_head]] = False
    return left[keep]


def head_timestamps(head_t: pa.Table, default_tz: str) -> pa.Array:
    """Epoch ms of the heads' timestamps (``ts``, else the wrapping prefix's ``pts``): the values
    a fast path converted already (``tsms``, naive) get the default zone, the others go through
    :func:`EM.parse_timestamps` (the same result: both are per value)."""
    if not len(head_t):
        return pa.array([], pa.int64())
    ts_raw = pc.coalesce(ao.nullify_empty(head_t["ts"].combine_chunks()), head_t["pts"].combine_chunks())
    tsms = head_t["tsms"].combine_chunks()
    if tsms.null_count == len(tsms):
        return EM.parse_timestamps(ts_raw, default_tz)
    pre = ao.mask(pc.is_valid(tsms))
    out = np.zeros(len(tsms), np.int64)
    out[pre] = EM.apply_zone(
        ao.numpy_of(tsms)[pre] if pre.all() else ao.numpy_of(tsms.filter(pa.array(pre))), pre[pre], default_tz
    )
    if pre.all():
        return pa.array(out, pa.int64())
    rest = np.nonzero(~pre)[0]
    slow = EM.parse_timestamps(ao.take(ts_raw, rest), default_tz)
    valid = pre.copy()
    valid[rest] = ao.mask(pc.is_valid(slow))
    out[rest] = ao.numpy_of(pc.fill_null(slow, 0))
    return pa.array(out, pa.int64(), mask=~valid)


def located_timestamps(
    head_t: pa.Table, ts_ms: pa.Array, settings: IngestSettings, fd: DD.FileDates = DD.NO_DATES
) -> tuple[pa.Array, list[str | None]]:
    """Timestamps of the forms the plain conversion does not read (:func:`TS.to_iso`): log4j
    ``DATE`` (``04 Mar 2021 10:00:00,123``), a zone word, syslog ``Mar  4 10:00:00`` (the year of
    the file's dated lines, else ``ingest.default_year``) and a time of day alone (its date by
    :func:`DD.time_only_dates` from the file's dated lines, ``fd``). Per line in file order, only on
    the heads the plain conversion left null. Returns (epoch ms, per head the rule that dated a time
    of day when it was no line of the file, else None)."""
    n = len(head_t)
    raw = pc.coalesce(ao.nullify_empty(head_t["ts"].combine_chunks()), head_t["pts"].combine_chunks())
    miss = ao.mask(pc.and_(pc.is_null(ts_ms), pc.is_valid(raw)))
    if not miss.any():
        return ts_ms, [None] * n
    raws = raw.to_pylist()
    dated = [TS.date_of(r) for r in raws]
    year = _year(dated, settings)
    days, rules = DD.time_only_dates(raws, fd, head_t["pts"].combine_chunks().to_pylist())
    out = ao.numpy_of(pc.fill_null(ts_ms, 0)).copy()
    ok = ao.mask(pc.is_valid(ts_ms))
    fixed_rows, fixed_text = [], []
    for i, r in enumerate(raws):
        if miss[i]:
            iso = TS.to_iso(r, year=year, date=days[i])
            if iso is not None:
                fixed_rows.append(i)
                fixed_text.append(iso)
    if fixed_rows:
        conv = EM.parse_timestamps(pa.array(fixed_text, pa.string()), settings.default_timezone)
        cv = ao.mask(pc.is_valid(conv))
        fr = np.array(fixed_rows)[cv]
        out[fr] = ao.numpy_of(pc.fill_null(conv, 0))[cv]
        ok[fr] = True
    return pa.array(out, pa.int64(), mask=~ok), [rules[i] if ok[i] else None for i in range(n)]


def _year(dated: list[str | None], settings: IngestSettings) -> int | None:
    """The year of a file's syslog timestamps: ``ingest.default_year``, else its first dated head's."""
    if settings.default_year is not None:
        return settings.default_year
    return next((int(d[:4]) for d in dated if d), None)


def file_year(head_t: pa.Table, settings: IngestSettings) -> int | None:
    """:func:`_year` of the heads' timestamps (``ts``, else ``pts``)."""
    if settings.default_year is not None:
        return settings.default_year
    raw = pc.coalesce(ao.nullify_empty(head_t["ts"].combine_chunks()), head_t["pts"].combine_chunks())
    return _year([TS.date_of(r) for r in raw.to_pylist()], settings)
