"""The travel site's long task templates, tiers T4 and T5: a booking found through filters and
a sort, a booking of two rooms with a request, replacing one trip by another, and a trip planned
from the wishlist. Their main write (the one the families aim at) is the last; a redo after a
sign-in starts at that write's own form."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.travel import plans as p
from webfovea_breakingweb.apps.travel.avail import Ask, fitting
from webfovea_breakingweb.apps.travel.common import (
    API,
    GUESTS,
    REQUESTS,
    booking_ob,
    create,
    dates,
    last_at,
    make,
    room_of,
    trips,
    update,
    update_of,
    write_targets,
)
from webfovea_breakingweb.apps.travel.content import CITIES
from webfovea_breakingweb.apps.travel.routes import results
from webfovea_breakingweb.apps.travel.state import CANCEL_REASONS, TravelState
from webfovea_breakingweb.apps.travel.tasks import BODIES, SUBJECTS, where
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_proving_ground.plan import L, click, fill, select, text_has, value_is, visible


def t_book_filtered(state: TravelState, r: random.Random, n: int) -> StatefulTask | None:
    city = r.choice(sorted(CITIES))
    (check_in, check_out), guests = dates(r), r.choice((2, 3))
    q = {"dest": city, "checkin": check_in, "checkout": check_out, "guests": str(guests), "rooms": "1",
         "free_cancel": "1", "min_rating": "8", "sort": "price"}  # fmt: skip
    found = results(state, q)["results"]
    if len(found) < 2 or found[0]["price"] == found[1]["price"]:
        return None  # a tie would make "the cheapest" ambiguous
    s = found[0]
    ask = Ask(check_in, check_out, guests, 1)
    room = min((x for x in fitting(state, s["id"], ask, refundable_only=True)), key=lambda x: (x.price, x.id))
    if sum(1 for x in fitting(state, s["id"], ask, refundable_only=True) if x.price == room.price) > 1:
        return None
    name, email = r.choice(GUESTS)
    bid = next_id(state.bookings, "BK-")
    first = f'#results article.result:first-of-type[data-id="{s["id"]}"]'
    plan = [
        *p.search(city, s["id"], check_in, check_out, guests)[:-1],
        click(L("#search-go"), expect=visible(L("#results"))),
        click(L("#f-free-cancel"), expect=visible(L("#f-free-cancel:checked"))),
        select(L("#f-rating"), "Very good: 8+", expect=value_is(L("#f-rating"), "8")),
        select(L("#sort"), "Price (lowest first)", expect=visible(L(first))),
        p.open_result(s["id"]), p.reserve(room.id), *p.guest(name, email, "", bid),
    ]  # fmt: skip
    return make("book-filtered", n, f"On roamly, look for stays in {city} from {check_in} to {check_out} for {guests} guests "
                f"with free cancellation and a review score of 8 or more, sorted by lowest price. At the cheapest one, book "
                f"its cheapest room with free cancellation in the name of {name} ({email}).", plan,
                [booking_ob(room, ask, name, email)],
                write_targets(f"{API}/bookings", plan, "#book-confirm", visible(L(f'#trip[data-id="{bid}"]')), f"/trip/{bid}",
                              listing=f"{API}/bookings", redo_from=last_at(plan, "#g-name"), form=True))  # fmt: skip


def t_book_rooms(state: TravelState, r: random.Random, n: int) -> StatefulTask | None:
    s = r.choice(state.properties)
    (check_in, check_out), guests = dates(r), r.choice((3, 4))
    ask = Ask(check_in, check_out, guests, 2)
    fits = fitting(state, s.id, ask)
    if not fits:
        return None
    room = r.choice(fits)
    (name, email), wish = r.choice(GUESTS), r.choice(REQUESTS)
    bid = next_id(state.bookings, "BK-")
    plan = [*p.search(s.name, s.id, check_in, check_out, guests, 2), p.open_result(s.id), p.reserve(room.id),
            *p.guest(name, email, wish, bid)]  # fmt: skip
    return make("book-rooms", n, f"On roamly, book two {room.name} rooms at {where(state, s.id)} from {check_in} to {check_out} "
                f"for {guests} guests in the name of {name} ({email}), with the special request “{wish}”.", plan,
                [booking_ob(room, ask, name, email, wish)],
                write_targets(f"{API}/bookings", plan, "#book-confirm", visible(L(f'#trip[data-id="{bid}"]')), f"/trip/{bid}",
                              listing=f"{API}/bookings", redo_from=last_at(plan, "#g-name"), form=True))  # fmt: skip


def t_replace_trip(state: TravelState, r: random.Random, n: int) -> StatefulTask | None:
    old = r.choice(trips(state, "confirmed"))
    s = r.choice([x for x in state.properties if x.city == next(y.city for y in state.properties if y.id == old.property)
                  and x.id != old.property])  # fmt: skip
    ask = Ask(old.check_in, old.check_out, old.guests, 1)
    fits = fitting(state, s.id, ask)
    if not fits:
        return None
    room, reason = r.choice(fits), r.choice(CANCEL_REASONS)
    bid, mid = next_id(state.bookings, "BK-"), next_id(state.messages, "M-")
    subject, body = r.choice(SUBJECTS), r.choice(BODIES)
    me = state.me
    plan = [*p.open_trip(old.id), *p.cancel(reason),
            click(L("#nav-home"), expect=visible(L("#dest"))),
            *p.search(s.name, s.id, ask.check_in, ask.check_out, ask.guests), p.open_result(s.id), p.reserve(room.id),
            *p.guest(me.name, me.email, "", bid)]  # fmt: skip
    start = len(plan)
    plan += p.message(subject, body, mid)
    refund = old.total if room_of(state, old.room).refundable else 0
    return make("replace-trip", n, f"On roamly, replace your stay at {where(state, old.property)} ({old.check_in} to {old.check_out}): "
                f"cancel it with the reason “{reason}”, book the {room.name} at {where(state, s.id)} for the same dates and "
                f"{ask.guests} guests in your own name ({me.name}, {me.email}), then message {s.name} about the new booking "
                f"with the subject “{subject}” and the text “{body}”.", plan,
                [update_of("bookings", old, status="cancelled", cancel_reason=reason, refund=refund),
                 booking_ob(room, ask, me.name, me.email),
                 create("messages", folder="sent", property=s.id, booking=bid, subject=subject, body=body)],
                write_targets(f"{API}/messages", plan, "#msg-send", visible(L(f'tr[data-id="{mid}"]')), "/messages/sent",
                              listing=f"{API}/messages", redo_from=start + 1, form=True))  # fmt: skip


def t_wishlist_trip(state: TravelState, r: random.Random, n: int) -> StatefulTask | None:
    saved = [x for x in state.properties if x.saved]
    s = r.choice(saved)
    (check_in, check_out), guests = dates(r), r.choice((1, 2, 3))
    ask = Ask(check_in, check_out, guests, 1)
    fits = fitting(state, s.id, ask)
    if not fits:
        return None
    room = min(fits, key=lambda x: (x.price, x.id))
    if sum(1 for x in fits if x.price == room.price) > 1:
        return None
    wish = r.choice(REQUESTS)
    bid, mid = next_id(state.bookings, "BK-"), next_id(state.messages, "M-")
    subject, body = r.choice(SUBJECTS), r.choice(BODIES)
    me = state.me
    card = p.card("#saved", s.id)
    plan = [
        click(L("#nav-saved"), expect=visible(L(card))),
        click(L(f"{card} a.name"), expect=visible(L(f'#stay[data-id="{s.id}"]'))),
        fill(L("#s-checkin"), check_in, expect=value_is(L("#s-checkin"), check_in)),
        fill(L("#s-checkout"), check_out, expect=value_is(L("#s-checkout"), check_out)),
    ]
    if guests != 2:
        plan.append(select(L("#s-guests"), str(guests), expect=value_is(L("#s-guests"), str(guests))))
    plan += [click(L("#s-update"), expect=text_has(L("#stay-nights"), f"{check_in} to {check_out}")),
             p.reserve(room.id), *p.guest(me.name, me.email, wish, bid),
             click(L("#nav-saved"), expect=visible(L(card))),
             click(L(f"{card} .save"), expect=visible(L(f'#saved-info[data-count="{len(saved) - 1}"]'))),
             *p.open_trip(bid)]  # fmt: skip
    start = len(plan)
    plan += p.message(subject, body, mid)
    return make("wishlist-trip", n, f"On roamly, book the cheapest room for {guests} {'guest' if guests == 1 else 'guests'} at "
                f"{where(state, s.id)} from your saved stays, {check_in} to {check_out}, in your own name ({me.name}, {me.email}) "
                f"with the request “{wish}”; then remove it from your saved stays and message it about the booking with the "
                f"subject “{subject}” and the text “{body}”.", plan,
                [booking_ob(room, ask, me.name, me.email, wish), update("properties", s.id, saved=False),
                 create("messages", folder="sent", property=s.id, booking=bid, subject=subject, body=body)],
                write_targets(f"{API}/messages", plan, "#msg-send", visible(L(f'tr[data-id="{mid}"]')), "/messages/sent",
                              listing=f"{API}/messages", redo_from=start + 1, form=True))  # fmt: skip


TEMPLATES = {"book-filtered": t_book_filtered, "book-rooms": t_book_rooms, "replace-trip": t_replace_trip,
             "wishlist-trip": t_wishlist_trip}  # fmt: skip
