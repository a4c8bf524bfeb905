"""Party rooms over HTTP and WebSockets against a real server (docs/rooms.md): whole games with
a shared screen and phones, what each connection may see (every message is kept and
inspected), reconnecting, kicking, bad input, a restart, two instances on one PostgreSQL, and
`guesswork rooms`.
"""
import json
import os
import subprocess
import tempfile
import threading
import time

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from support.server import Client, Server, binary, free_port

POSTGRES_URL = os.environ.get("GUESSWORK_TEST_POSTGRES_URL")
# The sockets are read on threads, so they are opened without a `with`.
pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning")


class Socket:
    """A room's WebSocket, read on a thread of its own: every message it receives is kept."""

    def __init__(self, server_url, client, code, role="player"):
        url = server_url.replace("http", "ws", 1) + f"/api/rooms/{code}/socket?as={role}"
        cookie = f"guesswork_player={client.cookie('guesswork_player')}"
        self.ws = connect(url, additional_headers={"Cookie": cookie}, open_timeout=10)
        self.messages = []
        self.closed = None
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            for text in self.ws:
                with self.changed:
                    self.messages.append(json.loads(text))
                    self.changed.notify_all()
        except ConnectionClosed as closed:
            self.closed = closed.rcvd
        finally:
            with self.changed:
                if self.closed is None:
                    self.closed = self.ws.close_code and type("Close", (), {"code": self.ws.close_code})
                self.changed.notify_all()

    def wait(self, predicate, what, timeout=15):
        """The first message (old or new) that satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                for message in self.messages:
                    if predicate(message):
                        return message
                left = deadline - time.monotonic()
                assert left > 0, f"never received {what}; last: {self.messages[-1:]}"
                self.changed.wait(left)

    def latest(self, predicate, what, timeout=15):
        """Waits until the newest message satisfies `predicate`; returns it."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                if self.messages and predicate(self.messages[-1]):
                    return self.messages[-1]
                left = deadline - time.monotonic()
                assert left > 0, f"never received {what}; last: {self.messages[-1:]}"
                self.changed.wait(left)

    def wait_closed(self, timeout=10):
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.closed is None:
                left = deadline - time.monotonic()
                assert left > 0, "the socket stayed open"
                self.changed.wait(left)
        return self.closed

    def close(self):
        self.ws.close()


def make_room(server, host_name="Host", **body):
    host = Client(server.url)
    host.join(host_name)
    status, _, created = host.post("/api/rooms", body)
    assert status == 201, created
    return host, created["code"], created


def join_phones(server, code, names):
    phones = []
    for name in names:
        phone = Client(server.url)
        phone.join(name)
        status, _, view = phone.post(f"/api/rooms/{code}/join", {})
        assert status == 200, view
        assert view["you"]["member"] and view["phase"] == "lobby"
        phones.append(phone)
    return phones


def act(client, code, action, version=None, expect=200):
    body = {"action": action}
    if version is not None:
        body["version"] = version
    status, _, reply = client.post(f"/api/rooms/{code}/actions", body)
    assert status == expect, (status, reply)
    return reply


def host_act(host, code, action, expect=200):
    """A host's action with the room's current version (read first, as a page has it)."""
    status, _, summary = host.get(f"/api/rooms/{code}")
    assert status == 200, summary
    return act(host, code, action, version=summary["version"], expect=expect)


