"""A statement the catalogue knows reads as the catalogue declares it whatever the logger looked like.

Every statement of the Java consumer's group code (``kafka-consumer-classic``, ``kafka-consumer-async``)
that its release writes behind the ``[Consumer clientId=…, groupId=…]`` prefix is rendered behind the
logger names logging frameworks print for its class: the full name, Logback's ``%logger{36}`` and Spring
Boot's ``%-40.40logger{39}`` (packages shortened to their first letter from the left until the name fits,
the class kept), log4j2's ``%c{1.}`` (every package to one letter) and ``%c{1}`` (the class alone: a
syslog program field, a short pattern), in four layouts (Spring Boot's default, Logback's
``%d [%thread] %-5level %logger{36} - %msg``, log4j2's ``%d %-5p [%c{1.}] (%t) %m``, a syslog line whose
program field is the logger). The kind and the group must be the catalogue's in each (an ``unrelated``
statement: no event and no quarantine row).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from jobs.ingest.catalogue import UNMAPPED, UNRELATED, expected_of, load, render_message
from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes

SOURCES = {s.name: s for s in load()}
JAVA_CONSUMER = ("kafka-consumer-classic", "kafka-consumer-async")


def logback(name: str, width: int) -> str:
    """Logback's ``%logger{width}``: packages shortened to their first letter, from the left, until the
    name fits ``width`` (the class is never shortened)."""
    parts = name.split(".")
    for i in range(len(parts) - 1):
        if len(".".join(parts)) <= width:
            break
        parts[i] = parts[i][:1]
    return ".".join(parts)


def dotted(name: str) -> str:
    """log4j2's ``%c{1.}``: every package to its first letter."""
    parts = name.split(".")
    return ".".join([p[:1] for p in parts[:-1]] + parts[-1:])


def spring(name: str) -> str:
    """Spring Boot's ``%-40.40logger{39}``: ``%logger{39}``, cut to its last 40 characters, padded."""
    return f"{logback(name, 39)[-40:]:<40}"


LOGGERS: dict[str, Callable[[str], str]] = {
    "full": lambda n: n,
    "logback36": lambda n: logback(n, 36),
    "log4j2-1.": dotted,
    "class": lambda n: n.rsplit(".", 1)[-1],
}
LAYOUTS: dict[str, Callable[[str, str, str], str]] = {
    "springboot": lambda lv, lg, m: f"2024-05-01 10:00:00.123 {lv:>5} 4242 --- [ntainer#0-0-C-1] {spring(lg)} : {m}",
    "logback": lambda lv, lg, m: f"2024-05-01 10:00:00.123 [main] {lv:<5} {lg} - {m}",
    "log4j2-bracket": lambda lv, lg, m: f"2024-05-01 10:00:00,123 {lv:<5} [{lg}] (executor-thread-1) {m}",
    "syslog": lambda lv, lg, m: f"May  1 10:00:00 {lg.rsplit('.', 1)[-1]}: {m}",
}


def _statements() -> list[tuple[str, str, str, dict]]:
    """(statement id, level, logger, message, expected) of the prefixed statements."""
    out = []
    for name in JAVA_CONSUMER:
        src = SOURCES[name]
        for st in src.statements:
            msg = render_message(src, st)
            if st.kind == UNMAPPED or not msg.startswith("[Consumer "):
                continue
            out.append((st.id, st.level, st.logger or src.logger, msg, expected_of(src, st)))
    return out


STATEMENTS = _statements()


def _read(reader, layout: str, loggers: list[str]) -> list[str]:
    """What is wrong in one file of every statement behind each of ``loggers`` in ``layout``."""
    render = LAYOUTS[layout]
    cases = [(lg, st) for lg in loggers for st in STATEMENTS]
    lines = [render(lv, LOGGERS[lg](name), msg) for lg, (_, lv, name, msg, _) in cases]
    data = ("\n".join(lines) + "\n").encode()
    events, quarantine, _ = reader(data, "consumer.log", "c")
    by_line = {e["line_no"]: e for e in events.to_pylist()}
    bad = {q["line_no"]: q["reason"] for q in quarantine.to_pylist()}
    wrong = []
    for i, (_, (sid, _, _, _, want)) in enumerate(cases, start=1):
        ev = by_line.get(i)
        if want["kind"] == UNRELATED:
            if ev is not None or i in bad:
                wrong.append(f"{sid}: declared unrelated, got {ev and ev['kind'] or bad.get(i)}: {lines[i - 1]}")
            continue
        got = (ev["kind"], ev["group_id"]) if ev else (bad.get(i, "unrelated"), None)
        if got != (want["kind"], want.get("group_id")):
            wrong.append(f"{sid}: {got} != {(want['kind'], want.get('group_id'))}: {lines[i - 1]}")
    return wrong


def test_the_sample_holds_both_kinds_of_statement() -> None:
    kinds = {want["kind"] for *_, want in STATEMENTS}
    assert len(STATEMENTS) > 300 and UNRELATED in kinds and "other" in kinds and "joined" in kinds


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_a_known_statement_reads_as_declared_under_any_logger(layout: str) -> None:
    wrong = _read(parse_bytes, layout, sorted(LOGGERS))
    assert not wrong, f"{len(wrong)} statements read wrong:\n" + "\n".join(wrong[:20])


def test_the_reference_reader_agrees() -> None:
    assert _read(read_bytes, "syslog", ["logback36"]) == []


@pytest.mark.parametrize(("name", "want"), [
    ("org.apache.kafka.clients.consumer.internals.ConsumerCoordinator", "o.a.k.c.c.internals.ConsumerCoordinator"),
    ("org.apache.kafka.clients.consumer.internals.LegacyKafkaConsumer", "o.a.k.c.c.i.LegacyKafkaConsumer"),
    ("org.apache.kafka.clients.consumer.KafkaConsumer", "o.a.k.clients.consumer.KafkaConsumer"),
])  # fmt: skip
def test_the_abbreviation_is_logbacks(name: str, want: str) -> None:
    """As Logback documents ``%logger{36}`` / Spring Boot prints ``%logger{39}``."""
    assert logback(name, 39 if "Coordinator" in name else 36) == want
