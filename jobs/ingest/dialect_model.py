"""What a message dialect is: :class:`Dialect` (one wording -> one event kind), the macros its regex
may use, the named groups it may capture, and how the parser finds its dispatch key (the literal first
words of every matching body). The table itself is :data:`jobs.ingest.dialects.DIALECTS`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from jobs.ingest.pyregex import top_level_alternation
from jobs.ingest.records import keys_tail

MACROS: dict[str, str] = {
    "{G}": r"(?P<group_id>\S+?)",
    "{M}": r"(?P<member_id>\S+?)",
    "{N}": r"(?P<generation>-?\d+)",
    "{ST}": r"(?P<state>[A-Za-z]+)",
    "{P}": r"(?: \(__consumer_offsets-(?P<offsets_partition>\d+)\))?",
    # Node.toString: ``host:port (id: N rack: R)`` (0.10+; 4.x appends `` isFenced: B``), ``host:port (id: N)``
    # between KAFKA-3318 and KAFKA-3306 (0.10.0 development, shipped in vendor builds)
    "{NODE}": r"(?P<host>\S+) \(id: (?P<node_id>-?\d+)(?: rack: [^)]*)?\)",
    "{GENOBJ}": r"Generation\{generationId=(?P<generation>-?\d+), memberId='(?P<member_id>[^']*)', protocol='(?P<protocol>[^']*)'\}",
    "{IID}": r"(?P<group_instance_id>Some\([^)]*\)|None|null|Optional\[[^\]]*\]|Optional\.empty|[^\s,\]]+?)",
    "{R}": r"(?P<reason>.*)",
    # a statement's arguments logged as keys after its message, in any syntax (records.keys_tail)
    "{KEYS}": "(?:" + keys_tail() + ")?",  # (without its reason group where the dialect has one)
    "{MEMBERMETA}": (
        r"MemberMetadata\(memberId=(?P<member_id>[^,]+), groupInstanceId=(?P<group_instance_id>[^,]+), "
        r"clientId=(?P<client_id>[^,]*), clientHost=(?P<host>[^,]*),.*\)"
    ),
}

#: named groups a dialect may use (event fields + helpers the parser converts)
FIELD_GROUPS = frozenset(
    [
        "group_id",
        "member_id",
        "generation",
        "reason",
        "state",
        "protocol",
        "member_count",
        "static_count",
        "error",
        "old_member_id",
        "host",
        "client_id",
        "group_instance_id",
        "operation",
        "offsets_partition",
        "coordinator",
        "protocol_type",
        "member_epoch",
        "from_state",
    ]
)
HELPER_GROUPS = frozenset(
    ["node_id", "partitions_raw", "revoked_raw", "members_raw", "assignment_raw", "groups_raw", "static_word"]
)


@dataclass(frozen=True)
class Dialect:
    """One message wording → one canonical event kind (``None``: recognised, not a group event)."""

    id: str
    kind: str | None
    side: str
    versions: str
    regex: str
    example: str
    fixed: dict = field(default_factory=dict)
    #: optional RE2 condition on the logger column (e.g. kafka-python's ``kafka.coordinator``); a
    #: message whose context prefix names the same source meets it too (:data:`SOURCE_PREFIX`)
    logger: str | None = None
    #: the wording is unique to the sources the ``logger`` condition names (no statement of another
    #: source in the catalogue reads as it, checked by tests/ingest/test_loggerless.py): the condition
    #: is not needed, the message alone decides (a custom logger, a JSON record or a syslog tag that
    #: names no logger, or another name, still read)
    distinctive: bool = False
    #: only lines with a client context prefix (``[Consumer clientId=c, groupId=g] ``) match; the same
    #: wording without it falls through to the next dialects (e.g. a plain-logger variant)
    needs_prefix: bool = False
    #: where a wording comes from when no statement of the catalogue (jobs/ingest/catalogue/data) has
    #: it: ``excerpt:<name>`` (a real excerpt of tests/fixtures/real) or ``source:<where>`` (a Kafka
    #: class or version the catalogue does not read); checked by tests/ingest/test_catalogue_java.py
    provenance: str = ""

    @cached_property
    def pattern(self) -> str:
        out = self.regex
        if "(?P<reason>" in out:
            out = out.replace("{KEYS}", "(?:" + keys_tail(reason=False) + ")?")
        for k, v in MACROS.items():
            out = out.replace(k, v)
        return "^" + out + "$"

    @cached_property
    def key(self) -> str | None:
        """The literal first word of every matching body (dispatch key), or None."""
        m = re.match(r"((?:[A-Za-z0-9'\-_:=/]|\\[()\[\]{}.])+) ", self.regex)
        if not m:
            return None
        return m.group(1).replace("\\", "")

    @cached_property
    def groups(self) -> tuple[str, ...]:
        return tuple(re.compile(self.pattern).groupindex)

    @cached_property
    def first_words(self) -> frozenset[str] | None:
        """The possible first words (text before the first space) of every matching body, for a
        dialect without a :attr:`key` (None when the regex does not fix them): the parser runs
        such a dialect only on the bodies starting with one of them."""
        return first_words(self.pattern)

    @cached_property
    def literal(self) -> str:
        """The literal text every matching body starts with ("" when the regex starts otherwise);
        the parser tests it (a cheap ``starts_with``) before running the regex."""
        return literal_prefix(self.pattern)


_REGEX_META = frozenset("\\^$.|?*+()[]{}")
_QUANT = ("?", "*", "+", "{")


def _literal_run(rx: str, i: int, stop: str) -> tuple[str, int] | None:
    """Plain characters of ``rx`` from ``i`` up to (not including) the first unescaped character of
    ``stop`` or a space; None when a regex construct or a quantified character comes first."""
    out: list[str] = []
    while i < len(rx) and rx[i] != " " and rx[i] not in stop:
        c = rx[i]
        if c == "\\":
            if i + 1 >= len(rx) or rx[i + 1].isalnum():
                return None
            lit, step = rx[i + 1], 2
        elif c in _REGEX_META:
            return None
        else:
            lit, step = c, 1
        if rx[i + step : i + step + 1] in _QUANT and rx[i + step : i + step + 1]:
            return None
        out.append(lit)
        i += step
    return "".join(out), i


def _closing(rx: str, i: int) -> int:
    """The index of the parenthesis closing the group that opens at ``rx[i]``."""
    depth, j = 0, i
    while j < len(rx):
        if rx[j] == "\\":
            j += 2
            continue
        if rx[j] == "(":
            depth += 1
        elif rx[j] == ")":
            depth -= 1
            if depth == 0:
                break
        j += 1
    return j


def first_words(pattern: str) -> frozenset[str] | None:
    """The possible first words (up to the first space) of the text an anchored dialect pattern
    matches: after optional named-group openers, either a literal word followed by a space, or a
    group ``(?:a|b c|...)`` of literal alternatives followed by a space (an alternative with a
    space gives the text before it). None for anything else (a conservative answer)."""
    rx = pattern[1:] if pattern.startswith("^") else pattern
    i = 0
    while rx.startswith("(?P<", i):
        opened, i = i, rx.index(">", i) + 1
        if top_level_alternation(rx[i : _closing(rx, opened)]):
            return None  # (?P<w>A b|C): the first word is not the first alternative's
    if rx.startswith("(?:", i):
        j = _closing(rx, i)
        inner, after = rx[i + 3 : j], rx[j + 1 :]
        if after[:1] in _QUANT:
            return None
        words: set[str] = set()
        for alt in inner.split("|"):
            r = _literal_run(alt, 0, "")
            if r is None or r[1] == 0:
                return None
            # the word ends inside the alternative (at its space) or right after the group
            if r[1] == len(alt) and not after.startswith(" "):
                return None
            words.add(r[0])
        return frozenset(words)
    r = _literal_run(rx, i, "")
    if r is None or r[1] == i or r[1] >= len(rx) or rx[r[1]] != " ":
        return None
    return frozenset([r[0]])


def literal_prefix(pattern: str) -> str:
    """The literal text at the start of every match of the anchored RE2 ``pattern`` (conservative:
    it stops at the first construct that is not a plain or escaped punctuation character, drops a
    character made optional by ``?``/``*``/``{``, and is empty for a top-level alternation)."""
    rx = pattern[1:] if pattern.startswith("^") else pattern
    if top_level_alternation(rx):
        return ""
    out: list[str] = []
    i = 0
    while i < len(rx):
        c = rx[i]
        if c == "\\":
            if i + 1 >= len(rx) or rx[i + 1].isalnum():
                break  # a class (\d, \S, \b ...)
            lit, step = rx[i + 1], 2
        elif c in _REGEX_META:
            break
        else:
            lit, step = c, 1
        nxt = rx[i + step] if i + step < len(rx) else ""
        if nxt in ("?", "*", "{"):
            break
        out.append(lit)
        if nxt == "+":
            break
        i += step
    return "".join(out)


#: kafka-python's coordinator loggers (not the 0.10 broker's ``kafka.coordinator.GroupCoordinator``)
PYTHON_LOGGER = r"^kafka\.coordinator(?:\.(?:base|consumer|heartbeat|assignors.*))?$"


#: librdkafka's log facility (the ``logger`` column of the ``librdkafka`` layout)
RDKAFKA_FACILITY = r"^[A-Z][A-Z_]+$"

#: a logger condition -> the context prefix of a message that names the same source: such a message
#: meets the condition whatever its logger column holds (librdkafka's ``[thrd:main]: `` is written by
#: librdkafka alone, in every binding's log callback)
SOURCE_PREFIX: dict[str, str] = {RDKAFKA_FACILITY: "[thrd:"}


def is_catchall(d: Dialect) -> bool:
    """A dialect reading any line of a kind (``(?P<reason>.*`` any line naming a group, ``.*`` any
    line of some loggers): message-first prefers a specific dialect on a candidate of the message
    (after an MDC block, say) to it."""
    return d.regex.startswith(("(?P<reason>.*", ".*"))


#: blanks a logger or a paste leaves at the end of a message (faust's ``… lockup-demo ``): not part of the
#: message a dialect matches whole
TRAILING_BLANKS = " \t"


def logger_condition(d: Dialect) -> str | None:
    """The dialect's ``logger`` regex when the readers test it (None: it has none, or its wording is
    distinctive enough to be read under any logger)."""
    return None if d.distinctive else d.logger


def logger_needed(d: Dialect) -> bool:
    """Whether the dialect's ``logger`` condition is tested."""
    return logger_condition(d) is not None


def dialect(id, kind, side, versions, regex, example, **kw) -> Dialect:  # noqa: A002
    return Dialect(id, kind, side, versions, regex, example, **kw)


B, C, CN, OT = "broker", "client", "connect", "other"
LEAVE = "`LeaveGroup`"

