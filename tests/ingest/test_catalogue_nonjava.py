"""The non-Java clients' dialects and their catalogue files (jobs/ingest/catalogue/data): every dialect of
those clients is the reading of at least one catalogued statement, or is marked as seen only in a real
excerpt; the catalogue files carry their mining provenance."""

from __future__ import annotations

import re

from jobs.ingest.catalogue import UNMAPPED, golden_lines, load
from jobs.ingest.dialects_clients import CLIENT_DIALECTS
from jobs.ingest.dialects_dotnet import DOTNET
from jobs.ingest.dialects_elixir import ELIXIR
from jobs.ingest.dialects_jvm import JVM, SCS
from jobs.ingest.dialects_kafkaflow import KAFKAFLOW
from jobs.ingest.dialects_node import NODE
from jobs.ingest.dialects_nonjava import NON_JAVA
from jobs.ingest.dialects_ruby import RUBY
from jobs.ingest.parse import parse_bytes
from tests.ingest.catalogue_reads import dialects_reading

SOURCES = ("sarama", "sarama-cluster", "kafka-go", "franz-go", "kafkajs", "ruby-kafka", "brod", "faust", "faust-robinhood", "kaffe",
           "streamiz", "karafka", "smallrye-kafka",
           "spring-cloud-stream-kafka", "kafka-node", "kafkaflow", "alpakka-kafka",
           "rust-rdkafka", "arroyo")
#: dialects of these clients whose wording is not in the files the catalogue mines (their lines come from
#: other files of the client, or from an application printing the client's objects): seen in real excerpts
SEEN_ONLY_IN_EXCERPTS = {
    "sarama_cluster.rebalance": "also the cluster's 'rebalance, metadata done' debug lines",
    "sarama.consumer_broker": "consumer.go (partition consumers), not a group file",
    "sarama.any_group": "sarama's catch-all under its logger: errors printed by the application (c-sarama1004)",
    "kafkajs.coordinator": "src/cluster/index.js",
    "kafkajs.leaving": "an application's own wording around consumer.disconnect()",
    "franzgo.assigning": "franz-go's JSON (kzap/kslog) layouts",
}
_FAMILY = re.compile(r"^(?:sarama|sarama_cluster|kafkago|franzgo|kafkajs|rubykafka|brod|faust|kaffe|streamiz|karafka|smallrye|scs|kafkanode|kafkaflow)\.")


def _catalogue_dialects() -> set[str]:
    """Dialect ids that read at least one mapped statement of the non-Java catalogue files."""
    return dialects_reading(s for s in load() if s.name in SOURCES)


def test_every_client_dialect_reads_a_catalogued_statement_or_a_real_excerpt():
    seen = _catalogue_dialects()
    mine = [d for d in (*CLIENT_DIALECTS, *NON_JAVA, *ELIXIR, *DOTNET, *RUBY, *JVM, *SCS, *NODE, *KAFKAFLOW) if _FAMILY.match(d.id) and d.kind is not None]
    missing = sorted({d.id for d in mine} - seen - set(SEEN_ONLY_IN_EXCERPTS))
    assert missing == []
    # an entry of the exception list names a dialect that exists and that the catalogue does not read
    assert set(SEEN_ONLY_IN_EXCERPTS) <= {d.id for d in NON_JAVA}
    assert not set(SEEN_ONLY_IN_EXCERPTS) & seen


def test_catalogue_files_have_provenance_and_cover_the_group_events():
    by_name = {s.name: s for s in load()}
    assert set(SOURCES) <= set(by_name)
    for name in SOURCES:
        src = by_name[name]
        assert len(src.versions) >= 2 or name == "kafka-consumer-classic", name
        for st in src.statements:
            assert st.format and st.file and st.line, f"{name}: {st.id} has no provenance"
            if st.kind == UNMAPPED:
                assert st.note, f"{name}: {st.id} is unmapped without a note saying why"
    # the join of each client with a group-membership protocol of its own is read (kafkajs logs its
    # "Consumer has joined the group" once SyncGroup answered: the end of its round, a sync)
    for name in ("sarama-cluster", "kafka-go", "franz-go", "kafkajs", "ruby-kafka", "brod"):
        done = ("joined", "synced") if name == "kafkajs" else ("joined",)
        assert any(st.kind in done for st in by_name[name].statements), name
    kafkajs = {st.id: st.kind for st in by_name["kafkajs"].statements}
    assert (kafkajs["consumerGroup.s53"], kafkajs["runner.s28"], kafkajs["runner.s11"]) == ("synced", "synced", "synced")


def test_statements_that_name_no_group_take_it_from_their_file():
    """A mapped statement whose line names no group (sarama's session lines, kafka-go's membership lines,
    franz-go before 0.8 ...), in a file whose other lines name the group, becomes an event of that group:
    attributed from the file's context, never a group of its own."""
    checked = 0
    for src in (s for s in load() if s.name in SOURCES):
        items = list(golden_lines((src,)))
        groupless = {i for i, (_, st, _) in enumerate(items, start=1) if st.kind != "unrelated" and "{group_id}" not in st.template}
        named = [st for _, st, _ in items if "{group_id}" in st.template]
        if not groupless or not named or "{group_id}" in (src.context or ""):
            continue
        data = "\n".join(line for _, _, line in items).encode("utf-8") + b"\n"
        events, _, _ = parse_bytes(data, f"{src.name}.log")
        got = {e["line_no"]: e["group_id"] for e in events.to_pylist() if e["line_no"] in groupless}
        assert got == dict.fromkeys(groupless, "orders-g7"), src.name
        checked += len(groupless)
    assert checked >= 20
