"""Catalogue statements behind heads composed from the parts real loggers print.

A *head* is what a logging framework writes in front of the message. Rather than listing layouts (each
met in a real excerpt, each added once), this module composes heads from their parts and samples the
combinations deterministically:

* a timestamp (:data:`TIMES`: ISO with ``T`` or a space, ``,``/``.`` fractions, zones ``Z``, ``+01:00``,
  ``+0100``, ``UTC``; ``yyyy/MM/dd``, ``dd/MM/yyyy``, syslog ``MMM d HH:mm:ss``, ``dd-MMM-yyyy``, Java's
  ``Date.toString()``, 12-hour clocks, a time of day alone, epoch seconds and millis, Go's microseconds);
* a level (:data:`LEVELS`: ``INFO``, ``[INFO]``, ``INFO:``, ``I``, ``info``, ``<6>``, padded, coloured);
* a thread, pid, host or process (:data:`THREADS`: ``[main]``, ``(thread-1)``, ``pid=1``, ``app[123]:``,
  ``1234 - MainThread``);
* a logger (:data:`LOGGERS`: full, ``%c{1}``, abbreviated ``o.a.k.c.c.i.ConsumerCoordinator``, with ``:``);
* in one of the orders real patterns use (:data:`ORDERS`), joined by a separator (:data:`SEPARATORS`:
  `` ``, `` - ``, `` | ``, ``: ``, a tab), or as ``key=value`` pairs with a quoted message;
* optionally behind a process manager's or container runtime's prefix (:data:`PREFIXES`: foreman,
  honcho, docker-compose, pm2), with ANSI colours, and with XML-escaped line ends (.NET consoles).

The messages are a deterministic sample of every catalogue source's mapped statements
(:func:`tests.ingest.framework_layouts.mapped_statements`; the JVM sources with their full class name as
logger). Each sampled head is one file of :data:`PER_FILE` statements, scored by
:func:`tests.ingest.framework_layouts.score`: kind, group, generation, member id and the application's
time (to the millisecond, the second or the time of day, as the head prints it; a time of day is dated
by the file's name, a syslog date by ``ingest.default_year``).

``python -m tests.ingest.head_grammar [--misses]`` prints the score and the miss rate of each part.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from jobs.ingest.catalogue import load
from tests.ingest import framework_layouts as F
from tests.ingest import jvm_layouts as J
from tests.ingest.framework_layouts import Msg, Rendered

SEED = 21
#: heads sampled and statements per head (one file each)
HEADS = 400
PER_FILE = 8
#: statements sampled per catalogue source
PER_SOURCE = 16
#: a day > 12: a ``dd/MM`` date is told from ``MM/dd`` by its day
T_DMY = datetime(2024, 5, 21, 13, 0, 0, 123000, tzinfo=UTC)


# ------------------------------------------------------------------------------ timestamps
def _z(t: datetime, hours: int) -> datetime:
    return t + timedelta(hours=hours)


def _frac(t: datetime, digits: int = 3) -> str:
    return f"{t.microsecond:06d}000"[:digits]


#: name -> (render, precision as in :func:`F.score`: "ms" "s" "tod" "tod-s")
TIMES: dict[str, tuple[Callable[[datetime], str], str]] = {
    "iso-T-ms-Z": (lambda t: f"{t:%Y-%m-%dT%H:%M:%S}.{_frac(t)}Z", "ms"),
    "iso-space-comma": (lambda t: f"{t:%Y-%m-%d %H:%M:%S},{_frac(t)}", "ms"),
    "iso-space-dot": (lambda t: f"{t:%Y-%m-%d %H:%M:%S}.{_frac(t)}", "ms"),
    "iso-T-offset": (lambda t: f"{_z(t, 1):%Y-%m-%dT%H:%M:%S}.{_frac(t)}+01:00", "ms"),
    "iso-T-offset4": (lambda t: f"{_z(t, 1):%Y-%m-%dT%H:%M:%S}.{_frac(t)}+0100", "ms"),
    "iso-named-zone": (lambda t: f"{t:%Y-%m-%d %H:%M:%S},{_frac(t)} UTC", "ms"),
    "iso-micro": (lambda t: f"{t:%Y-%m-%dT%H:%M:%S}.{_frac(t, 6)}Z", "ms"),
    "iso-seconds": (lambda t: f"{t:%Y-%m-%dT%H:%M:%S}Z", "s"),
    "ymd-slash": (lambda t: f"{t:%Y/%m/%d %H:%M:%S}.{_frac(t)}", "ms"),
    "dmy-slash": (lambda t: f"{t:%d/%m/%Y %H:%M:%S}.{_frac(t)}", "ms"),
    "syslog": (lambda t: f"{t:%b} {t.day:2d} {t:%H:%M:%S}", "s"),
    "dd-MMM-yyyy": (lambda t: f"{t:%d-%b-%Y %H:%M:%S}.{_frac(t)}", "ms"),
    "java-date": (lambda t: f"{t:%a %b %d %H:%M:%S} UTC {t:%Y}", "s"),
    "hh-a": (lambda t: f"{t:%I:%M:%S %p}", "tod-s"),
    "ymd-hh-a": (lambda t: f"{t:%Y-%m-%d %I:%M:%S %p}", "s"),
    "time-of-day": (lambda t: f"{t:%H:%M:%S}.{_frac(t)}", "tod"),
    "time-of-day-s": (lambda t: f"{t:%H:%M:%S}", "tod-s"),
    "epoch-s": (lambda t: f"{t.timestamp():.3f}", "ms"),
    "epoch-ms": (lambda t: f"{int(t.timestamp() * 1000)}", "ms"),
    "go-micro": (lambda t: f"{t:%Y/%m/%d %H:%M:%S}.{_frac(t, 6)}", "ms"),
}  # fmt: skip

# ------------------------------------------------------------------------------ levels, threads, loggers
_SYSLOG_PRI = {"ERROR": 3, "WARN": 4, "INFO": 6, "DEBUG": 7}
_ANSI = {"ERROR": 31, "WARN": 33, "INFO": 32, "DEBUG": 36}
LEVELS: dict[str, Callable[[str], str]] = {
    "word": lambda lv: lv,
    "bracket": lambda lv: f"[{lv}]",
    "colon": lambda lv: f"{lv}:",
    "letter": lambda lv: lv[0],
    "lower": lambda lv: lv.lower(),
    "syslog-pri": lambda lv: f"<{_SYSLOG_PRI.get(lv, 6)}>",
    "padded": lambda lv: f"{lv:<5}",
    "padded-right": lambda lv: f"{lv:>5}",
    "warning": lambda lv: lv.replace("WARN", "WARNING"),
    "coloured": lambda lv: f"\x1b[{_ANSI.get(lv, 32)}m{lv}\x1b[0m",
}
THREADS: dict[str, str] = {
    "bracket": "[main]",
    "paren": "(thread-1)",
    "pid-kv": "pid=1",
    "program-pid": "app[123]:",
    "pid-thread": "1234 - MainThread",
    "pool": "[pool-1-thread-1]",
    "pid": "[4242]",
}
LOGGERS: dict[str, Callable[[str], str]] = {
    "full": lambda lg: lg,
    "class": J.short,
    "dot-abbrev": J.dot_abbrev,
    "logback-36": lambda lg: J.logback_abbrev(lg, 36),
    "colon": lambda lg: f"{lg}:",
    "bracket": lambda lg: f"[{lg}]",
    "class-colon": lambda lg: f"{J.short(lg)}:",
}
SEPARATORS = (" ", " - ", " | ", ": ", "\t")
#: the orders of the parts (t time, l level, h thread/pid/host, c logger)
ORDERS = ("tlhc", "thlc", "tlc", "thcl", "ltc", "tcl", "tl", "th", "lthc", "t", "tch")
#: prefixes of every line (a process manager's or a container runtime's): name -> (render, precision of its time)
PREFIXES: dict[str, tuple[Callable[[datetime], str], str | None]] = {
    "none": (lambda t: "", None),
    "foreman": (lambda t: f"{t:%H:%M:%S} web.1  | ", "tod-s"),
    "foreman-12h": (lambda t: f"{t:%I:%M:%S %p} web.1  | ".lstrip("0"), "tod-s"),
    "honcho": (lambda t: f"{t:%H:%M:%S} worker.1 | ", "tod-s"),
    "compose": (lambda t: "orders_1  | ", None),
    "compose-v2": (lambda t: "orders-worker-1  | ", None),
    "pm2": (lambda t: "0|app  | ", None),
}  # fmt: skip
#: what ends each line (a .NET console's carriage return, XML-escaped)
ENDS = {"none": "", "xml-cr": "&#xD;", "xml-crlf": "&#xD;&#xA;", "xml-dec": "&#13;"}


@dataclass(frozen=True)
class Head:
    """One composition of head parts."""

    time: str
    level: str
    thread: str
    logger: str
    order: str
    sep: str
    prefix: str = "none"
    end: str = "none"
    kv: bool = False
    ansi: bool = False

    def parts(self) -> dict[str, str]:
        """Part kind -> the part chosen (for the miss rate of each part)."""
        return {"time": self.time, "level": self.level, "thread": self.thread, "logger": self.logger,
                "order": self.order, "sep": repr(self.sep), "prefix": self.prefix, "end": self.end,
                "kv": str(self.kv), "ansi": str(self.ansi)}  # fmt: skip

    @property
    def name(self) -> str:
        return "~".join(f"{k}={v}" for k, v in self.parts().items())

    @property
    def start(self) -> datetime:
        return T_DMY if self.time == "dmy-slash" else F.T0


# ------------------------------------------------------------------------------ messages
def _text(m: Msg) -> tuple[str, str]:
    """(message, logger) as the head's framework gets them: confluent-kafka hands librdkafka's line
    over with its facility; kafkajs' context keys follow the message as JSON (its default logger)."""
    if m.source == "librdkafka":
        return F._pymsg(m).lines[0], "confluent_kafka"
    msg = m.lines[0]
    if m.source == "kafkajs" and m.fields:
        msg += " " + json.dumps(m.fields, separators=(",", ":"))
    return msg, m.logger


