"""A player's moves over the play socket (docs/play-socket.md) against a real server: the same
game as over POST, stored before it is answered (a restart keeps every answered move), the
same refusals and errors, in the page's language, and nothing changed by bad input.
"""
import json
import os

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from support.server import Client, Server, halving_guess

POSTGRES_URL = os.environ.get("GUESSWORK_TEST_POSTGRES_URL")
pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning")


def without_events(reply):
    """A move's reply as a read answers it: a read has no events of its own."""
    return {key: value for key, value in reply.items() if key != "events"}


def open_socket(server, client, lang=None):
    url = server.url.replace("http", "ws", 1) + "/api/play/socket" + (f"?lang={lang}" if lang else "")
    cookie = client.cookie("guesswork_player")
    headers = {"Cookie": f"guesswork_player={cookie}"} if cookie else {}
    return connect(url, additional_headers=headers, open_timeout=10)


def ask(ws, message):
    ws.send(message if isinstance(message, str) else json.dumps(message))
    return json.loads(ws.recv(timeout=10))


def play_to_the_end(ws, game, ref=1):
    """Plays a Number game by halving over `ws`; the replies, in order."""
    replies = []
    while not game["isOver"]:
        answer = ask(ws, {"ref": ref, "game": game["id"], "version": game["version"],
                          "action": halving_guess(game["view"])})
        assert answer["ref"] == ref and answer["status"] == 200, answer
        game = answer["reply"]
        replies.append(game)
        ref += 1
    return replies


@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_a_game_played_over_the_socket_is_the_game_played_over_post(tmp_path, database):
    if database == "postgres" and not POSTGRES_URL:
        assert os.environ.get("GUESSWORK_REQUIRE_POSTGRES") != "1", "scripts/test should have started PostgreSQL"
        pytest.skip("GUESSWORK_TEST_POSTGRES_URL is not set")
    server = Server(data_dir=str(tmp_path), database_url=POSTGRES_URL if database == "postgres" else None)
    with server:
        ana = Client(server.url)
        ana.join("Ana")
        game = ana.start_game("number", {"attempts": 12})
        ws = open_socket(server, ana)
        replies = play_to_the_end(ws, game)
        assert [r["version"] for r in replies] == list(range(1, len(replies) + 1))
        assert replies[-1]["isOver"] and replies[-1]["summary"]["won"] is True
        # The last answer is what GET answers: the game is stored as it was answered.
        status, _, read = ana.get(f"/api/games/{game['id']}")
        assert status == 200 and without_events(read) == without_events(replies[-1])
        # Moves by socket and by POST are one game: a POST with the version the socket left.
        # (A first guess that finds the secret, one game in a hundred, ends that game: then
        # another is started, so that the POST has a game in play to move.)
        for ref in range(50, 60):
            second = ana.start_game("number", {"attempts": 12})
            first = ask(ws, {"ref": ref, "game": second["id"], "version": 0, "action": halving_guess(second["view"])})
            assert first["status"] == 200 and first["reply"]["version"] == 1
            if not first["reply"]["isOver"]:
                break
        after = ana.act(first["reply"], halving_guess(first["reply"]["view"]))
        assert after["version"] == 2
        ws.close()
    # Every answered move was stored: a new process reads the same games.
    with Server(data_dir=str(tmp_path), database_url=server.database_url) as again:
        status, _, read = Client(again.url).get(f"/api/games/{game['id']}")
        assert status == 401  # another browser: no player
        ana.base_url = again.url
        status, _, read = ana.get(f"/api/games/{game['id']}")
        assert status == 200 and without_events(read) == without_events(replies[-1])
        status, _, read = ana.get(f"/api/games/{second['id']}")
        assert status == 200 and read["version"] == 2


