"""Log statements of librdkafka's C source: ``rd_kafka_dbg(rk, CTX, "FAC", "fmt" ..., args)``,
``rd_rkb_dbg(rkb, CTX, "FAC", ...)`` (the broker's name is prefixed: ``<broker>: ``) and
``rd_kafka_log(rk, LOG_x, "FAC", ...)``. Adjacent string literals are joined; ``PRId32``-style
macros become ``d``."""

from __future__ import annotations

import re

from jobs.ingest.catalogue.mining.extract_py import Found

_CALL = re.compile(r"\b(rd_kafka_dbg|rd_rkb_dbg|rd_kafka_log|rd_rkb_log)\s*\(")
_SYSLOG = {"LOG_EMERG": "0", "LOG_ALERT": "1", "LOG_CRIT": "2", "LOG_ERR": "3", "LOG_WARNING": "4",
           "LOG_NOTICE": "5", "LOG_INFO": "6", "LOG_DEBUG": "7"}  # fmt: skip
_STR = re.compile(r'"((?:[^"\\]|\\.)*)"')
_PRI = re.compile(r"^PRI[diouxX](?:8|16|32|64|MAX|PTR)$")


def _args(src: str, start: int) -> tuple[list[str], int]:
    """Split the call's arguments at top-level commas (from just after the open parenthesis)."""
    depth, i, cur, out, in_str = 0, start, [], [], False
    while i < len(src):
        c = src[i]
        if in_str:
            cur.append(c)
            if c == "\\":
                cur.append(src[i + 1])
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
            cur.append(c)
        elif c in "([{":
            depth += 1
            cur.append(c)
        elif c in ")]}":
            if depth == 0:
                out.append("".join(cur).strip())
                return out, i
            depth -= 1
            cur.append(c)
        elif c == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    return out, i


def _format(arg: str) -> str | None:
    """The joined string literals of a format argument (``PRId32`` -> ``d``), None if not literal."""
    out, pos = [], 0
    for m in _STR.finditer(arg):
        gap = arg[pos : m.start()].strip()
        if gap:
            if not _PRI.match(gap):
                return None
            out.append(gap[3])
        out.append(m.group(1))
        pos = m.end()
    rest = arg[pos:].strip()
    if rest:
        if not _PRI.match(rest):
            return None
        out.append(rest[3])
    if not out:
        return None
    return bytes("".join(out), "utf-8").decode("unicode_escape")


def _level(fn: str, ctx: str) -> str:
    return _SYSLOG.get(ctx.strip(), "7") if fn.endswith("_log") else "7"


def extract(source: str, module: str) -> list[Found]:
    out = []
    for m in _CALL.finditer(source):
        fn = m.group(1)
        args, _ = _args(source, m.end())
        if len(args) < 4:
            continue
        fac = _STR.fullmatch(args[2].strip())
        fmt = _format(args[3])
        if fac is None or fmt is None:
            continue
        if fn.startswith("rd_rkb"):
            fmt = "%s: " + fmt
            rest = ("rd_kafka_broker_name(rkb)", *args[4:])
        else:
            rest = tuple(args[4:])
        line = source.count("\n", 0, m.start()) + 1
        out.append(Found(fmt, _level(fn, args[1]), line, tuple(rest), module, fac.group(1)))
    return out
