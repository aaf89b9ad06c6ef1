"""What the mining scripts read, per client: the repository, the release tags (the last patch of
each minor line), the group-membership files and how a log call looks in them."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from jobs.ingest.catalogue.mining.scan import Call, calls, literal, python_calls, python_literal, split_args


@dataclass(frozen=True)
class Mined:
    """One log statement found at one tag."""

    file: str
    line: int
    level: str
    format: str  # the verbatim format (or the call's arguments, for a key/value logger)
    text: str  # the message text with every argument as ``%v`` (the wording's identity)
    args: tuple[str, ...] = ()  # the argument expressions, in placeholder order (key/value loggers: the values)


@dataclass(frozen=True)
class Client:
    name: str
    repo: str
    files: tuple[str, ...]
    mine: Callable[[str, str], list[Mined]]  # (file path, source text) -> statements
    tag_rx: str = r"^v?(\d+)\.(\d+)\.(\d+)$"
    since: tuple[int, int] = (0, 0)
    #: only statements whose text matches (files of which only the group lines belong here)
    keep: dict[str, str] = field(default_factory=dict)


def _ph(text: str, rx: str) -> str:
    return re.sub(rx, "%v", text)


GO_VERB = r"%[-+# 0]*\d*(?:\.\d+)?[vsdqxXtTfgep%]"


def _go_printf(path: str, src: str, start: str, level_of: Callable[[str, Call], str]) -> list[Mined]:
    out = []
    for c in calls(src, start, "go"):
        if not c.args:
            continue
        lit = literal(c.args[0], "go")
        if c.name.endswith("ln"):
            fmt = " ".join(literal(a, "go") or "%v" for a in c.args)
        else:
            fmt = lit if lit is not None else "%v"
        fmt = fmt.rstrip("\n")  # (Go's log package writes one final newline either way)
        out.append(Mined(path, c.line, level_of(src, c), fmt, _ph(fmt, GO_VERB).strip(), tuple(c.args[1:])))
    return out


def _sarama(path: str, src: str) -> list[Mined]:
    return _go_printf(path, src, r"\b(?:sarama\.)?(?:Logger|DebugLogger)\.Print(?:f|ln)?",
                      lambda s, c: "DEBUG" if "Debug" in c.name else "INFO")


def _kafka_go(path: str, src: str) -> list[Mined]:
    def level(s: str, c: Call) -> str:
        at = sum(len(x) + 1 for x in s.split("\n")[: c.line - 1])
        before = s[max(0, at - 200) : at]
        last_ok, last_err = before.rfind("withLogger"), max(before.rfind("withErrorLogger"), before.rfind("logError"))
        return "ERROR" if last_err > last_ok else "INFO"

    return _go_printf(path, src, r"\b(?:l|log|logger)\.Printf", level)


_KGO_LEVEL = {"LogLevelError": "ERROR", "LogLevelWarn": "WARN", "LogLevelInfo": "INFO", "LogLevelDebug": "DEBUG"}


def _franz_go(path: str, src: str) -> list[Mined]:
    out = []
    for c in calls(src, r"\blogger\.Log", "go"):
        if len(c.args) < 2 or c.args[0] not in _KGO_LEVEL:
            continue
        msg = literal(c.args[1], "go")
        if msg is None:  # "entering "+name
            msg = re.sub(r'"\s*\+\s*\w+', '%v"', c.args[1]).strip('"')
        keys = [literal(k, "go") or "?" for k in c.args[2::2]]
        text = msg + ("; " + ", ".join(f"{k}: %v" for k in keys) if keys else "")
        out.append(Mined(path, c.line, _KGO_LEVEL[c.args[0]], ", ".join(c.args[1:]), text, tuple(c.args[3::2])))
    return out


def _kafkajs(path: str, src: str) -> list[Mined]:
    out = []
    for c in calls(src, r"\b(?:logger\.(?:info|warn|error|debug)|this\.log(?:Debug|Error))", "js"):
        if not c.args:
            continue
        lvl = c.name.rsplit(".", 1)[1].removeprefix("log").upper()  # (the connection's this.logDebug / this.logError)
        lit = literal(c.args[0], "js")
        fmt = lit if lit is not None else "%v"
        extra = c.args[1] if len(c.args) > 1 else ""
        keys = re.findall(r"(?:^|[{,]\s*)(\w+)(?=\s*[:,}]|\s*$)", extra.strip()) if extra.startswith("{") else []
        text = _ph(fmt, r"\$\{[^}]*\}") + (" {" + ", ".join(keys) + "}" if keys else (" " + extra if extra else ""))
        inner = tuple(re.findall(r"\$\{([^}]*)\}", fmt))
        out.append(Mined(path, c.line, lvl, fmt + (" " + extra if extra else ""), text, inner + tuple(keys)))
    return out


def _kafka_node(path: str, src: str) -> list[Mined]:
    """kafka-node's ``logger.debug('… %s …', a, b)``: Node's ``util.format`` (``%s %d %j %o``), each argument
    without a placeholder appended after a space; a template literal's ``${expr}`` is an argument too."""
    out = []
    for c in calls(src, r"(?<![\w.])logger\.(?:info|warn|error|debug)(?=\()", "js"):
        lit = literal(c.args[0], "js") if c.args else None
        if lit is None or "//" in src.split("\n")[c.line - 1].split("logger.")[0]:  # (a commented-out call)
            continue
        inner = tuple(re.findall(r"\$\{([^}]*)\}", lit))
        base = _ph(lit, r"\$\{[^}]*\}")
        n = len(re.findall(r"%[sdjoOif]", base))
        text = _ph(base, r"%[sdjoOif]") + " %v" * max(0, len(c.args) - 1 - n)
        out.append(Mined(path, c.line, c.name.rsplit(".", 1)[1].upper(), lit, text, inner + tuple(c.args[1:])))
    return out


