"""Coordinator messages rendered in every envelope and record shape the reader knows.

A *catalogue* is a plain iterable of ``(line, expected)``: a log line holding one coordinator
message and what it must read as (``kind``, ``group_id``, ``generation``, ``member_id`` where
given). :func:`items` reads each line once (its message, logger and level) so that a catalogue of
golden lines plugs in as it is (:func:`dialect_fixture_catalogue`: the golden lines of
``tests/fixtures/dialects``). :data:`SHAPES` render one message in one shape (nested shapes too);
:func:`recall` reads a whole file of one shape and scores every message: kind, group, generation,
member id, and the application's timestamp to the millisecond.
"""

from __future__ import annotations

import glob
import json
import os
import pprint
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from jobs.ingest.model import IngestSettings
from jobs.ingest.parse import parse_bytes
from tests.ingest.helpers import check_invariant
from tests.ingest.test_reference_equivalence import assert_same

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: what a reading is checked on (where the expected dict gives it)
CHECKED = ("kind", "group_id", "generation", "member_id")
SETTINGS = IngestSettings(default_year=2024)
T0 = datetime(2024, 5, 1, 10, 0, 0, 123000, tzinfo=UTC)


@dataclass(frozen=True)
class Item:
    """One catalogue entry read once: its message, logger, level and expected reading."""

    message: str
    logger: str
    level: str
    expected: dict[str, Any]


