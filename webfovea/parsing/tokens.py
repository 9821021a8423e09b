"""Self-generated chat-template tokens and stray trailing markup, in one table.

Models sometimes imitate the `<|box_start|>` syntax of the prompt and append template
tokens of their own (`<|eot_id|>`, `<|im_end|>` …); the paper saw them typed into
search boxes in 4.9% of episodes. Everything here is stripped by the parser, except the
two tokens the action grammar itself uses: `<|box_start|>` and `<|box_end|>`.
"""

from __future__ import annotations

import re

# (pattern, family). Order matters: compound headers (token + role + token) come
# before the single tokens they contain, so the role name goes with them.
TEMPLATE_TOKENS: tuple[tuple[str, str], ...] = (
    (r"<\|start_header_id\|>[^<>|\n]{0,24}<\|end_header_id\|>", "Llama 3 role header"),
    (r"<\|im_start\|>(?:system|user|assistant|tool)?", "ChatML turn start (with role)"),
    (r"<start_of_turn>(?:user|model)?", "Gemma turn start (with role)"),
    (r"<end_of_turn>", "Gemma turn end"),
    (
        r"<\|(?:eot_id|eom_id|begin_of_text|end_of_text|start_header_id|end_header_id|python_tag)\|>",
        "Llama 3",
    ),
    (r"<\|(?:im_end|im_start|im_sep|endoftext|endofprompt)\|>", "ChatML / GPT"),
    (
        r"<\|(?:end_of_turn|end|user|assistant|system|eos|bos|pad|file_separator|return|call|channel|message)\|>",
        "Phi / Gemini / misc",
    ),
    (r"<｜[^｜<>\n]{1,40}｜>", "DeepSeek full-width bars"),
    (r"</s>|\[/?INST\]|<</?SYS>>", "Llama 2 / Mistral"),
    # Any other <|name|>: Qwen alone has dozens (<|object_ref_start|>, <|vision_end|> …).
    (r"<\|(?!box_start\|>|box_end\|>)[A-Za-z0-9_.:\-]{1,40}\|>", "any other <|name|>"),
)

TEMPLATE_TOKEN_RE: re.Pattern[str] = re.compile("|".join(f"(?:{p})" for p, _ in TEMPLATE_TOKENS))

BOX_TOKENS = ("<|box_start|>", "<|box_end|>")

# One piece of markup that may trail an action or a value: <br>, <br/>, a closing tag
# (</answer>, </s>), a template token, or a code-fence/backtick left after the call.
_MARKUP = r"<br\s*/?>|</[A-Za-z][\w:.-]{0,30}\s*>|<\|(?!box_start\|>|box_end\|>)[^|<>\n]{1,40}\|>|<｜[^｜<>\n]{1,40}｜>"
TRAILING_JUNK_RE = re.compile(rf"(?:\s|{_MARKUP}|`|{TEMPLATE_TOKEN_RE.pattern})*")
# One piece at a time, trailing whitespace kept: a value ending in a newline still means Enter.
_VALUE_TAIL_RE = re.compile(rf"(?:<br\s*/?>|{TEMPLATE_TOKEN_RE.pattern})(\s*)$")
_CLOSING_TAG_TAIL_RE = re.compile(r"</([A-Za-z][\w:.-]{0,30})\s*>(\s*)$")
_WINDOW = 120  # longer than any single piece; searching only the tail keeps peeling linear
_MAX_PIECES = 64  # stray markup is a few pieces; a wall of tags is content, not a trailer


def strip_template_tokens(text: str) -> tuple[str, list[str]]:
    """Remove every template token; return the text and the tokens removed, in order."""
    found: list[str] = []

    def _drop(m: re.Match[str]) -> str:
        found.append(m.group(0))
        return ""

    return TEMPLATE_TOKEN_RE.sub(_drop, text), found


def strip_value_tail(value: str) -> tuple[str, list[str]]:
    """Strip stray markup at the end of a text value ('ottawa<br>', '42</answer>').

    A closing tag is only stray when the value never opened it, so a model that really
    types HTML (`<b>x</b>`) keeps it.
    """
    removed: list[str] = []
    for _ in range(_MAX_PIECES):
        tail_start = max(0, len(value.rstrip()) - _WINDOW)
        m = _VALUE_TAIL_RE.search(value, tail_start)
        if m:
            removed.append(m.group(0).strip())
            value = value[: m.start()] + m.group(1)
            continue
        m = _CLOSING_TAG_TAIL_RE.search(value, tail_start)
        if m and not re.search(rf"<{re.escape(m.group(1))}[\s>/]", value[: m.start()], re.IGNORECASE):
            removed.append(m.group(0).strip())
            value = value[: m.start()] + m.group(2)
            continue
        break
    return value, removed


def junk_prefix_len(text: str) -> int:
    """Length of the whitespace/markup/token run at the start of `text` (what trails a call)."""
    m = TRAILING_JUNK_RE.match(text)
    return m.end() if m else 0
