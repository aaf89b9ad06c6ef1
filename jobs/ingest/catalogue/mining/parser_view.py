"""What the parser makes of each statement of a catalogue file today (a proposal to check by reading,
never a mapping by itself).

``python -m jobs.ingest.catalogue.mining.parser_view SOURCE [--all]`` prints, per statement (only the
``unmapped`` ones unless ``--all``): id, level, the declared kind, what the golden line became (an event
kind with its fields, ``Q:<reason>`` for a quarantine row, ``-`` for nothing) and the line.
"""

from __future__ import annotations

import argparse

from jobs.ingest.catalogue import UNMAPPED, load, render_line


def read(source: str, everything: bool = False) -> list[tuple]:
    from jobs.ingest.parse import parse_bytes

    src = next(s for s in load() if s.name == source)
    items = [(st, render_line(src, st)) for st in src.statements if everything or st.kind == UNMAPPED]
    data = "\n".join(line for _, line in items).encode("utf-8") + b"\n"
    events, quarantine, _ = parse_bytes(data, f"{source}.log")
    ev: dict[int, dict] = {}
    for e in events.to_pylist():
        ev.setdefault(e["line_no"], e)
    bad = {q["line_no"]: q["reason"] for q in quarantine.to_pylist()}
    out = []
    for i, (st, line) in enumerate(items, start=1):
        e = ev.get(i)
        got = e["kind"] if e else (f"Q:{bad[i]}" if i in bad else "-")
        out.append((st, got, e, line))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("source")
    ap.add_argument("--all", action="store_true")
    a = ap.parse_args()
    for st, got, e, line in read(a.source, a.all):
        fields = {k: v for k, v in (e or {}).items() if v not in (None, [], "") and k in (
            "group_id", "member_id", "generation", "reason", "state", "error", "client_id", "partitions")}
        print(f"{st.id}\t{st.level}\t{st.kind}\t{got}\t{fields}\n    {line}")


if __name__ == "__main__":
    main()
