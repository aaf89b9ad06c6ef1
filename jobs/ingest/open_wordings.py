"""Which logger-gated wordings read a message whose logger is unknown, decided from the catalogue.

A dialect with a ``logger`` condition (kafka-python's and aiokafka's ``kafka.coordinator*``,
librdkafka's facility, kafka-node's debug namespace ...) reads a line whose logger meets it. A line
whose layout hides the logger (faust's, gunicorn's and uvicorn's heads, a JSON record without a
logger key, a syslog tag, a custom pattern), or names one that no dialect's condition names, is
*loggerless*: it is read by a gated dialect too exactly when its wording is **open**:

* a dialect that is no catch-all is open *as a whole* when every catalogue statement (of every
  source, rendered with :func:`~jobs.ingest.catalogue.render_message`) its pattern reads becomes, by
  that dialect, the event the catalogue declares for it - the same kind and the same facts
  (:data:`FACTS`) -, it reads at least one, and its regex has :data:`MIN_WORDS` literal words;
* otherwise (a catch-all: :func:`~jobs.ingest.dialect_model.is_catchall`, any line naming a group;
  a short wording; a dialect one statement of which it misreads) each statement of a source its
  condition names (the loggers the reader finds in that source's golden lines) that it reads gives a
  *wording*: the statement's template, its placeholders any text (:func:`template_regex`), with
  :data:`MIN_WORDS` literal words; the wording is open when every catalogue statement that the
  wording and the dialect read becomes the declared event.

A wording two sources mean differently (or that a source declares unrelated or leaves unmapped
while the dialect makes an event of it) keeps its condition. The decision is data:
:data:`jobs.ingest.open_wordings_table.OPEN` (dialect id -> ``""`` for the whole pattern, else the
RE2 alternation of its open wordings), written by ``python -m jobs.ingest.open_wordings --write``
and checked equal to :func:`compute` by ``tests/ingest/test_loggerless.py``. The readers apply it
through :func:`jobs.ingest.dialects.open_wording` and :data:`jobs.ingest.dialects.LOGGER_CONDITIONS`.
"""

from __future__ import annotations

import pprint
import re
import string
import sys
from typing import Any

from jobs.ingest import dialect_model as DM
from jobs.ingest import dialects as D
from jobs.ingest import reference_events as RE
from jobs.ingest.catalogue import UNMAPPED, UNRELATED, Source, Statement, expected_of, load, render_message
from jobs.ingest.reference_model import rx

#: the facts compared (beside the kind): those every reader test checks
FACTS = ("group_id", "generation", "member_id")
#: literal words (two letters or more) an open wording has at least (a short one, ``Heartbeat: {G}[{N}]
#: {M}``, is other software's line as well)
MIN_WORDS = 3
_RE2_META = frozenset("\\.^$|?*+()[]{}")


def template_regex(template: str) -> str:
    """A statement's template as an RE2 regex of the whole body: its literal text, each
    placeholder any text (``{{``/``}}`` are literal braces)."""
    out = []
    for lit, name, _, _ in string.Formatter().parse(template):
        out.append("".join("\\" + c if c in _RE2_META else c for c in lit))
        if name is not None:
            out.append(".*?")
    return "^" + "".join(out) + "$"


def _words(template: str) -> int:
    """The literal words (two letters or more) of a statement's template."""
    lits = " ".join(lit for lit, _, _, _ in string.Formatter().parse(template))
    return len(re.findall(r"[A-Za-z]{2,}", lits))


def regex_words(regex: str) -> int:
    """The literal words (two letters or more) of a dialect's regex (its classes, groups' names,
    macros and escapes left out)."""
    literal = re.sub(r"\(\?P<\w+>|\{[A-Z]+\}|\\.|[()?:|*+.\[\]^$]", " ", re.sub(r"\[[^\]]*\]", " ", regex))
    return len(re.findall(r"[A-Za-z]{2,}", literal))


def _agrees(di: int, src: Source, st: Statement, message: str) -> bool | None:
    """Whether dialect ``di`` reads ``message`` (statement ``st`` rendered) as the catalogue declares
    (None: its pattern does not read it)."""
    d = D.DIALECTS[di]
    _, prefix, body = RE.split_prefix(message)
    m = rx(d.pattern).search(body)
    if m is None:
        return None
    if st.kind == UNMAPPED:
        return False  # (no declared meaning: nothing to agree with)
    want = expected_of(src, st)
    if want["kind"] == UNRELATED:
        return d.kind is None
    if d.kind is None:
        return False
    groups = {k: v or ("" if k == "partitions_raw" else None) for k, v in m.groupdict().items()}
    got: dict[str, Any] = RE.event_fields(RE.Match(di, groups, prefix, body), "", "general")
    return got["kind"] == want["kind"] and all(got[f] == want[f] for f in FACTS if f in want)


def source_loggers(sources: tuple[Source, ...]) -> dict[str, frozenset[str]]:
    """Per source: the logger names the reader finds in its golden lines."""
    from jobs.ingest.catalogue import golden_lines
    from jobs.ingest.parse import parse_bytes

    out = {}
    for src in sources:
        data = "\n".join(line for _, _, line in golden_lines((src,))).encode() + b"\n"
        ev, _, _ = parse_bytes(data, f"{src.name}.log")
        out[src.name] = frozenset(e["logger"] for e in ev.to_pylist() if e["logger"])
    return out


def compute() -> dict[str, str]:
    """The open wordings of the gated dialects (see the module doc): dialect id -> ``""`` (its whole
    pattern) or the alternation of its open wordings' regexes."""
    sources = load()
    sts = [(src, st, render_message(src, st).rstrip(DM.TRAILING_BLANKS)) for src in sources for st in src.statements]
    loggers = source_loggers(sources)
    out: dict[str, str] = {}
    for di, d in enumerate(D.DIALECTS):
        cond = DM.logger_condition(d)
        if cond is None:
            continue
        read = [(src, st, msg, ok) for src, st, msg in sts if (ok := _agrees(di, src, st, msg)) is not None]
        if not DM.is_catchall(d) and regex_words(d.regex) >= MIN_WORDS and read and all(ok for *_, ok in read):
            out[d.id] = ""
            continue
        opened: list[str] = []
        for src, st, _, ok in read:
            w = template_regex(st.template)
            if not ok or w in opened or _words(st.template) < MIN_WORDS:
                continue
            if not any(rx(cond).search(lg) for lg in loggers[src.name]):
                continue  # (a wording of the sources the condition names)
            if all(ok2 for _, _, msg2, ok2 in read if rx(w).search(RE.split_prefix(msg2)[2])):
                opened.append(w)
        if opened:
            out[d.id] = "|".join(f"(?:{w})" for w in sorted(opened))
    return out


def render_table(table: dict[str, str]) -> str:
    """The source of :mod:`jobs.ingest.open_wordings_table`."""
    return (
        '"""Generated by ``python -m jobs.ingest.open_wordings --write`` from the catalogue (the rule:\n'
        ":mod:`jobs.ingest.open_wordings`); checked by tests/ingest/test_loggerless.py. Do not edit.\n\n"
        'dialect id -> "" (its whole pattern reads a loggerless message) or the RE2 alternation of the\n'
        'wordings (whole bodies) that do."""\n\n'
        "OPEN: dict[str, str] = " + pprint.pformat(table, width=110, sort_dicts=True) + "\n"
    )


TABLE_PATH = __file__.replace("open_wordings.py", "open_wordings_table.py")


def main(argv: list[str]) -> None:
    text = render_table(compute())
    if "--write" in argv:
        with open(TABLE_PATH, "w", encoding="utf-8") as fh:
            fh.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
