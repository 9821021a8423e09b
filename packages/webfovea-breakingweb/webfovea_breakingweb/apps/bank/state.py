"""The bank's typed state: accounts, payees, transactions (the statement), transfers and
standing orders, one list per entity. Money in cents (ints); amounts of transactions are signed."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.engine.spec import BaseState

IBAN = r"^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$"
DATE = r"^20\d\d-[01]\d-[0-3]\d$"


class _Rec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Account(_Rec):
    id: str
    name: str
    iban: str = Field(pattern=IBAN)
    balance: int


class Payee(_Rec):
    id: str
    name: str = Field(min_length=2, max_length=60)
    iban: str = Field(pattern=IBAN)


class Transaction(_Rec):
    id: str
    account: str
    date: str = Field(pattern=DATE)
    counterparty: str
    description: str
    category: str
    amount: int  # cents, negative for money out


class Transfer(_Rec):
    id: str
    account: str
    payee: str
    amount: int = Field(ge=1)
    reference: str = Field(min_length=1, max_length=80)
    date: str = Field(pattern=DATE)
    status: Literal["sent"] = "sent"


class StandingOrder(_Rec):
    id: str
    account: str
    payee: str
    amount: int = Field(ge=1)
    frequency: Literal["monthly", "weekly"]
    start: str = Field(pattern=DATE)
    reference: str = Field(min_length=1, max_length=80)
    status: Literal["active", "cancelled"] = "active"


class BankState(BaseState):
    accounts: list[Account] = Field(default_factory=list)
    payees: list[Payee] = Field(default_factory=list)
    transactions: list[Transaction] = Field(default_factory=list)
    transfers: list[Transfer] = Field(default_factory=list)
    standing: list[StandingOrder] = Field(default_factory=list)
