"""The HTML report: content, figures, self-containment and escaping of untrusted log text."""

from __future__ import annotations

import re

from jobs.report import build_report
from jobs.report.__main__ import main
from jobs.report.html import render


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def _headings(text: str) -> list[str]:
    return re.findall(r"<h[23]>(.*?)</h[23]>", text)


def test_cluster_report_summary_first_then_figures(hand_lakehouse, tmp_path):
    out = build_report(hand_lakehouse, str(tmp_path / "report.html"))
    text = _read(out)
    heads = _headings(text)
    assert heads[:6] == ["Summary", "Worst storms", "Top causes", "Top culprits", "Groups most affected",
                         "Groups that stormed together on one coordinator"]  # fmt: skip
    assert heads.index("Summary") < heads.index("Timelines") < heads.index("Evidence anomalies")
    assert [h for h in heads if h.startswith("Group ")] == ["Group orders", "Group payments", "Group audit"]
    # 4 cluster figures + 3 timelines + 3 zooms into their worst storms + skew and movement of orders
    assert text.count("<img") == 12
    assert text.count('src="data:image/png;base64,') == 12
    assert 'alt="timeline of group payments during its worst storm"' in text
    assert '<div class="v">8</div><div class="k">rebalances</div>' in text
    assert '<div class="v">1 min 56 s</div><div class="k">consumption paused (total)</div>' in text
    assert '<div class="v">3</div><div class="k">storms</div>' in text
    assert "The worst storm hit <b>payments</b> at 2026-03-01 10:11:40 UTC" in text
    assert "<td>orders, payments</td>" in text  # stormed together on broker 1


def test_group_report(hand_lakehouse, tmp_path, capsys):
    assert main(["--output", str(tmp_path), "--lakehouse", hand_lakehouse, "--group", "orders"]) == 0
    assert "report written to" in capsys.readouterr().out
    text = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<title>rebalance-lens — group orders</title>" in text
    assert text.count("<img") == 7  # causes, heatmap, storms, timeline, storm zoom, skew, movement
    assert "Groups most affected" not in text
    assert '<div class="v">5</div><div class="k">rebalances</div>' in text
    assert "reason of session_timeout" in text


def test_report_is_self_contained(hand_lakehouse, tmp_path):
    text = _read(build_report(hand_lakehouse, str(tmp_path / "r.html")))
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", text, re.I)
    assert "<script" not in text.lower() and "<link" not in text.lower() and "@import" not in text
    assert "url(" not in text


def test_untrusted_log_text_is_escaped(tables):
    evil_group = '<script>alert("g")</script>'
    evil_member = '"><img src=x onerror=alert(1)>'
    evil_reason = "</td><script src='https://evil.example/x.js'></script>"
    t = {k: v.copy() for k, v in tables.items()}
    for df in t.values():
        if "group_id" in df.columns:
            df["group_id"] = df["group_id"].replace("orders", evil_group)
    t["rebalances"]["reason"] = evil_reason
    t["rebalances"]["culprit_member_id"] = t["rebalances"]["culprit_member_id"].replace("m3", evil_member)
    t["member_sessions"]["member_id"] = t["member_sessions"]["member_id"].replace("m3", evil_member)
    t["storms"]["culprit_members"] = [[evil_member]] * len(t["storms"])
    t["storms"]["concurrent_groups"] = [[evil_group]] * len(t["storms"])
    t["anomalies"]["detail"] = evil_reason
    for group in (None, evil_group):
        text = render(t, group=group)
        assert "<script" not in text.lower()
        assert "<img src=x" not in text
        assert "evil.example" not in re.findall(r"""(?:src|href)=["']([^"']*)""", text)
        assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", text, re.I)
        assert "&lt;script&gt;alert(&quot;g&quot;)&lt;/script&gt;" in text
        assert "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in text
        assert "&lt;/td&gt;&lt;script src=&#x27;https://evil.example/x.js&#x27;&gt;" in text
    # the title and the alt text of the group's timeline are escaped too
    text = render(t, group=evil_group)
    assert "<title>rebalance-lens — group &lt;script&gt;" in text
    assert 'alt="timeline of group &lt;script&gt;alert(&quot;g&quot;)&lt;/script&gt;"' in text


def test_empty_lakehouse_still_renders(tmp_path):
    text = _read(build_report(str(tmp_path), str(tmp_path / "out" / "r.html")))
    assert "No rebalances in these tables." in text
    assert "no storms" in text


def test_long_culprit_lists_are_capped(tables):
    t = {k: v.copy() for k, v in tables.items()}
    t["storms"]["culprit_members"] = [[f"member-{i}" for i in range(7)]] * len(t["storms"])
    text = render(t)
    assert "<td>member-0, member-1, member-2 +4 more</td>" in text
    assert "member-3" not in text


def test_storms_of_both_protocols_show_protocol_and_partition_time(tables):
    t = {k: v.copy() for k, v in tables.items()}
    st = t["storms"]
    assert len(st)
    st["protocol_types"] = [["classic", "consumer"]] + [["classic"]] * (len(st) - 1)
    st["paused_partition_ms"] = [125_000] + [None] * (len(st) - 1)
    text = render(t)
    worst = text.split("<h3>Worst storms</h3>", 1)[1].split("<h3>", 1)[0]
    assert "<th>protocol</th>" in worst and "<th>partition-time paused</th>" in worst
    assert "<td>classic, consumer</td>" in worst and "2 min 05 s" in worst


def test_classic_only_storms_keep_their_columns(tables):
    t = {k: v.copy() for k, v in tables.items()}
    t["storms"]["protocol_types"] = [["classic"]] * len(t["storms"])
    worst = render(t).split("<h3>Worst storms</h3>", 1)[1].split("<h3>", 1)[0]
    assert "<th>protocol</th>" not in worst and "partition-time" not in worst
