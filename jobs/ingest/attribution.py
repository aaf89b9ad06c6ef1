"""Context attribution: a recognised event whose line names no group (Kafka logs some lines while
handling one group's request without naming it) takes the group of the nearest preceding event line of
the same file naming its member / instance id, else of the nearest preceding group line within
:data:`ATTRIBUTION_WINDOW_MS` (same coordinator partition when the Java prefix gives one).
"""

from __future__ import annotations

import bisect
import fnmatch
import os
import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from coordinator_core.history import UNATTRIBUTED_PREFIX
from jobs.ingest import context as C
from jobs.ingest import pyregex as PR
from jobs.ingest.arrowops import extract, mask, numpy_of, take, whole

# ------------------------------------------------------------------------------------ attribution
#: how far back (ms) the time fallback of :func:`attribute_groups` looks for a group line
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


def attribute_groups(ev: pa.Table, msg: pa.Array, ts: np.ndarray) -> tuple[pa.Array, np.ndarray]:
    """Context attribution of events whose line names no group (``ev`` in line order of one file).

    Kafka logs some lines while handling one group's request without naming the group (the static
    "will not trigger a rebalance" line, fenced-instance lines, ``GroupMetadata``/``ClassicGroup``
    leader re-election, the 2.3 static replacement). Such an event takes the ``group_id`` of

    0. its client id when that is a consumer's default ``consumer-<g>-<n>`` and the file names
       group ``g`` (:func:`_client_id_groups`), else
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
    nog = mask(pc.is_null(gid))
    attributed = np.zeros(n, dtype=bool)
    if not nog.any() or nog.all():
        return gid, attributed
    gid, by_client = _client_id_groups(ev, gid, nog)
    if by_client.any():
        nog &= ~by_client
        if not nog.any():
            return gid, by_client
    cands = np.nonzero(nog)[0]
    opart = numpy_of(pc.fill_null(ev["offsets_partition"].combine_chunks().cast(pa.int64()), -1)).astype(np.int64)
    cols = {c: ev[c].combine_chunks() for c in ("member_id", "old_member_id", "group_instance_id")}
    member_ids, inst_ids = _candidate_ids(cols, cands)
    all_ids = sorted(set().union(*member_ids, *inst_ids))
    where = _id_mentions(cols, msg, nog, all_ids)
    cand_groups = _attribute_candidates(gid, cands, np.nonzero(~nog)[0], member_ids, inst_ids, where, opart, ts,
                                        attributed)  # fmt: skip
    if not attributed.any():
        return gid, attributed | by_client
    out = pc.replace_with_mask(gid, pa.array(attributed), pa.array(cand_groups, pa.string()))
    return out, attributed | by_client


def _client_id_groups(ev: pa.Table, gid: pa.Array, nog: np.ndarray) -> tuple[pa.Array, np.ndarray]:
    """Step 0 of :func:`attribute_groups`: an event without a group whose client id is a 2.4+
    consumer's default ``consumer-<g>-<n>`` (:data:`jobs.ingest.context.CLIENT_ID_GROUP`) takes
    ``g`` when a line of the file names group ``g``. Returns the group ids and the rows filled (they
    count as naming their group for the later steps)."""
    none = np.zeros(len(gid), dtype=bool)
    cid = ev["client_id"].combine_chunks()
    if cid.null_count == len(cid):
        return gid, none
    g = extract(cid.cast(pa.string()), C.CLIENT_ID_GROUP).field("g")
    ok = nog & mask(pc.is_in(g, pc.unique(gid.drop_null()).cast(pa.string())))
    if not ok.any():
        return gid, none
    return pc.if_else(pa.array(ok), g.cast(gid.type), gid), ok


def _candidate_ids(cols: dict[str, pa.Array], cands: np.ndarray) -> tuple[list[set[str]], list[set[str]]]:
    """Per group-less candidate: its member ids (``member_id``, ``old_member_id``) and its
    ``group_instance_id`` (as sets, empty when the line names none)."""
    cand_vals = {c: take(a, cands).to_pylist() for c, a in cols.items()}
    member_ids = [
        {v for v in (m, o) if v} for m, o in zip(cand_vals["member_id"], cand_vals["old_member_id"])
    ]
    inst_ids = [{i} if i else set() for i in cand_vals["group_instance_id"]]
    return member_ids, inst_ids


def _id_mentions(
    cols: dict[str, pa.Array], msg: pa.Array, nog: np.ndarray, all_ids: list[str]
) -> dict[str, list[int]]:
    """id -> sorted positions of the rows naming a group that mention it (in an id field or as a
    whole word of the message). One RE2 scan finds the rows; Python's ``re`` lists their ids."""
    where: dict[str, list[int]] = {}
    if not all_ids:
        return where
    ida = pa.array(all_ids, pa.string())
    hit = np.zeros(len(nog), dtype=bool)
    for a in cols.values():
        hit |= mask(pc.is_in(a, ida))
    # whole-word mentions in the message text (ids in bounded alternations)
    alts = ["|".join(re.escape(i) for i in all_ids[c : c + 256]) for c in range(0, len(all_ids), 256)]
    for alt in alts:
        rx = rf"(?:^|{_ID_BOUNDARY})(?:{alt})(?:$|{_ID_BOUNDARY})"
        hit |= mask(PR.match(msg, rx))
    hit &= ~nog
    if not hit.any():
        return where
    hrows = np.nonzero(hit)[0]
    words = [re.compile(rf"(?<![\w.\-])(?:{alt})(?![\w.\-])") for alt in alts]
    texts = take(msg, hrows).to_pylist()
    fields = [take(a, hrows).to_pylist() for a in cols.values()]
    idset = set(all_ids)
    for k, r in enumerate(hrows.tolist()):
        found = {f[k] for f in fields} & idset
        for w in words:
            found.update(w.findall(texts[k] or ""))
        for i in found:
            where.setdefault(i, []).append(r)
    return where


