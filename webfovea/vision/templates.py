"""Templates of recurring widgets: an image and what it is, given by the user or learnt in a task.

A templates file (`templates = "FILE"` in the config; an A/B arm's `templates=FILE`) is TOML, one table
per template, each image path relative to the file:

    [templates.cookie_banner]
    image = "banner.png"          # a crop of the widget at CSS pixels (page zoom 100%)
    what = "the cookie banner"    # what it is: the model reads this in find_template's list
    click = [0.86, 0.5]           # where to act inside it, fractions of its box (default: centre)

`TemplateSet.learn` adds one taken from the task itself (the crop of an element a click
succeeded on). A bad file is a TemplatesError naming the file, the template and the key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image

from webfovea.vision.match import DEFAULT_THRESHOLD, Match, TemplateError

_KEYS = ("image", "what", "click", "threshold")


class TemplatesError(ValueError):
    """A templates file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Template:
    name: str
    what: str
    image: Image.Image
    click: tuple[float, float] = (0.5, 0.5)
    threshold: float = DEFAULT_THRESHOLD
    source: str = "given"  # "given" (a templates file) or "learnt" (a crop from this task)

    def find(self, screenshot: Image.Image, limit: int = 5) -> list[Match]:
        from webfovea.vision.matching import find  # numpy: only once a template is searched for

        return find(screenshot, self.image, threshold=self.threshold, limit=limit)

    def describe(self) -> str:
        return f"{self.name} ({self.what})"


@dataclass
class TemplateSet:
    """The templates a task can find: the file's, then the ones learnt during the task."""

    templates: dict[str, Template] = field(default_factory=dict)

    def get(self, name: str) -> Template | None:
        return self.templates.get(name.strip())

    def names(self) -> list[str]:
        return list(self.templates)

    def learn(
        self, name: str, what: str, crop: Image.Image, click: tuple[float, float] = (0.5, 0.5)
    ) -> Template:
        """Keep `crop` (taken from a screenshot at CSS scale) as the template `name`; a name
        already given by the file keeps the file's image."""
        if name in self.templates and self.templates[name].source == "given":
            return self.templates[name]
        if min(crop.size) < 6:
            raise TemplateError(f"a crop of {crop.width}x{crop.height} px is too small to learn")
        t = Template(name, what, crop.convert("RGB"), click, source="learnt")
        self.templates[name] = t
        return t


def _fraction_pair(path: Path, name: str, value: Any) -> tuple[float, float]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, (int, float)) and 0.0 <= v <= 1.0 for v in value)
    ):
        raise TemplatesError(f"{path}: {name}: `click` is [x, y], fractions of the box from 0 to 1")
    return float(value[0]), float(value[1])


def _template(path: Path, name: str, table: Any) -> Template:
    if not isinstance(table, dict):
        raise TemplatesError(f'{path}: {name}: give a table {{image = "FILE.png", what = "..."}}')
    unknown = sorted(set(table) - set(_KEYS))
    if unknown:
        raise TemplatesError(
            f"{path}: {name}: unknown key(s) {', '.join(unknown)}; a template has {', '.join(_KEYS)}"
        )
    image, what = table.get("image"), table.get("what")
    if not isinstance(image, str) or not image:
        raise TemplatesError(f"{path}: {name}: `image` must name a PNG or JPEG file")
    if not isinstance(what, str) or not what.strip():
        raise TemplatesError(f"{path}: {name}: `what` must say what the widget is")
    file = (path.parent / image).resolve()
    try:
        with Image.open(file) as im:
            img = im.convert("RGB")
    except (OSError, ValueError) as e:
        raise TemplatesError(f"{path}: {name}: cannot read the image {file}: {e}") from None
    if min(img.size) < 6:
        raise TemplatesError(
            f"{path}: {name}: the image is {img.width}x{img.height} px; 6 px a side at least"
        )
    click = _fraction_pair(path, name, table["click"]) if "click" in table else (0.5, 0.5)
    threshold = table.get("threshold", DEFAULT_THRESHOLD)
    if not isinstance(threshold, (int, float)) or not 0.0 < threshold <= 1.0:
        raise TemplatesError(f"{path}: {name}: `threshold` is an NCC score in (0, 1]")
    return Template(name, what.strip(), img, click, float(threshold))


def load_templates(path: Path | str) -> TemplateSet:
    """The templates of a TOML file (`[templates.NAME]` tables); TemplatesError when unusable."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise TemplatesError(f"cannot read the templates file {path}: {e.strerror or e}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise TemplatesError(f"{path}: not a TOML file: {e}") from None
    extra = sorted(set(data) - {"templates"})
    tables = data.get("templates")
    if extra or not isinstance(tables, dict) or not tables:
        raise TemplatesError(f"{path}: give one [templates.NAME] table per template (and nothing else)")
    return TemplateSet({name: _template(path, name, t) for name, t in tables.items()})


@lru_cache(maxsize=8)
def _cached(path: str, mtime_ns: int) -> TemplateSet:
    return load_templates(path)


def templates_of(path: str) -> TemplateSet:
    """The file's templates, read once while the file is unchanged (a fresh set each task
    would re-decode every image each call). The set is shared: learn into a copy."""
    p = Path(path)
    try:
        mtime = p.stat().st_mtime_ns
    except OSError as e:
        raise TemplatesError(f"cannot read the templates file {p}: {e.strerror or e}") from None
    return _cached(str(p.resolve()), mtime)