def sample_messages(seed: int = SEED, per_source: int = PER_SOURCE) -> list[Msg]:
    """A deterministic sample of every catalogue source's mapped statements."""
    rnd = random.Random(seed)
    out: list[Msg] = []
    for src in load():
        msgs = J.messages(src.name) if src.name in J.SOURCES else F.messages(src.name)
        out += rnd.sample(msgs, min(per_source, len(msgs)))
    return out


def sample_heads(n: int = HEADS, seed: int = SEED) -> list[Head]:
    """``n`` compositions drawn deterministically (every part value appears)."""
    rnd = random.Random(seed)

    def pick(xs: tuple[str, ...] | list[str]) -> str:
        return xs[rnd.randrange(len(xs))]

    out = []
    for _ in range(n):
        kv = rnd.random() < 0.1
        prefix = pick(list(PREFIXES)) if rnd.random() < 0.25 else "none"
        end = pick(list(ENDS)) if rnd.random() < 0.1 else "none"
        out.append(Head(pick(list(TIMES)), pick(list(LEVELS)), pick(list(THREADS)), pick(list(LOGGERS)),
                        pick(ORDERS), pick(SEPARATORS), prefix, end, kv, rnd.random() < 0.1))  # fmt: skip
    return out


# ------------------------------------------------------------------------------ rendering
def _q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _kv_line(h: Head, m: Msg, t: datetime) -> str:
    msg, logger = _text(m)
    ts = TIMES[h.time][0](t)
    thread = THREADS[h.thread].strip("[]():")
    return (f"time={_q(ts)} level={m.level.lower()} logger={LOGGERS[h.logger](logger).strip('[]:')} "
            f"thread={_q(thread)} msg={_q(msg)}")  # fmt: skip


