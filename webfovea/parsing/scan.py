"""Finding the action call in a reply: markers, regions, and the argument scanner.

Models write calls that no strict grammar accepts: apostrophes inside single-quoted
content, commas and parentheses inside answers, calls cut off by the token limit. The
scanner decides where a string ends from what follows its quote, and closes a call
that runs into the end of its region.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# `Action:` at the start of a line, allowing markdown around it (**Action:**, > Action:).
_LINE_MARKER_RE = re.compile(r"(?im)^[ \t>#*_`-]*(action)[*_]*[ \t]*[:：][*_]*")
# Fallback when the model kept Thought and Action on one line.
_INLINE_MARKER_RE = re.compile(r"(?<![A-Za-z_])Action[ \t]*[:：]")
# Where an invented continuation starts: the next section of a (fake) step.
_SECTION_RE = re.compile(
    r"(?im)\n[ \t>#*_`-]*(?:thought|action|observation|reflection|action_summary)[*_]*[ \t]*[:：]"
)
_STEP_END_RE = re.compile(
    r"(?im)\n[ \t>#*_`-]*(?:thought|observation|reflection|action_summary)[*_]*[ \t]*[:：]"
)
_THOUGHT_RE = re.compile(r"(?im)(?:^|(?<=[\s*_>#]))thought[*_]*[ \t]*[:：][*_]*")
# A reply with no marker at all may still be a bare call on its own line (possibly fenced).
_BARE_CALL_RE = re.compile(r"(?m)^[ \t]*(?:```[A-Za-z0-9_+-]*[ \t]*)?`?(?=[a-z_][\w.]*\()")
_CALL_HEAD_RE = re.compile(r"(?:\s|```[A-Za-z0-9_+-]*|`|\*\*)*([A-Za-z_][\w.]*)[ \t]*(\()?")
_FOLLOW_RE = re.compile(r"\s*(.)", re.DOTALL)
_NEXT_KEYWORD_RE = re.compile(r",\s*([A-Za-z_]\w*)\s*=")
_LINE_REST_JUNK_RE = re.compile(r"[ \t]*(?:`+|\*\*|<br\s*/?>|</[A-Za-z]\w*>)?[ \t]*(?:\n|$)")


@dataclass
class Call:
    name: str  # as written (may be dotted or oddly cased)
    marker: int  # where the Action: marker (or the bare call line) starts
    start: int  # index of the name
    end: int  # index just after the call (or the region end when cut off)
    args: list[str]  # raw argument texts, strings still quoted
    inner: str  # the argument text of a well-formed call: missing closers added
    complete: bool  # the model closed the call itself

    @property
    def raw(self) -> str:
        return f"{self.name}({self.inner})"


def find_markers(text: str) -> list[tuple[int, int]]:
    """(start, end) of every Action: marker in order: at a line start (markdown allowed)
    or inline after the thought; a bare call line only when there is no marker at all."""
    found: list[tuple[int, int]] = []
    words: set[int] = set()  # where the word "Action" of each line marker starts
    for m in _LINE_MARKER_RE.finditer(text):
        found.append((m.start(), m.end()))
        words.add(m.start(1))
    found += [(m.start(), m.end()) for m in _INLINE_MARKER_RE.finditer(text) if m.start() not in words]
    if not found:
        found = [(m.end(), m.end()) for m in _BARE_CALL_RE.finditer(text)]
    return sorted(found)


def region_end(text: str, start: int) -> int:
    m = _SECTION_RE.search(text, start)
    return m.start() if m else len(text)


def thought_before(text: str, marker: int) -> str:
    """The text after the last Thought: before the action; without one, all text before it."""
    head = text[:marker]
    found = list(_THOUGHT_RE.finditer(head))
    body = head[found[-1].end() :] if found else head
    return body.strip().strip("`*").strip()


def _string_end(
    text: str, i: int, limit: int, greedy: bool, depth: int, keywords: frozenset[str]
) -> int | None:
    """Index just after the string opened at i, or None when it never closes before limit.

    A quote closes the string only if what follows could follow an argument: `)`, the
    end of the region, a `, keyword=`, or (when this is not the last argument) any `,`.
    So `content='It's done, (really)'` stays one string.
    """
    q = text[i]
    if text.startswith(q * 3, i):
        j = text.find(q * 3, i + 3, limit)
        while j != -1 and text[j - 1] == "\\":
            j = text.find(q * 3, j + 1, limit)
        return None if j == -1 else j + 3
    k = i + 1
    while k < limit:
        c = text[k]
        if c == "\\":
            k += 2
            continue
        if c == q:
            # Look at what follows without slicing: a reply full of quotes must stay linear.
            f = _FOLLOW_RE.match(text, k + 1, limit)
            nxt = f.group(1) if f else ""
            if not nxt or nxt == ")" or (depth > 0 and nxt in "]}"):
                return k + 1
            if nxt == ",":
                if not greedy or depth > 0:
                    return k + 1
                m = _NEXT_KEYWORD_RE.match(text, f.start(1) if f else k + 1, limit)
                if m and m.group(1) in keywords:
                    return k + 1
        k += 1
    return None


def _close_unterminated(body: str) -> tuple[str, str]:
    """Split a cut-off string into (string body, what followed it); a trailing `)` that
    the body never opened was the call's own closing paren."""
    body = body.rstrip()
    if body.endswith(")") and body.count(")") > body.count("("):
        return body[:-1].rstrip(), ")"
    return body, ""


