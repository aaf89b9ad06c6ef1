"""Mine the log statements of Kafka's group-membership code from a git mirror of apache/kafka.

``python -m jobs.ingest.catalogue.mining.mine_kafka MIRROR [MIRROR ...] [--source NAME ...] [--out DIR]``

For every source of :data:`~jobs.ingest.catalogue.mining.kafka_sources.SOURCES` and every tag it reads,
list the log statements of its classes (``git show TAG:PATH``), merge the statements with the same class
and wording across tags into one (``first``/``last`` tag, ``file``:``line``, level and verbatim format at
the last tag) and write ``DIR/<source>.yaml``. An existing file is updated: the provenance is rewritten,
what a person wrote about a statement (``template``, ``kind``, ``values``, ``expect``, ``note`` ...) is
kept, and a new statement starts as ``unmapped`` with a draft template.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

import yaml

from jobs.ingest.catalogue.mining.java_source import LogCall, log_calls
from jobs.ingest.catalogue.mining.kafka_sources import SOURCES, ClassSpec, SourceSpec, draft_template, ref_of
from jobs.ingest.catalogue.mining.yaml_io import HAND_KEYS, dump_source, wording_of

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")


@dataclass
class Seen:
    cls: ClassSpec
    wording: str
    tags: list[str] = field(default_factory=list)
    last_call: LogCall | None = None
    last_path: str = ""


@cache
def _has(mirror: str, ref: str) -> bool:
    return subprocess.run(["git", "-C", mirror, "cat-file", "-e", ref + "^{commit}"], capture_output=True).returncode == 0


def _mirror_of(mirrors: tuple[str, ...], ref: str) -> str:
    """The first mirror that has ``ref`` (a tag or a commit)."""
    for m in mirrors:
        if _has(m, ref):
            return m
    raise SystemExit(f"no mirror has {ref}: {', '.join(mirrors)}")


@cache
def _tree(mirror: str, ref: str) -> tuple[str, ...]:
    out = subprocess.run(
        ["git", "-C", mirror, "ls-tree", "-r", "--name-only", ref], capture_output=True, text=True, check=True
    ).stdout
    return tuple(out.splitlines())


def _show(mirror: str, ref: str, path: str) -> str:
    return subprocess.run(
        ["git", "-C", mirror, "show", f"{ref}:{path}"], capture_output=True, text=True, check=True
    ).stdout


def _paths(mirror: str, ref: str, cls: ClassSpec, ext: str) -> list[str]:
    want = "/" + cls.name + ext
    return [
        p for p in _tree(mirror, ref) if p.endswith(want) and "/main/" in p and not any(d in p for d in cls.exclude_dirs)
    ]


def mine(mirrors: tuple[str, ...], spec: SourceSpec) -> list[Seen]:
    """Every statement of ``spec`` at its tags, merged by (class, wording), in class and line order."""
    import re

    ext = ".scala" if spec.language == "scala" else ".java"
    seen: dict[tuple[str, str], Seen] = {}
    for tag in spec.tags:
        ref = ref_of(tag)
        mirror = _mirror_of(mirrors, ref)
        for cls in spec.classes:
            for path in _paths(mirror, ref, cls, ext):
                for call in log_calls(_show(mirror, ref, path), spec.calls or ("scala" if ext == ".scala" else "java")):
                    if cls.only and not re.search(cls.only, call.wording):
                        continue
                    s = seen.setdefault((cls.name, call.wording), Seen(cls, call.wording))
                    if tag not in s.tags:
                        s.tags.append(tag)
                    s.last_call, s.last_path = call, path
    order = {c.name: i for i, c in enumerate(spec.classes)}
    return sorted(seen.values(), key=lambda s: (order[s.cls.name], s.last_call.line if s.last_call else 0))


def _slug(wording: str) -> str:
    import re

    words = re.findall(r"[A-Za-z][A-Za-z0-9]*", wording.replace("{}", " "))
    return "-".join(w.lower() for w in words[:6]) or "x"


def _kebab(name: str) -> str:
    import re

    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


def _existing(path: str) -> tuple[dict, dict[tuple[str, str], dict]]:
    if not os.path.exists(path):
        return {}, {}
    with open(path, encoding="utf-8") as fh:
        raw = yaml.safe_load(fh) or {}
    by_key = {}
    for st in raw.get("statements") or ():
        cls = os.path.splitext(os.path.basename(st.get("file", "")))[0]
        by_key[(cls, wording_of(st.get("format", ""), raw.get("language", "")))] = st
    return raw, by_key


def build(mirrors: tuple[str, ...], spec: SourceSpec, path: str) -> dict:
    raw, old = _existing(path)
    head_cls = spec.classes[0]
    statements, ids = [], set()
    for s in mine(mirrors, spec):
        call = s.last_call
        assert call is not None
        prev = old.get((s.cls.name, s.wording), {})
        sid = prev.get("id") or f"{_kebab(s.cls.name)}.{_slug(s.wording)}"
        base, k = sid, 2
        while sid in ids:
            sid, k = f"{base}-{k}", k + 1
        ids.add(sid)
        st = {
            "id": sid,
            "format": call.format,
            "template": prev["template"] if prev.get("kind", "unmapped") != "unmapped" else draft_template(s.wording, call.args)[0],
            "level": call.level,
            "file": s.last_path,
            "line": call.line,
            "first": s.tags[0],
            "last": s.tags[-1],
            "kind": prev.get("kind", "unmapped"),
        }
        if s.cls.logger != head_cls.logger:
            st["logger"] = s.cls.logger
        ctx = s.cls.context
        if s.cls.since in spec.tags and spec.tags.index(s.tags[-1]) < spec.tags.index(s.cls.since):
            ctx = s.cls.before
        if ctx != head_cls.context:
            st["context"] = ctx
        for k2 in HAND_KEYS:
            if k2 in prev and k2 not in ("template", "kind", "logger", "context"):  # (the last two: the miner's)
                st[k2] = prev[k2]
        if prev.get("kind", "unmapped") == "unmapped" and draft_template(s.wording, call.args)[1]:
            st["values"] = draft_template(s.wording, call.args)[1]
        statements.append(st)
    head = {
        "comment": spec.header.get("comment", ""),
        "repo": spec.repo,
        "language": spec.language if spec.language != "scala" else "scala",
        "versions": list(spec.tags),
        "line": spec.header.get("line", "[{ts}] {level} {message} ({logger})"),
        "ts": spec.header.get("ts", "2024-05-01 10:00:00,123"),
        "logger": head_cls.logger,
        "context": head_cls.context,
    }
    for key in ("context_values", "expect"):
        if key in raw or key in spec.header:
            head[key] = spec.header.get(key, raw.get(key))
    head["statements"] = _group_first(statements)
    return head


def _group_first(statements: list[dict]) -> list[dict]:
    """Statements in class and line order, except that an event statement that names no group comes
    after the first statement of its class that does (its golden line is attributed from the file's
    context, as in a real log)."""
    out: list[dict] = []
    held: dict[str, list[dict]] = {}
    named: set[str] = set()
    for st in statements:
        cls = os.path.basename(st["file"])
        names = "{group_id}" in st["template"] or "{group_id}" in (st.get("context") or "")
        if not names and cls not in named and st["kind"] not in ("unrelated", "unmapped"):
            held.setdefault(cls, []).append(st)
            continue
        out.append(st)
        if names and cls not in named:
            named.add(cls)
            out.extend(held.pop(cls, []))
    for rest in held.values():
        out.extend(rest)
    return out


def main(argv: Iterable[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mirror", nargs="+", help="git mirrors of the sources' repository (apache/kafka, spring-projects/spring-kafka);"
                    " each tag is read from the first one that has it")
    ap.add_argument("--source", action="append", help="only these sources (default: all)")
    ap.add_argument("--out", default=DATA, help="the catalogue's data directory")
    args = ap.parse_args(list(argv) if argv is not None else None)
    for spec in SOURCES:
        if (args.source and spec.name not in args.source) or (not args.source and spec.repo != "apache/kafka"):
            continue
        path = os.path.join(args.out, spec.name + ".yaml")
        doc = build(tuple(args.mirror), spec, path)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(dump_source(doc))
        print(f"{spec.name}: {len(doc['statements'])} statements over {len(spec.tags)} tags", file=sys.stderr)


if __name__ == "__main__":
    main()
