"""CAPTCHA tiles drawn with Pillow at start-up: traffic lights among street furniture."""

from __future__ import annotations

import io
import random

from PIL import Image, ImageDraw

SIZE = 150
KINDS = ("car", "tree", "house", "hydrant", "bus")


def _background(rng: random.Random) -> Image.Image:
    img = Image.new("RGB", (SIZE, SIZE))
    d = ImageDraw.Draw(img)
    sky = (rng.randint(150, 200), rng.randint(190, 225), rng.randint(225, 250))
    ground = (rng.randint(90, 130),) * 3
    horizon = rng.randint(95, 115)
    d.rectangle([0, 0, SIZE, horizon], fill=sky)
    d.rectangle([0, horizon, SIZE, SIZE], fill=ground)
    for _ in range(30):  # speckle so tiles are not flat colour
        x, y = rng.randrange(SIZE), rng.randrange(SIZE)
        d.point((x, y), fill=(rng.randint(60, 240),) * 3)
    return img


def _draw(d: ImageDraw.ImageDraw, kind: str, rng: random.Random) -> None:
    ox, oy = rng.randint(-12, 12), rng.randint(-8, 8)
    if kind == "traffic_light":
        d.rectangle([72 + ox, 80 + oy, 78 + ox, 145], fill=(40, 40, 40))
        d.rounded_rectangle([55 + ox, 15 + oy, 95 + ox, 95 + oy], radius=8, fill=(25, 25, 25))
        lit = rng.randrange(3)
        for i, col in enumerate([(220, 30, 30), (240, 190, 20), (30, 200, 70)]):
            c = col if i == lit else tuple(v // 4 for v in col)
            d.ellipse([65 + ox, 21 + oy + 24 * i, 85 + ox, 41 + oy + 24 * i], fill=c)
    elif kind == "car":
        col = (rng.randint(50, 230), rng.randint(20, 120), rng.randint(20, 200))
        d.rounded_rectangle([25 + ox, 85 + oy, 125 + ox, 118 + oy], radius=6, fill=col)
        d.polygon(
            [(45 + ox, 85 + oy), (60 + ox, 62 + oy), (100 + ox, 62 + oy), (112 + ox, 85 + oy)], fill=col
        )
        for x in (45, 105):
            d.ellipse([x - 11 + ox, 108 + oy, x + 11 + ox, 130 + oy], fill=(20, 20, 20))
    elif kind == "tree":
        d.rectangle([68 + ox, 80 + oy, 82 + ox, 140], fill=(110, 70, 30))
        d.ellipse([35 + ox, 15 + oy, 115 + ox, 95 + oy], fill=(40, rng.randint(120, 170), 50))
    elif kind == "house":
        col = (rng.randint(160, 230), rng.randint(120, 180), rng.randint(90, 140))
        d.rectangle([35 + ox, 65 + oy, 115 + ox, 135], fill=col)
        d.polygon([(25 + ox, 68 + oy), (75 + ox, 22 + oy), (125 + ox, 68 + oy)], fill=(150, 40, 40))
        d.rectangle([65 + ox, 100 + oy, 85 + ox, 135], fill=(80, 50, 30))
    elif kind == "hydrant":
        d.rounded_rectangle([58 + ox, 70 + oy, 92 + ox, 135], radius=6, fill=(200, 30, 30))
        d.ellipse([56 + ox, 55 + oy, 94 + ox, 85 + oy], fill=(200, 30, 30))
        d.rectangle([46 + ox, 92 + oy, 104 + ox, 104 + oy], fill=(170, 20, 20))
    else:  # bus
        d.rounded_rectangle([10 + ox, 55 + oy, 140 + ox, 122 + oy], radius=8, fill=(240, 180, 30))
        for x in range(20, 130, 26):
            d.rectangle([x + ox, 64 + oy, x + 18 + ox, 86 + oy], fill=(160, 200, 230))
        for x in (35, 115):
            d.ellipse([x - 11 + ox, 112 + oy, x + 11 + ox, 134 + oy], fill=(20, 20, 20))


def captcha_solution(seed: int) -> list[int]:
    rng = random.Random(f"captcha-{seed}")
    return sorted(rng.sample(range(9), rng.choice([3, 4])))


def captcha_tiles(seed: int) -> list[bytes]:
    """Nine PNG tiles; the tiles in `captcha_solution(seed)` show a traffic light."""
    solution = set(captcha_solution(seed))
    rng = random.Random(f"captcha-tiles-{seed}")
    tiles = []
    for i in range(9):
        img = _background(rng)
        _draw(ImageDraw.Draw(img), "traffic_light" if i in solution else rng.choice(KINDS), rng)
        buf = io.BytesIO()
        img.save(buf, format="PNG")
        tiles.append(buf.getvalue())
    return tiles
