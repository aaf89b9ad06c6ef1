"""Each plot function on hand-made tables: axes, labels, bars/lanes and values."""

from __future__ import annotations

import pandas as pd
import pytest
from matplotlib.colors import to_hex
from matplotlib.patches import Rectangle

from jobs.report import plots as P
from jobs.report import timeline as T


def _bars(ax) -> list[Rectangle]:
    return [p for p in ax.patches if isinstance(p, Rectangle)]


def _labels(ticks) -> list[str]:
    return [t.get_text() for t in ticks]


def _texts(fig) -> list[str]:
    return [t.get_text() for ax in fig.axes for t in ax.texts]


def test_cause_breakdown_one_bar_per_cause_largest_on_top(tables):
    fig = P.cause_breakdown(tables["rebalances"])
    ax1, ax2 = fig.axes
    assert _labels(ax1.get_yticklabels()) == [
        "coordinator_move", "member_leave", "new_member", "poll_timeout_leave", "session_timeout",
    ]  # fmt: skip
    assert [b.get_width() for b in _bars(ax1)] == [1, 1, 1, 2, 3]
    assert [to_hex(b.get_facecolor()) for b in _bars(ax1)][-1] == P.CAUSE_COLOURS["session_timeout"].lower()
    # paused seconds per cause (max 75 s: the axis is in seconds)
    assert [b.get_width() for b in _bars(ax2)] == [2, 0, 3, 75, 36]
    assert ax1.get_xlabel() == "rebalances" and ax2.get_xlabel() == "paused time (seconds)"
    assert "3 (38%)" in [t.strip() for t in _texts(fig)]
    assert fig._suptitle.get_text() == "Why groups rebalanced"


def test_group_ranking_stacks_causes_and_caps_lanes(tables):
    fig = P.group_ranking(tables["rebalances"])
    ax1, ax2 = fig.axes
    assert _labels(ax1.get_yticklabels()) == ["audit", "payments", "orders"]  # busiest on top
    assert len(_bars(ax1)) == 3 * 5  # lanes x causes present
    totals = {}
    for b in _bars(ax1):
        totals[round(b.get_y() + b.get_height() / 2)] = (
            totals.get(round(b.get_y() + b.get_height() / 2), 0) + b.get_width()
        )
    assert totals == {0: 1, 1: 2, 2: 5}
    assert [b.get_width() for b in _bars(ax2)] == [2, 75, 39]
    assert ax2.get_xlabel() == "paused time (seconds)"
    assert [t.get_text() for t in fig.legends[0].get_texts()] == [
        "new_member", "member_leave", "poll_timeout_leave", "session_timeout", "coordinator_move",
    ]  # fmt: skip
    capped = P.group_ranking(tables["rebalances"], top_n=2)
    assert _labels(capped.axes[0].get_yticklabels()) == ["payments", "orders"]
    assert "+1 more group" in _texts(capped)


def test_rebalances_heatmap_counts_per_group_and_hour(tables):
    fig = P.rebalances_heatmap(tables["rebalance_frequency"])
    ax = fig.axes[0]
    grid = ax.images[0].get_array()
    assert grid.shape == (3, 3)
    assert grid.filled(0).tolist() == [[4, 1, 0], [2, 0, 0], [0, 0, 1]]
    assert grid.mask.tolist()[0] == [False, False, True]  # zero cells are blank
    assert _labels(ax.get_yticklabels()) == ["orders", "payments", "audit"]
    assert _labels(ax.get_xticklabels()) == ["10:00", "11:00", "12:00"]
    assert ax.get_xlabel() == "hour (UTC)"
    assert fig.axes[1].get_ylabel().startswith("rebalances per hour")
    # the same counts from the rebalances table when there is no frequency table
    alt = P.rebalances_heatmap(tables["rebalance_frequency"].iloc[0:0], rebalances=tables["rebalances"])
    assert alt.axes[0].images[0].get_array().filled(0).tolist() == [[4, 1, 0], [2, 0, 0], [0, 0, 1]]
    capped = P.rebalances_heatmap(tables["rebalance_frequency"], top_n=1)
    assert capped.axes[0].get_ylabel() == "group (top 1, +2 more)"


