"""Application records: where a structured log line keeps its message, time, level and logger.

A record is a JSON object of any common shape (ECS, Logstash, GELF, Bunyan, pino, zap, zerolog,
structlog, Cloud Logging, CloudWatch, journald's JSON, docker's json-file ...), a logfmt line, or a
delimited line (`` | `` columns of a log4j2 pattern, a CSV export of a log viewer). Its fields are
FOUND by rules, not listed per schema:

* **key-name families** (:data:`FAMILIES`): the first key of a family present in the record, in
  family order; a nested key (``jsonPayload.message``, ``mdc.groupId``) counts by its last segment
  (:data:`SUFFIXES`);
* **value shapes**: a time is text the timestamp locator reads whole, or a number (epoch seconds,
  milliseconds, microseconds or nanoseconds by its size, :func:`epoch_text`); a level is a word or a
  number (Bunyan/pino 10..60, syslog 0..7, :func:`level_text`); in a delimited line each column is
  classified by its shape (:func:`classify_columns`).

What a record becomes (:class:`Record`): when its message key is one that carries a whole line
(:data:`LINE_KEYS`: docker's ``log``, journald's ``MESSAGE``, CloudWatch's ``@message``, Cloud
Logging's ``textPayload``, Splunk's ``_raw``) or its message is itself a log line (a JSON object, a
logfmt record, a line of a known layout), the record is an *envelope*: the message is read again
as a line and the record's time is the envelope's. Otherwise the record is the application's own:
it is rewritten as one canonical JSON line (:func:`canonical`) that the ``json`` layout reads.
"""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from jobs.ingest import layouts as L
from jobs.ingest import timestamps as TS
from jobs.ingest.pyregex import translate

#: key-name families, first key present wins (full flattened key names): the one table of the roles a
#: key plays (:data:`jobs.ingest.layouts.KEY_FAMILIES`) less the names only the ``json`` layout reads
FAMILIES: dict[str, tuple[str, ...]] = {
    fam: tuple(n for n in names if n not in L.JSON_ONLY_KEYS) for fam, names in L.KEY_FAMILIES.items()
}
#: last segments of nested keys that belong to a family (``mdc.groupId``, ``jsonPayload.message``)
SUFFIXES: dict[str, tuple[str, ...]] = {
    "message": ("message", "msg"),
    "j_group": ("groupId", "group_id", "groupID", "consumerGroup", "consumer_group"),
    "j_member": ("memberId", "member_id"),
    "j_gen": ("generationId", "generation_id"),
    "j_client": ("clientId", "client_id"),
}
#: message keys whose value is a whole line written by a runtime or shipper (an envelope)
LINE_KEYS = ("log", "MESSAGE", "@message", "textPayload", "_raw")
#: the key each field gets in the canonical JSON line (the first name of ``layouts.JSON_NAMES``)
CANONICAL = {"ts": "@timestamp", "level": "level", "logger": "logger_name", "thread": "thread_name",
             "message": "message", "j_group": "groupId", "j_member": "memberId", "j_gen": "generationId",
             "j_client": "clientId", "j_error": "error"}  # fmt: skip

#: the facts a statement's arguments give as keys: key family -> the event field (a dialect's named group);
#: the error of a record (``error``, ``err``, ``error.message``, ``exception``) is the event's reason
KEY_FACTS = {"j_group": "group_id", "j_member": "member_id", "j_gen": "generation", "j_error": "reason"}
#: the event fields the keys of a structured line (a JSON line, a peeled record's canonical line) fill
#: where its message states none, by the head column of each family (:data:`layouts.JSON_EXTRA`): the
#: key facts and the client id (both readers: ``fields.json_event_fields``, ``reference_events``)
RECORD_FACTS: dict[str, str] = {fam: {**KEY_FACTS, "j_client": "client_id"}[fam] for fam in L.JSON_EXTRA}
_KEY_VALUE = {"group_id": r'[^",\s}]+', "member_id": r'[^",\s}]*', "generation": r"-?\d+", "reason": r".*?"}


