"""Plan fragments for the travel site's tasks: the steps a careful person takes in its pages."""

from __future__ import annotations

from webfovea_proving_ground.plan import L, Step, click, fill, select, text_has, value_is, visible


def card(where: str, hid: str) -> str:
    return f'{where} .stay-card[data-id="{hid}"]'


def result(hid: str) -> str:
    return f'article.result[data-id="{hid}"]'


def trip(bid: str) -> str:
    return f'.trip[data-id="{bid}"]'


def heart(row: str) -> Step:
    return click(L(f"{row} .save"), expect=visible(L(f'{row} .save[aria-pressed="true"]')))


def search(
    dest: str, hid: str, check_in: str = "", check_out: str = "", guests: int = 2, rooms: int = 1
) -> list[Step]:
    """The home page's search form, filled as far as the task says, then Search."""
    steps = [fill(L("#dest"), dest, expect=value_is(L("#dest"), dest))]
    if check_in:
        steps += [fill(L("#checkin"), check_in, expect=value_is(L("#checkin"), check_in)),
                  fill(L("#checkout"), check_out, expect=value_is(L("#checkout"), check_out))]  # fmt: skip
    if guests != 2:
        steps.append(select(L("#guests"), f"{guests} guests", expect=value_is(L("#guests"), str(guests))))
    if rooms != 1:
        steps.append(select(L("#rooms"), f"{rooms} rooms", expect=value_is(L("#rooms"), str(rooms))))
    return [*steps, click(L("#search-go"), expect=visible(L(result(hid))))]


def open_result(hid: str) -> Step:
    return click(L(f"{result(hid)} a.name"), expect=visible(L(f'#stay[data-id="{hid}"]')))


def reserve(rid: str) -> Step:
    return click(L(f'#rooms tr[data-id="{rid}"] .reserve'), expect=visible(L("#g-name")))


def guest(name: str, email: str, requests: str, new_id: str) -> list[Step]:
    steps = [fill(L("#g-name"), name, expect=value_is(L("#g-name"), name)),
             fill(L("#g-email"), email, expect=value_is(L("#g-email"), email))]  # fmt: skip
    if requests:
        steps.append(fill(L("#g-requests"), requests, expect=value_is(L("#g-requests"), requests)))
    return [*steps, click(L("#book-confirm"), expect=text_has(L("#toast .ref"), new_id))]


def open_trip(bid: str, tab: str = "upcoming") -> list[Step]:
    steps = [click(L("#nav-trips"), expect=visible(L("#trips")))]
    if tab != "upcoming":
        steps.append(click(L(f"#tab-{tab}"), expect=visible(L(f'#trips[data-tab="{tab}"] {trip(bid)}'))))
    return [*steps, click(L(f"{trip(bid)} a.open"), expect=visible(L(f'#trip[data-id="{bid}"]')))]


def cancel(reason: str) -> list[Step]:
    return [
        click(L("#trip-cancel"), expect=visible(L("#c-reason"))),
        select(L("#c-reason"), reason, expect=value_is(L("#c-reason"), reason)),
        click(L("#c-confirm"), expect=text_has(L("#trip-status"), "cancelled")),
    ]


def change(check_in: str, check_out: str, guests: int | None) -> list[Step]:
    steps = [
        click(L("#trip-change"), expect=visible(L("#m-checkin"))),
        fill(L("#m-checkin"), check_in, expect=value_is(L("#m-checkin"), check_in)),
        fill(L("#m-checkout"), check_out, expect=value_is(L("#m-checkout"), check_out)),
    ]
    if guests is not None:
        steps.append(select(L("#m-guests"), str(guests), expect=value_is(L("#m-guests"), str(guests))))
    return [*steps, click(L("#m-save"), expect=text_has(L("#trip-dates"), f"{check_in} to {check_out}"))]


def message(subject: str, body: str, new_id: str) -> list[Step]:
    """From a trip page: the property's message form, filled and sent."""
    return [
        click(L("#trip-message"), expect=visible(L("#msg-subject"))),
        fill(L("#msg-subject"), subject, expect=value_is(L("#msg-subject"), subject)),
        fill(L("#msg-body"), body, expect=value_is(L("#msg-body"), body)),
        click(L("#msg-send"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def review(score: int, title: str, text: str, new_id: str) -> list[Step]:
    return [
        click(L("#trip-review"), expect=visible(L("#r-score"))),
        fill(L("#r-score"), str(score), expect=value_is(L("#r-score"), str(score))),
        fill(L("#r-title"), title, expect=value_is(L("#r-title"), title)),
        fill(L("#r-text"), text, expect=value_is(L("#r-text"), text)),
        click(L("#r-submit"), expect=text_has(L("#toast .ref"), new_id)),
    ]
