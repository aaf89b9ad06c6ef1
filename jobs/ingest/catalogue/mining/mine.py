"""List a client's log statements per release tag and merge identical wordings into first/last.

    python -m jobs.ingest.catalogue.mining.mine sarama /work/.mirror/IBM+sarama/repo          # YAML draft
    python -m jobs.ingest.catalogue.mining.mine sarama /work/.mirror/IBM+sarama/repo --check  # vs data/sarama.yaml

The tags read are the last patch release of each minor line (:data:`clients.CLIENTS`); the draft
lists the tags where some wording appears or disappears (plus the oldest and newest), which is what
a catalogue file's ``versions`` holds. ``--check`` fails when a statement of the catalogue file is not
found with its ``format``, ``first`` and ``last``, or when a mined statement is missing from it.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

import yaml

from jobs.ingest.catalogue import DATA_DIR
from jobs.ingest.catalogue.mining.clients import CLIENTS, Client, Mined


def _git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout


def tags(client: Client, repo: str) -> list[str]:
    """The last patch tag of each minor release line since ``client.since``, oldest first."""
    best: dict[tuple[int, int], tuple[int, str]] = {}
    for t in _git(repo, "tag").split():
        m = re.match(client.tag_rx, t)
        if not m:
            continue
        major, minor, patch = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
        if (major, minor) < client.since:
            continue
        if best.get((major, minor), (-1, "")) < (patch, t):  # (equal numbers: the later pre-release)
            best[(major, minor)] = (patch, t)
    return [best[k][1] for k in sorted(best)]


def mine_tag(client: Client, repo: str, tag: str) -> list[Mined]:
    out: list[Mined] = []
    for path in client.files:
        try:
            src = _git(repo, "show", f"{tag}:{path}")
        except subprocess.CalledProcessError:
            continue
        keep = client.keep.get(path)
        out.extend(m for m in client.mine(path, src) if not keep or re.search(keep, m.text))
    return out


def merged(client: Client, repo: str) -> tuple[list[str], list[dict]]:
    """(tags read, statements) with each wording's first and last tag and its place at the last."""
    read = tags(client, repo)
    by_key: dict[tuple[str, str, str], dict] = {}
    for tag in read:
        for m in mine_tag(client, repo, tag):
            key = (os.path.basename(m.file), m.level, m.text)
            st = by_key.setdefault(key, {"first": tag, "format": m.format, "level": m.level})
            st.update(last=tag, file=m.file, line=m.line, format=m.format, text=m.text, args=list(m.args))
    read = [t for t in read if any(s["first"] == t or s["last"] == t for s in by_key.values())] or read
    return read, list(by_key.values())


def draft(client: Client, repo: str) -> str:
    read, sts = merged(client, repo)
    boundary = sorted({read[0], read[-1]} | {s["first"] for s in sts} | {s["last"] for s in sts}, key=read.index)
    out = [f"versions: {boundary}", "statements:"]
    for s in sts:
        out.append(yaml.safe_dump([{k: s[k] for k in ("format", "level", "file", "line", "first", "last")}],
                                  sort_keys=False, allow_unicode=True, width=200).rstrip())
    return "\n".join(out) + "\n"


def check(client: Client, repo: str, data: str) -> list[str]:
    """Differences between the catalogue file and the mined statements."""
    with open(data, encoding="utf-8") as fh:
        cat = yaml.safe_load(fh)
    _, sts = merged(client, repo)
    versions = [str(v) for v in cat["versions"]]
    mined = {(os.path.basename(s["file"]), s["format"], s["level"].upper()): s for s in sts}
    problems = []
    seen = set()
    for st in cat["statements"]:
        key = (os.path.basename(st.get("file", "")), st.get("format", ""), st.get("level", "INFO").upper())
        m = mined.get(key)
        if m is None:
            problems.append(f"{st['id']}: format not mined: {key}")
            continue
        seen.add(key)
        first = st.get("first") or versions[0]
        last = st.get("last") or versions[-1]
        if (first, last) != (m["first"], m["last"]):
            problems.append(f"{st['id']}: first/last {first}..{last}, mined {m['first']}..{m['last']}")
    problems += [f"not in the catalogue: {k}" for k in mined if k not in seen]
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("client", choices=sorted(CLIENTS))
    ap.add_argument("repo", help="the fetched mirror's git directory")
    ap.add_argument("--check", nargs="?", const="", help="compare with a catalogue file (default data/<client>.yaml)")
    a = ap.parse_args(argv)
    client = CLIENTS[a.client]
    if a.check is None:
        sys.stdout.write(draft(client, a.repo))
        return 0
    problems = check(client, a.repo, a.check or os.path.join(DATA_DIR, f"{client.name}.yaml"))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
