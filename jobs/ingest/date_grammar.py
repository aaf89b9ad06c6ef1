"""The date-time grammar: :data:`jobs.ingest.date_patterns.PATTERNS` compiled into regexes, and
their reading into ISO text.

Each pattern becomes one :class:`Form`: a regex with named fields (``y``/``y2``, ``mo``/``mon``,
``d``, ``h``, ``mi``, ``s``, ``f``, ``ap``, ``z``, ``zs``, ``zn``) read a little wider than the
pattern prints (:mod:`jobs.ingest.date_patterns`), and its bare spelling (no names) for the
locator. Patterns that give the same regex are one form (the first one's provenance). The bare spelling
writes numbers as digits only, so forms share prefixes (:func:`trie_regex`); the named one checks
the ranges.

**Ambiguity.** Patterns of one *family* (the same date fields and separators: ``yy/MM/dd``,
``MM/dd/yy``, ``dd/MM/yy``, ``MM/dd/yyyy``, ``dd/MM/yyyy`` … are all ``n/n/n``) may read the same
text. A file is read with one member of each family: the first one, in the order of
:data:`~jobs.ingest.date_patterns.PATTERNS`, that reads every value of that family in the file (a
valid month, a day that exists in it), else the one that reads most (:func:`file_choices`). So the
Spark/Hadoop ``yy/MM/dd`` is read unless a value cannot be one (``12/25/24``), US ``MM/dd/yyyy``
unless a first field is > 12 (then ``dd/MM/yyyy``), for the whole file, never per line. Without a
file (:func:`to_iso` of one value), the first member that reads the value.

Fractions are truncated to the millisecond (the tables are in ms). A zone name of
:data:`~jobs.ingest.date_patterns.ZONE_NAMES` with one meaning becomes its offset; an ambiguous one
(``CST``) is dropped (the time is read in ``ingest.default_timezone``).
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from functools import lru_cache

from jobs.ingest.date_patterns import PATTERNS, ZONE_NAMES, DatePattern

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_MONTHS_LONG = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
                "October", "November", "December")  # fmt: skip
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_DAYS_LONG = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_NAMES = "|".join(sorted((z for z in ZONE_NAMES if z != "Z"), key=len, reverse=True))
_OFFSET = r"Z|[+-]\d{2}(?::?\d{2})?"
#: the zone a pattern that prints none may still end with: attached, after a space, a name after either
ZONE_OPT = rf"(?:(?P<z>{_OFFSET})\b| (?P<zs>[+-]\d{{2}}:?\d{{2}})\b)?(?: (?P<zn>{_NAMES})\b)?"
_FRACTION_SEPS = {".", ",", ":"}
_DATE_TIME_SEPS = {" ", "T", ".", "_"}
#: what may stand between a pattern's date and its time: its own separator read wider (a space, ``T``,
#: ``.``, ``_``), or the end of one column and the start of the next, when a layout or an export writes
#: the date and the time as two fields (``date,time,level,…`` CSV and TSV exports, ``"2024-05-01","13:00:00"``,
#: ``2024-05-01 | 13:00:00``, ``2024-05-01;13:00:00``)
DATE_TIME_SEP = r'(?:[ T._]|"?[,;\t]"? ?| ?\| ?)'
_TOKEN = re.compile(r"'[^']*'|([A-Za-z@])\1*|.")
_NAMED = re.compile(r"\(\?P<\w+>")

_FIELDS: dict[str, str] = {
    "yyyy": r"(?P<y>[12]\d{3})", "yy": r"(?P<y2>\d{2})",
    "MMMM": rf"(?P<mon>{'|'.join(_MONTHS_LONG)})", "MMM": rf"(?P<mon>{'|'.join(MONTHS)})",
    "MM": r"(?P<mo>0[1-9]|1[0-2])", "M": r"(?P<mo>1[0-2]|0?[1-9])",
    "dd": r"(?P<d>0[1-9]|[12]\d|3[01])", "d": r"(?P<d>3[01]|[12]\d|0?[1-9])",
    "HH": r"(?P<h>[01]\d|2[0-3])", "H": r"(?P<h>2[0-3]|[01]?\d)",
    "hh": r"(?P<h>0[1-9]|1[0-2])", "h": r"(?P<h>1[0-2]|0?[1-9])",
    "mm": r"(?P<mi>[0-5]\d)", "ss": r"(?P<s>[0-5]\d|60)",
    "a": r"(?P<ap>[AP]M|[ap]m)", "EEEE": f"(?:{'|'.join(_DAYS_LONG)})", "EEE": f"(?:{'|'.join(_DAYS)})",
    "z": rf"(?P<zn>{_NAMES})", "o": "(?:st|nd|rd|th)", "@": "[IWEFD]", "pp": " ?",
}  # fmt: skip
#: the locator's spelling of the numeric fields: digits only (the reading checks the ranges), so that
#: forms share their prefixes (:func:`trie_regex`)
_LOOSE = {_FIELDS[k]: r"\d{4}" if k == "yyyy" else r"\d{2}" if len(k) == 2 else r"\d{1,2}"
          for k in ("yyyy", "yy", "MM", "M", "dd", "d", "HH", "H", "hh", "h", "mm", "ss")}  # fmt: skip
_OFFSET_LETTERS = set("XxZ")
_DATE_LETTERS = set("yMd")


@dataclass(frozen=True, slots=True)
class Form:
    """A compiled pattern: ``named`` (fields by name), ``bare`` (no names, for the locator, without
    the optional zone: :data:`ANY_DATED` puts it once after all forms),
    ``family`` (its date fields and separators), ``weight`` (fields it requires: the locator tries
    heavier forms first at one position), ``dated`` (it prints a month and day), ``source``."""

    named: re.Pattern[str]
    bare: str
    pieces: tuple[str, ...]
    family: str
    weight: int
    dated: bool
    source: DatePattern


def _field(tok: str) -> str:
    if tok in _FIELDS:
        return _FIELDS[tok]
    c = tok[0]
    if c in "Sn":
        return rf"(?P<f>\d{{{len(tok)}}})"
    if c in _OFFSET_LETTERS:
        return rf"(?P<z>{_OFFSET})"
    if c == "E":
        return _FIELDS["EEE"]
    if c == "y":
        return _FIELDS["yyyy"]
    if c == "'":
        return re.escape(tok[1:-1]) if len(tok) > 2 else "'"
    if c.isalpha():
        raise ValueError(f"date pattern letter {tok!r} is not in the grammar")
    return re.escape(tok)


def _family_letter(tok: str) -> str:
    """A date token's part of a family: ``Y`` a four-digit year, ``n`` another number, ``a`` a name."""
    c = tok[0]
    if c == "y":
        return "Y" if len(tok) >= 4 else "n"
    if c == "M" and len(tok) >= 3 or c == "E":
        return "a"
    return "n" if c in "Md" else tok