def _ruby(path: str, src: str) -> list[Mined]:
    out = []
    for c in calls(src, r"@logger\.(?:info|warn|error|debug)", "ruby"):
        if not c.args:
            continue
        lvl = c.name.rsplit(".", 1)[1].upper()
        lit = literal(c.args[0], "ruby")
        fmt = lit if lit is not None else "%v"
        inner = tuple(re.findall(r"#\{((?:[^{}]|\{[^{}]*\})*)\}", fmt))
        out.append(Mined(path, c.line, lvl, fmt, _ph(fmt, r"#\{(?:[^{}]|\{[^{}]*\})*\}"), inner))
    return out


_ERL_LEVEL = {"info": "INFO", "warning": "WARNING", "error": "ERROR", "INFO": "INFO", "WARNING": "WARNING", "ERROR": "ERROR",
              "info_msg": "INFO", "warning_msg": "WARNING", "error_msg": "ERROR"}
_ERL_VERB = r"~(?:\d+|\*)?(?:\.\d*)?[ptswPWSBfeg]"


def _brod(path: str, src: str) -> list[Mined]:
    """brod's group coordinator: its ``log(State, Level, Fmt, Args)`` calls, each behind the prefix
    that ``log/4`` puts in front of ``Fmt`` at that tag (its own wording)."""
    m = re.search(r'^log\(#state\{.*?"((?:[^"\\]|\\.)*)"\s*\+\+\s*Fmt,\s*\[(.*?)\|\s*Args\]', src, re.S | re.M)
    prefix = literal('"' + m.group(1) + '"', "erlang") if m else ""
    if prefix is None:
        raise ValueError(f"{path}: the prefix of brod's log/4 is not an Erlang string literal")
    out = []
    for c in calls(src, r"(?<![\w:?])log(?=\()", "erlang"):
        if len(c.args) != 4 or c.args[1] not in _ERL_LEVEL or c.args[0].startswith("#state"):
            continue
        fmt = literal(c.args[2], "erlang")
        if fmt is None:
            continue
        full = prefix + fmt
        pargs = tuple(split_args(m.group(2), "erlang")) if m else ()
        fargs = tuple(split_args(c.args[3].strip()[1:-1], "erlang"))
        out.append(Mined(path, c.line, _ERL_LEVEL[c.args[1]], full, _ph(full, _ERL_VERB), pargs + fargs))
    for c in calls(src, r"\?BROD_LOG_(?:INFO|WARNING|ERROR)|error_logger:(?:info|warning|error)_msg", "erlang"):
        fmt = literal(c.args[0], "erlang") if c.args else None
        if fmt is None:
            continue
        lvl = c.name.rsplit("_", 1)[1] if c.name.startswith("?") else c.name.split(":")[1]
        fargs = tuple(split_args(c.args[1].strip()[1:-1], "erlang")) if len(c.args) > 1 else ()
        out.append(Mined(path, c.line, _ERL_LEVEL[lvl], fmt, _ph(fmt, _ERL_VERB), fargs))
    return sorted(out, key=lambda x: x.line)