def _starts(*stamps: str) -> pd.DataFrame:
    return pd.DataFrame({"cluster": "c", "group_id": [f"g{i % 2}" for i in range(len(stamps))],
                         "start_ts": pd.to_datetime(list(stamps), utc=True)})  # fmt: skip


def test_heatmap_bins_follow_the_span_and_ticks_carry_the_year():
    """Logs spanning years get weekly cells with the year on the ticks (hourly cells were a blank strip);
    half an hour gets minute cells; every cell count adds up to the rebalances."""
    assert [P.time_bin(pd.Timedelta(x))[0] for x in ("30min", "3h", "20D", "400D")] == ["minute", "hour", "day", "week"]
    years = P.rebalances_heatmap(rebalances=_starts("2022-12-30 10:00", "2023-01-02 11:00", "2024-06-01 09:00"))
    ax = years.axes[0]
    grid = ax.images[0].get_array().filled(0)
    assert grid.sum() == 3 and grid.shape[1] < 200
    assert ax.get_xlabel() == "week (UTC), week starting" and ax.get_title() == "Rebalances per group per week"
    assert _labels(ax.get_xticklabels())[0] == "2022-12-26"  # the Monday of the first week, with its year
    minutes = P.rebalances_heatmap(rebalances=_starts("2024-05-14 10:00:10", "2024-05-14 10:20:00", "2024-05-14 10:29:59"))
    grid = minutes.axes[0].images[0].get_array().filled(0)
    assert grid.shape == (2, 30) and grid.sum() == 3
    assert _labels(minutes.axes[0].get_xticklabels())[0] == "10:00"
    crossing = P.rebalances_heatmap(rebalances=_starts("2023-12-31 23:10", "2024-01-01 01:00"))
    assert _labels(crossing.axes[0].get_xticklabels())[0] == "2023-12-31 23:00"  # hours across a new year


def test_figures_with_nothing_to_draw_say_why_in_one_line():
    from jobs.report.html import figure_html

    empty = P.rebalances_heatmap(rebalances=_starts())
    assert empty.empty_reason == "no rebalance has a start time"
    assert figure_html(empty, "rebalances per group over time") == (
        '<p class="muted">Rebalances per group over time: not drawn, no rebalance has a start time.</p>')  # fmt: skip
    skew = pd.DataFrame({"cluster": "c", "group_id": "g", "generation": [1, 2], "topic": "*", "members": 2,
                         "partitions": 4, "moved_partitions": [None, 0], "assignor": "range"})  # fmt: skip
    assert P.movement_by_generation(skew, "g").empty_reason == "no partition moved between two known assignments"


def test_storm_timeline_lanes_by_coordinator(tables):
    fig = P.storm_timeline(tables["storms"])
    ax = fig.axes[0]
    assert _labels(ax.get_yticklabels()) == ["b1 · payments", "b1 · orders", "b2 · audit"]
    bars = _bars(ax)
    assert len(bars) == 3
    assert [b.get_hatch() for b in bars] == [None, None, "//"]  # audit's storm is coordinator-wide
    assert sorted(t.strip() for t in _texts(fig)) == ["1", "2", "3"]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["poll_timeout_leave", "session_timeout", "coordinator_move", "coordinator-wide"]
    assert ax.get_xlabel() == "time (UTC)"
    # one dashed separator between broker 1 and broker 2
    assert len([line for line in ax.lines if line.get_linestyle() == "--"]) == 1


