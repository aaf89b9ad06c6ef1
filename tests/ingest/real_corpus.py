"""Scoring of the real-log corpus (``tests/fixtures/real/``): excerpts people pasted in public
threads, each with the expected reading of every line (``docs/design/contracts.md`` section 4).

``python -m tests.ingest.real_corpus [--misses] [--corpus DIR]`` prints the per-file and total
numbers (the README's table); ``tests/ingest/test_real_logs.py`` asserts them. ``--corpus
tests/fixtures/holdout`` scores the held-out corpus instead (``tests/fixtures/holdout/README.md``:
nobody tunes on it, it is scored by hand). Definitions:

* *coordinator line*: a line labelled ``{event: kind, ...}``; **recall** = coordinator lines that
  became an event / coordinator lines;
* *false event*: an event on a line labelled ``unrelated``/``continuation``/``quarantine``;
  **false-event rate** = false events / events produced;
* *fact*: one expected value of an event line (its kind and every field it states: group id,
  generation, member id, error ..., ``reason~`` a substring, ``ts`` the line's own time);
  **facts exact** = facts whose value the event has / facts (a missed line misses all its facts).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import yaml

from jobs.local import parse_file

REAL_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "real")
HOLDOUT_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "holdout")
NON_EVENTS = ("unrelated", "continuation", "quarantine")
_INT_FIELDS = ("generation", "member_count", "static_count", "coordinator", "offsets_partition", "member_epoch")


@dataclass
class FileScore:
    name: str
    layout_tag: str
    writer: str
    software: str
    expected_events: int = 0
    found_events: int = 0
    produced_events: int = 0
    false_events: int = 0
    facts: int = 0
    facts_ok: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return self.found_events / self.expected_events if self.expected_events else 1.0

    @property
    def fact_rate(self) -> float:
        return self.facts_ok / self.facts if self.facts else 1.0


def excerpts(corpus: str = REAL_DIR) -> list[str]:
    """Names (without suffix) of the excerpts of ``corpus`` (a directory of ``.log``/``.yaml`` pairs)."""
    if not os.path.isdir(corpus):
        return []
    return sorted(f[:-5] for f in os.listdir(corpus) if f.endswith(".yaml"))


def load(name: str, corpus: str = REAL_DIR) -> tuple[dict[str, Any], bytes]:
    with open(os.path.join(corpus, name + ".yaml"), encoding="utf-8") as fh:
        meta = yaml.safe_load(fh)
    with open(os.path.join(corpus, name + ".log"), "rb") as fh:
        return meta, fh.read()


_TS_FORMATS = (
    "%Y-%m-%d %H:%M:%S.%f", "%Y-%m-%d %H:%M:%S", "%Y/%m/%d %H:%M:%S.%f", "%Y/%m/%d %H:%M:%S",
    "%d %b %Y %H:%M:%S.%f", "%d %b %Y %H:%M:%S", "%b %d, %Y %I:%M:%S %p",
)  # fmt: skip


def expected_ts(text: str) -> tuple[int | None, str | None]:
    """(epoch ms UTC, None) of a timestamp as written; (None, "HH:MM:SS") when it has no date
    (only the time of day can be compared)."""
    t = str(text).strip().strip("[]")
    t2 = re.sub(r"(\d{2}:\d{2}:\d{2})[,:](\d)", r"\1.\2", t)
    if re.fullmatch(r"1\d{9}(\.\d+)?", t2):
        return int(round(float(t2) * 1000)), None
    if re.fullmatch(r"1\d{12}", t2):
        return int(t2), None
    try:
        d = datetime.fromisoformat(t2.replace(" UTC", "Z").replace(" GMT", "Z"))
        if d.tzinfo is None:
            d = d.replace(tzinfo=UTC)
        return int(d.timestamp() * 1000), None
    except ValueError:
        pass
    frac = re.sub(r"(\.\d{6})\d+", r"\1", t2)
    for fmt in _TS_FORMATS:
        try:
            d = datetime.strptime(frac, fmt).replace(tzinfo=UTC)
            return int(d.timestamp() * 1000), None
        except ValueError:
            continue
    m = re.search(r"(\d{2}:\d{2}:\d{2})", t2)
    return None, (m.group(1) if m else None)


def _fact_ok(key: str, want: Any, ev: dict[str, Any]) -> bool:
    if key == "event":
        return ev["kind"] == want
    if key == "reason~":
        return ev.get("reason") is not None and str(want).lower() in ev["reason"].lower()
    if key == "ts":
        ms, tod = expected_ts(want)
        got = ev.get("ts_ms")
        if got is None:
            return False
        if ms is not None:
            return abs(got - ms) <= 1
        return tod is not None and datetime.fromtimestamp(got / 1000, UTC).strftime("%H:%M:%S") == tod
    got = ev.get(key)
    if want == "<redacted>":
        return isinstance(got, str) and got.startswith("redacted-") and bool(ev.get("redacted"))
    if key in _INT_FIELDS and want is not None:
        try:
            return got is not None and int(got) == int(want)
        except (TypeError, ValueError):
            return False
    if key in ("partitions", "revoked", "members") and want is not None:
        return got is not None and sorted(got) == sorted(want)
    return got == want


def score(name: str, corpus: str = REAL_DIR) -> FileScore:
    meta, data = load(name, corpus)
    ev, _q, audit = parse_file(os.path.join(corpus, name + ".log"), name + ".log")
    by_line: dict[int, list[dict[str, Any]]] = {}
    for r in ev.to_pylist():
        by_line.setdefault(r["line_no"], []).append(r)
    s = FileScore(name, str(meta.get("layout_tag")), str(meta.get("writer")), str(meta.get("software")))
    s.produced_events = len(by_line)
    lines = data.decode("utf-8", "replace").splitlines()
    labels = meta["lines"]
    layout_of = {r["line_no"]: r["layout"] for r in ev.to_pylist()}
    for i, label in enumerate(labels, start=1):
        got = by_line.get(i)
        # java.util.logging writes one entry on two lines (timestamp + logger, then "LEVEL: msg"):
        # the reader puts the event on the first, a labeller may put it on the second
        prev_jul = i > 1 and (layout_of.get(i - 1) or "").endswith("jul") and not isinstance(labels[i - 2], dict)
        if got is None and isinstance(label, dict) and prev_jul:
            got = by_line.get(i - 1)
        if got is not None and not isinstance(label, dict) and (layout_of.get(i) or "").endswith("jul") \
                and i < len(labels) and isinstance(labels[i], dict):
            continue  # (counted on the next line)
        if isinstance(label, dict):
            s.expected_events += 1
            facts = {k: v for k, v in label.items()}
            s.facts += len(facts)
            if not got:
                s.misses.append(f"{i}: missed {label.get('event')}: {lines[i - 1][:160] if i <= len(lines) else ''}")
                continue
            s.found_events += 1
            best = max(got, key=lambda e: sum(_fact_ok(k, v, e) for k, v in facts.items()))
            ok = [k for k, v in facts.items() if _fact_ok(k, v, best)]
            s.facts_ok += len(ok)
            bad = [f"{k}={best.get('kind' if k == 'event' else k.rstrip('~'))!r}≠{facts[k]!r}" for k in facts if k not in ok]
            if bad:
                s.misses.append(f"{i}: facts {', '.join(bad)}")
        elif got:
            s.false_events += 1
            s.misses.append(f"{i}: false {got[0]['kind']} (labelled {label}): {lines[i - 1][:160]}")
    return s


@dataclass
class Totals:
    files: int
    expected: int
    found: int
    produced: int
    false: int
    facts: int
    facts_ok: int
    layouts: int
    writers: int

    @property
    def recall(self) -> float:
        return self.found / self.expected if self.expected else 1.0

    @property
    def false_rate(self) -> float:
        return self.false / self.produced if self.produced else 0.0

    @property
    def fact_rate(self) -> float:
        return self.facts_ok / self.facts if self.facts else 1.0


def totals(scores: list[FileScore]) -> Totals:
    return Totals(
        files=len(scores),
        expected=sum(s.expected_events for s in scores),
        found=sum(s.found_events for s in scores),
        produced=sum(s.produced_events for s in scores),
        false=sum(s.false_events for s in scores),
        facts=sum(s.facts for s in scores),
        facts_ok=sum(s.facts_ok for s in scores),
        layouts=len({s.layout_tag for s in scores}),
        writers=len({s.software.split(" (")[0] for s in scores}),
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--misses", action="store_true", help="print every missed line and fact")
    ap.add_argument("--corpus", default=REAL_DIR, metavar="DIR",
                    help="directory of <id>.log/<id>.yaml pairs (default: tests/fixtures/real; "
                         "the held-out corpus is tests/fixtures/holdout)")
    ap.add_argument("names", nargs="*", help="excerpt names (default: all)")
    a = ap.parse_args(argv)
    scores = [score(n, a.corpus) for n in (a.names or excerpts(a.corpus))]
    for s in scores:
        print(f"{s.name:58s} {s.layout_tag[:22]:22s} recall {s.found_events:3d}/{s.expected_events:<3d} "
              f"false {s.false_events:2d} facts {s.facts_ok:3d}/{s.facts:<3d}")  # fmt: skip
        if a.misses:
            for m in s.misses:
                print("      " + m)
    t = totals(scores)
    print(f"\n{t.files} excerpts, {t.layouts} layouts, {t.writers} writers: "
          f"recall {t.found}/{t.expected} = {t.recall:.1%}, false events {t.false}/{t.produced} = {t.false_rate:.1%}, "
          f"facts exact {t.facts_ok}/{t.facts} = {t.fact_rate:.1%}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