def _ruby_text(src: str, c: Call, arg: str) -> str | None:
    """The text of a Ruby log argument: a string literal, a squiggly heredoc joined into one line
    (``<<~MSG.tr("\\n", " ").strip!``), or a local variable assigned one of those just before the call;
    a ``#{var}`` of a local assigned a string literal in the same method is inlined."""
    at = sum(len(x) + 1 for x in src.split("\n")[: c.line - 1])
    before = src[max(0, src.rfind("\n    def ", 0, at)) : at]
    var = re.fullmatch(r"[a-z_]\w*", arg.strip())
    if var:
        found = list(re.finditer(rf"^\s*{var.group(0)} = (.+)$", before, re.M))
        if not found:
            return None
        arg, at = found[-1].group(1), max(0, src.rfind("\n    def ", 0, at)) + found[-1].start()
    heredoc = re.match(r"<<[~-]?([A-Z_]+)", arg.strip())
    if heredoc:
        body = src[src.find("\n", at + 1) + 1 :]
        lines = body.split("\n")
        end = next(i for i, x in enumerate(lines) if x.strip() == heredoc.group(1))
        text: str | None = " ".join(x.strip() for x in lines[:end])
    else:
        text = literal(arg, "ruby")
    if text is None:
        return None
    for name in set(re.findall(r"#\{([a-z_]\w*)\}", text)):
        assigned = re.findall(rf"^\s*{name} = (\"[^\n]*\")\s*$", before, re.M)
        inner = literal(assigned[-1], "ruby") if assigned else None
        if inner is not None:
            text = text.replace("#{" + name + "}", inner)
    return text


def _karafka(path: str, src: str) -> list[Mined]:
    """Karafka's logger listener: ``info "…"``, ``error(…)``, heredocs and messages built in a local."""
    out = []
    for c in calls(src, r"(?<![\w.@:])(?:info|warn|error|debug|fatal)(?=[( ])", "ruby"):
        text = _ruby_text(src, c, c.args[0]) if c.args else None
        if not text:  # (also ``warn ""``: the empty line between two thread dumps)
            continue
        inner = tuple(re.findall(r"#\{((?:[^{}]|\{[^{}]*\})*)\}", text))
        out.append(Mined(path, c.line, c.name.upper(), text, _ph(text, r"#\{(?:[^{}]|\{[^{}]*\})*\}"), inner))
    return out


_EX_LEVEL = {"info": "info", "warn": "warn", "warning": "warning", "error": "error", "debug": "debug"}


def _elixir(path: str, src: str) -> list[Mined]:
    """Elixir ``Logger.<level>("... #{expr} ...")`` calls (with or without parentheses); a level is
    written as Elixir's console formatter prints it (``Logger.warn``: ``warn``)."""
    out = []
    for c in calls(src, r"\bLogger\.(?:info|warn|warning|error|debug)(?=[( ])", "ruby"):
        if not c.args:
            continue
        lit = literal(c.args[0], "ruby")
        fmt = lit if lit is not None else "%v"
        inner = tuple(re.findall(r"#\{((?:[^{}]|\{[^{}]*\})*)\}", fmt))
        out.append(Mined(path, c.line, _EX_LEVEL[c.name.rsplit(".", 1)[1]], fmt, _ph(fmt, r"#\{(?:[^{}]|\{[^{}]*\})*\}"), inner))
    return out


_PY_LEVEL = {"info": "INFO", "warning": "WARNING", "warn": "WARNING", "error": "ERROR", "exception": "ERROR",
             "debug": "DEBUG", "dev": "DEBUG", "critical": "CRITICAL"}


def _faust(path: str, src: str) -> list[Mined]:
    out = []
    for c in python_calls(src, set(_PY_LEVEL), re.compile(r"self\.log|logger|self\.app\.log|log")):
        lit = python_literal(c.args[0]) if c.args else None
        if lit is None:
            continue
        text = _ph(_ph(lit, r"%[-+# 0]*\d*(?:\.\d+)?[rsdif]"), r"\{[^{}]*\}")
        inner = tuple(re.findall(r"\{([^{}]*)\}", lit)) if c.args[0].startswith("f") else tuple(c.args[1:])
        out.append(Mined(path, c.line, _PY_LEVEL[c.name.rsplit(".", 1)[1]], lit, text, inner))
    return out