def test_a_whole_picture_quiz_room_with_a_screen_and_three_phones():
    with Server() as server:
        host, code, created = make_room(server)
        assert len(code) in (4, 5, 6) and not set(code) & set("01OIL")
        assert created["link"].endswith(f"/room.html?code={code}")
        screen = Socket(server.url, host, code, role="screen")
        phones = join_phones(server, code, ["Ana", "Ben", "Cy"])
        sockets = [Socket(server.url, phone, code) for phone in phones]
        screen.latest(lambda m: len(m["players"]) == 3, "three players on the screen")
        host_act(host, code, {"type": "choose", "game": "picture-quiz",
                              "settings": {"questions": 3, "choices": 3}, "deck": "animals"})
        started = host_act(host, code, {"type": "start"})
        assert started["phase"] == "question" and started["round"]["of"] == 3
        for number in range(3):
            question = screen.latest(
                lambda m: m["phase"] == "question" and m["round"]["number"] == number + 1,
                f"question {number + 1} on the screen")
            asked = question["round"]["view"]
            assert "answer" not in asked and asked["phase"] == "question"
            # Everyone sees the same question (one seed): the same pictures, in one order.
            seen = [s.latest(lambda m: m["phase"] == "question" and m["round"]["number"] == number + 1,
                             "the question on a phone")["round"]["view"] for s in sockets]
            assert all(v["choices"] == asked["choices"] and v["answerName"] == asked["answerName"]
                       for v in seen)
            # Ana taps the first picture, Ben the second, Cy the third: one of them is right.
            for index, phone in enumerate(phones):
                reply = act(phone, code, {"type": "play", "round": number,
                                          "action": {"type": "choose", "choice": index}})
                if reply["phase"] == "question":
                    # Done, but the answer is not shown while others still answer.
                    assert reply["you"]["answered"] and "view" not in reply["round"]
            revealed = screen.latest(lambda m: m["phase"] == "reveal", "the reveal")
            right = revealed["round"]["view"]["answer"]["rightChoice"]
            results = {r["id"]: r for r in revealed["reveal"]["results"]}
            for index, socket in enumerate(sockets):
                mine = socket.latest(lambda m: m["phase"] == "reveal", "the reveal on a phone")
                points = results[mine["you"]["id"]]["points"]
                assert mine["round"]["points"] == points
                if index == right:
                    assert 500 <= points <= 1000, points
                else:
                    assert points == 0
            # Standings add up the rounds' points, best first.
            standings = revealed["standings"]
            assert [s["score"] for s in standings] == sorted((s["score"] for s in standings), reverse=True)
            host_act(host, code, {"type": "next"})
        podium = screen.latest(lambda m: m["phase"] == "podium", "the podium")
        assert [p["rank"] for p in podium["podium"]][0] == 1 and len(podium["podium"]) == 3
        for socket in sockets:
            socket.latest(lambda m: m["phase"] == "podium", "the podium on a phone")
        # The room's game counts in each player's statistics.
        for phone in phones:
            status, _, stats = phone.get("/api/me/stats")
            assert status == 200
            quiz = next(g for g in stats["games"] if g["game"] == "picture-quiz")
            assert quiz["played"] == 1, quiz
        # No phone ever saw the answer of a round before it was revealed.
        for socket in sockets:
            for message in socket.messages:
                if message.get("phase") == "question":
                    text = json.dumps(message.get("round", {}))
                    assert '"answer":' not in text and "rightChoice" not in text, message
        screen.close()
        for socket in sockets:
            socket.close()


def holder_plays(holder, code, actions):
    """The holder's actions once the turn's countdown is over."""
    for action in actions:
        deadline = time.monotonic() + 10
        while True:
            status, _, reply = holder.post(
                f"/api/rooms/{code}/actions", {"action": {"type": "play", "action": {"type": action}}})
            if status == 422 and reply["error"]["code"] == "not-ready" and time.monotonic() < deadline:
                time.sleep(0.25)  # still the 5-second countdown
                continue
            assert status == 200, reply
            break


