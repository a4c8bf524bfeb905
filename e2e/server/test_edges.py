"""The edges of HTTP a hostile or broken client meets: a body trickled a byte at a time is cut
off at the request deadline, and HTTPS-only servers tell browsers to stay on HTTPS."""
import socket
import time

from support.server import Client, Server


def test_a_trickled_body_is_cut_off_at_the_deadline():
    with Server(env={"GUESSWORK_REQUEST_DEADLINE": "2"}) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.sendall(b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{")
            start = time.monotonic()
            closed = None
            while time.monotonic() - start < 8:
                try:
                    s.sendall(b" ")
                    s.settimeout(0.5)
                    if s.recv(1024) == b"":
                        closed = time.monotonic() - start
                        break
                except socket.timeout:
                    continue
                except (ConnectionResetError, BrokenPipeError):
                    closed = time.monotonic() - start
                    break
            assert closed is not None, "the trickling connection was still open after 8 s"
            assert 1.5 <= closed <= 5, closed
        # A request that arrives whole in time is unaffected, on a new connection.
        assert Client(server.url).post("/api/players", {"name": "Ana"})[0] == 201
        assert "took over 2 s to arrive" in server.read_log()


def read_answer(s):
    """One HTTP answer from the socket: its status line's code and its body."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        assert chunk, "the connection closed before an answer"
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    length = int([line.split(b":")[1] for line in head.split(b"\r\n")
                  if line.lower().startswith(b"content-length:")][0])
    while len(body) < length:
        chunk = s.recv(4096)
        assert chunk, "the connection closed mid-answer"
        body += chunk
    return int(head.split(b" ")[1]), body


def test_a_body_sent_after_its_head_in_time_is_served_and_the_connection_kept():
    """A request whose body comes in a later read than its head (so its deadline is armed)
    is served, and once it has arrived its deadline no longer applies: the same connection
    still serves requests after the deadline has passed."""
    with Server(env={"GUESSWORK_REQUEST_DEADLINE": "2"}) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            body = b'{"name":"Ana"}'
            s.sendall(b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: %d\r\n\r\n" % len(body))
            time.sleep(0.5)
            s.sendall(body)
            assert read_answer(s)[0] == 201
            time.sleep(2.5)
            s.sendall(b"GET /ping HTTP/1.1\r\nHost: x\r\n\r\n")
            assert read_answer(s)[0] == 200
        assert "took over 2 s to arrive" not in server.read_log()


def test_strict_transport_security_only_when_served_over_https():
    with Server() as plain:
        assert "Strict-Transport-Security" not in Client(plain.url).get("/api/session")[1]
    with Server(args=["--behind-https"]) as proxied:
        headers = Client(proxied.url).get("/api/session")[1]
        assert headers["Strict-Transport-Security"] == "max-age=31536000"
