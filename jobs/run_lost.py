"""What a run could not read, for its summary (:class:`jobs.pipeline.RunSummary`): every file from
which nothing was read, the quarantine reasons with one example line each, the files of an unknown
layout. From the run's audit rows, and one small aggregate of its quarantine partition."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
from pyspark.sql import functions as F

from jobs.report import console


def what_was_lost(summary: Any, audits: Sequence[dict[str, Any]]) -> None:
    """Fill the summary's account of what was not read from the run's audit rows: every file from
    which nothing was read (an error, or not one event), the quarantine reasons, the unknown layouts."""
    summary.files_not_read = sorted(
        [(a["source_file"], a["error"]) for a in audits if a.get("error")]
        + [(a["source_file"], console.nothing_read_why(a)) for a in audits if console.nothing_read(a)]
    )
    reasons: dict[str, int] = {}
    unreadable = []
    for a in audits:
        for r, n in (a.get("quarantine_reasons") or {}).items():
            reasons[r] = reasons.get(r, 0) + int(n)
        n_un = int((a.get("quarantine_reasons") or {}).get("unparsable_layout", 0))
        if n_un and a.get("unreadable_example"):
            unreadable.append((a["source_file"], n_un, a["unreadable_example"]))
    summary.quarantine_reasons = reasons
    dated: dict[str, int] = {}
    for a in audits:
        for r, n in (a.get("dated_from") or {}).items():
            dated[r] = dated.get(r, 0) + int(n)
    summary.dated_from = dated
    summary.unreadable = sorted(unreadable, key=lambda u: (-u[1], u[0]))[:3]


def quarantine_examples(sink: Any, run_id: str) -> dict[str, tuple[str, int | None, str | None]]:
    """One quarantined line of the run per reason (the first by file and line): read with pyarrow
    on the driver where the sink lists the partition's files (:func:`quarantine_examples_arrow`),
    else one small Spark aggregate (:func:`quarantine_examples_spark`, the plain way)."""
    files = sink.partition_files("quarantine", run_id)
    if files is None:
        return quarantine_examples_spark(sink, run_id)
    return quarantine_examples_arrow(files)


def quarantine_examples_spark(sink: Any, run_id: str) -> dict[str, tuple[str, int | None, str | None]]:
    """:func:`quarantine_examples` as one small Spark aggregate of the run's quarantine partition."""
    q = sink.read_partition("quarantine", run_id)
    first = F.min_by(F.struct("source_file", "line_no", "raw"), F.struct("source_file", "line_no"))
    rows = q.groupBy("reason").agg(first.alias("x")).collect()
    return {row.reason: (row.x.source_file, row.x.line_no, row.x.raw) for row in rows}


_EXAMPLE_COLUMNS = ["reason", "source_file", "line_no", "raw"]


def quarantine_examples_arrow(files: Sequence[str]) -> dict[str, tuple[str, int | None, str | None]]:
    """:func:`quarantine_examples_spark` over Parquet files with pyarrow, one batch at a time (the
    run's quarantine can be large): each batch's first row per reason by (file, line), nulls
    first like Spark's ordering, kept when it comes before the one kept so far."""
    best: dict[Any, tuple[Any, ...]] = {}
    if not files:
        return {}
    for batch in ds.dataset(list(files), format="parquet").to_batches(columns=_EXAMPLE_COLUMNS):
        if not batch.num_rows:
            continue
        table = pa.Table.from_batches([batch])
        keys = []  # nulls first: each column after whether it is set
        for name in ("reason", "source_file", "line_no"):
            table = table.append_column(f"_{name}_set", pc.is_valid(table[name]))
            keys += [(f"_{name}_set", "ascending"), (name, "ascending")]
        table = table.take(pc.sort_indices(table, sort_keys=keys)).select(_EXAMPLE_COLUMNS)
        reasons = table["reason"].combine_chunks()
        n = table.num_rows
        new = pc.fill_null(pc.not_equal(reasons.slice(1), reasons.slice(0, n - 1)), False)
        new = pc.or_(new, pc.xor(pc.is_null(reasons.slice(1)), pc.is_null(reasons.slice(0, n - 1))))
        firsts = [0, *(pc.indices_nonzero(new).to_numpy() + 1).tolist()]
        for reason, source_file, line_no, raw in zip(*table.take(firsts).to_pydict().values(), strict=True):
            order = (source_file is not None, source_file, line_no is not None, line_no)
            if reason not in best or order < best[reason][0]:
                best[reason] = (order, source_file, line_no, raw)
    return {reason: (sf, ln, raw) for reason, (_, sf, ln, raw) in best.items()}