@pytest.mark.parametrize("words_on", ["phones", "screen"])
def test_guess_or_pass_in_teams_never_shows_the_holder_the_word(words_on):
    with Server() as server:
        host, code, _ = make_room(server)
        screen = Socket(server.url, host, code, role="screen")
        phones = join_phones(server, code, ["Ana", "Ben", "Cy", "Di"])
        sockets = [Socket(server.url, phone, code) for phone in phones]
        ids = [s.wait(lambda m: m.get("type") == "room", "a view")["you"]["id"] for s in sockets]
        host_act(host, code, {"type": "choose", "game": "guess-or-pass", "settings": {"duration": 30},
                              "category": "animals", "teams": 2, "wordsOn": words_on})
        started = host_act(host, code, {"type": "start"})
        teams = started["teams"]
        assert [len(t["players"]) for t in teams] == [2, 2]
        turns = started["turn"]["of"]
        assert turns == 4
        # The countdown's end is pushed with nobody acting: the word appears where it may.
        playing = screen.latest(lambda m: m["phase"] == "turn" and m["turn"]["view"]["phase"] == "playing",
                                "the first turn in play, pushed", timeout=10)
        assert (playing["turn"]["view"].get("word") is not None) == (words_on == "screen")
        for turn in range(turns):
            on_screen = screen.latest(lambda m: m["phase"] == "turn" and m["turn"]["number"] == turn + 1,
                                      f"turn {turn + 1}")
            holder_id = on_screen["turn"]["holder"]
            holder = phones[ids.index(holder_id)]
            # Someone else's "guessed" is not theirs to say.
            other = phones[(ids.index(holder_id) + 1) % 4]
            status, _, refused = other.post(f"/api/rooms/{code}/actions",
                                            {"action": {"type": "play", "action": {"type": "guessed"}}})
            assert status == 403 and refused["error"]["code"] == "not-your-turn"
            holder_plays(holder, code, ["guessed", "pass", "guessed", "end"])
            over = screen.latest(lambda m: m["phase"] == "turnOver", "the end of the turn")
            assert over["turn"]["view"]["guessed"] and over["turn"]["teamScores"][over["turn"]["team"]] >= 2
            host_act(host, code, {"type": "next"})
        podium = screen.latest(lambda m: m["phase"] == "podium", "the podium")
        assert {p["score"] for p in podium["podium"]} == {4}  # two words guessed in each of two turns
        # Every message: in a turn in play, the word reaches exactly who may see it.
        shown_to_holder = []
        for socket, player in zip(sockets, ids):
            for message in socket.messages:
                if message.get("phase") != "turn":
                    continue
                turn = message["turn"]
                word = turn["view"].get("word")
                holding = turn["holder"] == player
                team = next(t["number"] for t in message["teams"] if player in t["players"])
                if holding:
                    assert word is None, message
                    assert message["you"]["holding"]
                elif words_on == "phones" and team == turn["team"]:
                    if turn["view"]["phase"] == "playing":
                        assert word, message
                else:
                    assert word is None, message
        for message in screen.messages:
            if message.get("phase") == "turn" and message["turn"]["view"]["phase"] == "playing":
                assert (message["turn"]["view"].get("word") is not None) == (words_on == "screen")
        # The words the holder's phone ever received in a turn are only those already answered.
        for socket, player in zip(sockets, ids):
            for message in socket.messages:
                if message.get("phase") == "turn" and message["turn"]["holder"] == player:
                    text = json.dumps(message)
                    view = message["turn"]["view"]
                    answered = set(view.get("guessed") or []) | set(view.get("passed") or [])
                    current = [m["turn"]["view"].get("word") for s in sockets + [screen] for m in s.messages
                               if m.get("phase") == "turn" and m["turn"]["number"] == message["turn"]["number"]
                               and m["turn"]["view"].get("wordNumber") == view.get("wordNumber")]
                    for word in filter(None, current):
                        if word not in answered:
                            assert f'"{word}"' not in text, (word, message)
                            shown_to_holder.append(word)
        screen.close()
        for socket in sockets:
            socket.close()


def test_a_phone_that_reconnects_gets_the_room_at_once_and_goes_on():
    with Server() as server:
        host, code, _ = make_room(server)
        phones = join_phones(server, code, ["Ana", "Ben"])
        host_act(host, code, {"type": "choose", "game": "number", "settings": {"attempts": 7}})
        host_act(host, code, {"type": "start"})
        first = Socket(server.url, phones[0], code)
        first.latest(lambda m: m["phase"] == "question", "the hunt")
        # A digit on the pad: a move that cannot end the phone's game (a guess finds the secret
        # one time in a hundred, and a finished game has no view to show).
        reply = act(phones[0], code, {"type": "play", "round": 0, "action": {"type": "digit", "digit": 5}})
        first.close()
        again = Socket(server.url, phones[0], code)
        view = again.wait(lambda m: m.get("type") == "room", "the view at once", timeout=5)
        assert view["phase"] == "question" and view["round"]["view"]["display"] == "5"
        assert view["round"]["view"]["attemptsLeft"] == 7
        assert view["version"] >= reply["version"]
        again.close()


