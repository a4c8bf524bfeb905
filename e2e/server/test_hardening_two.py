"""Hardening, second round (issue 52), against a real server: what a hostile client, a page of
another site or a long-lived server meets.

1. A connection that sends no request, or trickles its head, is closed at the first-request
   deadline (GUESSWORK_FIRST_REQUEST_SECONDS, 10 unless set) while /healthz keeps answering; a
   malformed first request gets `400` and a close at once.
2. Sign-out takes only JSON (415 for a form's types) and sends no clearing cookie when no token
   came.
3. A key's play and room sockets end with the key (sign-out, a new key).
4. Socket caps (GUESSWORK_ROOM_SOCKETS_PER_PLAYER 3: the newest wins; GUESSWORK_SOCKETS_PER_CLIENT
   200: 429; GUESSWORK_ROOM_SOCKETS 500 a room) and an `Origin` of another host or port: 403.
5. Rooms: the idle sweep closes the oldest idle rooms with more than 1,000 open, closed rooms go
   after a day, a host has at most 5 open rooms (GUESSWORK_ROOMS_PER_HOST), expired link codes
   are deleted and making or looking up link codes is rate limited. The sweeps run every
   GUESSWORK_EXPIRY_SWEEP_SECONDS here (1).
6. `choose` refuses what `start` would refuse and changes nothing; a present member's rejoin
   changes nothing; `kick` says what is true.
7. Junk on the play socket counts against the moves' rate limit.
8. `serve --https`: a CA with name constraints and at most 825 days, `tls/` 0700, no HSTS under
   the local CA (an operator's certificate and --behind-https keep it).

Storage items run on SQLite and, with GUESSWORK_TEST_POSTGRES_URL, on PostgreSQL (a database of
their own each, so that the rooms and codes counted are only theirs).
"""
import ipaddress
import json
import os
import random
import selectors
import shutil
import socket
import sqlite3
import ssl
import subprocess
import threading
import time
import urllib.request
import uuid
from contextlib import closing

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from support.server import Client, Server, halving_guess
from test_play_socket import ask, open_socket
from test_room_protocol import Socket, act, host_act, join_phones, make_room

POSTGRES_URL = os.environ.get("GUESSWORK_TEST_POSTGRES_URL")
REQUIRE_POSTGRES = os.environ.get("GUESSWORK_REQUIRE_POSTGRES") == "1"
STANDARD = {"GUESSWORK_RATE_LIMITS": ""}  # the setting given but empty: the standard limits
SWEEP = {"GUESSWORK_EXPIRY_SWEEP_SECONDS": "1"}
COOKIE = "guesswork_player"
HOUR_MS = 3600 * 1000

pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning")


# MARK: Databases


class Database:
    """Where a test's server keeps its data: a SQLite folder, or a PostgreSQL database made
    for the test alone. The test reads and writes it directly (rows the API cannot make
    cheaply, such as rooms idle for hours)."""

    def __init__(self, kind, folder):
        self.kind = kind
        self.folder = str(folder)
        self.url = None
        if kind == "postgres":
            self.name = "gw_hardening_" + uuid.uuid4().hex[:12]
            self._psql(self._admin_url(), f"CREATE DATABASE {self.name}")
            self.url = POSTGRES_URL.rsplit("/", 1)[0] + "/" + self.name

    @staticmethod
    def _admin_url():
        return os.environ.get("GUESSWORK_TEST_POSTGRES_ADMIN_URL") or POSTGRES_URL.rsplit("/", 1)[0] + "/postgres"

    @staticmethod
    def _psql(url, sql):
        program = shutil.which("psql") or "psql"
        return subprocess.run([program, url, "-v", "ON_ERROR_STOP=1", "-qtA", "-F", "\t", "-f", "-"],
                              input=sql, capture_output=True, text=True, check=True, timeout=60).stdout

    def server(self, env=None, args=None):
        return Server(data_dir=self.folder, database_url=self.url, env=env, args=args)

    def rows(self, sql):
        """The rows `sql` answers, each a tuple of texts (write NULLs out of the query)."""
        if self.kind == "sqlite":
            with closing(sqlite3.connect(os.path.join(self.folder, "guesswork.sqlite"), timeout=30)) as db:
                return [tuple(str(value) for value in row) for row in db.execute(sql).fetchall()]
        text = self._psql(self.url, sql)
        return [tuple(line.split("\t")) for line in text.splitlines() if line]

    def count(self, sql):
        return int(self.rows(sql)[0][0])

    def run(self, script):
        """Runs statements (`;`-separated), in one transaction."""
        if self.kind == "sqlite":
            with closing(sqlite3.connect(os.path.join(self.folder, "guesswork.sqlite"), timeout=30)) as db:
                db.executescript("BEGIN;\n" + script + "\nCOMMIT;")
        else:
            self._psql(self.url, "BEGIN;\n" + script + "\nCOMMIT;")

    def drop(self):
        if self.kind == "postgres":
            self._psql(self._admin_url(), f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path):
    if request.param == "postgres" and not POSTGRES_URL:
        if REQUIRE_POSTGRES:
            pytest.fail("GUESSWORK_REQUIRE_POSTGRES=1 but GUESSWORK_TEST_POSTGRES_URL is not set")
        pytest.skip("GUESSWORK_TEST_POSTGRES_URL is not set")
    db = Database(request.param, tmp_path)
    yield db
    db.drop()


