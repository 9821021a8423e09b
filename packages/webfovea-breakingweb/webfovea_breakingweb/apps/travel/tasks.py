"""The travel site's task templates, tiers T1-T3 (long_tasks.py holds T4-T5): the wishlist
(from the home page, a search, the map), reading a message, cancelling and changing a trip,
booking a room, messaging a property and reviewing a past stay.

Each instance names its stay by name and district and its trip by stay and dates, so the truth
is unambiguous; obligations name every change; anything else that changes breaks an invariant.
The readback holds only when the backend holds the change, on `verify_path` after a fresh load."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.travel import plans as p
from webfovea_breakingweb.apps.travel.avail import Ask, fitting
from webfovea_breakingweb.apps.travel.common import (
    API,
    GUESTS,
    booking_ob,
    create,
    dates,
    last_at,
    lookalike,
    make,
    offer,
    room_of,
    stay_of,
    trips,
    update,
    update_of,
    write_targets,
)
from webfovea_breakingweb.apps.travel.state import CANCEL_REASONS, TravelState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_proving_ground.plan import L, click, text_has, visible

PER_TEMPLATE = 7
SUBJECTS = ("Arrival time", "Parking question", "Breakfast times", "Luggage storage", "Quiet room request")
BODIES = (
    "Hello, we will arrive at about 21:00. Is that fine?",
    "Hi, could we leave our bags with you after check-out?",
    "Hello, is there a parking garage nearby you recommend?",
)
REVIEWS = (("Lovely stay", "Clean room and very kind staff."), ("Great location", "Everything was within walking distance."),
           ("Good value", "Simple but comfortable, we would book again."))  # fmt: skip


def where(state: TravelState, hid: str) -> str:
    s = stay_of(state, hid)
    return f"{s.name} ({s.district}, {s.city})"


def saved_readback(hid: str) -> dict:
    """Pressed wherever the stay's heart is drawn: the card, the result, the map card, the saved list."""
    return visible(L(f'[data-id="{hid}"] .save[aria-pressed="true"]'))


def t_save_featured(state: TravelState, r: random.Random, n: int) -> StatefulTask:
    s = r.choice([x for x in state.properties if x.featured and not x.saved])
    row = p.card("#featured", s.id)
    plan = [p.heart(row)]
    targets = write_targets(f"{API}/properties/{s.id}/save", plan, f"{row} .save", saved_readback(s.id), "/saved",
                            listing=f"{API}/home")  # fmt: skip
    return make("save-featured", n, f"On roamly, save {where(state, s.id)} to your wishlist from the stays guests love on the home page.",
                plan, [update("properties", s.id, saved=True)], {**targets, **lookalike(state, r, s)})  # fmt: skip


def t_unsave(state: TravelState, r: random.Random, n: int) -> StatefulTask:
    saved = [x for x in state.properties if x.saved]
    s = r.choice(saved)
    row = p.card("#saved", s.id)
    plan = [click(L("#nav-saved"), expect=visible(L(row))),
            click(L(f"{row} .save"), expect=visible(L(f'#saved-info[data-count="{len(saved) - 1}"]')))]  # fmt: skip
    targets = write_targets(f"{API}/properties/{s.id}/save", plan, f"{row} .save",
                            visible(L(f'#saved-info[data-count="{len(saved) - 1}"]')), "/saved", listing=f"{API}/saved", redo_from=1)  # fmt: skip
    return make("unsave", n, f"On roamly, remove {where(state, s.id)} from your saved stays.",
                plan, [update("properties", s.id, saved=False)], {**targets, **lookalike(state, r, s)})  # fmt: skip