def test_the_host_kicks_a_player_and_lets_them_back():
    with Server() as server:
        host, code, _ = make_room(server)
        ana, ben = join_phones(server, code, ["Ana", "Ben"])
        socket = Socket(server.url, ben, code)
        ben_id = socket.wait(lambda m: m.get("type") == "room", "a view")["you"]["id"]
        # Only the host kicks.
        status, _, reply = ana.post(f"/api/rooms/{code}/actions",
                                    {"version": 0, "action": {"type": "kick", "player": ben_id}})
        assert status == 403 and reply["error"]["code"] == "not-host"
        host_act(host, code, {"type": "kick", "player": ben_id})
        socket.wait(lambda m: m.get("type") == "kicked", "kicked")
        assert socket.wait_closed().code == 1008
        status, _, reply = ben.post(f"/api/rooms/{code}/join", {})
        assert status == 403 and reply["error"]["code"] == "kicked"
        refused = Socket(server.url, ben, code)
        assert refused.wait(lambda m: m.get("type") == "error", "a refusal")["code"] == "kicked"
        assert refused.wait_closed().code == 1008
        host_act(host, code, {"type": "readmit", "player": ben_id})
        status, _, view = ben.post(f"/api/rooms/{code}/join", {})
        assert status == 200 and view["you"]["member"] and not view["you"]["kicked"]


def test_bad_input_gets_a_clear_error_and_changes_nothing():
    with Server() as server:
        host, code, created = make_room(server, limit=2)
        stranger = Client(server.url)
        stranger.join("Eve")
        for path in ["/api/rooms/ZZZZ", "/api/rooms/0000", "/api/rooms/toolongcode"]:
            status, _, reply = stranger.get(path)
            assert status == 404 and reply["error"]["code"] == "not-found", reply
        status, _, reply = stranger.post("/api/rooms/ZZZZ/join", {})
        assert status == 404
        status, _, reply = stranger.post("/api/rooms", {"limit": 1000})
        assert status == 400 and reply["error"]["code"] == "bad-limit"
        ana, ben = join_phones(server, code, ["Ana", "Ben"])
        status, _, reply = stranger.post(f"/api/rooms/{code}/join", {})
        assert status == 409 and reply["error"]["code"] == "room-full"
        # A stranger's play, a player's host action, a stale version, an unknown game.
        status, _, reply = stranger.post(f"/api/rooms/{code}/actions", {"action": {"type": "leave"}})
        assert status == 403 and reply["error"]["code"] == "not-in-room"
        status, _, reply = ana.post(f"/api/rooms/{code}/actions", {"version": 2, "action": {"type": "start"}})
        assert status == 403 and reply["error"]["code"] == "not-host"
        status, _, reply = host.post(f"/api/rooms/{code}/actions", {"version": 0, "action": {"type": "start"}})
        assert status == 409 and reply["error"]["code"] == "stale-version"
        status, _, reply = host.post(f"/api/rooms/{code}/actions",
                                     {"version": 2, "action": {"type": "choose", "game": "chess"}})
        assert status == 400 and reply["error"]["code"] == "unknown-game"
        status, _, reply = host.post(f"/api/rooms/{code}/actions",
                                     {"version": 2, "action": {"type": "choose", "game": "number",
                                                               "settings": {"attempts": 99}}})
        assert status == 400 and reply["error"]["code"] == "invalid-setting", reply
        status, _, reply = host.post(f"/api/rooms/{code}/actions", {"version": 2, "action": {"type": "dance"}})
        assert status == 400, reply
        status, _, reply = host.post(f"/api/rooms/{code}/actions", {"version": 2, "action": {"type": "start"}})
        assert status == 409 and reply["error"]["code"] == "no-game-chosen"
        # Nothing above changed the room.
        status, _, summary = stranger.get(f"/api/rooms/{code}")
        assert status == 200 and summary["players"] == 2
        host_act(host, code, {"type": "choose", "game": "number", "settings": {"attempts": 5}})
        host_act(host, code, {"type": "start"})
        # An answer to another round, and a second answer, are refused.
        status, _, reply = ana.post(f"/api/rooms/{code}/actions",
                                    {"action": {"type": "play", "round": 3, "action": {"type": "guess", "number": 1}}})
        assert status == 409 and reply["error"]["code"] == "round-closed"
        status, _, reply = ana.post(f"/api/rooms/{code}/actions",
                                    {"action": {"type": "play", "round": 0, "action": {"type": "guess", "number": 500}}})
        assert status == 422 and reply["error"]["code"] == "out-of-range", reply
        # The socket: a plain GET, a stranger's screen, a message too large, too many messages.
        status, _, reply = stranger.get(f"/api/rooms/{code}/socket")
        assert status == 400 and reply["error"]["code"] == "websocket-expected"
        refused = Socket(server.url, ana, code, role="screen")
        assert refused.wait(lambda m: m.get("type") == "error", "a refusal")["code"] == "not-host"
        assert refused.wait_closed().code == 1008
        socket = Socket(server.url, ana, code)
        socket.ws.send('{"type":"dance"}')
        error = socket.wait(lambda m: m.get("type") == "error", "an error for an unknown message")
        assert error["code"] == "bad-message"
        socket.ws.send('{"type":"ping"}')
        socket.wait(lambda m: m.get("type") == "pong", "pong")
        try:
            socket.ws.send("x" * 10_000)
        except ConnectionClosed:
            pass
        assert socket.wait_closed().code == 1009
        socket = Socket(server.url, ana, code)
        try:
            for _ in range(50):
                socket.ws.send('{"type":"ping"}')
        except ConnectionClosed:
            pass
        assert socket.wait_closed().code == 1008
        # The room still plays.
        act(ana, code, {"type": "play", "round": 0, "action": {"type": "guess", "number": 50}})


