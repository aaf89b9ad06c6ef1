"""Replay corpora as rows per group, in the replay's total order: the bundled sample
(``jobs/samples/logs``), the real-log excerpts (``tests/fixtures/real``) and small cuts of the core
benchmark's synthetic streams (heartbeat-dominated, rebalance storm). Shared by the fast-path
equivalence test and the v1 snapshot fixtures."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from coordinator_core.events import EVENT_FIELDS, SIDE_ORDER

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "jobs" / "samples" / "logs"
REAL = ROOT / "tests" / "fixtures" / "real"


def _by_group(files: list[tuple[Path, str, str]]) -> dict[str, list[tuple]]:
    from jobs.ingest.parse import parse_bytes

    rows = []
    for path, name, cluster in files:
        events, _, _ = parse_bytes(path.read_bytes(), name, cluster)
        for r in events.to_pylist():
            r["ts"] = r["ts_ms"]
            rows.append(r)
    rows.sort(
        key=lambda r: (
            r["ts"] if r["ts"] is not None else -1,
            SIDE_ORDER.get(r["side"], 9),
            r["source_file"] or "",
            r["line_no"] or 0,
        )
    )
    out: dict[str, list[tuple]] = {}
    for r in rows:
        if r["group_id"]:
            out.setdefault(r["group_id"], []).append(tuple(r.get(f) for f in EVENT_FIELDS))
    return out


def sample_groups() -> Iterator[tuple[str, str, list[tuple]]]:
    files = [
        (p, str(p.relative_to(SAMPLE)), p.relative_to(SAMPLE).parts[0]) for p in sorted(SAMPLE.rglob("*"))
    ]
    for g, rows in _by_group([f for f in files if f[0].is_file()]).items():
        yield f"sample/{g}", g, rows


def real_groups() -> Iterator[tuple[str, str, list[tuple]]]:
    for p in sorted(REAL.glob("*.log")):
        for g, rows in _by_group([(p, p.name, "real")]).items():
            yield f"real/{p.stem}/{g}", g, rows


def bench_groups(n_rows: int = 6000) -> Iterator[tuple[str, str, list[tuple]]]:
    import sys

    sys.path.insert(0, str(ROOT))
    from benchmarks import bench_core

    yield "bench/heartbeat", bench_core.G, bench_core.heartbeat_stream(n_rows, n_members=6)
    yield "bench/storm", bench_core.G, bench_core.storm_stream(n_rows // 4, n_members=4)


def all_groups() -> Iterator[tuple[str, str, list[tuple]]]:
    yield from sample_groups()
    yield from real_groups()
    yield from bench_groups()
