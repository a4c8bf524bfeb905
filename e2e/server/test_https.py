"""HTTPS for a home network: `serve --https` makes its certificates once, a client that trusts
only the CA it offers plays a game, OpenSSL verifies the chain on its own, and an operator's
own certificate (`--tls-cert`/`--tls-key`) is served as given."""
import http.client
import os
import shutil
import socket
import ssl
import subprocess
import tempfile
import urllib.error
import urllib.request

import pytest

from support.server import Client, Server, binary


def trusting(ca_file):
    context = ssl.create_default_context(cafile=ca_file)
    assert context.check_hostname and context.verify_mode == ssl.CERT_REQUIRED
    return context


def served_certificate(port):
    unchecked = ssl._create_unverified_context()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with unchecked.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
            return tls.getpeercert(binary_form=True)


def pem_to_der(path):
    with open(path) as f:
        return ssl.PEM_cert_to_DER_cert(f.read())


def play_number_to_the_end(client):
    client.join("Tess")
    game = client.start_game("number", {"attempts": 7})
    while not game["isOver"]:
        game = client.halve(game)
    assert game["score"] > 0, "halving finds a number of 0...99 in 7 attempts"
    return game


def test_serve_https_makes_a_certificate_a_trusting_client_plays_on():
    data_dir = tempfile.mkdtemp(prefix="guesswork-https-")
    with Server(data_dir=data_dir, args=["--https"], https=True) as server:
        tls = os.path.join(data_dir, "tls")
        ca, certificate = os.path.join(tls, "ca.pem"), os.path.join(tls, "server.pem")
        for secret in ("ca-key.pem", "server-key.pem"):
            assert os.stat(os.path.join(tls, secret)).st_mode & 0o077 == 0, f"{secret} is readable by others"
        # An independent verifier agrees: the server's certificate is signed by the CA, for a server.
        verified = subprocess.run(["openssl", "verify", "-CAfile", ca, "-purpose", "sslserver", certificate],
                                  capture_output=True, text=True)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        names = subprocess.run(["openssl", "x509", "-in", certificate, "-noout", "-ext", "subjectAltName"],
                               capture_output=True, text=True, check=True).stdout
        assert "DNS:localhost" in names and "IP Address:127.0.0.1" in names, names
        assert served_certificate(server.port) == pem_to_der(certificate)

        # A client that trusts the CA and nothing else plays a game, by address and by name.
        client = Client(server.url, ssl_context=trusting(ca))
        play_number_to_the_end(client)
        status, headers, _ = client.get("/api/me")
        # No HSTS under the local CA: a year of it would keep browsers off http://<host>.local
        # (issue 52); an operator's own certificate keeps it (test_hardening_two.py).
        assert status == 200 and "Strict-Transport-Security" not in headers
        by_name = Client(f"https://localhost:{server.port}", ssl_context=trusting(ca))
        assert by_name.post("/api/players", {"name": "Bo"})[0] == 201
        assert "Secure" in by_name.post("/api/players", {"name": "Cy"})[1]["Set-Cookie"]

        # The CA is offered for phones to install, as DER.
        status, headers, body = client.get("/guesswork-ca.crt")
        assert status == 200 and headers["Content-Type"] == "application/x-x509-ca-cert"
        assert body == pem_to_der(ca)

        # A client that trusts only the usual authorities refuses it; plain HTTP gets no page.
        with pytest.raises(urllib.error.URLError) as refused:
            urllib.request.urlopen(server.url + "/ping", timeout=10)
        assert isinstance(refused.value.reason, ssl.SSLCertVerificationError)
        with pytest.raises((urllib.error.URLError, ConnectionError, http.client.HTTPException)):
            urllib.request.urlopen(f"http://127.0.0.1:{server.port}/ping", timeout=10).read()
    with open(ca) as f:
        ca_before = f.read()
    with open(certificate) as f:
        certificate_before = f.read()

    # Started again, it keeps both: phones that trust the CA need do nothing again.
    with Server(data_dir=data_dir, args=["--https"], https=True) as server:
        play_number_to_the_end(Client(server.url, ssl_context=trusting(ca)))
    with open(ca) as f:
        assert f.read() == ca_before
    with open(certificate) as f:
        assert f.read() == certificate_before
    shutil.rmtree(data_dir)


def test_an_operators_own_certificate_is_served_as_given():
    folder = tempfile.mkdtemp(prefix="guesswork-own-tls-")
    key, certificate = os.path.join(folder, "key.pem"), os.path.join(folder, "cert.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=guesswork-test",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    with Server(args=["--tls-cert", certificate, "--tls-key", key], https=True) as server:
        assert served_certificate(server.port) == pem_to_der(certificate)
        play_number_to_the_end(Client(server.url, ssl_context=trusting(certificate)))
        # No CA of ours to offer: the operator's certificate is theirs to hand out.
        assert Client(server.url, ssl_context=trusting(certificate)).get("/guesswork-ca.crt")[0] == 404
        assert not os.path.exists(os.path.join(server.data_dir, "tls"))

    alone = subprocess.run([binary(), "serve", "--tls-cert", certificate], capture_output=True, text=True, timeout=30)
    assert alone.returncode != 0 and "--tls-cert and --tls-key go together" in alone.stderr
    missing = subprocess.run([binary(), "serve", "--tls-cert", certificate, "--tls-key", key + ".missing"],
                             capture_output=True, text=True, timeout=30)
    assert missing.returncode != 0 and "Cannot read" in missing.stderr