def test_join_codes_cannot_be_tried_quickly():
    with Server(env={"GUESSWORK_RATE_LIMITS": "rooms=5/60"}) as server:
        guesser = Client(server.url)
        guesser.join("Eve")
        statuses = [guesser.get(f"/api/rooms/AB{a}{b}")[0] for a in "CD" for b in "EFG"]
        assert statuses[:5] == [404] * 5 and statuses[5] == 429


def test_a_room_survives_the_server_being_killed():
    data_dir = tempfile.mkdtemp(prefix="guesswork-rooms-kill-")
    port = free_port()
    server = Server(data_dir=data_dir, port=port).start()
    host, code, _ = make_room(server)
    (ana,) = join_phones(server, code, ["Ana"])
    host_act(host, code, {"type": "choose", "game": "number", "settings": {"attempts": 7}})
    host_act(host, code, {"type": "start"})
    # A digit on the pad: a stored move that cannot end the game (a guess could win it).
    answered = act(ana, code, {"type": "play", "round": 0, "action": {"type": "digit", "digit": 5}})
    assert answered["round"]["view"]["display"] == "5"
    server.kill()
    server = Server(data_dir=data_dir, port=port).start()
    try:
        socket = Socket(server.url, ana, code)
        view = socket.wait(lambda m: m.get("type") == "room", "the view after the restart")
        assert view["version"] == answered["version"]
        assert view["round"]["view"]["display"] == "5"
        socket.close()
        # The operator's list.
        listed = subprocess.run([binary(), "rooms", "--data-dir", data_dir], capture_output=True,
                                text=True, timeout=60)
        assert listed.returncode == 0, listed.stderr
        assert code in listed.stdout and "playing number" in listed.stdout
    finally:
        server.stop()
        server.cleanup()


@pytest.mark.skipif(
    not POSTGRES_URL and os.environ.get("GUESSWORK_REQUIRE_POSTGRES") != "1",
    reason="needs GUESSWORK_TEST_POSTGRES_URL (scripts/test starts PostgreSQL)")
