"""Progress lines of long runs: one line per stage, with counts and elapsed time (stderr)."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO


class Progress:
    """``Progress(enabled).stage("ingest", files=12, events=1234)`` prints
    ``[rebalance-lens   3.2s] ingest: files=12 events=1,234``."""

    def __init__(self, enabled: bool = True, stream: TextIO | None = None):
        self.enabled = enabled
        self.stream = stream
        self.t0 = time.monotonic()
        self.stages: list[tuple[str, float, dict[str, Any]]] = []

    def stage(self, name: str, **counts: Any) -> None:
        elapsed = time.monotonic() - self.t0
        self.stages.append((name, elapsed, counts))
        if not self.enabled:
            return
        parts = " ".join(f"{k}={v:,}" if isinstance(v, int) and not isinstance(v, bool) else f"{k}={v}"
                         for k, v in counts.items())  # fmt: skip
        print(f"[rebalance-lens {elapsed:7.1f}s] {name}{': ' + parts if parts else ''}",
              file=self.stream or sys.stderr, flush=True)  # fmt: skip
