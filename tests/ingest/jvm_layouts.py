"""Every Java catalogue statement in the layouts JVM deployments write.

The sources are the JVM ones of the catalogue (:data:`SOURCES`: the broker's Scala and Java group
coordinators, the Java consumer classic and 3.7+, Kafka Streams, Connect, Spring Kafka, Spring Cloud
Stream, SmallRye, Alpakka); a statement's message is the catalogue's rendered with its sample values and
its logger the class that logs it (:data:`FULL_LOGGERS` undoes the abbreviations the catalogue's own
line templates print). The layouts (:data:`LAYOUTS`) are the documented defaults and the common
patterns of the JVM's logging frameworks: Kafka's log4j and Connect's (with its ``connector.context``
MDC), log4j2 and logback (full, ``%c{1}``, ``%logger{36}``-abbreviated and ``%c{1.}`` logger names,
pipes and fields after the message), Spring Boot 2 and 3 console and file (with the application name
and the correlation id), Quarkus, JBoss/WildFly, Micronaut, Dropwizard, slf4j-simple, ``java.util.logging``'s
two-line SimpleFormatter, a bare message on stdout (no time, no level, no logger) and the JSON layouts
(logstash-logback-encoder, log4j2 JsonTemplateLayout ECS/GELF/GCP, Spring Boot's structured ECS,
Logstash and GELF, Spring Cloud GCP's Stackdriver layout).

:func:`recall` scores each layout with :func:`tests.ingest.framework_layouts.score`: kind, group,
generation, member id and the application's time (to the millisecond, the second, or the time of day, as
the layout prints it). ``python -m tests.ingest.jvm_layouts [--misses]`` prints the table.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from datetime import datetime, timedelta

from jobs.ingest import jul_levels as JUL
from jobs.ingest.catalogue import render_message
from tests.ingest import framework_layouts as F
from tests.ingest.framework_layouts import Msg, Rendered, score

SOURCES = ("kafka-broker-scala", "kafka-broker-java", "kafka-consumer-classic", "kafka-consumer-async",
           "kafka-streams", "kafka-connect", "spring-kafka", "spring-cloud-stream-kafka", "smallrye-kafka",
           "alpakka-kafka")  # fmt: skip
#: the packages behind the abbreviated logger names of the catalogue's line templates
FULL_LOGGERS = {
    "o.s.k.l.": "org.springframework.kafka.listener.",
    "o.s.c.s.b.k.p.": "org.springframework.cloud.stream.binder.kafka.properties.",
    "o.s.c.s.b.k.": "org.springframework.cloud.stream.binder.kafka.",
    "io.sma.rea.mes.kafka": "io.smallrye.reactive.messaging.kafka.i18n.KafkaLogging",
}
THREADS = {"kafka-broker-scala": "data-plane-kafka-request-handler-3", "kafka-broker-java": "group-coordinator-event-processor-0",
           "kafka-streams": "orders-app-4e0c2b1a-StreamThread-1", "kafka-connect": "DistributedHerder-connect-1-1",
           "smallrye-kafka": "vert.x-eventloop-thread-0", "alpakka-kafka": "default-akka.kafka.default-dispatcher-7"}  # fmt: skip


def _full(logger: str) -> str:
    for short, full in FULL_LOGGERS.items():
        if logger.startswith(short):
            return full + logger[len(short) :] if not full.endswith("KafkaLogging") else full
    return logger


def messages(source: str) -> list[Msg]:
    """The mapped statements of one JVM source (unrelated ones left out), their logger the full class name."""
    out = []
    for src, st, exp in F.mapped_statements(source):
        level = {"WARNING": "WARN", "TRACE": "DEBUG"}.get(st.level.upper(), st.level.upper())
        logger = _full(st.logger or src.logger)
        out.append(Msg(source, (render_message(src, st),), level, logger, exp, {"thread": THREADS.get(source, "main")}))
    return out


# ------------------------------------------------------------------------------ logger names
def logback_abbrev(name: str, target: int) -> str:
    """logback's ``%logger{target}``: leftmost packages cut to their first letter until it fits; the
    class name is never cut."""
    parts = name.split(".")
    for i in range(len(parts) - 1):
        if len(".".join(parts)) <= target:
            break
        parts[i] = parts[i][:1]
    return ".".join(parts)


def dot_abbrev(name: str, keep: int = 1) -> str:
    """log4j2's ``%c{1.}`` (keep=1) and JBoss LogManager's ``%c{3.}``: every package cut to ``keep`` letters."""
    parts = name.split(".")
    return ".".join([p[:keep] for p in parts[:-1]] + parts[-1:])


def short(name: str) -> str:
    """``%c{1}``: the class name alone."""
    return name.rsplit(".", 1)[-1]


def spring_logger(name: str) -> str:
    """Spring Boot's ``%-40.40logger{39}``: abbreviated to 39, cut from the left to 40, padded to 40."""
    s = logback_abbrev(name, 39)
    return f"{s[-40:]:<40}"