def quoted(text):
    return "'" + str(text).replace("'", "''") + "'"


def now_ms():
    return int(time.time() * 1000)


def eventually(check, what, timeout):
    """Waits until `check()` is true (polled every 0.2 s); fails saying `what` otherwise."""
    deadline = time.monotonic() + timeout
    while True:
        last = check()
        if last:
            return last
        assert time.monotonic() < deadline, f"{what}: not so after {timeout} s"
        time.sleep(0.2)


# MARK: 1. The first request


def read_until_closed(sock, timeout):
    """Everything the server sends until it closes the connection, and whether it did within
    `timeout` seconds."""
    sock.settimeout(0.2)
    data = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return data, True
        if not chunk:
            return data, True
        data += chunk
    return data, False


def watch_closes(sockets, opened, timeout):
    """When the server closed each socket (seconds after it was opened; None: still open after
    `timeout`). What the server sends before closing (a 408, say) is read and let be."""
    closed = {}
    selector = selectors.DefaultSelector()
    for sock in sockets:
        sock.setblocking(False)
        selector.register(sock, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while len(closed) < len(sockets) and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.1):
            sock = key.fileobj
            try:
                chunk = sock.recv(65536)
            except BlockingIOError:
                continue
            except (ConnectionResetError, BrokenPipeError):
                chunk = b""
            if not chunk:
                closed[sock] = time.monotonic() - opened[sock]
                selector.unregister(sock)
    selector.close()
    return {sock: closed.get(sock) for sock in sockets}


class HealthWatch(threading.Thread):
    """Asks GET /healthz on a new connection every 0.2 s; keeps every answer (or failure)."""

    def __init__(self, url):
        super().__init__(daemon=True)
        self.url = url
        self.answers = []
        self.stopped = threading.Event()

    def run(self):
        while not self.stopped.is_set():
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as r:
                    self.answers.append(r.status)
            except Exception as e:  # noqa: BLE001: any failure is what this watch reports
                self.answers.append(repr(e))
            self.stopped.wait(0.2)


def test_idle_and_trickling_connections_are_closed_at_the_first_request_deadline_while_healthz_answers():
    """GUESSWORK_FIRST_REQUEST_SECONDS=2: 200 connections that send nothing and 20 that send
    their head a byte a second are all closed by the server within 2 s (and not before 1 s),
    with 2.5 s of slack; /healthz answers 200 all along."""
    with Server(env={"GUESSWORK_FIRST_REQUEST_SECONDS": "2"}) as server:
        health = HealthWatch(server.url)
        health.start()
        opened = {}
        idle, trickling = [], []
        try:
            for _ in range(200):
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
                opened[sock] = time.monotonic()
                idle.append(sock)
            head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"s" * 200
            for _ in range(20):
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
                opened[sock] = time.monotonic()
                trickling.append(sock)
            stop = threading.Event()

            def trickle():
                for index in range(len(head)):
                    for sock in trickling:
                        try:
                            sock.send(head[index:index + 1])
                        except OSError:
                            pass  # closed by the server: what is expected
                    if stop.wait(1):
                        return

            trickler = threading.Thread(target=trickle, daemon=True)
            trickler.start()
            closes = watch_closes(idle + trickling, opened, timeout=2 + 2.5)
            stop.set()
            trickler.join()
        finally:
            health.stopped.set()
            health.join()
            for sock in idle + trickling:
                sock.close()
        idle_open = [s for s in idle if closes[s] is None]
        trickling_open = [s for s in trickling if closes[s] is None]
        assert not idle_open and not trickling_open, (
            f"still open 4.5 s after opening (deadline 2 s): {len(idle_open)} of 200 idle connections, "
            f"{len(trickling_open)} of 20 trickling ones")
        too_early = sorted(t for t in closes.values() if t < 1.0)
        assert not too_early, f"closed before the deadline could have passed: {too_early[:5]}"
        assert [a for a in health.answers if a != 200] == [], health.answers
        assert len(health.answers) >= 5, health.answers


def test_a_request_sent_within_the_first_request_deadline_is_served():
    with Server(env={"GUESSWORK_FIRST_REQUEST_SECONDS": "2"}) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            time.sleep(1.2)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            answer, closed = read_until_closed(sock, 5)
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]


@pytest.fixture(scope="module")
def plain_server():
    with Server() as server:
        yield server


MALFORMED = {
    "an unknown method": b"FOO /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "a 100 KB path": b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "2,000 headers": b"GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     + b"".join(b"X-Header-%d: value\r\n" % i for i in range(2000)) + b"\r\n",
    "Content-Length and Transfer-Encoding": b"POST /api/players HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                            b"Content-Type: application/json\r\nContent-Length: 5\r\n"
                                            b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "two Content-Lengths": b"POST /api/players HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
    "a negative Content-Length": b"POST /api/players HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                b"Content-Type: application/json\r\nContent-Length: -1\r\n\r\n{}",
}


@pytest.mark.parametrize("what", list(MALFORMED))
def test_a_malformed_first_request_gets_400_and_a_close_at_once(plain_server, what):
    """With the default first-request deadline (10 s): the 400 and the close come within 2 s,
    from the parser, not from a deadline."""
    with socket.create_connection(("127.0.0.1", plain_server.port), timeout=5) as sock:
        try:
            sock.sendall(MALFORMED[what])
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer and close before the end of a long head
        answer, closed = read_until_closed(sock, 2)
    assert answer.startswith(b"HTTP/1.1 400"), f"{what}: answered {answer[:120]!r} within 2 s"
    assert closed, f"{what}: the connection stayed open 2 s after its 400"
    # The server goes on.
    assert Client(plain_server.url).get("/healthz")[0] == 200