def test_group_timeline_lanes_bars_generations_anomalies(tables):
    fig = T.group_timeline(tables["group_transitions"], tables["member_sessions"], tables["rebalances"],
                           tables["anomalies"], "orders")  # fmt: skip
    top, members = fig.axes[:2]
    assert _labels(top.get_yticklabels()) == ["anomalies", "rebalances", "state"]
    assert top.get_title() == "Group orders"
    gens = [t.get_text().split("\n") for t in top.texts if t.get_text().startswith("g")]
    assert gens == [
        ["g1→2", "3.0s"],
        ["g2→3", "12.0s"],
        ["g3→4", "15.0s"],
        ["g4→5", "9.0s"],
        ["g5→?", "open"],
    ]
    rebalance_bars = [b for b in _bars(top) if abs(b.get_y() + b.get_height() / 2 - P.LANE_REBALANCE) < 1e-9]
    assert len(rebalance_bars) == 5
    assert rebalance_bars[-1].get_hatch() == "//"  # the open one
    state_bars = [b for b in _bars(top) if abs(b.get_y() + b.get_height() / 2 - P.LANE_STATE) < 1e-9]
    assert len(state_bars) == 11  # one span per transition
    markers = [line for line in top.lines if line.get_marker() == "v"]
    assert len(markers) == 1 and len(markers[0].get_xdata()) == 2
    assert _labels(members.get_yticklabels()) == ["m1", "m3", "m2", "m3b", "m3c"]
    assert members.get_xlabel() == "time (UTC)"
    capped = T.group_timeline(tables["group_transitions"], tables["member_sessions"], tables["rebalances"],
                              tables["anomalies"], "orders", max_members=3)  # fmt: skip
    assert _labels(capped.axes[1].get_yticklabels()) == ["m1", "m3", "m2", "+2 more members"]


def test_skew_by_generation(tables):
    fig = P.skew_by_generation(tables["partition_skew"], "orders")
    ax1, ax2 = fig.axes[:2]
    assert ax1.get_ylabel() == "partitions per member" and ax2.get_ylabel() == "skew ratio"
    assert _labels(ax2.get_xticklabels()) == ["2", "3", "4", "5"]
    assert [round(b.get_height(), 3) for b in _bars(ax2)] == [1.0, 1.0, 1.0, 1.667]
    assert [t.get_text() for t in ax2.texts] == ["1 idle"]
    assert ax2.get_xlabel() == "generation"


def test_movement_by_generation_coloured_by_assignor(tables):
    fig = P.movement_by_generation(tables["partition_skew"], "orders")
    ax = fig.axes[0]
    assert [b.get_height() for b in _bars(ax)] == [0, 4, 4, 6]
    colours = [to_hex(b.get_facecolor()) for b in _bars(ax)]
    assert colours[0] == colours[2] != colours[3]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "range",
        "roundrobin",
        "partitions in group",
    ]
    assert ax.get_ylabel() == "partitions moved"


def test_what_if_comparison_side_by_side():
    df = pd.DataFrame({"scenario": ["observed", "session 60s", "static"], "rebalances": [5, 3, 1],
                       "paused_ms": [600000, 300000, 0], "moved_partitions": [10, 10, 0]})  # fmt: skip
    fig = P.what_if_comparison(df)
    assert [ax.get_ylabel() for ax in fig.axes] == ["rebalances", "paused time (minutes)", "partitions moved"]
    assert [[b.get_height() for b in _bars(ax)] for ax in fig.axes] == [[5, 3, 1], [10, 5, 0], [10, 10, 0]]
    assert _labels(fig.axes[0].get_xticklabels()) == ["observed", "session 60s", "static"]
    assert "3\n(-40%)" in _texts(fig) and "0\n(-100%)" in _texts(fig)


@pytest.mark.parametrize("name", ["cause_breakdown", "group_ranking", "storm_timeline"])
def test_empty_tables_give_a_titled_empty_figure(name):
    from jobs.report.data import empty_frame

    table = {"cause_breakdown": "rebalances", "group_ranking": "rebalances", "storm_timeline": "storms"}[name]
    fig = getattr(P, name)(empty_frame(table))
    assert len(fig.axes) == 1 and fig.axes[0].texts[0].get_text() in ("no rebalances", "no storms")


def test_log_text_with_dollars_is_not_mathtext(tables):
    rb = tables["rebalances"].assign(group_id="a$b$c")
    fig = P.group_ranking(rb)
    fig.savefig(__import__("io").BytesIO(), format="png")  # would raise on a mathtext parse error
    assert _labels(fig.axes[0].get_yticklabels()) == [r"a\$b\$c"]