def keys_tail(reason: bool = True) -> str:
    """A message's arguments written as keys after it, in any text syntax: kgo's ``; k: v, k: v``,
    a console writer's `` k=v k="v w"`` (zerolog, logfmt tails), zap's ``\t{"k": "v"}``, a JSON
    object after the text (NestJS's kafkajs lines). The facts' keys (:data:`KEY_FACTS`, names from
    :data:`FAMILIES`) fill the named groups ``group_id``, ``member_id``, ``generation`` and (unless
    ``reason`` is False: the dialect names its own) ``reason``; any other key is passed over. RE2
    syntax (no look-around), used by the dialects as ``{KEYS}``."""
    facts = []
    for fam, group in KEY_FACTS.items():
        names = "|".join(re.escape(n) for n in FAMILIES[fam])
        capture = f"?P<{group}>" if reason or group != "reason" else "?:"
        facts.append(rf'(?:{names})"?(?:=|:\s*)"?({capture}{_KEY_VALUE[group]})"?')
    nested = r"\{(?:[^{}]|\{[^{}]*\})*\}|\[(?:[^\[\]]|\[[^\[\]]*\])*\]"
    quoted = r'"(?:[^"\\]|\\.)*"'
    other = rf'[\w.@?-]+"?(?:=(?:{quoted}|[^\s"]*)|:\s*(?:{quoted}|{nested}|[^,}}]*))'
    return rf'(?:(?:; |\s*\{{|,\s*|\s+)"?(?:{"|".join(facts)}|{other}))+\}}?'


def key_block() -> tuple[tuple[str, str], ...]:
    """(event field, regex with group ``v``) of the facts' keys in a continuation block of indented
    ``key: value`` lines (pino-pretty's extra keys, a YAML-like dump): a message's arguments as keys
    on the lines after it. A fact fills only an event field the line and its context left empty."""
    out = []
    for fam, name in KEY_FACTS.items():
        if name != "reason":
            keys = "|".join(re.escape(n) for n in FAMILIES[fam])
            value = _KEY_VALUE[name].replace("}", "").replace(",", ",'")
            q = "[\'\"]?"
            out.append((name, rf"(?:^|\n)[ \t]+{q}(?:{keys}){q}:[ \t]*{q}(?P<v>{value}){q},?[ \t]*(?:\n|$)"))
    return tuple(out)


#: :func:`key_block`, once
KEY_BLOCK = key_block()


