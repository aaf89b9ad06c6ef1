"""Reading and writing catalogue files for the miners: a stable, readable YAML layout (one statement
per block, keys in a fixed order), and the wording of a stored ``format``."""

from __future__ import annotations

import re

import yaml

from jobs.ingest.catalogue.mining.java_source import format_expr

#: keys of a statement a person writes (kept when the miner updates a file)
HAND_KEYS = ("template", "kind", "values", "expect", "facility", "logger", "context", "note")
_ORDER = ("id", "format", "template", "level", "file", "line", "first", "last", "kind", *HAND_KEYS[2:])
_HEAD = ("repo", "language", "versions", "line", "ts", "logger", "context", "context_values", "expect")


def wording_of(fmt: str, language: str) -> str:
    """The wording (arguments as ``{}``) of a stored format: a literal's text is its wording; an
    expression (``"a " + x``, ``s"..${x}.."``) is re-read."""
    f = fmt.strip()
    if f.startswith(('"', 's"')) or "String.format(" in f:
        got = format_expr(f, [])
        if got:
            return re.sub(r"\s+", " ", got[0]).strip()
    return re.sub(r"\s+", " ", f).strip()


def _dump(value) -> str:
    return yaml.safe_dump(value, default_flow_style=True, width=100000, allow_unicode=True, sort_keys=False).strip()


def _scalar(value) -> str:
    out = _dump(value)
    if out.endswith("\n..."):
        out = out[: -len("\n...")]
    return out.removesuffix("\n...").strip()


def dump_source(doc: dict) -> str:
    """The YAML text of a catalogue file (``comment`` becomes a leading comment line)."""
    lines = []
    comment = doc.get("comment")
    if comment:
        lines += [f"# {c}" for c in comment.splitlines()]
    lines.append("# Mined from the source at the tags below; see docs/catalogue.md.")
    for k in _HEAD:
        if k in doc:
            lines.append(f"{k}: {_scalar(doc[k])}")
    lines.append("statements:")
    for st in doc["statements"]:
        first = True
        for k in _ORDER:
            if k not in st:
                continue
            lines.append(("  - " if first else "    ") + f"{k}: {_scalar(st[k])}")
            first = False
    text = "\n".join(lines) + "\n"
    yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # the output must read back
    return text
