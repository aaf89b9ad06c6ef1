"""Literals every match of a regex holds (:mod:`jobs.ingest.needles`): the shapes read, and the byte
test never says "cannot match" of a column the regex matches."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jobs.ingest import needles as N
from jobs.ingest import records as R


@pytest.mark.parametrize(
    "regex, words",
    [
        (r"(?:^|\n)[ \t]+(?:memberId|member\.id)['\"]?:", ("memberId", "member.id")),
        (r"(?:ab|c\-d)+z", ("ab", "c-d")), (r"[(?:ab)](?:cd|ef)", ("cd", "ef")), (r"(?P<v>x)(?:cd)", ("cd",)),
        (r"a(?:x|y)?b", None), (r"a(?:x|y)*b", None), (r"a(?:x|y){0,2}b", None), (r"(?i)(?:ab|cd)", None),
        (r"x|(?:ab)", None), (r"(?:a(?:b)|c)", None), (r"(?:a|\n)", None), (r"(?:a|b.)", None), (r"abc", None),
    ],
)  # fmt: skip
def test_required_literals(regex: str, words: tuple[str, ...] | None) -> None:
    assert N.required_literals(regex) == words


def test_the_key_block_regexes_have_words() -> None:
    assert all(N.required_literals(rx) for _, rx in R.KEY_BLOCK)


_PIECES = ["\n", "\t", "  ", "'", '"', ":", " ", "memberId", "member", "Id", "group", "Group", "_id", ".id",
           "generation", "42", "g1", "x", ",", "consumerGroup", "kafka.", "\u00e9"]  # fmt: skip


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join) | st.none(), min_size=1, max_size=12))
def test_may_match_is_never_false_when_the_regex_matches(texts: list[str | None]) -> None:
    arr = pa.array(texts, pa.string())
    for sub in (arr, arr.slice(1)):
        for _, rx in R.KEY_BLOCK:
            if not N.may_match(sub, rx):
                assert not pc.any(pc.fill_null(pc.match_substring_regex(sub, rx), False)).as_py()
