"""Layouts a user declares: the log4j/logback pattern from their ``log4j2.xml`` / ``logback.xml``, or
a regex with named groups, in the YAML config::

    ingest:
      layouts:
        - pattern: "%d{ISO8601} [%t] %-5level %logger{36} - %msg%n"
        - regex: '^(?P<ts>\\S+ \\S+) (?P<level>\\w+) (?P<message>.*)$'
          name: my-app          # optional: the value of the events' ``layout`` column

Declared layouts are tried before the built-in ones. A declaration that cannot work (no message
conversion, an unknown conversion word, a regex that RE2 rejects or without a ``message`` group)
is a configuration error at start, naming the entry.

Conversion words (log4j 2 and logback spellings): ``%d``/``%date`` (with any ``{format}``: the
timestamp locator reads the value), ``%p``/``%le``/``%level``, ``%t``/``%thread``/``%tn``,
``%c``/``%lo``/``%logger`` (``{precision}`` ignored), ``%m``/``%msg``/``%message``, ``%n``;
fields skipped by shape: ``%X{…}``/``%mdc``/``%MDC`` (anything up to the next literal),
``%C``/``%class``, ``%M``/``%method``, ``%F``/``%file``, ``%L``/``%line``, ``%r``/``%relative``,
``%pid``/``%processId``, ``%sn``/``%sequenceNumber``, ``%marker``, ``%X``, ``%x``/``%NDC``,
``%T``/``%tid``/``%threadId``; ``%ex``/``%throwable``/``%xEx``/``%wEx`` (nothing on the line);
wrappers ``%highlight{…}``, ``%style{…}``, ``%clr(…){…}``, ``%green(…)`` etc. are replaced by their
content; padding ``%-5p``, ``%5.-10c``, ``%.-1p`` and Spring's ``${NAME:-default}`` /
``${NAME:default}`` properties (their default) are understood.
"""

from __future__ import annotations

import re
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from jobs.ingest.layouts import LEVELS, Layout

_WORDS: dict[str, str] = {}
for _names, _rx in (
    (("p", "le", "level"), rf"(?P<level>(?:{LEVELS}))"),
    (("t", "thread", "tn", "threadName"), r"(?P<thread>.*?)"),
    (("c", "lo", "logger"), r"(?P<logger>\S+?)"),
    (("m", "msg", "message"), r"(?P<message>.*)"),
    (("C", "class", "M", "method", "F", "file", "marker"), r"\S*?"),
    (
        ("L", "line", "r", "relative", "pid", "processId", "sn", "sequenceNumber", "T", "tid", "threadId"),
        r"\d*",
    ),
    (("X", "mdc", "MDC", "x", "NDC", "ndc", "kvp", "K", "map", "u", "uuid", "equals"), r".*?"),
    (
        (
            "ex",
            "exception",
            "throwable",
            "xEx",
            "xException",
            "xThrowable",
            "rEx",
            "wEx",
            "wex",
            "n",
            "nopex",
        ),
        "",
    ),
):
    for _n in _names:
        _WORDS[_n] = _rx
_WRAPPERS = frozenset(
    [
        "highlight",
        "style",
        "clr",
        "green",
        "red",
        "blue",
        "yellow",
        "cyan",
        "magenta",
        "white",
        "black",
        "gray",
        "boldRed",
        "boldGreen",
        "boldBlue",
        "boldYellow",
        "boldCyan",
        "boldMagenta",
        "boldWhite",
        "faint",
        "encode",
        "replace",
        "maxLen",
        "maxLength",
        "notEmpty",
    ]
)
_PROP = re.compile(r"\$\{[^}:]*:-?([^}]*)\}")


class DeclarationError(ValueError):
    """A declared layout that cannot work (the message names the entry and the problem)."""


def _group(text: str, i: int, open_: str, close: str) -> tuple[str, int]:
    """The text inside the bracket at ``text[i]`` and the index after its closing bracket."""
    depth, j = 0, i
    while j < len(text):
        if text[j] == open_:
            depth += 1
        elif text[j] == close:
            depth -= 1
            if depth == 0:
                return text[i + 1 : j], j + 1
        j += 1
    raise DeclarationError(f"unbalanced {open_!r} in {text!r}")


_NO_SPACE_DATES = frozenset(
    [
        "ISO8601",
        "ISO8601_BASIC",
        "ISO8601_OFFSET_DATE_TIME_HHMM",
        "ABSOLUTE",
        "COMPACT",
        "UNIX",
        "UNIX_MILLIS",
        "ISO8601_PERIOD",
        "ABSOLUTE_PERIOD",
    ]
)


