"""Helpers shared by the ingestion tests."""

from __future__ import annotations

import json
import os
from typing import Any

from jobs.ingest.parse import parse_bytes

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures")
DIALECT_DIR = os.path.join(FIXTURES, "dialects")


def load_family(name: str) -> list[dict[str, Any]]:
    with open(os.path.join(DIALECT_DIR, f"{name}.jsonl"), encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def families() -> list[str]:
    return sorted(f[:-6] for f in os.listdir(DIALECT_DIR) if f.endswith(".jsonl"))


def parse_text(text: str, name: str = "t.log", **kw):
    return parse_bytes(text.encode("utf-8"), name, **kw)


def rows(table) -> list[dict[str, Any]]:
    return table.to_pylist()


def check_invariant(audit: dict[str, Any]) -> None:
    assert (
        audit["total_lines"]
        == audit["events"] + audit["continuations"] + audit["unrelated"] + audit["quarantined"]
    )