# ------------------------------------------------------------------------------ layouts
Layout = Callable[[Msg, datetime], Rendered]


def _ms(t: datetime, sep: str = ",") -> str:
    return f"{t.strftime('%Y-%m-%d %H:%M:%S')}{sep}{t.microsecond // 1000:03d}"


def _tod(t: datetime, sep: str = ".") -> str:
    return f"{t.strftime('%H:%M:%S')}{sep}{t.microsecond // 1000:03d}"


def _iso(t: datetime, z: str = "Z", digits: int = 3) -> str:
    """ISO 8601 in the zone ``z`` (``Z`` or ``+HH:MM``): the same instant as ``t``."""
    if z != "Z":
        t = t + timedelta(hours=int(z[:3]), minutes=int(z[0] + z[4:]))
    return f"{t.strftime('%Y-%m-%dT%H:%M:%S')}.{f'{t.microsecond:06d}'[:digits]}{z}"


def _csv(x: str) -> str:
    """A CSV field, quoted (RFC 4180: a quote doubled)."""
    return '"' + x.replace('"', '""') + '"'


def _thr(m: Msg) -> str:
    return str(m.fields["thread"])


def _line(head: Callable[[Msg, datetime], str], prec: str | None = "ms") -> Layout:
    return lambda m, t: ([head(m, t)], (t if prec else None), prec)


def _jul_level(m: Msg) -> str:
    return {"WARN": "WARNING", "ERROR": "SEVERE", "DEBUG": "FINE"}.get(m.level, m.level)


def _jul(m: Msg, t: datetime) -> Rendered:
    hour = t.strftime("%I").lstrip("0")
    head = f"{t.strftime('%b %d, %Y')} {hour}:{t.strftime('%M:%S %p')} {m.logger} onJoinComplete"
    return [head, f"{_jul_level(m)}: {m.text}"], t.replace(microsecond=0), "s"


#: every (locale, bundle) of the JDK's level names, in turn
JUL_LOCALES = [(loc, names) for table in (JUL.JDK_CURRENT, JUL.JDK_LEGACY) for loc, names in sorted(table.items())]


