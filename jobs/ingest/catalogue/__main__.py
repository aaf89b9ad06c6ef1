"""``python -m jobs.ingest.catalogue [--markdown]``: the catalogue's coverage per source and tag."""

from __future__ import annotations

import argparse

from jobs.ingest.catalogue import coverage, load


def table(markdown: bool) -> str:
    rows = coverage()
    out = []
    if markdown:
        out += ["| source | repository | tag | statements | mapped | events |", "|---|---|---|---|---|---|"]
    repos = {s.name: s.repo for s in load()}
    for c in rows:
        if markdown:
            out.append(f"| {c.source} | {repos[c.source]} | {c.version} | {c.statements} | {c.mapped} | {c.events} |")
        else:
            out.append(f"{c.source:24} {c.version:14} {c.statements:5} {c.mapped:5} {c.events:5}")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--markdown", action="store_true", help="a Markdown table")
    print(table(ap.parse_args().markdown))


if __name__ == "__main__":
    main()
