"""The shop a seed starts with: 6 categories of 12 products, a cart of two lines, five addresses,
three cards, 14 past orders in every status, one return and 8 messages.

Deterministic by the generator the engine hands over (`rng("app:ecommerce", seed, None,
"content")`, engine/spec.py `AppSpec.initial`), so the task generator reads exactly the content
the server serves. A product's name is its brand and kind, unique in the catalogue; timestamps
come from the fixed epoch backwards.
"""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.ecommerce.state import (
    Address,
    Card,
    CartLine,
    Category,
    EcommerceState,
    Message,
    Order,
    OrderLine,
    Product,
    Return,
)
from webfovea_breakingweb.engine.determinism import stamp

CLOTHES = ("XS", "S", "M", "L", "XL")
SHOES = ("38", "39", "40", "41", "42", "43", "44", "45")
# slug, name, brands, (kind, base price in dollars), sizes, colours
CATEGORIES = (
    ("clothing", "Clothing", ("Fenwick", "Marlow & Co", "Northpeak", "Tidewell"),
     (("Rain Jacket", 89), ("Fleece Hoodie", 54), ("Merino T-Shirt", 39), ("Chino Trousers", 49), ("Wool Jumper", 72), ("Denim Shirt", 45)),
     CLOTHES, ("Navy", "Olive", "Charcoal", "Rust", "Stone")),
    ("shoes", "Shoes", ("Stridewell", "Korva", "Northpeak", "Brambly"),
     (("Trail Runner", 119), ("Leather Boot", 149), ("Canvas Sneaker", 59), ("Hiking Shoe", 129), ("Slip-On Loafer", 79)),
     SHOES, ("Black", "Brown", "White", "Grey")),
    ("electronics", "Electronics", ("Voltique", "Sonara", "Pixelbay", "Ampwise"),
     (("Wireless Earbuds", 79), ("Bluetooth Speaker", 59), ("USB-C Charger", 25), ("Smart Watch", 199), ("Noise-Cancelling Headphones", 249), ("Power Bank", 39)),
     (), ("Black", "White", "Blue")),
    ("kitchen", "Home & Kitchen", ("Hearthly", "Copperleaf", "Oakmere", "Brisa"),
     (("Cast Iron Skillet", 42), ("Chef's Knife", 65), ("French Press", 29), ("Electric Kettle", 49), ("Bamboo Cutting Board", 22), ("Stand Mixer", 289)),
     (), ()),
    ("books", "Books", ("Harbour Press", "Quillstone", "Fernleaf Books", "Lantern House"),
     (("Field Guide to Birds", 24), ("Sourdough Handbook", 28), ("Atlas of Lost Rivers", 35), ("Beginner's Woodworking", 31), ("Night Sky Almanac", 19)),
     (), ()),
    ("outdoor", "Sports & Outdoors", ("Northpeak", "Ridgeline", "Campfield", "Tidewell"),
     (("Two-Person Tent", 179), ("Sleeping Bag", 99), ("Headlamp", 29), ("Insulated Water Bottle", 27), ("Trekking Poles", 59), ("Daypack 22L", 69)),
     (), ("Green", "Orange", "Grey")),
)  # fmt: skip
PER_CATEGORY = 12
SELLERS = ("Kestrel Retail", "Brightside Goods", "Ashcombe Traders", "Lumen Outlet")
ADDRESSES = (
    ("Robin Vale", "14 Alder Street", "Millbrook", "MB2 4QT", "United Kingdom"),
    ("Sam Vale", "3 Quarry Lane", "Eastholm", "EH7 1BD", "United Kingdom"),
    ("Jo Ortiz", "221 Harbour Road", "Porthaven", "PH1 9XN", "United Kingdom"),
    ("Priya Nand", "8 Linden Court", "Westford", "WF3 6JR", "United Kingdom"),
    ("Tomas Kell", "Rue des Tilleuls 12", "Lyon", "69002", "France"),
)
CARDS = (("Visa ending 4242", "09/27"), ("Mastercard ending 5100", "03/28"), ("Amex ending 0005", "11/26"))
STATUSES = ("processing",) * 5 + ("shipped",) * 3 + ("delivered",) * 5 + ("cancelled",)
SHIPPING = {"standard": 499, "express": 999, "next-day": 1499}
FREE_OVER = 3500  # standard delivery is free from this subtotal (cents)
MESSAGES = (
    ("Kestrel Orders", "Your parcel is on its way"), ("Brightside Goods", "Thanks for your order"),
    ("Ashcombe Traders", "A question about your review"), ("Kestrel Returns", "Your refund was issued"),
    ("Lumen Outlet", "Restock alert: items you viewed"), ("Kestrel Orders", "Delivery window updated"),
    ("Brightside Goods", "Care guide for your purchase"), ("Kestrel Prime", "Your membership renews soon"),
)  # fmt: skip