# MARK: 2. Sign-out


def test_sign_out_takes_only_json_and_clears_no_cookie_it_was_not_sent(database):
    with database.server() as server:
        ana = Client(server.url)
        ana.join("Ana")
        token = ana.cookie(COOKIE)
        # A cross-site form, with the player's cookie: refused, the token kept.
        for content_type, body in (("application/x-www-form-urlencoded", b"a=1"), ("text/plain", b"hello")):
            status, headers, reply = ana.request(
                "POST", "/api/me/sign-out", raw=body,
                headers={"Content-Type": content_type, "Origin": "http://evil.example"})
            assert status == 415, (content_type, status, reply)
            assert reply["error"]["code"] == "unsupported-media-type", reply
            assert "Set-Cookie" not in headers, (content_type, headers)
            assert ana.cookie(COOKIE) == token
            assert ana.get("/api/me")[0] == 200, f"the token stopped working after a {content_type} sign-out"
        # No token sent: nothing to clear.
        status, headers, _ = Client(server.url).request("POST", "/api/me/sign-out", body={})
        assert status == 204 and "Set-Cookie" not in headers, (status, headers)
        # The page's own sign-out (JSON, with the cookie): done, the cookie cleared, the token gone.
        status, headers, _ = ana.request("POST", "/api/me/sign-out", body={})
        assert status == 204, status
        assert headers["Set-Cookie"].startswith(f"{COOKIE}=;") and "Max-Age=0" in headers["Set-Cookie"], headers
        stale = Client(server.url)
        status, _, _ = stale.request("GET", "/api/me", headers={"Cookie": f"{COOKIE}={token}"})
        assert status == 401


# MARK: 3. Sockets die with their key


def second_device(server, client):
    """Another browser signed in as `client`'s player, by a link code."""
    status, _, link = client.post("/api/me/link-codes", {})
    assert status == 201, link
    other = Client(server.url)
    status, _, reply = other.post(f"/api/link-codes/{link['code']}", {})
    assert status == 200, reply
    return other


@pytest.mark.parametrize("how", ["sign-out", "new-key"])
def test_a_revoked_keys_play_socket_and_room_socket_end(database, how):
    """After sign-out (or a new key), the old key's play socket is closed or refuses every
    move, and its room socket is closed and told nothing more; the same player's other device
    keeps its sockets."""
    with database.server() as server:
        ana = Client(server.url)
        ana.join("Ana")
        phone = second_device(server, ana)
        game = ana.start_game("number", {"attempts": 20})
        ws = open_socket(server, ana)
        first = ask(ws, {"ref": 1, "game": game["id"], "version": 0, "action": halving_guess(game["view"])})
        assert first["status"] == 200, first
        game = first["reply"]
        other_game = phone.start_game("number", {"attempts": 20})
        phone_ws = open_socket(server, phone)
        host, code, _ = make_room(server)
        assert ana.post(f"/api/rooms/{code}/join", {})[0] == 200
        room_socket = Socket(server.url, ana, code)
        room_socket.wait(lambda m: m.get("type") == "room", "the room's view")

        if how == "sign-out":
            assert ana.request("POST", "/api/me/sign-out", body={})[0] == 204
            reader = phone
        else:
            assert ana.post("/api/me/token", {})[0] == 200
            reader = ana  # its jar holds the new key

        # The play socket: closed, or every move refused (401), the game unmoved.
        try:
            answer = ask(ws, {"ref": 2, "game": game["id"], "version": game["version"],
                              "action": halving_guess(game["view"])})
        except (ConnectionClosed, TimeoutError):
            answer = None
        assert answer is None or answer["status"] == 401, f"the old key still moves after {how}: {answer}"
        status, _, read = reader.get(f"/api/games/{game['id']}")
        assert status == 200 and read["version"] == game["version"], (
            f"a move sent on the old key's socket after the {how} was answered was taken (version "
            f"{game['version']} -> {read['version']}): the key's sockets must stop before the answer")
        # The room socket: a change after the revocation reaches it no more, and it is closed.
        changed = host_act(host, code, {"type": "choose", "game": "number", "settings": {"attempts": 7}})
        room_socket.wait_closed(timeout=5)
        late = [m for m in room_socket.messages if m.get("type") == "room" and m["version"] >= changed["version"]]
        assert late == [], f"the old key's room socket was sent a view after {how}"
        # The other device's socket is its own key's: it goes on.
        answer = ask(phone_ws, {"ref": 1, "game": other_game["id"], "version": 0,
                                "action": halving_guess(other_game["view"])})
        assert answer["status"] == 200, answer
        phone_ws.close()


# MARK: 4. Socket caps and Origin


def ws_base(server):
    return server.url.replace("http", "ws", 1)


def upgrade_status(url, client=None, origin=None):
    """101 when the upgrade is accepted (the socket is closed again at once), else the status
    it was refused with."""
    headers = {"Cookie": f"{COOKIE}={client.cookie(COOKIE)}"} if client else {}
    if origin:
        headers["Origin"] = origin
    try:
        ws = connect(url, additional_headers=headers, open_timeout=10)
    except InvalidStatus as refused:
        return refused.response.status_code
    ws.close()
    return 101