def test_players_on_two_instances_play_one_room():
    assert POSTGRES_URL, "scripts/test should have started PostgreSQL"
    with Server(database_url=POSTGRES_URL) as a, Server(database_url=POSTGRES_URL) as b:
        host, code, _ = make_room(a)
        screen = Socket(a.url, host, code, role="screen")
        # Ana is on instance a, Ben on b: same cookie-less world, the database is shared.
        (ana,) = join_phones(a, code, ["Ana"])
        (ben,) = join_phones(b, code, ["Ben"])
        ben_socket = Socket(b.url, ben, code)
        screen.latest(lambda m: len(m["players"]) == 2, "both players on the screen (instance a)")
        host_act(host, code, {"type": "choose", "game": "picture-quiz",
                              "settings": {"questions": 2, "choices": 3}, "deck": "animals"})
        host_act(host, code, {"type": "start"})
        # Ben, on b, sees the question that a started.
        ben_socket.latest(lambda m: m["phase"] == "question", "the question on instance b")
        for number in range(2):
            act(ana, code, {"type": "play", "round": number, "action": {"type": "choose", "choice": 0}})
            # Ana's answer (a) reaches Ben's socket (b) through NOTIFY.
            ben_socket.latest(lambda m: m["round"] and m["round"]["answered"] >= 1 or m["phase"] == "reveal",
                              "Ana's answer on instance b")
            act(ben, code, {"type": "play", "round": number, "action": {"type": "choose", "choice": 1}})
            # Ben's answer (b) closes the round on the screen (a).
            screen.latest(lambda m: m["phase"] == "reveal" and m["round"]["number"] == number + 1,
                          "the reveal on instance a")
            host_act(host, code, {"type": "next"})
        screen.latest(lambda m: m["phase"] == "podium", "the podium on a")
        ben_socket.latest(lambda m: m["phase"] == "podium", "the podium on b")
        screen.close()
        ben_socket.close()


def test_bullseye_in_a_room_shows_its_players_the_target_and_scores_ten_times():
    with Server() as server:
        host, code, _ = make_room(server)
        ana, ben = join_phones(server, code, ["Ana", "Ben"])
        stranger = Client(server.url)
        stranger.join("Eve")
        host_act(host, code, {"type": "choose", "game": "bullseye", "settings": {"rounds": 2}})
        host_act(host, code, {"type": "start"})
        status, headers, picture = ana.get(f"/api/rooms/{code}/target.svg")
        assert status == 200 and headers["Content-Type"].startswith("image/svg+xml")
        colour = picture.decode().split('fill="')[1][:7]
        assert ben.get(f"/api/rooms/{code}/target.svg")[2] == picture  # one target for everyone
        status, _, reply = stranger.get(f"/api/rooms/{code}/target.svg")
        assert status == 403 and reply["error"]["code"] == "not-in-room"
        # Ana matches the colour exactly; Ben is far off.
        r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
        act(ana, code, {"type": "play", "round": 0, "action": {"type": "check", "guess": {"r": r, "g": g, "b": b}}})
        reply = act(ben, code, {"type": "play", "round": 0,
                                "action": {"type": "check", "guess": {"r": 255 - r, "g": 255 - g, "b": 255 - b}}})
        assert reply["phase"] == "reveal"
        results = {x["id"]: x["points"] for x in reply["reveal"]["results"]}
        assert max(results.values()) == 1000 and min(results.values()) < 500


def test_color_match_in_a_room_pushes_the_first_card_when_the_countdown_ends():
    with Server() as server:
        host, code, _ = make_room(server)
        (ana,) = join_phones(server, code, ["Ana"])
        socket = Socket(server.url, ana, code)
        host_act(host, code, {"type": "choose", "game": "color-match", "settings": {"duration": 30}})
        host_act(host, code, {"type": "start"})
        counting = socket.latest(lambda m: m["phase"] == "question", "the run's countdown")
        assert counting["round"]["view"]["phase"] == "countdown"
        # Nobody acts: the first card is pushed when the countdown ends.
        card = socket.latest(lambda m: m["phase"] == "question" and m["round"]["view"]["phase"] == "trial",
                             "the first card, pushed", timeout=10)
        assert card["round"]["view"]["top"] and card["round"]["view"]["bottom"]
        socket.close()


# The six inks of Color Match (SPEC 1.2), by colour.
INKS = {"red": "#b32f3c", "orange": "#f8941d", "yellow": "#e7d936", "green": "#39b54a",
        "blue": "#0072bc", "purple": "#92278f"}


