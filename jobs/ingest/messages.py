"""Messages → dialects: the context prefix, the dialect table on the distinct messages, message-first
candidates for the messages no dialect matched where they were thought to start (hard-wrapped
entries joined with the lines after them: :mod:`jobs.ingest.wrapped`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import arrowops as ao
from jobs.ingest import context as C
from jobs.ingest import dialect_dispatch as DDP
from jobs.ingest import dialect_model as DM
from jobs.ingest import dialects as D
from jobs.ingest import general as G
from jobs.ingest import pyregex as PR
from jobs.ingest.fields import carry_groups, event_rows, typed_event_fields, with_context_groups

# ------------------------------------------------------------------------------------ dialects
_CLIENT_PREFIX_RX = next(rx for lits, rx in D.BODY_PREFIXES if "[Consumer " in lits)


def _extract_client_prefix(sub: pa.Array, rx: str) -> pa.StructArray:
    """``extract_regex(sub, rx)`` of the client prefix alternative, once per distinct text before
    the first ``"] "``: nothing the prefix matches before its closing ``"] "`` can be a ``]``, so a
    match ends at the first ``"]"``, which must be followed by a space, and depends only on the
    text up to there (lines without ``"] "`` cannot match). A file logs a few client prefixes."""
    parts = pc.split_pattern(sub, "] ", max_splits=1)
    has = ao.numpy_of(pc.equal(pc.list_value_length(parts), 2)).astype(bool)
    enc = pc.dictionary_encode(ao.elem(parts, 0))
    typ = enc.dictionary.type
    keys = pc.binary_join_element_wise(enc.dictionary, pa.scalar("] ", typ), pa.scalar("", typ))
    return ao.extract(keys, rx).take(pa.array(ao.numpy_of(enc.indices), pa.int32(), mask=~has))


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
    bracket = ao.mask(pc.starts_with(message, "["))
    left = bracket.copy()  # rows not matched by a specific alternative yet

    def run(sel: np.ndarray, rx: str) -> None:
        rows = np.nonzero(sel)[0]
        sub = message if len(rows) == n else ao.take(message, rows)
        m = _extract_client_prefix(sub, rx) if rx == _CLIENT_PREFIX_RX else ao.extract(sub, rx)
        ok = ao.mask(m.is_valid())
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
            sel |= ao.mask(pc.starts_with(message, lit))
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
    parts = PR.split(message, r"\]:? ", max_splits=1)
    mdc = has_pre & ao.mask(PR.match(message, r"^\[[^\]|]*\|"))
    simple = has_pre & ~mdc
    body = pc.if_else(pa.array(simple), ao.elem(parts, 1), message)
    if mdc.any():
        rows = np.nonzero(mdc)[0]
        stripped = PR.replace(ao.take(message, rows), D.BODY_PREFIX, "", max_replacements=1)
        body = pc.replace_with_mask(body, pa.array(mdc), stripped.cast(body.type))
    return body


_DIALECTS_BY_KEY: dict[str, list[tuple[int, D.Dialect]]] = {}
for _i, _d in enumerate(D.DIALECTS):
    if _d.key is not None:
        _DIALECTS_BY_KEY.setdefault(_d.key, []).append((_i, _d))
_KEYLESS = [(i, d) for i, d in enumerate(D.DIALECTS) if d.key is None]
_REPEAT_SAMPLE = 2048


def repetitive(message: pa.Array) -> bool:
    """Whether at most half of the first messages are distinct (then per-distinct-message work
    pays for the hashing of every message)."""
    sample = message.slice(0, _REPEAT_SAMPLE)
    return len(sample) > 0 and len(pc.unique(sample)) * 2 <= len(sample)


def _match_dialects(message: pa.Array, logger: pa.Array) -> tuple[pa.Table, np.ndarray]:
    """Run the dialect table on candidate messages. Returns (fields table with ``_row`` and
    ``_dialect``, unmatched-row mask): :func:`jobs.ingest.dialect_dispatch.match_messages` (one
    message at a time, every pattern compiled once per process; up to
    :data:`~jobs.ingest.dialect_dispatch.MAX_MESSAGES` messages), else the column form
    :func:`match_messages_by_column` (the reference; same result)."""
    if message.type != pa.string():
        message = message.cast(pa.string())
    td = DDP.table_dispatch() if FAST_DISPATCH and len(message) <= DDP.MAX_MESSAGES else None
    if td is not None and (fast := DDP.match_messages(td, message, logger)) is not None:
        return fast
    return match_messages_by_column(message, logger)


#: whether :func:`_match_dialects` may use the per-message dispatcher (tests switch it off to run
#: the column form, the reference)
FAST_DISPATCH = True


def match_messages_by_column(message: pa.Array, logger: pa.Array) -> tuple[pa.Table, np.ndarray]:
    """The dialect table on the column of messages: the context prefix split, then each dialect
    over the bodies it can match (:func:`dialect_matches_by_column`)."""
    n = len(message)
    if message.type != pa.string():
        message = message.cast(pa.string())
    has_pre, pre = _prefix_fields(message)
    body = message
    if has_pre.any():
        body = _strip_prefix(message, has_pre)
    unmatched = np.ones(n, dtype=bool)
    t = _matches_table(dialect_matches_by_column(body, logger, has_pre, unmatched, message))
    return _with_prefix_fields(t, pre, body), unmatched


def _logger_ok(cond: str, logger: pa.Array, message: pa.Array) -> np.ndarray:
    """The rows whose logger meets a dialect's logger condition, or whose message starts with the
    context prefix of the same source (:data:`jobs.ingest.dialect_model.SOURCE_PREFIX`)."""
    ok = ao.mask(ao.dict_apply(logger, lambda u: PR.match(u, cond)))
    pre = DM.SOURCE_PREFIX.get(cond)
    if pre is not None:
        ok |= ao.mask(pc.starts_with(message, pre))
    return ok


def _unknown_loggers(logger: pa.Array) -> np.ndarray:
    """The rows whose logger no logger condition of the table names (:data:`D.LOGGER_CONDITIONS`), or
    that have none: a gated dialect reads them when their body is of one of its open wordings."""
    known = np.zeros(len(logger), dtype=bool)
    for cond in D.LOGGER_CONDITIONS:
        known |= ao.mask(ao.dict_apply(logger, lambda u, c=cond: PR.match(u, c)))
    return ~known


def _open_rows(ow: str, body: pa.Array, rows: np.ndarray, unknown: np.ndarray) -> np.ndarray:
    """Of ``rows``, those with an unknown logger whose body is of the open wording ``ow`` (``""``: any)."""
    ok = unknown[rows]
    if ow and ok.any():
        ok = ok & ao.mask(PR.match(ao.take(body, rows), ow))
    return ok


def dialect_matches_by_column(
    body: pa.Array, logger: pa.Array, has_pre: np.ndarray, unmatched: np.ndarray, message: pa.Array
) -> list[pa.Table]:
    """The matches of each dialect on the bodies it can match (``unmatched`` is updated): keyed
    dialects of the first words present (rows of different keys are disjoint: table order only
    matters within one key), then the keyless ones on every row left. Returned keyed then keyless,
    each in table order (the column order of the result follows the first chunk with each field)."""
    enc = pc.dictionary_encode(ao.extract(body, r"^(?P<w>\S*)").field("w"))
    codes = ao.numpy_of(enc.indices)
    word_code = {w: i for i, w in enumerate(enc.dictionary.to_pylist())}
    chunks: list[tuple[bool, int, pa.Table]] = []
    logger_ok: dict[str, np.ndarray] = {}
    unknown: np.ndarray | None = None
    work = [(code, di, d) for w, code in word_code.items() for di, d in _DIALECTS_BY_KEY.get(w, ())] + [
        (None, di, d) for di, d in _KEYLESS
    ]
    for code, di, d in work:
        if not unmatched.any():
            break
        rows = _rows_to_try(d, code, codes, word_code, unmatched)
        if (lg := DM.logger_condition(d)) is not None and len(rows):
            if lg not in logger_ok:
                logger_ok[lg] = _logger_ok(lg, logger, message)
            ok = logger_ok[lg][rows]
            if (ow := D.open_wording(d)) is not None and not ok.all():
                if unknown is None:
                    unknown = _unknown_loggers(logger)
                ok |= _open_rows(ow, body, rows, unknown)
            rows = rows[ok]
        if d.needs_prefix and len(rows):
            rows = rows[has_pre[rows]]
        if not len(rows):
            continue
        matched = _match_dialect(body, rows, di, d)
        if matched is None:
            continue
        r, table = matched
        unmatched[r] = False
        chunks.append((d.key is None, di, table))
    return [c for _, _, c in sorted(chunks, key=lambda x: x[:2])]


def _rows_to_try(
    d: D.Dialect, code: int | None, codes: np.ndarray, word_code: dict[str, int], unmatched: np.ndarray
) -> np.ndarray:
    """The unmatched rows a dialect can match by their first word: its key's (``code``), else
    those starting with one of its ``first_words``, else all."""
    if code is not None:
        return np.nonzero(unmatched & (codes == code))[0]
    if d.first_words is not None:
        # (a keyless dialect whose matches start with one of a few words: only those bodies)
        wc = [word_code[w] for w in d.first_words if w in word_code]
        if not wc:
            return np.zeros(0, np.int64)
        return np.nonzero(unmatched & np.isin(codes, wc))[0]
    return np.nonzero(unmatched)[0]


def _match_dialect(body: pa.Array, rows: np.ndarray, di: int, d: D.Dialect) -> tuple[np.ndarray, pa.Table] | None:
    """One dialect on the bodies ``rows``: the rows it matches and their fields (``_row``,
    ``_dialect`` and its named groups), or None."""
    sub = ao.take(body, rows)
    if len(d.literal) > len(d.key or "") + 1:
        # every match starts with this text: a cheap test before the regex
        lit = ao.mask(pc.starts_with(sub, d.literal))
        if not lit.any():
            return None
        if not lit.all():
            rows = rows[lit]
            sub = ao.take(body, rows)
    if d.groups:
        m = ao.extract(sub, d.pattern)
        ok = ao.numpy_of(m.is_valid()).astype(bool)
    else:
        m = None
        ok = ao.mask(PR.match(sub, d.pattern))
    if not ok.any():
        return None
    r = rows[ok]
    cols: dict[str, pa.Array] = {
        "_row": pa.array(r, pa.int64()),
        "_dialect": pa.array(np.full(len(r), di, np.int32)),
    }
    if m is not None:
        mf = m.filter(pa.array(ok)) if not ok.all() else m
        for f in m.type:
            cols[f.name] = mf.field(f.name)
    return r, pa.table(cols)


def _matches_table(chunks: list[pa.Table]) -> pa.Table:
    """The dialect matches as one table in row order; empty sub-matches are null (once per column,
    not per dialect), except an empty partition list, which is a fact ("Adding newly assigned
    partitions: ")."""
    if not chunks:
        return pa.table({"_row": pa.array([], pa.int64()), "_dialect": pa.array([], pa.int32())})
    t = pa.concat_tables(chunks, promote_options="default")
    t = t.take(pc.sort_indices(t["_row"])).combine_chunks()
    for i, name in enumerate(t.column_names):
        if name not in ("_row", "_dialect", "partitions_raw"):
            t = t.set_column(i, name, ao.nullify_empty(t[name].combine_chunks()))
    return t


def _with_prefix_fields(t: pa.Table, pre: dict[str, pa.Array], body: pa.Array) -> pa.Table:
    """``t`` with the context prefix fields (``pfx_*``) and the ``_body`` of its rows."""
    rows = pa.array(ao.numpy_of(t["_row"]) if len(t) else np.zeros(0, np.int64))
    for name in D.PREFIX_FIELDS:
        t = t.append_column(name, ao.nullify_empty(pc.fill_null(pre[name], "").take(rows)).cast(pa.string()))
    return t.append_column("_body", body.take(rows).cast(pa.string()))


def candidate_events(
    cpos: np.ndarray, ccodes: np.ndarray, message: pa.Array, head_t: pa.Table, layout_col: pa.Array
) -> tuple[pa.Table | None, np.ndarray]:
    """Events of the candidate heads ``cpos`` (``ccodes``: dictionary codes of their messages) and
    the mask of the candidates no dialect matches.

    Dialect matching and field conversion are pure functions of (message, logger, layout), and the
    messages of a file repeat a lot (a consumer logs the same heartbeat line for a whole
    generation), so they run once per distinct triple (:func:`distinct_events`) and are spread back
    to the lines with one ``take`` (:func:`spread_events`)."""
    tr = candidate_triples(cpos, ccodes, message, head_t, layout_col)
    return spread_events(tr, *distinct_events(tr.umsg, tr.ulog, tr.ulayout))


@dataclass(slots=True)
class Triples:
    """The distinct (message, logger, layout) triples of a file's candidate heads ``cpos``: each
    candidate's triple (``inv``), the triples' columns (``umsg``, ``ulog``, ``ulayout``) and the
    head columns the spread needs (``head_t``)."""

    cpos: np.ndarray
    inv: np.ndarray
    umsg: pa.Array
    ulog: pa.Array
    ulayout: pa.Array
    head_t: pa.Table


def candidate_triples(
    cpos: np.ndarray, ccodes: np.ndarray, message: pa.Array, head_t: pa.Table, layout_col: pa.Array
) -> Triples:
    """The distinct triples of the candidates (see :class:`Triples`)."""
    logger = ao.take(head_t["logger"].combine_chunks(), cpos)
    layout = ao.take(layout_col, cpos)
    inv, rep = _distinct_triples(ccodes, logger, layout)
    return Triples(cpos, inv, ao.take(message, cpos[rep]), ao.take(logger, rep), ao.take(layout, rep), head_t)


def distinct_events(umsg: pa.Array, ulog: pa.Array, ulayout: pa.Array) -> tuple[pa.Table | None, np.ndarray]:
    """The typed event fields of the triples a dialect matches (``_row``: the triple; None when
    none does) and the mask of the triples none matches. A pure function of each triple."""
    mt, unmatched_u = _match_distinct(umsg, ulog)
    if not len(mt):
        return None, unmatched_u
    urow = ao.numpy_of(mt["_row"])
    fields = typed_event_fields(mt, ao.take(ulog, urow), ao.take(ulayout, urow))
    fields = with_context_groups(fields, ao.take(umsg, urow), C.TEXT_GROUP)
    if "_msg" in mt.column_names:
        fields = fields.append_column("_msg", mt["_msg"])
    return fields, unmatched_u


def spread_events(tr: Triples, fields: pa.Table | None, unmatched_u: np.ndarray) -> tuple[pa.Table | None, np.ndarray]:
    """The events of the candidate lines from their triples' :func:`distinct_events`, and the mask
    of the candidates no dialect matches."""
    unmatched = unmatched_u[tr.inv]
    if fields is None:
        return None, unmatched
    urow = ao.numpy_of(fields["_row"])
    j = np.full(len(unmatched_u), -1, dtype=np.int64)
    j[urow] = np.arange(len(urow))
    jr = j[tr.inv][~unmatched]
    hrow = tr.cpos[~unmatched]
    thread = ao.take(tr.head_t["thread"].combine_chunks(), hrow)
    if pc.any(pc.is_valid(fields["_groups_raw"])).as_py():
        # (rare) lines listing several groups: every line's event first, then the explosion
        ev = fields.take(pa.array(jr, pa.int64()))
        ev = ev.set_column(ev.column_names.index("_row"), "_row", pa.array(hrow, pa.int64()))
        return event_rows(ev, thread), unmatched
    return _spread_events(fields, jr, hrow, thread), unmatched


def _distinct_triples(ccodes: np.ndarray, logger: pa.Array, layout: pa.Array) -> tuple[np.ndarray, np.ndarray]:
    """The distinct (message, logger, layout) triples of the candidates: each candidate's triple
    (``inv``) and one candidate of each triple (``rep``)."""
    return ao.distinct_rows(ccodes, ao.codes(logger), ao.codes(layout))


def _match_distinct(umsg: pa.Array, ulog: pa.Array) -> tuple[pa.Table, np.ndarray]:
    """The dialect table on the distinct messages, then message-first on those it left unmatched or
    matched only with a catch-all (provisional: a specific dialect found message-first is
    preferred). Blanks at a message's end are not part of it (:data:`jobs.ingest.dialect_model.TRAILING_BLANKS`)."""
    ulog = pc.fill_null(ulog, "")
    umsg = pc.utf8_rtrim(umsg, characters=DM.TRAILING_BLANKS)
    mt, unmatched_u = _match_dialects(umsg, ulog)
    provisional = np.zeros(len(unmatched_u), dtype=bool)
    if len(mt):
        provisional[ao.numpy_of(mt["_row"])[_CATCHALL[ao.numpy_of(mt["_dialect"])]]] = True
    if unmatched_u.any() or provisional.any():
        mt = _message_first(umsg, ulog, mt, unmatched_u, provisional)
    return mt, unmatched_u


def _spread_events(fields: pa.Table, jr: np.ndarray, hrow: np.ndarray, thread: pa.Array) -> pa.Table:
    """The event rows of the lines ``hrow`` (``jr``: their row of the distinct ``fields``): the same
    as :func:`event_rows` without materialising the recognised non-events (only the group carry of
    librdkafka lines looks at them). Columns without a value in the file (e.g. assignment maps) are
    not gathered."""
    gid = _carried_groups(fields, jr, thread)
    keep = ao.numpy_of(pc.not_equal(fields["kind"], "")).astype(bool)[jr]
    if not keep.all():
        jr, hrow = jr[keep], hrow[keep]
        gid = gid.filter(pa.array(keep)) if gid is not None else None
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
    return ev


def _carried_groups(fields: pa.Table, jr: np.ndarray, thread: pa.Array) -> pa.Array | None:
    """The ``group_id`` of every line (``jr``): a line without a group name given its heartbeat
    thread's group, then the librdkafka lines without one the group of the same client instance's
    last line; None when no line changes."""
    gid = None
    if pc.any(pc.starts_with(thread, C.THREAD_PREFIX)).as_py():
        t = with_context_groups(pa.table({"group_id": ao.take(fields["group_id"].combine_chunks(), jr)}), thread,
                                C.THREAD_GROUP)  # fmt: skip
        gid = t["group_id"].combine_chunks()
    other = ao.numpy_of(fields["_other"]).astype(bool)[jr]
    if not other.any():
        return gid
    if gid is None:
        gid = ao.take(fields["group_id"].combine_chunks(), jr)
    if not pc.any(pc.and_(pc.is_null(gid), pa.array(other))).as_py():
        return gid
    return carry_groups(gid, other, thread)


#: catch-all dialects (``(?P<reason>.*`` ...): message-first prefers any specific dialect to them
_CATCHALL = np.array([DM.is_catchall(d) for d in D.DIALECTS], dtype=bool)


def _message_first(
    umsg: pa.Array, ulog: pa.Array, mt: pa.Table, unmatched: np.ndarray, provisional: np.ndarray
) -> pa.Table:
    """Second look at the distinct messages no dialect matched (``unmatched``, updated in place):
    the message may start later in the text (extra layout fields, a viewer's columns) or carry junk
    at its end. The dialect table runs on the candidates of :func:`G.message_candidates`; per
    message the first candidate a specific dialect matches wins (a catch-all only when no specific
    one does). The winner's rows join ``mt`` with its text in ``_msg`` (the event's message). A
    ``provisional`` message (a catch-all matched it where it was thought to start) is replaced only
    by a specific dialect."""
    idx = np.nonzero(unmatched | provisional)[0]
    cands, owner_l, rank_l = G.message_candidates(ao.take(umsg, idx).cast(pa.string()).to_pylist())
    if not cands:
        return mt
    owner = np.array(owner_l, np.int64)
    m2, _ = _match_dialects(pa.array(cands, pa.string()), ao.take(ulog, idx[owner]))
    if not len(m2):
        return mt
    crow = ao.numpy_of(m2["_row"])
    own = owner[crow]
    key = np.array(rank_l, np.int64)[crow] + _CATCHALL[ao.numpy_of(m2["_dialect"])] * (1 << 20)
    order = np.lexsort((key, own))
    first = order[np.r_[True, own[order][1:] != own[order][:-1]]]
    # (a provisional message keeps its catch-all match unless a specific dialect wins)
    first = first[~(provisional[idx[own[first]]] & _CATCHALL[ao.numpy_of(m2["_dialect"])[first]])]
    if not len(first):
        return mt
    best = m2.take(pa.array(first, pa.int64()))
    rows = idx[own[first]]
    unmatched[rows] = False
    replaced = provisional[rows]
    if replaced.any():
        drop = np.isin(ao.numpy_of(mt["_row"]), rows[replaced])
        mt = mt.filter(pa.array(~drop))
    best = best.set_column(best.column_names.index("_row"), "_row", pa.array(rows, pa.int64()))
    best = best.append_column("_msg", pa.array([cands[i] for i in crow[first]], pa.string()))
    if "_msg" not in mt.column_names:
        mt = mt.append_column("_msg", pa.nulls(len(mt), pa.string()))
    t = pa.concat_tables([mt, best], promote_options="default")
    return t.take(pc.sort_indices(t["_row"])).combine_chunks()