def _attribute_candidates(
    gid: pa.Array,
    cands: np.ndarray,
    named: np.ndarray,
    member_ids: list[set[str]],
    inst_ids: list[set[str]],
    where: dict[str, list[int]],
    opart: np.ndarray,
    ts: np.ndarray,
    attributed: np.ndarray,
) -> list[str]:
    """The group of each candidate (in line order) that its ids or a recent group line give; marks
    it in ``attributed`` and returns the groups found, in row order. An attributed candidate then
    counts as naming its ids for the later ones (``where`` is updated)."""
    named_by_part: dict[int, np.ndarray] = {}
    cand_groups: list[str] = []
    resolved: dict[int, str] = {}  # candidates attributed so far (their group for chained lines)
    for k, p in enumerate(cands.tolist()):
        src = _id_source(member_ids[k], inst_ids[k], where, p, opart)
        if src < 0 and ts[p] >= 0:
            src = _recent_group_line(named, named_by_part, p, opart, ts)
        if src < 0:
            continue
        g = resolved[src] if src in resolved else gid[src].as_py()
        resolved[p] = g
        attributed[p] = True
        cand_groups.append(g)
        for i in member_ids[k] | inst_ids[k]:
            bisect.insort(where.setdefault(i, []), p)
    return cand_groups


def _id_source(
    member_ids: set[str], inst_ids: set[str], where: dict[str, list[int]], p: int, opart: np.ndarray
) -> int:
    """The nearest line before ``p`` mentioning one of its member ids, else one of its instance ids
    (on its coordinator partition), or -1."""
    src = -1
    for ids in (member_ids, inst_ids):
        for i in ids:
            src = max(src, _nearest_before(where.get(i, []), p, opart))
        if src >= 0:
            break
    return src


def _recent_group_line(
    named: np.ndarray, named_by_part: dict[int, np.ndarray], p: int, opart: np.ndarray, ts: np.ndarray
) -> int:
    """The nearest line before ``p`` naming a group (on its coordinator partition, when its prefix
    names one), if at most :data:`ATTRIBUTION_WINDOW_MS` apart, else -1. ``named_by_part`` caches
    the named rows of each partition."""
    pool = named
    if opart[p] >= 0:
        if opart[p] not in named_by_part:
            named_by_part[opart[p]] = named[opart[named] == opart[p]]
        pool = named_by_part[opart[p]]
    j = int(np.searchsorted(pool, p)) - 1
    if j >= 0 and ts[pool[j]] >= 0 and abs(int(ts[p]) - int(ts[pool[j]])) <= ATTRIBUTION_WINDOW_MS:
        return int(pool[j])
    return -1


def file_group(ev: pa.Table, sha: str | None) -> pa.Table:
    """A client line that names no group after attribution: the file's one named group, else the
    file's unnamed group ``unnamed-<sha8>`` (never merged across files); broker lines stay without
    (``group_unknown``). See ``reference_events._file_group``."""
    gid = whole(ev["group_id"])
    fill = mask(pc.and_(pc.is_null(gid), pc.not_equal(whole(ev["side"]), "broker")))
    if not fill.any():
        return ev
    named = pc.unique(gid.drop_null()).to_pylist()
    group = named[0] if len(named) == 1 else f"{UNATTRIBUTED_PREFIX}{(sha or '')[:8]}"
    gid = pc.if_else(pa.array(fill), pa.scalar(group, gid.type), gid)
    return ev.set_column(ev.column_names.index("group_id"), "group_id", gid)


# ------------------------------------------------------------------------------------ the input's group
_GLOB_CHARS = frozenset("*?[")


def input_groups(specs) -> tuple[tuple[str, str], ...]:
    """(path pattern, group) of each input that names its files' group (:attr:`InputSpec.group
    <jobs.ingest.model.InputSpec>`): a file is the input's when its ``source_file`` is the input's
    path, is under it (a directory) or matches it (a glob; ``*`` crosses directories). Local paths are
    made absolute, as the job names local files."""
    out: list[tuple[str, str]] = []
    for spec in specs:
        group = getattr(spec, "group", None)
        if not group:
            continue
        path = spec.path[len("file://") :] if spec.path.startswith("file://") else spec.path
        if "://" not in path:
            path = os.path.abspath(path)
        out.append((path, group))
        if not _GLOB_CHARS & set(path):
            out.append((path.rstrip("/") + "/*", group))
    return tuple(out)


def input_group(ev: pa.Table, source_file: str, groups: tuple[tuple[str, str], ...]) -> pa.Table:
    """The events of one file with the group its input names (:func:`input_groups`) in place of the
    file's unattributed group (:func:`file_group`'s ``unnamed-<sha8>``): only events whose line names
    no group and whose file's context gives none; a line that names a group keeps it."""
    if not groups or not ev.num_rows:
        return ev
    group = next((g for pattern, g in groups if fnmatch.fnmatchcase(source_file, pattern)), None)
    if group is None:
        return ev
    gid = whole(ev["group_id"])
    unnamed = pc.fill_null(pc.starts_with(gid, UNATTRIBUTED_PREFIX), False)
    if not mask(unnamed).any():
        return ev
    gid = pc.if_else(unnamed, pa.scalar(group, gid.type), gid)
    return ev.set_column(ev.column_names.index("group_id"), "group_id", gid)