def t_read_message(state: TravelState, r: random.Random, n: int) -> StatefulTask:
    m = r.choice([x for x in state.messages if x.folder == "inbox" and not x.read])
    row = f'#messages tr[data-id="{m.id}"]'
    plan = [
        click(L("#nav-messages"), expect=visible(L(row))),
        click(L(f"{row} .open"), expect=visible(L(f"{row}.read"))),
    ]
    return make("read-message", n, f"On roamly, open and read the message “{m.subject}” from {m.sender}.", plan,
                [update("messages", m.id, read=True)],
                write_targets(f"{API}/messages/{m.id}/read", plan, f"{row} .open", visible(L(f"{row}.read")), "/messages/inbox",
                              listing=f"{API}/messages", redo_from=1))  # fmt: skip


def t_search_save(state: TravelState, r: random.Random, n: int) -> StatefulTask:
    s = r.choice([x for x in state.properties if not x.saved])
    # By the city, not the name: under the seed's aliases the name is shown otherwise, and a
    # person finds the stay among the city's by its name, district and details.
    plan = [*p.search(s.city, s.id), p.heart(p.result(s.id))]
    targets = write_targets(f"{API}/properties/{s.id}/save", plan, f"{p.result(s.id)} .save", saved_readback(s.id),
                            "/saved", listing=f"{API}/search", redo_from=len(plan) - 1)  # fmt: skip
    return make("search-save", n, f"On roamly, search stays in {s.city} and save {s.name} ({s.district}) to your wishlist.",
                plan, [update("properties", s.id, saved=True)], {**targets, **lookalike(state, r, s)})  # fmt: skip


def t_map_save(state: TravelState, r: random.Random, n: int) -> StatefulTask:
    s = r.choice([x for x in state.properties if not x.saved])
    pin = f'#map .pin[data-id="{s.id}"]'
    plan = [*p.search(s.city, s.id), click(L("#show-map"), expect=visible(L(pin))),
            click(L(pin), expect=visible(L(f'#map-card[data-id="{s.id}"]'))),
            click(L("#map-save"), expect=visible(L('#map-save[aria-pressed="true"]')))]  # fmt: skip
    targets = write_targets(f"{API}/properties/{s.id}/save", plan, "#map-save", saved_readback(s.id), "/saved",
                            listing=f"{API}/search", redo_from=len(plan) - 2)  # fmt: skip
    return make("map-save", n, f"On roamly, search stays in {s.city}, show them on the map, open the pin of {s.name} "
                f"({s.district}) and save it to your wishlist from there.",
                plan, [update("properties", s.id, saved=True)], {**targets, **lookalike(state, r, s)})  # fmt: skip


def t_cancel(state: TravelState, r: random.Random, n: int) -> StatefulTask:
    b = r.choice(trips(state, "confirmed"))
    reason = r.choice(CANCEL_REASONS)
    plan = [*p.open_trip(b.id), *p.cancel(reason)]
    refund = b.total if room_of(state, b.room).refundable else 0
    return make("cancel", n, f"On roamly, cancel your booking at {where(state, b.property)} from {b.check_in} to {b.check_out}, "
                f"giving the reason “{reason}”.", plan,
                [update_of("bookings", b, status="cancelled", cancel_reason=reason, refund=refund)],
                write_targets(f"{API}/bookings/{b.id}/cancel", plan, "#c-confirm", text_has(L("#trip-status"), "cancelled"),
                              f"/trip/{b.id}", listing=f"{API}/bookings/{b.id}", redo_from=last_at(plan, "#trip-cancel"), form=True))  # fmt: skip


def t_change(state: TravelState, r: random.Random, n: int) -> StatefulTask | None:
    b = r.choice(trips(state, "confirmed"))
    room = room_of(state, b.room)
    check_in, check_out = dates(r, lo=15, hi=90)
    guests = r.choice((None, None, 1, room.sleeps)) if room.sleeps > 1 else None
    ask = Ask(check_in, check_out, guests or b.guests, b.rooms)
    if room not in fitting(state, b.property, ask, ignore=b.id) or (guests == b.guests):
        return None
    plan = [*p.open_trip(b.id), *p.change(check_in, check_out, guests)]
    fields = {"check_in": check_in, "check_out": check_out, "total": room.price * ask.nights * b.rooms}
    if guests is not None:
        fields["guests"] = guests
    also = f" and make it for {guests} {'guest' if guests == 1 else 'guests'}" if guests else ""
    return make("change", n, f"On roamly, change your booking at {where(state, b.property)} ({b.check_in} to {b.check_out}) "
                f"to the dates {check_in} to {check_out}{also}.", plan, [update_of("bookings", b, **fields)],
                write_targets(f"{API}/bookings/{b.id}/modify", plan, "#m-save", text_has(L("#trip-dates"), f"{check_in} to {check_out}"),
                              f"/trip/{b.id}", listing=f"{API}/bookings/{b.id}", redo_from=last_at(plan, "#trip-change"), form=True))  # fmt: skip


