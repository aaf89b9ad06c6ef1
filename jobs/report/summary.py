"""Small roll-ups of the tables: what a person reads first (totals, worst storms, top causes, culprits,
groups most affected) and the per-group tables the notebooks show. Pure pandas, no plotting."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from coordinator_core.records import CAUSES


@dataclass(frozen=True)
class Totals:
    #: consumer groups (cluster, group id) with a row in any table: the one definition of a group
    groups: int
    #: of them, the groups with at least one rebalance
    rebalanced_groups: int
    rebalances: int
    completed: int
    open: int
    paused_ms: int
    storms: int
    anomalies: int
    first_ts: pd.Timestamp | None
    last_ts: pd.Timestamp | None


def human_ms(ms: float | int | None) -> str:
    """Milliseconds as a short human duration: ``850 ms``, ``12.4 s``, ``3 min 20 s``, ``2 h 05 min``;
    a negative one (time a what-if change would cost) with a minus sign: ``−4.2 s``."""
    if ms is None or pd.isna(ms):
        return "–"
    ms = float(ms)
    if ms < 0:
        return "\u2212" + human_ms(-ms)
    if ms < 1000:
        return f"{ms:.0f} ms"
    s = ms / 1000
    if s < 60:
        return f"{s:.1f} s"
    m, s = divmod(int(round(s)), 60)
    if m < 60:
        return f"{m} min {s:02d} s"
    h, m = divmod(m, 60)
    if h < 48:
        return f"{h} h {m:02d} min"
    d, h = divmod(h, 24)
    return f"{d} d {h:02d} h"


def _paused(rebalances: pd.DataFrame) -> pd.Series:
    return pd.to_numeric(rebalances["duration_ms"], errors="coerce").fillna(0)


#: the tables whose rows name a group (the job's console counts ``group_state``'s, one row per group)
GROUP_TABLES = ("group_state", "rebalances", "rebalance_frequency", "member_sessions", "group_transitions", "anomalies")


def group_keys(tables: dict[str, pd.DataFrame], names: Sequence[str] = GROUP_TABLES) -> set[tuple[str, str]]:
    """The (cluster, group id) pairs of ``tables``: what "a group" means on every card and chart."""
    keys: set[tuple[str, str]] = set()
    for name in names:
        df = tables.get(name)
        if df is not None and len(df) and "group_id" in df:
            cl = df["cluster"] if "cluster" in df else pd.Series("", index=df.index)
            keys |= {(str(c), str(g)) for c, g in zip(cl.fillna(""), df["group_id"], strict=True) if g is not None and not pd.isna(g)}
    return keys


def qualify_groups(tables: dict[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """The tables with ``group_id`` written ``cluster/group`` for a group id that two clusters use,
    so that no chart merges two groups a count tells apart."""
    keys = group_keys(tables)
    clusters_of: dict[str, set[str]] = {}
    for c, g in keys:
        clusters_of.setdefault(g, set()).add(c)
    shared = {g for g, cs in clusters_of.items() if len(cs) > 1}
    if not shared:
        return tables
    out = {}
    for name, df in tables.items():
        if df is not None and len(df) and "group_id" in df and "cluster" in df:
            df = df.copy()
            mask = df["group_id"].isin(shared)
            df.loc[mask, "group_id"] = df.loc[mask, "cluster"].astype(str) + "/" + df.loc[mask, "group_id"].astype(str)
        out[name] = df
    return out


def plural(n: int, word: str) -> str:
    """``1 storm``, ``2 storms``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def totals(tables: dict[str, pd.DataFrame]) -> Totals:
    rb = tables.get("rebalances", pd.DataFrame(columns=["group_id", "duration_ms", "outcome", "start_ts"]))
    storms = tables.get("storms", pd.DataFrame())
    anomalies = tables.get("anomalies", pd.DataFrame())
    ts = pd.concat([rb["start_ts"], rb.get("end_ts", pd.Series(dtype=object))]).dropna() if len(rb) else []
    return Totals(
        groups=len(group_keys(tables)),
        rebalanced_groups=len(group_keys(tables, ("rebalances",))),
        rebalances=len(rb),
        completed=int((rb["outcome"] == "completed").sum()) if len(rb) else 0,
        open=int((rb["outcome"] == "open").sum()) if len(rb) else 0,
        paused_ms=int(_paused(rb).sum()) if len(rb) else 0,
        storms=len(storms),
        anomalies=len(anomalies),
        first_ts=min(ts) if len(ts) else None,
        last_ts=max(ts) if len(ts) else None,
    )