_CS_LEVEL = {"Trace": "TRACE", "Debug": "DEBUG", "Information": "INFO", "Info": "INFO", "Warning": "WARN", "Warn": "WARN",
             "Error": "ERROR", "Critical": "FATAL", "Fatal": "FATAL"}


def _string_builder(src: str, at: int, name: str) -> str | None:
    """The text a ``StringBuilder`` named ``name`` holds when ``name.ToString()`` is logged at ``at``: its
    ``Append``/``AppendLine`` literals since its ``new StringBuilder()`` (None if one is no literal)."""
    start = src.rfind(f"{name} = new StringBuilder", 0, at)
    if start < 0:
        return None
    parts = []
    for c in calls(src[start:at], rf"\b{re.escape(name)}\.Append(?:Line)?(?=\()", "cs"):
        lit = literal(c.args[0], "cs") if c.args else None
        if lit is None:
            return None
        parts.append(lit + ("\n" if c.name.endswith("Line") else ""))
    return "".join(parts).rstrip("\n") if parts else None


def _csharp(path: str, src: str) -> list[Mined]:
    """.NET log calls: Microsoft.Extensions.Logging's ``log.LogInformation([exception,] "template {Name}",
    args)`` and log4net's ``log.Info("…"[, exception])``, with a template or an interpolated ``$"… {expr} …"``
    message (both kinds of placeholder become ``%v``), or a ``StringBuilder``'s text (its appended literals)."""
    out = []
    rx = r"\b(?:log|logger|_logger|Logger|Log)\.(?:Log(?:Trace|Debug|Information|Warning|Error|Critical)|Info|Debug|Warn|Error|Fatal)(?=\()"
    for c in calls(src, rx, "cs"):
        args = c.args
        if args and literal(args[0], "cs") is None and len(args) > 1 and literal(args[1], "cs") is not None:
            args = args[1:]  # the exception argument
        if not args:
            continue
        lit = literal(args[0], "cs")
        sb = re.fullmatch(r"(\w+)\.ToString\(\)", args[0])
        if lit is None and sb:
            at = sum(len(x) + 1 for x in src.split("\n")[: c.line - 1])
            lit = _string_builder(src, at, sb.group(1))
        fmt = lit if lit is not None else "%v"
        interpolated = re.search(r'(?:^|[+\s])@?\$@?"', args[0]) is not None or sb is not None
        bare = fmt.replace("{{", "\0").replace("}}", "\1")  # (an escaped brace is printed as one brace)
        inner = tuple(re.findall(r"\{((?:[^{}]|\{[^{}]*\})+)\}", bare)) if interpolated else tuple(args[1:])
        text = _ph(bare, r"\{(?:[^{}]|\{[^{}]*\})+\}").replace("\0", "{").replace("\1", "}")
        out.append(Mined(path, c.line, _CS_LEVEL[re.sub(r"^Log", "", c.name.rsplit(".", 1)[1])], fmt, text, inner))
    return out


_JBOSS_MSG = re.compile(
    r'@LogMessage\(level\s*=\s*(?:Logger\.)?Level\.(\w+)\)\s*@Message\(\s*id\s*=\s*(\d+)\s*,\s*value\s*=\s*((?:"(?:[^"\\]|\\.)*"\s*\+?\s*)+)')


def _jboss(path: str, src: str) -> list[Mined]:
    """JBoss Logging message interfaces: ``@LogMessage(level = Logger.Level.INFO) @Message(id = 18224,
    value = "… %s …")``, written as ``<projectCode><id, zero-padded to length>: <value>``."""
    code = re.search(r'@MessageLogger\(projectCode\s*=\s*"(\w+)"(?:\s*,\s*length\s*=\s*(\d+))?', src)
    prefix, width = (code.group(1), int(code.group(2) or 6)) if code else ("", 0)
    out = []
    for m in _JBOSS_MSG.finditer(src):
        value = literal(m.group(3), "js")
        if value is None:
            continue
        full = f"{prefix}{int(m.group(2)):0{width}d}: {value}" if prefix else value
        method = re.search(r"\b(\w+)\(([^)]*)\);", src[m.end() : m.end() + 400])
        args = tuple(a.split()[-1] for a in method.group(2).split(",") if a.strip()) if method else ()
        line = src.count("\n", 0, m.start()) + 1
        out.append(Mined(path, line, "WARN" if m.group(1) == "WARN" else m.group(1), full,
                         _ph(full, r"%[-+# 0]*\d*(?:\.\d+)?[sdfxbc]"), args))
    return out


