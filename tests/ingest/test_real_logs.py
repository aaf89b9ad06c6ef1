"""The real-log corpus: excerpts people pasted in public threads, read as a user's logs would be.

Each excerpt (``tests/fixtures/real/<id>.log``) has its source, date and the expected reading of
every line (``<id>.yaml``); :mod:`tests.ingest.real_corpus` scores a reading. Here the numbers are
asserted per file and in total (issue 11's targets: ≥ 98 % of coordinator lines become events, at
most 1 % false events, ≥ 95 % of the expected facts exact), and the corpus itself is checked:
every line labelled, every excerpt with a source, enough layouts and writers.
"""

from __future__ import annotations

import re

import pytest

from tests.ingest import real_corpus as RC

NAMES = RC.excerpts()
REQUIRED = ("source", "title", "date", "found_with", "writer", "software", "layout", "layout_tag", "lines")
LABEL_RX = re.compile(r"^(?:unrelated|continuation|quarantine)$")

#: issue 11's targets over the corpus: recall >= 98 %, false events <= 1 %, facts exact >= 95 %,
#: at least 80 excerpts. Met (README "Real logs"); the assertions below are the measured floors
#: of this commit (a regression fails them); raise them as the readers improve.
TARGET_RECALL, TARGET_FALSE, TARGET_FACTS, TARGET_EXCERPTS = 0.98, 0.01, 0.95, 80
RECALL_MIN = 0.98
FALSE_MAX = 0.01
FACTS_MIN = 0.97
EXCERPTS_MIN = 86
#: every excerpt on its own: most of its coordinator lines and facts ...
FILE_RECALL_MIN = 0.75
FILE_FACTS_MIN = 0.70
#: ... except these (recall, facts floors): what they need is listed in the README's "Real logs"
#: (a hard-wrapped line without a timestamp, app-specific wordings, a quoted CSV export's columns,
#: a viewer's reordered lines, timestamps whose milliseconds or date the layout does not give)
KNOWN_LOW = {
    "b-exporter-v010-trace-wrapped-nots": (0.0, 0.0),
    "c-atleon422-csv-quoted-reverse": (0.99, 0.49),
    "c-kpy1418-docker-viewer-out-of-order": (0.99, 0.66),
    "c-rdkafka2981-iso-log-level-fac": (0.99, 0.66),
    "c-rdkafka4723-glog-grep-prefix": (0.24, 0.33),
}


@pytest.fixture(scope="module")
def scores() -> dict[str, RC.FileScore]:
    return {n: RC.score(n) for n in NAMES}


def test_corpus_is_broad_enough() -> None:
    metas = [RC.load(n)[0] for n in NAMES]
    assert len(NAMES) >= EXCERPTS_MIN
    assert len({m["layout_tag"] for m in metas}) >= 15
    assert len({str(m["software"]).split(" (")[0] for m in metas}) >= 8


@pytest.mark.parametrize("name", NAMES)
def test_excerpt_is_labelled_and_sourced(name: str) -> None:
    meta, data = RC.load(name)
    assert all(k in meta for k in REQUIRED), [k for k in REQUIRED if k not in meta]
    # a URL; or, where the search index holds a public file without naming its repository, the
    # index's file id plus a ``source_note`` saying what the file is
    assert str(meta["source"]).startswith("http") or (
        str(meta["source"]).startswith("search-index:file/") and meta.get("source_note")
    )
    assert re.match(r"^\d{4}-\d{2}(-\d{2})?$", str(meta["date"]))
    lines = data.decode("utf-8", "replace").splitlines()
    assert len(meta["lines"]) == len(lines)
    for label in meta["lines"]:
        if isinstance(label, dict):
            assert "event" in label
        else:
            assert LABEL_RX.match(str(label)), label


@pytest.mark.parametrize("name", NAMES)
def test_excerpt_reads(name: str, scores: dict[str, RC.FileScore]) -> None:
    s = scores[name]
    recall_min, facts_min = KNOWN_LOW.get(name, (FILE_RECALL_MIN, FILE_FACTS_MIN))
    assert s.recall >= recall_min, "\n".join(s.misses)
    assert s.fact_rate >= facts_min, "\n".join(s.misses)
    assert s.false_events <= max(1, s.produced_events // 20), "\n".join(s.misses)


def test_corpus_totals(scores: dict[str, RC.FileScore]) -> None:
    t = RC.totals(list(scores.values()))
    assert t.recall >= RECALL_MIN, f"recall {t.found}/{t.expected}"
    assert t.false_rate <= FALSE_MAX, f"false events {t.false}/{t.produced}"
    assert t.fact_rate >= FACTS_MIN, f"facts {t.facts_ok}/{t.facts}"
