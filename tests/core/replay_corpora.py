"""Replay corpora as rows per group, in the replay's total order: the bundled sample
(``jobs/samples/logs``), the real-log excerpts (``tests/fixtures/real``) and small cuts of the core
benchmark's synthetic streams (heartbeat-dominated, rebalance storm). Shared by the fast-path
equivalence test and the v1 snapshot fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa

from jobs.local import group_rows, parse_files
from jobs.simulate import event_streams

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "jobs" / "samples" / "logs"
REAL = ROOT / "tests" / "fixtures" / "real"


def _by_group(paths: list[Path], root: Path, cluster: str) -> dict[str, list[tuple]]:
    """Each group's rows of one cluster's files (named relative to ``root``) in the job's total
    order: the local pipeline's :func:`jobs.local.group_rows`."""
    return group_rows(parse_files(paths, root, cluster).events)


def sample_groups() -> Iterator[tuple[str, str, list[tuple]]]:
    files = [p for p in sorted(SAMPLE.rglob("*")) if p.is_file()]
    tables = [parse_files([p], SAMPLE, p.relative_to(SAMPLE).parts[0]).events for p in files]
    events = pa.concat_tables([t for t in tables if t.num_rows], promote_options="default")
    for g, rows in group_rows(events).items():
        yield f"sample/{g}", g, rows


def real_groups() -> Iterator[tuple[str, str, list[tuple]]]:
    for p in sorted(REAL.glob("*.log")):
        for g, rows in _by_group([p], REAL, "real").items():
            yield f"real/{p.stem}/{g}", g, rows


def bench_groups(n_rows: int = 6000) -> Iterator[tuple[str, str, list[tuple]]]:
    """Cuts of the core benchmark's synthetic streams (:mod:`jobs.simulate.event_streams`)."""
    yield "bench/heartbeat", event_streams.G, event_streams.heartbeat_stream(n_rows, n_members=6)
    yield "bench/storm", event_streams.G, event_streams.storm_stream(n_rows // 4, n_members=4)


def all_groups() -> Iterator[tuple[str, str, list[tuple]]]:
    yield from sample_groups()
    yield from real_groups()
    yield from bench_groups()
