"""Object dumps that are not JSON: the record syntaxes of other languages' printers, read as mappings.

* **JavaScript object literals** as Node's ``util.inspect`` / ``console.log`` print them: unquoted
  keys, single-quoted (or double / back-quoted) strings, ``undefined``, ``[Object]`` / ``[Array]`` /
  ``[Function: f]`` / ``[Circular *1]`` elisions, ``... 3 more items``, a class name before an
  object (``Error { … }``), a ``<ref *1>`` marker, BigInt ``12n``; on one line or over several;
* **Python** ``dict`` reprs (``repr``, ``pprint``): quoted keys, ``True`` / ``False`` / ``None``,
  a call such as ``datetime.datetime(2024, 5, 1, 10, 0)`` (kept as its text);
* **Ruby** ``Hash#inspect``: ``{:level=>"info"}``, ``{"level"=>"info"}``, Ruby 3.4's
  ``{level: "info"}``; ``nil``, symbols as values (``:info``).

:func:`parse` gives the mapping (values: ``str``, ``int``, ``float``, ``bool``, ``None``, lists,
dicts; an elision is ``None``) or None when the text is not one whole record of these syntaxes.
:func:`record_end` finds where a record that starts on one line ends (strings and brackets
balanced), for records printed over several lines.
"""

from __future__ import annotations

import re
from typing import Any

_WS = re.compile(r"\s*")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_NUMBER = re.compile(r"-?(?:\d+(?:_\d+)*(?:\.\d+)?(?:[eE][+-]?\d+)?|Infinity|NaN)n?")
_WORDS: dict[str, Any] = {"true": True, "false": False, "True": True, "False": False, "null": None,
                          "undefined": None, "None": None, "nil": None}  # fmt: skip
_ESC = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0", "e": "\x1b"}
_SYMBOL = re.compile(r':([A-Za-z_][\w]*[?!]?|"(?:[^"\\]|\\.)*")')
_MORE = re.compile(r"\.\.\. \d+ more items?")
_REF = re.compile(r"<ref \*\d+>\s*")
#: at most this many characters are read as one record (a longer text is no record we read)
MAX_CHARS = 1 << 20


class _Fail(Exception):
    pass


