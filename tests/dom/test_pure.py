"""The parts of the DOM helpers that need no browser."""

from __future__ import annotations

from webfovea.browser.dom import is_captcha_frame


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
    for url in ["https://example.com/dash", "about:blank", "", "http://localhost:8001/inner.html",
                "https://www.google.com/maps"]:
        assert not is_captcha_frame(url), url
