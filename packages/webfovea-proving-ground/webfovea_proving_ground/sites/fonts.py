"""A web font that draws private-use code points as digits, built at start-up.

Sites that obfuscate numbers ship a font whose cmap maps code points like U+E003 to the
outline of, say, "7": the DOM text is meaningless and only the rendered page shows the
value. We build one from the DejaVu Sans digit glyphs with fontTools, in memory.
"""

from __future__ import annotations

import io
import random
from functools import lru_cache
from pathlib import Path

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
PUA_BASE = 0xE000


class FontSourceMissing(RuntimeError):
    pass


def digit_map(seed: int) -> dict[str, str]:
    """Digit -> private-use character, a seeded shuffle of U+E000..U+E009."""
    order = list(range(10))
    random.Random(f"pua-{seed}").shuffle(order)
    return {str(d): chr(PUA_BASE + order[d]) for d in range(10)}


def encode_pua(text: str, seed: int) -> str:
    m = digit_map(seed)
    return "".join(m.get(ch, ch) for ch in text)


def decode_pua(text: str, seed: int = 0) -> str:
    """What the screenshot shows for DOM text drawn with the seed's font."""
    inverse = {v: k for k, v in digit_map(seed).items()}
    return "".join(inverse.get(ch, ch) for ch in text)


def require_font_source(source: Path = DEJAVU) -> None:
    """Fail at start-up, with the fix, rather than on the first font request."""
    if not source.exists():
        raise FontSourceMissing(
            f"{source} not found: the rankings site builds its font from DejaVu Sans. "
            "Install it (Debian/Ubuntu: apt-get install -y fonts-dejavu-core)."
        )


@lru_cache(maxsize=4)
def build_pua_font(seed: int, source: Path = DEJAVU) -> bytes:
    """TrueType bytes: the PUA digits plus the punctuation numbers need (. , - +)."""
    require_font_source(source)
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(str(source), lazy=True)
    best = font.getBestCmap()
    options = subset.Options()
    options.layout_features = []
    # Layout and device tables are most of the load time and nothing draws digits with them.
    options.drop_tables += ["FFTM", "GSUB", "GPOS", "GDEF", "kern", "hdmx", "LTSH", "VDMX"]
    options.name_IDs = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in "0123456789.,-+ "])
    subsetter.subset(font)
    # Point the private-use code points at the digit outlines, and drop the ASCII digits
    # themselves, so this font draws digits only from the obfuscated text.
    for table in font["cmap"].tables:
        if table.isUnicode():
            for d, ch in digit_map(seed).items():
                table.cmap[ord(ch)] = best[ord(d)]
                table.cmap.pop(ord(d), None)
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue()
