"""Envelopes: what a runtime, shipper, system log or export wrapped around an application's line.

A physical line is zero or more envelopes, then an application record, then the message. This
module peels the envelopes, recursively (a JSON log inside a docker record inside a CRI line),
rejoins what a runtime split, and hands the readers the innermost line to read with the layouts:

==================================  ===============================================  ==============
envelope                            shape                                            label
==================================  ===============================================  ==============
CRI (containerd, CRI-O)             ``<RFC3339 time> stdout|stderr P|F <text>``     ``cri+``
docker json-file, fluentd lines     ``{"log":"<line>\\n","stream":..,"time":..}``    ``docker+``
JSON with a line under a line key   journald ``MESSAGE``, CloudWatch ``@message``,   by key
                                    Cloud Logging ``textPayload``, Splunk ``_raw``
Fluent Bit / fluentd ``stdout``     ``[N] tag: [epoch, {"log"=>"…", …}]``            ``fluentbit+``
syslog RFC 5424                     ``<PRI>1 time host app procid msgid [SD] msg``   ``syslog+``
syslog RFC 3164, journalctl         ``<PRI>Mmm dd hh:mm:ss host tag[pid]: msg``,     ``syslog+``
``-o short-iso/-precise``           ``2024-…T…+0000 host unit[pid]: msg``
stern                               ``<pod-xxxxx> <container> <line>``               ``stern+``
a JSON record's tail (cut before    ``…"key":"<line>"}`` (:func:`string_tail`)        ``json-tail+``
its brace)
==================================  ===============================================  ==============

Application records (:mod:`jobs.ingest.records`: JSON of any common shape, object dumps of other
languages (:mod:`jobs.ingest.literals`: ``util.inspect``, Python ``repr``, Ruby hashes; also as the fields
printed in front of a message, :func:`_object_head`), logfmt,
`` | `` columns, CSV exports) whose message is itself a line, or a nested record, are envelopes too;
a record printed over several lines is joined into one (:func:`record_spans`: read at the line of
its message key, its other lines are that line's pieces); the others are rewritten
as one canonical JSON line the ``json`` layout reads (layout ``gelf+json``, ``logfmt+json``, …).

Which lines are offered (:func:`json_offered`, :func:`text_offered`; the same decision in both
readers): a JSON line with a key that carries a line or a message the ``json`` layout does not
read (``log``, ``MESSAGE``, ``short_message``, ``event`` …) before the layouts; a line of another
shape only when no known layout reads it. :func:`peel_lines` returns, per offered line, the text
to read (:class:`Peeled`): ``pts`` is the time of the nearest envelope that wrote one (the
application's own timestamp, read by the layouts, wins over it), ``label`` the envelopes' names.

Rejoining: a CRI ``P`` piece, and a docker record whose ``log`` does not end in ``\\n``, continue
in the next line of the same envelope and stream; the pieces are joined into the first one, the
others are its continuation lines (``absorbed``). An envelope that does not parse falls back to the
text it still holds (a cut JSON or Fluent Bit record: its ``log``/``message`` value so far); one
holding none is ``unreadable_envelope`` (``bad``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache

import pyarrow as pa

from jobs.ingest import epoch_ms as EM
from jobs.ingest import layouts as L
from jobs.ingest import literals as LIT
from jobs.ingest import records as R
from jobs.ingest import timestamps as TS
from jobs.ingest.pyregex import translate

_ISO_T = r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})"
CRI = rf"^(?P<t>{_ISO_T}) (?P<s>stdout|stderr) (?P<f>[PF])(?: (?P<x>.*))?$"
FLUENT = (
    r"^\[\d+\] (?P<tag>[^\s:]+): \[\[?(?P<t>\d{9,10}(?:\.\d{1,9})?)(?:, \{[^{}]*\}\])?, \{(?P<h>.*)\}\]$"
)
FLUENT_HEAD = r"^\[\d+\] [^\s:]+: \[\[?(?P<t>\d{9,10}(?:\.\d{1,9})?)"
SYSLOG5424 = (
    r"^(?:<\d{1,3}>)?1 (?P<t>\S+) (?P<host>\S+) (?P<tag>\S+) \S+ \S+ (?:-|(?:\[(?:[^\]\\]|\\.)*\])+)(?: (?P<x>.*))?$"
)
SYSLOG = (
    rf"^(?:<\d{{1,3}}>)?(?P<t>{TS.SYSLOG}|{_ISO_T}) (?P<host>[\w.:-]+) "
    r"(?P<tag>[^\s:\[\]]{1,64})(?:\[\d+\])?: (?P<x>.*)$"
)
STERN = r"^(?P<pod>[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?-[a-z0-9]{5}) (?P<ctr>[a-z0-9](?:[a-z0-9-]*[a-z0-9])?) (?P<x>.+)$"

#: the start of an object dump that is not JSON (:mod:`jobs.ingest.literals`): a JS object literal
#: (``{ level: 'INFO'``), a Python dict repr (``{'level': 'INFO'``), a Ruby hash (``{:level=>``,
#: Ruby 3.4's ``{level: "info"``; ``{"level"=>`` is :data:`SNIFF_JSON`'s ``"=>``). Its second
#: character is never ``"``: the fast reader tests only such lines
LITERAL_START = r"^\{ ?(?:[A-Za-z_$][\w$]*: |'[^'\n]{1,64}': |:[A-Za-z_][\w]*[?!]? ?=>)"
#: the first line of a record printed over several lines: a line that opens an object and does not
#: close it (a JSON or literal record: ``{``, ``{'level': 'INFO',``, ``  {`` in a pretty JSON array)
OPENER = r"^(?:\{.*[^},\s]|\{)\s*,?\s*$|^[ \t]{1,8}\{\s*$"
#: at most this many lines are one record
RECORD_LINES = 200
#: JSON lines offered before the layouts: a line starting with ``{`` (:data:`JSON_START`) that
#: has a key that carries a line, a message the json layout does not read as such (a nested
#: record, a whole log line, a record under a wrapper key of any name: ``{"applicationLog":{…,
#: "message":…}}``), or a numeric level (Bunyan, pino, GELF)
JSON_START = r"^\s*\{"
SNIFF_JSON = (
    r'"(?:log|MESSAGE|@message|textPayload|short_message|full_message|_raw|event)"\s*:\s*"'
    r'|"(?:jsonPayload"\s*:\s*\{|__REALTIME_TIMESTAMP"|(?:level|severity)"\s*:\s*\d)'
    r'|"(?:message|msg)"\s*:\s*"(?:\{\\"|\[?\d{4}-\d\d-\d\d[ T]\d\d:|[\w.@-]+=)'
    r'|"(?:message|msg|log|MESSAGE)"\s*:\s*\{|"\s?=>'
    r'|^\s*\{\s*"[^"]{1,64}"\s*:\s*\{[^{}]*"(?:message|msg)"\s*:\s*"'
)
#: the end of a JSON record behind text that is no record's start (a record cut before its opening
#: brace, as copied from a page or a terminal): a string value, then the record's closing brace(s)
STRING_TAIL = r'"\s*\}[\s}\],]*$'
#: other lines offered when no known layout reads them
SNIFF_TEXT = "|".join((
    rf"^{_ISO_T} std(?:out|err) [PF]",
    r"^\[\d+\] [^\s:]+: \[",
    r"^(?:<\d{1,3}>)?1 \S+ \S+ \S+ \S+ \S+ [-\[]",
    rf"^(?:<\d{{1,3}}>)?(?:{TS.SYSLOG}|{_ISO_T}) [\w.:-]+ [^\s:\[\]]{{1,64}}(?:\[\d+\])?: ",
    r'^[\w.@-]+=(?:"|[^\s"])',
    R.PIPES,
    R.CSV_ROW,
    r"^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?-[a-z0-9]{5} [a-z0-9]",
    STRING_TAIL,
))  # fmt: skip
#: what a cut JSON / Fluent Bit record still holds of its line
_CUT_VALUE = r'"(?:log|message|msg|MESSAGE|short_message|full_message|@message|textPayload|_raw|event)"\s*(?::|=>)\s*"(?P<v>(?:[^"\\]|\\.)*)'
#: the same in an object dump of another syntax (``message: '…``, ``'msg': "…``, ``:message=>"…``)
_CUT_LITERAL = (
    r"""(?:^|[{,\s])['":]?(?:message|msg|log|event)['"]?\s*(?::|=>)\s*"""
    r"""(?:'(?P<s>(?:[^'\\]|\\.)*)|"(?P<d>(?:[^"\\]|\\.)*))"""
)
_CUT_TIME = r"""(?:^|[{,\s])['":]?(?:timestamp|time|@timestamp|ts)['"]?\s*(?::|=>)\s*['"](?P<t>[^'"]{8,40})['"]"""
#: a time key whose name a cut at the line's start shortened (``ime":"2024-…"``)
_CUT_TIME_CUT = r"""^[\w@]{0,10}['"]?\s*:\s*['"](?P<t>[^'"]{8,40})['"]"""
_LEVEL_WORD = rf"^(?:{L.LEVELS})$"
MAX_DEPTH = 6


@cache
def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(translate(pattern), re.ASCII)


@dataclass
class Peeled:
    """The text to read for one line: ``text`` (a line, or a canonical JSON record), ``pts`` (the
    nearest envelope's time), ``label`` (envelope names, outermost first), ``bad`` (why the
    envelope holds nothing to read: the line is quarantined)."""

    text: str
    pts: str | None = None
    label: str = ""
    bad: str | None = None


@dataclass
class _Layer:
    """One peeled layer: the inner text (``final``: already a record, not peeled further)."""

    label: str
    text: str
    pts: str | None = None
    final: bool = False
    stream: str | None = None
    partial: bool = False
    bad: str | None = None


@dataclass
class PeeledFile:
    """What :func:`peel_lines` found: the peeled lines by row, the rows joined into another."""

    lines: dict[int, Peeled] = field(default_factory=dict)
    absorbed: dict[int, int] = field(default_factory=dict)  # a joined piece → the line it joins


def text_offered(text: str) -> bool:
    """Whether a line no layout read is offered (:data:`SNIFF_TEXT`; never a line that starts with
    whitespace: an envelope starts at the line start, a stack frame does not)."""
    return text[:1] not in (" ", "\t") and bool(_rx(SNIFF_TEXT).search(text))


def json_offered(text: str) -> bool:
    """Whether a JSON line is offered before the layouts (:data:`SNIFF_JSON` or
    :data:`LITERAL_START` in a line that starts with ``{``)."""
    return (bool(_rx(SNIFF_JSON).search(text)) or bool(_rx(LITERAL_START).search(text))) and bool(
        _rx(JSON_START).search(text)
    )


def is_opener(text: str) -> bool:
    """Whether a line may open a record printed over several lines (:data:`OPENER`)."""
    return bool(_rx(OPENER).search(text))


def parse_object(text: str) -> dict | None:
    """A JSON object, else an object dump of another syntax (:func:`literals.parse`), else None."""
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        return LIT.parse(text)
    return obj if isinstance(obj, dict) else None


def _joined(lines: list[str]) -> str:
    return "\n".join(lines).strip().rstrip(",")


def record_spans(n: int, lines: Callable[[int, int], list[str]], starts: Sequence[int]) -> dict[int, int]:
    """Records printed over several lines: position → last position (of ``n`` lines: a file's
    non-blank lines, or the offered ones) of each record that opens at one of ``starts`` (lines that
    are :func:`is_opener`), closes within :data:`RECORD_LINES` lines and parses as a record with a
    message. ``lines(k, m)``: the texts of positions ``k`` .. ``k+m-1``. A record that does not close
    or parse is no span: its lines are read one by one."""
    out: dict[int, int] = {}
    nxt = 0
    for k in starts:
        if k < nxt:
            continue
        texts = lines(k, min(RECORD_LINES, n - k))
        e = LIT.record_end(texts, 0, len(texts))
        if not e:
            continue
        obj = parse_object(_joined(texts[: e + 1]))
        if obj is not None and R.from_mapping(obj, is_line) is not None:
            out[k], nxt = k + e, k + e + 1
    return out


def offered_rows(texts: Sequence[str], rows: list[int]) -> list[int]:
    """The rows offered before the layouts (reference reader): the JSON lines :func:`json_offered`
    offers and every line of a record printed over several lines (:func:`record_spans`)."""
    sub = [texts[i] for i in rows]
    spans = record_spans(len(sub), lambda k, n: sub[k : k + n], [k for k, t in enumerate(sub) if is_opener(t)])
    inside = {j for k, e in spans.items() for j in range(k, e + 1)}
    return [r for k, r in enumerate(rows) if k in inside or json_offered(sub[k])]


# ------------------------------------------------------------------------------ is it a line?
def is_line(s: str) -> bool:
    """Whether a message is a whole log line of its own (JSON object, logfmt, a known layout, a
    leading timestamp, another envelope)."""
    t = s.strip()
    if not t:
        return False
    if t[0] == "{" and t[-1] == "}":
        return True
    if _rx(L.TS_PREFIX).search(t) or R.logfmt(t) is not None or _rx(CRI).search(t):
        return True
    first = t[0]
    return any(first in L.FIRST_CHARS.get(lay.id, L.ALL_CHARS) and _rx(lay.regex).search(t) for lay in L.LAYOUTS)


# ------------------------------------------------------------------------------ one layer
def _unescape(v: str) -> str:
    try:
        return json.loads('"' + v + '"')
    except ValueError:
        for a, b in (("\\n", "\n"), ("\\t", "\t"), ("\\r", ""), ('\\"', '"'), ("\\/", "/"), ("\\\\", "\\")):
            v = v.replace(a, b)
        return v


def _cut(text: str, label: str, pts: str | None) -> _Layer:
    """A record cut before its end: the line it holds so far, else unreadable."""
    m = _rx(_CUT_VALUE).search(text)
    if m is None:
        return _Layer(label, "", pts, bad=f"{label} record without a readable line (cut or malformed)")
    v = _unescape(m.group("v")).rstrip("\r\n")
    return _Layer(label, v, pts)


def _cut_literal(text: str, label: str) -> _Layer:
    """An object dump of another syntax cut before its end: the message it holds so far (a
    ``message`` / ``msg`` / ``log`` key, quoted or not), else unreadable."""
    m = _rx(_CUT_LITERAL).search(text)
    if m is None:
        return _Layer(label, "", None, bad=f"{label} record without a readable message (cut or malformed)")
    q, v = ("'", m.group("s")) if m.group("s") is not None else ('"', m.group("d"))
    parsed = LIT.parse("{m: " + q + v + q + "}")
    fields: dict[str, str | None] = {"message": (parsed["m"] if parsed else v).rstrip("\r\n")}
    ts = _rx(_CUT_TIME).search(text)
    fields["ts"] = R.ts_text(ts.group("t")) if ts else None
    return _Layer(label, R.canonical(fields), None, final=True)


def _record(obj: dict, label_if_plain: str | None, pts: str | None, text: str | None = None) -> _Layer | None:
    """The layer of a parsed record (``text``: a logfmt line, whose other pairs follow the message)."""
    rec = R.from_mapping(obj, is_line)
    if rec is None:
        return None
    if text is not None and rec.line is None and (rest := R.logfmt_rest(text, rec.used)):
        rec.fields["message"] = f"{rec.fields['message']} {rest}"
    label = rec.shape if label_if_plain is None or rec.shape != "json" else label_if_plain
    if rec.line is not None:
        partial = rec.shape == "docker" and not (rec.fields["message"] or "").endswith("\n")
        stream = obj.get("stream") if isinstance(obj.get("stream"), str) else None
        return _Layer(label, rec.line, rec.fields["ts"] or pts, stream=stream, partial=partial)
    # (a plain JSON record read as a record: its layout is ``json``, no prefix)
    return _Layer("" if label == "json" else label, R.canonical(rec.fields), pts, final=True)


def _literal_label(text: str) -> str:
    """The layout label of an object dump that is not JSON: ``ruby`` (``=>``), ``repr`` (Python's
    quoted keys), ``inspect`` (Node's util.inspect, Ruby 3.4's ``key: value``)."""
    m = _rx(LITERAL_START).search(text)
    head = m.group(0) if m else text.lstrip("{ \n")[:1]
    return "ruby" if "=>" in head else "repr" if head.lstrip("{ \n").startswith("'") else "inspect"


def _object_head(text: str) -> _Layer | None:
    """A line that starts with a whole object (JSON or another syntax's dump) with the message after it:
    ``{ severity: 7, fac: 'JOIN' } [thrd:main]: Group "g": join with 1 subscribed topic(s)`` (an object of
    a record's fields printed before its message: node-rdkafka's ``event.log`` record, a logger's
    context). The object's keys are the record's fields, the text after it is its message; None when
    the line does not start with such an object or the object has a message of its own."""
    for k in (i for i, c in enumerate(text) if c == "}"):
        rest = text[k + 1 :].strip()
        if not rest or LIT.record_end([text[: k + 1]], 0, 1) != 0:
            continue
        obj = parse_object(text[: k + 1])
        if obj is None or any(isinstance(obj.get(n), str) for n in R.FAMILIES["message"]):
            return None
        rec = R.from_mapping({**obj, "message": rest}, lambda _s: False)
        return _Layer(_literal_label(text), R.canonical(rec.fields), None, final=True) if rec else None
    return None


def _json(text: str) -> _Layer | None:
    try:
        obj = json.loads(text)
        return _record(obj, None, None) if isinstance(obj, dict) else None
    except (ValueError, RecursionError):  # (another syntax, malformed, cut, or nested beyond reason)
        lit = LIT.parse(text)
        if lit is not None:
            return _record(lit, _literal_label(text), None)
        if (head := _object_head(text)) is not None:
            return head
        if _rx(LITERAL_START).search(text) or text.startswith("{\n"):
            return _cut_literal(text, _literal_label(text))
        return _cut(text, "json", None)


def _fluent(text: str) -> _Layer | None:
    m = _rx(FLUENT).search(text)
    if m is None:
        h = _rx(FLUENT_HEAD).search(text)
        return _cut(text, "fluentbit", h.group("t")) if h else None
    body = re.sub(r'("(?:[^"\\]|\\.)*")=>', r"\1:", "{" + m.group("h") + "}")
    body = re.sub(r":nil([,}])", r":null\1", body).replace("\\e", "\\u001b")
    try:
        obj = json.loads(body)
        layer = _record(obj, "fluentbit", m.group("t")) if isinstance(obj, dict) else None
    except (ValueError, RecursionError):
        return _cut(text, "fluentbit", m.group("t"))
    if layer is not None and layer.label in ("docker", "fluentd"):
        layer.label, layer.partial = "fluentbit", False
    return layer


def _syslog(text: str) -> _Layer | None:
    m = _rx(SYSLOG5424).search(text) or _rx(SYSLOG).search(text)
    if m is None or _rx(_LEVEL_WORD).search(m.group("host")) or _rx(_LEVEL_WORD).search(m.group("tag")):
        return None
    t = None if m.group("t") == "-" else m.group("t")
    x = (m.group("x") or "").lstrip("\ufeff")
    if is_line(x) or _rx(L.CONTINUATION).search(x) or not x.strip():
        return _Layer("syslog", x, t)
    tag = None if m.group("tag") == "-" else m.group("tag")
    return _Layer("syslog", R.canonical({"message": x, "logger": tag}), t, final=True)


def _text_record(text: str) -> _Layer | None:
    pairs = R.logfmt(text)
    if pairs is not None:
        return _record(pairs, "logfmt", None, text)
    d = R.delimited(text)
    if d is None:
        return None
    shape, fields = d
    if fields is None:  # a CSV header row
        return _Layer(shape, "", None)
    msg = fields["message"] or ""
    if is_line(msg):
        return _Layer(shape, msg, fields["ts"])
    return _Layer(shape, R.canonical(fields), None, final=True)


def _escaped(text: str, k: int) -> bool:
    """Whether the character at ``k`` is escaped: an odd number of backslashes before it."""
    b = k
    while b > 0 and text[b - 1] == "\\":
        b -= 1
    return (k - b) % 2 == 1


def string_tail(text: str) -> tuple[str, str] | None:
    """(text before the string, the string's value) of the last JSON string of a line that ends a
    JSON record (:data:`STRING_TAIL`), read by JSON's string grammar from its closing quote backwards:
    a quote preceded by an even number of backslashes opens it. The string must be a value (after
    ``:``) or start the line; a line with no opening quote before it starts inside the string (the
    record was cut within it); the record must have opened before the line (a whole object behind
    text is a record of its own, read by the layouts). None: no such string, or not valid JSON string
    text."""
    end = text.rstrip().rstrip("}], \t")
    if not end.endswith('"') or _rx(STRING_TAIL).search(text) is None or _escaped(text, len(end) - 1):
        return None
    close = len(end) - 1
    k = close - 1
    while k >= 0 and (text[k] != '"' or _escaped(text, k)):
        k -= 1
    before = text[:k].rstrip() if k >= 0 else ""
    if k >= 0 and before and not before.endswith(":"):
        return None
    # (the record's opening brace is not on the line: more braces close after the string than open before it)
    if text[close:].count("}") <= before.count("{") - before.count("}"):
        return None
    try:
        value = json.loads('"' + text[k + 1 : close] + '"')
    except ValueError:
        return None
    return (before if k >= 0 else ""), value


def _string_tail(text: str) -> _Layer | None:
    """A JSON record's tail (:func:`string_tail`): its last string value is the line to read; the time
    key of what is left of the record in front of it, if any, is the envelope's time."""
    st = string_tail(text)
    if st is None or not st[1].strip():
        return None
    t = _rx(_CUT_TIME).search(st[0]) or _rx(_CUT_TIME_CUT).search(st[0])
    return _Layer("json-tail", st[1].rstrip("\r\n"), R.ts_text(t.group("t")) if t else None)


def peel_one(text: str) -> _Layer | None:
    """The outermost envelope or record of ``text`` (None: it is neither)."""
    s = text.lstrip()
    if s.startswith("{"):
        return _json(text.strip())
    m = _rx(CRI).search(text)
    if m:
        return _Layer("cri", m.group("x") or "", m.group("t"), stream=m.group("s"), partial=m.group("f") == "P")
    if s.startswith("[") and _rx(r"^\[\d+\] ").search(s):
        return _fluent(text)
    layer = _syslog(text)
    if layer is not None:
        return layer
    m = _rx(STERN).search(text)
    if m and is_line(m.group("x")):
        return _Layer("stern", m.group("x"))
    return _text_record(text) or _string_tail(text)


def _inner(layer: _Layer, depth: int = 0) -> Peeled:
    """``layer``'s text peeled down to the innermost line (the nearest envelope's time wins)."""
    label = layer.label + "+" if layer.label else ""
    if layer.bad is not None:
        return Peeled("", layer.pts, label, layer.bad)
    if layer.final or depth >= MAX_DEPTH:
        return Peeled(layer.text, layer.pts, label)
    nxt = peel_one(layer.text) if layer.text.strip() else None
    if nxt is None or (nxt.bad is not None and nxt.label == "json"):
        return Peeled(layer.text, layer.pts, label)
    deeper = _inner(nxt, depth + 1)
    return Peeled(deeper.text, deeper.pts or layer.pts, label + deeper.label, deeper.bad)


# ------------------------------------------------------------------------------ a file's lines
def peel_lines(rows: list[int], texts: list[str]) -> PeeledFile:
    """The offered lines (``rows``, in file order, with their ``texts``) peeled; split pieces
    (CRI ``P``, docker records without a final newline) joined per envelope and stream into their
    first piece; a record over several lines joined into one (bare: :func:`record_spans`; each of
    its lines in an envelope of its own: :func:`_enveloped_records`)."""
    out = PeeledFile()
    pending: dict[tuple[str, str | None], tuple[int, _Layer, list[str]]] = {}
    spans = record_spans(len(texts), lambda k, n: texts[k : k + n], [k for k, t in enumerate(texts) if is_opener(t)])
    done: dict[int, _Layer] = {}
    last = -1
    for k, (row, text) in enumerate(zip(rows, texts)):
        if k <= last:
            continue
        if k in spans:  # (a record over several lines: one line, at its message key's line)
            last = spans[k]
            _one_record(out, rows[k : last + 1], texts[k : last + 1])
            continue
        layer = peel_one(text)
        if layer is None:
            continue
        key = (layer.label, layer.stream)
        if key in pending:  # a piece after a partial one: joined into the first
            first, head, parts = pending[key]
            parts.append(layer.text)
            out.absorbed[row] = first
            if layer.partial:
                continue
            del pending[key]
            head.text, row, layer = "".join(parts), first, head
        elif layer.partial:
            pending[key] = (row, layer, [layer.text])
            continue
        done[row] = layer
    for first, head, parts in pending.values():  # (the file ends inside a split line)
        head.text = "".join(parts)
        done[first] = head
    _enveloped_records(out, sorted(done.items()))
    return out


def _enveloped_records(out: PeeledFile, layers: list[tuple[int, _Layer]]) -> None:
    """The peeled layers (row order) into ``out``: consecutive layers of one envelope and stream
    whose texts are the lines of one record (a runtime wrote each line of ``console.log(obj)`` or
    of a pretty JSON as a line of its own) joined into the layer of the record's message key line."""
    texts = [layer.text if not (layer.final or layer.bad) else "" for _, layer in layers]
    starts = [k for k, t in enumerate(texts) if t and is_opener(t)]

    def run(k: int, n: int) -> list[str]:
        key = (layers[k][1].label, layers[k][1].stream)
        m = 1
        while m < n and (layers[k + m][1].label, layers[k + m][1].stream) == key and texts[k + m]:
            m += 1
        return texts[k : k + m]

    spans = record_spans(len(texts), run, starts) if starts else {}
    last = -1
    for k, (row, layer) in enumerate(layers):
        if k <= last:
            continue
        if k in spans:
            last = spans[k]
            part = texts[k : last + 1]
            at = next((j for j, t in enumerate(part) if _rx(_MESSAGE_KEY_LINE).search(t)), 0)
            for j in range(k, last + 1):
                if j != k + at:
                    out.absorbed[layers[j][0]] = layers[k + at][0]
            layer.text = _joined(part)
            row = layers[k + at][0]
        out.lines[row] = _inner(layer)


#: the line of a record printed over several lines that holds its message key
_MESSAGE_KEY_LINE = r"""^\s*\{?\s*['":]?(?:message|msg|short_message|full_message|@message|event|log|MESSAGE|text)['"]?\s*(?::|=>)"""


def _one_record(out: PeeledFile, rows: list[int], texts: list[str]) -> None:
    """A record over several lines peeled as one line: its text is the line of its message key
    (else its first line), the record's other lines are that line's joined pieces."""
    at = next((j for j, t in enumerate(texts) if _rx(_MESSAGE_KEY_LINE).search(t)), 0)
    for j, r in enumerate(rows):
        if j != at:
            out.absorbed[r] = rows[at]
    layer = peel_one(_joined(texts))
    out.lines[rows[at]] = _inner(layer) if layer is not None else Peeled(_joined(texts))


# ------------------------------------------------------------------------------ envelope times
def envelope_times(pts: list[str | None], tz: str, year: Callable[[], int | None]) -> list[int | None]:
    """Epoch ms of envelopes' times (``pts`` of the heads): what :func:`layouts.parse_timestamps`
    reads, else the located forms of :func:`timestamps.to_iso` (syslog with the file's ``year()``)."""
    ms = EM.parse_timestamps(pa.array(pts, pa.string()), tz).to_pylist()
    miss = [k for k, (p, v) in enumerate(zip(pts, ms)) if v is None and p is not None]
    if miss:
        y = year()
        isos = {k: iso for k in miss if (iso := TS.to_iso(pts[k], year=y)) is not None}
        conv = EM.parse_timestamps(pa.array(list(isos.values()), pa.string()), tz).to_pylist()
        for k, v in zip(isos, conv):
            ms[k] = v
    return ms
