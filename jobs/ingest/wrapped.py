"""Hard-wrapped entries (a mailing-list paste, a terminal box): a group line no dialect matched is
joined with the lines that follow it when those are no log entry of their own, and read again."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import arrowops as ao
from jobs.ingest import general as G
from jobs.ingest import layouts as L
from jobs.ingest import pyregex as PR
from jobs.ingest.messages import candidate_events

#: a hard-wrapped entry (a mailing-list paste, a terminal box) continues on at most this many lines
WRAP_MAX = 3


def wrapped_lines(
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
    head_rows = ao.numpy_of(head_t["_row"])
    joinable = _joinable_lines(head_t, layout_col, cls, qreason, ev)
    if is_cont.any():  # (an indented continuation: the rest of a message printed over lines)
        ic = np.nonzero(is_cont)[0]
        joinable[ic[ao.mask(PR.match(ao.take(text, ic), L.INDENTED_TEXT))]] = True
    cand_of = dict(zip(head_rows[cpos].tolist(), range(len(cpos))))
    un = np.nonzero(unmatched)[0]
    rows = head_rows[cpos[un]]
    orphan_of = _following_lines(rows, _two_line_heads(ao.take(layout_col, cpos[un])), joinable)
    if not any(orphan_of):
        return ev, message
    orphans = sorted({k for o in orphan_of for k in o})
    texts = dict(zip(orphans, ao.take(text, np.array(orphans)).to_pylist()))
    msgs = ao.take(message, cpos[un]).to_pylist()
    found: list[np.ndarray] = [cpos[~unmatched]]  # the candidates with an event (or a recognised non-event)
    open_ = np.array([bool(o) for o in orphan_of])
    absorbed: set[int] = set()
    for lines in range(1, WRAP_MAX + 1):
        for sep in (" ", ""):
            todo = np.nonzero(open_ & np.array([len(o) >= lines for o in orphan_of]))[0]
            if not len(todo):
                continue
            joined = _joined_messages(msgs, texts, orphan_of, todo, lines, sep)
            _, un2 = _candidate_events_of_joined(message, cpos[un[todo]], joined, head_t, layout_col)
            hit = todo[~un2]
            if not len(hit):
                continue
            kept, rest = _first_joins(hit, rows, orphan_of, lines, absorbed)
            _as_continuations(rest, cand_of, unmatched, is_cont, cls, qreason, qdetail)
            open_[kept] = False
            unmatched[un[kept]] = False
            open_ &= ~np.isin(rows, list(absorbed))  # (absorbed lines have no entry of their own)
            if not kept:
                continue
            found.append(cpos[un[kept]])
            joined_of = dict(zip(todo.tolist(), joined))
            message = _replace_messages(message, cpos[un[kept]], [joined_of[i] for i in kept])
    if len(found) == 1:
        return ev, message
    return _events_in_line_order(found, message, head_t, layout_col), message


def _two_line_heads(lay: pa.Array) -> np.ndarray:
    """The heads whose layout writes the message on the next line (:data:`L.NEXT_LINE`)."""
    two = np.zeros(len(lay), dtype=bool)
    for name in L.NEXT_LINE:
        two |= ao.mask(pc.ends_with(lay, name))
    return two


def _events_in_line_order(found: list[np.ndarray], message: pa.Array, head_t: pa.Table, layout_col: pa.Array):
    """The events again, of all the lines in order: a librdkafka line's group carry also sees the
    joined lines (a group a joined line names is the client's last one for the lines after it)."""
    pos = np.unique(np.concatenate(found))
    return candidate_events(pos, ao.numpy_of(pc.dictionary_encode(ao.take(message, pos)).indices), message, head_t,
                             layout_col)[0]  # fmt: skip


def _joinable_lines(
    head_t: pa.Table, layout_col: pa.Array, cls: np.ndarray, qreason: np.ndarray, ev: pa.Table | None
) -> np.ndarray:
    """Lines that can be the wrapped rest of the line before them: no entry of their own (no
    layout; or read by the general reader without a timestamp or level) and not matched by a
    dialect."""
    head_rows = ao.numpy_of(head_t["_row"])
    bare = ao.mask(pc.and_(pc.equal(layout_col, "general"),
                         pc.and_(pc.is_null(head_t["ts"].combine_chunks()), pc.is_null(head_t["level"].combine_chunks()))))  # fmt: skip
    joinable = (cls == 3) & (qreason == "unparsable_layout")
    joinable[head_rows[bare]] = True
    if ev is not None and len(ev):
        joinable[head_rows[ao.numpy_of(ev["_row"])]] = False
    return joinable


def _following_lines(rows: np.ndarray, two: np.ndarray, joinable: np.ndarray) -> list[list[int]]:
    """Per unmatched line ``rows``: the up to :data:`WRAP_MAX` joinable lines right after it (after
    its message line for a two-line entry, ``two``: :data:`jobs.ingest.layouts.NEXT_LINE`)."""
    n = len(joinable)
    orphan_of: list[list[int]] = []
    for r, j in zip(rows, two):
        nxt: list[int] = []
        k = int(r) + (2 if j else 1)
        while k < n and len(nxt) < WRAP_MAX and joinable[k]:
            nxt.append(k)
            k += 1
        orphan_of.append(nxt)
    return orphan_of


def _joined_messages(
    msgs: list[str], texts: dict[int, str], orphan_of: list[list[int]], todo: np.ndarray, lines: int, sep: str
) -> list[str]:
    """The messages of the candidates ``todo`` joined with their ``lines`` following lines by
    ``sep`` (each line trimmed; a logger name the layout left at the end is cut)."""
    return [
        G.cut_logger_tail(msgs[i].rstrip() + sep + sep.join(texts[k].strip() for k in orphan_of[i][:lines]))
        for i in todo
    ]


def _replace_messages(message: pa.Array, pos: np.ndarray, values: list[str]) -> pa.Array:
    """``message`` with the rows ``pos`` (increasing) replaced by ``values``."""
    mask = np.zeros(len(message), dtype=bool)
    mask[pos] = True
    return pc.replace_with_mask(message, pa.array(mask), pa.array(values, message.type))


def _candidate_events_of_joined(
    message: pa.Array, pos: np.ndarray, joined: list[str], head_t: pa.Table, layout_col: pa.Array
) -> tuple[pa.Table | None, np.ndarray]:
    """:func:`candidate_events` of the heads ``pos`` with their messages replaced by the
    ``joined`` texts."""
    msg2 = _replace_messages(message, pos, joined)
    codes = ao.numpy_of(pc.dictionary_encode(ao.take(msg2, pos)).indices)
    return candidate_events(pos, codes, msg2, head_t, layout_col)


def _first_joins(
    hit: np.ndarray, rows: np.ndarray, orphan_of: list[list[int]], lines: int, absorbed: set[int]
) -> tuple[list[int], list[int]]:
    """The joins of ``lines`` following lines a dialect matched (``hit``) that stand, in line order,
    and the lines they absorb (added to ``absorbed``): a line already absorbed as the wrapped rest
    of an earlier one has no entry of its own."""
    kept: list[int] = []
    rest: list[int] = []
    for i in sorted(hit.tolist(), key=lambda i: rows[i]):
        if int(rows[i]) in absorbed:
            continue
        kept.append(i)
        for k in orphan_of[i][:lines]:
            absorbed.add(k)
            rest.append(k)
    return kept, rest


def _as_continuations(
    rest: list[int],
    cand_of: dict[int, int],
    unmatched: np.ndarray,
    is_cont: np.ndarray,
    cls: np.ndarray,
    qreason: np.ndarray,
    qdetail: np.ndarray,
) -> None:
    """The absorbed lines ``rest`` become continuations (not quarantined; a bare line that was a
    candidate of its own is no longer unmatched)."""
    for k in rest:
        is_cont[k], cls[k], qreason[k], qdetail[k] = True, 0, None, None
        if k in cand_of:
            unmatched[cand_of[k]] = False