def _kafkaflow(path: str, src: str) -> list[Mined]:
    """KafkaFlow's ``_logHandler.Info("message", data)``: the log handler writes the message, then the data
    object as JSON (the console handler: ``KafkaFlow: <message> | Data: <json>``)."""
    out = []
    for c in calls(src, r"\b_?logHandler\.(?:Info|Warning|Error|Verbose)(?=\()", "cs"):
        lit = literal(c.args[0], "cs") if c.args else None
        if lit is None:
            continue
        inner = tuple(re.findall(r"(?<!\{)\{([^{}]+)\}", lit)) if c.args[0].startswith("$") else ()
        data = c.args[-1] if len(c.args) > 1 else "null"
        text = _ph(lit, r"\{[^{}]+\}") + " | Data: %v"
        level = {"Info": "INFO", "Warning": "WARN", "Error": "ERROR", "Verbose": "DEBUG"}[c.name.rsplit(".", 1)[1]]
        out.append(Mined(path, c.line, level, lit, text, (*inner, data)))
    return out


def _rust(path: str, src: str) -> list[Mined]:
    """The ``log`` crate's macros ``info!([target: "t",] "… {} {:?} {name} …", args)``."""
    out = []
    for c in calls(src, r"(?<![\w:])(?:trace|debug|info|warn|error)!(?=\()", "js"):
        args = [a for a in c.args if not a.startswith("target:")]
        lit = literal(args[0], "js") if args else None
        if lit is None or "//" in src.split("\n")[c.line - 1].split(c.name)[0]:
            continue
        bare = lit.replace("{{", "\0").replace("}}", "\1")
        named = tuple(m for m in re.findall(r"\{([A-Za-z_]\w*)(?::[^{}]*)?\}", bare))
        text = _ph(bare, r"\{[^{}]*\}").replace("\0", "{").replace("\1", "}")
        out.append(Mined(path, c.line, c.name[:-1].upper(), lit, text, named + tuple(args[1:])))
    return out


_GROUPISH = r"(?i)group|rebalanc|generation|revok|assign|join|coordinator|heartbeat|member|leader|partitions? (?:changed|lost)"

