"""The message catalogue: every log statement of the group-membership code of Kafka and of the clients
people run, mined from each project's source at its release tags, as data.

One YAML file per *source* (a project's component: ``kafka-broker-scala``, ``kafka-consumer``,
``librdkafka`` ...) under ``data/``. A file names the repository, the release tags that were read
(oldest first), how the program wraps a message (``context``: e.g. the Java client's
``[Consumer clientId=..., groupId=...]`` prefix) and a typical whole line (``line``); then its
``statements``, each with its provenance (verbatim ``format``, ``level``, ``file``:``line`` at the tag
``last``, the first and last tags with that wording) and what it means to rebalance-lens (``kind``):

* an event kind of :data:`coordinator_core.events.EVENT_KINDS`: the statement is evidence; rendered
  with sample values it must become that event with the fields it carries;
* ``unrelated``: a statement of the group-membership code that carries no group fact (lifecycle,
  offsets, metadata): it must not become an event and must not be quarantined;
* ``unmapped``: a known statement we do not read yet (a gap, counted by the coverage report).

``template`` is the format with its arguments named: ``{group_id}``, ``{generation}``, ``{member_id}``
... (event fields, filled with :data:`SAMPLE_VALUES` or the statement's ``values``, and expected back
from the parser) and ``{_name}`` (an argument that is not an event field, rendered from ``values`` or as
``x``). Golden lines are generated from the catalogue (:func:`golden_lines`);
``tests/ingest/test_catalogue.py`` renders every statement through the parser and checks what it
becomes, and ``python -m jobs.ingest.catalogue`` prints the coverage per source and version.
See ``docs/catalogue.md``.
"""

from __future__ import annotations

import os
import re
import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import yaml

from coordinator_core.events import EVENT_KINDS

#: libyaml's safe loader when available (the catalogue files are large)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

#: ``kind`` values that are not event kinds
UNRELATED = "unrelated"
UNMAPPED = "unmapped"
DECLARED = frozenset(EVENT_KINDS) | {UNRELATED, UNMAPPED}

#: values a placeholder named after an event field takes when a statement gives none
SAMPLE_VALUES: Mapping[str, Any] = {
    "group_id": "orders-g7",
    "member_id": "consumer-orders-1-6c1f8e0b-3e52-4a5c-9d3b-2f0e8a7b9c41",
    "old_member_id": "consumer-orders-1-0a9b8c7d-1e2f-4a3b-8c5d-6e7f8a9b0c1d",
    "group_instance_id": "orders-pod-1",
    "client_id": "consumer-orders-1",
    "generation": 7,
    "member_epoch": 9,
    "coordinator": 2,
    "host": "/10.1.2.3",
    "reason": "rebalance reason text",
    "state": "Stable",
    "from_state": "PreparingRebalance",
    "protocol": "range",
    "protocol_type": "consumer",
    "member_count": 3,
    "static_count": 1,
    "error": "UNKNOWN_MEMBER_ID",
    "operation": "offset commit",
    "offsets_partition": 12,
}
_PLACEHOLDER = re.compile(r"\{(_?[a-z][a-z0-9_]*)\}")


@dataclass(frozen=True, slots=True)
class Statement:
    """One log statement of one source, with its provenance and its meaning."""

    id: str
    template: str
    kind: str
    format: str = ""
    level: str = "INFO"
    file: str = ""
    line: int | None = None
    first: str = ""  # first tag read that has this wording
    last: str = ""  # last tag read that has it (the newest tag read: still there)
    values: Mapping[str, Any] = field(default_factory=dict)  # placeholder values for the golden line
    expect: Mapping[str, Any] = field(default_factory=dict)  # fixed fields the event must carry too
    facility: str | None = None  # librdkafka debug facility, logger name ... (for the line template)
    logger: str | None = None  # overrides the source's logger for this statement
    context: str | None = None  # overrides the source's context ("" = none)
    note: str = ""

    def placeholders(self) -> list[str]:
        return _PLACEHOLDER.findall(self.template)

    def filled(self) -> dict[str, Any]:
        """The value of every placeholder of the template."""
        out: dict[str, Any] = {}
        for name in self.placeholders():
            if name in self.values:
                out[name] = self.values[name]
            elif name.startswith("_"):
                out[name] = "x"
            else:
                out[name] = SAMPLE_VALUES[name]
        return out

    def expected(self) -> dict[str, Any]:
        """The fields the event of the golden line must carry (``kind`` included)."""
        out = {k: v for k, v in self.filled().items() if not k.startswith("_")}
        out.update(self.expect)
        out["kind"] = self.kind
        return out


@dataclass(frozen=True, slots=True)
class Source:
    """One catalogue file: a project's component, the tags read and how its lines look."""

    name: str
    repo: str
    language: str  # format syntax of ``format``: java-slf4j, scala, c-printf, python-percent, go, js ...
    versions: tuple[str, ...]  # tags read, oldest first
    line: str  # a whole line: ``{ts}``, ``{level}``, ``{logger}``, ``{facility}``, ``{message}``
    ts: str  # the ``{ts}`` of golden lines, as this program writes it
    context: str = ""  # wraps a statement's text into the message: ``{body}`` and context fields
    context_values: Mapping[str, Any] = field(default_factory=dict)
    logger: str = ""
    expect: Mapping[str, Any] = field(default_factory=dict)  # fields every event of this source carries
    statements: tuple[Statement, ...] = ()
    path: str = ""

    def alive(self, st: Statement, version: str) -> bool:
        """Whether ``st`` exists (with this wording) at tag ``version``."""
        i = self.versions.index(version)
        lo = self.versions.index(st.first) if st.first else 0
        hi = self.versions.index(st.last) if st.last else len(self.versions) - 1
        return lo <= i <= hi


