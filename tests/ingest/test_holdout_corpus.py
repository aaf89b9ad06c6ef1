"""The held-out real-log corpora (``tests/fixtures/holdout/``, ``holdout2/`` to ``holdout8/``) are well formed.

Only their structure is checked here: every ``.log`` has a ``.yaml`` with a source and one label per
line, and every label uses the corpus vocabulary (``docs/design/contracts.md`` section 4); no source
is shared between the tuned corpus and a held-out one, nor between two held-out corpora. Nothing
here reads or scores the excerpts: each held-out corpus is scored by hand, once, with
``python -m tests.ingest.real_corpus --corpus tests/fixtures/<corpus>`` (see its README).
"""

from __future__ import annotations

import functools
import itertools
import os
import re

import pytest

from coordinator_core.events import EVENT_FIELDS, EVENT_KINDS
from tests.ingest import real_corpus as RC

HOLDOUT2_DIR = os.path.join(os.path.dirname(RC.HOLDOUT_DIR), "holdout2")
HOLDOUT3_DIR = os.path.join(os.path.dirname(RC.HOLDOUT_DIR), "holdout3")
HOLDOUT4_DIR = os.path.join(os.path.dirname(RC.HOLDOUT_DIR), "holdout4")
HOLDOUT5_DIR = os.path.join(os.path.dirname(RC.HOLDOUT_DIR), "holdout5")
HOLDOUT6_DIR = os.path.join(os.path.dirname(RC.HOLDOUT_DIR), "holdout6")
HOLDOUT7_DIR = os.path.join(os.path.dirname(RC.HOLDOUT_DIR), "holdout7")
HOLDOUT8_DIR = os.path.join(os.path.dirname(RC.HOLDOUT_DIR), "holdout8")
#: corpus directory -> (the excerpt name prefix, the least number of excerpts it holds)
CORPORA = {
    RC.HOLDOUT_DIR: ("h-", 60), HOLDOUT2_DIR: ("h2-", 57), HOLDOUT3_DIR: ("h3-", 47), HOLDOUT4_DIR: ("h4-", 40),
    HOLDOUT5_DIR: ("h5-", 47), HOLDOUT6_DIR: ("h6-", 25),
    HOLDOUT7_DIR: ("h7-", 25), HOLDOUT8_DIR: ("h8-", 25),
}
#: the held-out corpora collected with one excerpt per source
ONE_PER_SOURCE = (HOLDOUT2_DIR, HOLDOUT3_DIR, HOLDOUT4_DIR, HOLDOUT5_DIR, HOLDOUT6_DIR, HOLDOUT7_DIR, HOLDOUT8_DIR)
REQUIRED = ("source", "title", "date", "found_with", "writer", "software", "layout", "layout_tag", "notes", "lines")
WRITERS = {"broker", "client", "connect", "streams", "spring", "other-client"}
NON_EVENTS = {"unrelated", "continuation", "quarantine"}
#: label keys: the event kind, the ``events`` columns a line can state, ``reason~`` (a substring)
FACT_KEYS = {"event", "reason~"} | (set(EVENT_FIELDS) - {"kind", "side", "source_file", "line_no"})


def _logs(corpus: str) -> list[str]:
    return sorted(f[:-4] for f in os.listdir(corpus) if f.endswith(".log")) if os.path.isdir(corpus) else []


@functools.cache
def _sources(corpus: str) -> tuple[str, ...]:
    return tuple(str(RC.load(n, corpus)[0]["source"]) for n in _logs(corpus))


@functools.cache
def _tuned_sources() -> frozenset[str]:
    return frozenset(str(RC.load(n)[0]["source"]) for n in RC.excerpts())


EXCERPTS = [(corpus, name) for corpus in CORPORA for name in _logs(corpus)]


@pytest.mark.parametrize("corpus", list(CORPORA), ids=os.path.basename)
def test_holdout_has_its_excerpts(corpus: str) -> None:
    prefix, least = CORPORA[corpus]
    logs = _logs(corpus)
    yamls = sorted(f[:-5] for f in os.listdir(corpus) if f.endswith(".yaml"))
    assert yamls == logs
    assert len(logs) >= least
    pattern = re.escape(prefix) + r"[a-z0-9][a-z0-9.-]*"
    assert all(re.fullmatch(pattern, n) for n in logs), [n for n in logs if not re.fullmatch(pattern, n)]


@pytest.mark.parametrize("corpus", list(CORPORA), ids=os.path.basename)
def test_holdout_sources_are_not_in_the_tuned_corpus(corpus: str) -> None:
    tuned = _tuned_sources()
    held = set(_sources(corpus))
    assert not tuned & held, sorted(tuned & held)


@pytest.mark.parametrize(
    ("first", "second"), list(itertools.combinations(CORPORA, 2)),
    ids=[f"{os.path.basename(a)}-{os.path.basename(b)}" for a, b in itertools.combinations(CORPORA, 2)],
)
def test_the_holdouts_share_no_source(first: str, second: str) -> None:
    shared = set(_sources(first)) & set(_sources(second))
    assert not shared, sorted(shared)


@pytest.mark.parametrize("corpus", ONE_PER_SOURCE, ids=os.path.basename)
def test_holdout_sources_are_distinct(corpus: str) -> None:
    """One excerpt per source (different comments of a thread are one source)."""
    sources = _sources(corpus)
    assert len(sources) == len(set(sources)), sorted(s for s in set(sources) if sources.count(s) > 1)


@pytest.mark.parametrize(("corpus", "name"), EXCERPTS, ids=[n for _, n in EXCERPTS])
def test_holdout_excerpt_is_labelled(corpus: str, name: str) -> None:
    meta, data = RC.load(name, corpus)
    assert all(k in meta for k in REQUIRED), [k for k in REQUIRED if k not in meta]
    assert str(meta["source"]).startswith("http") or (
        str(meta["source"]).startswith("search-index:file/") and meta.get("source_note")
    )
    assert re.match(r"^\d{4}-\d{2}(-\d{2})?$", str(meta["date"]))
    assert meta["writer"] in WRITERS, meta["writer"]
    lines = data.decode("utf-8").splitlines()
    assert 1 <= len(lines) <= 80
    assert len(meta["lines"]) == len(lines), (len(meta["lines"]), len(lines))
    for i, label in enumerate(meta["lines"], start=1):
        if isinstance(label, dict):
            assert label.get("event") in EVENT_KINDS, (i, label)
            assert set(label) <= FACT_KEYS, (i, sorted(set(label) - FACT_KEYS))
        else:
            assert label in NON_EVENTS, (i, label)