CLIENTS: dict[str, Client] = {
    c.name: c
    for c in (
        Client("sarama", "IBM/sarama", ("consumer_group.go", "offset_manager.go", "client.go", "consumer.go"), _sarama,
               since=(1, 10), keep={"client.go": r"coordinator|consumergroup|consumer group|^Closing Client$", "consumer.go": r"subscription"}),
        Client("sarama-cluster", "bsm/sarama-cluster", ("consumer.go",), _sarama),
        Client("franz-go", "twmb/franz-go", ("pkg/kgo/consumer_group.go", "pkg/kgo/group_balancer.go"), _franz_go),
        Client("kafka-go", "segmentio/kafka-go", ("consumergroup.go", "reader.go"), _kafka_go, since=(0, 2),
               keep={"reader.go": r"group|generation|commit"}),
        Client("kafkajs", "tulios/kafkajs",
               ("src/consumer/consumerGroup.js", "src/consumer/runner.js", "src/consumer/index.js", "src/network/connection.js"),
               _kafkajs, since=(1, 0), keep={"src/network/connection.js": r"^(?:Request|Response) %v"}),
        Client("ruby-kafka", "zendesk/ruby-kafka", ("lib/kafka/consumer_group.rb", "lib/kafka/consumer.rb"), _ruby,
               since=(0, 1)),
        Client("brod", "kafka4beam/brod", ("src/brod_group_coordinator.erl", "src/brod_group_controller.erl", "src/brod_group_subscriber.erl",
                                           "src/brod_group_subscriber_v2.erl", "src/brod_group_subscriber_worker.erl",
                                           "src/brod_topic_subscriber.erl", "src/brod_consumer.erl"), _brod, tag_rx=r"^v?(\d+)\.(\d+)(?:\.(\d+))?$",
               since=(2, 0)),
        Client("kaffe", "spreedly/kaffe",
               ("lib/kaffe/group_member/subscriber/group_member.ex", "lib/kaffe/consumer_group/subscriber/group_member.ex",
                "lib/kaffe/group_member/manager/group_manager.ex", "lib/kaffe/consumer_group/group_manager.ex",
                "lib/kaffe/group_member/subscriber/subscriber.ex", "lib/kaffe/consumer_group/subscriber/subscriber.ex"),
               _elixir, since=(1, 8),
               keep={"lib/kaffe/group_member/subscriber/subscriber.ex": r"generation|commit",
                     "lib/kaffe/consumer_group/subscriber/subscriber.ex": r"generation|commit"}),
        Client("streamiz", "LGouellec/kafka-streams-dotnet",
               ("core/Processors/StreamThread.cs", "core/KafkaStream.cs", "core/Kafka/Internal/StreamsRebalanceListener.cs",
                "core/Processors/Internal/TaskManager.cs", "core/Kafka/Internal/KafkaLoggerAdapter.cs"), _csharp,
               tag_rx=r"^v(\d+)\.(\d+)\.(\d+)(?:-beta|-rc\d+)?$",
               keep={"core/Processors/StreamThread.cs": r"State transition|Starting|[Ss]hutdown|Creating|[Rr]evok|[Aa]ssign|rebalanc",
                     "core/Processors/Internal/TaskManager.cs": r"[Rr]evok|[Aa]ssign|lost|zombie|rebalanc|[Cc]reat|[Cc]los"}),
        Client("karafka", "karafka/karafka", ("lib/karafka/instrumentation/logger_listener.rb",), _karafka, since=(2, 0)),
        Client("smallrye-kafka", "smallrye/smallrye-reactive-messaging",
               ("smallrye-reactive-messaging-kafka/src/main/java/io/smallrye/reactive/messaging/kafka/i18n/KafkaLogging.java",),
               _jboss, keep={"smallrye-reactive-messaging-kafka/src/main/java/io/smallrye/reactive/messaging/kafka/i18n/KafkaLogging.java":
                             r"(?i)group|rebalanc|re-balance|revok|assign|partitions"}),
        Client("kafka-node", "SOHU-Co/kafka-node",
               ("lib/consumerGroup.js", "lib/consumerGroupRecovery.js", "lib/consumerGroupHeartbeat.js"), _kafka_node, since=(1, 0)),
        Client("kafkaflow", "Farfetch/kafkaflow",
               ("src/KafkaFlow/Consumers/ConsumerManager.cs", "src/KafkaFlow/Consumers/Consumer.cs",
                "src/KafkaFlow/Consumers/MessageConsumer.cs", "src/KafkaFlow/Consumers/OffsetCommitter.cs",
                "src/KafkaFlow/Consumers/ConsumerFlowManager.cs", "src/KafkaFlow/Consumers/ConsumerWorkerPool.cs"),
               _kafkaflow, tag_rx=r"^v?(\d+)\.(\d+)\.(\d+)$", since=(2, 0)),
        Client("rust-rdkafka", "fede1024/rust-rdkafka",
               ("src/consumer/mod.rs", "src/consumer/base_consumer.rs", "src/consumer/stream_consumer.rs", "src/client.rs"),
               _rust, since=(0, 20), keep={"src/client.rs": r"librdkafka"}),
        Client("faust", "faust-streaming/faust",
               ("faust/transport/consumer.py", "faust/transport/drivers/aiokafka.py", "faust/app/base.py",
                "faust/tables/recovery.py", "faust/tables/manager.py", "faust/assignor/partition_assignor.py",
                "faust/assignor/leader_assignor.py"), _faust,
               keep={"faust/app/base.py": _GROUPISH, "faust/transport/drivers/aiokafka.py": _GROUPISH,
                     "faust/transport/consumer.py": _GROUPISH}),
        Client("faust-robinhood", "robinhood/faust",
               ("faust/transport/consumer.py", "faust/transport/drivers/aiokafka.py", "faust/app/base.py",
                "faust/tables/recovery.py", "faust/tables/manager.py", "faust/assignor/partition_assignor.py",
                "faust/assignor/leader_assignor.py"), _faust,
               keep={"faust/app/base.py": _GROUPISH, "faust/transport/drivers/aiokafka.py": _GROUPISH,
                     "faust/transport/consumer.py": _GROUPISH}),
    )
}