def t_book(state: TravelState, r: random.Random, n: int) -> StatefulTask | None:
    got = offer(state, r)
    if got is None:
        return None
    s, room, ask = got
    name, email = r.choice(GUESTS)
    bid = next_id(state.bookings, "BK-")
    plan = [*p.search(s.name, s.id, ask.check_in, ask.check_out), p.open_result(s.id), p.reserve(room.id),
            *p.guest(name, email, "", bid)]  # fmt: skip
    return make("book", n, f"On roamly, book the {room.name} at {where(state, s.id)} from {ask.check_in} to {ask.check_out} "
                f"for 2 guests, in the name of {name} ({email}).", plan, [booking_ob(room, ask, name, email)],
                write_targets(f"{API}/bookings", plan, "#book-confirm", visible(L(f'#trip[data-id="{bid}"]')), f"/trip/{bid}",
                              listing=f"{API}/bookings", redo_from=last_at(plan, "#g-name"), form=True))  # fmt: skip


def t_message(state: TravelState, r: random.Random, n: int) -> StatefulTask:
    b = r.choice(trips(state, "confirmed"))
    subject, body, mid = r.choice(SUBJECTS), r.choice(BODIES), next_id(state.messages, "M-")
    plan = [*p.open_trip(b.id), *p.message(subject, body, mid)]
    return make("message", n, f"On roamly, message {where(state, b.property)} about your booking from {b.check_in} "
                f"with the subject “{subject}” and the text “{body}”.", plan,
                [create("messages", folder="sent", property=b.property, booking=b.id, subject=subject, body=body, read=True)],
                write_targets(f"{API}/messages", plan, "#msg-send", visible(L(f'tr[data-id="{mid}"]')),
                              "/messages/sent", listing=f"{API}/messages", redo_from=last_at(plan, "#msg-subject"), form=True))  # fmt: skip


def t_review(state: TravelState, r: random.Random, n: int) -> StatefulTask:
    b = r.choice(trips(state, "completed"))
    score = r.randint(6, 10)
    title, text = r.choice(REVIEWS)
    vid = next_id(state.reviews, "V-")
    plan = [*p.open_trip(b.id, "past"), *p.review(score, title, text, vid)]
    return make("review", n, f"On roamly, review your past stay at {where(state, b.property)} ({b.check_in} to {b.check_out}): "
                f"score {score}, title “{title}”, text “{text}”.", plan,
                [create("reviews", property=b.property, booking=b.id, score=score, title=title, text=text)],
                {**write_targets(f"{API}/bookings/{b.id}/review", plan, "#r-submit", text_has(L("#my-review-score"), str(score)),
                                 f"/trip/{b.id}", listing=f"{API}/bookings/{b.id}", redo_from=last_at(plan, "#trip-review"), form=True),
                 # A score stored without its last digit (a lossy cast): only "Your review" shows it; edit it.
                 "drift": {"field": "score", "kind": "truncate", "value": score, "input": "#r-score", "edit_row": "#trip-review-edit"}})  # fmt: skip


TEMPLATES = {
    "save-featured": t_save_featured, "unsave": t_unsave, "read-message": t_read_message,
    "search-save": t_search_save, "map-save": t_map_save, "cancel": t_cancel,
    "change": t_change, "book": t_book, "message": t_message, "review": t_review,
}  # fmt: skip
