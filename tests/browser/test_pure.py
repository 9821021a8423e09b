"""The parts of the DOM helpers that need no browser."""

from __future__ import annotations

from webfovea.browser.frames import is_captcha_frame


def test_is_captcha_frame():
    for url in [
        "https://www.google.com/recaptcha/api2/anchor?ar=1&k=x",
        "https://www.recaptcha.net/recaptcha/api2/bframe",
        "https://newassets.hcaptcha.com/captcha/v1/abc/static/hcaptcha.html",
        "https://challenges.cloudflare.com/cdn-cgi/challenge-platform/h/b/turnstile/if/ov2",
        "https://client-api.arkoselabs.com/fc/gc/?token=1",
        "https://static.geetest.com/v4/index.html",
        "http://localhost:8001/recaptcha/api2/anchor",
    ]:
        assert is_captcha_frame(url), url
    for url in [
        "https://example.com/dash",
        "about:blank",
        "",
        "http://localhost:8001/inner.html",
        "https://www.google.com/maps",
    ]:
        assert not is_captcha_frame(url), url


def test_changed_rules():
    from webfovea.feedback.fingerprint import changed

    def fp(**kw):
        base = {
            "url": "u",
            "title": "t",
            "nodes": 10,
            "text_len": 5,
            "scroll_x": 0,
            "scroll_y": 0,
            "inner_scrolls": 0,
            "focus": "body",
        }
        return base | kw

    same = {"main": fp(), "child": fp(url="c"), "child_url": "c"}
    assert not changed(same, same)
    assert not changed(same, same | {"main": fp(focus="iframe#dash")})
    assert not changed(
        {"main": fp(focus="input#q")} | {"child": None}, {"main": fp(focus="iframe"), "child": None}
    )
    assert changed(same, same | {"main": fp(focus="input#q")})
    assert changed(same, same | {"main": fp(url="v")})
    assert changed(same, same | {"child": fp(url="c", scroll_y=40)})
    assert changed(same, same | {"child": None, "child_url": None})
    assert changed(same, same | {"child": {"url": "c", "error": "Frame was detached"}})
    assert changed(same | {"text_hash": "a"}, same | {"text_hash": "b"})
    assert not changed(same | {"text_hash": "a"}, same)


def test_option_matching():
    from webfovea.execution.forms import match_option, normalise

    opts = [
        {"text": t, "value": v, "disabled": d}
        for t, v, d in [
            ("Choose…", "", False),
            ("Viet Nam", "vn", False),
            ("Korea, Republic of", "kr", False),
            ("United States", "us", False),
            ("United Kingdom", "uk", False),
            ("Narnia", "na", True),
        ]
    ]
    assert normalise("Côte d’Ivoire") == "cotedivoire"
    assert match_option(opts, "Viet Nam") == (1, "exact", "")
    assert match_option(opts, "us") == (3, "exact", "")
    assert match_option(opts, "VIETNAM") == (1, "normalised", "")
    assert match_option(opts, "korea, republic of.") == (2, "normalised", "")
    assert match_option(opts, "Kingdom") == (4, "substring", "")
    idx, _, err = match_option(opts, "united")
    assert idx is None and "ambiguous" in err and "'United States'" in err
    assert match_option(opts, "Narnia")[0] is None  # disabled options are not chosen
    assert match_option(opts, "  ")[0] is None


def test_date_conversion():
    from webfovea.execution.dates import to_input_value as v

    for text in [
        "05/01/2023",
        "1 May 2023",
        "May 1, 2023",
        "2023/5/1",
        "2023-05-01",
        "1.5.2023",
        "1st of May 2023",
        "Monday, May 1, 2023",
        "2023年5月1日",
        "May 1 2023",
        "01-May-2023",
    ]:
        assert v(text, "date") == "2023-05-01", text
    assert v("13/01/2023", "date") == "2023-01-13"
    assert v("31/02/2023", "date") is None and v("soon", "date") is None
    assert v("May 2023", "month") == "2023-05" and v("05/2023", "month") == "2023-05"
    assert (
        v("2:30 PM", "time") == "14:30" and v("14:30:15", "time") == "14:30:15" and v("25:00", "time") is None
    )
    assert v("May 1, 2023 2:30 pm", "datetime-local") == "2023-05-01T14:30"
    assert v("2023-05-01T09:05", "datetime-local") == "2023-05-01T09:05"
    assert v("2023-05-01", "week") == "2023-W18"


def test_two_unreadable_fingerprints_are_unknown_not_no_change():
    from webfovea.feedback.fingerprint import frame_diff

    err = {"url": "http://x/", "error": "TypeError: push"}
    changes = frame_diff(err, dict(err))
    assert [c.kind for c in changes] == ["unknown"] and changes[0].ambient
