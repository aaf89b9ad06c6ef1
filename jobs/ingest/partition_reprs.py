"""How each client library prints a partition, a list of partitions and an assignment: the grammar of
the printed forms, and the one reading of any of them into the ``partitions`` field (``topic-N``).

An application's own rebalance callback prints what the client hands it with the client's printer
(``print(partitions)``, ``log.info("assigned {}", parts)``, ``fmt.Println(claims)``, ``console.log``),
so the forms are facts of each library, finite and knowable. Each :class:`Form` names the printer it
comes from; ``rx`` (RE2, no capturing groups) matches one whole printed value, ``item`` (Python) finds
its entries: a group ``t`` (topic) with either ``p`` (one partition) or ``ps`` (the partitions of that
topic, read by ``num``). :data:`PLIST` is the alternation of every form (the dialects' ``{PLIST}``
macro, :mod:`jobs.ingest.dialects_callbacks`); :func:`parse` reads a captured ``partitions_raw`` in
both readers (``reference_events.partitions``, ``fields._partitions``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

#: a Kafka topic name (``[a-zA-Z0-9._-]``, Topic.LEGAL_CHARS)
T = r"[A-Za-z0-9._\-]+"
_Q = r"['\"]"


@dataclass(frozen=True)
class Form:
    """One printed form of a partition collection (``rx`` matches it whole)."""

    name: str
    source: str
    rx: str
    item: str
    example: str
    expected: tuple[str, ...]
    num: str = r"\d+"


def _seq(item: str, sep: str, opener: str, closer: str, empty: bool = True) -> str:
    """``opener item (sep item)* closer`` (``opener closer`` too when ``empty``)."""
    body = f"{item}(?:{sep}{item})*"
    return f"{opener}(?:{body}){'?' if empty else ''}{closer}"


# one entry of each printer (RE2, no capturing groups)
_JAVA = rf"{T}-\d+"
_KPY = rf"TopicPartition\(topic=u?'{T}', ?partition=\d+\)"
_CKPY = rf"TopicPartition\{{topic={T},partition=\d+(?:,\w+=[^,{{}}]*)*\}}"
_CKGO = rf"{T}\[\d+\]@(?:-?\d+|[a-z]+)(?:\([^()]*\))?"
_DOTNET = rf"{T} \[\[\d+\]\](?: @(?:-?\d+|[A-Z][a-z]+ \[-?\d+\]))?"
_GOMAP_INTS = rf"{T}:\[(?:\d+(?: \d+)*)?\]"
_GOMAP_STRUCTS = rf"{T}:\[(?:\{{(?:ID:)?\d+ (?:Offset:)?-?\d+\}}(?: \{{(?:ID:)?\d+ (?:Offset:)?-?\d+\}})*)?\]"
_JS_KEY = rf"(?:{T}|'{T}'|\"{T}\")"
_JS_INTS = r"\[\s*(?:\d+(?:\s*,\s*\d+)*)?\s*\]"
_JS_TOPIC = rf"{_Q}?topic{_Q}?\s*:\s*{_Q}{T}{_Q}"
_JS_MORE = r"(?:\s*,\s*['\"]?\w+['\"]?\s*:\s*[^,{}\[\]]+)*"
_JS_TP = rf"\{{\s*{_JS_TOPIC}\s*,\s*{_Q}?partition{_Q}?\s*:\s*\d+{_JS_MORE}\s*\}}"
_JS_TPS = rf"\{{\s*{_JS_TOPIC}\s*,\s*{_Q}?partitions{_Q}?\s*:\s*{_JS_INTS}{_JS_MORE}\s*\}}"
_JS_MAP_ENTRY = rf"{_JS_KEY}\s*:\s*{_JS_INTS}"
_RB_PART = r"<Partition \d+(?: [a-z_]+=[^<>]*)?>"
_RB_ENTRY = rf"\"{T}\" ?=> ?\[(?:{_RB_PART}(?:, {_RB_PART})*)?\]"
_ARROYO = rf"Partition\(topic=Topic\(name='{T}'\), index=\d+\)"
_ARROYO_LIST = _seq(_ARROYO, ", ", r"\[", r"\]", empty=False)
_ARROYO_MAP = _seq(rf"{_ARROYO}: -?\d+", ", ", r"\{", r"\}", empty=False)
_PY_SET = _seq(_KPY, ", ", r"\{", r"\}", empty=False)
_KPY_LIST = _seq(_KPY, ", ", r"\[", r"\]")
_CKPY_LIST = _seq(_CKPY, ", ", r"\[", r"\]", empty=False)
_CKGO_LIST = _seq(_CKGO, " ", r"\[", r"\]", empty=False)
_JS_TP_LIST = _seq(_JS_TP, r"\s*,\s*", r"\[\s*", r"\s*\]", empty=False)
_JS_TOPIC_T = rf"{_Q}?topic{_Q}?\s*:\s*{_Q}(?P<t>{T}){_Q}"

FORMS: tuple[Form, ...] = (
    Form("java", "Java TopicPartition.toString (topic-partition) in AbstractCollection.toString",
         _seq(_JAVA, ", ", r"\[", r"\]"), rf"(?P<t>{T})-(?P<p>\d+)", "[orders-0, orders-1]", ("orders-0", "orders-1")),
    Form("kafka-python", "kafka-python / aiokafka TopicPartition namedtuple repr, in a list, set or frozenset",
         rf"(?:{_KPY_LIST}|{_PY_SET}|set\(\)|frozenset\((?:{_PY_SET})?\)|{_KPY})",
         rf"TopicPartition\(topic=u?'(?P<t>{T})', ?partition=(?P<p>\d+)\)",
         "{TopicPartition(topic='orders', partition=0), TopicPartition(topic='orders', partition=1)}",
         ("orders-0", "orders-1")),
    Form("confluent-kafka-python", "confluent_kafka TopicPartition.__str__ (C: TopicPartition{topic=,partition=,...})",
         rf"(?:{_CKPY_LIST}|{_CKPY})",
         rf"TopicPartition\{{topic=(?P<t>{T}),partition=(?P<p>\d+)",
         "[TopicPartition{topic=orders,partition=0,offset=-1001,leader_epoch=None,error=None}]", ("orders-0",)),
    Form("confluent-kafka-go", "confluent-kafka-go TopicPartition.String (topic[p]@offset) in a %v slice",
         rf"(?:{_CKGO_LIST}|{_CKGO})", rf"(?P<t>{T})\[(?P<p>\d+)\]@",
         "[orders[0]@unset orders[1]@unset]", ("orders-0", "orders-1")),
    Form("dotnet", "Confluent.Kafka TopicPartition.ToString (topic [[p]]) / TopicPartitionOffset (… @offset)",
         rf"(?:\[{_DOTNET}(?:, {_DOTNET})*\]|{_DOTNET}(?:, {_DOTNET})*)", rf"(?P<t>{T}) \[\[(?P<p>\d+)\]\]",
         "orders [[0]], orders [[1]]", ("orders-0", "orders-1")),
    Form("go-map", "sarama ConsumerGroupSession.Claims / franz-go map[string][]int32 printed by fmt (%v)",
         _seq(_GOMAP_INTS, " ", r"map\[", r"\]"), rf"(?P<t>{T}):\[(?P<ps>[\d ]*)\]",
         "map[orders:[0 1] payments:[2]]", ("orders-0", "orders-1", "payments-2")),
    Form("kafka-go", "segmentio/kafka-go Generation.Assignments map[string][]PartitionAssignment (%v, %+v)",
         _seq(_GOMAP_STRUCTS, " ", r"map\[", r"\]"), rf"(?P<t>{T}):\[(?P<ps>[^\]]*)\]",
         "map[orders:[{0 -1} {1 -1}]]", ("orders-0", "orders-1"), num=r"\{(?:ID:)?(\d+) "),
    Form("node-topic-partitions", "kafkajs assignment [{topic, partitions}] through util.inspect or JSON.stringify",
         _seq(_JS_TPS, r"\s*,\s*", r"\[\s*", r"\s*\]", empty=False),
         rf"{_JS_TOPIC_T}\s*,\s*{_Q}?partitions{_Q}?\s*:\s*(?P<ps>\[[^\]]*\])",
         "[ { topic: 'orders', partitions: [ 0, 1 ] } ]", ("orders-0", "orders-1")),
    Form("node-topic-partition", "node-rdkafka / kafkajs {topic, partition} objects through util.inspect or JSON",
         rf"(?:{_JS_TP_LIST}|{_JS_TP})",
         rf"{_JS_TOPIC_T}\s*,\s*{_Q}?partition{_Q}?\s*:\s*(?P<p>\d+)",
         '[{"topic":"orders","partition":0},{"topic":"orders","partition":1}]', ("orders-0", "orders-1")),
    Form("node-map", "kafkajs memberAssignment {topic: [partitions]} through util.inspect or JSON.stringify",
         _seq(_JS_MAP_ENTRY, r"\s*,\s*", r"\{\s*", r"\s*\}", empty=False),
         rf"['\"]?(?P<t>{T})['\"]?\s*:\s*(?P<ps>\[[^\]]*\])", "{ orders: [ 0, 1 ] }", ("orders-0", "orders-1")),
    Form("arroyo", "Sentry's arroyo: its Partition / Topic dataclass reprs, revoked as a list, assigned as a mapping to offsets",
         f"(?:{_ARROYO_LIST}|{_ARROYO_MAP})",
         rf"Partition\(topic=Topic\(name='(?P<t>{T})'\), index=(?P<p>\d+)\)",
         "{Partition(topic=Topic(name='orders'), index=0): 1834400, Partition(topic=Topic(name='orders'), index=1): 7}",
         ("orders-0", "orders-1")),
    Form("rdkafka-ruby", "rdkafka-ruby TopicPartitionList#to_s (<TopicPartitionList: {topic=>[<Partition p>]}>)",
         rf"<TopicPartitionList: \{{(?:{_RB_ENTRY}(?:, {_RB_ENTRY})*)?\}}>", rf"\"(?P<t>{T})\" ?=> ?\[(?P<ps>[^\]]*)\]",
         '<TopicPartitionList: {"orders"=>[<Partition 0>, <Partition 1 offset=5>]}>', ("orders-0", "orders-1"),
         num=r"<Partition (\d+)"),
)  # fmt: skip

#: any printed form (RE2, no capturing groups): the dialects' ``{PLIST}`` wraps it in ``partitions_raw``
PLIST = "(?:" + "|".join(f.rx for f in FORMS) + ")"


@cache
def _compiled(f: Form) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    return re.compile(f.rx), re.compile(f.item), re.compile(f.num)


def read_form(raw: str) -> list[str] | None:
    """``topic-N`` of every entry of ``raw`` when it is one whole printed form of :data:`FORMS`, in
    printed order (duplicates kept), else None."""
    text = raw.strip()
    for f in FORMS:
        whole, item, num = _compiled(f)
        if not whole.fullmatch(text):
            continue
        out: list[str] = []
        for m in item.finditer(text):
            d = m.groupdict()
            if d.get("p") is not None:
                out.append(f"{d['t']}-{d['p']}")
            else:
                out.extend(f"{d['t']}-{n}" for n in num.findall(d["ps"]))
        return out
    return None


_TOPIC_PARTITION = re.compile(r"TopicPartition\(topic=u?'([^']*)', partition=(\d+)\)")
_STRIP = re.compile(r"^\s*(?:Set|List|HashSet|frozenset|set)?[\[({]+|[\])}]+\s*$|[\[\]{}]")


def parse(raw: str | None) -> list[str] | None:
    """The ``partitions`` field of a captured list: a printed form of :data:`FORMS`, else the
    separated entries of a Java-style rendering (``t-0, t-1``, ``{[t-0]}``, ``Set(t-0)``, brackets
    and braces dropped); None stays None, an empty text is an empty list."""
    if raw is None:
        return None
    found = read_form(raw)
    if found is not None:
        return found
    raw = _TOPIC_PARTITION.sub(r"\1-\2", raw)
    return [p.strip() for p in re.split(r",\s*", _STRIP.sub("", raw)) if p.strip()]
