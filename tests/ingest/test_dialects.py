"""Golden fixtures: every dialect wording per Kafka version parses to the expected event fields."""

from __future__ import annotations

import re
from functools import cache

import pytest

from jobs.ingest import dialects as D
from tests.ingest.helpers import check_invariant, families, load_family, parse_text


@cache
def _parsed_family(name: str):
    entries = load_family(name)
    events, quarantine, audit = parse_text("\n".join(e["line"] for e in entries) + "\n", f"{name}.log")
    by_line: dict[int, dict] = {}
    for ev in events.to_pylist():
        by_line.setdefault(ev["line_no"], ev)
    q_by_line = {q["line_no"]: q for q in quarantine.to_pylist()}
    return entries, by_line, q_by_line, audit


CASES = [(fam, i) for fam in families() for i in range(len(load_family(fam)))]


@pytest.mark.parametrize(("family", "index"), CASES, ids=[f"{f}-{i + 1}" for f, i in CASES])
def test_golden_fixture_line(family: str, index: int) -> None:
    entries, by_line, q_by_line, audit = _parsed_family(family)
    entry = entries[index]
    line_no = index + 1
    exp = dict(entry["expected"])
    if exp.get("kind") is None:
        assert line_no not in by_line, f"unexpected event for {entry['line']}"
        if exp.get("unrelated"):
            assert line_no not in q_by_line
        else:
            assert q_by_line[line_no]["reason"] == exp["quarantine"]
        return
    assert line_no in by_line, f"no event for {entry['line']!r} (quarantine: {q_by_line.get(line_no)})"
    ev = by_line[line_no]
    exp.pop("quarantine", None)
    for key, want in exp.items():
        got = ev[key]
        if key == "assignment" and got is not None:
            got = {k: list(v) for k, v in got}
        assert got == want, f"{key}: {got!r} != {want!r} in {entry['line']!r}"
    check_invariant(audit)


@pytest.mark.parametrize("family", families())
def test_family_accounting(family: str) -> None:
    entries, by_line, q_by_line, audit = _parsed_family(family)
    check_invariant(audit)
    assert audit["total_lines"] == len(entries)
    assert audit["events"] == len(by_line)
    assert audit["quarantined"] == len(q_by_line)


def test_dialect_table_is_valid() -> None:
    D.validate_table()


@pytest.mark.parametrize("dialect", D.DIALECTS, ids=[d.id for d in D.DIALECTS])
def test_dialect_example_matches_its_own_regex(dialect: D.Dialect) -> None:
    assert re.match(dialect.pattern, dialect.example)


def test_every_event_dialect_has_a_golden_line() -> None:
    seen: set[str] = set()
    for fam in families():
        events, quarantine, _ = parse_text("\n".join(e["line"] for e in load_family(fam)) + "\n")
        seen.update(events.column("dialect").to_pylist())
        # recognised lines that name no group are quarantined with the dialect id in the detail
        for detail in quarantine.column("detail").to_pylist():
            m = re.search(r"recognised \(([^)]+)\)", detail or "")
            if m:
                seen.add(m.group(1))
    multi_line = {"client.updating_assignment"}  # tested in test_layouts (a two-line entry)
    missing = [d.id for d in D.DIALECTS if d.kind is not None and d.id not in seen and d.id not in multi_line]
    assert missing == []


def test_markdown_table_lists_every_dialect() -> None:
    table = D.markdown_table()
    assert table.count("\n") == len(D.DIALECTS) + 2
    assert "| `broker.prepare_restabilize.v0_10` | rebalance_prepared | broker | 0.9-0.10 |" in table


def test_the_table_is_its_families_in_order() -> None:
    """``DIALECTS`` is the families' tables one after the other: the classic broker's, KIP-848's, the
    classic Java client's, then the other clients' (an application's callbacks last)."""
    from jobs.ingest import dialects_broker, dialects_java_client, dialects_kip848

    n_b, n_k, n_c = len(dialects_broker.BROKER), len(dialects_kip848.KIP848), len(dialects_java_client.JAVA_CLIENT)
    assert D.DIALECTS[:n_b] == dialects_broker.BROKER
    assert D.DIALECTS[n_b : n_b + n_k] == dialects_kip848.KIP848
    assert D.DIALECTS[n_b + n_k : n_b + n_k + n_c] == dialects_java_client.JAVA_CLIENT
    assert (D.DIALECTS[0].id, D.DIALECTS[n_b + n_k].id) == ("broker.prepare_rebalance", "client.discovered")
    assert D.DIALECTS[-1].id == "callback.assigned"
