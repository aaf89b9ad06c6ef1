"""``python -m jobs.ingest.catalogue.mining SOURCE [--mirror DIR]``: mine SOURCE's log statements at
its release tags and rewrite ``data/SOURCE.yaml`` (see the package docstring)."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
from dataclasses import dataclass
from typing import Any

import yaml

from jobs.ingest.catalogue import DATA_DIR
from jobs.ingest.catalogue.mining import extract_c, extract_py
from jobs.ingest.catalogue.mining.extract_py import Found
from jobs.ingest.catalogue.mining.readings import READINGS, Reading


@dataclass(frozen=True)
class MinedSource:
    repo: str
    language: str
    versions: tuple[str, ...]
    files: tuple[str, ...]  # paths of the group-membership code (absent at a tag: skipped)
    head: dict[str, Any]  # the catalogue file's line / ts / logger / context / expect
    keep: str = ""  # in the files of keep_in: only statements whose facility or format matches this regex
    keep_in: tuple[str, ...] = ()


_GROUPISH = r"(?i)group|member|generation|heartbeat|rebalanc|assign|revok|coordinator|leave|poll|^REQERR "
SOURCES: dict[str, MinedSource] = {
    "librdkafka": MinedSource(
        "confluentinc/librdkafka", "c-printf",
        ("v0.9.5", "v0.11.6", "v1.0.1", "v1.1.0", "v1.2.2", "v1.3.0", "v1.4.4", "v1.5.3", "v1.6.2", "v1.7.0", "v1.8.2",
         "v1.9.0", "v2.0.0", "v2.3.0", "v2.4.0", "v2.5.0", "v2.6.1", "v2.7.0", "v2.8.0", "v2.10.1", "v2.11.1", "v2.12.1",
         "v2.13.2", "v2.14.2", "v2.15.0"),
        ("src/rdkafka_cgrp.c", "src/rdkafka_request.c"),
        {"line": "%{level}|{ts}|{facility}|rdkafka#consumer-1| [thrd:main]: {message}", "ts": "1714557600.123"},
        keep=_GROUPISH, keep_in=("src/rdkafka_request.c",),
    ),
    "kafka-python": MinedSource(
        "dpkp/kafka-python", "python-percent",
        ("1.0.2", "1.1.1", "1.2.5", "1.3.5", "1.4.7", "2.0.2", "2.2.20", "2.3.2", "3.0.11"),
        ("kafka/coordinator/base.py", "kafka/coordinator/consumer.py", "kafka/coordinator/heartbeat.py",
         "kafka/coordinator/subscription.py", "kafka/cluster.py"),
        {"line": "{ts} - {logger} - {level} - {message}", "ts": "2024-05-01 10:00:00,123"},
        keep=r"(?i)coordinator", keep_in=("kafka/cluster.py",),
    ),
    "aiokafka": MinedSource(
        "aio-libs/aiokafka", "python-percent", ("v0.5.2", "v0.8.1", "v0.10.0", "v0.12.0", "v0.14.0"),
        ("aiokafka/consumer/group_coordinator.py",),
        {"line": "{ts} - {logger} - {level} - {message}", "ts": "2024-05-01 10:00:00,123"},
    ),
}  # fmt: skip

#: keys of a statement that were set by reading and survive re-mining (``template`` only once mapped)
KEPT = ("kind", "values", "expect", "note", "context", "logger")
_ORDER = ("id", "format", "template", "level", "file", "line", "first", "last", "facility", "logger", "kind",
          "values", "expect", "context", "note")  # fmt: skip


def git_show(mirror: str, repo: str, tag: str, path: str) -> str | None:
    gitdir = os.path.join(mirror, repo.replace("/", "+"), "repo")
    r = subprocess.run(["git", "--git-dir", gitdir, "show", f"{tag}:{path}"], capture_output=True, check=False)
    return r.stdout.decode("utf-8", "replace") if r.returncode == 0 else None


# ------------------------------------------------------------------------------------------ naming
_FIELD_HINTS = (
    (r"group_?id\b|rkcg_group_id", "group_id"),
    (r"generation_?id\b|generationid|\bgeneration\b(?!\))", "generation"),
    (r"(?<!leader)(?<!leader_)member_?id\b|mymemberid", "member_id"),
    (r"(?<!rebalance_)protocol\b(?!_type|2str)", "protocol"),
)


def _slug(text: str) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "_".join(words[-2:]) or "x"


def _name(arg: str, used: set[str]) -> str:
    low = arg.lower()
    for pat, name in _FIELD_HINTS:
        if re.search(pat, low) and name not in used:
            return name
    base = "_" + _slug(re.sub(r"RD_KAFKAP_\w+_PR|rd_kafka_\w+?\(", "", arg))
    name, k = base, 2
    while name in used:
        name, k = f"{base}{k}", k + 1
    return name


def template_of(found: Found, language: str) -> tuple[str, dict[str, Any]]:
    """The format with its arguments named (fields by their source expression) and sample values
    for numeric non-field placeholders."""
    args = list(found.args)
    used: set[str] = set()
    values: dict[str, Any] = {}
    out, pos = [], 0
    for m in extract_py._PCT.finditer(found.format):
        out.append(found.format[pos : m.start()].replace("{", "{{").replace("}", "}}"))
        pos = m.end()
        conv = m.group(1)
        if conv == "%":
            out.append("%")
            continue
        if language == "c-printf" and ".*" in m.group(0) and args and not args[0].startswith("RD_KAFKAP_"):
            args.pop(0)  # %.*s: length, then the pointer
        arg = args.pop(0) if args else "x"
        name = _name(arg, used)
        used.add(name)
        if name.startswith("_") and conv in "diouxX":
            values[name] = 3
        out.append("{" + name + "}")
    out.append(found.format[pos:].replace("{", "{{").replace("}", "}}"))
    return "".join(out), values


# ------------------------------------------------------------------------------------------ merging
def _id(file: str, found: Found) -> str:
    stem = os.path.splitext(os.path.basename(file))[0].replace("_", "-")
    literal = re.sub(r"%[^a-zA-Z%]*[a-zA-Z%]", " ", found.format)
    words = re.findall(r"[A-Za-z]+", literal)[:6]
    fac = f"{found.facility.lower()}." if found.facility else ""
    return f"{stem}.{fac}{'-'.join(w.lower() for w in words) or 'x'}"


def mine(src: MinedSource, mirror: str) -> list[dict[str, Any]]:
    """Every statement of every tag, merged by (file, facility, level, format)."""
    merged: dict[tuple, dict[str, Any]] = {}
    for tag in src.versions:
        for path in src.files:
            text = git_show(mirror, src.repo, tag, path)
            if text is None:
                continue
            module = path[: -len(".py")].replace("/", ".") if path.endswith(".py") else path
            extract = extract_c.extract if src.language == "c-printf" else extract_py.extract
            for f in extract(text, module):
                if path in src.keep_in and not re.search(src.keep, f.facility + " " + f.format):
                    continue
                key = (os.path.basename(path), f.facility, f.level, f.format)
                st = merged.get(key)
                if st is None:
                    template, values = template_of(f, src.language)
                    st = merged[key] = {"id": _id(path, f), "format": f.format, "template": template,
                                        "level": f.level, "file": path, "line": f.line, "first": tag, "last": tag,
                                        "tags": set(), "kind": "unmapped"}  # fmt: skip
                    if f.facility:
                        st["facility"] = f.facility
                    else:
                        st["logger"] = f.logger
                    if values:
                        st["values"] = values
                st["tags"].add(tag)
                st["last"], st["line"], st["file"] = tag, f.line, path
    out = list(merged.values())
    seen: dict[str, int] = {}
    for st in out:
        n = seen[st["id"]] = seen.get(st["id"], 0) + 1
        if n > 1:
            st["id"] = f"{st['id']}-{n}"
        st.pop("tags")
        if st["first"] == src.versions[0]:
            st["first"] = ""
        if st["last"] == src.versions[-1]:
            st["last"] = ""
    return out


def _same(st: dict[str, Any]) -> tuple:
    return (os.path.basename(st["file"]), st.get("facility", ""), str(st["level"]), st["format"])


_PROVENANCE = ("file", "line", "first", "last")


def update(mined: list[dict[str, Any]], old: list[dict[str, Any]], readings: list[Reading]) -> list[dict[str, Any]]:
    """The catalogue file's statements with the provenance mining found (a statement is the same when
    its file, facility, level and format are: its id, mapping and notes stay as the file has them, and a
    statement of a file the miner does not read is kept as written), then the statements found first
    now, read by :mod:`.readings`, each with an id no other statement has."""
    found = {_same(st): st for st in mined}
    out, seen = [], set()
    for prev in old:
        st = found.get(_same(prev))
        if st is not None:
            seen.add(_same(prev))
            prev = {**prev, **{k: st[k] for k in _PROVENANCE if k in st}}
            prev = {k: v for k, v in prev.items() if v not in ("", None)}
            if prev.get("kind", "unmapped") == "unmapped":
                read(prev, readings)
        out.append(prev)
    taken = {st["id"] for st in out}
    new = [st for st in mined if _same(st) not in seen]
    for st in new:
        base = re.sub(r"-\d+$", "", st["id"])
        name, k = base, 2
        while name in taken:
            name, k = f"{base}-{k}", k + 1
        st["id"] = name
        taken.add(name)
    return [*(dict(sorted(st.items(), key=lambda kv: _rank(kv[0]))) for st in out), *merge_reading(new, {}, readings)]


def _rank(key: str) -> int:
    return _ORDER.index(key) if key in _ORDER else len(_ORDER)


def read(st: dict[str, Any], readings: list[Reading]) -> None:
    """Apply the first reading whose regex matches the statement's format (``%.*s`` read as ``%s``)."""
    fmt = st["format"].replace("%.*s", "%s")
    for pattern, kind, extra in readings:
        if re.search(pattern, fmt):
            st["kind"] = kind
            for k, v in extra.items():
                st[k] = {**st.get(k, {}), **v} if k == "values" else v
            return


