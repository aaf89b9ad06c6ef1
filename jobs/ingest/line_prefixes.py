"""A supervisor's or system log's prefix on every physical line of an application's entries.

svlogd/runit and s6-log (TAI64N ``@4000…``, s6-log's ISO ``2024-05-01 13:00:00.623000000  ``) and syslog or
journald (``May  1 13:00:00 host tag[pid]: ``, ``journalctl -o short-precise`` / ``short-iso-precise``)
write their prefix in front of each *line*, so an entry the application wrote over several lines (an
Erlang report, a term ``~p`` prints over lines, a Java stack trace, a pretty-printed JSON record)
arrives as several prefixed lines, each of which looks like an entry of its own.

:func:`line_prefix` decides on a file's first lines whether to peel such a prefix from every line
before anything else reads them: when most lines carry one form of prefix, some of the texts behind
it start with the application's own timestamp (the application dates its entries) and none of the
texts without one starts with a level word (those would be entries of an undated layout, whose only
time is the prefix's: then the prefix stays, and the envelope readers read each line with its time).
After peeling, the application's lines read as they would without the supervisor: continuation lines
join their entry, and the layout column names the application's layout. The prefix's time (the
regex's ``pts`` group) is kept as the head's envelope time, the event's ``envelope_ts``, as the other
envelopes' are; the application's own time is the event's ``ts``.
Both readers call :func:`line_prefix` on the same sample and apply the regex it returns.
"""

from __future__ import annotations

import re

from jobs.ingest import general as G
from jobs.ingest import timestamps as TS

#: the forms, each the text up to the application's line (a timestamp form's separator is added per
#: file: the fewest spaces after it, so that the application's own indentation stays)
_ISO_T = r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?"
_STAMPS = {
    "tai64n": TS.TAI64N,
    "s6-iso": r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{9}",  # (s6-log's ``T``: nanoseconds, no zone)
    # (svlogd's ``-tt`` and ``-ttt``: ``YYYY-MM-DD_HH:MM:SS.xxxxx`` / ``YYYY-MM-DDTHH:MM:SS.xxxxx``, UTC)
    "svlogd-tt": r"\d{4}-\d{2}-\d{2}[_T]\d{2}:\d{2}:\d{2}\.\d{5}",
}
_SYSLOG = rf"(?:<\d{{1,3}}>)?(?P<pts>{TS.SYSLOG}|{_ISO_T}) [\w.:-]+ [^\s:\[\]]{{1,64}}(?:\[\d+\])?: "
#: share of the sample's lines that carry the prefix
MOST = 0.9
_LEADING_TS = re.compile(rf"^\[?(?:{TS.ISO}|{TS.SLASH}|{TS.DATE4J}|{TS.ERLANG}|{TS.TIME_ONLY})(?:[^\w:/]|$)")
_LEVEL_LEAD = re.compile(G.LEAD)


def line_prefix(sample: list[str]) -> str | None:
    """The regex (its ``rest`` group: the application's line; ``pts``: the prefix's time) that peels
    the prefix of a file whose first lines are ``sample``, or None when no prefix is to be peeled
    (see the module doc)."""
    lines = [t for t in sample if t.strip()]
    if len(lines) < 2:
        return None
    for form in (None, _SYSLOG):
        found = _form(lines, form)
        if found is None:
            continue
        regex, rests = found
        dated = [bool(_LEADING_TS.search(r)) for r in rests]
        if any(dated) and not all(dated) and not any(
            _LEVEL_LEAD.search(r.lstrip()) for r, d in zip(rests, dated) if not d and r.strip()
        ):
            return regex
    return None


def _form(lines: list[str], syslog: str | None) -> tuple[str, list[str]] | None:
    """(regex, the texts behind the prefix) when most ``lines`` carry the prefix form (a syslog one,
    else one of the timestamp forms), else None."""
    forms = [rf"^{syslog}"] if syslog else [rf"^(?P<pts>{f})(?P<sep>[ \t]+)" for f in _STAMPS.values()]
    for head in forms:
        rx = re.compile(head)
        ms = [rx.match(t) for t in lines]
        hits = [m for m in ms if m]
        if len(hits) < MOST * len(lines):
            continue
        if syslog:
            regex = rf"^{syslog}(?P<rest>.*)$"
        else:
            sep = min(len(m.group("sep")) for m in hits)
            regex = head.replace("(?P<sep>[ \\t]+)", f"[ \\t]{{{sep}}}") + "(?P<rest>.*)$"
        rest_rx = re.compile(regex)
        return regex, [m.group("rest") for t in lines if (m := rest_rx.match(t))]
    return None


def peel(text: str, regex: re.Pattern[str]) -> tuple[str, str | None]:
    """``text`` without the prefix (unchanged when it has none), and the prefix's time (None)."""
    m = regex.match(text)
    return (m.group("rest"), m.group("pts")) if m else (text, None)
