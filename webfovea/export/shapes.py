"""The two record shapes trainers read, and the images they point to.

- sharegpt (LLaMA-Factory's `sharegpt`, ms-swift's `messages`): string contents, an `<image>`
  tag where each image goes, `images` the files in the same order;
- TRL's conversational shape: every content a list of `{"type": "text"}` / `{"type": "image"}`
  parts, `images` in the same order.
One JSONL cannot be both: Arrow (what `datasets` loads JSON into) wants one type per column.
Images are copied when a record uses them, once each, named by their SHA-256.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from webfovea.export.steps import Part
from webfovea.record.confined import read_image

IMAGE_TAG = "<image>"  # LLaMA-Factory's and ms-swift's placeholder: one per image, in order
FEEDBACK_HEADING = "## What happened after your last action"  # models/messages.py intro_text


class Images:
    """Images copied into the export once each, named by their digest."""

    def __init__(self, root: Path) -> None:
        self.root = root / "images"
        self.root.mkdir()
        self.seen: set[str] = set()

    def add(self, folder: Path, name: str) -> str:
        data = read_image(folder, name)  # inside the task folder, and the PNG its name claims
        digest = hashlib.sha256(data).hexdigest()
        rel = f"images/{digest}{Path(name).suffix.lower() or '.png'}"
        if digest not in self.seen:
            (self.root.parent / rel).write_bytes(data)
            self.seen.add(digest)
        return rel


@dataclass
class Turn:
    """One step's input and reply; `parts` name image files of `folder` until `copied`."""

    system: str
    parts: list[Part]
    reply: str
    folder: Path

    def copied(self, images: Images) -> Turn:
        parts = [Part(image=images.add(self.folder, p.image)) if p.image else p for p in self.parts]
        return replace(self, parts=parts)

    def user_text(self) -> str:
        return "\n".join(IMAGE_TAG if p.image else str(p.text) for p in self.parts)

    def user_parts(self) -> list[dict[str, Any]]:
        return [{"type": "image"} if p.image else {"type": "text", "text": p.text} for p in self.parts]

    def images(self) -> list[str]:
        return [str(p.image) for p in self.parts if p.image]


def text_message(role: str, text: str) -> dict[str, Any]:
    return {"role": role, "content": [{"type": "text", "text": text}]}


def later_turn(turn: Turn) -> Turn:
    """A later turn of an episode: the feedback section of its input, the current screenshot
    with its label, and the closing line (the conversation itself is the history)."""
    intro = str(turn.parts[0].text or "")
    _, found, rest = intro.partition(FEEDBACK_HEADING)
    head = (FEEDBACK_HEADING + rest.split("\n\n## ", 1)[0]) if found else "(no feedback on the last action)"
    return replace(turn, parts=[Part(text=head.strip()), *turn.parts[-3:]])


def sft_records(turns: list[Turn], per: str, images: Images) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the sharegpt record, the TRL record) of one step, or of an episode's steps."""
    sharegpt: list[dict[str, Any]] = [{"role": "system", "content": turns[0].system}]
    trl: list[dict[str, Any]] = [text_message("system", turns[0].system)]
    files: list[str] = []
    for i, turn in enumerate(turns):
        t = (turn if per == "step" or i == 0 else later_turn(turn)).copied(images)
        sharegpt += [{"role": "user", "content": t.user_text()}, {"role": "assistant", "content": t.reply}]
        trl += [{"role": "user", "content": t.user_parts()}, text_message("assistant", t.reply)]
        files += t.images()
    return {"messages": sharegpt, "images": files}, {"messages": trl, "images": files}


def dpo_records(turn: Turn, rejected: str, images: Images) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the sharegpt record, the TRL record) of a pair: `turn`'s input, its reply chosen."""
    t = turn.copied(images)
    sharegpt = {
        "messages": [{"role": "system", "content": t.system}, {"role": "user", "content": t.user_text()}],
        "chosen": {"role": "assistant", "content": t.reply},
        "rejected": {"role": "assistant", "content": rejected},
        "images": t.images(),
    }
    trl = {
        "prompt": [text_message("system", t.system), {"role": "user", "content": t.user_parts()}],
        "chosen": [text_message("assistant", t.reply)],
        "rejected": [text_message("assistant", rejected)],
        "images": t.images(),
    }
    return sharegpt, trl


def dataset_info(fmt: str) -> dict[str, Any]:
    """LLaMA-Factory's registration of the sharegpt file (its `dataset_info.json`)."""
    tags = {
        "role_tag": "role",
        "content_tag": "content",
        "user_tag": "user",
        "assistant_tag": "assistant",
        "system_tag": "system",
    }
    if fmt == "sft":
        columns = {"messages": "messages", "images": "images"}
        return {
            "webfovea_sft": {
                "file_name": "sft.jsonl",
                "formatting": "sharegpt",
                "columns": columns,
                "tags": tags,
            }
        }
    columns = {"messages": "messages", "chosen": "chosen", "rejected": "rejected", "images": "images"}
    entry = {
        "file_name": "dpo.jsonl",
        "formatting": "sharegpt",
        "ranking": True,
        "columns": columns,
        "tags": tags,
    }
    return {"webfovea_dpo": entry}