def merge_reading(
    mined: list[dict[str, Any]], old: dict[str, dict[str, Any]], readings: list[Reading]
) -> list[dict[str, Any]]:
    """Keep what reading decided for the statements found again (the template once mapped), then
    apply :mod:`.readings`."""
    out = []
    for st in mined:
        prev = old.get(st["id"])
        if prev is not None:
            for k in KEPT:
                if k in prev:
                    st[k] = prev[k]
            if prev.get("kind", "unmapped") != "unmapped" and "template" in prev:
                st["template"] = prev["template"]
        read(st, readings)
        out.append({k: st[k] for k in _ORDER if k in st and st[k] not in ("", None, {})})
    return out


def write(name: str, src: MinedSource, statements: list[dict[str, Any]], header: dict[str, Any]) -> str:
    path = os.path.join(DATA_DIR, f"{name}.yaml")
    doc = {"repo": src.repo, "language": src.language, "versions": list(src.versions), **src.head, **header,
           "statements": statements}  # fmt: skip
    head = (f"# {name}: the log statements of {', '.join(src.files)} at the tags below, mined by\n"
            f"# `python -m jobs.ingest.catalogue.mining {name}` and mapped by reading; see docs/catalogue.md.\n")  # fmt: skip
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(head)
        yaml.safe_dump(doc, fh, sort_keys=False, allow_unicode=True, width=160)
    return path


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", choices=sorted(SOURCES))
    ap.add_argument("--mirror", default="/work/.mirror")
    a = ap.parse_args(argv)
    src = SOURCES[a.source]
    path = os.path.join(DATA_DIR, f"{a.source}.yaml")
    old_doc: dict[str, Any] = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            old_doc = yaml.safe_load(fh) or {}
    old = list(old_doc.get("statements") or ())
    header = {k: v for k, v in old_doc.items() if k in ("logger", "context", "context_values", "expect")}
    statements = update(mine(src, a.mirror), old, READINGS[a.source])
    out = write(a.source, src, statements, header)
    mapped = sum(1 for s in statements if s["kind"] != "unmapped")
    print(f"{out}: {len(statements)} statements, {mapped} mapped")


if __name__ == "__main__":
    main()