def cause_counts(rebalances: pd.DataFrame) -> pd.DataFrame:
    """Rebalances and paused time per cause, most frequent first (columns cause, rebalances, paused_ms, share)."""
    if not len(rebalances):
        return pd.DataFrame(
            {
                "cause": pd.Series(dtype=str),
                "rebalances": pd.Series(dtype=int),
                "paused_ms": pd.Series(dtype=int),
                "share": pd.Series(dtype=float),
            }
        )
    df = rebalances.assign(cause=rebalances["cause"].fillna("unknown"), paused=_paused(rebalances))
    out = df.groupby("cause").agg(rebalances=("cause", "size"), paused_ms=("paused", "sum")).reset_index()
    out["paused_ms"] = out["paused_ms"].astype("int64")
    out["share"] = out["rebalances"] / out["rebalances"].sum()
    order = {c: i for i, c in enumerate(CAUSES)}
    out["_o"] = out["cause"].map(lambda c: order.get(c, len(order)))
    return (
        out.sort_values(["rebalances", "_o"], ascending=[False, True])
        .drop(columns="_o")
        .reset_index(drop=True)
    )


def group_ranking(rebalances: pd.DataFrame, storms: pd.DataFrame | None = None) -> pd.DataFrame:
    """Groups by rebalances then paused time: group_id, rebalances, paused_ms, storms, top_cause, max_generation."""
    cols = ["group_id", "rebalances", "paused_ms", "storms", "top_cause", "max_generation"]
    if not len(rebalances):
        return pd.DataFrame(columns=cols)
    df = rebalances.assign(paused=_paused(rebalances), cause=rebalances["cause"].fillna("unknown"))
    g = df.groupby("group_id")
    out = pd.DataFrame(
        {
            "rebalances": g.size(),
            "paused_ms": g["paused"].sum().astype("int64"),
            "top_cause": g["cause"].agg(lambda s: s.value_counts().index[0]),
            "max_generation": pd.to_numeric(df["new_generation"], errors="coerce")
            .groupby(df["group_id"])
            .max(),
        }
    ).reset_index()
    if storms is not None and len(storms):
        out["storms"] = out["group_id"].map(storms.groupby("group_id").size()).fillna(0).astype(int)
    else:
        out["storms"] = 0
    return out.sort_values(["rebalances", "paused_ms", "group_id"], ascending=[False, False, True])[
        cols
    ].reset_index(drop=True)


def top_culprits(rebalances: pd.DataFrame, n: int = 10) -> pd.DataFrame:
    """Members that caused the most rebalances: culprit (member id, else client id, else host),
    client_id, host, group_id, rebalances, paused_ms, causes (comma list, most frequent first)."""
    cols = ["culprit", "client_id", "host", "group_id", "rebalances", "paused_ms", "causes"]
    if not len(rebalances):
        return pd.DataFrame(columns=cols)
    df = rebalances.copy()
    df["culprit"] = df["culprit_member_id"].fillna(df["culprit_client_id"]).fillna(df["culprit_host"])
    df = df[df["culprit"].notna()]
    if not len(df):
        return pd.DataFrame(columns=cols)
    df["paused"] = _paused(df)
    df["cause"] = df["cause"].fillna("unknown")
    g = df.groupby(["group_id", "culprit"], dropna=False)
    out = pd.DataFrame(
        {
            "client_id": g["culprit_client_id"].first(),
            "host": g["culprit_host"].first(),
            "rebalances": g.size(),
            "paused_ms": g["paused"].sum().astype("int64"),
            "causes": g["cause"].agg(lambda s: ", ".join(s.value_counts().index)),
        }
    ).reset_index()
    return out.sort_values(["rebalances", "paused_ms"], ascending=False)[cols].head(n).reset_index(drop=True)


def worst_storms(storms: pd.DataFrame, n: int = 10) -> pd.DataFrame:
    """Storms by paused time then rebalances, with a ``duration_ms`` column."""
    if not len(storms):
        return storms.assign(duration_ms=pd.Series(dtype="int64"))
    df = storms.copy()
    df["duration_ms"] = ((df["end_ts"] - df["start_ts"]).dt.total_seconds() * 1000).round().astype("Int64")
    return df.sort_values(["paused_ms", "rebalances"], ascending=False).head(n).reset_index(drop=True)


