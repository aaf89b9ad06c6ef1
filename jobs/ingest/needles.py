"""Literals every match of a regex holds, and the byte test that skips a regex kernel on a column
that holds none of them (:func:`may_match`: an RE2 kernel compiles its pattern on every call; a
search of the column's bytes costs far less and usually tells that the pattern cannot match).

Only one simple shape is read (:func:`required_literals`): a group ``(?:a|b|...)`` at the top
level of the regex, neither optional nor repeated, whose alternatives are plain words (letters,
digits, ``_`` and the escaped ``\\.`` ``\\-``), in a regex without a top-level alternation or an
inline flag. Every match of such a regex matches that group, so it holds one of the words.
"""

from __future__ import annotations

import re
from functools import cache

import pyarrow as pa

from jobs.ingest import pyregex as PR
from jobs.ingest.rawbytes import may_contain

_WORD = re.compile(r"(?:\w|\\[.\-])+", re.ASCII)


@cache
def required_literals(regex: str) -> tuple[str, ...] | None:
    """The words one of which every match of ``regex`` holds (see the module docstring), or None."""
    if "(?" in regex.replace("(?:", "").replace("(?P<", "") or PR.top_level_alternation(regex):
        return None
    opens: list[int] = []
    for i, ch, depth in PR.syntax(regex):
        if ch == "(" and depth == 1:
            opens = [i]
        elif ch == ")" and depth == 0 and opens:
            start, opens = opens[0], []
            if not regex.startswith("(?:", start) or regex[i + 1 : i + 2] in ("?", "*", "{"):
                continue
            alts = regex[start + 3 : i].split("|")
            if all(_WORD.fullmatch(a) for a in alts):
                return tuple(a.replace("\\", "") for a in alts)
    return None


def may_match(a: pa.Array, regex: str) -> bool:
    """False only when no string of ``a`` can match ``regex``: it has :func:`required_literals` and
    the column's bytes hold none of them (:func:`jobs.ingest.rawbytes.may_contain`); True otherwise."""
    words = required_literals(regex)
    return words is None or any(may_contain(a, w.encode()) for w in words)