def _part(h: Head, m: Msg, t: datetime, p: str) -> str:
    _, logger = _text(m)
    text = {"t": lambda: TIMES[h.time][0](t), "l": lambda: LEVELS[h.level](m.level),
            "h": lambda: THREADS[h.thread], "c": lambda: LOGGERS[h.logger](logger)}[p]()  # fmt: skip
    if h.ansi and p in "tc":
        return f"\x1b[{36 if p == 'c' else 2}m{text}\x1b[0;39m"
    return text


def head_line(h: Head, m: Msg, t: datetime) -> str:
    """The first line of ``m`` behind head ``h`` at time ``t`` (before the prefix and line end)."""
    if h.kv:
        return _kv_line(h, m, t)
    msg, _ = _text(m)
    return h.sep.join(_part(h, m, t, p) for p in h.order) + h.sep + msg


def layout(h: Head) -> F.Layout:
    """``h`` as a layout of :func:`F.score`: the lines of a message and the time to check."""
    _, prec = TIMES[h.time]
    pre, pre_prec = PREFIXES[h.prefix]
    end = ENDS[h.end]

    def render(m: Msg, t: datetime) -> Rendered:
        outer = t + timedelta(milliseconds=500)
        lines = [head_line(h, m, t)] + ["    " + x for x in m.lines[1:]]
        lines = [pre(outer) + x + end for x in lines]
        has_time = "t" in h.order or h.kv
        if has_time:
            return lines, t, prec
        return lines, (outer if pre_prec else None), pre_prec

    return render


