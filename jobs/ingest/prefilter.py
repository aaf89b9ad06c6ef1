"""The group prefilter (:data:`jobs.ingest.dialects.GROUP_PREFILTER`) on a column of messages, in
three cheaper searches: the speed form of :func:`group_candidates_plain` (one search of the whole
alternation, the definition; ``tests/ingest/test_prefilter.py`` checks they are equal).

The prefilter is an alternation whose last alternative, :data:`jobs.ingest.dialects_callbacks.PREFILTER`
(a rebalance callback's verb, then a client's printed partition list in any of its forms), costs about
three quarters of the whole search with either engine (measured on the mixed benchmark corpus). A search of an alternation
matches exactly when one of its alternatives does, so the messages are searched for the other
alternatives first (:data:`PARTS.base`), and only the messages left are searched for the callback
alternative, and of those only the ones holding its leading verb (:data:`PARTS.verb`, ``\\b(?:verbs)\\b``:
every match of the alternative starts with one): on the mixed benchmark corpus no message is left for
the expensive search. When the table's prefilter is not built that way the plain search runs.

:func:`group_candidates_by_wording` answers that search once per *wording* of a message per
process (:mod:`jobs.ingest.wordings`: the message with its digits written as ``0``; the prefilter
cannot tell them apart, checked on its text when the module loads), so the files of a task that
repeat their messages' wordings run no search at all; when the prefilter names a particular digit
it is :func:`group_candidates` itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from jobs.ingest import dialects as D
from jobs.ingest import dialects_callbacks as CB
from jobs.ingest import pyregex as PR
from jobs.ingest.arrowops import mask, take
from jobs.ingest.wordings import WordingMemo, digit_invariant


@dataclass(frozen=True)
class Parts:
    """:data:`D.GROUP_PREFILTER` as ``base|callback``, and the ``verb`` every match of ``callback``
    holds."""

    base: str
    callback: str
    verb: str


def leading_word_group(regex: str) -> str | None:
    """The ``\b(?:...)\b`` a regex starts with (a group of alternatives between word boundaries),
    or None."""
    if not regex.startswith(r"\b(?:"):
        return None
    for i, ch, depth in PR.syntax(regex):
        if ch == ")" and depth == 0:
            return regex[: i + 3] if regex[i + 1 : i + 3] == r"\b" else None
    return None


def split_prefilter(prefilter: str, callback: str) -> Parts | None:
    """The parts of ``prefilter`` when it is ``base|callback``, ``callback`` has no alternation at
    its top level and starts with a :func:`leading_word_group` (then every match of ``callback``
    holds a match of that group); else None."""
    tail = "|" + callback
    verb = leading_word_group(callback)
    if not prefilter.endswith(tail) or len(prefilter) == len(tail) or verb is None:
        return None
    base = prefilter[: -len(tail)]
    if any(ch == "|" and depth == 0 for _, ch, depth in PR.syntax(callback)):
        return None
    # (the "|" before the callback is at the top level, and no flag group of the base reaches it)
    if (len(base), "|", 0) not in set(PR.syntax(prefilter)) or re.search(r"\(\?[A-Za-z-]+\)", base):
        return None
    return Parts(base, callback, verb)


#: the parts of the table's prefilter (None: the plain search runs)
PARTS = split_prefilter(D.GROUP_PREFILTER, CB.PREFILTER)


def group_candidates_plain(messages: pa.Array) -> np.ndarray:
    """Mask of the messages the group prefilter matches (null: no): the definition."""
    return mask(PR.match(messages, D.GROUP_PREFILTER))


def group_candidates(messages: pa.Array, parts: Parts | None = PARTS) -> np.ndarray:
    """:func:`group_candidates_plain`, searching the callback alternative only where it can match."""
    if parts is None:
        return group_candidates_plain(messages)
    hit = mask(PR.match(messages, parts.base))
    rest = np.nonzero(~hit)[0]
    if not len(rest):
        return hit
    sub = messages if len(rest) == len(messages) else take(messages, rest)
    verb = mask(PR.match(sub, parts.verb))
    if verb.any():
        vpos = np.nonzero(verb)[0]
        cb = mask(PR.match(take(sub, vpos), parts.callback))
        hit[rest[vpos[cb]]] = True
    return hit


def _by_wording() -> WordingMemo | None:
    """The memo of :func:`group_candidates` by wording, when every search it runs is digit-invariant."""
    searched = (D.GROUP_PREFILTER,) if PARTS is None else (PARTS.base, PARTS.verb, PARTS.callback)
    return WordingMemo(group_candidates) if all(map(digit_invariant, searched)) else None


_MEMO = _by_wording()


def group_candidates_by_wording(messages: pa.Array) -> np.ndarray:
    """:func:`group_candidates`, answered once per wording of a message in this process."""
    return _MEMO(messages) if _MEMO is not None else group_candidates(messages)