def play_color_match_right(phone, code, socket, end, pause, stops=None):
    """Answers every card right, `pause()` seconds after it shows, until `end` (monotonic).
    Why it stopped, and the last view it had, go into `stops` (a phone that answers nothing is
    then explained in the failure)."""
    answered = 0
    seen = 0
    while time.monotonic() < end:
        try:
            view = socket.latest(
                lambda m: m["phase"] != "question" or ((m.get("round") or {}).get("view") or {}).get("phase") == "trial"
                and m["round"]["view"]["trialNumber"] > seen, "the next card", timeout=max(0.1, end - time.monotonic()))
        except AssertionError as waited:
            if stops is not None:
                stops.append(("no next card", seen, str(waited)[-600:]))
            break
        if view["phase"] != "question":
            if stops is not None:
                stops.append(("phase", view["phase"], seen))
            break
        card = view["round"]["view"]
        seen = card["trialNumber"]
        time.sleep(pause())
        meaning = card["top"]["word"]["key"].rsplit(".", 1)[1]
        match = INKS[meaning] == card["bottom"]["ink"].lower()
        status, _, reply = phone.post(f"/api/rooms/{code}/actions", {
            "action": {"type": "play", "round": 0, "action": {"type": "answer", "match": match}}})
        if status == 200:
            answered += 1
        else:
            assert reply["error"]["code"] == "round-closed", reply  # the clock ran out meanwhile
    return answered


def test_color_match_in_a_room_runs_on_one_clock_and_scores_every_fast_right_answer():
    """Issue 51: four phones answering every card right at 0.6-0.9 s a card all score; the run
    ends for everyone at once, 3 s of countdown and 30 s after the start; the screen sees how many
    cards each has answered, each phone its room points so far."""
    with Server() as server:
        host, code, _ = make_room(server)
        screen = Socket(server.url, host, code, role="screen")
        phones = join_phones(server, code, ["Ana", "Ben", "Cy", "Dee"])
        sockets = [Socket(server.url, phone, code) for phone in phones]
        host_act(host, code, {"type": "choose", "game": "color-match", "settings": {"duration": 30}})
        host_act(host, code, {"type": "start"})
        end = time.monotonic() + 3 + 30 + 1
        # Each phone has the run before it plays: a phone whose socket still showed the lobby
        # took it for the end and answered nothing (the flake of two fresh-clone runs).
        for sock in sockets:
            sock.latest(lambda m: m["phase"] == "question", "the run on a phone")
        random = __import__("random").Random(51)
        counts = [0] * 4
        stops = [[] for _ in range(4)]
        threads = [threading.Thread(target=lambda i=i: counts.__setitem__(
            i, play_color_match_right(phones[i], code, sockets[i], end, lambda: random.uniform(0.6, 0.9), stops[i])))
            for i in range(4)]
        for thread in threads:
            thread.start()
        # While it runs: the screen sees cards answered, a phone its room points.
        progress = screen.wait(lambda m: m["phase"] == "question" and sum((m["round"].get("progress") or {}).values()) >= 4,
                               "progress on the screen", timeout=20)
        assert set(progress["round"]["progress"]) == {p["id"] for p in progress["players"]}
        live = sockets[0].wait(lambda m: m["phase"] == "question" and (m["round"].get("points") or 0) > 0,
                               "room points on a phone", timeout=20)
        assert 500 <= live["round"]["points"]
        for thread in threads:
            thread.join()
        reveal = screen.latest(lambda m: m["phase"] == "reveal", "the reveal", timeout=10)
        results = reveal["reveal"]["results"]
        assert len(results) == 4 and all(r["answered"] for r in results), results
        assert all(r["points"] >= 500 * 10 for r in results), (results, counts, stops)  # 10+ cards each at 500-1000
        assert min(counts) >= 15, (counts, stops)  # 30 s at 0.75 s + 0.5 s of feedback a card: about 24
        # One clock for all: the round ended at its limit, not later.
        assert reveal["round"]["endsAt"] - reveal["round"]["startedAt"] == 33_000
        for sock in sockets + [screen]:
            sock.close()