_BUNYAN = {10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR", 60: "FATAL"}
_SYSLOG = ("EMERG", "ALERT", "CRITICAL", "ERROR", "WARN", "NOTICE", "INFO", "DEBUG")


@dataclass
class Record:
    """What a record holds: its message (``line``: a whole line to read again, else the message),
    its fields by family, and a ``shape`` name for the layout column."""

    shape: str
    fields: dict[str, str | None]
    line: str | None = None  # the message is a line of its own (this record is an envelope)
    used: tuple[str, ...] = ()  # the keys the fields came from


@cache
def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(translate(pattern), re.ASCII)


_TS_WHOLE = re.compile(rf"^(?:{TS._ANY})$", re.ASCII)
_LEVEL_WORD = _rx(rf"^\[?(?:{L.LEVELS})\]?$")
_LEVEL_ANY = re.compile(rf"^\[?(?:{L.LEVELS}|warning|info|debug|error|trace|fatal|critical|notice)\]?$", re.I)


def epoch_text(v: float | int | str) -> str | None:
    """Epoch seconds text (``1714557600.123456``) of a number of seconds, ms, µs or ns (by size)."""
    s = str(v).strip()
    m = re.fullmatch(r"(\d{9,19})(?:\.(\d+))?", s)
    if not m:
        return None
    whole, frac = m.group(1), m.group(2) or ""
    cut = {9: 0, 10: 0, 12: 3, 13: 3, 15: 6, 16: 6, 18: 9, 19: 9}.get(len(whole))
    if cut is None:
        return None
    if cut:
        whole, frac = whole[: len(whole) - cut], whole[len(whole) - cut :] + frac
    return f"{whole}.{frac[:9]}" if frac else whole


def ts_text(v: Any) -> str | None:
    """A time value as text the timestamp parser reads: located text as it is, numbers as epoch."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        return epoch_text(repr(v) if isinstance(v, float) else v)
    s = str(v).strip()
    if re.fullmatch(r"\d{9,19}(?:\.\d+)?", s):
        return epoch_text(s)
    return s if _TS_WHOLE.match(s) else None


def level_text(v: Any) -> str | None:
    """A level as a word: words as written; Bunyan/pino numbers 10..60, syslog numbers 0..7."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, float) and not v.is_integer():  # (NaN, infinity, 3.5: no level)
        return None
    if isinstance(v, (int, float)) or (isinstance(v, str) and v.isascii() and v.isdigit()):
        n = int(v)
        return _BUNYAN.get(n) or (_SYSLOG[n] if 0 <= n < 8 else None)
    return str(v)


def _scalar(v: Any) -> str | None:
    if v is None or isinstance(v, (dict, list)):
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def flatten(obj: dict, prefix: str = "") -> dict[str, Any]:
    """Nested objects as dotted keys (``{"log": {"level": x}}`` → ``log.level``; a flat key wins)."""
    out: dict[str, Any] = {}
    for k, v in obj.items():
        if isinstance(v, dict):
            for k2, v2 in flatten(v, f"{prefix}{k}.").items():
                out.setdefault(k2, v2)
        elif out.get(prefix + k) is None:
            out[prefix + k] = v
    return out


def _usable(v: Any) -> bool:
    return v is not None and v != "" and not isinstance(v, (dict, list))


def find(flat: dict[str, Any], family: str, nested: list[str] | None = None) -> tuple[str | None, Any]:
    """(key, value) of the first key of ``family`` with a usable value (see the module doc);
    ``nested``: the dotted keys of ``flat`` (computed once per record)."""
    ok = _FIND_OK.get(family, _usable)
    for name in FAMILIES[family]:
        if name in flat and ok(flat[name]):
            return name, flat[name]
    suffixes = SUFFIXES.get(family)
    if suffixes:
        for k in nested if nested is not None else [k for k in flat if "." in k]:
            if k.rsplit(".", 1)[1] in suffixes and ok(flat[k]):
                return k, flat[k]
    return None, None


_FIND_OK = {
    "message": lambda v: isinstance(v, str),
    "ts": lambda v: ts_text(v) is not None,
    "level": lambda v: level_text(v) is not None,
    "j_gen": lambda v: (isinstance(v, int) and not isinstance(v, bool) and abs(v) < 10**9)
    or (isinstance(v, str) and bool(re.fullmatch(r"-?\d{1,9}", v))),
}


def _shape(flat: dict[str, Any], key: str) -> str:
    if key == "log":
        return "fluentd" if "date" in flat else "docker"
    if key in ("short_message", "full_message"):
        return "gelf"
    return {"MESSAGE": "journald", "@message": "cloudwatch", "textPayload": "cloudlogging", "_raw": "splunk"}.get(
        key, "cloudlogging" if key.startswith("jsonPayload.") else "json"
    )


def _inner_record(obj: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """(key, object) of a message key whose value is itself a record (an object with a message key:
    a JSON logger's record that a shipper parsed and nested, ``{"time": …, "log": {"msg": …}}``)."""
    for name in FAMILIES["message"]:
        v = obj.get(name)
        if isinstance(v, dict) and find(flatten(v), "message")[0] is not None:
            return name, v
    return None



def _beside(flat: dict[str, Any], key: str) -> dict[str, Any]:
    """The keys of the object that holds a nested message key ``key`` (``a.b.message`` → ``a.b.*``, their
    names without the prefix); empty for a top-level key."""
    if "." not in key:
        return {}
    pre = key.rsplit(".", 1)[0] + "."
    return {k[len(pre) :]: v for k, v in flat.items() if k.startswith(pre)}


def from_mapping(obj: dict[str, Any], is_line: Any) -> Record | None:
    """The record of a parsed JSON object / logfmt / column mapping (None: no message key);
    ``is_line(text)`` tells whether a message is a log line of its own; a message key holding a
    record makes this record an envelope of that one (its line: the inner record as JSON)."""
    flat = flatten(obj)
    nested = [k for k in flat if "." in k]
    if (inner := _inner_record(obj)) is not None:
        outer: dict[str, str | None] = {"message": None, "ts": ts_text(find(flat, "ts", nested)[1])}
        return Record("json", outer, json.dumps(inner[1], ensure_ascii=False, default=str), (inner[0],))
    key, msg = find(flat, "message", nested)
    if key is None:
        return None
    fields: dict[str, str | None] = {"message": msg}
    used: list[str | None] = [key]
    # (a message under a wrapper key, ``{"applicationLog": {"message": …, "timestamp": …}}``: the keys
    # beside it in that object are the record's too)
    beside = _beside(flat, key)
    for fam in ("ts", "level", "logger", "thread", "j_group", "j_member", "j_gen", "j_client", "j_error"):
        k, v = find(flat, fam, nested)
        if k is None and beside:
            k, v = find(beside, fam)
            k = k and f"{key.rsplit('.', 1)[0]}.{k}"
        used.append(k)
        fields[fam] = ts_text(v) if fam == "ts" else level_text(v) if fam == "level" else _scalar(v)
    if key == "short_message" and isinstance(flat.get("full_message"), str):
        fields["message"] = flat["full_message"]  # (GELF: the full text holds the short one)
    inner = msg[:-1] if msg.endswith("\n") else msg
    inner = inner[:-1] if inner.endswith("\r") else inner
    line = inner if key in LINE_KEYS or is_line(inner) else None
    return Record(_shape(flat, key), fields, line, tuple(k for k in used if k))


def canonical(fields: dict[str, str | None], with_ts: bool = True) -> str:
    """One JSON line with the record's fields under the keys the ``json`` layout reads first."""
    out: dict[str, Any] = {}
    for fam, key in CANONICAL.items():
        v = fields.get(fam)
        if v is None or (fam == "ts" and not with_ts):
            continue
        out[key] = int(v) if fam == "j_gen" else v
    return json.dumps(out, ensure_ascii=False)


# ------------------------------------------------------------------------------ logfmt
_LOGFMT_PAIR = re.compile(r'([\w.@-]+)=("(?:[^"\\]|\\.)*"|[^\s"]*)(?:\s+|$)')
#: a logfmt line: only key=value pairs, at least two, one of them a message
LOGFMT = r'^(?:[\w.@-]+=(?:"(?:[^"\\]|\\.)*"|[^\s"]*)(?:\s+|$)){2,}$'
_LOGFMT_RX = _rx(LOGFMT)


def logfmt_rest(text: str, used: tuple[str, ...]) -> str:
    """The pairs of a logfmt line other than ``used``, as written (they may hold facts: a partition
    list, an error)."""
    return " ".join(m.group(0).strip() for m in _LOGFMT_PAIR.finditer(text) if m.group(1) not in used)


def logfmt(text: str) -> dict[str, str] | None:
    """The pairs of a logfmt line (quoted values unescaped), None when it is not one."""
    if not _LOGFMT_RX.match(text) or not re.search(r"(?:^|\s)(?:msg|message)=", text):
        return None
    out: dict[str, str] = {}
    for k, v in _LOGFMT_PAIR.findall(text):
        if v.startswith('"'):
            v = re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), v[1:-1])
        out.setdefault(k, v)
    return out


