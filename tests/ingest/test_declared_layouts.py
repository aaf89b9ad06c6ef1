"""Layouts a user declares in the config (log4j/logback pattern or named-group regex)."""

from __future__ import annotations

import re

import pytest

from jobs.config import ConfigError, config_from_dict, to_dict
from jobs.ingest.declared import DeclarationError, declared_layouts, pattern_regex
from jobs.ingest.model import IngestSettings
from tests.ingest.helpers import parse_text

MSG = "[Consumer clientId=c1, groupId=orders] Successfully joined group with generation Generation{generationId=7, memberId='m1', protocol='range'}"


@pytest.mark.parametrize(
    ("pattern", "line", "want"),
    [
        ("%d{ISO8601} [%t] %-5level %logger{36} - %msg%n",
         f"2024-05-01T10:00:00,123 [main] INFO  o.a.k.c.c.i.ConsumerCoordinator - {MSG}",
         {"ts": "2024-05-01T10:00:00,123", "thread": "main", "level": "INFO", "logger": "o.a.k.c.c.i.ConsumerCoordinator"}),
        ("[%d{yyyy-MM-dd HH:mm:ss.SSS}][%p][%t][%X{traceId}][%c Line:%L] userId[%X{userId}] %m%n",
         f"[2024-05-01 10:00:00.123][INFO][main][][c.f.Foo Line:576] userId[] {MSG}",
         {"ts": "2024-05-01 10:00:00.123", "level": "INFO", "logger": "c.f.Foo"}),
        ("%clr(%d{${LOG_DATEFORMAT_PATTERN:-yyyy-MM-dd HH:mm:ss.SSS}}){faint} %clr(${LOG_LEVEL_PATTERN:-%5p}) "
         "%clr(${PID:- }){magenta} %clr(---){faint} %clr([%15.15t]){faint} %clr(%-40.40logger{39}){cyan} %clr(:){faint} "
         "%m%n${LOG_EXCEPTION_CONVERSION_WORD:-%wEx}",
         f"2024-05-01 10:00:00.123  INFO 12345 --- [ntainer#0-0-C-1] o.a.k.c.c.internals.ConsumerCoordinator  : {MSG}",
         {"ts": "2024-05-01 10:00:00.123", "level": "INFO", "thread": "ntainer#0-0-C-1"}),
        ("%d{DATE} %-5p %c{1}:%L - %m%n", f"04 Mar 2021 10:00:00,123 INFO  ConsumerCoordinator:326 - {MSG}",
         {"ts": "04 Mar 2021 10:00:00,123", "logger": "ConsumerCoordinator"}),
        ("%highlight{%d{HH:mm:ss.SSS} %-5level %logger{36}}: %msg%n", f"10:00:00.123 INFO  a.b.C: {MSG}",
         {"ts": "10:00:00.123", "level": "INFO"}),
    ],
)  # fmt: skip
def test_pattern_translation_reads_the_line(pattern: str, line: str, want: dict) -> None:
    m = re.match(pattern_regex(pattern), line)
    assert m is not None
    got = m.groupdict()
    assert got["message"] == MSG
    for k, v in want.items():
        assert got[k] == v, k


@pytest.mark.parametrize(
    ("entries", "needle"),
    [
        ([{"pattern": "%d %p"}], "no message conversion"),
        ([{"pattern": "%d %frobnicate %m"}], "unknown conversion word %frobnicate"),
        ([{"regex": "^(?P<msg>.*)$"}], "no (?P<message>...) group"),
        ([{"regex": "^(?P<message>.*"}], "not a valid regex"),
        ([{"regex": "^(?P<when>\\S+) (?P<message>.*)$"}], "unknown named groups ['when']"),
        ([{"pattern": "%m", "regex": "(?P<message>.*)"}], "exactly one of"),
        ("%d %m", "must be a list"),
    ],
)
def test_a_wrong_declaration_is_a_config_error_naming_it(entries, needle: str) -> None:
    with pytest.raises(DeclarationError, match=re.escape(needle)):
        declared_layouts(entries)
    with pytest.raises(ConfigError, match=re.escape(needle)) as exc:
        config_from_dict({"ingest": {"layouts": entries}})
    assert str(exc.value).startswith("config error: ingest.layouts")


def test_declared_layout_is_used_before_the_built_in_ones_and_round_trips() -> None:
    cfg = config_from_dict({"ingest": {"layouts": [{"pattern": "%d{HH:mm:ss.SSS} %-5level [%t] %logger - %msg%n", "name": "my-app"}]}})
    lay = cfg.ingest.layouts[0]
    assert lay.id == "my-app"
    again = config_from_dict(to_dict(cfg)).ingest.layouts
    assert [(x.id, x.regex) for x in again] == [(lay.id, lay.regex)]
    text = f"2024-05-01 09:59:59,000 INFO [main] a.b - warm-up\n10:00:00.123 INFO  [main] o.a.k.ConsumerCoordinator - {MSG}\n"
    ev, q, audit = parse_text(text, settings=IngestSettings(layouts=cfg.ingest.layouts))
    assert q.num_rows == 0
    (row,) = ev.to_pylist()
    assert row["layout"] == "my-app" and row["generation"] == 7 and row["group_id"] == "orders"
    assert row["ts_ms"] == 1714557600123  # (the date of the file's earlier dated line)
    assert row["logger"] == "o.a.k.ConsumerCoordinator" and row["level"] == "INFO"
