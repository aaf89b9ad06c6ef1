"""Line layouts: how a log line wraps its message (timestamp, level, logger, thread), in ONE table.

A layout is an RE2 regex over a whole line with the named groups ``ts``, ``level``, ``logger``,
``thread`` and ``message`` (all optional except ``message``). :func:`jobs.ingest.parse.parse_bytes`
tries the layouts in table order on whole Arrow columns (``pyarrow.compute.extract_regex``), each
on the lines no earlier layout matched; the layout that matched most of a file's first lines is
tried first. Wrapping prefixes (docker-compose ``svc-1  | ``, ``kubectl logs --prefix``
``[pod/name/container] ``, a leading RFC 3339 timestamp from ``kubectl logs --timestamps`` or a log
viewer) are stripped by :data:`PREFIXES` and recorded in the layout name (``docker+log4j``).

JSON lines are a layout too (``json``): the fields are read with one regex per key family
(:data:`JSON_KEYS`) so logstash (``@timestamp``/``message``/``level``/``logger_name``), ECS
(``log.level``, ``log.logger``) and similar encoders all work.

Timestamps are normalised by :func:`jobs.ingest.epoch_ms.parse_timestamps` (vectorised): ``yyyy-MM-dd HH:mm:ss,SSS``,
``.SSS`` or ``:SSS`` millis, ``T`` separator, up to nanosecond fractions, zone ``Z``/``+02:00``/
``+0200`` or none (then the configured default zone applies), ``yyyy/MM/dd`` (Go), JUL
``May 01, 2024 10:00:00 AM`` and epoch seconds (librdkafka ``1714557600.123``).

Adding a layout: append a :class:`Layout` with a regex and an example line, add a fixture line under
``tests/fixtures/layouts/`` and run ``pytest tests/ingest``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest import jul_levels as JUL
from jobs.ingest import pyregex as PR
from jobs.ingest import timestamps as TS

LEVELS = r"TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL|SEVERE|CONFIG|FINE|FINER|FINEST|NOTICE|CRITICAL"
#: Microsoft.Extensions.Logging's console level names
MEL_LEVELS = r"trce|dbug|info|warn|fail|crit"
#: Erlang/OTP logger's (and Elixir Logger's) level names
#: three-letter level words (zerolog's console writer, Serilog's ``{Level:u3}``): a message starts after one
SHORT_LEVELS = r"TRC|DBG|INF|WRN|ERR|FTL|PNC|VRB"
#: a Python logger name (``%(name)s``): lower-case dotted words (``kafka.coordinator``)
PY_LOGGER = r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+"
OTP_LEVELS = r"debug|info|notice|warning|error|critical|alert|emergency"
_MONTH = "|".join(TS.MONTHS)
_TS_ISO = r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,:]\d{1,9})?(?:Z| ?[+-]\d{2}:?\d{2})?"
_TS_ISO_T = r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?"
_TS_ISO_SPACE = r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?"
_TS_TIME_ONLY = r"\d{2}:\d{2}:\d{2}[.,]\d{3}"


@dataclass(frozen=True)
class Layout:
    """One line layout: ``id`` (the ``layout`` column), an RE2 ``regex`` with named groups
    ``ts``/``level``/``logger``/``thread``/``message`` and an ``example`` line.

    For speed the parser splits ``regex`` at ``(?P<message>.*)`` into a *head* (anchored at the
    line start, captures the short fields) and a *tail* (anchored at the end, e.g. log4j's
    ``(logger)``), so that RE2 extracts sub-matches only on the few bytes around the message.
    """

    id: str
    regex: str
    example: str
    description: str = ""

    @property
    def head(self) -> str | None:
        i = self.regex.find(_MSG)
        return self.regex[:i] if i >= 0 else None

    @property
    def tail(self) -> str | None:
        i = self.regex.find(_MSG)
        t = self.regex[i + len(_MSG) :] if i >= 0 else None
        return None if t in (None, "$") else t


_MSG = "(?P<message>.*)"


LAYOUTS: tuple[Layout, ...] = (
    Layout(
        "log4j",
        rf"^\[(?P<ts>\d{{4}}-[^\]]+)\] (?P<level>{LEVELS}) +(?P<message>.*) \((?P<logger>[\w.$-]+(?::\d+)?)\)$",
        "[2024-05-01 10:00:00,123] INFO [GroupCoordinator 1]: Stabilized group g generation 3 "
        "(__consumer_offsets-12) with 2 members (kafka.coordinator.group.GroupCoordinator)",
        "Kafka's default `[%d] %p %m (%c)%n` (also Connect's `(%c:%L)`)",
    ),
    Layout(
        "springboot",
        rf"^(?P<ts>{_TS_ISO_SPACE})\s+(?P<level>{LEVELS})\s+(?:\d+\s+)?--- \[\s*(?P<thread>[^\]]*)\] (?P<logger>\S+)\s*: (?P<message>.*)$",
        "2024-05-01 10:00:00.123  INFO 12345 --- [ntainer#0-0-C-1] o.a.k.c.c.internals.ConsumerCoordinator   : "
        "[Consumer clientId=consumer-g-1, groupId=g] (Re-)joining group",
        "Spring Boot 2 / logback console pattern",
    ),
    Layout(
        "springboot3",
        rf"^(?P<ts>{_TS_ISO_T})\s+(?P<level>{LEVELS})\s+(?:\d+\s+)?--- (?:\[[^\]]*\] )?\[\s*(?P<thread>[^\]]*)\] (?P<logger>\S+)\s*: (?P<message>.*)$",
        "2024-05-01T10:00:00.123+02:00  INFO 12345 --- [orders] [ntainer#0-0-C-1] o.a.k.c.c.internals.ConsumerCoordinator  : "
        "[Consumer clientId=consumer-g-1, groupId=g] (Re-)joining group",
        "Spring Boot 3 (ISO timestamp with zone, optional `[app]`)",
    ),
    Layout(
        "log4j-nologger",
        rf"^\[(?P<ts>\d{{4}}-[^\]]+)\] (?P<level>{LEVELS}) +(?P<message>.*)$",
        "[2024-05-01 10:00:00,123] INFO [GroupCoordinator 1]: Stabilized group g generation 3",
        "`[%d] %p %m` without `(%c)` (or a line truncated before it)",
    ),
    Layout(
        "slf4j-simple",
        rf"^(?:(?P<ts>{_TS_ISO}|{_TS_TIME_ONLY}|\d+) )?\[(?P<thread>[^\]\d][^\]]*)\] (?P<level>{LEVELS}) (?P<logger>[\w.$]+) - (?P<message>.*)$",
        "[main] INFO org.apache.kafka.clients.consumer.internals.ConsumerCoordinator - "
        "[Consumer clientId=consumer-g-1, groupId=g] (Re-)joining group",
        "slf4j-simple `[thread] LEVEL logger - msg`, with or without a date",
    ),
    Layout(
        "log4j-thread",
        rf"^(?P<ts>{_TS_ISO}|{_TS_TIME_ONLY})\s+\[(?P<thread>[^\]\d][^\]]*)\]\s+(?P<level>{LEVELS})\s+(?P<logger>[\w.$]+):?\s+-?\s*(?P<message>.*)$",
        "2024-05-01 10:00:00,123 [main] INFO  org.apache.kafka.clients.consumer.internals.ConsumerCoordinator - "
        "[Consumer clientId=consumer-g-1, groupId=g] (Re-)joining group",
        "log4j/logback `%d [%t] %-5p %c - %m`",
    ),
    Layout(
        "log4j-level-thread",
        rf"^(?P<ts>{_TS_ISO})\s+(?P<level>{LEVELS})\s+\[(?P<thread>[^\]\d][^\]=]*)\]\s+(?P<logger>[\w$]+(?:\.[\w$]+)+):?\s+-?\s*(?P<message>.*)$",
        "2024-05-01 10:00:00,123 INFO  [main] org.apache.kafka.clients.consumer.internals.ConsumerCoordinator - "
        "[Consumer clientId=consumer-g-1, groupId=g] (Re-)joining group",
        "log4j `%d %-5p [%t] %c - %m` (a bracket holding `k=v` is a context prefix, not a thread)",
    ),
    Layout(
        "log4j-level-thread-short",
        rf"^(?P<ts>{_TS_ISO})\s+(?P<level>{LEVELS})\s+\[(?P<thread>[^\]\d][^\]=]*)\]\s+(?P<logger>[\w$]+)(?::\s+-?|\s+-)\s*(?P<message>.*)$",
        "2024-05-01 10:00:00,123 INFO  [main] ConsumerCoordinator - [Consumer clientId=consumer-g-1, groupId=g] (Re-)joining group",
        "log4j `%d %-5p [%t] %c{1} - %m`: a logger without dots needs its separator (a bare word after "
        "`[x]` is message text: kafkajs's `[Connection] Request ...`, ruby-kafka's `[member] Joined ...`)",
    ),
    Layout(
        "log4j-iso-thread",
        rf"^(?P<ts>{_TS_ISO})\s+(?P<level>{LEVELS})\s+(?P<message>.*) \((?P<logger>[\w$-]+(?:\.[\w$-]+)+(?::\d+)?)\) "
        r"\[(?P<thread>[^\]]*)\]$",
        "2024-05-01 10:00:00,123 INFO [GroupCoordinator 1]: Stabilized group g generation 3 (__consumer_offsets-12) "
        "with 2 members (kafka.coordinator.group.GroupCoordinator) [data-plane-kafka-request-handler-3]",
        "`%d{ISO8601} %p %m (%c) [%t]` (Strimzi's brokers; its Connect workers add `%X{connector.context}` "
        "before the message)",
    ),
    Layout(
        "jboss",
        rf"^(?P<ts>{_TS_ISO}|{_TS_TIME_ONLY}|\d{{2}}:\d{{2}}:\d{{2}})\s+(?:\S+ \S+\[\d+\]\s+)?(?P<level>{LEVELS})\s+"
        r"\[(?P<logger>[\w.$-]+)\]\s+\((?P<thread>[^()]*)\)\s(?P<message>.*)$",
        "2024-05-01 10:00:00,123 INFO  [org.apa.kaf.cli.con.int.ConsumerCoordinator] (executor-thread-1) "
        "[Consumer clientId=consumer-g-1, groupId=g] (Re-)joining group",
        "JBoss LogManager `%d %-5p [%c] (%t) %s%e` (WildFly, Quarkus with `%c{3.}` names; Quarkus' file "
        "format puts `host process[pid]` before the level)",
    ),
    Layout(
        "fields-after",
        rf"^(?P<ts>{_TS_ISO})\s+(?P<level>{LEVELS})\s+(?P<message>.*?)\s+\[(?P<thread>[^\]]+)\]\s+"
        r"(?P<logger>[A-Za-z_$][\w$]*(?:\.[\w$]+)*(?::\d+)?)$",
        "2024-05-01 10:00:00.123 INFO  [Consumer clientId=consumer-g-1, groupId=g] (Re-)joining group "
        "[main] ConsumerCoordinator:412",
        "`%d %-5p %m [%t] %c{1}:%L`: the thread and the logger after the message",
    ),
    Layout(
        "python",
        rf"^(?P<ts>{_TS_ISO}) - (?P<logger>\S+) - (?P<level>{LEVELS}) - (?P<message>.*)$",
        "2024-05-01 10:00:00,123 - kafka.coordinator - INFO - Successfully joined group g with generation 3",
        "Python logging `%(asctime)s - %(name)s - %(levelname)s - %(message)s` (kafka-python)",
    ),
    Layout(
        "python-basic",
        rf"^(?P<level>{LEVELS}):(?P<logger>[\w.]+):(?P<message>.*)$",
        "INFO:kafka.coordinator:Successfully joined group g with generation 3",
        "Python `logging.basicConfig()` default (no timestamp)",
    ),
    Layout(
        "librdkafka",
        r"^%(?P<level>\d)\|(?P<ts>\d{9,10}(?:\.\d+)?)\|(?P<logger>[A-Z_]+)\|(?P<thread>[^|]*)\| (?P<message>.*)$",
        '%7|1714557600.123|CGRPJOINSTATE|rdkafka#consumer-1| [thrd:main]: Group "g" changed join state '
        "init -> wait-join (state up)",
        "librdkafka debug/log callback `%LEVEL|ts|FAC|name| msg`",
    ),
    Layout(
        "golog",
        r"^(?:\[(?P<logger>[\w-]+)\] )?(?P<ts>\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?) (?P<message>.*)$",
        "[sarama] 2024/05/01 10:00:00 client/coordinator coordinator for consumergroup g is #1 (kafka-1:9092)",
        "Go `log` (sarama's `[sarama] ` logger)",
    ),
    Layout(
        "jul",
        rf"^(?P<ts>(?:{_MONTH}) \d{{1,2}}, \d{{4}} \d{{1,2}}:\d{{2}}:\d{{2}} (?:AM|PM)"
        rf"|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:{_MONTH}) \d{{2}} \d{{2}}:\d{{2}}:\d{{2}} [A-Z]{{2,5}} \d{{4}}|{JUL.LOCALIZED_DATE})"
        r" (?P<logger>[\w.$]+)(?: (?P<thread>\S+))?$",
        "May 01, 2024 10:00:00 AM org.apache.kafka.clients.consumer.internals.ConsumerCoordinator onJoinComplete",
        "java.util.logging's SimpleFormatter, two lines: the default `%1$tb %1$td, %1$tY %1$tl:%1$tM:%1$tS %1$Tp %2$s`"
        " (in the JVM's locale: `9月 19, 2018 4:45:32 下午 …`) or `%1$tc %2$s` (`Wed May 01 10:00:00 UTC 2024 …`), then"
        " `LEVEL: msg` (the level in the JVM's locale)",
    ),
    Layout(
        "mel",
        rf"^(?:(?P<ts>{_TS_ISO}) )?(?P<level>{MEL_LEVELS}): (?P<logger>[^\s\[\]]+)\[\d+\]$",
        "2024-05-01 10:00:00.123 info: Confluent.Kafka.Consumer[0]",
        "Microsoft.Extensions.Logging console (simple formatter) two-line entry `level: Category[EventId]`; "
        "the message is on the next line, indented by 6 spaces (a `TimestampFormat` puts the time in front)",
    ),
    Layout(
        "mel-single",
        rf"^(?:(?P<ts>{_TS_ISO}) )?(?P<level>{MEL_LEVELS}): (?P<logger>[^\s\[\]]+)\[\d+\] (?P<message>.*)$",
        "2024-05-01 10:00:00.123 info: Confluent.Kafka.Consumer[0] [thrd:main]: Group \"g\": join with 1 subscribed topic(s)",
        "Microsoft.Extensions.Logging console with `SingleLine = true`",
    ),
    Layout(
        "erlang-report",
        r"^=(?P<level>[A-Z]+) REPORT==== (?P<ts>\d{1,2}-[A-Z][a-z]{2}-\d{4}::\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?) ===$",
        "=INFO REPORT==== 1-May-2024::10:00:00.123456 ===",
        "Erlang `error_logger` / OTP `logger` legacy report header; the message is on the next line(s)",
    ),
    Layout(
        "otp",
        rf"^(?P<ts>{_TS_ISO_T}) (?P<level>{OTP_LEVELS}): (?P<message>.*)$",
        "2024-05-01T10:00:00.123456+00:00 info: Group member (g,coor=<0.1.0>,cb=<0.2.0>,generation=3):, elected=true",
        "OTP `logger`'s default formatter `time level: msg` (brod); a multi-line message continues on the next lines",
    ),
    Layout(
        "elixir",
        rf"^(?P<ts>{_TS_TIME_ONLY}|{_TS_ISO}) (?:[\w.]+=\S+ )*\[(?P<level>{OTP_LEVELS}|warn)\]  ?(?P<message>.*)$",
        "10:00:00.123 [info] Group member (g,coor=#PID<0.1.0>,cb=#PID<0.2.0>,generation=3):",
        "Elixir `Logger`'s console format `$time $metadata[$level] $message`, and its default before Elixir 1.15,"
        " `\\n$time $metadata[$level] $levelpad$message\\n` (a space more after a four-letter level) (Kaffe, brod)",
    ),
    Layout(
        "ruby-logger",
        r"^[DIWEFA], \[(?P<ts>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?) #\d+\] +(?P<level>DEBUG|INFO|WARN|ERROR|FATAL|ANY)"
        r" -- (?P<logger>[^:\s]*): (?P<message>.*)$",
        "I, [2024-05-01T10:00:00.123456 #4242]  INFO -- ruby-kafka: Joined group `g` with member id `m`",
        "Ruby `Logger`'s default formatter `S, [time #pid] LEVEL -- progname: msg` (ruby-kafka, rdkafka-ruby, Karafka)",
    ),
    Layout(
        "node-debug",
        r"^ *(?P<logger>[a-z][\w-]*:[\w:-]+) (?P<message>.*) \+\d+(?:ms|s|m|h)$",
        "  kafka-node:ConsumerGroup SyncGroup Response +4ms",
        "the npm `debug` module on a terminal: indented namespace, message, `+Nms` since the previous line",
    ),
    Layout(
        "node-debug-open",
        r"^ *(?P<logger>kafka-node:[\w:-]+) (?P<message>.*)$",
        "  kafka-node:ConsumerGroup kafka-node-client Heartbeat error: { RebalanceInProgress: Kafka Error Code: 27",
        "a kafka-node `debug` line whose value is printed over the next lines (its `+Nms` comes after them)",
    ),
    Layout(
        "json-pretty-message",
        r'^[ \t]*"(?:message|msg)"\s*:\s*"(?P<message>.*)",?$',
        '    "message": "[Consumer clientId=c1, groupId=g] (Re-)joining group",',
        "the message key's own line of a pretty-printed (indented, multi-line) JSON record; its other keys are not read",
    ),
    Layout(
        "generic",
        rf"^(?P<ts>{_TS_ISO})\s+(?:\[(?P<thread>[^\]\d][^\]]*)\]\s+)?(?P<level>{LEVELS})\s+"
        rf"(?:(?P<logger>{PY_LOGGER}):?\s+)?(?P<message>.*)$",
        "2024-05-01 10:00:00.123 INFO [Consumer clientId=c1, groupId=g] (Re-)joining group",
        "any `timestamp LEVEL [python.logger.name] message`",
    ),
)
LAYOUT_IDS = tuple(lay.id for lay in LAYOUTS) + ("json",)
LAYOUT_BY_ID = {lay.id: lay for lay in LAYOUTS}

_DIGITS = "0123456789"
#: every one-byte first character (a declared layout's regex is not analysed: it may start anywhere)
ALL_CHARS = "".join(chr(i) for i in range(1, 256))
#: the characters a line of each layout can start with: a necessary condition of its regex (a
#: superset is always safe), tested on the first byte before the regex runs, so that a layout is
#: not even compiled for a file (or the leftover lines) none of whose lines it could match
FIRST_CHARS: dict[str, str] = {
    "log4j": "[",
    "springboot": _DIGITS,
    "springboot3": _DIGITS,
    "log4j-nologger": "[",
    "slf4j-simple": "[" + _DIGITS,
    "log4j-thread": _DIGITS,
    "log4j-level-thread": _DIGITS,
    "log4j-level-thread-short": _DIGITS,
    "log4j-iso-thread": _DIGITS,
    "jboss": _DIGITS,
    "fields-after": _DIGITS,
    "python": _DIGITS,
    "python-basic": "".join(sorted({lv[0] for lv in LEVELS.split("|")})),
    "librdkafka": "%",
    "golog": "[" + _DIGITS,
    "jul": "JFMASONDTW" + JUL.FIRST_BYTES,
    "mel": _DIGITS + "tdiwfc",
    "mel-single": _DIGITS + "tdiwfc",
    "erlang-report": "=",
    "otp": _DIGITS,
    "elixir": _DIGITS,
    "ruby-logger": "DIWEFA",
    "node-debug": " abcdefghijklmnopqrstuvwxyz",
    "node-debug-open": " k",
    "json-pretty-message": ' \t"',
    "generic": _DIGITS,
    "json": ' \t\n\v\f\r{"',
    "ts": _DIGITS + "@",  # TS_PREFIX
}

#: fast paths (split instead of sub-match extraction) for the two most common layouts
FAST_LOG4J = rf"^\[\d{{4}}-\d{{2}}-\d{{2}} \d{{2}}:\d{{2}}:\d{{2}},\d{{3}}\] (?:{LEVELS}) +\S"
LOG4J_LOGGER_TAIL = r"^[\w.$-]+(?::\d+)?\)$"
FAST_SPRINGBOOT = rf"^\d{{4}}-\d{{2}}-\d{{2}}[ T]\d{{2}}:\d{{2}}:\d{{2}}[.,]\d{{1,9}}(?:Z|[+-]\d{{2}}:?\d{{2}})? +(?:{LEVELS}) +(?:\d+ +)?--- \["

#: the second line of a java.util.logging entry: ``LEVEL: message``, the level in the JVM's locale
#: (the names of every resource bundle the JDK ships: :mod:`jobs.ingest.jul_levels`)
JUL_MESSAGE = rf"^(?P<level>{JUL.LEVEL_NAMES}): (?P<message>.*)$"
#: two-line entries: a layout whose line is a record header (time, level, logger; no message) ->
#: its next line, which holds the message (and the level, for JUL); the line is the entry's
#: continuation and is never read as an entry of its own. A layout label ends with the layout id
#: (``docker+mel``).
NEXT_LINE: dict[str, str] = {
    "jul": JUL_MESSAGE,
    "mel": r"^ {6}(?P<message>\S.*)$",
    "erlang-report": r"^(?P<message>\S.*)$",
}


def next_line(label: str) -> str | None:
    """The regex of the message line that follows a head of layout ``label`` (None: one-line entries)."""
    return NEXT_LINE.get(label.rsplit("+", 1)[-1])

#: lines that continue the previous entry (stack traces, tab-indented blocks, JUL-free exception heads)
CONTINUATION = (
    r"^(?:\s|Caused by:|Suppressed:|\.\.\. \d+ (?:more|common frames omitted)"
    r"|[\w$]+(?:\.[\w$]+)+(?:Exception|Error|Throwable)(?::|$)"
    r"|(?:now assigned|compare with previously owned|newly added|revoked|assigned|current owned|added|revoked)"
    r" partitions(?: \([^)]*\))?:"
    # Python logging's exc_info (``Traceback (most recent call last):``), and the terminal tables faust and
    # mode log after a message's first line (``+Topic Partition Set---+---+``, ``| orders | {0-3} |``,
    # ``+---+---+ for group g``)
    r"|Traceback \(most recent call last\):$|\+[-+A-Za-z ]*-\+(?: .*)?$|\| .* \|\s*$)"
)

#: an indented continuation that can be the rest of a message printed over several lines (an Erlang
#: term ``~p`` prints, a multi-line message's next line): not a stack frame (``at …``)
INDENTED_TEXT = r"^[ \t]+(?:[^\sa]|a(?:[^t]|t\S))"

#: wrapping prefixes, stripped before the layouts (``pfx`` names the prefix in the layout column)
#: (a service name has a letter: an epoch time before `` | `` is no service; pm2 writes ``0|app  | ``)
DOCKER_HEAD = r"(?P<svc>(?:\d+\|)?[\w.-]*[A-Za-z_][\w.-]*)\s+\| "
KUBECTL_HEAD = r"\[(?P<pod>pod/[^\]\s]+)\] "
DOCKER_PREFIX = rf"^{DOCKER_HEAD}(?P<rest>.*)$"
KUBECTL_PREFIX = rf"^{KUBECTL_HEAD}(?P<rest>.*)$"
#: (a viewer's ISO time, or a supervisor's TAI64N label: svlogd/runit, s6-log ``t``)
TS_PREFIX = rf"^(?P<pts>{_TS_ISO_T}|{_TS_ISO_SPACE}|{TS.TAI64N})\s+(?P<rest>.*)$"
ANSI = r"\x1b\[[0-9;]*[A-Za-z]"
#: line ends a .NET console or an XML export escaped (``&#xD;``, ``&#xD;&#xA;``, ``&#13;``): removed like ``\r``
ESCAPED_END = r"(?:&#[xX][dDaA];|&#1[03];)+\s*$"

#: JSON lines: one regex per field family (first match wins, in this order of key names)
JSON_LINE = r"^\s*(?:\{|\"[\w@.]+\"\s*:).*\}\s*[,.]?\s*$"
#: a JSON object behind a log viewer's columns (Kibana / Loki tab exports: ``\tFeb 21, 2023 @ 15:17:51.398\t{...}``)
#: (columns end with a tab or a wider gap: a message's JSON context after one space is the message's)
JSON_BEHIND = r"^(?P<pre>[^{]{0,79}?[^{:\s])(?:\t\s*|\s{2,})(?P<rest>\{.*\})\s*$"  # (not after a label: ``| Data: {…}``)
#: a JSON record with a message key behind any text (a timestamp, a level word, a service name):
#: read as the record before the layouts, whose message it would otherwise be (layout ``col+json``)
JSON_RECORD_BEHIND = r'^(?P<pre>[^{]{1,80}?)\s(?P<rest>\{.*"(?:message|msg|@m|text)"\s*:\s*".*\})\s*$'
_JSTR = r'"((?:[^"\\]|\\.)*)"'
#: THE roles a key of a structured record plays (message, time, level, logger, thread, and the facts a
#: client logs beside its message: group, member, generation, client, error), whatever the schema: per
#: family its key names in order (the first present wins; nested keys flattened with "."). The
#: ``json`` layout reads the names not in :data:`RECORD_ONLY_KEYS` (:data:`JSON_NAMES`, :data:`JSON_KEYS`);
#: an application record peeled by ``records`` reads those not in :data:`JSON_ONLY_KEYS`
#: (``records.FAMILIES``): the names a whole-line envelope or a schema the ``json`` layout leaves to
#: the record reader uses, and Serilog's ``@mt`` template / log4j2's ``timeMillis`` / Bunyan's ``name``,
#: which only the ``json`` layout reads.
KEY_FAMILIES: dict[str, tuple[str, ...]] = {
    "message": ("message", "msg", "short_message", "full_message", "@message", "@m", "@mt", "event", "text",
                "textPayload", "jsonPayload.message", "jsonPayload.msg", "MESSAGE", "log", "_raw", "Message"),
    "ts": ("@timestamp", "timestamp", "time", "ts", "@t", "t", "datetime", "date", "timeMillis", "Date", "_time",
           "__REALTIME_TIMESTAMP", "_SOURCE_REALTIME_TIMESTAMP", "receiveTimestamp", "asctime", "created"),
    "level": ("level", "log.level", "severity", "@l", "levelname", "loglevel", "lvl", "Level", "Status", "status",
              "PRIORITY"),
    "logger": ("logger_name", "logger", "log.logger", "loggerName", "logger.name", "name", "_logger_name",
               "SYSLOG_IDENTIFIER", "caller", "component"),
    "thread": ("thread_name", "thread", "process.thread.name", "threadName", "_thread_name"),
    "j_group": ("groupId", "group_id", "group.id", "groupID", "consumerGroup", "consumer_group", "kafka.group",
                "group", "GroupId"),
    "j_member": ("memberId", "member_id", "member.id", "memberID"),
    "j_gen": ("generationId", "generation_id", "generation"),
    "j_client": ("clientId", "client_id", "client.id"),
    "j_error": ("error", "err", "error.message", "err.message", "exception"),
}  # fmt: skip
#: names only a peeled record reads
RECORD_ONLY_KEYS = frozenset(
    ["short_message", "full_message", "@message", "event", "textPayload", "jsonPayload.message", "jsonPayload.msg",
     "MESSAGE", "_raw", "Message", "Date", "_time", "__REALTIME_TIMESTAMP", "_SOURCE_REALTIME_TIMESTAMP",
     "receiveTimestamp", "created", "Level", "Status", "status", "PRIORITY", "_logger_name",
     "SYSLOG_IDENTIFIER", "caller", "component", "_thread_name", "GroupId"]
)  # fmt: skip
#: names only the ``json`` layout reads
JSON_ONLY_KEYS = frozenset(["@mt", "timeMillis", "name"])
#: the families as column names of pyarrow's JSON reader (nested objects flattened with ".")
JSON_NAMES: dict[str, tuple[str, ...]] = {
    fam: tuple(n for n in names if n not in RECORD_ONLY_KEYS) for fam, names in KEY_FAMILIES.items()
}
#: the value of a key of each family in JSON text (``v``; the time also as a number ``n``)
_JSON_VALUES = {
    "ts": r'(?:"(?P<v>[^"]*)"|(?P<n>\d{9,13}(?:\.\d+)?))',
    "message": r'"(?P<v>(?:[^"\\]|\\.)*)"',
    "j_gen": r"(?P<v>-?\d+)",
    "j_error": r'"(?P<v>(?:[^"\\]|\\.)*)"',
}
#: JSON lines: one regex per field family (the first key of the family in the text), for a line the
#: JSON reader does not take (:data:`JSON_NAMES` as regexes; a nested name is not matched)
JSON_KEYS: dict[str, str] = {
    fam: r'"(?:' + "|".join(n.replace(".", r"\.") for n in names) + r')"\s*:\s*' + _JSON_VALUES.get(fam, r'"(?P<v>[^"]*)"')
    for fam, names in JSON_NAMES.items()
}
#: epoch seconds and nanoseconds in two keys (flattened names): log4j2's JsonLayout ``instant``,
#: Spring Cloud GCP's Stackdriver layout, protobuf's ``Timestamp`` as JSON); the time when no
#: ``ts`` key has one, as the text ``seconds.nanoseconds``
JSON_EPOCH_PAIRS: tuple[tuple[str, str], ...] = (
    ("instant.epochSecond", "instant.nanoOfSecond"),
    ("timestampSeconds", "timestampNanos"),
    ("timestamp.seconds", "timestamp.nanos"),
)


def epoch_pair_text(seconds: object, nanos: object) -> str | None:
    """``seconds.nanoseconds`` (nine digits) of one :data:`JSON_EPOCH_PAIRS` pair, None unless both are
    JSON integers."""
    if type(seconds) is int and type(nanos) is int:
        return f"{seconds}.{nanos:09d}"
    return None


#: nested keys (MDC, context objects: ``mdc.groupId``) that fill a family the names above leave
#: empty: the first flattened key ending in ``.<suffix>``
JSON_SUFFIXES: dict[str, tuple[str, ...]] = {
    "j_group": ("groupId", "group_id", "group.id", "kafka.group"),
    "j_member": ("memberId", "member_id"),
    "j_gen": ("generationId", "generation_id"),
    "j_client": ("clientId", "client_id"),
}
#: the head columns the JSON-only keys fill (null in every other layout)
JSON_EXTRA = ("j_group", "j_member", "j_gen", "j_client", "j_error")
#: ECS nests ``log: {level, logger}``; these catch the nested spelling
JSON_NESTED = {
    "level": r'"log"\s*:\s*\{[^{}]*"level"\s*:\s*"(?P<v>[^"]*)"',
    "logger": r'"log"\s*:\s*\{[^{}]*"logger"\s*:\s*"(?P<v>[^"]*)"',
}


#: a JSON message that is itself a text line with its own JSON fields: an app's logger wrapping
#: kafkajs' (``{"msg":"ERROR [Connection] Response Heartbeat(...) {\"timestamp\":...,\"error\":...}"}``):
#: the text is the message, the inner object's keys fill the fields the outer one lacks
ENVELOPE = rf"^(?:(?:{LEVELS}|NOTHING)\s+)?(?P<m>\[[\w.]+\] [^{{]*?) (?P<j>\{{.*\}})$"
#: the fields an enveloped object can fill
ENVELOPE_KEYS = ("ts", "j_group", "j_member", "j_gen", "j_client", "j_error")

#: kafkajs logs a failed response as ``"message":"[Connection] Response Heartbeat(key: 12, version: 3)"``
#: with the failure only in its ``"error"`` key: the reader appends it to such a message
RESPONSE_MESSAGE = r"^\[Connection\] Response \w+\(key: \d+, version: \d+\)$"
#: a response's ``error`` key on an indented line of its continuation block (pino-pretty writes each
#: extra key of kafkajs' record so; a YAML-like dump): group ``v`` is the error
RESPONSE_ERROR_LINE = r"""^[ \t]+["']?error["']?:[ \t]*["']?(?P<v>[^"'\r\n]*?)["']?,?[ \t]*\r?$"""


@cache
def _py(pattern: str) -> re.Pattern[str]:
    return re.compile(PR.translate(pattern), re.ASCII)


def block_response_error(message: str, block: list[str]) -> str:
    """``message`` with `` error: <error>`` appended when it ends with a kafkajs response line
    (:data:`RESPONSE_MESSAGE`) and a line of its continuation ``block`` is its ``error`` key
    (:data:`RESPONSE_ERROR_LINE`): the same message as :func:`with_response_error` gives for the
    key of a JSON record. The rule of both readers."""
    if not _py(RESPONSE_MESSAGE[1:]).search(message):  # (behind a head's leftover, e.g. pino-pretty's pid)
        return message
    key = _py(RESPONSE_ERROR_LINE)
    for line in block:
        if line and (m := key.search(line)) and m.group("v"):
            return f"{message} error: {m.group('v')}"
    return message


def with_response_error(message: pa.Array, error: pa.Array | None) -> pa.Array:
    """``message`` with `` error: <error>`` appended where it is a kafkajs response line that has an
    ``error`` key (:data:`RESPONSE_MESSAGE`)."""
    if error is None or error.null_count == len(error):
        return message
    error = error.cast(message.type)
    sel = pc.and_(pc.fill_null(PR.match(message, RESPONSE_MESSAGE), False),
                  pc.fill_null(pc.not_equal(error, ""), False))  # fmt: skip
    if not pc.any(sel).as_py():
        return message
    t = message.type
    joined = pc.binary_join_element_wise(message, pa.scalar(" error: ", t), pc.fill_null(error, pa.scalar("", t)), pa.scalar("", t))
    return pc.if_else(sel, joined, message)


def json_unescape(arr: pa.Array) -> pa.Array:
    """Undo JSON string escapes in a column of raw JSON string contents (the values with a
    backslash are decoded as JSON strings, ``\\uXXXX`` included; a value that is not a valid JSON
    string keeps the common escapes undone)."""
    has = pc.fill_null(pc.match_substring(arr, "\\"), False)
    if not pc.any(has).as_py():
        return arr
    idx = np.nonzero(has.to_numpy(zero_copy_only=False))[0]
    out = []
    for v in arr.take(pa.array(idx)).to_pylist():
        try:
            out.append(json.loads('"' + v + '"'))
        except ValueError:
            for a, b in (("\\n", "\n"), ("\\t", "\t"), ("\\r", ""), ('\\"', '"'), ("\\/", "/"), ("\\\\", "\\")):
                v = v.replace(a, b)
            out.append(v)
    mask = np.zeros(len(arr), dtype=bool)
    mask[idx] = True
    return pc.replace_with_mask(arr, pa.array(mask), pa.array(out, arr.type))