# ------------------------------------------------------------------------------ delimited
_THREAD_COL = re.compile(r"^\[[^\]]*\]$")
_LOGGER_COL = re.compile(r"^[A-Za-z_$][\w$]*(?:\.[\w$]+)*(?::\d+)?(?:\s*\([\w$]+\.\w+(?::\d+)?\))?$")
#: loguru's last column ``{name}:{function}:{line} - {message}``: the logger, then the message
_LOGGER_FUNCTION_LINE = re.compile(r"^([A-Za-z_$][\w$]*(?:\.[\w$]+)*):[A-Za-z_<][\w<>]*:\d+ - (.*)$", re.S)


def classify_columns(cols: list[str], joined: bool) -> dict[str, str | None] | None:
    """The fields of a delimited line by the shape of each column: the first column that is a
    timestamp (or a date whose next column is its time), a level word, a ``[thread]``, a logger (a dotted name and/or ``Name (File.java:66)``);
    the message is the other columns in order (``joined``: `` | `` columns, a message may hold the
    separator) or the longest of them (CSV: the others are a host, a service ...)."""
    fields: dict[str, str | None] = dict.fromkeys(("ts", "level", "logger", "thread"))
    rest: list[str] = []
    cols = [c.strip() for c in cols]
    taken = -1
    for k, c in enumerate(cols):
        if k == taken:
            continue
        if fields["ts"] is None and k + 1 < len(cols) and ts_text(c) is None and (both := ts_text(f"{c} {cols[k + 1]}")):
            fields["ts"], taken = both, k + 1  # (the date and the time in two columns: one timestamp)
        elif fields["ts"] is None and ts_text(c) is not None:
            fields["ts"] = ts_text(c)
        elif fields["level"] is None and _LEVEL_ANY.match(c):
            fields["level"] = c.strip("[]")
        elif fields["thread"] is None and _THREAD_COL.match(c) and rest == []:
            fields["thread"] = c[1:-1]
        elif fields["logger"] is None and _LOGGER_COL.match(c) and ("." in c or "(" in c) and " " not in c.split("(")[0].strip():
            fields["logger"] = c.split("(")[0].strip()
        elif fields["logger"] is None and (m := _LOGGER_FUNCTION_LINE.match(c)):
            fields["logger"] = m.group(1)
            rest.append(m.group(2))
        else:
            rest.append(c)
    if fields["ts"] is None or not any(rest):
        return None
    fields["message"] = " | ".join(r for r in rest if r) if joined else max(rest, key=len)
    return fields


