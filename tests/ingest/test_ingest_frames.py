"""The run's DataFrames are built on first use, once (jobs/ingest/ingest_frames.py)."""

from __future__ import annotations

from typing import Any, cast

from jobs.ingest.ingest_frames import Frames, IngestResult


def test_the_frames_are_built_on_first_use_and_once() -> None:
    calls: list[int] = []
    built = Frames(*cast(Any, ("events-df", "quarantine-df", "audit-df")))

    def frames() -> Frames:
        calls.append(1)
        return built

    res = IngestResult(frames=frames, run_id="r", audit_rows=[{"source_file": "a.log"}], buckets=8)
    assert calls == []  # (a bucketed run reads only these fields)
    assert (res.run_id, res.buckets, res.audit_rows) == ("r", 8, [{"source_file": "a.log"}])
    assert calls == []
    assert (res.events, res.quarantine, res.audit) == ("events-df", "quarantine-df", "audit-df")
    assert calls == [1]