def co_storms(storms: pd.DataFrame) -> pd.DataFrame:
    """Groups that stormed together on the same coordinator: one row per set of storms of different
    groups on one ``coordinator_broker`` whose time ranges overlap (coordinator, start_ts, end_ts,
    groups (sorted list), storms, rebalances, paused_ms, coordinator_wide)."""
    cols = [
        "coordinator_broker",
        "start_ts",
        "end_ts",
        "groups",
        "storms",
        "rebalances",
        "paused_ms",
        "coordinator_wide",
    ]
    if not len(storms):
        return pd.DataFrame(columns=cols)
    rows = []
    df = storms.sort_values("start_ts")
    for broker, sub in df.groupby(df["coordinator_broker"].fillna(-1), sort=True):
        cluster: list[pd.Series] = []
        end = None
        for _, s in sub.iterrows():
            if cluster and end is not None and s["start_ts"] <= end:
                cluster.append(s)
                end = max(end, s["end_ts"])
                continue
            if cluster:
                rows.append(_co_row(broker, cluster))
            cluster, end = [s], s["end_ts"]
        if cluster:
            rows.append(_co_row(broker, cluster))
    out = pd.DataFrame(rows, columns=cols)
    out = out[out["groups"].map(len) > 1]
    return out.sort_values(["paused_ms", "start_ts"], ascending=[False, True]).reset_index(drop=True)


def _co_row(broker: int, storms: list[pd.Series]) -> dict:
    groups = sorted({s["group_id"] for s in storms})
    return {
        "coordinator_broker": None if broker == -1 else int(broker),
        "start_ts": min(s["start_ts"] for s in storms),
        "end_ts": max(s["end_ts"] for s in storms),
        "groups": groups,
        "storms": len(storms),
        "rebalances": int(sum(int(s["rebalances"] or 0) for s in storms)),
        "paused_ms": int(sum(int(s["paused_ms"] or 0) for s in storms)),
        "coordinator_wide": any(bool(s["coordinator_wide"]) for s in storms),
    }


def anomaly_counts(anomalies: pd.DataFrame) -> pd.DataFrame:
    """Anomalies per group and kind (group_id, kind, count, example detail)."""
    if not len(anomalies):
        return pd.DataFrame(columns=["group_id", "kind", "count", "example"])
    g = anomalies.groupby(["group_id", "kind"])
    return (
        pd.DataFrame({"count": g.size(), "example": g["detail"].first().map(readable_detail)})
        .reset_index()
        .sort_values("count", ascending=False)
        .reset_index(drop=True)
    )


#: an epoch-millisecond time inside anomaly text (2001-09-09 .. 2286), or a missing one
_EPOCH_MS = re.compile(r"(?<![\d.])(1\d{12}|[2-9]\d{12})(?![\d.])")
_NO_TIME = re.compile(r"\bat None\b")


def readable_detail(text: object) -> object:
    """Anomaly text for a reader: epoch milliseconds as UTC times, ``at None`` as ``without a time``."""
    if not isinstance(text, str):
        return text
    text = _NO_TIME.sub("without a time", text)
    return _EPOCH_MS.sub(lambda m: pd.Timestamp(int(m.group(1)), unit="ms").strftime("%Y-%m-%d %H:%M:%S.%f")[:-3], text)


def skew_table(partition_skew: pd.DataFrame, group_id: str | None = None, topic: str = "*") -> pd.DataFrame:
    """Per generation (for one group, topic ``*`` = all topics): members, partitions, min/max/mean per
    member, skew ratio, idle members, moved partitions, assignor."""
    df = partition_skew
    if group_id is not None:
        df = df[df["group_id"] == group_id]
    if topic is not None and len(df):
        sub = df[df["topic"] == topic]
        df = sub if len(sub) else df
    return df.sort_values(["group_id", "generation", "topic"]).reset_index(drop=True)


#: how near a member's join/leave and the rebalance it started are
WINDOW = pd.Timedelta(seconds=60)