def compile_pattern(p: DatePattern) -> Form:
    """The :class:`Form` of one pattern (its wider reading: see :mod:`jobs.ingest.date_patterns`)."""
    toks = [m.group(0) for m in _TOKEN.finditer(p.pattern)]
    first_hour = next((i for i, t in enumerate(toks) if t[0] in "Hh"), len(toks))
    dated = any(t[0] in "Md" for t in toks[:first_hour])
    out: list[str] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        lit = t[1:-1] if t.startswith("'") and len(t) > 2 else t
        if i == first_hour - 1 and dated and lit in _DATE_TIME_SEPS:
            out.append(DATE_TIME_SEP)
        elif t == " " and i + 1 < len(toks) and toks[i + 1] == "a":
            out.append(" ?")
        elif t in _FRACTION_SEPS and i + 1 < len(toks) and toks[i + 1][0] in "Sn" and toks[i - 1] == "ss":
            out.append(r"(?:[.,:](?P<f>\d{1,9}))?" if t == ":" else r"(?:[.,](?P<f>\d{1,9}))?")
            i += 2
            continue
        else:
            out.append(_field(t))
            if t == "ss" and not (i + 1 < len(toks) and (toks[i + 1][0] in "Sn" or
                                                        (toks[i + 1] in _FRACTION_SEPS and i + 2 < len(toks) and toks[i + 2][0] in "Sn"))):
                out.append(r"(?:[.,](?P<f>\d{1,9}))?")
        i += 1
    letters = {t[0] for t in toks if t[0].isalpha()}
    pieces = tuple(_LOOSE.get(x) or _NAMED.sub("(?:", x) for x in out)
    if not letters & (_OFFSET_LETTERS | {"z"}) and toks and toks[-1][0] in "sSna":
        out.append(ZONE_OPT)
    named = "".join(out)
    date_end = first_hour - 1 if first_hour and toks[first_hour - 1].strip("'") in _DATE_TIME_SEPS else first_hour
    family = "".join(_family_letter(t) for t in toks[:date_end])
    weight = sum(1 for t in toks if t[0].isalpha() and t[0] not in "Sn" and t != "pp")
    return Form(re.compile(named), "".join(pieces), pieces, family, weight, dated, p)


def _forms() -> tuple[Form, ...]:
    seen: dict[str, Form] = {}
    for p in PATTERNS:
        f = compile_pattern(p)
        seen.setdefault(f.named.pattern, f)
    return tuple(seen.values())


#: every form, in the order of the patterns (the preference within a family)
FORMS: tuple[Form, ...] = _forms()
#: the dated forms, heaviest first (the locator's alternation: at one position the first that matches wins)
DATED: tuple[Form, ...] = tuple(sorted((f for f in FORMS if f.dated), key=lambda f: -f.weight))
_ZONE_BARE = _NAMED.sub("(?:", ZONE_OPT)


def trie_regex(seqs: list[tuple[str, ...]]) -> str:
    """One regex for alternatives given as sequences of pieces, common prefixes written once (the
    regex engines try one branch per distinct first piece instead of one per form). Siblings keep
    the order in which they first appear; a form that ends where a longer one goes on is tried last."""
    firsts: dict[str, list[tuple[str, ...]]] = {}
    ends = False
    for q in seqs:
        if q:
            firsts.setdefault(q[0], []).append(q[1:])
        else:
            ends = True
    alts = [head + trie_regex(rest) for head, rest in firsts.items()]
    if not alts:
        return ""
    if len(alts) == 1 and not ends:
        return alts[0]
    return "(?:" + "|".join(alts) + ("|" if ends else "") + ")"


