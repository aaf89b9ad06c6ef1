"""Every catalogue statement of each client in the layouts its own ecosystem's logging frameworks write.

An *ecosystem* is a language runtime and the clients written for it (:data:`ECOSYSTEMS`); its
*layouts* are the documented default formats of that runtime's logging frameworks (Python
``logging``, loguru, structlog, Elixir ``Logger``, Erlang ``logger``/lager, Go ``log``, logrus,
zap, zerolog, slog, kafkajs' logCreator, winston, pino, bunyan, NestJS, Microsoft.Extensions.Logging,
Serilog, NLog, Ruby ``Logger``, Rails' TaggedLogging) and the process supervisors and system logs
that wrap any of them (svlogd/runit and s6 TAI64N, s6-log ISO, syslog RFC 3164 with program or
container tags, ``journalctl -o short-precise`` / ``short-iso-precise``). A statement's message is
the catalogue's (``jobs/ingest/catalogue/data``) rendered with its sample values; where a statement's
arguments print over several lines (an Erlang term printed by ``~p``, brod's ``"…):~n"`` header,
pino-pretty's extra keys) the layout writes them over several lines.

:func:`recall` reads one file per (ecosystem, layout) and checks every statement: kind, group,
generation, member id, and the application's timestamp (to the millisecond where the layout prints
milliseconds, to the second where it prints seconds, not at all where it prints no time). A layout
that prints the time of day alone is scored on the whole timestamp too: the file is named with its
date, which is what dates such a file that has no dated line (:mod:`jobs.ingest.day_dates`);
:func:`score` can date it by its modification time or a dated line instead (:data:`DATINGS`). ``python -m tests.ingest.framework_layouts [--misses]`` prints the
table.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from jobs.ingest.catalogue import UNMAPPED, UNRELATED, expected_of, load, render_line, render_message
from jobs.ingest.model import IngestSettings
from jobs.ingest.parse import parse_bytes

CHECKED = ("kind", "group_id", "generation", "member_id")
SETTINGS = IngestSettings(default_year=2024)
#: python statements a layout that prints no logger cannot read: the Java client logs the same wordings
#: (declared unrelated there, docs/ingestion.md), or they name nothing of a group (kafka-python 1.0-1.3's
#: `Heartbeat successful`): read only under their logger
PYTHON_LOGGER_ONLY = 9
T0 = datetime(2024, 5, 1, 13, 0, 0, 123000, tzinfo=UTC)  # after noon: AM/PM formats print 01 PM
#: an Erlang term as ``~p`` prints it when it does not fit one line (continuations indented)
ERLANG_TERM = "{shutdown,\n    {failed_to_join,\n        [{error_code,rebalance_in_progress},\n         {retries,3}]}}"
ERLANG_TERM_ARGS = ("_reason", "_newreason", "_format_assignments")


@dataclass(frozen=True)
class Msg:
    """One catalogue statement as its client hands it to the logging framework."""

    source: str
    lines: tuple[str, ...]  # the message, over several lines where its arguments print so
    level: str  # INFO WARN ERROR DEBUG
    logger: str  # the logger name (a librdkafka facility for librdkafka)
    expected: dict[str, Any]
    fields: dict[str, Any] = field(default_factory=dict)  # structured keys logged beside the message
    bare: str = ""  # the message a structured logger gets, its keys in ``fields`` (franz-go's adapters)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def one_line(self) -> str:
        """The message on one line, as OTP's ``single_line`` formatter writes it (``, `` for a newline
        and the indentation after it)."""
        return ", ".join(x.strip() for x in self.lines)


# ------------------------------------------------------------------------------ messages
def _level(level: str) -> str:
    """A statement's level as a level name (librdkafka's are syslog numbers)."""
    if level.isdigit():
        return "ERROR" if int(level) <= 3 else {4: "WARN", 5: "INFO", 6: "INFO"}.get(int(level), "DEBUG")
    lv = level.upper()
    return {"WARNING": "WARN", "ERR": "ERROR", "ERROR_MSG": "ERROR", "LOG_INFO": "INFO"}.get(lv, lv)


def _split_kv(msg: str) -> tuple[str, dict[str, Any]]:
    """franz-go's ``msg; key: value, key: value`` (its BasicLogger) as the message and its keys (what
    kzap/kslog/logrus adapters log as fields): the keys start after the first ``; `` behind which
    every part is ``key: value`` (a message may hold ``; `` itself); whole numbers as numbers."""
    at = msg.find("; ")
    while at >= 0:
        parts = [p.partition(": ") for p in msg[at + 2 :].split(", ")]
        if all(s and re.fullmatch(r"[\w?]+", k) for k, s, _ in parts):
            keys = {k: int(v) if re.fullmatch(r"-?\d{1,9}", v) else v for k, _, v in parts if k != "?"}
            return msg[:at], keys
        at = msg.find("; ", at + 2)
    return msg, {}


def _kafkajs_record(line: str) -> dict[str, Any]:
    """A kafkajs golden line as JSON (the catalogue's line template closes the last value with a quote
    that is not always right, and leaves quotes inside the message unescaped)."""
    m = re.match(r'^(\{.*"message":")(.*?)(",".*|"\})$', line)
    assert m, line
    line = m.group(1) + m.group(2).replace('"', '\\"') + m.group(3)
    for cand in (line, line[:-1] + '"}', line[:-2] + "}"):
        try:
            return dict(json.loads(cand))
        except json.JSONDecodeError:
            continue
    raise ValueError(line)


def mapped_statements(source: str) -> list[tuple[Any, Any, dict[str, Any]]]:
    """(source, statement, the checked fields it declares) of one catalogue source's mapped statements
    (unrelated ones left out: they measure noise)."""
    (src,) = [s for s in load() if s.name == source]
    return [(src, st, {k: v for k, v in expected_of(src, st).items() if k in CHECKED})
            for st in src.statements if st.kind not in (UNMAPPED, UNRELATED)]  # fmt: skip


def messages(source: str) -> list[Msg]:
    """The mapped statements of one catalogue source as messages of its client."""
    out = []
    for src, st, exp in mapped_statements(source):
        level, logger = _level(st.level), st.logger or src.logger or source
        fields: dict[str, Any] = {}
        bare = ""
        if source == "kafkajs":  # the message's context is the logCreator's extra keys
            rec = _kafkajs_record(render_line(src, st))
            fields = {k: v for k, v in rec.items() if k not in ("level", "timestamp", "logger", "message")}
            lines: tuple[str, ...] = (rec["message"],)
        elif source == "brod":  # "~s:~n" headers print the message over lines; ~p terms over more
            terms = {a: ERLANG_TERM for a in ERLANG_TERM_ARGS if f"{{{a}}}" in st.template}
            st2 = type(st)(**{k: getattr(st, k) for k in st.__slots__ if k != "values"}, values={**st.values, **terms})
            lines = tuple(render_message(src, st2).replace("):, ", "):\n").split("\n"))
        elif source == "librdkafka":
            # (librdkafka's log line ``buf`` starts with the thread's name, as its own layout shows)
            lines, logger = (f"[thrd:main]: {render_message(src, st)}",), st.facility or "CGRP"
        elif source == "franz-go":  # BasicLogger: "[LEVEL] msg; k: v"; kzap/kslog/logrus: msg + fields
            lines = (f"[{level}] {render_message(src, st)}",)
            bare, fields = _split_kv(render_message(src, st))
        else:
            lines = (render_message(src, st),)
        out.append(Msg(source, lines, level, logger, exp, fields, bare or lines[0]))
    return out


# ------------------------------------------------------------------------------ layouts
#: a layout: (message, app time) -> (lines, checked time or None, precision "ms" | "s" | None; "tod" /
#: "tod-s": the layout prints the time of day alone, to the millisecond / second)
Rendered = tuple[list[str], datetime | None, str | None]
Layout = Callable[[Msg, datetime], Rendered]


def _ms(t: datetime, sep: str = ",") -> str:
    return f"{t.strftime('%Y-%m-%d %H:%M:%S')}{sep}{t.microsecond // 1000:03d}"


def _iso(t: datetime, digits: int = 3, z: str = "Z") -> str:
    frac = f"{t.microsecond:06d}000"[:digits]
    return t.strftime("%Y-%m-%dT%H:%M:%S") + (f".{frac}" if digits else "") + z


def _cont(first: str, m: Msg, indent: str = "") -> list[str]:
    """``first`` (the head, ending with the message's first line) and the message's other lines."""
    return [first] + [indent + x for x in m.lines[1:]]


def _q(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _kv(fields: dict[str, Any], quote: bool = True) -> str:
    return "".join(f" {k}={json.dumps(v) if quote and isinstance(v, str) and (' ' in v or not v) else v}"
                   for k, v in fields.items())  # fmt: skip


def _pyname(m: Msg) -> str:
    return m.logger if m.source != "librdkafka" else "confluent_kafka"


def _pymsg(m: Msg) -> Msg:
    """confluent-kafka-python hands librdkafka's lines to ``logging`` as ``'%s [%s] %s' % (fac, name, buf)``."""
    if m.source != "librdkafka":
        return m
    return Msg(m.source, (f"{m.logger} [rdkafka#consumer-1] {m.lines[0]}",), m.level, m.logger, m.expected)


def _py(fmt: Callable[[Msg, datetime], str], prec: str | None = "ms") -> Layout:
    def render(m: Msg, t: datetime) -> Rendered:
        m = _pymsg(m)
        return _cont(fmt(m, t), m), (t if prec else None), prec

    return render


def _pyjson(m: Msg, t: datetime) -> str:
    """python-json-logger's record (``%(asctime)s %(name)s %(levelname)s %(message)s``), the message last:
    a copy of it cut at its start keeps the message's JSON string and the closing brace."""
    return json.dumps({"asctime": _ms(t), "name": _pyname(m), "levelname": m.level, "message": m.lines[0]}, ensure_ascii=False)


def _frac(t: datetime) -> str:
    """``%(msecs)s`` unformatted: the milliseconds as a float's digits (``123.45699691772461``)."""
    return f"{t.microsecond // 1000}.{t.microsecond % 1000:03d}56"


def _sec(t: datetime) -> datetime:
    return t.replace(microsecond=0)


PYTHON: dict[str, Layout] = {
    "logging-default": _py(lambda m, t: f"{m.level.replace('WARN', 'WARNING')}:{_pyname(m)}:{m.lines[0]}", None),
    "basic-asctime": _py(lambda m, t: f"{_ms(t)} {m.level} {_pyname(m)} {m.lines[0]}"),
    "name-level-dash": _py(lambda m, t: f"{_ms(t)} - {_pyname(m)} - {m.level} - {m.lines[0]}"),
    "bracket-level": _py(lambda m, t: f"{_ms(t)} [{m.level}] {_pyname(m)}: {m.lines[0]}"),
    "us-ampm": _py(lambda m, t: f"{t.strftime('%m/%d/%Y %I:%M:%S %p')} {m.level} {_pyname(m)}: {m.lines[0]}", "s"),
    "iso-zone": _py(lambda m, t: f"{t.strftime('%Y-%m-%dT%H:%M:%S+0000')} {m.level} {_pyname(m)} {m.lines[0]}", "s"),
    "dd-mon-yy": _py(lambda m, t: f"{t.strftime('%d-%b-%y %H:%M:%S')} - {_pyname(m)} - {m.level} - {m.lines[0]}", "s"),
    "no-millis": _py(lambda m, t: f"{t.strftime('%Y-%m-%d %H:%M:%S')} {m.level}:{_pyname(m)}:{m.lines[0]}", "s"),
    "relative-created": _py(lambda m, t: f"{int((t - T0).total_seconds() * 1000) + 1234} {m.level} {_pyname(m)} {m.lines[0]}", None),
    "loguru": _py(lambda m, t: f"{_ms(t, '.')} | {m.level.replace('WARN', 'WARNING'):<8} | {_pyname(m)}:_log:120 - {m.lines[0]}"),
    "structlog-console": _py(lambda m, t: f"{_iso(t, 6)} [{m.level.lower().replace('warn', 'warning'):<9}] {m.lines[0]:<30} logger={_pyname(m)}"),
    "faust-mode": _py(lambda m, t: f"[{_ms(t)}] [4242] [{m.level.replace('WARN', 'WARNING')}] {m.lines[0]}"),
    "gunicorn": _py(lambda m, t: f"[{t.strftime('%Y-%m-%d %H:%M:%S +0000')}] [4242] [{m.level}] {m.lines[0]}", "s"),
    "uvicorn": _py(lambda m, t: f"{(m.level.replace('WARN', 'WARNING') + ':'):<9} {m.lines[0]}", None),
    "brackets-glued": _py(lambda m, t: f"[{_ms(t, '.')}][base.py:333][{m.level.replace('WARN', 'WARNING')}]{m.lines[0]}"),
    "colon-fields": _py(lambda m, t: f"{_ms(t)}.{_frac(t)}:{_pyname(m)}:139945472341824:{m.level}:3766:{m.lines[0]}"),
    "level-first-us-funcname": _py(lambda m, t: f"[{m.level.replace('WARN', 'WARNING')}] {t.strftime('%m/%d/%Y %I:%M:%S %p')} [base.py:_on_join_complete:333] [MainThread] {m.lines[0]}", "s"),
    "faust-default": _py(lambda m, t: f"[{_ms(t)}: {m.level.replace('WARN', 'WARNING')}]: {m.lines[0]}"),
    "json-logger": _py(lambda m, t: _pyjson(m, t)),
    "json-cut-in-first-key": _py(lambda m, t: _pyjson(m, t)[4:]),
    "json-message-tail": _py(lambda m, t: '"' + _pyjson(m, t).split('"message": "', 1)[1] + "   ", None),
}  # fmt: skip


def _erl(head: Callable[[Msg, datetime], str], prec: str, indent: str = "", single: bool = False) -> Layout:
    def render(m: Msg, t: datetime) -> Rendered:
        if single:
            return [head(m, t) + m.one_line], t, prec
        return _cont(head(m, t) + m.lines[0], m, indent), t, prec

    return render


def _erlang_report(m: Msg, t: datetime) -> Rendered:
    head = f"=INFO REPORT==== {t.day}-{t.strftime('%b-%Y::%H:%M:%S')}.{t.microsecond:06d} ==="
    return [head.replace("INFO", {"WARN": "WARNING", "ERROR": "ERROR"}.get(m.level, "INFO")), *m.lines], t, "ms"


def _elixir_default(m: Msg, t: datetime) -> Rendered:
    lines = [""] + _cont(f"{t.strftime('%H:%M:%S')}.{t.microsecond // 1000:03d} [{m.level.lower()}] {m.lines[0]}", m, "  ")
    return lines, t, "tod"


def _elixir_levelpad(m: Msg, t: datetime) -> Rendered:
    """Elixir Logger's console default before 1.15, ``\\n$time $metadata[$level] $levelpad$message\\n``: a blank
    line before each entry, a space more after a four-letter level, a message's later lines as written."""
    level = m.level.lower()
    pad = " " if len(level) == 4 else ""
    return ["", f"{t.strftime('%H:%M:%S')}.{t.microsecond // 1000:03d} [{level}] {pad}{m.lines[0]}", *m.lines[1:]], t, "tod"


ERLANG: dict[str, Layout] = {
    "otp-single-line": _erl(lambda m, t: f"{_iso(t, 6, '+00:00')} {m.level.lower().replace('warn', 'warning')}: ", "ms", single=True),
    "otp-multi-line": _erl(lambda m, t: f"{_iso(t, 6, '+00:00')} {m.level.lower().replace('warn', 'warning')}: ", "ms"),
    "otp-legacy-report": _erlang_report,
    "elixir-default": _elixir_default,
    "elixir-default-levelpad": _elixir_levelpad,
    "elixir-metadata": _erl(lambda m, t: f"{t.strftime('%H:%M:%S')}.{t.microsecond // 1000:03d} pid=<0.500.0> [{m.level.lower()}] ", "tod", "  "),
    "elixir-date": _erl(lambda m, t: f"{_ms(t, '.')} [{m.level.lower()}] ", "ms"),
    "lager": _erl(lambda m, t: f"{_ms(t, '.')} [{m.level.lower()}] <0.500.0>@brod_group_coordinator:log:375 ", "ms"),
}  # fmt: skip


def _go(head: Callable[[Msg, datetime], str], prec: str | None) -> Layout:
    return lambda m, t: ([head(m, t) + m.lines[0]], (t if prec else None), prec)


def _gokv(m: Msg) -> str:
    return _kv(m.fields)


GO: dict[str, Layout] = {
    "log-std": _go(lambda m, t: f"{t.strftime('%Y/%m/%d %H:%M:%S')} ", "s"),
    "log-prefix": _go(lambda m, t: f"[sarama] {t.strftime('%Y/%m/%d %H:%M:%S')} ", "s"),
    "log-msgprefix": _go(lambda m, t: f"{t.strftime('%Y/%m/%d %H:%M:%S')} [kafka] ", "s"),
    "log-micro": _go(lambda m, t: f"{t.strftime('%Y/%m/%d %H:%M:%S')}.{t.microsecond:06d} ", "ms"),
    "log-shortfile": _go(lambda m, t: f"{t.strftime('%Y/%m/%d %H:%M:%S')} consumer_group.go:412: ", "s"),
    "log-noflags": _go(lambda m, t: "", None),
    "logrus-text": lambda m, t: ([f'time="{_iso(t, 0)}" level={m.level.lower().replace("warn", "warning")} msg="{_q(m.bare)}"{_gokv(m)}'], t, "s"),
    "logrus-json": lambda m, t: ([json.dumps({**m.fields, "level": m.level.lower(), "msg": m.bare, "time": _iso(t, 0)})], t, "s"),
    "zap-console": lambda m, t: ([f"{_iso(t)}\t{m.level}\tkafka\t{m.bare}" + (f"\t{json.dumps(m.fields)}" if m.fields else "")], t, "ms"),
    "zap-production": lambda m, t: ([json.dumps({"level": m.level.lower(), "ts": round(t.timestamp(), 3), "caller": "kgo/logger.go:81", "msg": m.bare, **m.fields})], t, "ms"),
    "zerolog-json": lambda m, t: ([json.dumps({"level": m.level.lower(), **m.fields, "time": _iso(t, 0), "message": m.bare})], t, "s"),
    "zerolog-console": lambda m, t: ([f"{t.strftime('%I:%M%p').lstrip('0')} { {'DEBUG': 'DBG', 'WARN': 'WRN', 'ERROR': 'ERR'}.get(m.level, m.level[:3])} {m.bare}{_kv(m.fields)}"], None, None),
    "slog-text": lambda m, t: ([f'time={_iso(t)} level={m.level} msg="{_q(m.bare)}"{_gokv(m)}'], t, "ms"),
    "slog-json": lambda m, t: ([json.dumps({"time": _iso(t, 9), "level": m.level, "msg": m.bare, **m.fields})], t, "ms"),
}  # fmt: skip


def _nodemsg(m: Msg) -> str:
    return m.lines[0] if m.source != "librdkafka" else f"[{m.logger}] {m.lines[0]}"


def _pino_pretty(m: Msg, t: datetime) -> Rendered:
    """pino-pretty: ``[HH:MM:ss.l] LEVEL (pid): msg`` and each extra key on an indented line."""
    head = f"[{t.strftime('%H:%M:%S')}.{t.microsecond // 1000:03d}] {m.level} (4242): {_nodemsg(m)}"
    return [head, *[f"    {k}: {json.dumps(v)}" for k, v in m.fields.items()]], t, "tod"


def _inspect_head(m: Msg, t: datetime) -> Rendered:
    """``console.log(fields, message)``: the fields as ``util.inspect`` prints an object, then the message
    (node-rdkafka's ``event.log`` record: ``{ severity: 7, fac: 'JOIN' } [thrd:main]: …``); kafkajs'
    context keys after the message as JSON. No time."""
    sev = {"DEBUG": 7, "INFO": 6, "WARN": 4, "ERROR": 3}.get(m.level, 6)
    if m.source == "librdkafka":
        return [f"{{ severity: {sev}, fac: '{m.logger}' }} {m.lines[0]}"], None, None
    tail = " " + json.dumps(m.fields, separators=(",", ":")) if m.fields else ""
    return [f"{{ level: '{m.level.lower()}', namespace: 'kafkajs' }} {m.lines[0]}{tail}"], None, None


NODE: dict[str, Layout] = {
    "kafkajs-logcreator": lambda m, t: ([json.dumps({"level": m.level, "timestamp": _iso(t), "logger": "kafkajs", "message": _nodemsg(m), **m.fields}, separators=(",", ":"))], t, "ms"),
    "winston-json": lambda m, t: ([json.dumps({**m.fields, "level": m.level.lower(), "message": _nodemsg(m), "timestamp": _iso(t)})], t, "ms"),
    "pino": lambda m, t: ([json.dumps({"level": {"DEBUG": 20, "INFO": 30, "WARN": 40, "ERROR": 50}.get(m.level, 30), "time": int(t.timestamp() * 1000), "pid": 4242, "hostname": "h", **m.fields, "msg": _nodemsg(m)})], t, "ms"),
    "bunyan": lambda m, t: ([json.dumps({"name": "app", "hostname": "h", "pid": 4242, "level": 30, **m.fields, "msg": _nodemsg(m), "time": _iso(t), "v": 0})], t, "ms"),
    "pino-pretty": _pino_pretty,
    "inspect-object-head": _inspect_head,
    "nestjs": lambda m, t: ([f"[Nest] 4242  - {t.strftime('%m/%d/%Y, %I:%M:%S %p').replace(' 0', ' ')}     LOG [ServerKafka] {_nodemsg(m)}"
                             + (" " + json.dumps({"timestamp": _iso(t), "logger": "kafkajs", **m.fields}, separators=(",", ":")) if m.fields else "")], t, "s"),
}  # fmt: skip


def _netmsg(m: Msg) -> str:
    """librdkafka's line as confluent-kafka-dotnet's log handler passes it on; KafkaFlow's
    ``<message> | Data: <JSON>`` as its Microsoft log handler writes it."""
    return f"{m.logger} [rdkafka#consumer-1] {m.lines[0]}" if m.source == "librdkafka" else m.lines[0]


def _mel_level(m: Msg) -> str:
    return {"DEBUG": "dbug", "INFO": "info", "WARN": "warn", "ERROR": "fail"}.get(m.level, "info")


DOTNET: dict[str, Layout] = {
    "confluent-default": lambda m, t: ([f"%{ {'DEBUG': 7, 'INFO': 6, 'WARN': 4, 'ERROR': 3}.get(m.level, 6)}|{_ms(t, '.')}|rdkafka#consumer-1|{m.logger}| {m.lines[0]}"], t, "ms"),
    "mel-console": lambda m, t: ([f"{_mel_level(m)}: Confluent.Kafka.Consumer[0]", f"      {_netmsg(m)}"], None, None),
    "mel-console-ts": lambda m, t: ([f"{_ms(t, '.')} {_mel_level(m)}: Confluent.Kafka.Consumer[0]", f"      {_netmsg(m)}"], t, "ms"),
    "mel-single-line": lambda m, t: ([f"{_ms(t, '.')} {_mel_level(m)}: Confluent.Kafka.Consumer[0] {_netmsg(m)}"], t, "ms"),
    "mel-systemd": lambda m, t: ([f"<6>Confluent.Kafka.Consumer[0] {_netmsg(m)}"], None, None),
    "serilog-console": lambda m, t: ([f"[{t.strftime('%H:%M:%S')} {m.level[:3].replace('WAR', 'WRN').replace('ERR', 'ERR').replace('DEB', 'DBG')}] {_netmsg(m)}"], t, "tod-s"),
    "serilog-compact-json": lambda m, t: ([json.dumps({"@t": _iso(t, 7), "@mt": _netmsg(m), **({} if m.level == "INFO" else {"@l": m.level.title()}), "SourceContext": "Confluent.Kafka"})], t, "ms"),
    "nlog-default": lambda m, t: ([f"{_ms(t, '.')}0|{m.level}|Confluent.Kafka.Consumer|{_netmsg(m)}"], t, "ms"),
}  # fmt: skip


def _rbmsg(m: Msg) -> str:
    """rdkafka-ruby hands librdkafka's log lines to its logger as ``"rdkafka: #{line}"`` (no facility)."""
    return f"rdkafka: {m.lines[0]}" if m.source == "librdkafka" else m.lines[0]


def _rb(t: datetime, m: Msg, prog: str = "") -> str:
    return f"{m.level[0]}, [{t.strftime('%Y-%m-%dT%H:%M:%S')}.{t.microsecond:06d} #4242] {m.level:>5} -- {prog}: "


RUBY: dict[str, Layout] = {
    "logger-default": lambda m, t: ([_rb(t, m) + _rbmsg(m)], t, "ms"),
    "logger-progname": lambda m, t: ([_rb(t, m, "ruby-kafka") + _rbmsg(m)], t, "ms"),
    "rails-tagged": lambda m, t: ([f"[orders-worker] [a1b2c3d4] {_rbmsg(m)}"], None, None),
    "rails-tagged-logger": lambda m, t: ([_rb(t, m) + f"[orders-worker] [a1b2c3d4] {_rbmsg(m)}"], t, "ms"),
    "karafka": lambda m, t: ([_rb(t, m) + f"[karafka] {_rbmsg(m)}"], t, "ms"),
}  # fmt: skip

#: ecosystem -> (catalogue sources, layouts)
ECOSYSTEMS: dict[str, tuple[tuple[str, ...], dict[str, Layout]]] = {
    "python": (("kafka-python", "aiokafka", "faust", "faust-robinhood", "librdkafka"), PYTHON),
    "erlang": (("brod", "kaffe"), ERLANG),
    "go": (("sarama", "sarama-cluster", "kafka-go", "franz-go"), GO),
    "node": (("kafkajs", "librdkafka"), NODE),
    "dotnet": (("librdkafka", "kafkaflow"), DOTNET),
    "ruby": (("ruby-kafka", "librdkafka"), RUBY),
}


# ------------------------------------------------------------------------------ supervisors, system logs
def tai64n(t: datetime) -> str:
    """``@`` and the TAI64N label of ``t`` as svlogd/s6-log write it (2^62 + 10 + Unix seconds)."""
    return f"@{(1 << 62) + 10 + int(t.timestamp()):016x}{t.microsecond * 1000:08x}"


def _wrap(prefix: Callable[[datetime], str], prec: str) -> Callable[[Rendered, datetime], Rendered]:
    """Every line of the inner entry behind ``prefix`` (stamped ``t`` + 0.5 s: the supervisor's time
    is the event's only when the inner layout prints none)."""

    def wrap(inner: Rendered, t: datetime) -> Rendered:
        lines, ts, p = inner
        outer = t + timedelta(milliseconds=500)
        got = [prefix(outer) + x for x in lines]
        return (got, ts, p) if ts is not None else (got, outer, prec)

    return wrap


def _mon(t: datetime) -> str:
    return f"{t.strftime('%b')} {t.day:2d} {t.strftime('%H:%M:%S')}"


SUPERVISORS: dict[str, Callable[[Rendered, datetime], Rendered]] = {
    "svlogd-tai64n": _wrap(lambda t: tai64n(t) + " ", "ms"),
    "svlogd-tt": _wrap(lambda t: f"{t.strftime('%Y-%m-%d_%H:%M:%S')}.{t.microsecond // 10:05d} ", "ms"),
    "s6-log-iso": _wrap(lambda t: f"{t.strftime('%Y-%m-%d %H:%M:%S')}.{t.microsecond:06d}000  ", "ms"),
    "syslog-docker-tag": _wrap(lambda t: f"{_mon(t)} node-3 docker/3f2a1b4c5d6e[812]: ", "s"),
    "syslog-heroku-tag": _wrap(lambda t: f"<190>{_mon(t)} host app/web.1: ", "s"),
    "syslog-systemd-unit": _wrap(lambda t: f"{_mon(t)} node-3 kafka-consumer.service: ", "s"),
    "journalctl-short-precise": _wrap(lambda t: f"{t.strftime('%b %d %H:%M:%S')}.{t.microsecond:06d} node-3 consumer[812]: ", "ms"),
    "journalctl-short-iso-precise": _wrap(lambda t: f"{_iso(t, 6, '+0000')} node-3 consumer[812]: ", "ms"),
}
#: the inner layouts each supervisor wraps: one that prints no time, one that does, per ecosystem
SUPERVISED = {"python": ("logging-default", "basic-asctime"), "go": ("log-noflags", "log-std"),
              "node": ("kafkajs-logcreator",), "ruby": ("logger-default",), "erlang": ("otp-multi-line",),
              "dotnet": ("mel-systemd",)}  # fmt: skip


# ------------------------------------------------------------------------------ scoring
def cases() -> list[tuple[str, str, list[Msg], Callable[[Msg, datetime], Rendered]]]:
    """(ecosystem, layout, messages, render) for every ecosystem x layout, and x supervisor."""
    out = []
    for eco, (sources, layouts) in ECOSYSTEMS.items():
        msgs = [m for s in sources for m in messages(s)]
        for name, lay in layouts.items():
            out.append((eco, name, msgs, lay))
        for inner in SUPERVISED[eco]:
            for sup, wrap in SUPERVISORS.items():
                out.append((eco, f"{sup}+{inner}", msgs,
                            lambda m, t, w=wrap, lay=layouts[inner]: w(lay(m, t), t)))  # fmt: skip
    return out


def render(msgs: list[Msg], lay: Callable[[Msg, datetime], Rendered],
           start: datetime = T0) -> tuple[bytes, list[tuple[int, Rendered]]]:  # fmt: skip
    lines: list[str] = []
    where = []
    for k, m in enumerate(msgs):
        got = lay(m, start + timedelta(seconds=k, milliseconds=k))
        where.append((len(lines) + 1 + (1 if got[0] and got[0][0] == "" else 0), got))
        lines += got[0]
    return ("\n".join(lines) + "\n").encode(), where


def _ts_ok(ts_ms: int | None, want: datetime | None, prec: str | None) -> bool:
    if prec is None or want is None:
        return True
    if ts_ms is None:
        return False
    w = int(want.timestamp() * 1000)
    return ts_ms == w if prec in ("ms", "tod") else ts_ms == w - w % 1000


#: where a file's times of day find their date: its name (the default), its modification time (one second
#: after its last line), or a dated line in front of them (:mod:`jobs.ingest.day_dates`)
DATINGS = ("file_name", "modification_time", "dated_line")


def dated_file(msgs: list[Msg], lay: Callable[[Msg, datetime], Rendered], name: str, dating: str = "file_name",
               start: datetime = T0) -> tuple[bytes, list[tuple[int, Rendered]], str, int | None]:  # fmt: skip
    """(content, where each message is, file name, modification time in ms) of the rendered file."""
    data, where = render(msgs, lay, start)
    if dating == "file_name":
        return data, where, f"{name}-{start.strftime('%Y-%m-%d')}.log", None
    if dating == "modification_time":
        last = start + timedelta(seconds=len(msgs), milliseconds=len(msgs))
        return data, where, f"{name}.log", int(last.timestamp() * 1000)
    head = f"{_ms(start - timedelta(seconds=1))} INFO app started\n".encode()
    return head + data, [(line + 1, r) for line, r in where], f"{name}.log", None


def score(msgs: list[Msg], lay: Callable[[Msg, datetime], Rendered], reader: Callable = parse_bytes,
          name: str = "layout", fields_only: bool = False, dating: str = "file_name",
          start: datetime = T0) -> tuple[int, list[str]]:  # fmt: skip
    """(messages read right, what went wrong); ``fields_only``: the time is not checked; ``dating``:
    one of :data:`DATINGS`; ``start``: the first message's time."""
    data, where, file_name, mtime_ms = dated_file(msgs, lay, name, dating, start)
    ev, _, audit = reader(data, file_name, "c", SETTINGS, "r", mtime_ms=mtime_ms)
    assert audit["total_lines"] == audit["events"] + audit["continuations"] + audit["unrelated"] + audit["quarantined"]
    by_line: dict[int, dict[str, Any]] = {}
    for r in ev.to_pylist():
        by_line.setdefault(r["line_no"], r)
    ok, bad = 0, []
    for m, (line, (_, ts, prec)) in zip(msgs, where):
        r = by_line.get(line)
        got = None if r is None else {k: r[k] for k in m.expected}
        if got == m.expected and (fields_only or _ts_ok(r and r["ts_ms"], ts, prec)):
            ok += 1
        else:
            bad.append(f"{name} line {line}: {m.lines[0][:70]!r} want {m.expected} {ts} got {got} "
                       f"{r and r['ts_ms'] and datetime.fromtimestamp(r['ts_ms'] / 1000, UTC)}")  # fmt: skip
    return ok, bad


def recall(reader: Callable = parse_bytes) -> dict[tuple[str, str], tuple[int, int, int, list[str]]]:
    """Per (ecosystem, layout): (read right, fields right whatever the time, statements, misses)."""
    out = {}
    for eco, name, msgs, lay in cases():
        ok, bad = score(msgs, lay, reader, f"{eco}-{name}")
        fok = ok if ok == len(msgs) else score(msgs, lay, reader, f"{eco}-{name}", fields_only=True)[0]
        out[eco, name] = (ok, fok, len(msgs), bad)
    return out


def main(argv: list[str]) -> None:
    res = recall()
    tot = [0, 0, 0]
    print(f"{'ecosystem':9} {'layout':52} {'read right':>12} {'fields right':>14}")
    for (eco, name), (ok, fok, n, bad) in res.items():
        tot = [tot[0] + ok, tot[1] + fok, tot[2] + n]
        print(f"{eco:9} {name:52} {ok:5}/{n:<4} {100 * ok / max(n, 1):5.1f}% {100 * fok / max(n, 1):5.1f}%")
        if "--misses" in argv:
            for b in bad[:3]:
                print("      ", b)
    print(f"all {tot[0]}/{tot[2]} = {100 * tot[0] / tot[2]:.1f}% (fields right: {100 * tot[1] / tot[2]:.1f}%)")


if __name__ == "__main__":
    main(sys.argv[1:])
