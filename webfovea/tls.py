"""One TLS context per process for the HTTP clients webfovea opens itself.

httpx builds a new `ssl.SSLContext` for every client, loading the whole CA bundle each time:
~18 ms of CPU per client on these machines, more than the loopback call it is made for (the
control plane is asked once per task, a session bound once per task). The context is built the
way httpx builds its default (certifi's bundle, SSL_CERT_FILE/SSL_CERT_DIR honoured) and shared:
a context may serve many clients and threads at once."""

from __future__ import annotations

import functools
import ssl

import httpx


@functools.cache
def tls_context() -> ssl.SSLContext:
    """The process's TLS context for `httpx.Client(verify=...)`."""
    return httpx.create_ssl_context()