def socket_refusal(url, client):
    """Why a socket is refused: the error code it is told before it is closed (a page can read
    that, where it cannot read an upgrade's status), or None when it is let in (it is sent the
    room, or a play socket stays open)."""
    headers = {"Cookie": f"{COOKIE}={client.cookie(COOKIE)}"}
    ws = connect(url, additional_headers=headers, open_timeout=10)
    try:
        while True:
            try:
                message = json.loads(ws.recv(timeout=2))
            except TimeoutError:
                return None  # open and quiet: a play socket that was let in
            if message.get("type") == "room":
                return None
            error = message.get("error") if isinstance(message.get("error"), dict) else message
            if error.get("code"):
                return error["code"]
    except ConnectionClosed:
        return "closed without a word"
    finally:
        ws.close()


def test_a_fourth_socket_of_one_player_in_one_room_closes_the_oldest():
    with Server() as server:
        host, code, _ = make_room(server)
        (ana,) = join_phones(server, code, ["Ana"])
        sockets = []
        for _ in range(3):
            sockets.append(Socket(server.url, ana, code))
            sockets[-1].wait(lambda m: m.get("type") == "room", "the room's view")
        newest = Socket(server.url, ana, code)
        newest.wait(lambda m: m.get("type") == "room", "the newest socket's view")
        sockets[0].wait_closed(timeout=3)
        for sock in sockets[1:] + [newest]:
            sock.ws.send('{"type":"ping"}')
            sock.wait(lambda m: m.get("type") == "pong", "pong from a socket that should stay", timeout=5)
            assert sock.closed is None
        for sock in sockets[1:] + [newest]:
            sock.close()


def test_sockets_past_the_per_client_cap_are_refused_with_429():
    """GUESSWORK_SOCKETS_PER_CLIENT=6: six sockets from 127.0.0.1, then a seventh (to a room or
    to play) is told `too-many-sockets` (429) and closed; one closed makes room for one."""
    with Server(env={"GUESSWORK_SOCKETS_PER_CLIENT": "6"}) as server:
        host, code, _ = make_room(server)
        phones = join_phones(server, code, [f"P{i}" for i in range(7)])
        sockets = [Socket(server.url, phone, code) for phone in phones[:6]]
        for sock in sockets:
            sock.wait(lambda m: m.get("type") == "room", "a view")
        room_url = ws_base(server) + f"/api/rooms/{code}/socket?as=player"
        assert socket_refusal(room_url, phones[6]) == "too-many-sockets"
        assert socket_refusal(ws_base(server) + "/api/play/socket", phones[6]) == "too-many-sockets"
        sockets[0].close()
        sockets[0].wait_closed()
        eventually(lambda: socket_refusal(room_url, phones[6]) is None, "a place freed by a closed socket", 5)
        for sock in sockets[1:]:
            sock.close()


def test_a_crowd_of_sockets_opening_is_announced_in_a_few_views_not_one_each():
    """30 phones connecting at once: the first phone is told who is connected a few times, not
    once for every socket that opened (each opening re-sent the room to every socket)."""
    with Server() as server:
        host, code, _ = make_room(server)
        phones = join_phones(server, code, [f"P{i}" for i in range(30)])
        first = Socket(server.url, phones[0], code)
        first.wait(lambda m: m.get("type") == "room", "the first view")
        others = [Socket(server.url, phone, code) for phone in phones[1:]]
        for sock in others:
            sock.wait(lambda m: m.get("type") == "room", "a view")
        # Everyone shows as connected once the announcements have settled.
        first.latest(lambda m: sum(p["connected"] for p in m["players"]) == 30, "all 30 connected", timeout=5)
        time.sleep(0.6)
        views = [m for m in first.messages if m.get("type") == "room"]
        assert len(views) <= 8, f"{len(views)} views for 29 sockets opening"
        for sock in [first] + others:
            sock.close()


def test_a_room_takes_at_most_its_cap_of_sockets():
    """GUESSWORK_ROOM_SOCKETS=4: a fifth socket into one room is refused (on the upgrade, or
    closed without a view); the four go on, and another room still takes sockets."""
    with Server(env={"GUESSWORK_ROOM_SOCKETS": "4"}) as server:
        host, code, _ = make_room(server)
        phones = join_phones(server, code, [f"P{i}" for i in range(5)])
        sockets = [Socket(server.url, phone, code) for phone in phones[:4]]
        for sock in sockets:
            sock.wait(lambda m: m.get("type") == "room", "a view")
        try:
            fifth = Socket(server.url, phones[4], code)
        except InvalidStatus as refused:
            assert refused.response.status_code >= 400
        else:
            fifth.wait_closed(timeout=3)
            assert not [m for m in fifth.messages if m.get("type") == "room"], "the fifth socket was sent the room"
        for sock in sockets:
            sock.ws.send('{"type":"ping"}')
            sock.wait(lambda m: m.get("type") == "pong", "pong", timeout=5)
        other_host, other_code, _ = make_room(server, "Other")
        (ben,) = join_phones(server, other_code, ["Ben"])
        elsewhere = Socket(server.url, ben, other_code)
        elsewhere.wait(lambda m: m.get("type") == "room", "a view in another room")
        for sock in sockets + [elsewhere]:
            sock.close()


