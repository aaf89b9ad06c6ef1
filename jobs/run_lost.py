"""What a run could not read, for its summary (:class:`jobs.pipeline.RunSummary`): every file from
which nothing was read, the quarantine reasons with one example line each, the files of an unknown
layout. From the run's audit rows, and one small aggregate of its quarantine partition."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
    """One quarantined line of the run per reason (the first by file and line): one small aggregate."""
    q = sink.read_partition("quarantine", run_id)
    first = F.min_by(F.struct("source_file", "line_no", "raw"), F.struct("source_file", "line_no"))
    rows = q.groupBy("reason").agg(first.alias("x")).collect()
    return {row.reason: (row.x.source_file, row.x.line_no, row.x.raw) for row in rows}