def scan_call(
    text: str, marker: int, pos: int, limit: int, shape: tuple[int, bool] | None, keywords: frozenset[str]
) -> Call | None:
    """Read `name(args)` starting at pos (just after the marker); None if no call is there.

    `shape` is (number of parameters, whether the last one is text): only a trailing text
    parameter reads greedily, so `click('(1,2)', '(3,4)')` stays two arguments.
    """
    m = _CALL_HEAD_RE.match(text, pos)
    if not m or m.end(1) > limit:
        return None
    name, start = m.group(1), m.start(1)
    if m.group(2) is None:  # `Action: wait` — a bare name alone on its line is a no-argument call
        rest = _LINE_REST_JUNK_RE.match(text, m.end(1))
        if not rest:
            return None
        return Call(name, marker, start, m.end(1), [], "", True)
    i = open_at = m.end(2)
    args: list[str] = []
    arg_start, depth, value_start = i, 0, True
    while i < limit:
        c = text[i]
        if value_start and c in "'\"":
            greedy = shape is None or (shape[1] and len(args) >= shape[0] - 1)
            j = _string_end(text, i, limit, greedy, depth, keywords)
            if j is None:  # cut off inside a string: close it where the region ends
                q = text[i] * (3 if text.startswith(text[i] * 3, i) else 1)
                body, tail = _close_unterminated(text[i + len(q) : limit])
                args.append(text[arg_start:i] + q + body + q)
                inner = text[open_at:i] + q + body + q
                return Call(name, marker, start, limit, args, inner, False)
            i, value_start = j, False
            continue
        if c.isspace():
            i += 1
            continue
        value_start = c in "=([{,"
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0 and c == ")":
                args.append(text[arg_start:i])
                return Call(name, marker, start, i + 1, args, text[open_at:i], True)
            depth = max(0, depth - 1)
        elif c == "," and depth == 0:
            args.append(text[arg_start:i])
            arg_start = i + 1
        i += 1
    args.append(text[arg_start:limit])
    return Call(name, marker, start, limit, args, text[open_at:limit].rstrip(), False)


# Quotation marks that open a quote on a line (the apostrophe is left out: "I'll", "don't").
_QUOTE_PAIRS = (('"', '"'), ("“", "”"), ("„", "“"), ("«", "»"), ("「", "」"), ("『", "』"), ("`", "`"))


_QUOTE_CHARS = tuple(dict.fromkeys(c for pair in _QUOTE_PAIRS for c in pair))
_BLOCK_LEAD_RE = re.compile(r"[ \t*_]*")
_LINE_LEAD_RE = re.compile(r"[ \t>#*_`-]*")


def _quoted(head_counts: dict[str, int]) -> bool:
    for opening, closing in _QUOTE_PAIRS:
        if opening == closing:
            if head_counts[opening] % 2:
                return True
        elif head_counts[opening] > head_counts[closing]:
            return True
    return False