def test_refusals_and_bad_messages_are_answered_and_change_nothing(tmp_path):
    with Server(data_dir=str(tmp_path)) as server:
        ana, bea = Client(server.url), Client(server.url)
        ana.join("Ana")
        bea.join("Bea")
        game = ana.start_game("number", {"attempts": 5})
        theirs = bea.start_game("number")
        ws = open_socket(server, ana, lang="ru")
        # Not JSON, no ref, not text, too large: answered, with the ref when there is one.
        answer = ask(ws, "not json")
        assert answer["ref"] is None and answer["status"] == 400
        assert answer["error"]["code"] == "bad-request"
        answer = ask(ws, {"game": game["id"], "version": 0, "action": halving_guess(game["view"])})
        assert answer["ref"] is None and answer["status"] == 400 and "ref" in answer["error"]["message"]
        answer = ask(ws, {"ref": 1, "version": 0, "action": halving_guess(game["view"])})
        assert answer["ref"] == 1 and answer["status"] == 400 and "game" in answer["error"]["message"]
        ws.send(b"\x00\x01")
        answer = json.loads(ws.recv(timeout=10))
        assert answer["status"] == 400 and answer["ref"] is None
        # The rules' refusal (422), in the page's language; a stale version (409); another
        # player's game and an unknown one (404); a bad version (400).
        answer = ask(ws, {"ref": 2, "game": game["id"], "version": 0, "action": {"type": "guess", "number": 5000}})
        assert answer["status"] == 422 and answer["error"]["code"] == "out-of-range", answer
        assert any("\u0400" <= c <= "\u04ff" for c in answer["error"]["message"]), answer
        answer = ask(ws, {"ref": 3, "game": game["id"], "version": 7, "action": halving_guess(game["view"])})
        assert answer["status"] == 409 and answer["error"]["code"] == "stale-version"
        answer = ask(ws, {"ref": 4, "game": theirs["id"], "version": 0, "action": halving_guess(theirs["view"])})
        assert answer["status"] == 404 and answer["error"]["code"] == "not-found"
        answer = ask(ws, {"ref": 5, "game": "nope", "version": 0, "action": halving_guess(game["view"])})
        assert answer["status"] == 404
        answer = ask(ws, {"ref": 6, "game": game["id"], "version": "zero", "action": halving_guess(game["view"])})
        assert answer["status"] == 400 and answer["ref"] == 6
        answer = ask(ws, {"ref": 7, "game": game["id"], "version": 0, "action": {"type": "dance"}})
        assert answer["status"] == 400 and answer["ref"] == 7
        # Nothing above changed either game.
        for client, g in ((ana, game), (bea, theirs)):
            status, _, read = client.get(f"/api/games/{g['id']}")
            assert status == 200 and read["version"] == 0 and read["view"] == g["view"]
        # Then a good move is taken, and the socket goes on.
        answer = ask(ws, {"ref": 8, "game": game["id"], "version": 0, "action": halving_guess(game["view"])})
        assert answer["status"] == 200 and answer["reply"]["version"] == 1
        # A message past 4 KB closes the socket (1009); the move before it stays.
        ws.send(json.dumps({"ref": 9, "game": game["id"], "pad": "x" * 5000}))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == 1009
        status, _, read = ana.get(f"/api/games/{game['id']}")
        assert read["version"] == 1
        # A plain GET of the path, and a socket without a player.
        status, _, reply = ana.get("/api/play/socket")
        assert status == 400 and reply["error"]["code"] == "websocket-expected"
        stranger = open_socket(server, Client(server.url))
        answer = json.loads(stranger.recv(timeout=10))
        assert answer["status"] == 401 and answer["error"]["code"] == "no-player"
        with pytest.raises(ConnectionClosed) as closed:
            stranger.recv(timeout=10)
        assert closed.value.rcvd.code == 1008


def test_the_socket_and_a_post_racing_on_one_game_store_one_move(tmp_path):
    """Two moves sent for the same version, one by socket and one by POST: one is taken, the
    other is told the version is stale."""
    with Server(data_dir=str(tmp_path)) as server:
        ana = Client(server.url)
        ana.join("Ana")
        game = ana.start_game("number", {"attempts": 20})
        ws = open_socket(server, ana)
        for _ in range(5):
            ws.send(json.dumps({"ref": game["version"], "game": game["id"], "version": game["version"],
                                "action": halving_guess(game["view"])}))
            status, _, posted = ana.post(f"/api/games/{game['id']}/actions",
                                         {"action": halving_guess(game["view"]), "version": game["version"]})
            answer = json.loads(ws.recv(timeout=10))
            statuses = sorted([status, answer["status"]])
            assert statuses == [200, 409], (status, answer)
            game = posted if status == 200 else answer["reply"]
            if game["isOver"]:
                break
        status, _, read = ana.get(f"/api/games/{game['id']}")
        assert read["version"] == game["version"] and read["view"] == game["view"]


def test_moves_over_the_socket_meet_the_same_rate_limit_with_retry_after(tmp_path):
    """The standard limits: a flood of moves over the socket gets a 429 with `retryAfter`, as
    POSTed moves get `Retry-After`; the refused move changes nothing."""
    with Server(data_dir=str(tmp_path), env={"GUESSWORK_RATE_LIMITS": ""}) as server:
        ana = Client(server.url)
        ana.join("Ana")
        game = ana.start_game("number", {"low": 0, "high": 9999, "attempts": 20})
        ws = open_socket(server, ana)
        statuses = []
        for ref in range(150):
            answer = ask(ws, {"ref": ref, "game": game["id"], "version": game["version"],
                              "action": {"type": "digit", "digit": 1}})
            statuses.append(answer["status"])
            if answer["status"] == 200:
                game = answer["reply"]
            else:
                break
        assert statuses[-1] == 429 and len(statuses) > 50, statuses
        assert answer["ref"] == ref and answer["error"]["code"] == "too-many-requests", answer
        assert answer["retryAfter"] >= 1, answer
        status, _, read = ana.get(f"/api/games/{game['id']}")
        assert status == 200 and read["version"] == game["version"]