def test_socket_upgrades_from_another_origin_are_refused():
    """A page of another origin cannot open a socket: the upgrade is refused (hummingbird-
    websocket answers every refused upgrade with a bare 400, whatever the refusal's status)."""
    with Server() as server:
        host, code, _ = make_room(server)
        (ana,) = join_phones(server, code, ["Ana"])
        paths = [f"/api/rooms/{code}/socket?as=player", "/api/play/socket"]
        for path in paths:
            url = ws_base(server) + path
            assert upgrade_status(url, ana, origin="http://evil.example") in (400, 403), path
            assert upgrade_status(url, ana, origin=f"http://127.0.0.1:{server.port + 1}") in (400, 403), path
            assert upgrade_status(url, ana, origin=f"http://127.0.0.1:{server.port}") == 101, path
            assert upgrade_status(url, ana) == 101, path  # no Origin: not a browser


# MARK: 5. Rooms that close, rows that go


ROOM_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def with_instant(old, milliseconds):
    """An Instant as the room's state stores it (a number, or an object of one number)."""
    if isinstance(old, dict):
        (key,) = old
        return {key: milliseconds}
    return milliseconds


def room_row(template, code, at):
    """An INSERT of a copy of room `template` (a stored row) as room `code`, last active and
    updated at `at` (ms)."""
    state = json.loads(template["state"])
    room = state["room"]
    room["code"] = code
    room["lastActivity"] = with_instant(room["lastActivity"], at)
    room["createdAt"] = with_instant(room["createdAt"], at)
    return (
        "INSERT INTO rooms (code, host_id, state, version, players, created_at, updated_at, closed_at) "
        f"VALUES ({quoted(code)}, {quoted(template['host_id'])}, {quoted(json.dumps(state, separators=(',', ':')))}, "
        f"{template['version']}, {template['players']}, {at}, {at}, NULL);"
    )


def stored_room(database, code):
    row = database.rows(
        "SELECT host_id, state, version, players FROM rooms WHERE code = " + quoted(code))[0]
    return dict(zip(["host_id", "state", "version", "players"], row))


def open_codes(database, codes):
    listed = ", ".join(quoted(c) for c in codes)
    return {row[0] for row in database.rows(f"SELECT code FROM rooms WHERE closed_at IS NULL AND code IN ({listed})")}


class Swept:
    """A server started on rows the sweeps have work in (see `swept`), and what they are."""

    SECONDS = 8  # how long after the start each sweep has to be done

    def __init__(self, **fields):
        self.__dict__.update(fields)

    def eventually(self, check, what):
        try:
            eventually(check, what, timeout=max(0.5, self.started + self.SECONDS - time.monotonic()))
        except AssertionError:
            raise AssertionError(f"{what}: not so {time.monotonic() - self.started:.0f} s after the server "
                                 "started (sweeps every 1 s)") from None


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def swept(request, tmp_path_factory):
    """One server a database, started (sweeps every second) on rows written directly to its
    database, as a long-lived server would have them: 50 rooms idle for four hours, 1,000 rooms
    active now (that many through the API would be the tests' whole time), a room closed 25
    hours ago and one closed now, a link code expired an hour ago and one still good. Then,
    started, some work that may start a clean-up: a new room, a new link code."""
    if request.param == "postgres" and not POSTGRES_URL:
        if REQUIRE_POSTGRES:
            pytest.fail("GUESSWORK_REQUIRE_POSTGRES=1 but GUESSWORK_TEST_POSTGRES_URL is not set")
        pytest.skip("GUESSWORK_TEST_POSTGRES_URL is not set")
    database = Database(request.param, tmp_path_factory.mktemp("swept"))
    with database.server() as server:
        host, template_code, _ = make_room(server)
        closer, day_old, _ = make_room(server, "Closer")
        host_act(closer, day_old, {"type": "close"})
        other, just_closed, _ = make_room(server, "Other")
        host_act(other, just_closed, {"type": "close"})
        ana = Client(server.url)
        ana.join("Ana")
        expired = ana.post("/api/me/link-codes", {})[2]["code"]
        kept = ana.post("/api/me/link-codes", {})[2]["code"]
    template = stored_room(database, template_code)
    chance, codes = random.Random(52), set()
    while len(codes) < 1050:
        codes |= {"".join(chance.choices(ROOM_ALPHABET, k=6))} - {template_code, day_old, just_closed}
    codes = sorted(codes)
    idle, active = codes[:50], codes[50:]
    now = now_ms()
    day_ago = now - 25 * HOUR_MS
    database.run("\n".join(
        [room_row(template, c, now - 4 * HOUR_MS) for c in idle]
        + [room_row(template, c, now) for c in active]
        + [f"UPDATE rooms SET closed_at = {day_ago}, updated_at = {day_ago} WHERE code = {quoted(day_old)};",
           f"UPDATE link_codes SET expires_at = {now - HOUR_MS} "
           "WHERE expires_at = (SELECT MIN(expires_at) FROM link_codes);"]))
    assert database.count("SELECT COUNT(*) FROM rooms WHERE closed_at IS NULL") == 1051
    assert database.count("SELECT COUNT(*) FROM link_codes") == 2
    server = database.server(env=SWEEP)
    server.start()
    started = time.monotonic()
    try:
        ana.base_url = server.url
        assert Client(server.url).get(f"/api/link-codes/{expired}")[0] == 404
        make_room(server, "Newcomer")
        assert ana.post("/api/me/link-codes", {})[0] == 201
        yield Swept(database=database, server=server, started=started, idle=idle, active=active + [template_code],
                    day_old=day_old, just_closed=just_closed, expired=expired, kept=kept)
    finally:
        server.stop()
        database.drop()