def _jul_localized(m: Msg, t: datetime) -> Rendered:
    """The default SimpleFormatter on a JVM whose locale localises the level names: the statements in the
    bundles in turn, by their time (every name the JDK ships is printed by some statement)."""
    _, names = JUL_LOCALES[(t.microsecond // 1000 + t.second) % len(JUL_LOCALES)]
    lines, ts, prec = _jul(m, t)
    return [lines[0], names[JUL.ENGLISH.index(_jul_level(m))] + lines[1][len(_jul_level(m)) :]], ts, prec


#: (month abbreviations, day halves, level names) of every locale the JDK's Formatter localises, CLDR and COMPAT
JUL_DATES = [(JUL.MONTHS_CLDR[loc], JUL.DAY_HALVES.get(loc, (("AM", "PM"),))[0], [n.upper() for n in JUL.JDK_CURRENT[loc]])
             for loc in sorted(JUL.MONTHS_CLDR)] + [
            (JUL.MONTHS_COMPAT[loc], JUL.DAY_HALVES.get(loc, (("AM", "PM"),))[-1], list(JUL.JDK_LEGACY[loc]))
            for loc in sorted(JUL.MONTHS_COMPAT)]  # fmt: skip


def _jul_localized_dates(m: Msg, t: datetime) -> Rendered:
    """The default SimpleFormatter in a JVM whose locale also formats the head's date: the month's
    abbreviation and the day half of each locale in turn (``9月 19, 2018 4:45:32 下午 …``)."""
    months, halves, names = JUL_DATES[(t.microsecond // 1000 + t.second) % len(JUL_DATES)]
    hour = t.strftime("%I").lstrip("0")
    head = f"{months[t.month - 1]} {t.strftime('%d, %Y')} {hour}:{t.strftime('%M:%S')} {halves[t.hour >= 12]}"
    return [f"{head} {m.logger} onJoinComplete", f"{names[JUL.ENGLISH.index(_jul_level(m))]}: {m.text}"], t.replace(microsecond=0), "s"


def _jul_tc(m: Msg, t: datetime) -> Rendered:
    """SimpleFormatter with ``%1$tc %2$s%n%4$s: %5$s%6$s%n`` (Date.toString's form)."""
    head = f"{t.strftime('%a %b %d %H:%M:%S')} UTC {t.year} {m.logger} onJoinComplete"
    return [head, f"{_jul_level(m)}: {m.text}"], t.replace(microsecond=0), "s"


def _json(record: Callable[[Msg, datetime], dict[str, object]], prec: str = "ms") -> Layout:
    return lambda m, t: ([json.dumps(record(m, t), separators=(",", ":"))], t, prec)


GELF_LEVEL = {"ERROR": 3, "WARN": 4, "INFO": 6, "DEBUG": 7}
LEVEL_VALUE = {"ERROR": 40000, "WARN": 30000, "INFO": 20000, "DEBUG": 10000}
CONNECT_MDC = "[orders-sink|task-0] "
TRACE = "[6d5fd7b3e8c0f4a2a1b2c3d4e5f60718-2b1e8d3f9a7c6b5e] "
#: Spring Boot 3.2+'s correlation column on a line logged outside a trace (CorrelationIdFormatter's blank:
#: ``traceId(32)`` and ``spanId(16)`` as spaces)
TRACE_BLANK = f"[{' ' * 32} {' ' * 16}] "

TEXT: dict[str, Layout] = {
    "kafka-log4j": _line(lambda m, t: f"[{_ms(t)}] {m.level} {m.text} ({m.logger})"),
    "kafka-log4j-nologger": _line(lambda m, t: f"[{_ms(t)}] {m.level} {m.text}"),
    "connect-log4j": _line(lambda m, t: f"[{_ms(t)}] {m.level} {CONNECT_MDC}{m.text} ({m.logger}:231)"),
    "strimzi": _line(lambda m, t: f"{_ms(t)} {m.level} {m.text} ({m.logger}) [{_thr(m)}]"),
    "strimzi-connect": _line(lambda m, t: f"{_ms(t)} {m.level} {CONNECT_MDC}{m.text} ({m.logger}) [{_thr(m)}]"),
    "kafka-log4j-c1": _line(lambda m, t: f"[{_ms(t)}] {m.level} {m.text} ({short(m.logger)})"),
    "log4j2-iso8601": _line(lambda m, t: f"{_ms(t).replace(' ', 'T')} [{_thr(m)}] {m.level:<5} {m.logger} - {m.text}"),
    "log4j2-default-tod": _line(lambda m, t: f"{_tod(t)} [{_thr(m)}] {m.level:<5} {m.logger} - {m.text}", "tod"),
    "log4j2-c1": _line(lambda m, t: f"{_ms(t)} [{_thr(m)}] {m.level:<5} {short(m.logger)} - {m.text}"),
    "log4j2-c1dot": _line(lambda m, t: f"{_ms(t, '.')} {m.level:<5} [{_thr(m)}] {dot_abbrev(m.logger)}: {m.text}"),
    "log4j2-pipes": _line(lambda m, t: f"{_ms(t, '.')} | {m.level:<5} | [{_thr(m)}] | {m.text} | {m.logger} (Coordinator.java:66)"),
    "log4j2-fields-after": _line(lambda m, t: f"{_ms(t, '.')} {m.level:<5} {m.text} [{_thr(m)}] {short(m.logger)}:412"),
    "log4j-level-first": _line(lambda m, t: f"{m.level:<5} {_ms(t)} [{_thr(m)}] {m.logger}: {m.text}"),
    "logback-default": _line(lambda m, t: f"{_tod(t)} [{_thr(m)}] {m.level:<5} {logback_abbrev(m.logger, 36)} - {m.text}", "tod"),
    "logback-dated": _line(lambda m, t: f"{_ms(t, '.')} [{_thr(m)}] {m.level:<5} {logback_abbrev(m.logger, 36)} - {m.text}"),
    "spring-boot2-console": _line(lambda m, t: f"{_ms(t, '.')} {m.level:>5} 4242 --- [{_thr(m)[-15:]:>15}] {spring_logger(m.logger)} : {m.text}"),
    "spring-boot3-console": _line(lambda m, t: f"{_iso(t, '+02:00')} {m.level:>5} 4242 --- [{_thr(m)[-15:]:>15}] {spring_logger(m.logger)} : {m.text}"),
    "spring-boot3-appname": _line(lambda m, t: f"{_iso(t, 'Z')} {m.level:>5} 4242 --- [orders-service] [{_thr(m)[-15:]:>15}] {spring_logger(m.logger)} : {m.text}"),
    "spring-boot3-correlation": _line(lambda m, t: f"{_iso(t, 'Z')} {m.level:>5} 4242 --- [orders-service] [{_thr(m)[-15:]:>15}] {TRACE}{spring_logger(m.logger)} : {m.text}"),
    "spring-boot3-file": _line(lambda m, t: f"{_iso(t, 'Z')} {m.level:>5} 4242 --- [orders-service] [{_thr(m)}] {spring_logger(m.logger)} : {m.text}"),
    "spring-boot32-correlation-blank": _line(lambda m, t: f"{_iso(t, 'Z')} {m.level:>5} 4242 --- [orders-service] [{_thr(m)[-15:]:>15}] {TRACE_BLANK}{spring_logger(m.logger)} : {m.text}"),
    "spring-boot34-app-group": _line(lambda m, t: f"{_iso(t, '+02:00')} {m.level:>5} 4242 --- [orders-service] [orders] [{_thr(m)[-15:]:>15}] {spring_logger(m.logger)} : {m.text}"),
    "spring-boot34-app-group-file": _line(lambda m, t: f"{_iso(t, 'Z')} {m.level:>5} 4242 --- [orders-service] [orders] [{_thr(m)}] {TRACE}{spring_logger(m.logger)} : {m.text}"),
    "spring-boot3-log4j2": _line(lambda m, t: f"{_iso(t, '+02:00')} {m.level:>5} 4242 --- [orders-service] [{_thr(m)[-15:]:>15}] {TRACE}{dot_abbrev(m.logger):<40.40} : {m.text}"),
    "spring-boot34-log4j2-file": _line(lambda m, t: f"{_iso(t, 'Z')} {m.level:>5} 4242 --- [orders-service] [orders] [{_thr(m)}] {TRACE_BLANK}{dot_abbrev(m.logger):<40.40} : {m.text}"),
    "spring-boot2-sleuth": _line(lambda m, t: f"{_ms(t, '.')} {m.level:>5} [orders-service,6d5fd7b3e8c0f4a2,2b1e8d3f9a7c6b5e] 4242 --- [{_thr(m)[-15:]:>15}] {spring_logger(m.logger)} : {m.text}"),
    "spring-boot2-ansi": _line(lambda m, t: f"\x1b[2m{_ms(t, '.')}\x1b[0;39m \x1b[32m{m.level:>5}\x1b[0;39m \x1b[35m4242\x1b[0;39m \x1b[2m---\x1b[0;39m \x1b[2m[{_thr(m)[-15:]:>15}]\x1b[0;39m \x1b[36m{spring_logger(m.logger)}\x1b[0;39m \x1b[2m:\x1b[0;39m {m.text}"),
    "logback-mdc": _line(lambda m, t: f"{_ms(t)} [{_thr(m)}] {m.level:<5} {logback_abbrev(m.logger, 36)} [traceId=6d5fd7b3e8c0f4a2 spanId=2b1e8d3f9a7c6b5e] - {m.text}"),
    "log4j2-mdc-after": _line(lambda m, t: f"{_ms(t).replace(' ', 'T')} {m.level:<5} [{_thr(m)}] {dot_abbrev(m.logger)} - {m.text} {{traceId=6d5fd7b3e8c0f4a2, spanId=2b1e8d3f9a7c6b5e}}"),
    "log4j-ttcc": _line(lambda m, t: f"{1234 + int((t - t.replace(hour=13, minute=0, second=0, microsecond=0)).total_seconds() * 1000)} [{_thr(m)}] {m.level:<5} {m.logger}  - {m.text}", None),
    "play": _line(lambda m, t: f"{_ms(t)} [{m.level}] from {m.logger} in {_thr(m)} - {m.text}"),
    "akka-stdout": _line(lambda m, t: f"[{m.level}] [{t.strftime('%m/%d/%Y %H:%M:%S')}.{t.microsecond // 1000:03d}] [{_thr(m)}] [akka://orders/system/kafka-consumer-1] {m.text}"),
    "quarkus-console": _line(lambda m, t: f"{t.strftime('%H:%M:%S')} {m.level:<5} [{dot_abbrev(m.logger, 2)}] ({_thr(m)}) {m.text}", "tod-s"),
    "quarkus-dated": _line(lambda m, t: f"{_ms(t)} {m.level:<5} [{dot_abbrev(m.logger, 3)}] ({_thr(m)}) {m.text}"),
    "quarkus-file": _line(lambda m, t: f"{_ms(t)} orders-host orders-service[4242] {m.level:<5} [{dot_abbrev(m.logger, 3)}] ({_thr(m)}) {m.text}"),
    "wildfly-console": _line(lambda m, t: f"{_tod(t, ',')} {m.level:<5} [{m.logger}] ({_thr(m)}) {m.text}", "tod"),
    "wildfly-server-log": _line(lambda m, t: f"{_ms(t)} {m.level:<5} [{m.logger}] ({_thr(m)}) {m.text}"),
    "micronaut": _line(lambda m, t: f"{_tod(t)} [{_thr(m)}] {m.level:<5} {logback_abbrev(m.logger, 36)} - {m.text}", "tod"),
    "micronaut-ansi": _line(lambda m, t: f"\x1b[36m{_tod(t)}\x1b[0;39m \x1b[1;30m[{_thr(m)}]\x1b[0;39m \x1b[34m{m.level:<5}\x1b[0;39m \x1b[35m{logback_abbrev(m.logger, 36)}\x1b[0;39m - {m.text}", "tod"),
    "dropwizard": _line(lambda m, t: f"{m.level:<5} [{_ms(t)}] {m.logger}: {m.text}"),
    "slf4j-simple": _line(lambda m, t: f"[{_thr(m)}] {m.level} {m.logger} - {m.text}", None),
    "slf4j-simple-dated": _line(lambda m, t: f"{_ms(t, ':')} +0000 [{_thr(m)}] {m.level} {m.logger} - {m.text}"),
    "jul-simpleformatter": _jul,
    "jul-localized-levels": _jul_localized,
    "jul-tc": _jul_tc,
    "jul-localized-dates": _jul_localized_dates,
    "stdout-bare": _line(lambda m, t: m.text, None),
    # a log viewer's or a spreadsheet's export: the date and the time in columns of their own
    "csv-date-time": _line(lambda m, t: ",".join(_csv(x) for x in (f"{t:%Y-%m-%d}", _tod(t), m.level, m.logger, m.text))),
    "csv-unquoted-date-time": _line(lambda m, t: f"{t:%Y-%m-%d},{_tod(t)},{m.level},{m.logger},{m.text}"),
    "tsv-date-time": _line(lambda m, t: f"{t:%Y-%m-%d}\t{_tod(t)}\t{m.level}\t{m.logger}\t{m.text}"),
    "excel-us-date-time": _line(lambda m, t: f"{t.month}/{t.day}/{t.year},{t.strftime('%I:%M:%S %p').lstrip('0')},{m.level},{_csv(m.text)}", "s"),
    "excel-de-date-time": _line(lambda m, t: f"{t:%d.%m.%Y};{_tod(t, ',')};{m.level};{m.logger};{m.text}"),
}  # fmt: skip

JSON: dict[str, Layout] = {
    "logstash-logback-encoder": _json(lambda m, t: {"@timestamp": _iso(t, "+00:00"), "@version": "1", "message": m.text, "logger_name": m.logger,
                                                    "thread_name": _thr(m), "level": m.level, "level_value": LEVEL_VALUE[m.level]}),
    "log4j2-json-ecs": _json(lambda m, t: {"@timestamp": _iso(t), "ecs.version": "1.2.0", "log.level": m.level, "message": m.text,
                                           "process.thread.name": _thr(m), "log.logger": m.logger}),
    "log4j2-json-gelf": _json(lambda m, t: {"version": "1.1", "host": "orders-host", "short_message": m.text, "full_message": None,
                                            "timestamp": round(t.timestamp(), 3), "level": GELF_LEVEL[m.level], "_logger": m.logger, "_thread": _thr(m)}),
    "log4j2-json-gcp": _json(lambda m, t: {"timestamp": _iso(t), "severity": m.level.replace("WARN", "WARNING"), "message": m.text,
                                           "logging.googleapis.com/insertId": "42", "_thread": _thr(m), "_logger": m.logger}),
    "spring-boot-ecs": _json(lambda m, t: {"@timestamp": _iso(t, digits=6), "log.level": m.level, "process.pid": 4242, "process.thread.name": _thr(m),
                                           "service.name": "orders-service", "log.logger": m.logger, "message": m.text, "ecs.version": "8.11"}),
    "spring-boot-logstash": _json(lambda m, t: {"@timestamp": _iso(t, "+02:00", 6), "@version": "1", "message": m.text, "logger_name": m.logger,
                                                "thread_name": _thr(m), "level": m.level, "level_value": LEVEL_VALUE[m.level]}),
    "spring-boot-gelf": _json(lambda m, t: {"version": "1.1", "short_message": m.text, "timestamp": round(t.timestamp(), 3), "level": GELF_LEVEL[m.level],
                                            "_level_name": m.level, "_process_pid": 4242, "_process_thread_name": _thr(m), "_log_logger": m.logger}),
    "quarkus-json": _json(lambda m, t: {"timestamp": _iso(t, "Z", 6), "sequence": 42, "loggerClassName": "org.slf4j.impl.Slf4jLogger", "loggerName": m.logger,
                                        "level": m.level, "message": m.text, "threadName": _thr(m), "threadId": 42, "mdc": {}, "hostName": "orders-host",
                                        "processName": "orders-service", "processId": 4242}),
    "log4j2-jsonlayout-instant": _json(lambda m, t: {"instant": {"epochSecond": int(t.timestamp()), "nanoOfSecond": t.microsecond * 1000}, "thread": _thr(m),
                                                     "level": m.level, "loggerName": m.logger, "message": m.text, "endOfBatch": False,
                                                     "loggerFqcn": "org.apache.logging.slf4j.Log4jLogger", "threadId": 42, "threadPriority": 5}),
    "log4j2-jsonlayout-millis": _json(lambda m, t: {"timeMillis": int(t.timestamp() * 1000), "thread": _thr(m), "level": m.level, "loggerName": m.logger,
                                                    "message": m.text, "endOfBatch": False, "loggerFqcn": "org.apache.logging.slf4j.Log4jLogger"}),
    "spring-cloud-gcp": _json(lambda m, t: {"timestampSeconds": int(t.timestamp()), "timestampNanos": t.microsecond * 1000, "severity": m.level,
                                            "thread": _thr(m), "logger": m.logger, "message": m.text, "context": "default"}),
}  # fmt: skip
LAYOUTS: dict[str, Layout] = {**TEXT, **JSON}


# ------------------------------------------------------------------------------ scoring
def all_messages() -> list[Msg]:
    return [m for s in SOURCES for m in messages(s)]


def recall(reader: Callable | None = None, sources: tuple[str, ...] = SOURCES) -> dict[str, tuple[int, int, int, list[str]]]:
    """Per layout: (read right, fields right whatever the time, statements, misses)."""
    from jobs.ingest.parse import parse_bytes

    per_source = [(s, messages(s)) for s in sources]
    out = {}
    for name, lay in LAYOUTS.items():
        ok, fok, n, bad = 0, 0, 0, []
        for src, msgs in per_source:  # one file per program, named as logback's rolled files are
            o, b = score(msgs, lay, reader or parse_bytes, f"{src}-{name}.2024-05-01")
            f = o if o == len(msgs) else score(msgs, lay, reader or parse_bytes, f"{src}-{name}.2024-05-01", fields_only=True)[0]
            ok, fok, n, bad = ok + o, fok + f, n + len(msgs), bad + b
        out[name] = (ok, fok, n, bad)
    return out


def main(argv: list[str]) -> None:
    res = recall()
    tot = [0, 0, 0]
    print(f"{'layout':28} {'read right':>12} {'fields right':>14}")
    for name, (ok, fok, n, bad) in res.items():
        tot = [tot[0] + ok, tot[1] + fok, tot[2] + n]
        print(f"{name:28} {ok:5}/{n:<4} {100 * ok / max(n, 1):5.1f}% {100 * fok / max(n, 1):5.1f}%")
        if "--misses" in argv:
            for b in bad[: int(argv[argv.index("--misses") + 1]) if argv.index("--misses") + 1 < len(argv) else 3]:
                print("      ", b)
    print(f"all {tot[0]}/{tot[2]} = {100 * tot[0] / tot[2]:.1f}% (fields right: {100 * tot[1] / tot[2]:.1f}%)")


if __name__ == "__main__":
    main(sys.argv[1:])