#: a line of `` | `` columns whose first column is a timestamp (a log4j2 pattern with pipes)
PIPES = rf"^\[?(?:{TS.ISO}|{TS.SLASH}|{TS.DATE4J}|{TS.TIME_ONLY})\]? \| .+ \| "
#: a CSV row (a log viewer's export: quoted columns)
CSV_ROW = r'^"[^"]*(?:""[^"]*)*",|^[^",]*,"|","'
_HEADER = re.compile(r"^[@_]?[A-Za-z][\w .@-]{0,30}$")


def delimited(text: str) -> tuple[str, dict[str, str | None] | None] | None:
    """(shape, fields) of a pipes or CSV line (fields None: a CSV header row); None: neither."""
    if _rx(PIPES).search(text):
        return "pipes", classify_columns(text.split(" | "), True)
    m = _rx(CSV_ROW).search(text)
    if not m or -1 < text.find('{"') < m.start():  # (a `","` inside a JSON object after text: no CSV)
        return None
    try:
        cols = next(csv.reader([text]))
    except (csv.Error, StopIteration):
        return None
    if len(cols) < 2:
        return None
    if all(_HEADER.match(c) and ts_text(c) is None for c in cols):
        return "csv", None
    fields = classify_columns(cols, False)
    return ("csv", fields) if fields is not None else None