def test_the_idle_sweep_closes_the_oldest_idle_rooms_with_over_a_thousand_open(swept):
    """50 rooms idle for four hours among 1,051 open: closed within seconds (the sweep reads
    the oldest first); the 1,001 active ones stay open."""
    try:
        swept.eventually(lambda: not open_codes(swept.database, swept.idle), "the idle rooms are closed")
    except AssertionError:
        raise AssertionError(
            f"{len(open_codes(swept.database, swept.idle))} of the 50 rooms idle for four hours are still open "
            f"{Swept.SECONDS} s after a start with 1,051 open rooms (sweep every 1 s)") from None
    assert open_codes(swept.database, swept.active) == set(swept.active), "an active room was closed"
    # What a player sees: the room says it is closed.
    status, _, summary = Client(swept.server.url).get(f"/api/rooms/{swept.idle[0]}")
    assert status == 200 and summary["open"] is False, summary


def test_closed_rooms_are_deleted_a_day_after_they_closed(swept):
    def rows(code):
        return swept.database.count(f"SELECT COUNT(*) FROM rooms WHERE code = {quoted(code)}")

    swept.eventually(lambda: rows(swept.day_old) == 0, "the room closed 25 hours ago is deleted")
    assert rows(swept.just_closed) == 1, "a room closed a moment ago was deleted"
    assert Client(swept.server.url).get(f"/api/rooms/{swept.day_old}")[0] == 404


def test_expired_link_codes_are_deleted(swept):
    database = swept.database
    swept.eventually(lambda: database.count(f"SELECT COUNT(*) FROM link_codes WHERE expires_at < {now_ms()}") == 0,
                     "the link code expired an hour ago is deleted")
    assert database.count("SELECT COUNT(*) FROM link_codes") == 2, "the good link codes are kept"
    assert Client(swept.server.url).get(f"/api/link-codes/{swept.kept}")[0] == 200


def test_a_host_has_at_most_five_open_rooms(database):
    with database.server() as server:
        host = Client(server.url)
        host.join("Host")
        codes = []
        for _ in range(5):
            status, _, created = host.post("/api/rooms", {})
            assert status == 201, created
            codes.append(created["code"])
        status, headers, reply = host.post("/api/rooms", {})
        assert status == 429, (status, reply)
        assert reply["error"]["code"] and reply["error"]["message"], reply
        assert database.count("SELECT COUNT(*) FROM rooms WHERE closed_at IS NULL") == 5
        # Another host is not held back; a room closed makes room for one.
        other = Client(server.url)
        other.join("Other")
        assert other.post("/api/rooms", {})[0] == 201
        host_act(host, codes[0], {"type": "close"})
        assert host.post("/api/rooms", {})[0] == 201
        assert host.post("/api/rooms", {})[0] == 429


def test_making_and_looking_up_link_codes_is_rate_limited():
    with Server(env=STANDARD) as server:
        ana = Client(server.url)
        ana.join("Ana")
        made = []
        for _ in range(200):
            status, headers, reply = ana.post("/api/me/link-codes", {})
            made.append(status)
            if status == 429:
                assert int(headers["Retry-After"]) >= 1 and reply["error"]["code"] == "too-many-requests"
                break
        assert made[-1] == 429 and made[:3] == [201] * 3, f"200 link codes in a row: {made[-3:]}"
        guesser = Client(server.url)
        looked = []
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        for i in range(200):
            guess = "".join(random.Random(i).choices(alphabet, k=22))
            status, headers, _ = guesser.get(f"/api/link-codes/{guess}")
            looked.append(status)
            if status == 429:
                assert int(headers["Retry-After"]) >= 1
                break
        assert looked[-1] == 429 and looked[:3] == [404] * 3, f"200 guessed link codes: {looked[-3:]}"


# MARK: 6. What a host can push to every phone


def settled_socket(server, client, code, quiet=1.0):
    """A phone's room socket once its opening views have come (connected changes included,
    however they are debounced): nothing new for `quiet` seconds."""
    sock = Socket(server.url, client, code)
    sock.wait(lambda m: m.get("type") == "room", "the room's view")
    deadline = time.monotonic() + 10
    count, since = len(sock.messages), time.monotonic()
    while time.monotonic() - since < quiet:
        assert time.monotonic() < deadline, "the room's socket never fell quiet"
        time.sleep(0.1)
        if len(sock.messages) != count:
            count, since = len(sock.messages), time.monotonic()
    return sock


def room_version(client, code):
    status, _, summary = client.get(f"/api/rooms/{code}")
    assert status == 200, summary
    return summary["version"]