class _Lines:
    """Line facts for positions visited in increasing order, each line's text read once: so
    ten thousand markers on one line cost one pass over it, not one each."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0  # the last position asked about
        self.start = 0  # where its line starts
        self.counts = dict.fromkeys(_QUOTE_CHARS, 0)  # quotation marks from the line start to `at`
        self._leads()

    def _move(self, pos: int) -> None:
        text = self.text
        if pos < self.at:  # not in order: start again from this position's line
            self.at, self.start = 0, 0
            self.counts = dict.fromkeys(_QUOTE_CHARS, 0)
            self._leads()
        nl = text.rfind("\n", self.at, pos)
        if nl != -1:
            self.start, self.at = nl + 1, nl + 1
            self.counts = dict.fromkeys(_QUOTE_CHARS, 0)
            self._leads()
        for c in _QUOTE_CHARS:
            self.counts[c] += text.count(c, self.at, pos)
        self.at = pos

    def _leads(self) -> None:
        """Where the line's markdown lead ends, and where its block-quote lead ends."""
        self.lead_end = _run_end(_LINE_LEAD_RE, self.text, self.start)
        self.block_end = _run_end(_BLOCK_LEAD_RE, self.text, self.start)

    def quoted(self, pos: int) -> bool:
        self._move(pos)
        b = self.block_end
        if b < pos + 8 and b < len(self.text) and self.text[b] == ">":
            return True
        return _quoted(self.counts)

    def line_marker(self, pos: int) -> bool:
        """Only markdown junk between the line start and pos."""
        self._move(pos)
        return self.lead_end >= pos


def _run_end(run: re.Pattern[str], text: str, pos: int) -> int:
    """Where a run of `run`'s characters starting at pos ends (the pattern matches empty)."""
    m = run.match(text, pos)
    return m.end() if m else pos


def is_quoted(text: str, pos: int) -> bool:
    """Is the marker at `pos` quoted: on a `>` block-quote line, or inside a quotation opened
    earlier on its line? Such an `Action:` is text the model is citing (often from the page)."""
    return _Lines(text).quoted(pos)


def locate_call(
    text: str, *, first_only: bool, shapes: dict[str, tuple[int, bool]] | None, keywords: frozenset[str]
) -> tuple[Call | None, int | None]:
    """The call to execute (first or last), and the marker position even when no call
    could be read after it (so the caller can say what was wrong).

    With first_only, only the reply's own action is executed: the first of its step (the
    text up to an invented Observation/Thought), never a quoted `Action:` (inside quotes or
    a `>` block), never an inline `Action:` inside the Thought when the reply has an Action
    line of its own, and never one the Thought goes on after ("the page says: Action: …, I
    will ignore it"). An unreadable marker ("my next Action: scroll") gives way to a later
    one of the same step, but never to one after a new Thought/Observation: that would be
    an invented continuation.
    """
    markers = find_markers(text)
    if not markers:
        return None, None
    if not first_only:
        return _first_readable(text, markers[-1:], False, shapes, keywords)
    lines_of = _Lines(text)
    own = [mk for mk in markers if not lines_of.quoted(mk[0])]
    if not own:
        return None, markers[0][0]
    step_end = _STEP_END_RE.search(text, own[0][1])
    own = [mk for mk in own if step_end is None or mk[0] < step_end.start()] or own[:1]
    lines_of = _Lines(text)
    lines = [mk for mk in own if lines_of.line_marker(mk[0])]
    candidates = _drop_cited(text, lines or own, shapes, keywords)
    return _first_readable(text, candidates, True, shapes, keywords)


def _drop_cited(
    text: str,
    markers: list[tuple[int, int]],
    shapes: dict[str, tuple[int, bool]] | None,
    keywords: frozenset[str],
) -> list[tuple[int, int]]:
    """Markers whose call the Thought goes on after (prose, then a later marker) were cited."""
    kept = []
    for i, (marker, pos) in enumerate(markers):
        if i + 1 < len(markers):
            call = _scan_at(text, marker, pos, True, shapes, keywords)
            between = text[call.end : markers[i + 1][0]] if call is not None and call.complete else ""
            if between.strip(" \t\r\n;`*_>#-"):
                continue
        kept.append((marker, pos))
    return kept or markers[-1:]


def _scan_at(
    text: str,
    marker: int,
    pos: int,
    first_only: bool,
    shapes: dict[str, tuple[int, bool]] | None,
    keywords: frozenset[str],
) -> Call | None:
    limit = region_end(text, pos) if first_only else len(text)
    head = _CALL_HEAD_RE.match(text, pos)
    shape = None
    if head and shapes is not None:
        shape = shapes.get(head.group(1).split(".")[-1].lower())
    return scan_call(text, marker, pos, limit, shape, keywords)


def _first_readable(
    text: str,
    candidates: list[tuple[int, int]],
    first_only: bool,
    shapes: dict[str, tuple[int, bool]] | None,
    keywords: frozenset[str],
) -> tuple[Call | None, int | None]:
    for marker, pos in candidates:
        call = _scan_at(text, marker, pos, first_only, shapes, keywords)
        if call is not None:
            return call, marker
    return None, candidates[0][0]
