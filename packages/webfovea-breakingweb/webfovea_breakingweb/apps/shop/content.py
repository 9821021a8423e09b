"""The shop's seeded content: 240 products in 8 categories, two saved addresses and 14 past
orders (placed, shipped, delivered), all drawn from the rng the engine gives (per seed)."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.shop.state import (
    DELIVERY,
    Address,
    Order,
    OrderLine,
    Product,
    ShopState,
)

CATEGORIES: dict[str, tuple[str, ...]] = {  # category -> product nouns
    "Headphones": ("Headphones", "Earbuds", "Headset"),
    "Kettles": ("Kettle", "Travel kettle", "Gooseneck kettle"),
    "Backpacks": ("Backpack", "Daypack", "Laptop bag"),
    "Running shoes": ("Running shoes", "Trail shoes", "Racing flats"),
    "Desk lamps": ("Desk lamp", "Clamp lamp", "Reading light"),
    "Coffee makers": ("Coffee maker", "Espresso machine", "French press"),
    "Blenders": ("Blender", "Hand blender", "Smoothie maker"),
    "Jackets": ("Rain jacket", "Down jacket", "Softshell jacket"),
}
BRANDS = ("Altura", "Brenna", "Corvo", "Dalby", "Elkin", "Fjell", "Gravo", "Holt")
ADJECTIVES = ("Classic", "Compact", "Pro", "Lite", "Urban", "Studio", "Trek", "Nova", "Prime", "Eco")
COLOURS = ("black", "white", "grey", "blue", "red", "green")
PRICE_RANGE: dict[str, tuple[int, int]] = {  # euros
    "Headphones": (19, 249),
    "Kettles": (15, 89),
    "Backpacks": (25, 159),
    "Running shoes": (49, 189),
    "Desk lamps": (12, 119),
    "Coffee makers": (29, 399),
    "Blenders": (19, 179),
    "Jackets": (39, 299),
}
PER_CATEGORY = 30
ADDRESSES = (
    ("Home", "Mira Holm", "12 Elm Street", "Springfield", "40213"),
    ("Work", "Mira Holm", "Harbour Office, 4 Quay Road", "Portsmouth", "51877"),
)


def _products(r: random.Random) -> list[Product]:
    out: list[Product] = []
    names: set[str] = set()
    for category, nouns in CATEGORIES.items():
        lo, hi = PRICE_RANGE[category]
        while sum(p.category == category for p in out) < PER_CATEGORY:
            brand = r.choice(BRANDS)
            name = f"{brand} {r.choice(ADJECTIVES)} {r.choice(nouns)} {r.choice('ABCDEFGHKLMNPRSTVXZ')}{r.randint(1, 9)}"
            if name in names:
                continue
            names.add(name)
            colour = r.choice(COLOURS)
            out.append(
                Product(
                    id="",
                    name=name,
                    brand=brand,
                    category=category,
                    price=r.randint(lo, hi) * 100 + r.choice((0, 0, 50, 90, 99)),
                    rating=round(r.uniform(2.5, 5.0), 1),
                    reviews=r.randint(0, 900),
                    stock=r.choice((0, 1, 2, 3, 5, 8, 12, 20, 35, 60)),
                    colour=colour,
                    description=f"A {colour} {name.split(' ', 2)[2].rsplit(' ', 1)[0].lower()} from {brand}.",
                )
            )
    r.shuffle(out)  # ids in catalogue order, not grouped by category
    return [p.model_copy(update={"id": f"P-{i:04d}"}) for i, p in enumerate(out, 1)]


def _orders(r: random.Random, products: list[Product]) -> list[Order]:
    days = sorted(r.sample(range(0, 88), 14))  # distinct dates from 2024-10-01
    statuses = ["delivered"] * 9 + ["shipped"] * 3 + ["placed"] * 2  # oldest first
    home = ADDRESSES[0]
    out = []
    for i, (day, status) in enumerate(zip(days, statuses, strict=True), 1):
        picked = r.sample(products, r.choice((1, 1, 2, 3)))
        lines = [OrderLine(product=p.id, name=p.name, qty=r.choice((1, 1, 2)), price=p.price) for p in picked]
        delivery = r.choice(("standard", "standard", "express", "pickup"))
        fee = DELIVERY[delivery][1]
        addr = home if r.random() < 0.7 else ADDRESSES[1]
        month, dom = (10, day + 1) if day < 31 else (11, day - 30) if day < 61 else (12, day - 60)
        out.append(
            Order(
                id=f"O-{i:04d}",
                placed=f"2024-{month:02d}-{dom:02d}",
                lines=lines,
                name=addr[1],
                street=addr[2],
                city=addr[3],
                postcode=addr[4],
                delivery=delivery,  # type: ignore[arg-type]
                shipping=fee,
                total=sum(ln.qty * ln.price for ln in lines) + fee,
                status=status,  # type: ignore[arg-type]
            )
        )
    return out


def build(r: random.Random, seed: int) -> ShopState:
    products = _products(r)
    addresses = [
        Address(id=f"A-{i:04d}", label=a[0], name=a[1], street=a[2], city=a[3], postcode=a[4])
        for i, a in enumerate(ADDRESSES, 1)
    ]
    return ShopState(products=products, addresses=addresses, orders=_orders(r, products))