def test_choose_refuses_what_start_would_refuse_and_changes_nothing(database):
    with database.server() as server:
        host, code, _ = make_room(server)
        ana, bea = join_phones(server, code, ["Ana", "Bea"])
        words = [f"word {i}" for i in range(12)]
        status, _, theirs = bea.post("/api/categories", {"name": "Bea's words", "words": words})
        assert status == 201, theirs
        status, _, mine = host.post("/api/categories", {"name": "Host's words", "words": words})
        assert status == 201, mine
        phone = settled_socket(server, ana, code)
        version = room_version(host, code)
        told = len(phone.messages)
        bad = {
            "a 15,000-character deck": {"type": "choose", "game": "picture-quiz", "deck": "d" * 15_000},
            "a path for a deck": {"type": "choose", "game": "picture-quiz", "deck": "../../etc/passwd"},
            "another player's category": {"type": "choose", "game": "guess-or-pass", "category": theirs["id"]},
            "a path for a category": {"type": "choose", "game": "guess-or-pass", "category": "../../etc/passwd"},
        }
        for what, action in bad.items():
            status, _, reply = host.post(f"/api/rooms/{code}/actions", {"version": version, "action": action})
            assert 400 <= status < 500, f"choose with {what}: {status} {str(reply)[:300]}"
            assert room_version(host, code) == version, f"choose with {what} moved the room's version"
        time.sleep(1.0)
        assert phone.messages[told:] == [], f"views pushed after refused choices: {str(phone.messages[told:])[:500]}"
        # What start takes, choose takes: the host's own category, a deck of the catalog.
        chosen = act(host, code, {"type": "choose", "game": "guess-or-pass", "category": mine["id"]}, version=version)
        assert chosen["version"] == version + 1 and chosen["game"]["variant"] == mine["id"], chosen["game"]
        chosen = act(host, code, {"type": "choose", "game": "picture-quiz", "deck": "animals"}, version=version + 1)
        assert chosen["game"]["variant"] == "animals"
        phone.close()


def test_a_present_members_rejoin_changes_nothing(database):
    with database.server() as server:
        host, code, _ = make_room(server)
        (ana,) = join_phones(server, code, ["Ana"])
        screen = settled_socket(server, ana, code)
        version = room_version(host, code)
        told = len(screen.messages)
        status, _, view = ana.post(f"/api/rooms/{code}/join", {})
        assert status == 200 and view["you"]["member"], view
        assert view["version"] == version and room_version(host, code) == version, \
            f"a rejoin moved the room from version {version} to {room_version(host, code)}"
        time.sleep(1.0)
        assert screen.messages[told:] == [], "a rejoin that changed nothing pushed a view"
        screen.close()


def test_kick_of_an_unknown_player_or_of_the_host_says_what_is_true():
    with Server() as server:
        host, code, _ = make_room(server)
        join_phones(server, code, ["Ana"])
        host_id = host.get("/api/me")[2]["id"]
        for joined in (False, True):
            if joined:
                assert host.post(f"/api/rooms/{code}/join", {})[0] == 200
            version = room_version(host, code)
            status, _, reply = host.post(f"/api/rooms/{code}/actions",
                                         {"version": version, "action": {"type": "kick", "player": "no-such-player"}})
            assert status == 404, reply
            message = reply["error"]["message"].lower()
            assert reply["error"]["code"] != "not-in-room" and "player" in message and "you are not" not in message, reply
            status, _, reply = host.post(f"/api/rooms/{code}/actions",
                                         {"version": version, "action": {"type": "kick", "player": host_id}})
            assert status in (403, 409), (joined, status, reply)
            assert reply["error"]["code"] not in ("not-in-room", "not-host"), (joined, reply)
            assert "host" in reply["error"]["message"].lower(), (joined, reply)
            assert room_version(host, code) == version
        # The host is still the host: their actions are taken.
        host_act(host, code, {"type": "choose", "game": "number", "settings": {"attempts": 7}})


# MARK: 7. Junk on the play socket


def test_junk_on_the_play_socket_counts_against_the_moves_rate_limit():
    """The standard limits (moves=100/10): 500 junk messages sent at once get a few hundred
    400s at most, then 429s or a close; and the moves' bucket is empty after them (POSTed
    moves get 429)."""
    with Server(env=STANDARD) as server:
        ana = Client(server.url)
        ana.join("Ana")
        game = ana.start_game("number", {"low": 0, "high": 9999, "attempts": 20})
        ws = open_socket(server, ana)
        sent = 0
        try:
            for _ in range(500):
                ws.send("junk")
                sent += 1
        except ConnectionClosed:
            pass
        statuses = []
        try:
            while len(statuses) < sent:
                statuses.append(json.loads(ws.recv(timeout=5))["status"])
        except (ConnectionClosed, TimeoutError):
            pass
        ws.close()
        bad = statuses.count(400)
        assert bad < 200 and (429 in statuses or len(statuses) < 500), (
            f"500 junk messages got {bad} answers of 400, {statuses.count(429)} of 429")
        refused = [ana.post(f"/api/games/{game['id']}/actions",
                            {"action": {"type": "digit", "digit": 1}, "version": game["version"]})[0]
                   for _ in range(20)]
        assert refused.count(429) >= 10, f"moves after 500 junk messages: {refused}"


# MARK: 8. The home network's certificate authority


def load_certificate(path):
    from cryptography import x509
    with open(path, "rb") as f:
        return x509.load_pem_x509_certificate(f.read())