#: the locator's alternation of the dated forms (no groups), the optional zone once after them all
ANY_DATED = trie_regex([f.pieces for f in DATED]) + _ZONE_BARE
#: a whole value of a dated form
IS_DATED = "^" + ANY_DATED + "$"
#: a whole value of a dated form (group k + 1: the form ``DATED[k]``)
WHOLE = "^(?:" + "|".join(f"({f.bare})" for f in DATED) + ")" + _ZONE_BARE + "$"
_WHOLE = re.compile(WHOLE)
_INDEX = {id(f): k for k, f in enumerate(DATED)}
_FAMILY: dict[str, tuple[int, ...]] = {}
for _k, _f in sorted(enumerate(DATED), key=lambda kf: FORMS.index(kf[1])):
    _FAMILY[_f.family] = (*_FAMILY.get(_f.family, ()), _k)


def _offset(z: str) -> str:
    if z == "Z":
        return "Z"
    z = z.replace(":", "")
    return f"{z[:3]}:{z[3:5] or '00'}"


def _zone(g: dict[str, str | None]) -> str:
    if g.get("z") or g.get("zs"):
        return _offset(g.get("z") or g.get("zs") or "")
    zn = g.get("zn")
    off = ZONE_NAMES.get(zn) if zn else None
    if off is None:
        return ""
    sign = "-" if off < 0 else "+"
    return f"{sign}{abs(off) // 60:02d}:{abs(off) % 60:02d}"


def read_as(ts: str, k: int, year: int | None = None) -> str | None:
    """ISO text (``yyyy-MM-dd HH:mm:ss.SSS`` and the zone) of ``ts`` read with form ``DATED[k]``,
    None when it does not read it (no match, no such day, a year-less form without ``year``)."""
    m = DATED[k].named.fullmatch(ts)
    if m is None:
        return None
    g = m.groupdict()
    y = int(g["y"]) if g.get("y") else 2000 + int(g["y2"]) if g.get("y2") else year
    if y is None:
        return None
    mon = g.get("mon")
    mo = MONTHS.index(mon[:3]) + 1 if mon else int(g["mo"] or 0)
    d, h = int(g["d"]), int(g["h"])
    if not 1 <= mo <= 12 or not 1 <= d <= calendar.monthrange(y, mo)[1]:
        return None
    if ap := g.get("ap"):
        h = h % 12 + (12 if ap.upper() == "PM" else 0)
    ms = (g.get("f") or "")[:3].ljust(3, "0")
    s = min(int(g["s"]), 59)  # (a leap second is the last second of its minute)
    return f"{y:04d}-{mo:02d}-{d:02d} {h:02d}:{g['mi']}:{s:02d}.{ms}{_zone(g)}"


def is_dated(ts: str) -> bool:
    """Whether ``ts`` is, as a whole, one of the grammar's dated forms."""
    return _WHOLE.match(ts) is not None


def _first(ts: str) -> int | None:
    m = _WHOLE.match(ts)
    return None if m is None else (m.lastindex or 1) - 1


@lru_cache(maxsize=4096)
def to_iso(ts: str, year: int | None = None) -> str | None:
    """ISO text of one value of a dated form: the first member of its family that reads it."""
    k = _first(ts)
    if k is None:
        return None
    for j in (*_FAMILY[DATED[k].family], *range(len(DATED))):
        if (iso := read_as(ts, j, year)) is not None:
            return iso
    return None


def file_choices(values: list[str]) -> dict[str, int]:
    """Per family of the file's values (distinct, dated forms): the member that reads them all (the
    first in the grammar's order), else the one that reads most."""
    fam: dict[str, list[str]] = {}
    for v in values:
        if (k := _first(v)) is not None and len(_FAMILY[DATED[k].family]) > 1:
            fam.setdefault(DATED[k].family, []).append(v)
    out: dict[str, int] = {}
    for family, vals in fam.items():
        members = _FAMILY[family]
        counts = [sum(read_as(v, j, 2000) is not None for v in vals) for j in members]
        out[family] = members[max(range(len(members)), key=lambda i: (counts[i], -i))]
    return out


def iso_texts(values: list[str | None], year: int | None = None) -> list[str | None]:
    """ISO text of each value of one file (None: no dated form reads it), its families' members chosen
    for the whole file (:func:`file_choices`)."""
    distinct = sorted({v for v in values if v is not None})
    choice = file_choices(distinct)
    iso: dict[str, str | None] = {}
    for v in distinct:
        k = _first(v)
        if k is None:
            iso[v] = None
            continue
        j = choice.get(DATED[k].family)
        iso[v] = (read_as(v, j, year) if j is not None else None) or to_iso(v, year)
    return [None if v is None else iso[v] for v in values]
