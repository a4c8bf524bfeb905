"""Coin Flip, the test-only sixth game, in a party room over HTTP and the room's sockets
(docs/rooms.md; issue 53, item 8). `guesswork-examples` (GUESSWORK_EXAMPLES_BIN) plays it with
nothing written for it in the server: each flip is a round, the same coin for everyone; a right
call scores 500 to 1000 by speed, a wrong or missed call 0. The plain `guesswork` knows no such
game: it refuses it in a room and lists it nowhere.
"""
import json

import pytest

from support.examples import ExamplesServer
from support.server import Client, Server
from test_room_protocol import Socket, act, host_act, join_phones, make_room

pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning")

FLIPS = 3


def test_a_whole_coin_flip_room_scores_right_calls_by_speed_and_wrong_or_missed_ones_zero():
    with ExamplesServer() as server:
        host, code, _ = make_room(server)
        screen = Socket(server.url, host, code, role="screen")
        phones = join_phones(server, code, ["Ana", "Ben", "Cy"])
        sockets = [Socket(server.url, phone, code) for phone in phones]
        ids = [s.wait(lambda m: m.get("you"), "the player's own view")["you"]["id"] for s in sockets]
        screen.latest(lambda m: len(m["players"]) == 3, "three players on the screen")
        # The host's menu offers what the catalog says plays in rooms: Coin Flip among them.
        status, _, catalog = host.get("/api/catalog")
        entry = next(g for g in catalog["games"] if g["id"] == "coin-flip")
        assert entry["rooms"] is True and entry["page"] == "coin-flip.html"
        host_act(host, code, {"type": "choose", "game": "coin-flip", "settings": {"flips": FLIPS}})
        started = host_act(host, code, {"type": "start"})
        assert started["phase"] == "question" and started["round"]["of"] == FLIPS
        totals = dict.fromkeys(ids, 0)
        for number in range(FLIPS):
            asked = screen.latest(lambda m: m["phase"] == "question" and m["round"]["number"] == number + 1,
                                  f"flip {number + 1} on the screen")["round"]["view"]
            # Nothing of this round's coin shows before the calls: only the flips so far.
            assert asked["flip"] == number and asked["flips"] == FLIPS and not asked["isOver"]
            # Ana calls heads, Ben tails; Cy misses the first flip (its 10 s run out) and calls
            # heads after.
            calls = {ids[0]: "heads", ids[1]: "tails", ids[2]: None if number == 0 else "heads"}
            for phone, player in zip(phones, ids):
                if calls[player]:
                    act(phone, code, {"type": "play", "round": number,
                                      "action": {"type": "call", "side": calls[player]}})
            revealed = screen.latest(lambda m: m["phase"] == "reveal" and m["round"]["number"] == number + 1,
                                     f"the reveal of flip {number + 1}", timeout=20)
            side = revealed["round"]["view"]["lastSide"]
            assert side in ("heads", "tails") and revealed["round"]["view"]["flip"] == number + 1
            results = {r["id"]: r for r in revealed["reveal"]["results"]}
            assert set(results) == set(ids)
            for player in ids:
                result = results[player]
                if calls[player] is None:
                    assert result["answered"] is False and result["points"] == 0 and not result["correct"]
                elif calls[player] == side:
                    assert result["correct"] and 500 <= result["points"] <= 1000, result
                else:
                    assert not result["correct"] and result["points"] == 0, result
                totals[player] += result["points"]
            # Each phone hears its own points, and the coin its own game showed: the same coin.
            for socket, player in zip(sockets, ids):
                mine = socket.latest(lambda m: m["phase"] == "reveal" and m["round"]["number"] == number + 1,
                                     "the reveal on a phone")
                assert mine["round"]["points"] == results[player]["points"]
                assert mine["round"]["view"]["lastSide"] == side
            assert {s["id"]: s["score"] for s in revealed["standings"]} == totals
            host_act(host, code, {"type": "next"})
        podium = screen.latest(lambda m: m["phase"] == "podium", "the podium")
        assert {p["id"]: p["score"] for p in podium["podium"]} == totals
        # A right call and a wrong one each round: someone scored, someone did not.
        assert sum(totals.values()) >= 500 * FLIPS
        # The room's game counts in each player's statistics, as the five's do.
        for phone in phones:
            _, _, stats = phone.get("/api/me/stats")
            flips = next(g for g in stats["games"] if g["game"] == "coin-flip")
            assert flips["played"] == 1, flips
        screen.close()
        for socket in sockets:
            socket.close()


def test_the_plain_server_refuses_coin_flip_in_a_room_and_lists_it_nowhere():
    with Server() as server:
        host, code, _ = make_room(server)
        join_phones(server, code, ["Ana"])
        refused = host_act(host, code, {"type": "choose", "game": "coin-flip", "settings": {"flips": 3}}, expect=400)
        assert refused["error"]["code"] == "unknown-game", refused
        status, _, game = host.post("/api/games", {"game": "coin-flip"})
        assert status == 400 and game["error"]["code"] == "unknown-game", game
        status, _, catalog = host.get("/api/catalog")
        assert status == 200 and "coin-flip" not in {g["id"] for g in catalog["games"]}
        for path in ("/api/catalog", "/openapi.json", "/api/daily", "/api/me/stats"):
            status, _, body = host.get(path)
            assert status == 200, path
            text = body if isinstance(body, bytes) else json.dumps(body)
            assert "coin-flip" not in str(text) and "CoinFlip" not in str(text), path
        assert host.get("/coin-flip.html")[0] == 404


def test_the_examples_server_lists_coin_flip_where_the_five_are():
    """What the test above looks for is there when the game is: in the catalog, the API
    document and the page."""
    with ExamplesServer() as server:
        client = Client(server.url)
        client.join("Ana")
        _, _, catalog = client.get("/api/catalog")
        assert "coin-flip" in {g["id"] for g in catalog["games"]}
        _, _, document = client.get("/openapi.json")
        assert "coin-flip" in json.dumps(document)
        assert client.get("/coin-flip.html")[0] == 200
