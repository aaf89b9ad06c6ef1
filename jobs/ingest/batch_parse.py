"""Several small files of one ingestion task parsed together: the speed trick beside the plain
per-file parse (:func:`jobs.ingest.resume.parse_file`, the reference, tested equal in
``tests/ingest/test_batch_parse.py``).

A small file's parse is mostly fixed cost (tens of Arrow calls whatever its size). A file's parse runs
in phases: :func:`~jobs.ingest.resume.begin_file` (opened, earlier reads, lines, prefixes: a
:class:`~jobs.ingest.parse.FileText`), its layout order, :meth:`~jobs.ingest.parse.FileText.read` (heads,
continuations, times and dates, the distinct (message, logger, layout) triples of its group candidates:
a :class:`~jobs.ingest.parse.FileParse`), the dialect table and event fields of those triples
(:meth:`~jobs.ingest.parse.FileParse.match`), :meth:`~jobs.ingest.parse.FileParse.finish` (the spread
back to the lines, hard-wrapped lines, context and group carries, attribution, continuation and key
blocks, accounting, the audit row). Here every phase runs per file as it does alone, except two that
run once for the whole batch: the layout orders (:func:`layout_orders`: one regex call per layout over
the sample lines of all the files) and the matching of the distinct triples of all the files
(:func:`match_together`: a pure function of each triple; each file takes the rows of its own).

Files up to :data:`SMALL_FILE_BYTES` of text are batched, up to :data:`BATCH_BYTES` of text at once
(the memory bound: a batch's files are held read until it is finished); bigger files are parsed alone
as they come, after the batch before them, so that results come back in input order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np
import pyarrow as pa

from jobs.ingest import arrowops as ao
from jobs.ingest import layouts as L
from jobs.ingest import pyregex as PR
from jobs.ingest.layout_sample import FIRST_LOOK, ORDER_SAMPLE, FirstBytes
from jobs.ingest.messages import Triples, distinct_events
from jobs.ingest.model import IngestSettings
from jobs.ingest.parse import FileText, ParseResult
from jobs.ingest.resume import EarlierRead, FileRead, begin_file, candidates_for, parse_file

#: whether :func:`parse_items` batches small files (tests switch it off: the per-file path is the reference)
ENABLED = True
#: files of at most this many bytes of text are parsed in batches
SMALL_FILE_BYTES = 4 << 20
#: the text bytes of one batch at most
BATCH_BYTES = 16 << 20

#: (content, path, cluster, modification time in epoch ms); content None: the file could not be read
Item = tuple[bytes | None, str, str, int | None]
_NO_TRIPLES = (None, np.zeros(0, dtype=bool))


def text_size(data: bytes, path: str) -> int:
    """The bytes a file's text will have: its size, for gzip the size its trailer gives (ISIZE,
    modulo 4 GiB: never less than the compressed size)."""
    if (data[:2] == b"\x1f\x8b" or path.endswith(".gz")) and len(data) >= 18:
        return max(len(data), int.from_bytes(data[-4:], "little"))
    return len(data)


def parse_items(
    items: Iterable[Item], settings: IngestSettings, run_id: str | None,
    earlier: dict[str, list[EarlierRead]] | None = None,
) -> Iterator[tuple[Item, ParseResult | None]]:  # fmt: skip
    """Each item with its :func:`~jobs.ingest.resume.parse_file` result (None for an unreadable
    file), in input order: small files batched (:data:`ENABLED`), each big file alone (after the
    batch of the small files before it)."""
    batch: list[Item] = []
    size = 0
    for item in items:
        data, path, cluster, mtime_ms = item
        if data is None:
            yield from _flushed(batch, settings, run_id, earlier)
            batch, size = [], 0
            yield item, None
            continue
        n = text_size(data, path)
        if not ENABLED or n > SMALL_FILE_BYTES:
            yield from _flushed(batch, settings, run_id, earlier)
            batch, size = [], 0
            yield item, parse_file(data, path, cluster, settings, run_id, candidates_for(earlier, path), mtime_ms)
            continue
        if batch and size + n > BATCH_BYTES:
            yield from _flushed(batch, settings, run_id, earlier)
            batch, size = [], 0
        batch.append(item)
        size += n
    yield from _flushed(batch, settings, run_id, earlier)


def _flushed(batch: list[Item], settings: IngestSettings, run_id: str | None,
             earlier: dict[str, list[EarlierRead]] | None) -> Iterator[tuple[Item, ParseResult]]:  # fmt: skip
    if batch:
        reads = [begin_file(d or b"", p, c, settings, run_id, candidates_for(earlier, p), m) for d, p, c, m in batch]
        yield from zip(batch, parse_batch(reads))


def parse_batch(reads: list[FileRead]) -> list[ParseResult]:
    """The results of files begun with :func:`~jobs.ingest.resume.begin_file`: the layout orders of
    all of them at once (:func:`layout_orders`), each file's heads read, the dialect matching of all
    their triples at once (:func:`match_together`), then each file finished."""
    texts = [r.begun for r in reads if isinstance(r.begun, FileText)]
    orders = layout_orders([(t.hl.sub, t.hl.fb) for t in texts])
    parses = {id(t): t.read(o) for t, o in zip(texts, orders)}
    live = [(id(p), p.triples) for p in parses.values() if p.triples is not None]
    matched = dict(zip([i for i, _ in live], match_together([t for _, t in live])))
    out = []
    for r in reads:
        b = r.begun
        if isinstance(b, tuple):
            out.append(r.end(b))
            continue
        p = parses[id(b)]
        out.append(r.end(p.finish(*matched.get(id(p), _NO_TRIPLES))))
    return out


def layout_orders(samples: list[tuple[pa.Array, FirstBytes]]) -> list[list[L.Layout]]:
    """:func:`~jobs.ingest.layout_sample.layout_order` of each file's head lines and first bytes, with one
    regex call per layout (two: the first :data:`~jobs.ingest.layout_sample.FIRST_LOOK` lines a layout can start of each file,
    then the rest of the files it has not hit yet) over the sample lines of all the files."""
    if not samples:
        return []
    subs = [sub.slice(0, ORDER_SAMPLE) for sub, _ in samples]
    text = pa.concat_arrays([s.cast(pa.large_string()) for s in subs])
    fb = FirstBytes(None, np.concatenate([f.codes[:ORDER_SAMPLE] for _, f in samples]))
    file_of = np.repeat(np.arange(len(samples)), [len(s) for s in subs])
    hit = np.zeros((len(samples), len(L.LAYOUTS)), dtype=bool)
    for k, lay in enumerate(L.LAYOUTS):
        idx = np.nonzero(fb.possible(L.FIRST_CHARS.get(lay.id, L.ALL_CHARS)))[0]
        if not len(idx):
            continue
        owner = file_of[idx]
        first_of_file = np.searchsorted(owner, owner)  # (idx ascending: a file's lines are together)
        early = np.arange(len(idx)) - first_of_file < FIRST_LOOK
        _hits(text, idx, owner, early, lay.regex, hit[:, k])
        _hits(text, idx, owner, ~early & ~hit[owner, k], lay.regex, hit[:, k])
    return [[lay for lay, h in zip(L.LAYOUTS, row) if h] + [lay for lay, h in zip(L.LAYOUTS, row) if not h]
            for row in hit]  # fmt: skip


def _hits(text: pa.Array, idx: np.ndarray, owner: np.ndarray, part: np.ndarray, regex: str, hit: np.ndarray) -> None:
    """Marks in ``hit`` (per file, in place) the files of which a line ``idx[part]`` matches ``regex``."""
    if part.any():
        m = ao.mask(PR.match(ao.take(text, idx[part]), regex))
        hit[owner[part][m]] = True


def match_together(triples: list[Triples]) -> list[tuple[pa.Table | None, np.ndarray]]:
    """:func:`~jobs.ingest.messages.distinct_events` of each file's triples, computed once over the
    distinct triples of all of them: each file gets the rows of its own triples (in their order,
    ``_row`` its own triple index), exactly what it gets alone (the function is pure per triple)."""
    if len(triples) <= 1:
        return [distinct_events(t.umsg, t.ulog, t.ulayout) for t in triples]
    msg, log, lay = (pa.concat_arrays([getattr(t, c).cast(pa.string()) for t in triples])
                     for c in ("umsg", "ulog", "ulayout"))  # fmt: skip
    inv, rep = ao.distinct_rows(ao.codes(msg), ao.codes(log), ao.codes(lay))
    fields, unmatched = distinct_events(ao.take(msg, rep), ao.take(log, rep), ao.take(lay, rep))
    pos = np.full(len(rep), -1, dtype=np.int64)
    if fields is not None:
        pos[ao.numpy_of(fields["_row"])] = np.arange(len(fields))
    out: list[tuple[pa.Table | None, np.ndarray]] = []
    start = 0
    for t in triples:
        g = inv[start : start + len(t.umsg)]
        start += len(t.umsg)
        own = unmatched[g]
        mine = np.nonzero(~own)[0]
        if fields is None or not len(mine):
            out.append((None, own))
            continue
        sub = fields.take(pa.array(pos[g[mine]], pa.int64()))
        out.append((sub.set_column(sub.column_names.index("_row"), "_row", pa.array(mine, pa.int64())), own))
    return out
