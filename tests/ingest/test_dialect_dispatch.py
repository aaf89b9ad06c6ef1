"""The per-message dialect dispatcher (:mod:`jobs.ingest.dialect_dispatch`) gives exactly the
column form (:func:`jobs.ingest.messages.match_messages_by_column`, the reference): the matches
table (``Table.equals``: columns, their order and types) and the unmatched mask, on every
dialect's example with and without context prefixes and loggers, on mixed-up bodies, and on whole
fixture files (events, quarantine, audit)."""

from __future__ import annotations

import glob
import os

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobs.ingest import dialect_dispatch as DDP
from jobs.ingest import dialects as D
from jobs.ingest import messages as MS
from jobs.ingest.parse import parse_bytes

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_PREFIXES = ["", "[Consumer clientId=c-1, groupId=g1] ", "[Consumer instanceId=i-1, clientId=c, groupId=null] ",
             "[GroupCoordinator 3]: ", "[GroupCoordinator id=1 topic=__consumer_offsets partition=7] ",
             "[GroupMetadataManager brokerId=2] ", "[thrd:main]: ", "[req-1|u] [Consumer clientId=c, groupId=g] ",
             "[Worker clientId=w, groupId=connect] ", "[Producer clientId=p, groupId=g] "]  # fmt: skip
_LOGGERS = ["", "kafka.coordinator", "kafka.coordinator.consumer", "CGRP", "HEARTBEAT",
            "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator", "sarama", "x"]  # fmt: skip


def _both(msgs: list[str], loggers: list[str]) -> None:
    message, logger = pa.array(msgs, pa.string()), pa.array(loggers, pa.string())
    td = DDP.table_dispatch()
    assert td is not None
    got_t, got_u = DDP.match_messages(td, message, logger)  # type: ignore[misc]
    want_t, want_u = MS.match_messages_by_column(message, logger)
    assert got_u.tolist() == want_u.tolist()
    assert got_t.schema == want_t.schema
    assert got_t.equals(want_t), (got_t.to_pylist()[:3], want_t.to_pylist()[:3])


def test_every_dialect_example_with_prefixes_and_loggers() -> None:
    msgs = [pre + d.example for pre in _PREFIXES for d in D.DIALECTS]
    _both(msgs, [_LOGGERS[i % len(_LOGGERS)] for i in range(len(msgs))])


def test_empty_and_unmatched_messages() -> None:
    _both([], [])
    _both(["", "nothing here", "[Consumer clientId=c, groupId=g] nothing"], ["", "x", "kafka.coordinator"])


_WORDS = st.sampled_from(["Member", "group", "Group", "[GroupId", "generation", "1", "-", "in", "the", ":", "]",
                          "Some(a)", "null", "[a-0, b-1]", "(reason:", "Heartbeat", "consumer-1-uuid", "joins"])  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_PREFIXES),
                          st.one_of(st.sampled_from([d.example for d in D.DIALECTS]),
                                    st.lists(_WORDS, max_size=10).map(" ".join)),
                          st.integers(0, 40), st.sampled_from(_LOGGERS)), min_size=1, max_size=12))  # fmt: skip
def test_mixed_bodies(rows: list[tuple[str, str, int, str]]) -> None:
    """Examples cut short or run into other words, behind any prefix, under any logger."""
    msgs = [p + (e[:-cut] if cut and cut < len(e) else e) for p, e, cut, _ in rows]
    _both(msgs, [lg for *_, lg in rows])


_FILES = sorted(
    f
    for d in ("real", "clients")
    for f in glob.glob(os.path.join(ROOT, "tests/fixtures", d, "**", "*"), recursive=True)
    if f.endswith((".log", ".gz"))
)


@pytest.mark.parametrize("path", _FILES[::8], ids=os.path.basename)
def test_whole_files_equal(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with open(path, "rb") as fh:
        data = fh.read()
    got = parse_bytes(data, os.path.basename(path))
    monkeypatch.setattr(MS, "FAST_DISPATCH", False)
    want = parse_bytes(data, os.path.basename(path))
    assert got[0].equals(want[0]) and got[1].equals(want[1]) and got[2] == want[2]
    assert np.all(np.array(got[0].schema.names) == np.array(want[0].schema.names))
