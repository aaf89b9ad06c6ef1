"""Consumer-client log lines (reference 4.2/4.3) and the three client layouts.

Client texts follow the client version paired with the broker dialect: Kafka 2.8.2 clients for
``scala2`` (``AbstractCoordinator`` logger, no "Request joining group due to" lines), 3.9 clients
for ``scala3`` and 4.0 classic-protocol clients for ``java4`` (``ConsumerCoordinator`` logger,
partition callbacks under ``ConsumerRebalanceListenerInvoker``).

Layouts:

* ``log4j``      - ``[%d] %p %m (%c)%n`` (Kafka's own log4j config),
* ``springboot`` - Spring Boot 3 default console pattern
  (``%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %5p PID --- [app] [%15.15t] %-40.40logger{39} : %m%n``),
* ``json``       - logstash-logback-encoder JSON lines (``@timestamp``, ``message``, ``logger_name``,
  ``thread_name``, ``level``, ``level_value``, ``stack_trace``).
"""

from __future__ import annotations

import json

from jobs.simulate.timefmt import iso_ts, log4j_ts

LAYOUTS = ("log4j", "springboot", "json")

PKG = "org.apache.kafka.clients.consumer.internals."
CC = PKG + "ConsumerCoordinator"
AC = PKG + "AbstractCoordinator"
INVOKER = PKG + "ConsumerRebalanceListenerInvoker"
APPINFO = "org.apache.kafka.common.utils.AppInfoParser"
CONFIG = "org.apache.kafka.clients.consumer.ConsumerConfig"

LEVEL_VALUE = {"TRACE": 5000, "DEBUG": 10000, "INFO": 20000, "WARN": 30000, "ERROR": 40000}

POLL_TIMEOUT_TAIL = (
    "This means the time between subsequent calls to poll() was longer than the configured "
    "max.poll.interval.ms, which typically implies that the poll loop is spending too much time "
    "processing messages. You can address this either by increasing max.poll.interval.ms or by "
    "reducing the maximum size of batches returned in poll() with max.poll.records."
)


def abbreviate_logger(name: str, width: int = 39) -> str:
    """logback ``%logger{39}``: shorten leading package segments to one letter until it fits."""
    if len(name) <= width:
        return name
    parts = name.split(".")
    for i in range(len(parts) - 1):
        parts[i] = parts[i][:1]
        cand = ".".join(parts)
        if len(cand) <= width:
            return cand
    return ".".join(parts)


def fit(s: str, width: int) -> str:
    """logback ``%-W.W``: left-justify to ``width``, truncate from the beginning."""
    if len(s) > width:
        return s[len(s) - width :]
    return s.ljust(width)


def json_escape(s: str) -> str:
    if '"' in s or "\\" in s or "\n" in s or "\t" in s:
        return json.dumps(s)[1:-1]
    return s


def tp_list(parts) -> str:
    """Java ``List``/``Set`` toString of topic-partitions: ``[t-0, t-1]``."""
    return "[" + ", ".join(parts) + "]"


class Layout:
    """Formats one client log line (or a multi-line record) in a layout."""

    def __init__(self, layout: str, app: str, pid: int) -> None:
        if layout not in LAYOUTS:
            raise ValueError(f"unknown client layout {layout!r}; expected one of {LAYOUTS}")
        self.layout = layout
        self.app = app
        self.pid = pid
        self._l4 = log4j_ts()
        self._iso = iso_ts()
        self._short: dict[str, str] = {}
        self._thread: dict[str, str] = {}

    def line(
        self, ts: int, level: str, logger: str, thread: str, msg: str, stack: str | None = None
    ) -> tuple[str, int]:
        """The rendered text (newline-terminated) and its number of physical lines."""
        lay = self.layout
        if lay == "log4j":
            text = f"[{self._l4(ts)}] {level} {msg} ({logger})\n"
            if stack:
                text += stack + "\n"
            return text, text.count("\n")
        if lay == "springboot":
            short = self._short.get(logger)
            if short is None:
                short = self._short[logger] = fit(abbreviate_logger(logger), 40)
            th = self._thread.get(thread)
            if th is None:
                th = self._thread[thread] = thread.rjust(15) if len(thread) < 15 else thread[-15:]
            text = f"{self._iso(ts)} {level:>5} {self.pid} --- [{self.app}] [{th}] {short} : {msg}\n"
            if stack:
                text += stack + "\n"
            return text, text.count("\n")
        extra = f',"stack_trace":"{json_escape(stack)}"' if stack else ""
        text = (
            f'{{"@timestamp":"{self._iso(ts)}","@version":"1","message":"{json_escape(msg)}",'
            f'"logger_name":"{logger}","thread_name":"{json_escape(thread)}","level":"{level}",'
            f'"level_value":{LEVEL_VALUE[level]}{extra}}}\n'
        )
        return text, 1


