"""Reply text -> Action or Rejection, for UI-TARS-style replies (`Thought: …` / `Action: name(arg='…')`).

Parsing is the first stage of the round trip: what the model wrote must be what the
harness understands. Two switches reproduce the paper's fixes and their baseline:

- `first_only` keeps only the first Thought/Action pair (a reply that invents
  observations, more actions or a `finished` executes its first action only);
  off, the LAST action is executed and the whole text kept — the naive behaviour
  that once submitted a fake answer at step 1.
- `strip_tokens` strips self-generated chat-template tokens and stray trailing markup
  (see parsing_tokens.TEMPLATE_TOKENS) but keeps `<|box_start|>`/`<|box_end|>`; off,
  a contaminated `type(content='ottawa<|eot_id|>')` really types the token.

Nothing here raises on model text: every failure is a Rejection the model reads next step.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from webfovea.actions.catalog import ALIASES
from webfovea.browser.snapshot_text import normalise_ref
from webfovea.guardrails.forbidden import DEFAULT_FORBIDDEN
from webfovea.parsing.scan import Call, is_quoted, locate_call, thought_before
from webfovea.parsing.tokens import (
    TEMPLATE_TOKEN_RE,
    TEMPLATE_TOKENS,
    junk_prefix_len,
    strip_template_tokens,
    strip_value_tail,
)
from webfovea.parsing.values import (
    decode_escapes,
    parse_box,
    parse_direction,
    parse_key,
    parse_point,
    parse_points,
)
from webfovea.types import Action, ParamSpec, ParsedReply, Rejection

__all__ = [
    "DEFAULT_FORBIDDEN",
    "GRAMMAR_HINT",
    "TEMPLATE_TOKENS",
    "TEMPLATE_TOKEN_RE",
    "clean_reply",
    "expected_form",
    "parse_reply",
]


KEYWORD_ALIASES: dict[str, str] = {
    "point": "start_box", "start_point": "start_box", "box": "start_box", "start": "start_box",
    "coordinate": "start_box", "position": "start_box", "end_point": "end_box", "end": "end_box",
    "keys": "key", "hotkey": "key", "answer": "content", "value": "content", "label": "near",
    "query": "text", "coordinates": "points", "boxes": "points", "element": "ref", "target": "ref",
}  # fmt: skip

UI_TARS_KEYWORDS = frozenset(
    [
        "start_box",
        "end_box",
        "direction",
        "content",
        "option",
        "key",
        "text",
        "near",
        "points",
        "ref",
        *KEYWORD_ALIASES,
    ]
)

GRAMMAR_HINT = "Reply as `Thought: <reasoning>` then `Action: name(arg='value')`, e.g. Action: click(start_box='<|box_start|>(x1,y1)<|box_end|>')."

_FORM_BY_KIND = {
    "point": "'<|box_start|>(x1,y1)<|box_end|>'",
    "points": "'<|box_start|>(x1,y1)<|box_end|> <|box_start|>(x2,y2)<|box_end|>'",
    "box": "'<|box_start|>(x1,y1,x2,y2)<|box_end|>'",
    "direction": "'down'",
    "text": "'...'",
    "answer": "'...'",
    "key": "'ctrl c'",
    "ref": "'e12'",
}
_WHAT_BY_KIND = {
    "point": "a point",
    "points": "one or more points",
    "box": "a region (x1,y1,x2,y2): its top-left and bottom-right corners",
    "direction": "one of up, down, left, right",
    "text": "a quoted string",
    "answer": "a quoted string",
    "key": "key names such as 'enter' or 'ctrl c'",
    "ref": "a snapshot reference such as 'e12' or 'f3e12'",
}
_KW_RE = re.compile(r"\s*([A-Za-z_]\w*)\s*=(?!=)\s*(.*)", re.DOTALL)
_FENCE_TAIL_RE = re.compile(r"(?:```[A-Za-z0-9_+-]*|`)$")
_BR_TAIL_RE = re.compile(r"<br\s*/?>$")
_MARKUP_TAIL_RE = re.compile(r"(?:<br\s*/?>|</[A-Za-z][\w:.-]{0,30}\s*>|(?<!`)`+)$")
_BARE_NUMBER_RE = re.compile(r"\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)\s*$")


def expected_form(name: str, params: Sequence[ParamSpec]) -> str:
    """`click(start_box='<|box_start|>(x1,y1)<|box_end|>')`: the form the prompt teaches."""
    parts = [f"{p.name}={_FORM_BY_KIND.get(p.kind, repr('...'))}" for p in params]
    parts = [f"[{s}]" if p.optional else s for s, p in zip(parts, params, strict=True)]
    return f"{name}({', '.join(parts)})"


def clean_reply(
    text: str, *, strip_tokens: bool = True, first_only: bool = True
) -> tuple[str, list[str], bool]:
    """The text kept in history, the tokens/markup stripped, and whether a continuation was dropped."""
    reply = parse_reply(text, {}, strip_tokens=strip_tokens, first_only=first_only, forbidden={})
    return reply.cleaned, reply.stripped_tokens, reply.truncated


def parse_reply(
    text: str,
    specs: Mapping[str, Sequence[ParamSpec]],
    *,
    strip_tokens: bool = True,
    first_only: bool = True,
    forbidden: Mapping[str, str] | None = None,
    aliases: Mapping[str, str] | None = None,
) -> ParsedReply:
    """Parse one model reply against the offered actions. Never raises on any text.

    `forbidden` defaults to the closed action set's refusals, `aliases` to the names the
    action specs declare (double_click -> left_double).
    """
    text = text if isinstance(text, str) else str(text)
    forbidden = DEFAULT_FORBIDDEN if forbidden is None else forbidden
    aliases = ALIASES if aliases is None else aliases
    work, stripped = strip_template_tokens(text) if strip_tokens else (text, [])
    shapes = {
        name.lower(): (len(ps), bool(ps) and ps[-1].kind in ("text", "answer")) for name, ps in specs.items()
    }
    shapes.update({a: shapes[t] for a, t in aliases.items() if t in shapes and a not in shapes})
    keywords = UI_TARS_KEYWORDS | {p.name for params in specs.values() for p in params}
    call, marker = locate_call(work, first_only=first_only, shapes=shapes or None, keywords=keywords)

    if call is None:
        cleaned = _tidy_tail(work, stripped) if strip_tokens else text
        thought = thought_before(work, marker if marker is not None else len(work))
        if marker is None:
            reason = f"Could not find an Action: line in your reply. {GRAMMAR_HINT}"
        elif first_only and is_quoted(work, marker):
            reason = (
                "The only `Action:` in your reply is quoted (inside quotes or a > block), and quoted "
                f"text is never executed. Write your own action on its own line. {GRAMMAR_HINT}"
            )
        else:
            reason = f"Could not read an action call after `Action:`. {GRAMMAR_HINT}"
        return ParsedReply(text, cleaned, _tidy_thought(thought, strip_tokens), None, Rejection(reason),
                           stripped, False)  # fmt: skip

    action, rejection = _bind(call, specs, forbidden, aliases, strip_tokens, stripped)
    # History shows the action under its offered name (double_click -> left_double).
    cleaned, truncated = _cleaned_text(work, call, action.raw, strip_tokens, first_only, stripped)
    thought = _tidy_thought(thought_before(work, call.marker), strip_tokens)
    return ParsedReply(
        text, cleaned, thought, action if rejection is None else None, rejection, stripped, truncated
    )


def _strip_tail(text: str, piece: re.Pattern[str], stripped: list[str] | None = None) -> str:
    """Peel whitespace and trailing `piece`s off the end, one at a time.

    Each piece is short, so only the last 64 characters are searched: that keeps this
    linear where a single `(?:…)*$` regex goes quadratic on a long run of markup.
    """
    while True:
        text = text.rstrip()
        window = len(text) - 64 if len(text) > 64 else 0
        m = piece.search(text, window)
        if not m:
            return text
        if stripped is not None and not m.group(0).startswith("`"):
            stripped.append(m.group(0))
        text = text[: m.start()]


def _tidy_thought(thought: str, strip_tokens: bool) -> str:
    return _strip_tail(thought, _BR_TAIL_RE) if strip_tokens else thought.strip()


def _tidy_tail(text: str, stripped: list[str]) -> str:
    """Drop stray markup (<br>, </answer>) and fences at the very end of the text kept in history."""
    return _strip_tail(_drop_line_end_br(text, stripped), _MARKUP_TAIL_RE, stripped)


def _drop_line_end_br(text: str, stripped: list[str]) -> str:
    """`<br>` at the end of a line is HTML leaking into plain text; inside a line it may be content."""
    if "<br" not in text:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        end = "\r" if line.endswith("\r") else ""
        peeled = _strip_tail(line, _BR_TAIL_RE, stripped)
        if peeled != line.rstrip():
            lines[i] = peeled + end
    return "\n".join(lines)


def _cleaned_text(
    work: str, call: Call, raw: str, strip_tokens: bool, first_only: bool, stripped: list[str]
) -> tuple[str, bool]:
    if not first_only:
        return (_tidy_tail(work, stripped) if strip_tokens else work), False
    rest = work[call.end :]
    junk = junk_prefix_len(rest)
    truncated = bool(rest[junk:].strip())
    # A code fence opened before the call would be left unclosed in history: drop it.
    prefix = _strip_tail(work[: call.start], _FENCE_TAIL_RE)
    if prefix:
        prefix += " " if prefix.endswith((":", "：", "*")) else "\n"
    if strip_tokens:
        stripped.extend(re.findall(r"<br\s*/?>|</[A-Za-z][\w:.-]{0,30}\s*>", rest[:junk]))
        return _drop_line_end_br(prefix, stripped) + raw, truncated
    # Without stripping, markup glued to the call stays in history, as the baseline kept it.
    return prefix + raw + rest[:junk].rstrip(), truncated


def _resolve_name(
    written: str, specs: Mapping[str, Sequence[ParamSpec]], aliases: Mapping[str, str]
) -> str | None:
    base = written.split(".")[-1]
    for candidate in (base, base.lower(), aliases.get(base.lower(), "")):
        if candidate in specs:
            return candidate
    return None


def _split_args(call: Call) -> tuple[list[tuple[str, str]], list[str]]:
    """Raw argument texts -> (keyword, value) pairs and positional values."""
    keyword: list[tuple[str, str]] = []
    positional: list[str] = []
    for arg in call.args:
        if not arg.strip():
            continue
        m = _KW_RE.match(arg)
        if m and not arg.lstrip().startswith(("'", '"')):
            keyword.append((m.group(1), m.group(2).strip()))
        else:
            positional.append(arg.strip())
    return keyword, positional


def _literal(value: str) -> tuple[str, bool]:
    """A quoted literal's decoded content, or bare text as written; and whether it was quoted."""
    v = value.strip()
    for q in ("'''", '"""', "'", '"'):
        if v.startswith(q) and v.endswith(q) and len(v) >= 2 * len(q):
            return decode_escapes(v[len(q) : -len(q)]), True
    return v, False


