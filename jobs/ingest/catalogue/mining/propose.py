"""A first draft of a client's catalogue file: every mined statement with a template (its
placeholders named after the event fields its arguments hold) and the kind the parser reads its
golden line as. The draft is a proposal: each kind is then checked by reading the statement (see
``docs/catalogue.md``); the catalogue files are edited by hand from there.

    python -m jobs.ingest.catalogue.mining.propose kafkajs /work/.mirror/tulios+kafkajs/repo > draft.yaml
"""

from __future__ import annotations

import re
import sys
from dataclasses import replace

import yaml

from jobs.ingest.catalogue import UNMAPPED, UNRELATED, Source, Statement, render_line
from jobs.ingest.catalogue.mining.clients import CLIENTS
from jobs.ingest.catalogue.mining.mine import merged
from jobs.ingest.parse import parse_bytes

#: argument expression -> event field
FIELDS: tuple[tuple[str, str], ...] = (
    (r"(?i)^@?(?:[\w]+\.)*(?:groupID|group_?id|config\.ID|cfg\.group|consumerGroup|coordinatorKey)$|^group$", "group_id"),
    (r"(?i)^@?(?:[\w]+\.)*(?:member_?id)$", "member_id"),
    (r"(?i)^@?(?:[\w]+\.)*(?:generation_?id|generation)$", "generation"),
)
GO_VERB = r"%[-+# 0]*\d*(?:\.\d+)?[vsdqxXtTfgep]"
ERL_VERB = r"~(?:\d+|\*)?(?:\.\d*)?[ptswPWSBfeg]"


def field_of(expr: str, used: set[str]) -> str:
    expr = expr.strip().removesuffix("()")
    for rx, name in FIELDS:
        if re.search(rx, expr) and name not in used:
            used.add(name)
            return name
    base = re.sub(r"\W+", "_", expr.strip().split(".")[-1].split("(")[0]).strip("_").lower() or "x"
    n, i = "_" + base, 2
    while n in used:
        n, i = f"_{base}{i}", i + 1
    used.add(n)
    return n


def _esc(s: str) -> str:
    return s.replace("{", "{{").replace("}", "}}")


def template(client: str, st: dict) -> str:
    fmt, args = st["format"], list(st.get("args") or [])
    used: set[str] = set()
    if client in ("sarama", "sarama-cluster", "kafka-go"):
        parts = re.split(f"({GO_VERB}|%%)", fmt)
        out = []
        for p in parts:
            if p == "%%":
                out.append("%")
            elif re.fullmatch(GO_VERB, p):
                out.append("{" + field_of(args.pop(0) if args else "x", used) + "}")
            else:
                out.append(_esc(p))
        return "".join(out)
    if client == "franz-go":
        m = re.match(r"^(.*?)(?:; ((?:[\w?]+: %v(?:, )?)+))?$", st["text"], re.S)
        msg, keys = (m.group(1), m.group(2) or "") if m else (st["text"], "")  # (it always matches)
        msg = re.sub(r"%v", "{_name}", _esc(msg))
        kv = [k.split(": ")[0] for k in keys.split(", ")] if keys else []
        names = {"group": "group_id", "member_id": "member_id", "generation": "generation"}
        body = ", ".join(f"{k}: {{{names.get(k) or field_of(k, used)}}}" for k in kv)
        return msg + ("; " + body if body else "")
    if client == "kafkajs":
        msg = st["text"].rsplit(" {", 1)[0] if st["text"].endswith("}") else st["text"]
        n = iter(range(1, 99))
        return re.sub(r"%v", lambda _: f"{{_x{next(n)}}}", _esc(msg))
    if client == "ruby-kafka":
        return re.sub(r"#\{\{(.*?)\}\}(?!\})", lambda m: "{" + field_of(m.group(1), used) + "}", _esc(st["format"]))
    if client == "brod":
        parts = re.split(f"({ERL_VERB}|~n|~~)", fmt)
        out = []
        for p in parts:
            if p == "~n":
                out.append("\n")
            elif p == "~~":
                out.append("~")
            elif re.fullmatch(ERL_VERB, p):
                a = args.pop(0) if args else "x"
                out.append("{" + ("_pid" if a in ("self()", "MemberPid") else field_of(a, used)) + "}")
            else:
                out.append(_esc(p))
        # OTP logger's default single_line formatter: ",?\r?\n\s*" -> ", ", trimmed
        return re.sub(r",?\r?\n\s*", ", ", "".join(out).strip())
    # faust (python %-format or f-string)
    if st["format"] and "{" in st["format"] and not re.search(r"%[rsd]", st["format"]):
        return re.sub(r"\{([^{}]*)\}", lambda m: "{" + field_of(m.group(1), used) + "}", st["format"])
    parts = re.split(r"(%[-+# 0]*\d*(?:\.\d+)?[rsdif]|%%)", _esc(fmt))
    out = []
    for p in parts:
        if p == "%%":
            out.append("%")
        elif re.fullmatch(r"%[-+# 0]*\d*(?:\.\d+)?[rsdif]", p):
            out.append("{" + field_of(args.pop(0) if args else "x", used) + "}")
        else:
            out.append(p)
    return "".join(out)


