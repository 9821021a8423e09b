"""A typed secret is hidden in every spelling a record or a model input may hold it in: as
typed, escaped, in another case, cut to a long prefix (a `maxlength` field), made a file name
(a download named after it); and a record's own keys stay readable whatever the value is."""

from __future__ import annotations

import re

from webfovea.record.atomic import scrubbed_data, scrubbed_text
from webfovea.secrets import Secret, remember, scrub_text

VALUE = "Ab7/Zephyr:Lantern 42"
P = "<secret>spell_pw</secret>"
remember({"spell_pw": Secret(value=VALUE, origins=["https://example.org"])})


def test_derived_spellings_are_hidden() -> None:
    spellings = {
        "upper": VALUE.upper(),
        "lower": VALUE.lower(),
        "prefix": VALUE[:12],
        "file name": re.sub(r"[^A-Za-z0-9._ -]+", "_", VALUE) + ".pdf",
        "strict file name": re.sub(r"[^A-Za-z0-9._-]+", "_", VALUE),
        "percent": "Ab7%2FZephyr%3ALantern%2042",
    }
    for what, text in spellings.items():
        out = scrub_text(f"saved as {text} here")
        assert P in out and VALUE[:9].lower() not in out.lower(), (what, out)


def test_a_short_prefix_and_other_words_are_left() -> None:
    assert scrub_text("Ab7/Zep and zephyr") == "Ab7/Zep and zephyr"


def test_records_keep_their_keys_and_numbers() -> None:
    data = {"url": f"https://x/?q={VALUE}", "point": [42, 7], "Ab7/Zephyr:Lantern 42": 1}
    out = scrubbed_data(data)
    assert (
        out["point"] == [42, 7]
        and P in out["url"]
        and P in next(iter(k for k in out if k != "url" and k != "point"))
    )
    assert scrubbed_text(VALUE.upper()) == P