class ClientTexts:
    """Message texts of one client version (2.8 or 3.x/4.x)."""

    def __init__(self, dialect: str) -> None:
        self.v2 = dialect == "scala2"
        self.v4 = dialect == "java4"
        self.coord_logger = AC if self.v2 else CC
        self.callback_logger = CC if self.v2 else INVOKER
        self.version = {"scala2": "2.8.2", "scala3": "3.9.0", "java4": "4.0.0"}[dialect]
        self.commit = {"scala2": "3146c6ff4a24", "scala3": "84caaa6e9da06435", "java4": "985bc99521dd22bb"}[
            dialect
        ]
        self.consumer_logger = (
            "org.apache.kafka.clients.consumer.internals.ClassicKafkaConsumer"
            if self.v4
            else "org.apache.kafka.clients.consumer.KafkaConsumer"
        )

    @staticmethod
    def node(host: str, broker: int) -> str:
        return f"{host}:9092 (id: {2147483647 - broker} rack: null)"

    @staticmethod
    def generation(gen: int, member_id: str, protocol: str | None) -> str:
        return f"Generation{{generationId={gen}, memberId='{member_id}', protocol='{protocol}'}}"

    def prefix(self, client_id: str, group: str, instance: str | None) -> str:
        if instance is not None:
            return f"[Consumer instanceId={instance}, clientId={client_id}, groupId={group}] "
        return f"[Consumer clientId={client_id}, groupId={group}] "

    def coordinator_lost(self, node: str, error: str) -> str:
        sep = "." if self.v2 else ". "
        return f"Group coordinator {node} is unavailable or invalid due to cause: error response {error}{sep}isDisconnected: false. Rediscovery will be attempted."

    def poll_timeout_warning(self) -> str:
        if self.v2:
            return (
                "This member will leave the group because consumer poll timeout has expired. "
                + POLL_TIMEOUT_TAIL
            )
        return "consumer poll timeout has expired. " + POLL_TIMEOUT_TAIL

    def poll_timeout_reason(self) -> str:
        if self.v2:
            return "consumer poll timeout has expired. " + POLL_TIMEOUT_TAIL
        return "consumer poll timeout has expired."

    def lost_all(self) -> str:
        if self.v2:
            return "Giving away all assigned partitions as lost since generation has been reset,indicating that consumer is no longer part of the group"
        return "Giving away all assigned partitions as lost since generation/memberID has been reset,indicating that consumer is in old state or no longer part of the group"

    @staticmethod
    def updating_assignment(assigned, owned, added, revoked) -> str:
        return (
            "Updating assignment with\n"
            f"\tAssigned partitions:                       {tp_list(assigned)}\n"
            f"\tCurrent owned partitions:                  {tp_list(owned)}\n"
            f"\tAdded partitions (assigned - owned):       {tp_list(added)}\n"
            f"\tRevoked partitions (owned - assigned):     {tp_list(revoked)}\n"
        )

    @staticmethod
    def leader_assignment(gen: int, assignment: dict[str, list[str]]) -> str:
        body = ", ".join(f"{m}=Assignment(partitions={tp_list(p)})" for m, p in assignment.items())
        return f"Finished assignment for group at generation {gen}: {{{body}}}"

    def config_dump(
        self,
        client_id: str,
        group: str,
        instance: str | None,
        strategies: list[str],
        session_ms: int,
        max_poll_ms: int,
    ) -> str:
        strat = ", ".join(
            {
                "range": "class org.apache.kafka.clients.consumer.RangeAssignor",
                "roundrobin": "class org.apache.kafka.clients.consumer.RoundRobinAssignor",
                "sticky": "class org.apache.kafka.clients.consumer.StickyAssignor",
                "cooperative-sticky": "class org.apache.kafka.clients.consumer.CooperativeStickyAssignor",
            }[s]
            for s in strategies
        )
        rows = [
            ("allow.auto.create.topics", "true"), ("auto.commit.interval.ms", "5000"),
            ("auto.offset.reset", "latest"), ("bootstrap.servers", "[kafka-1.internal:9092, kafka-2.internal:9092]"),
            ("client.id", client_id), ("enable.auto.commit", "true"), ("fetch.max.bytes", "52428800"),
            ("group.id", group), ("group.instance.id", instance if instance is not None else "null"),
            ("heartbeat.interval.ms", "3000"), ("max.poll.interval.ms", str(max_poll_ms)),
            ("max.poll.records", "500"), ("partition.assignment.strategy", f"[{strat}]"),
            ("request.timeout.ms", "30000"), ("session.timeout.ms", str(session_ms)),
        ]  # fmt: skip
        return "ConsumerConfig values: \n" + "\n".join(f"\t{k} = {v}" for k, v in rows) + "\n"
