"""The one TLS context webfovea's own HTTP clients share: built once, and it still verifies
certificates."""

from __future__ import annotations

import http.server
import shutil
import ssl
import subprocess
import threading

import httpx
import pytest

from webfovea.tls import tls_context
from webfovea_proving_ground.sessions import ControlClient


def test_clients_do_not_each_build_a_context(monkeypatch):
    built = []
    real = ssl.SSLContext.load_verify_locations

    def counted(self, *args, **kwargs):  # noqa: ANN001, ANN202 - loading the CA bundle
        built.append(self)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", counted)
    tls_context.cache_clear()
    clients = [ControlClient("http://127.0.0.1:9", "s") for _ in range(3)]
    for c in clients:
        c.close()
    assert len(built) == 1  # the bundle was loaded once, for all three
    assert tls_context().verify_mode == ssl.CERT_REQUIRED and tls_context().check_hostname


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command")
def test_a_self_signed_server_is_refused(tmp_path):
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(cert, key)
    server.socket = tls.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with ControlClient(f"https://127.0.0.1:{server.server_port}", "s") as control:
            with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
                control.requests("x")
    finally:
        server.shutdown()
