"""The README stays one page for users and stays true: its table list is the schemas', its option tables
are the command line's, and every link of the README and of docs/ leads somewhere that exists."""

from __future__ import annotations

import pathlib
import re

import pytest

from jobs import schemas
from jobs.cli import build_parser

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: pages linked before they exist (none: every link must lead to a page)
ALLOWED_MISSING: set[str] = set()


def _text(path: pathlib.Path = README) -> str:
    return path.read_text(encoding="utf-8")


def _section(text: str, title: str) -> str:
    return text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def _anchors(path: pathlib.Path) -> set[str]:
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", _text(path), re.M)}


def test_the_readme_is_one_page_that_starts_with_the_two_commands():
    lines = _text().splitlines()
    assert len(lines) <= 250
    assert lines[:6] == [
        "# rebalance-lens",
        "",
        "```bash",
        "./spark-submit.sh --sample    # sets up .venv on first use, runs the job on the bundled sample logs → ./lakehouse",
        "./tests/run                   # sets up .venv on first use, runs the test suite (exactly what .ci/run runs)",
        "```",
    ]
    # "use it on your logs" within the first screen (about 60 lines)
    assert any(line == "## Use it on your logs" for line in lines[:60])


def test_the_readme_lists_every_table_once_with_a_link():
    listed = re.findall(r"^- \[`(\w+)`\]\(docs/tables\.md#(\w+)\)", _section(_text(), "Tables"), re.M)
    assert sorted(name for name, _ in listed) == sorted(schemas.TABLES)
    assert all(name == anchor for name, anchor in listed)


def _options(parser) -> set[str]:
    return {s for a in parser._actions for s in a.option_strings if s.startswith("--") and s != "--help"}


def _subparser(name: str):
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return sub.choices[name]


@pytest.mark.parametrize("command", ["run", "report"])
def test_the_readme_option_tables_are_the_command_line(command):
    section = _section(_text(), "Command line")
    table = section.split(f"Options of `{command}`:", 1)[1].split("\n\n", 2)[1]
    documented = set(re.findall(r"^\| `(--[\w-]+)", table, re.M))
    assert documented == _options(_subparser(command))


def _links(path: pathlib.Path):
    for m in re.finditer(r"\]\(([^)\s]+)\)", _text(path)):
        target = m.group(1)
        if re.match(r"\w+://|mailto:", target):
            continue
        yield target


def _pages():
    return [README, *sorted((ROOT / "docs").rglob("*.md"))]


@pytest.mark.parametrize("page", _pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_somewhere(page):
    for target in _links(page):
        file, _, anchor = target.partition("#")
        dest = (page.parent / file).resolve() if file else page
        rel = dest.relative_to(ROOT).as_posix() if dest.is_relative_to(ROOT) else str(dest)
        if not dest.exists():
            assert rel in ALLOWED_MISSING, f"{page.name}: broken link {target}"
            continue
        if anchor and dest.suffix == ".md":
            assert anchor in _anchors(dest), f"{page.name}: no heading for #{anchor} in {rel}"


def test_the_docs_are_current_documentation_not_history():
    for page in _pages():
        if "design" in page.relative_to(ROOT).parts:  # design records are dated on purpose
            continue
        text = _text(page)
        for pattern in (r"\bissue \d+", r"\bbefore this work\b", r"\bsessions? ago\b", r"\bno longer\b"):
            assert not re.search(pattern, text, re.I), f"{page.relative_to(ROOT)}: {pattern}"