def member_events(
    sessions: pd.DataFrame,
    rebalances: pd.DataFrame,
    group_id: str,
    window: pd.Timedelta = WINDOW,
) -> pd.DataFrame:
    """Member joins and leaves of one group, in time order, with the cause of the rebalance the member
    started within ``window`` of it, if any (ts, member_id, event (join|leave), reason (how the
    session ended), cause)."""
    s = sessions[sessions["group_id"] == group_id]
    rows = []
    for _, r in s.iterrows():
        if pd.notna(r["joined_ts"]):
            rows.append({"ts": r["joined_ts"], "member_id": r["member_id"], "event": "join", "reason": None})
        if pd.notna(r["left_ts"]):
            rows.append(
                {"ts": r["left_ts"], "member_id": r["member_id"], "event": "leave", "reason": r["end_reason"]}
            )
    out = pd.DataFrame(rows, columns=["ts", "member_id", "event", "reason"])
    rb = rebalances[(rebalances["group_id"] == group_id) & rebalances["culprit_member_id"].notna()]
    by_member: dict[str, list[tuple[pd.Timestamp, str]]] = {}
    for m, ts, c in zip(rb["culprit_member_id"], rb["start_ts"], rb["cause"]):
        if pd.notna(ts):
            by_member.setdefault(m, []).append((ts, c))

    def cause_of(member: str, ts: pd.Timestamp) -> str | None:
        """The cause of the rebalance this member started within ``window`` of the event."""
        near = [(abs(rts - ts), c) for rts, c in by_member.get(member, []) if abs(rts - ts) <= window]
        return min(near, key=lambda x: x[0])[1] if near else None

    out["cause"] = [cause_of(m, ts) for m, ts in zip(out["member_id"], out["ts"])]
    return out.sort_values(["ts", "member_id"]).reset_index(drop=True)


def assignor_summary(partition_skew: pd.DataFrame, topic: str = "*") -> pd.DataFrame:
    """Per assignor (topic ``*`` rows): generations, mean and worst skew ratio, idle members, partitions
    moved per generation."""
    cols = ["assignor", "generations", "mean_skew", "max_skew", "idle_members", "moved_per_generation"]
    df = partition_skew[partition_skew["topic"] == topic] if len(partition_skew) else partition_skew
    if not len(df):
        return pd.DataFrame(columns=cols)
    g = df.assign(assignor=df["assignor"].fillna("unknown")).groupby("assignor")
    out = pd.DataFrame(
        {
            "generations": g.size(),
            "mean_skew": g["skew_ratio"].mean().round(3),
            "max_skew": g["skew_ratio"].max().round(3),
            "idle_members": g["idle_members"].sum(),
            "moved_per_generation": pd.to_numeric(g["moved_partitions"].mean(), errors="coerce").round(2),
        }
    ).reset_index()
    return out[cols]


#: member states that mean "not reconciled yet" (client ``MemberState`` and broker ``MemberState``)
RECONCILING_STATES = frozenset(
    {"JOINING", "RECONCILING", "ACKNOWLEDGING", "UNREVOKED_PARTITIONS", "UNRELEASED_PARTITIONS"}
)


#: the events :func:`reconciling_spans` reads (kinds and columns: read only those, never a group's heartbeats)
MEMBER_STATE_KINDS = ("member_state_changed", "member_assignment_state")
MEMBER_STATE_COLUMNS = ("group_id", "member_id", "ts", "kind", "state")


def reconciling_spans(events: pd.DataFrame | None, group_id: str | None) -> pd.DataFrame:
    """A consumer-protocol group's members while they reconcile: one row (member_id, start, end) per
    span from a member line entering a not-reconciled state (:data:`RECONCILING_STATES`: the client's
    ``transitioned from ... to RECONCILING`` or the broker's ``state=UNREVOKED_PARTITIONS``) to the
    member's next line in another state (``end`` NaT when none follows). Reads the ``events`` of kinds
    ``member_state_changed`` and ``member_assignment_state``; empty for classic groups."""
    cols = ["member_id", "start", "end"]
    if events is None or not len(events) or "kind" not in events:
        return pd.DataFrame(columns=cols)
    ev = events[events["kind"].isin(MEMBER_STATE_KINDS)]
    if group_id is not None:
        ev = ev[ev["group_id"] == group_id]
    ev = ev.dropna(subset=["member_id", "ts"]).sort_values(["member_id", "ts"])
    rows = []
    for mid, g in ev.groupby("member_id", sort=True):
        start = None
        for ts, state in zip(g["ts"], g["state"].fillna("").str.upper()):
            if state in RECONCILING_STATES:
                start = ts if start is None else start
            elif start is not None:
                rows.append((mid, start, ts))
                start = None
        if start is not None:
            rows.append((mid, start, pd.NaT))
    return pd.DataFrame(rows, columns=cols)