def openssl_signed(folder, ca, ca_key, name, address):
    """A server certificate for `name` and `address`, signed with the CA's key."""
    key, request, certificate = (os.path.join(folder, f"{name}.{ext}") for ext in ("key", "csr", "pem"))
    subprocess.run(["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", key, "-out", request, "-subj", f"/CN={name}"],
                   check=True, capture_output=True)
    extensions = os.path.join(folder, f"{name}.ext")
    with open(extensions, "w") as f:
        f.write(f"subjectAltName=DNS:{name},IP:{address}\nextendedKeyUsage=serverAuth\n")
    subprocess.run(["openssl", "x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
                    "-out", certificate, "-days", "30", "-extfile", extensions],
                   check=True, capture_output=True)
    return certificate


def verifies(ca, certificate):
    run = subprocess.run(["openssl", "verify", "-CAfile", ca, "-purpose", "sslserver", certificate],
                         capture_output=True, text=True)
    return run.returncode == 0, run.stdout + run.stderr


def test_the_local_ca_is_name_constrained_short_lived_private_and_sends_no_hsts(tmp_path):
    from cryptography import x509
    data_dir = str(tmp_path / "data")
    os.makedirs(data_dir)
    with Server(data_dir=data_dir, args=["--https"], https=True) as server:
        tls = os.path.join(data_dir, "tls")
        ca_path = os.path.join(tls, "ca.pem")
        context = ssl.create_default_context(cafile=ca_path)
        status, headers, _ = Client(server.url, ssl_context=context).get("/api/session")
        assert status == 200
        assert "Strict-Transport-Security" not in headers, \
            "a year of HSTS under the local CA (a browser then refuses http://<host>.local for a year)"
    assert os.stat(tls).st_mode & 0o777 == 0o700, oct(os.stat(tls).st_mode & 0o777)
    ca = load_certificate(ca_path)
    lifetime = ca.not_valid_after_utc - ca.not_valid_before_utc
    assert lifetime.days <= 825, f"the CA lasts {lifetime.days} days"
    try:
        constraints = ca.extensions.get_extension_for_class(x509.NameConstraints).value
    except x509.ExtensionNotFound:
        raise AssertionError("the CA has no name constraints: a phone that trusts it trusts it for any site") from None
    permitted = constraints.permitted_subtrees or []
    dns = {n.value.lstrip(".").lower() for n in permitted if isinstance(n, x509.DNSName)}
    networks = [n.value for n in permitted if isinstance(n, x509.IPAddress)]
    assert "localhost" in dns and "local" in dns, dns
    for private in ("127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"):
        wanted = ipaddress.ip_network(private)
        assert any(n.version == 4 and wanted.subnet_of(n) for n in networks), (private, networks)
    assert not any(n.prefixlen == 0 for n in networks) and "" not in dns, permitted
    # Every name and address the server's certificate is for is inside the constraints.
    served = load_certificate(os.path.join(tls, "server.pem"))
    names = served.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    for name in names.get_values_for_type(x509.DNSName):
        assert any(name.lower() == d or name.lower().endswith("." + d) for d in dns), (name, dns)
    for address in names.get_values_for_type(x509.IPAddress):
        assert any(address in n for n in networks), (address, networks)
    # As a verifier sees it: the CA's key signs for a printer on the network, not for a bank.
    folder = str(tmp_path / "signed")
    os.makedirs(folder)
    ca_key = os.path.join(tls, "ca-key.pem")
    ok, why = verifies(ca_path, openssl_signed(folder, ca_path, ca_key, "printer.local", "192.168.1.20"))
    assert ok, why
    ok, why = verifies(ca_path, openssl_signed(folder, ca_path, ca_key, "www.example.com", "93.184.216.34"))
    assert not ok, "a certificate for www.example.com signed by the local CA verifies"


def test_an_old_unconstrained_local_ca_is_made_again(tmp_path):
    """A data folder from before (a CA of ten years, no name constraints) gets a new CA."""
    from cryptography import x509
    tls = tmp_path / "data" / "tls"
    os.makedirs(tls)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", str(tls / "ca-key.pem"), "-out", str(tls / "ca.pem"), "-days", "3650",
                    "-subj", "/CN=Guesswork old", "-addext", "basicConstraints=critical,CA:TRUE",
                    "-addext", "keyUsage=critical,keyCertSign,cRLSign"], check=True, capture_output=True)
    with open(tls / "ca.pem") as f:
        before = f.read()
    with Server(data_dir=str(tmp_path / "data"), args=["--https"], https=True):
        pass
    with open(tls / "ca.pem") as f:
        assert f.read() != before, "the old unconstrained ten-year CA was kept"
    ca = load_certificate(str(tls / "ca.pem"))
    ca.extensions.get_extension_for_class(x509.NameConstraints)
    assert (ca.not_valid_after_utc - ca.not_valid_before_utc).days <= 825


def test_hsts_is_sent_with_an_operators_certificate_and_behind_https(tmp_path):
    key, certificate = str(tmp_path / "key.pem"), str(tmp_path / "cert.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=guesswork-test",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    with Server(args=["--tls-cert", certificate, "--tls-key", key], https=True) as server:
        headers = Client(server.url, ssl_context=ssl.create_default_context(cafile=certificate)).get("/api/session")[1]
        assert headers["Strict-Transport-Security"] == "max-age=31536000"
    with Server(args=["--behind-https"]) as proxied:
        assert Client(proxied.url).get("/api/session")[1]["Strict-Transport-Security"] == "max-age=31536000"
