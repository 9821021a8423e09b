"""The pixel check measures only the cells the difference touches: the same cells, in CSS
pixels, as a measurement over the whole grid would give."""

import random

from PIL import Image, ImageChops, ImageDraw

from webfovea.feedback.pixels import compare

CELL = 30


def whole_grid(before: Image.Image, after: Image.Image, css: tuple[float, float]) -> list[tuple]:
    """The reference: every cell of the grid measured (the check before it was cropped)."""
    d = ImageChops.difference(before, after)
    r, g, b = d.split()
    mask = ImageChops.lighter(ImageChops.lighter(r, g), b).point(lambda v: 255 if v >= 24 else 0)
    gw, gh = max(1, d.size[0] // CELL), max(1, d.size[1] // CELL)
    small = mask.resize((gw, gh), Image.Resampling.BOX).tobytes()
    sx, sy = css[0] / gw, css[1] / gh
    return sorted(
        ((i % gw) * sx, (i // gw) * sy, (i % gw + 1) * sx, (i // gw + 1) * sy)
        for i, v in enumerate(small)
        if v >= 6
    )


def page_like(size: tuple[int, int]) -> Image.Image:
    img = Image.new("RGB", size, "white")
    d = ImageDraw.Draw(img)
    for y in range(10, size[1], 22):
        d.text((12, y), "Lorem ipsum dolor sit amet " * 8, fill=(40, 40, 40))
    return img


def test_a_small_change_is_found_in_its_cells_only():
    before = page_like((1440, 810))
    after = before.copy()
    ImageDraw.Draw(after).rectangle((690, 480, 719, 509), fill=(200, 0, 0))  # exactly cell (23, 16)
    change = compare(before, after, (1920, 1080))
    s = 1920 / 48
    assert change.boxes == [(23 * s, 16 * s, 24 * s, 17 * s)]
    assert change.near((23.5 * s, 16.5 * s), radius=0) and not change.near((100, 100))


def test_cropped_measurement_equals_the_whole_grid_on_odd_sizes():
    rng = random.Random(7)
    for size in ((1440, 810), (1367, 769), (1000, 700), (95, 47)):
        before = page_like(size)
        css = (size[0] * 1.333, size[1] * 1.333)
        for _ in range(25):
            after = before.copy()
            d = ImageDraw.Draw(after)
            for _ in range(rng.randint(1, 3)):
                x, y = rng.randrange(size[0]), rng.randrange(size[1])
                d.rectangle(
                    (x, y, x + rng.randint(0, 90), y + rng.randint(0, 45)),
                    fill=tuple(rng.randrange(256) for _ in range(3)),
                )
            got = sorted(compare(before, after, css).boxes)
            assert got == whole_grid(before, after, css), size


def test_a_thin_caret_does_not_count_and_identical_captures_are_not_compared():
    before = page_like((1440, 810))
    caret = before.copy()
    ImageDraw.Draw(caret).line((400, 300, 400, 316), fill=(0, 0, 0))
    assert not compare(before, caret, (1920, 1080))
    ticked = before.copy()
    ImageDraw.Draw(ticked).line((400, 300, 430, 329), fill=(0, 0, 0), width=3)
    assert compare(before, ticked, (1920, 1080))
    # `same`: the caller saw byte-identical PNGs; the images are not looked at
    assert not compare(before, ticked, (1920, 1080), same=True)


def test_different_sizes_are_one_changed_viewport():
    change = compare(Image.new("RGB", (100, 50)), Image.new("RGB", (120, 50)), (200, 100))
    assert change.boxes == [(0.0, 0.0, 200, 100)]
