"""Shared pieces of the job tests: running the job into a directory, comparing tables."""

from __future__ import annotations

import datetime as dt
import json
import os

from jobs.config import JobConfig, OutputConfig, RunConfig, StormsConfig

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = os.path.join(REPO, "jobs", "samples", "logs")
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
SAMPLE_INPUTS = [(os.path.join(SAMPLES, "prod-eu"), "prod-eu"), (os.path.join(SAMPLES, "prod-us"), "prod-us")]

#: tables whose rows must not depend on how the input was split into runs / which engine ran
REPLAY_TABLES = ("group_transitions", "rebalances", "member_sessions", "assignments", "anomalies",
                 "partition_skew", "storms", "rebalance_frequency")  # fmt: skip


def job_config(path: str, mode: str = "batch", fmt: str = "delta") -> JobConfig:
    return JobConfig().replace(
        output=OutputConfig(path=path, format=fmt, writer="auto"),
        run=RunConfig(mode=mode, progress=False),
        storms=StormsConfig(min_rebalances=3, window_minutes=10),
    )


def rows(lakehouse: str, name: str, drop: tuple[str, ...] = ()) -> list[str]:
    """A table as a sorted list of JSON rows (order-free comparison), without ``drop`` columns."""
    from jobs.sink import read_table

    pdf = read_table(None, lakehouse, name)
    out = []
    for rec in pdf.to_dict(orient="records"):
        clean = {}
        for k, v in rec.items():
            if k in drop:
                continue
            if hasattr(v, "tolist"):
                v = v.tolist()
            if isinstance(v, float) and v != v:
                v = None
            if v is not None and type(v).__name__ == "NaTType":
                v = None
            if isinstance(v, dt.datetime):
                v = v.isoformat()
            clean[k] = v
        out.append(json.dumps(clean, sort_keys=True, default=str))
    return sorted(out)


def split_file_lines(src_root: str, dst_a: str, dst_b: str, cut: str) -> None:
    """Copy every log under ``src_root`` into two trees: lines with a timestamp before ``cut``
    (``HH:MM:SS``) into ``dst_a``, the rest into ``dst_b`` (same relative paths)."""
    import re

    stamp = re.compile(r"(\d{2}:\d{2}:\d{2})[.,]\d{3}")
    for d, _, files in os.walk(src_root):
        for f in files:
            src = os.path.join(d, f)
            rel = os.path.relpath(src, src_root)
            a_lines, b_lines = [], []
            with open(src, encoding="utf-8") as fh:
                for line in fh:
                    m = stamp.search(line)
                    (a_lines if m and m.group(1) < cut else b_lines).append(line)
            for root, lines in ((dst_a, a_lines), (dst_b, b_lines)):
                if lines:
                    os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
                    with open(os.path.join(root, rel), "w", encoding="utf-8") as fh:
                        fh.writelines(lines)