def shipping(delivery: str, subtotal: int) -> int:
    """What a delivery speed costs for a subtotal (standard is free from FREE_OVER)."""
    if delivery == "standard" and subtotal >= FREE_OVER:
        return 0
    return SHIPPING[delivery]


def _products(r: random.Random) -> list[Product]:
    out: list[Product] = []
    for slug, _, brands, kinds, sizes, colours in CATEGORIES:
        combos = [(b, k) for k in kinds for b in brands]
        for brand, (kind, base) in sorted(r.sample(combos, PER_CATEGORY), key=lambda x: (x[1][0], x[0])):
            # $54.99, $54.49 or $55.00 around the kind's base price
            cents = max(5, round(base * r.uniform(0.7, 1.35))) * 100 - r.choice((0, 1, 51))
            pick = (
                sorted(r.sample(range(len(colours)), min(len(colours), r.randint(2, 4)))) if colours else []
            )
            out.append(
                Product(id=f"PR-{len(out) + 1:04d}", category=slug, name=f"{brand} {kind}", brand=brand,
                        seller=r.choice(SELLERS), price=cents, rating=round(r.uniform(2.6, 4.9), 1),
                        reviews=r.randint(3, 4800), sizes=list(sizes), colours=[colours[i] for i in pick],
                        stock=0 if r.random() < 0.06 else r.randint(2, 60),
                        description=f"The {kind.lower()} from {brand}: made to last, easy to care for.")
            )  # fmt: skip
    return out


def _line(r: random.Random, p: Product) -> OrderLine:
    return OrderLine(product=p.id, name=p.name, size=r.choice(p.sizes) if p.sizes else "",
                     colour=r.choice(p.colours) if p.colours else "", qty=r.choice((1, 1, 1, 2, 3)), price=p.price)  # fmt: skip


def build(r: random.Random, seed: int) -> EcommerceState:
    del seed
    state = EcommerceState()
    state.categories = [
        Category(id=f"CAT-{i:02d}", slug=c[0], name=c[1]) for i, c in enumerate(CATEGORIES, 1)
    ]
    state.products = _products(r)
    state.addresses = [
        Address(
            id=f"AD-{i:04d}", name=a[0], street=a[1], city=a[2], postcode=a[3], country=a[4], default=i == 1
        )
        for i, a in enumerate(ADDRESSES, 1)
    ]
    state.cards = [
        Card(id=f"PM-{i:04d}", label=c[0], holder=state.me, expires=c[1], default=i == 1)
        for i, c in enumerate(CARDS, 1)
    ]
    stocked = [p for p in state.products if p.stock > 0]
    statuses = list(STATUSES)
    r.shuffle(statuses)
    for i, status in enumerate(statuses, 1):
        # Oldest first; the newest were placed a day ago, the oldest six weeks back.
        lines = [_line(r, p) for p in r.sample(stocked, r.randint(1, 3))]
        subtotal = sum(x.price * x.qty for x in lines)
        delivery = r.choice(("standard", "standard", "express", "next-day"))
        ship = shipping(delivery, subtotal)
        state.orders.append(
            Order(id=f"O-{i:04d}", placed=stamp(-(15 - i) * 3 * 24 * 60 - r.randint(0, 600)), status=status,  # type: ignore[arg-type]
                  lines=lines, address=r.choice(state.addresses[:3]).id, delivery=delivery,  # type: ignore[arg-type]
                  payment=r.choice(state.cards).id, shipping=ship, total=subtotal + ship)
        )  # fmt: skip
    delivered = [o for o in state.orders if o.status == "delivered"]
    first = delivered[0]
    state.returns.append(
        Return(id="RT-0001", order=first.id, product=first.lines[0].product, qty=1, reason="changed-mind",
               method="drop-off", created=stamp(-2 * 24 * 60))
    )  # fmt: skip
    ordered = {x.product for o in state.orders for x in o.lines}
    for i, p in enumerate(r.sample([p for p in stocked if p.id not in ordered], 2), 1):
        state.cart.append(
            CartLine(id=f"CL-{i:04d}", product=p.id, size=p.sizes[len(p.sizes) // 2] if p.sizes else "",
                     colour=p.colours[0] if p.colours else "", qty=1)
        )  # fmt: skip
    for i, (sender, subject) in enumerate(MESSAGES, 1):
        state.messages.append(
            Message(id=f"M-{i:04d}", sender=sender, subject=subject,
                    body=f"Hello {state.me.split()[0]}, {subject.lower()}. You can see the details under Your orders.",
                    created=stamp(-(9 - i) * 7 * 60), read=i in (2, 5))
        )  # fmt: skip
    state.counter = len(state.orders) + len(state.cart) + len(state.returns)
    return state