def _date_regex(fmt: str | None) -> str:
    """The timestamp group of ``%d{fmt}``: as many space-separated tokens as the format has
    (``DATE`` = ``dd MMM yyyy HH:mm:ss,SSS`` has four; ``ISO8601`` one; the default two)."""
    f = (fmt or "DEFAULT").split("}")[0].split(",")[0].strip()
    if f in _NO_SPACE_DATES:
        spaces = 0
    elif f in ("DEFAULT", "DEFAULT_NANOS", "DEFAULT_MICROS", "DEFAULT_PERIOD"):
        spaces = 1
    elif f == "DATE":
        spaces = 3
    else:
        spaces = re.sub(r"'[^']*'", "", f).count(" ")
    return r"(?P<ts>\S+" + r"(?: +\S+)" * spaces + ")"


def _translate(pat: str, used: set[str]) -> str:
    out: list[str] = []
    i = 0
    while i < len(pat):
        ch = pat[i]
        if ch != "%":
            if ch.isspace():
                j = i
                while j < len(pat) and pat[j].isspace():
                    j += 1
                out.append(r"\s+")  # padding makes runs of spaces vary
                i = j
            else:
                out.append(re.escape(ch))
                i += 1
            continue
        if pat[i + 1 : i + 2] == "%":
            out.append("%")
            i += 2
            continue
        m = re.compile(r"%(-?\d*(?:\.-?\d+)?)([A-Za-z]+)").match(pat, i)
        if not m:
            raise DeclarationError(f"cannot read the conversion at {pat[i : i + 12]!r}")
        word = m.group(2)
        i = m.end()
        inner: str | None = None
        if pat[i : i + 1] in ("(", "{") and word in _WRAPPERS:
            open_, close = pat[i], ")" if pat[i] == "(" else "}"
            inner, i = _group(pat, i, open_, close)
            if pat[i : i + 1] == "{":  # %clr(...){faint}
                _, i = _group(pat, i, "{", "}")
            out.append(_translate(inner, used))
            continue
        opt = None
        if pat[i : i + 1] == "{":
            opt, i = _group(pat, i, "{", "}")
        if word in ("d", "date") and "ts" not in used:
            used.add("ts")
            out.append(_date_regex(opt))
            continue
        if word not in _WORDS:
            raise DeclarationError(f"unknown conversion word %{word}")
        rx = _WORDS[word]
        name = re.match(r"\(\?P<(\w+)>", rx)
        if name:
            if name.group(1) in used:
                rx = re.sub(r"\(\?P<\w+>", "(?:", rx, count=1)
            used.add(name.group(1))
        out.append(rx)
    return "".join(out)


def pattern_regex(pattern: str) -> str:
    """The layout regex (named groups ts/level/thread/logger/message) of a log4j/logback pattern."""
    # Spring Boot's properties: the process id is a number at run time, the others their default
    pat = re.sub(r"\$\{PID[^}]*\}", "%pid", pattern)
    pat = _PROP.sub(lambda m: m.group(1), pat)
    used: set[str] = set()
    body = _translate(pat, used)
    body = re.sub(r"(?:\\s\+){2,}", lambda m: r"\s+", body)  # (spaces of empty fields collapse)
    body = re.sub(r"\\s\+\\d\*\\s\+", r"\\s+(?:\\d+\\s+)?", body)
    if "message" not in used:
        raise DeclarationError("the pattern has no message conversion (%m / %msg / %message)")
    body = re.sub(r"(?:\\s\+)+$", "", body)
    return "^" + body + r"\s*$"


def _check_regex(rx: str) -> None:
    try:
        compiled = re.compile(rx)
        pc.extract_regex(pa.array([""]), rx)  # RE2 must accept it too
    except (re.error, pa.ArrowInvalid) as exc:
        raise DeclarationError(f"not a valid regex: {exc}") from exc
    if "message" not in compiled.groupindex:
        raise DeclarationError("the regex has no (?P<message>...) group")
    unknown = set(compiled.groupindex) - {"ts", "level", "logger", "thread", "message"}
    if unknown:
        raise DeclarationError(
            f"unknown named groups {sorted(unknown)} (use ts, level, logger, thread, message)"
        )


def declared_layouts(entries: Any) -> tuple[Layout, ...]:
    """Layouts of the config's ``ingest.layouts`` list; :class:`DeclarationError` names the entry."""
    if entries is None:
        return ()
    if not isinstance(entries, (list, tuple)):
        raise DeclarationError("ingest.layouts must be a list of {pattern: ...} or {regex: ...}")
    out: list[Layout] = []
    for k, e in enumerate(entries):
        key = f"ingest.layouts[{k}]"
        if (
            not isinstance(e, dict)
            or len({"pattern", "regex"} & set(e)) != 1
            or set(e) - {"pattern", "regex", "name"}
        ):
            raise DeclarationError(
                f"{key} must have exactly one of 'pattern' or 'regex' (and optionally 'name')"
            )
        try:
            rx = pattern_regex(str(e["pattern"])) if "pattern" in e else str(e["regex"])
            _check_regex(rx)
        except DeclarationError as exc:
            raise DeclarationError(f"{key}: {exc}") from None
        name = str(e.get("name") or f"declared-{k}")
        out.append(Layout(name, rx, "", str(e.get("pattern") or e.get("regex"))))
    return tuple(out)
