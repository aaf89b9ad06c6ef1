"""Heads whose parts are glued or wrapped by something other than a known layout, rendered from catalogue
statements in both readers: Python formats with glued fields, svlogd's ``-tt`` stamp on every line, an object
of the record's fields printed before the message (node-rdkafka's ``event.log``), Elixir Logger's pre-1.15
default (``$levelpad``), a log pasted into code behind ``//``."""

from __future__ import annotations

import pytest

from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes
from tests.ingest import framework_layouts as F

READERS = (parse_bytes, read_bytes)
LOGGERLESS_MISSES = F.PYTHON_LOGGER_ONLY


def _case(eco: str, name: str) -> tuple[list[F.Msg], F.Layout]:
    (found,) = [(msgs, lay) for e, n, msgs, lay in F.cases() if (e, n) == (eco, name)]
    return found


@pytest.mark.parametrize(("eco", "name", "misses"), [
    ("python", "brackets-glued", LOGGERLESS_MISSES),
    ("python", "colon-fields", LOGGERLESS_MISSES),
    ("python", "level-first-us-funcname", LOGGERLESS_MISSES),
    ("python", "faust-default", LOGGERLESS_MISSES),
    ("python", "svlogd-tt+basic-asctime", 0),
    ("erlang", "svlogd-tt+otp-multi-line", 0),
    ("erlang", "elixir-default-levelpad", 0),
    ("node", "inspect-object-head", 0),
])  # fmt: skip
def test_each_family_reads_its_ecosystems_statements_in_both_readers(eco: str, name: str, misses: int) -> None:
    msgs, lay = _case(eco, name)
    for reader in READERS:
        ok, bad = F.score(msgs, lay, reader, f"{eco}-{name}")
        assert ok >= len(msgs) - misses, bad[:3]


@pytest.mark.parametrize("line", [
    "//2024/05/01 13:00:00 Successfully joined group g with generation 7",
    "\t\t\t\t// 2024/05/01 13:00:00 Successfully joined group g with generation 7",
])  # fmt: skip
def test_a_log_pasted_into_code_behind_a_comment_keeps_its_time(line: str) -> None:
    for reader in READERS:
        ev = reader((line + "\n").encode(), "c.go", "c", F.SETTINGS, "r")[0].to_pylist()
        assert [(e["kind"], e["group_id"], e["ts_ms"]) for e in ev] == [("joined", "g", 1714568400000)]