def test_group_timeline_zoom_and_crowded_labels(tables):
    args = (tables["group_transitions"], tables["member_sessions"], tables["rebalances"], tables["anomalies"])
    fig = T.group_timeline(*args, "orders", start="2026-03-01 10:08", end="2026-03-01 10:20")
    top, members = fig.axes[:2]
    gens = [t.get_text().split("\n")[0] for t in top.texts if t.get_text().startswith("g")]
    assert gens == ["g2→3", "g3→4"]  # only the rebalances in the window
    assert _labels(members.get_yticklabels()) == ["m1", "m3", "m2", "m3b", "m3c"]
    many = pd.concat([tables["rebalances"].iloc[[1]].assign(
        start_ts=tables["rebalances"]["start_ts"].iloc[1] + pd.Timedelta(seconds=i),
        end_ts=tables["rebalances"]["start_ts"].iloc[1] + pd.Timedelta(seconds=i + 0.5),
        old_generation=10 + i) for i in range(12)])  # fmt: skip
    fig = T.group_timeline(tables["group_transitions"], tables["member_sessions"], many, None, "orders")
    labels = [t.get_text() for t in fig.axes[0].texts]
    shown = [t for t in labels if t.startswith("g")]
    assert len(shown) == 2  # two label levels, the rest would overlap
    assert " 10 labels hidden (crowded)" in labels and "zoom" not in " ".join(labels)


def test_group_timeline_labels_consumer_protocol_rebalances_with_epochs(tables):
    rb = tables["rebalances"][tables["rebalances"]["group_id"] == "orders"].copy()
    rb["protocol_type"] = "consumer"
    rb["partitions_revoked"] = [2, 0, None, 1, None][: len(rb)]
    tr = tables["group_transitions"][tables["group_transitions"]["group_id"] == "orders"].copy()
    tr["to_state"] = tr["to_state"].map({"Stable": "STABLE", "Empty": "EMPTY"}).fillna("RECONCILING")
    fig = T.group_timeline(tr, tables["member_sessions"], rb, tables["anomalies"], "orders")
    top = fig.axes[0]
    labels = [t.get_text().split("\n")[0] for t in top.texts if t.get_text()[:1] in "ge"]
    assert labels == ["e1→2 −2p", "e2→3", "e3→4", "e4→5 −1p", "e5→?"]
    legend = [t.get_text() for t in top.get_legend().get_texts()]
    assert "RECONCILING" in legend and "STABLE" in legend


def test_group_timeline_shows_reconciling_members(tables):
    """Consumer-protocol members: their reconciling spans (from the events) inside their lanes."""
    import pathlib

    import pandas as pd

    from jobs.ingest.parse import parse_bytes
    from jobs.report.summary import reconciling_spans

    data = pathlib.Path("tests/fixtures/kip848/converted-classic-to-consumer-4.1.log").read_bytes()
    ev = parse_bytes(data, "server.log", "c1", None, "r")[0].to_pandas()
    spans = reconciling_spans(ev, "orders")
    # c1-aaa: UNREVOKED at 10:05:03, STABLE at 10:05:06; m2: UNRELEASED at 10:05:00.004, STABLE at 10:05:08
    got = [(r.member_id, r.start.strftime("%H:%M:%S.%f")[:12], r.end.strftime("%H:%M:%S.%f")[:12]) for r in spans.itertuples()]
    assert got == [("c1-aaa", "10:05:03.000", "10:05:06.000"), ("m2", "10:05:00.004", "10:05:08.000")]
    t0 = tables["member_sessions"]["joined_ts"].min()
    fake = pd.DataFrame({"member_id": ["m1", "m1"], "start": [t0 + pd.Timedelta(seconds=5), t0 + pd.Timedelta(seconds=40)],
                         "end": [t0 + pd.Timedelta(seconds=9), pd.NaT]})  # fmt: skip
    fig = T.group_timeline(tables["group_transitions"], tables["member_sessions"], tables["rebalances"],
                           tables["anomalies"], "orders", reconciling=fake)  # fmt: skip
    members = fig.axes[1]
    inner = [b for b in _bars(members) if abs(b.get_height() - 0.22) < 1e-9]
    assert len(inner) == 2 and all(abs(b.get_y() + 0.11) < 1e-9 for b in inner)  # lane 0 = m1
    assert "reconciling" in [t.get_text() for t in members.get_legend().get_texts()]
    plain = T.group_timeline(tables["group_transitions"], tables["member_sessions"], tables["rebalances"],
                             tables["anomalies"], "orders")  # fmt: skip
    assert "reconciling" not in [t.get_text() for t in plain.axes[1].get_legend().get_texts()]