def dialect_fixture_catalogue() -> list[tuple[str, dict[str, Any]]]:
    """The golden lines of ``tests/fixtures/dialects/*.jsonl`` with their expected readings."""
    out = []
    for f in sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/dialects/*.jsonl"))):
        with open(f, encoding="utf-8") as fh:
            for row in (json.loads(x) for x in fh if x.strip()):
                exp = {k: row["expected"][k] for k in CHECKED if k in row.get("expected", {})}
                if "kind" in exp:
                    out.append((row["line"], exp))
    return out


def items(catalogue: Iterable[tuple[str, dict[str, Any]]]) -> list[Item]:
    """Each line's message, logger and level as the reader finds them (read as one file, blank lines
    between: they are fields of the line; lines read as one event of the expected kind, the others
    are no message to re-render)."""
    pairs = [(line, exp) for line, exp in catalogue if "\n" not in line]
    data = "".join(f"{line}\n\n" for line, _ in pairs).encode()
    ev, _, _ = parse_bytes(data, "catalogue.log", settings=SETTINGS)
    by_line: dict[int, list[dict[str, Any]]] = {}
    for r in ev.to_pylist():
        by_line.setdefault(r["line_no"], []).append(r)
    out = []
    for k, (_, exp) in enumerate(pairs):
        rows = by_line.get(2 * k + 1, [])
        if len(rows) == 1 and rows[0]["kind"] == exp.get("kind") and "\n" not in rows[0]["message"]:
            r = rows[0]
            out.append(Item(r["message"], r["logger"] or "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator",
                            r["level"] or "INFO", exp))  # fmt: skip
    return out


# ------------------------------------------------------------------------------ renderings
def _iso(t: datetime, digits: int = 3, z: str = "Z") -> str:
    frac = f"{t.microsecond:06d}000"[:digits]
    return t.strftime("%Y-%m-%dT%H:%M:%S") + (f".{frac}" if digits else "") + z


def _log4j(it: Item, t: datetime) -> str:
    return f"[{t.strftime('%Y-%m-%d %H:%M:%S')},{t.microsecond // 1000:03d}] {it.level} {it.message} ({it.logger})"


def _logstash(it: Item, t: datetime) -> str:
    return json.dumps({"@timestamp": _iso(t), "@version": "1", "message": it.message, "logger_name": it.logger,
                       "thread_name": "main", "level": it.level, "level_value": 20000})  # fmt: skip


def _logfmt(it: Item, t: datetime) -> str:
    msg = it.message.replace("\\", "\\\\").replace('"', '\\"')
    return f'ts={_iso(t)} level={it.level.lower()} logger={it.logger} msg="{msg}" thread=main'


def _docker(inner: str, t: datetime, stream: str = "stdout") -> str:
    return json.dumps({"log": inner + "\n", "stream": stream, "time": _iso(t + timedelta(milliseconds=777), 9)})


def _cri(inner: str, t: datetime, flag: str = "F") -> str:
    return f"{_iso(t + timedelta(milliseconds=641), 9)} stdout {flag} {inner}"


def _epoch(t: datetime) -> float:
    return round(t.timestamp(), 3)


def _short(logger: str) -> str:
    """The last segment of a logger name (``%c{1}``), without a ``:line``."""
    return logger.split(":")[0].rsplit(".", 1)[-1]


#: the Java consumer's context prefix (its group goes to the MDC in the MDC shapes; a client before 2.3
#: wrote none)
_CLIENT_PREFIX = re.compile(r"^\[Consumer (?:instanceId=[^,\]]*, )?clientId=[^,\]]*, groupId=(?P<g>[^\]]*)\] ")


def _bare(it: Item) -> tuple[str, str]:
    """The message without the Java client's context prefix, and the group for the MDC (the prefix's,
    else the expected one; ``g``: the file's)."""
    m = _CLIENT_PREFIX.match(it.message)
    group = m.group("g") if m else it.expected.get("group_id") or "g"
    return (it.message[m.end():] if m else it.message), group


def _mdc(kind: str) -> Callable[[Item, datetime], tuple[list[str], datetime]]:
    """The message without its client prefix, its group in the MDC as a pattern prints it."""

    def render(it: Item, t: datetime) -> tuple[list[str], datetime]:
        msg, g = _bare(it)
        ts = f"{t.strftime('%Y-%m-%d %H:%M:%S')},{t.microsecond // 1000:03d}"
        line = {
            "logback": f"{ts} [main] {it.level} {it.logger} groupId={g}, clientId=c1 - {msg}",
            "log4j2": f"{ts} {it.level} [main] {it.logger} {{clientId=c1, groupId={g}}} - {msg}",
            "bracket": f"[{ts}] {it.level} [groupId={g}] {msg} ({it.logger})",
            "logfmt": f'ts={_iso(t)} level={it.level.lower()} logger={it.logger} msg="{_q(msg)}" group.id={g}',
            "json": json.dumps({"@timestamp": _iso(t), "level": it.level, "logger_name": it.logger, "message": msg,
                                "mdc": {"groupId": g, "clientId": "c1"}}),
        }[kind]  # fmt: skip
        return [line], t

    return render


def _q(msg: str) -> str:
    return msg.replace("\\", "\\\\").replace('"', '\\"')


# ------------------------------------------------------------------------------ other languages' dumps
_JS_KEY = re.compile(r"^[A-Za-z_$][\w$]*$")


def js_string(v: str) -> str:
    """A string as Node's ``util.inspect`` quotes it: ``'…'``, or ``"…"`` when it holds a ``'`` and
    no ``"``, else a back-quoted one."""
    q = "'" if "'" not in v else '"' if '"' not in v else "`" if "`" not in v else "'"
    body = v.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")
    return q + (body.replace(q, "\\" + q) if q == "'" and "'" in v else body) + q


def inspect(v: Any, indent: int | None = None, depth: int = 0) -> str:
    """``v`` as Node's ``util.inspect`` prints it: on one line, or (``indent``) one key per line
    (objects nested deeper than 2 levels: ``[Object]``, ``[Array]``)."""
    if isinstance(v, dict):
        if depth > 2:
            return "[Object]"
        items = [f"{k if _JS_KEY.match(k) else js_string(k)}: {inspect(x, None, depth + 1)}" for k, x in v.items()]
        if not items:
            return "{}"
        if indent:
            pad = " " * indent
            return "{\n" + ",\n".join(pad + i for i in items) + "\n}"
        return "{ " + ", ".join(items) + " }"
    if isinstance(v, list):
        return "[Array]" if depth > 2 else "[ " + ", ".join(inspect(x, None, depth + 1) for x in v) + " ]" if v else "[]"
    if isinstance(v, str):
        return js_string(v)
    if v is None:
        return "null"
    return ("true" if v else "false") if isinstance(v, bool) else repr(v)


def ruby(v: Any, new_syntax: bool = False) -> str:
    """``v`` as Ruby's ``Hash#inspect`` prints it (``{:k=>v}``; ``new_syntax``: Ruby 3.4's ``{k: v}``)."""
    if isinstance(v, dict):
        key = (lambda k: f"{k}: ") if new_syntax else (lambda k: f":{k}=>")
        return "{" + ", ".join(key(k) + ruby(x, new_syntax) for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(ruby(x, new_syntax) for x in v) + "]"
    if v is None:
        return "nil"
    return json.dumps(v, ensure_ascii=False) if isinstance(v, str) else ("true" if v is True else "false" if v is False else repr(v))


def _app(it: Item, t: datetime) -> dict[str, Any]:
    """The application's record of a message (time, level, logger, message)."""
    return {"level": it.level, "timestamp": _iso(t), "logger": it.logger, "message": it.message}


#: shape → (it, app time) → (lines, expected ts): the message's first line is the entry's line
Shape = Callable[[Item, datetime], tuple[list[str], datetime]]
SHAPES: dict[str, Shape] = {
    "log4j": lambda it, t: ([_log4j(it, t)], t),
    "log4j2-pipes": lambda it, t: ([f"{t.strftime('%Y-%m-%d %H:%M:%S')}.{t.microsecond // 1000:03d} | {it.level} | "
                                    f"[main] | {it.message} | {it.logger} ({_short(it.logger)}.java:66)"], t),
    "logfmt": lambda it, t: ([_logfmt(it, t)], t),
    "json-logstash": lambda it, t: ([_logstash(it, t)], t),
    "json-ecs": lambda it, t: ([json.dumps({"@timestamp": _iso(t), "log.level": it.level, "message": it.message,
                                            "ecs.version": "1.2.0", "log": {"logger": it.logger},
                                            "process": {"thread": {"name": "main"}}})], t),
    "gelf": lambda it, t: ([json.dumps({"version": "1.1", "host": "h", "short_message": it.message,
                                        "timestamp": _epoch(t), "level": 6, "_logger_name": it.logger,
                                        "_thread_name": "main"})], t),
    "bunyan": lambda it, t: ([json.dumps({"name": "app", "hostname": "h", "pid": 1, "level": 30, "msg": it.message,
                                          "time": _iso(t), "v": 0})], t),
    "pino": lambda it, t: ([json.dumps({"level": 30, "time": int(_epoch(t) * 1000), "pid": 1, "hostname": "h",
                                        "msg": it.message})], t),
    "zap": lambda it, t: ([json.dumps({"level": "info", "ts": _epoch(t), "logger": "kafka", "caller": "c/x.go:12",
                                       "msg": it.message})], t),
    "zerolog": lambda it, t: ([json.dumps({"level": "info", "time": _iso(t), "message": it.message})], t),
    "structlog": lambda it, t: ([json.dumps({"event": it.message, "level": "info", "logger": it.logger,
                                             "timestamp": _iso(t)})], t),
    "cloudlogging-json": lambda it, t: ([json.dumps({"jsonPayload": {"message": it.message, "logger": it.logger},
                                                     "severity": "INFO", "timestamp": _iso(t, 9),
                                                     "logName": "projects/p/logs/stdout"})], t),
    "cloudlogging-text": lambda it, t: ([json.dumps({"textPayload": _log4j(it, t), "severity": "INFO",
                                                     "timestamp": _iso(t + timedelta(seconds=2), 9)})], t),
    "cloudwatch": lambda it, t: ([json.dumps({"@timestamp": int(_epoch(t) * 1000) + 1500, "@message": _log4j(it, t),
                                              "@logStream": "s"})], t),
    "docker": lambda it, t: ([_docker(_log4j(it, t), t)], t),
    "docker+json": lambda it, t: ([_docker(_logstash(it, t), t)], t),
    "docker-split": lambda it, t: ([json.dumps({"log": _log4j(it, t)[:40], "stream": "stdout", "time": _iso(t, 9)}),
                                    _docker(_log4j(it, t)[40:], t)], t),
    "cri+log4j": lambda it, t: ([_cri(_log4j(it, t), t)], t),
    "cri+logfmt": lambda it, t: ([_cri(_logfmt(it, t), t)], t),
    "cri+json": lambda it, t: ([_cri(_logstash(it, t), t)], t),
    "cri-split": lambda it, t: ([_cri(_log4j(it, t)[:50], t, "P"), _cri(_log4j(it, t)[50:], t)], t),
    "cri+docker+json": lambda it, t: ([_cri(_docker(_logstash(it, t), t), t)], t),
    "kubectl-timestamps": lambda it, t: ([f"{_iso(t + timedelta(milliseconds=900), 9)} {_log4j(it, t)}"], t),
    "stern": lambda it, t: ([f"\x1b[32mkafka-consumer-7d9f8-x2x4q\x1b[0m \x1b[33mapp\x1b[0m {_log4j(it, t)}"], t),
    "docker-compose": lambda it, t: ([f"consumer-1  | {_log4j(it, t)}"], t),
    "fluentbit": lambda it, t: (["[0] kube.var.log: [" + f"{_epoch(t) + 0.5:.9f}" + ", {\"log\"=>"
                                 + json.dumps(_log4j(it, t) + "\n") + ', "stream"=>"stdout"}]'], t),
    "fluentd-json_lines": lambda it, t: ([json.dumps({"date": _epoch(t) + 0.9, "log": _log4j(it, t) + "\n",
                                                      "stream": "stdout"})], t),
    "syslog3164-short": lambda it, t: ([f"{t.strftime('%b')} {t.day:2d} {t.strftime('%H:%M:%S')} kafka-1 "
                                        f"{_short(it.logger)}: {it.message}"], t.replace(microsecond=0)),
    "syslog3164+log4j": lambda it, t: ([f"<134>{t.strftime('%b')} {t.day:2d} {t.strftime('%H:%M:%S')} kafka-1 "
                                        f"kafka[42]: {_log4j(it, t)}"], t),
    "syslog5424": lambda it, t: ([f"<134>1 {_iso(t + timedelta(milliseconds=400))} kafka-1 kafka 42 - - {_log4j(it, t)}"], t),
    "syslog5424-msg": lambda it, t: ([f"<134>1 {_iso(t)} kafka-1 {_short(it.logger)} 42 - - {it.message}"], t),
    "journalctl-short-iso": lambda it, t: ([f"{t.strftime('%Y-%m-%dT%H:%M:%S')}+0000 kafka-1 kafka[42]: {_log4j(it, t)}"], t),
    "journald-json": lambda it, t: ([json.dumps({"__REALTIME_TIMESTAMP": str(int(_epoch(t) * 1e6) + 250000),
                                                 "MESSAGE": _log4j(it, t), "SYSLOG_IDENTIFIER": "kafka",
                                                 "_PID": "42"})], t),
    "csv-kibana": lambda it, t: (['"' + _iso(t) + '","kafka-1","' + it.message.replace('"', '""') + '"'], t),
    # two-line entries: a header line (time, level, logger), the message on the next line
    "mel": lambda it, t: ([f"{t.strftime('%Y-%m-%d %H:%M:%S')}.{t.microsecond // 1000:03d} info: {it.logger}[0]",
                           f"      {it.message}"], t),
    "mel-single": lambda it, t: ([f"{_iso(t)} info: {it.logger}[0] {it.message}"], t),
    "erlang-report": lambda it, t: ([f"=INFO REPORT==== {t.day}-{t.strftime('%b-%Y::%H:%M:%S')}.{t.microsecond:06d} ===",
                                     it.message], t),
    "otp": lambda it, t: ([f"{t.strftime('%Y-%m-%dT%H:%M:%S')}.{t.microsecond:06d}+00:00 info: {it.message}"], t),
    "elixir": lambda it, t: ([f"{t.strftime('%Y-%m-%d %H:%M:%S')}.{t.microsecond // 1000:03d} pid=<0.42.0> [info] {it.message}"], t),
    # an application's own text format: no logger name
    "python-custom": lambda it, t: ([f"{t.strftime('%Y-%m-%d %H:%M:%S')},{t.microsecond // 1000:03d} {it.level} {it.message}"], t),
    "golog-micro": lambda it, t: ([f"{t.strftime('%Y/%m/%d %H:%M:%S')}.{t.microsecond:06d} {it.message}"], t),
    "logrus-text": lambda it, t: ([f'time="{_iso(t)}" level={it.level.lower()} msg="{_q(it.message)}"'], t),
    "zap-console": lambda it, t: ([f"{_iso(t)}\t{it.level}\tkafka\t{it.message}"], t),
    "ruby-logger": lambda it, t: ([f"I, [{t.strftime('%Y-%m-%dT%H:%M:%S')}.{t.microsecond:06d} #4242]  {it.level} -- : {it.message}"], t),
    "winston-json": lambda it, t: ([json.dumps({"level": "info", "message": it.message, "timestamp": _iso(t)})], t),
    # the group in the MDC (or a key), the message without the client's context prefix
    "mdc-logback": _mdc("logback"),
    "mdc-log4j2": _mdc("log4j2"),
    "mdc-bracket": _mdc("bracket"),
    "mdc-logfmt": _mdc("logfmt"),
    "mdc-json": _mdc("json"),
    # object dumps that are not JSON, JSON nested in JSON, records over several lines
    "inspect": lambda it, t: ([inspect(_app(it, t))], t),
    "inspect-multiline": lambda it, t: (inspect(_app(it, t) | {"pid": 42}, 2).split("\n"), t),
    "python-repr": lambda it, t: ([repr({"asctime": f"{t.strftime('%Y-%m-%d %H:%M:%S')},{t.microsecond // 1000:03d}",
                                         "levelname": it.level, "logger": it.logger, "msg": it.message})], t),
    "python-pprint": lambda it, t: (pprint.pformat({"timestamp": _iso(t), "level": it.level, "logger": it.logger,
                                                    "msg": it.message, "thread": "MainThread"}, width=60).split("\n"), t),
    "ruby-hash": lambda it, t: ([ruby(_app(it, t))], t),
    "ruby34-hash": lambda it, t: ([ruby(_app(it, t), True)], t),
    "json-pretty": lambda it, t: (json.dumps(json.loads(_logstash(it, t)), indent=2).split("\n"), t),
    "json-nested": lambda it, t: ([json.dumps({"time": _iso(t + timedelta(seconds=3)), "stream": "stdout",
                                              "log": json.loads(_logstash(it, t))})], t),
    "json-escaped-twice": lambda it, t: ([json.dumps({"@timestamp": int(_epoch(t) * 1000) + 2500,
                                                      "@message": _docker(_logstash(it, t), t)})], t),
    "docker+inspect": lambda it, t: ([_docker(inspect(_app(it, t)), t)], t),
    # (each line of a record over several lines in an envelope of its own)
    "cri+inspect-multiline": lambda it, t: ([_cri(x, t) for x in SHAPES["inspect-multiline"](it, t)[0]], t),
    "docker+json-pretty": lambda it, t: ([_docker(x, t) for x in SHAPES["json-pretty"](it, t)[0]], t),
    "cri+python-repr": lambda it, t: ([_cri(repr({"time": _iso(t), "levelname": it.level, "logger": it.logger,
                                                  "message": it.message}), t)], t),
    "csv-splunk-raw": lambda it, t: ([f'"{_iso(t + timedelta(seconds=1))}","' + _log4j(it, t).replace('"', '""') + '"'], t),
}  # fmt: skip


#: shapes that print a record over several lines: its entry is the line of its message key
#: (shape → the shape of the record it prints, whose lines tell which line is the message key's)
RECORD_LINES = {"inspect-multiline": "inspect-multiline", "python-pprint": "python-pprint", "json-pretty": "json-pretty",
                "cri+inspect-multiline": "inspect-multiline", "docker+json-pretty": "json-pretty"}  # fmt: skip
_MESSAGE_KEY = re.compile(r"""^\s*\{?\s*['"]?(?:message|msg)['"]?\s*:""")


def render(shape: str, its: list[Item]) -> tuple[bytes, list[tuple[int, datetime]]]:
    """A file of ``its`` in ``shape`` (one second apart) and each message's (line number, expected
    time)."""
    lines: list[str] = []
    where = []
    for k, it in enumerate(its):
        got, ts = SHAPES[shape](it, T0 + timedelta(seconds=k))
        bare = SHAPES[RECORD_LINES[shape]](it, T0)[0] if shape in RECORD_LINES else []
        at = next((j for j, x in enumerate(bare) if _MESSAGE_KEY.match(x)), 0)
        where.append((len(lines) + 1 + at, ts))
        lines += got
    return ("\n".join(lines) + "\n").encode(), where


def score(shape: str, its: list[Item], reader: Callable = parse_bytes) -> tuple[int, list[str]]:
    """(messages read right, what went wrong) of ``its`` in ``shape``."""
    data, where = render(shape, its)
    ev, _, audit = reader(data, f"{shape}.log", "c", SETTINGS, "r")
    assert audit["total_lines"] == audit["events"] + audit["continuations"] + audit["unrelated"] + audit["quarantined"]
    by_line: dict[int, dict[str, Any]] = {}
    for r in ev.to_pylist():
        by_line.setdefault(r["line_no"], r)
    ok, bad = 0, []
    for it, (line, ts) in zip(its, where):
        r = by_line.get(line)
        got = None if r is None else {k: r[k] for k in it.expected} | {"ts_ms": r["ts_ms"]}
        want = it.expected | {"ts_ms": int(ts.timestamp() * 1000)}
        if got == want:
            ok += 1
        else:
            bad.append(f"{shape} line {line}: {it.message[:70]!r} want {want} got {got}")
    return ok, bad


def controlled(its: list[Item], reader: Callable = parse_bytes) -> list[Item]:
    """The items the control shape (Kafka's default log4j layout, one file) reads as expected: a
    message whose reading depends on its original line (keys of a JSON client, a file's one group)
    measures no envelope."""
    data, where = render("log4j", its)
    ev, _, _ = reader(data, "control.log", "c", SETTINGS, "r")
    by_line: dict[int, dict[str, Any]] = {}
    for r in ev.to_pylist():
        by_line.setdefault(r["line_no"], r)
    return [it for it, (line, _) in zip(its, where)
            if (r := by_line.get(line)) is not None and all(r[k] == v for k, v in it.expected.items())]  # fmt: skip


def recall(its: list[Item], reader: Callable = parse_bytes) -> dict[str, tuple[int, int]]:
    """Per shape: (messages read right, messages)."""
    return {shape: (score(shape, its, reader)[0], len(its)) for shape in SHAPES}


def read_checked(text: str, name: str) -> tuple[list[dict], list[dict], dict]:
    """(events, quarantine rows, audit) of ``text`` read as file ``name`` under :data:`SETTINGS`, after
    checking that both readers agree and that the audit accounts for every line."""
    data = text.encode()
    assert_same(data, name, SETTINGS)
    ev, q, audit = parse_bytes(data, name, "c", SETTINGS, "r")
    check_invariant(audit)
    return ev.to_pylist(), q.to_pylist(), audit