def _convert(kind: str, value: str, strip_tokens: bool, stripped: list[str]) -> Any:
    text, quoted = _literal(value)
    if kind == "point":
        return parse_point(text)
    if kind == "points":
        return parse_points(text)
    if kind == "box":
        return parse_box(text)
    if kind == "direction":
        return parse_direction(text)
    if kind == "key":
        return parse_key(text)
    if kind == "ref":
        return normalise_ref(text)
    if strip_tokens:
        text, removed = strip_value_tail(text)
        stripped.extend(removed)
    return text.strip() if kind == "answer" else text  # an answer, not its layout


def _bind(
    call: Call,
    specs: Mapping[str, Sequence[ParamSpec]],
    forbidden: Mapping[str, str],
    aliases: Mapping[str, str],
    strip_tokens: bool,
    stripped: list[str],
) -> tuple[Action, Rejection | None]:
    keyword, positional = _split_args(call)
    base = call.name.split(".")[-1].lower()
    reason = next((msg for name, msg in forbidden.items() if name.lower() == base), None)
    name = _resolve_name(call.name, specs, aliases)
    if reason is not None or name is None:
        generic = {k: _literal(v)[0] for k, v in keyword}
        generic.update({f"arg{i}": _literal(v)[0] for i, v in enumerate(positional)})
        action = Action(call.name, generic, call.raw)
        if reason is not None:
            return action, Rejection(f"`{call.name}` is not allowed. {reason}", action)
        offered = ", ".join(specs) or "none"
        return action, Rejection(f"Unknown action `{call.name}`. Available actions: {offered}.", action)

    params = list(specs[name])
    by_name = {p.name: p for p in params}
    form = expected_form(name, params)
    args: dict[str, Any] = {}
    action = Action(name, args, f"{name}({call.inner})")

    def malformed(p: ParamSpec, value: str) -> Rejection:
        shown = value if len(value) <= 60 else value[:57] + "..."
        return Rejection(f"{name}: could not read {p.name} from {shown}; it must be {_WHAT_BY_KIND.get(p.kind, p.kind)}. "
                         f"Expected: {form}", action)  # fmt: skip

    leftovers: list[tuple[str, str]] = []
    for kw, value in keyword:
        target = kw if kw in by_name else KEYWORD_ALIASES.get(kw)
        if target not in by_name or target in args:
            leftovers.append((kw, value))
            continue
        converted = _convert(by_name[target].kind, value, strip_tokens, stripped)
        if converted is None:
            return action, malformed(by_name[target], value)
        args[target] = converted

    # `click(x=100, y=200)` and `click(100, 200)`: two bare numbers make one point.
    leftover_names = [k for k, _ in leftovers]
    if "x" in leftover_names and "y" in leftover_names:
        xy = dict(leftovers)
        leftovers = [(k, v) for k, v in leftovers if k not in ("x", "y")]
        positional.insert(0, f"({_literal(xy['x'])[0]},{_literal(xy['y'])[0]})")

    queue = list(positional)
    for p in params:
        if p.name in args or not queue:
            continue
        if (
            p.kind == "point"
            and len(queue) >= 2
            and _BARE_NUMBER_RE.match(queue[0])
            and _BARE_NUMBER_RE.match(queue[1])
        ):
            queue[:2] = [f"({queue[0].strip()},{queue[1].strip()})"]
        if p.kind == "box" and len(queue) >= 4 and all(_BARE_NUMBER_RE.match(v) for v in queue[:4]):
            queue[:4] = [f"({','.join(v.strip() for v in queue[:4])})"]  # zoom(10, 20, 300, 80)
        converted = _convert(p.kind, queue[0], strip_tokens, stripped)
        if converted is None:
            if p.optional:
                continue  # scroll('down'): the optional point was left out
            return action, malformed(p, queue[0])
        queue.pop(0)
        if p.kind == "points":  # click_many('(1,2)', '(3,4)'): one point per argument
            while queue and (more := parse_points(_literal(queue[0])[0])) is not None:
                converted = converted + more
                queue.pop(0)
        args[p.name] = converted
    if queue:
        return action, Rejection(
            f"{name}: too many arguments ({len(positional)} given). Expected: {form}", action
        )

    # A keyword the model misnamed (type(text='hi')) fills the first free parameter it fits.
    for _kw, value in leftovers:
        for p in params:
            if (
                p.name not in args
                and (converted := _convert(p.kind, value, strip_tokens, stripped)) is not None
            ):
                args[p.name] = converted
                break

    for p in params:
        if p.name not in args:
            if not p.optional:
                return action, Rejection(
                    f"{name}: missing required argument {p.name}. Expected: {form}", action
                )
            if p.kind in ("text", "answer"):
                args[p.name] = ""  # finished() is an empty answer
    if strip_tokens:
        action.raw = _strip_raw_markup(action.raw, stripped)
    return action, None


def _strip_raw_markup(raw: str, stripped: list[str]) -> str:
    """Take markup stripped from a value out of the raw action too, so history never shows
    `type(content='ottawa<br>')` for the model to copy (the way tokens recurred)."""
    for piece in dict.fromkeys(p for p in stripped if p.startswith("<")):
        raw = re.sub(re.escape(piece) + r"(\s*['\"])", r"\1", raw)
    return raw
