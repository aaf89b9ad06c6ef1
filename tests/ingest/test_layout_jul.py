"""java.util.logging's SimpleFormatter records in any JVM locale: the level names of every resource bundle
the JDK ships (jobs/ingest/jul_levels.py) and the ``%1$tc`` head, rendered from the JVM catalogue's
statements (tests/ingest/jvm_layouts.py) and read the same by both readers."""

from __future__ import annotations

import pytest

from jobs.ingest import jul_levels as JUL
from jobs.ingest.parse import parse_bytes
from jobs.ingest.reference import read_bytes
from tests.ingest import framework_layouts as F
from tests.ingest import jvm_layouts as J


def test_every_bundle_names_the_seven_levels() -> None:
    for table in (JUL.JDK_CURRENT, JUL.JDK_LEGACY):
        assert all(len(names) == len(JUL.ENGLISH) for names in table.values())
    assert {JUL.LEVEL_OF[n] for n in ("信息", "情報", "정보", "Information", "Informazioni", "Información", "Infos")} == {"INFO"}
    assert JUL.LEVEL_OF["AM FEINSTEN"] == "FINEST" and JUL.LEVEL_OF["詳細レベル(低)"] == "FINE"


@pytest.mark.parametrize("layout", ["jul-localized-levels", "jul-tc", "jul-localized-dates"])
def test_localized_and_tc_records_read_every_statement_in_both_readers(layout: str) -> None:
    msgs = [m for s in ("kafka-consumer-classic", "spring-kafka", "kafka-streams") for m in J.messages(s)]
    results = []
    for reader in (parse_bytes, read_bytes):
        ok, bad = F.score(msgs, J.LAYOUTS[layout], reader, f"app-{layout}.2024-05-01")
        assert ok == len(msgs), bad[:3]
        data, _ = F.render(msgs[:40], J.LAYOUTS[layout])
        results.append(reader(data, "app.2024-05-01.log", "c", F.SETTINGS, "r")[0].to_pylist())
    assert results[0] == results[1]


def test_a_chinese_jvm_record_is_one_event_with_the_head_time_and_logger() -> None:
    text = ("Sep 19, 2018 4:45:33 PM org.springframework.kafka.listener.KafkaMessageListenerContainer onPartitionsAssigned\n"
            "信息: partitions assigned: [topic1-0, topic2-0]\n")  # fmt: skip
    for reader in (parse_bytes, read_bytes):
        ev, _, audit = reader(text.encode(), "j.log", "c", F.SETTINGS, "r")
        assert [(e["kind"], e["ts_ms"], e["logger"], e["line_no"]) for e in ev.to_pylist()] == [
            ("partitions_assigned", 1537375533000, "org.springframework.kafka.listener.KafkaMessageListenerContainer", 1)]
        assert (audit["events"], audit["continuations"]) == (1, 1)


@pytest.mark.parametrize(("head", "english"), [
    ("9月 19, 2018 4:45:32 下午", "Sep 19, 2018 4:45:32 PM"),
    ("九月 19, 2018 4:45:32 上午", "Sep 19, 2018 4:45:32 AM"),
    ("Sept. 19, 2018 4:45:32 PM", "Sep 19, 2018 4:45:32 PM"),
    ("sept 19, 2018 4:45:32 P.\u00a0M.", "Sep 19, 2018 4:45:32 PM"),
    ("9월 19, 2018 4:45:32 오후", "Sep 19, 2018 4:45:32 PM"),
    ("sep. 19, 2018 4:45:32 EM", "Sep 19, 2018 4:45:32 PM"),
    ("Sep 19, 2018 4:45:32 PM", None),
])  # fmt: skip
def test_a_localized_head_date_reads_as_the_english_one(head: str, english: str | None) -> None:
    assert JUL.english_date(head) == english