class _Reader:
    """A recursive-descent reader of one value at ``pos`` of ``s``."""

    def __init__(self, s: str) -> None:
        self.s, self.pos, self.depth = s, 0, 0

    def ws(self) -> None:
        self.pos = _WS.match(self.s, self.pos).end()  # type: ignore[union-attr]

    def peek(self) -> str:
        return self.s[self.pos] if self.pos < len(self.s) else "\0"  # (never a character we test for)

    def eat(self, ch: str) -> bool:
        self.ws()
        if self.s.startswith(ch, self.pos):
            self.pos += len(ch)
            return True
        return False

    def string(self) -> str:
        q, i, s = self.s[self.pos], self.pos + 1, self.s
        out: list[str] = []
        while i < len(s):
            c = s[i]
            if c == q:
                self.pos = i + 1
                return "".join(out)
            if c == "\\" and i + 1 < len(s):
                n = s[i + 1]
                if n in "xu" and (m := re.match(r"x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]{1,6})\}", s[i + 1 :])):
                    out.append(chr(int(next(g for g in m.groups() if g), 16)))
                    i += 1 + m.end()
                    continue
                out.append(_ESC.get(n, n))
                i += 2
                continue
            out.append(c)
            i += 1
        raise _Fail("unterminated string")

    def key(self) -> tuple[str, bool]:
        """A key and whether it was a Ruby symbol (``:level``, which takes ``=>``)."""
        self.ws()
        c = self.peek()
        if c in "'\"`":
            return self.string(), False
        if c == ":" and (m := _SYMBOL.match(self.s, self.pos)):
            self.pos = m.end()
            name = m.group(1)
            return (name[1:-1] if name.startswith('"') else name), True
        m = _IDENT.match(self.s, self.pos) or _NUMBER.match(self.s, self.pos)
        if m is None:
            raise _Fail("no key")
        self.pos = m.end()
        return m.group(0), False

    def obj(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        self.pos += 1
        while True:
            if self.eat("}"):
                return out
            if self.eat("..."):  # (util.inspect: "... more properties")
                self.pos = _WS.match(self.s, self.pos).end()  # type: ignore[union-attr]
                m = re.compile(r"\d+ more propert(?:y|ies)").match(self.s, self.pos)
                self.pos = m.end() if m else self.pos
            else:
                k, _ = self.key()
                if not (self.eat("=>") or self.eat(":")):
                    raise _Fail("no separator")
                out.setdefault(k, self.value())
            if not self.eat(","):
                if self.eat("}"):
                    return out
                raise _Fail("no comma")

    def array(self) -> list[Any] | None:
        self.pos += 1
        self.ws()
        m = re.compile(r"(?:Object|Array|Function|Circular|Getter|Setter|Getter/Setter|class|AsyncFunction)\b[^\]]*\]").match(
            self.s, self.pos
        )
        if m:  # (an elision: util.inspect's [Object], [Array], [Function: f], [Circular *1])
            self.pos = m.end()
            return None
        out: list[Any] = []
        while True:
            if self.eat("]"):
                return out
            self.ws()
            if m2 := _MORE.match(self.s, self.pos):
                self.pos = m2.end()
            else:
                out.append(self.value())
            if not self.eat(","):
                if self.eat("]"):
                    return out
                raise _Fail("no comma in array")

    def value(self) -> Any:
        self.depth += 1
        if self.depth > 64:
            raise _Fail("nested too deep")
        try:
            return self._value()
        finally:
            self.depth -= 1

    def _value(self) -> Any:
        self.ws()
        if m := _REF.match(self.s, self.pos):
            self.pos = m.end()
        c = self.peek()
        if c == "{":
            return self.obj()
        if c == "[":
            return self.array()
        if c == "(":  # (pprint's long string: adjacent literals in parentheses)
            self.pos += 1
            parts = []
            while not self.eat(")"):
                self.ws()
                if self.peek() not in ("'", '"'):
                    raise _Fail("no string in parentheses")
                parts.append(self.string())
            return "".join(parts)
        if c in "'\"`":
            out = self.string()
            while True:  # (Python's adjacent literals, as pprint splits a long string)
                self.ws()
                if self.peek() not in ("'", '"'):
                    return out
                out += self.string()
        if c == ":" and (m := _SYMBOL.match(self.s, self.pos)):
            self.pos = m.end()
            return m.group(1).strip('"')
        if m := _NUMBER.match(self.s, self.pos):
            self.pos = m.end()
            t = m.group(0).rstrip("n").replace("_", "")
            if t in ("Infinity", "-Infinity", "NaN"):
                return t
            return float(t) if any(x in t for x in ".eE") else int(t)
        m = re.compile(r"[A-Za-z_$][\w$.]*").match(self.s, self.pos)
        if m is None:
            raise _Fail(f"unexpected {c!r}")
        self.pos = m.end()
        word = m.group(0)
        if word in _WORDS:
            return _WORDS[word]
        self.ws()
        if self.peek() == "{":  # (a class name before an object: Error { … }, Map(2) { … } below)
            return self.obj()
        if self.peek() == "(":  # (a call: datetime.datetime(2024, 5, 1), Map(2) { … })
            start, depth = self.pos, 0
            for j in range(self.pos, len(self.s)):
                depth += {"(": 1, ")": -1}.get(self.s[j], 0)
                if depth == 0:
                    self.pos = j + 1
                    break
            else:
                raise _Fail("unterminated call")
            self.ws()
            if self.peek() == "{":
                return self.obj()
            return word + self.s[start : self.pos]
        return word


def parse(text: str) -> dict[str, Any] | None:
    """The mapping of one whole object literal (see the module doc), None when ``text`` is not one."""
    s = text.strip()
    if not s.startswith(("{", "<ref")) or len(s) > MAX_CHARS:
        return None
    r = _Reader(s)
    try:
        v = r.value()
        r.ws()
    except (_Fail, RecursionError, ValueError, OverflowError, IndexError):
        return None
    return v if isinstance(v, dict) and r.pos == len(s) else None


_OPEN = {"{": "}", "[": "]", "(": ")"}


def record_end(lines: list[str], start: int, limit: int = 200) -> int | None:
    """The index of the line where the record opening at ``lines[start]`` closes (its brackets
    balanced, quotes respected), None when it does not within ``limit`` lines or closes a bracket it
    did not open."""
    stack: list[str] = []
    for k in range(start, min(len(lines), start + limit)):
        s, i, quote = lines[k], 0, ""
        while i < len(s):
            c = s[i]
            if quote:
                if c == "\\":
                    i += 1
                elif c == quote:
                    quote = ""
            elif c in "'\"`":
                # (an apostrophe inside a bare word is no quote: Ruby/JS strings start after a separator)
                if c == "'" and i > 0 and s[i - 1].isalnum():
                    i += 1
                    continue
                quote = c
            elif c in _OPEN:
                stack.append(_OPEN[c])
            elif c in "}])":
                if not stack or stack.pop() != c:
                    return None
                if not stack:
                    return k if not s[i + 1 :].strip(" \t,;") else None
            i += 1
        if quote and quote != "`":  # (a string does not go on to the next line, but a template may)
            return None
    return None