_JS_NUMBERS = {"retryCount", "retryTime", "duration", "partition", "generationId"}
_JS_NS = {"consumerGroup.js": "ConsumerGroup", "runner.js": "Runner", "index.js": "Consumer"}
_JS_KEYS = {"groupId": ("group_id", True), "memberId": ("member_id", True), "generationId": ("generation", False),
            "leaderId": ("_leader", True), "isLeader": ("_is_leader", False)}


def kafkajs_context(path: str, st: dict) -> str:
    """kafkajs' JSON record around a message: ``[namespace] `` in front, the extra keys behind it."""
    keys = re.findall(r"\{([^{}]*)\}$", st["text"])
    out = "[" + _JS_NS[path.rsplit("/", 1)[-1]] + "] {body}\""
    for k in (keys[0].split(", ") if keys else []):
        field, quoted = _JS_KEYS.get(k, ("_" + k.lower(), True))
        if field.startswith("_"):  # (no event field: a fixed sample value)
            out += f',"{k}":' + ("3" if k in _JS_NUMBERS else '"x"')
        else:
            out += f',"{k}":' + (f'"{{{field}}}"' if quoted else f"{{{field}}}")
    return out.removesuffix('"')


def proposed_kind(src: Source, st: Statement) -> tuple[str, str]:
    """(kind, what the parser read) for the golden line of ``st`` (its kind set to ``other``)."""
    line = render_line(src, replace(st, kind="other"))
    events, quarantine, _ = parse_bytes(line.encode("utf-8") + b"\n", "draft.log")
    ev = events.to_pylist()
    if ev:
        e = ev[0]
        got = {k: e[k] for k in ("group_id", "member_id", "generation", "error", "reason") if e.get(k) is not None}
        return e["kind"], f"{e['dialect']} {got}"
    q = quarantine.to_pylist()
    return (UNMAPPED, q[0]["reason"]) if q else (UNRELATED, "no event")


def main(argv: list[str]) -> int:
    client, repo = argv[0], argv[1]
    read, sts = merged(CLIENTS[client], repo)
    out = []
    for i, st in enumerate(sts):
        out.append({"id": f"{st['file'].rsplit('/', 1)[-1].split('.')[0]}.s{i}", "format": st["format"],
                    "template": template(client, st), "level": st["level"], "file": st["file"], "line": st["line"],
                    "first": st["first"] if st["first"] != read[0] else "", "last": st["last"] if st["last"] != read[-1] else "",
                    "kind": "unmapped"})
    head = {"repo": CLIENTS[client].repo, "versions": read, **HEADERS.get(client, {})}
    if client == "kafkajs":
        for d in out:
            d["context"] = kafkajs_context(d["file"], sts[int(d["id"].rsplit(".s", 1)[1])])
    if len(argv) > 2 and argv[2] == "--kinds":
        src = Source(name=client, repo=head["repo"], language="", versions=tuple(read), line=head["line"], ts=head["ts"],
                     context=head.get("context", ""), logger=head.get("logger", ""))
        for d in out:
            statement = Statement(**{k: v for k, v in d.items() if k in Statement.__slots__})
            kind, why = proposed_kind(src, statement)
            d["kind"], d["note"] = kind, f"proposed: {why}"
    sys.stdout.write(yaml.safe_dump({**head, "statements": out}, sort_keys=False, allow_unicode=True, width=160))
    return 0


#: each client's default line layout (see docs/catalogue.md, "Non-Java clients")
HEADERS: dict[str, dict] = {
    "sarama": {"language": "go", "line": "[sarama] {ts} {message}", "ts": "2024/05/01 10:00:00"},
    "sarama-cluster": {"language": "go", "line": "[sarama] {ts} {message}", "ts": "2024/05/01 10:00:00"},
    "kafka-go": {"language": "go", "line": "{ts} {message}", "ts": "2024/05/01 10:00:00"},
    "franz-go": {"language": "go-kv", "line": "[{level}] {message}", "ts": ""},
    "kafkajs": {"language": "js", "ts": "2024-05-01T10:00:00.123Z",
                "line": '{{"level":"{level}","timestamp":"{ts}","logger":"kafkajs","message":"{message}}}'},
    "ruby-kafka": {"language": "ruby", "ts": "2024-05-01T10:00:00.123456",
                   "line": "{facility}, [{ts} #4242] {level} -- : {message}"},
    "brod": {"language": "erlang", "line": "{ts} {level}: {message}", "ts": "2024-05-01T10:00:00.123456+00:00"},
    "faust": {"language": "python-percent", "line": "[{ts}] [4242] [{level}] {message}", "ts": "2024-05-01 10:00:00,123"},
    "faust-robinhood": {"language": "python-percent", "line": "[{ts}] [4242] [{level}] {message}", "ts": "2024-05-01 10:00:00,123"},
}


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
