"""The shop's typed state: one list per entity (the canonical diff and obligations name them).

Money is in cents (ints: no rounding drift in totals); the page shows euros.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.engine.spec import BaseState

Delivery = Literal["standard", "express", "pickup"]
DELIVERY: dict[str, tuple[str, int]] = {  # option -> (label, fee in cents)
    "standard": ("Standard (3–5 days)", 490),
    "express": ("Express (next day)", 990),
    "pickup": ("Pick-up at a store", 0),
}
REASONS = ("Damaged", "Wrong size", "Not as described", "No longer needed")


class _Rec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Product(_Rec):
    id: str
    name: str
    brand: str
    category: str
    price: int = Field(ge=1)  # cents
    rating: float = Field(ge=1, le=5)
    reviews: int = Field(ge=0)
    stock: int = Field(ge=0)
    colour: str
    description: str


class CartLine(_Rec):
    id: str
    product: str
    qty: int = Field(ge=1, le=20)


class Address(_Rec):
    id: str
    label: str
    name: str
    street: str
    city: str
    postcode: str


class OrderLine(_Rec):
    product: str
    name: str
    qty: int = Field(ge=1)
    price: int  # cents per unit at the time of the order


class Order(_Rec):
    id: str
    placed: str  # date
    lines: list[OrderLine] = Field(min_length=1)
    name: str = Field(min_length=2, max_length=80)
    street: str = Field(min_length=3, max_length=120)
    city: str = Field(min_length=2, max_length=80)
    postcode: str = Field(pattern=r"^\d{5}$")
    delivery: Delivery
    shipping: int
    total: int
    status: Literal["placed", "shipped", "delivered", "cancelled"]


class Return(_Rec):
    id: str
    order: str
    product: str
    qty: int = Field(ge=1)
    reason: Literal["Damaged", "Wrong size", "Not as described", "No longer needed"]
    status: Literal["requested"] = "requested"


class ShopState(BaseState):
    products: list[Product] = Field(default_factory=list)
    cart: list[CartLine] = Field(default_factory=list)
    addresses: list[Address] = Field(default_factory=list)
    orders: list[Order] = Field(default_factory=list)
    returns: list[Return] = Field(default_factory=list)
