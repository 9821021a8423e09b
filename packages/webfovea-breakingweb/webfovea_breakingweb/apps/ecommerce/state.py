"""The ecommerce site's typed state (an Amazon-like shop): a catalogue of products in
categories, each with its options (sizes, colours); your cart; your address book and saved
payment cards; your orders with their lines; the returns you asked for; and the messages sellers
and the shop sent you.

Every list holds records with an `id`, so the canonical diff (engine/diff.py) sees each cart
line, order, return, address and message as an entity. Prices are integer cents, so a total is
exact and the diff compares numbers, not float spellings. An order keeps copies of its lines
(name, options, unit price) as a real order does: a later price change does not rewrite it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.engine.spec import EnvState

Delivery = Literal["standard", "express", "next-day"]
OrderStatus = Literal["processing", "shipped", "delivered", "cancelled"]
ReturnReason = Literal["too-small", "too-large", "damaged", "not-as-described", "changed-mind"]
ReturnMethod = Literal["drop-off", "pickup"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Category(_Strict):
    id: str  # CAT-01
    slug: str
    name: str


class Product(_Strict):
    id: str  # PR-0001
    category: str  # the category's slug
    name: str = Field(min_length=3, max_length=200)
    brand: str
    seller: str
    price: int = Field(gt=0)  # cents
    rating: float = Field(ge=1, le=5)
    reviews: int = Field(ge=0)
    sizes: list[str] = Field(default_factory=list)  # empty: the product has no size option
    colours: list[str] = Field(default_factory=list)
    stock: int = Field(ge=0)
    description: str = ""


class CartLine(_Strict):
    id: str  # CL-0001
    product: str
    size: str = ""
    colour: str = ""
    qty: int = Field(ge=1, le=10)


class Address(_Strict):
    id: str  # AD-0001
    name: str = Field(min_length=2, max_length=80)
    street: str = Field(min_length=3, max_length=120)
    city: str = Field(min_length=2, max_length=60)
    postcode: str = Field(min_length=3, max_length=12)
    country: str = Field(min_length=2, max_length=40)
    default: bool = False


class Card(_Strict):
    id: str  # PM-0001
    label: str  # "Visa ending 4242"
    holder: str
    expires: str  # MM/YY
    default: bool = False


class OrderLine(_Strict):
    product: str
    name: str
    size: str = ""
    colour: str = ""
    qty: int = Field(ge=1)
    price: int  # cents, each


class Order(_Strict):
    id: str  # O-0001
    placed: str
    status: OrderStatus
    lines: list[OrderLine]
    address: str  # an address id
    delivery: Delivery
    payment: str  # a card id
    shipping: int  # cents
    total: int  # cents, lines and shipping


class Return(_Strict):
    id: str  # RT-0001
    order: str
    product: str
    qty: int = Field(ge=1)
    reason: ReturnReason
    method: ReturnMethod
    status: Literal["requested"] = "requested"
    created: str


class Message(_Strict):
    id: str  # M-0001
    sender: str
    subject: str
    body: str
    created: str
    read: bool = False


class EcommerceState(EnvState):
    me: str = "Robin Vale"  # the account holder (the default address's name)
    categories: list[Category] = Field(default_factory=list)
    products: list[Product] = Field(default_factory=list)
    cart: list[CartLine] = Field(default_factory=list)
    addresses: list[Address] = Field(default_factory=list)
    cards: list[Card] = Field(default_factory=list)
    orders: list[Order] = Field(default_factory=list)
    returns: list[Return] = Field(default_factory=list)
    messages: list[Message] = Field(default_factory=list)