class CatalogueError(ValueError):
    """A catalogue file that does not follow the format (names the file and the statement)."""


def _statement(src: str, raw: Mapping[str, Any], versions: tuple[str, ...]) -> Statement:
    where = f"{src}: statement {raw.get('id', '?')!r}"
    unknown = set(raw) - set(Statement.__slots__)
    if unknown:
        raise CatalogueError(f"{where}: unknown keys {sorted(unknown)}")
    try:
        st = Statement(**raw)
    except TypeError as exc:
        raise CatalogueError(f"{where}: {exc}") from None
    if st.kind not in DECLARED:
        raise CatalogueError(f"{where}: kind {st.kind!r} is not an event kind, 'unrelated' or 'unmapped'")
    for tag in (st.first, st.last):
        if tag and tag not in versions:
            raise CatalogueError(f"{where}: tag {tag!r} is not in the file's versions")
    for name in st.placeholders():
        if not name.startswith("_") and name not in SAMPLE_VALUES and name not in st.values:
            raise CatalogueError(f"{where}: placeholder {{{name}}} has no sample value")
    return st


def load_source(path: str) -> Source:
    with open(path, encoding="utf-8") as fh:
        raw = yaml.load(fh, Loader=_LOADER)
    name = os.path.basename(path)[: -len(".yaml")]
    try:
        versions = tuple(str(v) for v in raw["versions"])
        statements = tuple(_statement(name, s, versions) for s in raw.get("statements") or ())
        head = {k: v for k, v in raw.items() if k not in ("statements", "versions", "source")}
        src = Source(name=name, versions=versions, statements=statements, path=path, **head)
    except (KeyError, TypeError) as exc:
        raise CatalogueError(f"{name}: {exc}") from None
    ids = [s.id for s in statements]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise CatalogueError(f"{name}: duplicate statement ids {dupes}")
    return src


@cache
def load(data_dir: str = DATA_DIR) -> tuple[Source, ...]:
    """Every source of the catalogue, by name."""
    files = sorted(f for f in os.listdir(data_dir) if f.endswith(".yaml"))
    return tuple(load_source(os.path.join(data_dir, f)) for f in files)


class _Format(string.Formatter):
    def get_value(self, key: Any, args: Any, kwargs: Mapping[str, Any]) -> Any:
        return kwargs[key]


def render_message(src: Source, st: Statement) -> str:
    """The statement's text with sample values, inside its source's context prefix."""
    body = _Format().vformat(st.template, (), st.filled())  # ({{ and }} are literal braces)
    ctx = src.context if st.context is None else st.context
    if not ctx:
        return body
    values = {**SAMPLE_VALUES, **src.context_values, **st.values, **st.filled(), "body": body}
    return ctx.replace("{body}", "\x02").format(**values).replace("\x02", body)


def render_line(src: Source, st: Statement) -> str:
    """A whole golden line: the statement rendered as its program writes it."""
    fields = {
        "ts": src.ts,
        "level": st.level,
        "logger": st.logger or src.logger,
        "facility": st.facility or "",
        "message": "\x02",
    }
    return src.line.format(**fields).replace("\x02", render_message(src, st))


def golden_lines(sources: tuple[Source, ...] | None = None) -> Iterator[tuple[Source, Statement, str]]:
    """(source, statement, line) for every statement that is mapped (not ``unmapped``)."""
    for src in load() if sources is None else sources:
        for st in src.statements:
            if st.kind != UNMAPPED:
                yield src, st, render_line(src, st)


def expected_of(src: Source, st: Statement) -> dict[str, Any]:
    """What the golden line of ``st`` must become: the source's fixed fields, then the statement's."""
    if st.kind == UNRELATED:
        return {"kind": UNRELATED}
    ctx = src.context if st.context is None else st.context
    out: dict[str, Any] = {}
    for name in _PLACEHOLDER.findall(ctx or ""):
        if name != "body" and not name.startswith("_"):
            out[name] = src.context_values.get(name, SAMPLE_VALUES.get(name))
    out.update(src.expect)
    out.update(st.expected())
    return out


@dataclass(frozen=True, slots=True)
class Coverage:
    source: str
    version: str
    statements: int
    mapped: int  # event kind or declared unrelated
    events: int  # mapped to an event kind


def coverage(sources: tuple[Source, ...] | None = None) -> list[Coverage]:
    """Per source and tag read: statements that exist, how many are mapped."""
    out = []
    for src in load() if sources is None else sources:
        for v in src.versions:
            alive = [s for s in src.statements if src.alive(s, v)]
            mapped = [s for s in alive if s.kind != UNMAPPED]
            events = [s for s in mapped if s.kind != UNRELATED]
            out.append(Coverage(src.name, v, len(alive), len(mapped), len(events)))
    return out


#: a statement's argument written as a key: kgo's ``key: {arg}``, a JSON logger's ``"key":"{arg}"``
_ARG_KEY = re.compile(r'(?:^|[;,{] ?|",)"?([A-Za-z_][\w.]*)"?(?::\s*|=)"?\{(\w+)\}')


def argument_keys(src: Source, st: Statement) -> dict[str, str]:
    """The keys a statement's arguments are logged under (structured loggers: franz-go's
    ``msg; key: value``, kafkajs' ``{message, groupId, ...}`` record) -> the argument's name in the
    template (``group_id``, ``member_id``, ``generation`` or ``_name``): from the template and the
    context it is rendered in."""
    ctx = src.context if st.context is None else st.context
    return {k: arg for text in (st.template, ctx or "") for k, arg in _ARG_KEY.findall(text)}