# ------------------------------------------------------------------------------ scoring
@dataclass
class Score:
    ok: int = 0
    fields_ok: int = 0
    n: int = 0


def grammar_score(heads: list[Head], msgs: list[Msg], per_file: int = PER_FILE, reader: Callable | None = None,
                  seed: int = SEED) -> tuple[Score, dict[tuple[str, str], Score], list[str]]:  # fmt: skip
    """(overall, per (part kind, part) , misses) of ``heads``, each over ``per_file`` statements of ``msgs``."""
    from jobs.ingest.parse import parse_bytes

    rd = reader or parse_bytes
    rnd = random.Random(seed)
    total, per_part, misses = Score(), {}, []
    for k, h in enumerate(heads):
        file_msgs = [msgs[rnd.randrange(len(msgs))] for _ in range(per_file)]
        name = f"head-{k:04d}"
        ok, bad = F.score(file_msgs, layout(h), rd, name, start=h.start)
        fok = ok if ok == per_file else F.score(file_msgs, layout(h), rd, name, fields_only=True, start=h.start)[0]
        total.ok, total.fields_ok, total.n = total.ok + ok, total.fields_ok + fok, total.n + per_file
        for part in h.parts().items():
            s = per_part.setdefault(part, Score())
            s.ok, s.fields_ok, s.n = s.ok + ok, s.fields_ok + fok, s.n + per_file
        misses += [f"{h.name}\n        {b}" for b in bad]
    return total, per_part, misses


def main(argv: list[str]) -> None:
    total, per_part, misses = grammar_score(sample_heads(), sample_messages())
    print(f"heads {HEADS} x {PER_FILE} statements: read right {total.ok}/{total.n} = {100 * total.ok / total.n:.1f}% "
          f"(fields right {100 * total.fields_ok / total.n:.1f}%)")  # fmt: skip
    print(f"{'part':8} {'value':24} {'read right':>10} {'fields right':>13}")
    for (kind, val), s in sorted(per_part.items(), key=lambda kv: kv[1].ok / kv[1].n):
        print(f"{kind:8} {val[:24]:24} {100 * s.ok / s.n:9.1f}% {100 * s.fields_ok / s.n:12.1f}%  (n={s.n})")
    if "--misses" in argv:
        for b in misses[: int(argv[argv.index("--misses") + 1]) if argv.index("--misses") + 1 < len(argv) else 40]:
            print("  ", b)


if __name__ == "__main__":
    main(sys.argv[1:])
