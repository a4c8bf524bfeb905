"""The API as a client meets it: the OpenAPI document is valid, the server answers every route in
it with bodies that match it, every game can be played to its end, bad input never gets a 5xx or
changes anything, one player can never reach another's games or avatar, and views keep secrets.

Every request goes through `Api`, which checks on every answer: no 5xx, the security headers, a
documented status for the route, and the body against the documented schema for that status.
The last test fails when a route or status in the document was never exercised.
"""
import copy
import json
import os
import random
import re
import socket
import sys
import threading
import time
from collections import Counter

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate as validate_spec
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from server import ROOT, Client, Server  # noqa: E402
from catalog import said  # noqa: E402

DOC_PATH = os.path.join(ROOT, "docs", "openapi.json")
with open(DOC_PATH, encoding="utf-8") as f:
    DOC = json.load(f)

DOC_URI = "urn:guesswork:openapi"
REGISTRY = Registry().with_resource(DOC_URI, Resource.from_contents(DOC, default_specification=DRAFT202012))
METHODS = ("get", "put", "post", "patch", "delete")
# The 404 the router gives when no route matches: a documented route must never answer it.
NO_ROUTE_MESSAGE = "There is nothing here."

# Documented statuses no client request can cause against a healthy server.
UNREACHABLE = {
    ("get", "/healthz", "503"): "needs the database to be down",
    ("post", "/api/games", "404"): "a Picture Quiz with no deck when no deck is playable",
    ("get", "/api/pictures/{id}", "200"): "needs a deck of photos imported with `guesswork decks import`",
    ("get", "/api/pictures/{id}", "304"): "needs a deck of photos imported with `guesswork decks import`",
    ("post", "/api/players", "429"): "the rate limits are off here; e2e/server/test_limits.py meets them",
    ("post", "/api/games", "429"): "the rate limits are off here; e2e/server/test_limits.py meets them",
    ("post", "/api/games/{id}/actions", "429"): "the rate limits are off here; e2e/server/test_limits.py meets them",
    ("post", "/api/daily/{game}", "429"): "the rate limits are off here; e2e/server/test_limits.py meets them",
    ("post", "/api/rooms", "429"): "the rate limits are off here; e2e/server/test_limits.py meets them",
    ("get", "/api/rooms/{code}", "429"): "the rate limits are off here; e2e/server/test_room_protocol.py meets them",
    ("post", "/api/rooms/{code}/join", "429"): "the rate limits are off here; e2e/server/test_room_protocol.py meets them",
    ("post", "/api/rooms/{code}/actions", "429"): "the rate limits are off here; e2e/server/test_limits.py meets them",
}

# (method, path template, status) seen so far; the last test checks the document is covered.
EXERCISED = set()


def pointer_escape(part):
    return part.replace("~", "~0").replace("/", "~1")


def lookup(pointer):
    node = DOC
    for part in pointer.lstrip("#/").split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def schema_validator(pointer):
    return Draft202012Validator({"$ref": f"{DOC_URI}#{pointer}"}, registry=REGISTRY)


def component(name):
    return schema_validator(f"/components/schemas/{name}")


def template_of(path):
    """The documented path template that `path` matches, or None; the most specific one
    (most literal characters) wins, so /api/reminders/x.ics is {id}.ics, not {id}."""
    path = path.split("?", 1)[0]
    if path in DOC["paths"]:
        return path
    matches = []
    for template in DOC["paths"]:
        pattern = "^" + re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path):
            matches.append(template)
    return max(matches, key=lambda t: len(re.sub(r"\{[^}]+\}", "", t)), default=None)


def check_security_headers(status, headers, where):
    h = {k.lower(): v for k, v in headers.items()}
    assert h.get("x-content-type-options") == "nosniff", (where, status, headers)
    csp = h.get("content-security-policy", "")
    directives = {d.strip().split(" ")[0]: d.strip() for d in csp.split(";") if d.strip()}
    assert directives.get("default-src") == "default-src 'self'", (where, csp)
    script = directives.get("script-src", "")
    assert "'unsafe-inline'" not in script and "'unsafe-inline'" not in directives["default-src"], csp
    assert h.get("referrer-policy"), (where, headers)


class Api(Client):
    """A player's client that checks every answer against the document."""

    def request(self, method, path, body=None, raw=None, headers=None):
        status, resp_headers, payload = super().request(method, path, body=body, raw=raw, headers=headers)
        where = f"{method} {path}"
        assert status < 500, f"{where} answered {status}: {payload!r}"
        check_security_headers(status, resp_headers, where)
        template = template_of(path)
        operation = DOC["paths"].get(template, {}).get(method.lower()) if template else None
        if operation is None:
            return status, resp_headers, payload
        assert status != 405, f"{where}: a documented route answered 405"
        if status == 404 and isinstance(payload, dict):
            assert payload.get("error", {}).get("message") != NO_ROUTE_MESSAGE, (
                f"{where}: a documented route is unknown to the router")
        assert str(status) in operation["responses"], f"{where} answered undocumented {status}: {payload!r}"
        EXERCISED.add((method.lower(), template, str(status)))
        pointer = f"/paths/{pointer_escape(template)}/{method.lower()}/responses/{status}"
        response = operation["responses"][str(status)]
        if "$ref" in response:
            pointer = response["$ref"][1:]
            response = lookup(response["$ref"])
        content_type = (resp_headers.get("Content-Type") or "").split(";")[0].strip()
        if status == 204 or "content" not in response:
            assert "content" not in response and not payload, (where, payload)
            return status, resp_headers, payload
        assert content_type in response.get("content", {}), (
            f"{where} {status}: Content-Type {content_type!r} is not documented")
        if content_type == "application/json":
            schema_pointer = f"{pointer}/content/{pointer_escape(content_type)}/schema"
            errors = sorted(schema_validator(schema_pointer).iter_errors(payload), key=lambda e: e.path)
            assert not errors, f"{where} {status}: body does not match the document: " + "; ".join(
                f"{list(e.absolute_path)}: {e.message[:300]}" for e in errors[:5]) + f"\nbody: {json.dumps(payload)[:2000]}"
        return status, resp_headers, payload

    # Typed helpers: what a player does (checked against the document both ways).
    def join(self, name="Ana"):
        assert not list(component("NewPlayer").iter_errors({"name": name}))
        return super().join(name)

    def start_game(self, game, settings=None, **options):
        body = {"game": game, **options}
        if settings is not None:
            body["settings"] = settings
        errors = list(component("NewGame").iter_errors(body))
        assert not errors, (body, errors[0].message)
        return super().start_game(game, settings, **options)

    def act(self, game, action, expect=200):
        body = {"action": action, "version": game["version"]}
        errors = list(component("ActionRequest").iter_errors(body))
        assert not errors, (body, errors[0].message)
        reply = super().act(game, action, expect)
        if expect == 200:
            assert reply["version"] == game["version"] + 1, reply
            assert reply["id"] == game["id"] and reply["game"] == game["game"]
            assert reply["isOver"] == reply["view"]["isOver"]
        return reply

    def game(self, game_id):
        status, _, reply = self.get(f"/api/games/{game_id}")
        assert status == 200, (status, reply)
        return reply

    def stats(self):
        status, _, stats = self.get("/api/me/stats")
        assert status == 200, (status, stats)
        return {entry["game"]: entry for entry in stats["games"]}


@pytest.fixture(scope="module")
def server():
    with Server() as s:
        yield s


@pytest.fixture
def ana(server):
    client = Api(server.url)
    client.join("Ana")
    return client


def wait_until(client, game, phase, timeout=8):
    deadline = time.time() + timeout
    while True:
        reply = client.game(game["id"])
        if reply["view"]["phase"] == phase:
            return reply
        assert time.time() < deadline, f"{game['game']} never reached {phase}: {reply['view']}"
        time.sleep(0.1)


# ---------------------------------------------------------------------------------------------
# The document


def test_document_is_valid_openapi_31_and_served_as_checked_in(server):
    validate_spec(DOC)
    assert DOC["openapi"].startswith("3.1")
    assert DOC["components"]["securitySchemes"]["playerCookie"] == {
        **DOC["components"]["securitySchemes"]["playerCookie"], "type": "apiKey", "in": "cookie",
        "name": "guesswork_player"}
    for name in DOC["components"]["schemas"]:
        Draft202012Validator.check_schema(DOC["components"]["schemas"][name])
    status, _, served = Api(server.url).get("/openapi.json")
    assert status == 200
    assert served == DOC, "GET /openapi.json differs from docs/openapi.json (run `swift run guesswork openapi > docs/openapi.json`)"


def test_every_documented_route_answers_without_a_player(server):
    anonymous = Api(server.url)
    for path, item in DOC["paths"].items():
        concrete = path.replace("{id}", "00000000-0000-0000-0000-000000000000")
        for method, operation in item.items():
            if method not in METHODS:
                continue
            body = {} if "requestBody" in operation else None
            status, _, payload = anonymous.request(method.upper(), concrete, body=body)
            if operation.get("security") == []:
                assert status in (200, 204, 400, 404), (method, path, status, payload)
            else:
                assert status == 401, (method, path, status, payload)
                assert payload["error"]["code"] == "no-player"
    # A cookie the server never issued is no player either.
    stranger = Api(server.url)
    assert stranger.request("GET", "/api/me", headers={"Cookie": "guesswork_player=" + "x" * 43})[0] == 401


def test_service_routes(server):
    client = Api(server.url)
    assert client.get("/healthz")[2] == {"status": "ok"}
    status, headers, pong = client.get("/ping")
    assert status == 200 and pong in (b"pong", "pong"), (status, pong)
    status, _, catalog = client.get("/api/catalog")
    assert status == 200
    assert [g["id"] for g in catalog["games"]] == [
        "number", "color-match", "bullseye", "guess-or-pass", "picture-quiz"]
    assert catalog["categories"] and any(d["playable"] for d in catalog["decks"])
    assert client.get("/api/session")[2] == {"player": None}
    status, _, decks = client.get("/api/decks")
    assert status == 200 and decks == catalog["decks"]
    status, _, detail = client.get(f"/api/decks/{decks[0]['id']}")
    assert status == 200 and detail["deck"] == decks[0] and len(detail["names"]) == decks[0]["items"]
    assert client.get("/api/decks/no-such-deck")[0] == 404
    assert client.get("/api/pictures/" + "0" * 64)[0] == 404
    assert client.get("/api/pictures/not-a-hash")[0] == 404
    me = client.join("Sid")
    assert client.get("/api/session")[2] == {"player": me}
    # An unknown route is a JSON 404 with the headers, too.
    status, headers, payload = client.get("/api/nothing-here")
    assert status == 404 and payload["error"]["code"] == "not-found"


def test_players_profile_and_avatar(server):
    client = Api(server.url)
    status, headers, me = client.post("/api/players", {"name": "  Ana  "})
    assert status == 201 and me["name"] == "Ana" and "avatarURL" not in me
    cookie = headers.get("Set-Cookie", "")
    assert cookie.startswith("guesswork_player=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert client.get("/api/me")[2] == me

    for bad in ({"name": ""}, {"name": "   "}, {"name": "x" * 25}, {"name": "a\u0007b"}, {"name": 7}, {}, []):
        status, _, payload = client.post("/api/players", bad)
        assert status == 400, (bad, status, payload)
    status, _, payload = client.request("PATCH", "/api/me", {"name": "Bo", "preferences": {"inputMode": "swipes"}})
    assert status == 200 and payload["name"] == "Bo"
    assert payload["preferences"] == {"inputMode": "swipes", "sound": True, "theme": "system", "language": "auto"}
    # A change names only what changes: the other preferences keep their values.
    status, _, payload = client.request("PATCH", "/api/me", {"preferences": {"sound": False, "theme": "dark"}})
    assert status == 200 and payload["preferences"] == {"inputMode": "swipes", "sound": False, "theme": "dark", "language": "auto"}
    for bad in ({"name": ""}, {"preferences": {"inputMode": "telepathy"}},
                {"preferences": {"theme": "neon"}}, {"preferences": {"sound": "loud"}}, {"name": ["Bo"]}):
        assert client.request("PATCH", "/api/me", bad)[0] == 400, bad
    assert client.request("PATCH", "/api/me", raw=b"{not json")[0] == 400
    assert client.request("PATCH", "/api/me", raw=b" " * (2 * 1024 * 1024))[0] == 413
    assert client.get("/api/me")[2]["name"] == "Bo", "a refused change must change nothing"

    avatar_path = f"/api/players/{me['id']}/avatar"
    assert client.get(avatar_path)[0] == 404  # none yet
    status, _, payload = client.request("PUT", "/api/me/avatar", raw=b"<svg xmlns='http://www.w3.org/2000/svg'/>",
                                        headers={"Content-Type": "image/png"})
    assert status == 415 and payload["error"]["code"] == "unsupported-media-type"
    status, _, payload = client.request("PUT", "/api/me/avatar", raw=b"\x89PNG\r\n\x1a\n" + b"\0" * (300 * 1024),
                                        headers={"Content-Type": "image/png"})
    assert status == 413 and payload["error"]["code"] == "too-large"
    assert "avatarURL" not in client.get("/api/me")[2]
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    status, _, payload = client.request("PUT", "/api/me/avatar", raw=png, headers={"Content-Type": "image/png"})
    assert status == 200 and payload["avatarURL"] == avatar_path
    status, headers, picture = client.get(avatar_path)
    assert status == 200 and picture == png and headers["Content-Type"] == "image/png"
    gif = b"GIF89a" + b"\1" * 64
    assert client.request("PUT", "/api/me/avatar", raw=gif, headers={"Content-Type": "application/octet-stream"})[0] == 200
    status, headers, picture = client.get(avatar_path)
    assert picture == gif and headers["Content-Type"] == "image/gif"


def test_sign_in_links_sign_out_and_new_keys(server):
    """A sign-in link carries a one-use code, never a token: it says who it signs in as (without
    using itself), signs a browser in once, and the browser's earlier player is signed out
    there. A device can sign out, or take a new key that leaves copies of its old one useless."""
    tess = Api(server.url)
    me = tess.join("Tess")
    assert tess.request("POST", "/api/me/link-codes", raw=b"a=b", headers={"Content-Type": "text/plain"})[0] == 415
    assert Api(server.url).post("/api/me/link-codes", {})[0] == 401
    assert tess.post("/api/me/link-codes", raw=b" " * (2 * 1024 * 1024))[0] == 413
    status, _, link = tess.post("/api/me/link-codes", {})
    assert status == 201 and link["path"] == f"/link.html#{link['code']}" and len(link["code"]) == 22
    code = link["code"]
    # Bea's browser opens it: it names Tess and Bea, and uses nothing yet.
    bea = Api(server.url)
    bea_me = bea.join("Bea")
    for _ in range(2):
        status, _, info = bea.get(f"/api/link-codes/{code}")
        assert status == 200 and info == {"player": me, "current": bea_me}
    for bad in ("x", "A" * 22, code[:-1] + ("A" if code[-1] != "A" else "B"), "!" * 22):
        assert bea.get(f"/api/link-codes/{bad}")[0] == 404, bad
        assert bea.post(f"/api/link-codes/{bad}", {})[0] == 404, bad
    bea_token = bea.cookie("guesswork_player")
    assert bea.post(f"/api/link-codes/{code}", raw=b" " * (2 * 1024 * 1024))[0] == 413
    # A cross-site form cannot use it.
    assert bea.request("POST", f"/api/link-codes/{code}", raw=b"x", headers={"Content-Type": "text/plain"})[0] == 415
    status, headers, signed = bea.post(f"/api/link-codes/{code}", {})
    assert status == 200 and signed == me
    assert "HttpOnly" in headers["Set-Cookie"] and "SameSite=Lax" in headers["Set-Cookie"]
    assert bea.get("/api/me")[2] == me and bea.cookie("guesswork_player") != bea_token
    # Once only; and Bea's old key signs nothing in now.
    assert bea.post(f"/api/link-codes/{code}", {})[0] == 404
    assert bea.get(f"/api/link-codes/{code}")[0] == 404
    old_bea = Api(server.url)
    old_bea.cookies.set_cookie(cookie_like(bea, bea_token))
    assert old_bea.get("/api/me")[0] == 401
    # Tess's first browser is still Tess: each device has its own key.
    assert tess.get("/api/me")[2] == me
    # A new key: the copy of the old one is useless, the browser goes on.
    copy = tess.cookie("guesswork_player")
    status, headers, again = tess.post("/api/me/token")
    assert status == 200 and again == me and tess.cookie("guesswork_player") != copy
    stolen = Api(server.url)
    stolen.cookies.set_cookie(cookie_like(tess, copy))
    assert stolen.get("/api/me")[0] == 401 and stolen.post("/api/me/token")[0] == 401
    assert tess.get("/api/me")[2] == me
    # Signing out: the cookie goes and its key signs nothing in, even if kept.
    kept = bea.cookie("guesswork_player")
    status, headers, _ = bea.post("/api/me/sign-out")
    assert status == 204 and "Max-Age=0" in headers["Set-Cookie"]
    assert bea.get("/api/session")[2] == {"player": None}
    revived = Api(server.url)
    revived.cookies.set_cookie(cookie_like(tess, kept))
    assert revived.get("/api/me")[0] == 401
    assert Api(server.url).post("/api/me/sign-out")[0] == 204  # nobody to sign out: fine


def cookie_like(client, value):
    """A copy of `client`'s player cookie holding `value` (a kept or stolen key)."""
    original = next(c for c in client.cookies if c.name == "guesswork_player")
    twin = copy.copy(original)
    twin.value = value
    return twin


def test_name_may_hold_an_emoji_written_with_a_zero_width_joiner(server):
    """U+200D joins emoji ("👩‍💻"); it is a format character, not a control character."""
    status, _, payload = Api(server.url).post("/api/players", {"name": "Ana 👩\u200d💻"})
    assert status == 201, (status, payload)


def test_game_routes_and_their_errors(server, ana):
    status, _, payload = ana.post("/api/games", {"game": "chess"})
    assert status == 400 and payload["error"]["code"] == "unknown-game"
    status, _, payload = ana.post("/api/games", {"game": "number", "settings": {"attempts": 0}})
    assert status == 400 and payload["error"]["code"] == "invalid-setting" and "attempts" in payload["error"]["message"]
    assert ana.post("/api/games", {"game": "guess-or-pass"})[2]["error"]["code"] == "no-category"
    assert ana.post("/api/games", {"game": "guess-or-pass", "category": "nope"})[2]["error"]["code"] == "unknown-category"
    assert ana.post("/api/games", {"game": "picture-quiz", "deck": "nope"})[2]["error"]["code"] == "unknown-deck"
    unplayable = [d["id"] for d in ana.get("/api/catalog")[2]["decks"] if not d["playable"]]
    if unplayable:
        status, _, payload = ana.post("/api/games", {"game": "picture-quiz", "deck": unplayable[0]})
        assert status == 400 and payload["error"]["code"] == "deck-needs-photos", payload

    number = ana.start_game("number", {"attempts": 3})
    assert number["version"] == 0 and ana.game(number["id"]) == number
    assert ana.get("/api/games/00000000-0000-0000-0000-000000000000")[0] == 404
    assert ana.get(f"/api/games/{number['id']}/target.svg")[0] == 404  # not a Bullseye game
    bullseye = ana.start_game("bullseye", {"rounds": 1})
    status, headers, svg = ana.get(f"/api/games/{bullseye['id']}/target.svg")
    assert status == 200 and headers["Content-Type"].startswith("image/svg+xml") and svg.startswith(b"<svg")

    moved = ana.act(number, {"type": "digit", "digit": 5})
    status, _, payload = ana.post(f"/api/games/{number['id']}/actions", {"action": {"type": "clear"}, "version": 0})
    assert status == 409 and payload["error"]["code"] == "stale-version"
    status, _, payload = ana.post(f"/api/games/{number['id']}/actions", {"action": {"type": "digit", "digit": 12}, "version": 1})
    assert status == 422 and payload["error"]["code"] == "out-of-range"
    status, _, payload = ana.post(f"/api/games/{number['id']}/actions", {"action": {"type": "dance"}, "version": 1})
    assert status == 400
    assert ana.post("/api/games/00000000-0000-0000-0000-000000000000/actions", {"action": {"type": "clear"}, "version": 0})[0] == 404
    assert ana.game(number["id"]) == {k: v for k, v in moved.items() if k != "events"}

    over = ana.act(bullseye, {"type": "check", "guess": {"r": 1, "g": 2, "b": 3}})
    assert over["isOver"]
    status, _, payload = ana.post(f"/api/games/{bullseye['id']}/actions", {"action": {"type": "next"}, "version": 1})
    assert status == 409 and payload["error"]["code"] == "game-over"


# ---------------------------------------------------------------------------------------------
# Playing every game to its end


def test_play_number_to_a_win_by_halving(server):
    player = Api(server.url)
    player.join("Nia")
    game = player.start_game("number", {"low": 0, "high": 99, "attempts": 7})
    low, high = 0, 99
    while not game["isOver"]:
        guess = (low + high) // 2
        for digit in str(guess):  # type it on the pad, like the page does
            game = player.act(game, {"type": "digit", "digit": int(digit)})
        game = player.act(game, {"type": "enter"})
        guessed = next(e for e in game["events"] if e["type"] == "guessed")
        low, high = guessed["knownLow"], guessed["knownHigh"]
    assert game["view"]["phase"] == "won" and game["score"] >= 1
    won = next(e for e in game["events"] if e["type"] == "won")
    assert won["secret"] == game["view"]["secret"]
    assert player.stats()["number"]["figures"]["wins"] == 1


def test_play_bullseye_normal_and_free_play(server):
    player = Api(server.url)
    player.join("Bea")
    game = player.start_game("bullseye", {"rounds": 3, "scoring": "classic"})
    while not game["isOver"]:
        game = player.act(game, {"type": "check", "guess": {"r": 200, "g": 100, "b": 50}})
        if not game["isOver"]:
            game = player.act(game, {"type": "next"})
    assert len(game["view"]["history"]) == 3 and game["view"]["phase"] == "over"
    free = player.start_game("bullseye", {"freePlay": True})
    free = player.act(free, {"type": "check", "guess": {"r": 10, "g": 20, "b": 30}})
    free = player.act(free, {"type": "newColour"})
    free = player.act(free, {"type": "check", "guess": {"r": 0, "g": 0, "b": 0}})
    free = player.act(free, {"type": "finish"})
    assert free["isOver"]
    assert player.stats()["bullseye"]["played"] == 2


def test_play_picture_quiz_to_the_end(server):
    player = Api(server.url)
    player.join("Pip")
    deck = next(d for d in player.get("/api/catalog")[2]["decks"] if d["playable"])
    game = player.start_game("picture-quiz", {"choices": 4, "questions": 5}, deck=deck["id"])
    while not game["isOver"]:
        game = player.act(game, {"type": "choose", "choice": 0})
        if not game["isOver"]:
            game = player.act(game, {"type": "next"})
    assert game["view"]["phase"] == "over" and game["view"]["questionNumber"] == 5
    assert player.stats()["picture-quiz"]["figures"]["bestByVariant"] == {deck["id"]: game["score"]}


def test_play_the_timed_games_color_match_and_guess_or_pass(server):
    player = Api(server.url)
    player.join("Tim")
    category = player.get("/api/catalog")[2]["categories"][0]["id"]
    colours = player.start_game("color-match", {"duration": 30, "feedbackMs": 0})
    words = player.start_game("guess-or-pass", {"duration": 30}, category=category)
    # Both count down first (3 s and 5 s); acting now is refused and changes nothing.
    too_early = player.act(colours, {"type": "answer", "match": True}, expect=422)
    assert too_early["error"]["code"] == "not-ready"
    assert player.act(words, {"type": "guessed"}, expect=422)["error"]["code"] == "not-ready"
    assert player.game(colours["id"])["version"] == 0 and player.game(words["id"])["version"] == 0

    colours = wait_until(player, colours, "trial")
    for _ in range(6):
        view = colours["view"]
        # Stroop: Yes when the top word's meaning is the bottom word's ink.
        colour_of_ink = {v: k for k, v in COLOUR_INKS.items()}
        match = said(view["top"]["word"]).lower() == colour_of_ink.get(view["bottom"]["ink"].lower(), "?")
        colours = player.act(colours, {"type": "answer", "match": match, "reactionMs": 480.6})
    colours = player.act(colours, {"type": "quit"})
    assert colours["isOver"] and colours["view"]["endReason"] == "quit"
    assert colours["view"]["report"]["trials"] == 6

    words = wait_until(player, words, "playing")
    seen = []
    for i in range(5):
        seen.append(words["view"]["word"])
        words = player.act(words, {"type": "guessed" if i % 2 == 0 else "pass"})
    seen.append(words["view"]["word"])
    words = player.act(words, {"type": "end"})
    view = words["view"]
    assert words["isOver"] and view["endReason"] == "ended" and words["score"] == 3
    assert view["guessed"] == seen[0:5:2] and view["passed"] == seen[1:5:2] and view["missed"] == seen[5]
    stats = player.stats()
    assert stats["color-match"]["played"] == 1 and stats["guess-or-pass"]["figures"]["bestByVariant"] == {category: 3}


COLOUR_INKS = {"red": "#b32f3c", "orange": "#f8941d", "yellow": "#e7d936", "green": "#39b54a",
               "blue": "#0072bc", "purple": "#92278f"}


# ---------------------------------------------------------------------------------------------
# Bad input: always a 4xx, never a change


def test_bad_input_gets_a_4xx_and_changes_nothing(server, ana):
    game = ana.start_game("number", {"attempts": 5})
    game = ana.act(game, {"type": "digit", "digit": 4})
    before = ana.game(game["id"])
    url = f"/api/games/{game['id']}/actions"
    huge = b" " * (2 * 1024 * 1024)
    bad_actions = [
        (b'{"action":', 400), (b"", 400), (b"null", 400), (b"[]", 400), (b'"enter"', 400),
        (b'{"version":1}', 400), (b'{"action":{"type":"enter"}}', 400),
        (b'{"action":{"type":"guess","number":"50"},"version":1}', 400),
        (b'{"action":"guess","version":1}', 400),
        (b'{"action":{"type":"guess"},"version":1}', 400),
        (b'{"action":{"type":"guess","number":1e400},"version":1}', 400),
        (b'{"action":{"type":"guess","number":99999999999999999999},"version":1}', 400),
        (b'{"action":{"type":"guess","number":-99999999999999999999},"version":1}', 400),
        (b'{"action":{"type":"guess","number":9223372036854775807},"version":1}', 422),
        (b'{"action":{"type":"guess","number":-9223372036854775808},"version":1}', 422),
        (b'{"action":{"type":"digit","digit":-1},"version":1}', 422),
        (b'{"action":{"type":"guess","number":50},"version":99999999999999999999}', 400),
        (b'{"action":{"type":"guess","number":50},"version":1e400}', 400),
        (b'{"action":{"type":"guess","number":50},"version":-1}', 409),
        (b'{"action":{"type":"guess","number":50},"version":9223372036854775807}', 409),
        (b'{"action":{"type":"guess","number":50},"version":"1"}', 400),
        (b'{"action":{"type":"guess","number":50},"version":1.5}', 400),
        (b'{"action":{"type":"self-destruct"},"version":1}', 400),
        (b'{"action":{"type":null},"version":1}', 400),
        (b'{"action":{},"version":1}', 400),
        (b'{"action":{"type":"guess","number":50},"version":1' + b"\xff\xfe}", 400),
        (b"[" * 200_000 + b"]" * 200_000, 400),
        (b'{"action":' + b'{"a":' * 100_000 + b"1" + b"}" * 100_001, 400),
        (huge, 413),
    ]
    for raw, expected in bad_actions:
        status, _, payload = ana.post(url, raw=raw)
        assert status == expected, (raw[:80], status, payload)
        assert set(payload["error"]) == {"code", "message"}
    after = ana.game(game["id"])
    assert after == before, "a refused or bad request changed the game"

    bad_games = [
        (b'{"game":', 400), (b"", 400), (b"{}", 400), (b'{"game":1}', 400), (b'{"game":"Number"}', 400),
        (b'{"game":"number","settings":{"attempts":1e400}}', 400),
        (b'{"game":"number","settings":{"attempts":99999999999999999999}}', 400),
        (b'{"game":"number","settings":{"low":-9223372036854775808,"high":9223372036854775807}}', 400),
        (b'{"game":"number","settings":{"low":9223372036854775807}}', 400),
        (b'{"game":"number","settings":{"high":9223372036854775807}}', 400),
        (b'{"game":"number","settings":"hard"}', 400),
        (b'{"game":"color-match","settings":{"matchRate":1e400}}', 400),
        (b'{"game":"color-match","settings":{"matchRate":-0.1}}', 400),
        (b'{"game":"color-match","settings":{"duration":9223372036854775807}}', 400),
        (b'{"game":"bullseye","settings":{"rounds":99999999999999999999}}', 400),
        (b'{"game":"bullseye","settings":{"scoring":"vibes"}}', 400),
        (b'{"game":"guess-or-pass","category":"animals","settings":{"duration":-9223372036854775808}}', 400),
        (b'{"game":"picture-quiz","settings":{"choices":1e400}}', 400),
        (b'{"game":"picture-quiz","settings":{"choices":9223372036854775807}}', 400),
        (huge, 413),
    ]
    for raw, expected in bad_games:
        status, _, payload = ana.post("/api/games", raw=raw)
        assert status == expected, (raw[:80], status, payload)
    assert ana.post("/api/players", raw=huge)[0] == 413
    assert ana.post("/api/players", raw=b'{"name":' + b"[" * 100_000)[0] == 400

    # Bullseye colours out of range, of the wrong type or huge are refused, and change nothing.
    bull = ana.start_game("bullseye", {"rounds": 2})
    burl = f"/api/games/{bull['id']}/actions"
    for guess, expected in [({"r": 256, "g": 0, "b": 0}, 422), ({"r": -1, "g": 0, "b": 0}, 422),
                            ({"r": 9223372036854775807, "g": 0, "b": 0}, 422), ({"r": "1", "g": 0, "b": 0}, 400),
                            ({"r": 1, "g": 0}, 400), (None, 400), ([1, 2, 3], 400)]:
        status, _, payload = ana.post(burl, {"action": {"type": "check", "guess": guess}, "version": 0})
        assert status == expected, (guess, status, payload)
    assert ana.post(burl, {"action": {"type": "next"}, "version": 0})[0] == 422
    assert ana.game(bull["id"])["version"] == 0

    # Color Match: a reaction time that is not a measurement is refused.
    cm = ana.start_game("color-match")
    curl = f"/api/games/{cm['id']}/actions"
    for reaction in ("1e400", "-5", "86400001", '"fast"'):
        raw = ('{"action":{"type":"answer","match":true,"reactionMs":%s},"version":0}' % reaction).encode()
        status, _, payload = ana.post(curl, raw=raw)
        assert status == 400, (reaction, status, payload)
    assert ana.game(cm["id"])["version"] == 0


def test_a_second_player_cannot_see_or_touch_the_first_players_things(server):
    ana, bob = Api(server.url), Api(server.url)
    ana_me, bob_me = ana.join("Ana"), bob.join("Bob")
    assert ana_me["id"] != bob_me["id"]
    png = b"\x89PNG\r\n\x1a\n" + b"\1" * 32
    assert ana.request("PUT", "/api/me/avatar", raw=png, headers={"Content-Type": "image/png"})[0] == 200
    bull = ana.start_game("bullseye", {"rounds": 2})
    number = ana.start_game("number")
    number = ana.act(number, {"type": "digit", "digit": 3})

    for path in (f"/api/games/{bull['id']}", f"/api/games/{number['id']}", f"/api/games/{bull['id']}/target.svg",
                 f"/api/players/{ana_me['id']}/avatar"):
        status, _, payload = bob.get(path)
        assert status == 404 and payload["error"]["code"] == "not-found", (path, status, payload)
    for game, action in ((number, {"type": "guess", "number": 50}), (bull, {"type": "check", "guess": {"r": 0, "g": 0, "b": 0}})):
        status, _, payload = bob.post(f"/api/games/{game['id']}/actions", {"action": action, "version": game["version"]})
        assert status == 404, (status, payload)
    # Bob's own writes never reach Ana.
    assert bob.request("PATCH", "/api/me", {"name": "Mallory"})[0] == 200
    assert ana.get("/api/me")[2]["name"] == "Ana"
    assert ana.game(number["id"])["version"] == 1 and ana.game(bull["id"])["version"] == 0
    assert ana.get(f"/api/players/{ana_me['id']}/avatar")[2] == png
    assert bob.get(f"/api/players/{bob_me['id']}/avatar")[0] == 404
    assert bob.stats()["number"]["played"] == 0


def raw_exchange(server, request_bytes, half_close=True):
    """Sends bytes as they are and reads the whole answer: for what urllib cannot send."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(request_bytes)
        if half_close:
            s.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return status, headers, body


def test_a_body_shorter_than_its_content_length_is_a_4xx(server):
    """A client that announces 100 bytes, sends 8 and stops writing is a bad request, not a
    server error (the server answered 500 "internal" and logged "stream ended at an unexpected
    time")."""
    status, headers, body = raw_exchange(server, (
        b"POST /api/players HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\nConnection: close\r\n\r\n{\"name\":"))
    assert 400 <= status < 500, (status, body)
    check_security_headers(status, headers, "truncated POST /api/players")


def test_a_double_tap_applies_an_action_once(server, ana):
    game = ana.start_game("number", {"attempts": 5})
    results = []

    def tap():
        results.append(Api.post(ana, f"/api/games/{game['id']}/actions",
                                {"action": {"type": "digit", "digit": 7}, "version": 0})[0])

    threads = [threading.Thread(target=tap) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [200] + [409] * 7, results
    after = ana.game(game["id"])
    assert after["version"] == 1 and after["view"]["display"] == "7"


# ---------------------------------------------------------------------------------------------
# Views never hold secrets


def numbers_in(text):
    return {int(n) for n in re.findall(r"\d+", text)}


def test_number_views_never_hold_the_secret_over_many_games(server):
    player = Api(server.url)
    player.join("Sam")
    rng = random.Random(7)
    for _ in range(200):
        game = player.start_game("number", {"low": 0, "high": 99, "attempts": 3})
        before_end = [game["view"], player.game(game["id"])["view"]]
        pre_events = []
        while not game["isOver"]:
            view = game["view"]
            guess = rng.choice([view["knownLow"], view["knownHigh"]])  # play badly: usually lose
            game = player.act(game, {"type": "guess", "number": guess})
            if not game["isOver"]:
                before_end.append(game["view"])
                pre_events += game["events"]
        end = game["events"]
        secret = next(e["secret"] for e in end if e["type"] in ("won", "lost"))
        assert game["view"]["secret"] == secret
        for view in before_end:
            assert "secret" not in view, view
            known = {view["low"], view["high"], view["knownLow"], view["knownHigh"], view["attemptsAllowed"],
                     view["attemptsLeft"]} | {g["number"] for g in view["guesses"]}
            texts = [said(view["message"]), said(view["knownRangeText"]), said(view.get("hint")) or "",
                     said(view["attemptsLeftText"])]
            texts += [said(g["text"]) for g in view["guesses"]]
            for text in texts:
                assert secret not in numbers_in(text) - known, (secret, text)
        for event in pre_events:
            assert event["type"] not in ("won", "lost") and "secret" not in event, event


def test_picture_quiz_views_never_tell_the_right_choice(server):
    player = Api(server.url)
    player.join("Quinn")
    decks = [d["id"] for d in player.get("/api/catalog")[2]["decks"] if d["playable"] and d["items"] >= 8]
    positions = Counter()
    questions = 0
    rng = random.Random(5)
    for i in range(24):
        game = player.start_game("picture-quiz", {"choices": 3, "questions": 8}, deck=decks[i % len(decks)])
        while True:
            pre = game["view"]
            assert pre["phase"] == "question"
            reloaded = player.game(game["id"])["view"]
            assert reloaded == pre
            for key in ("answer", "missed", "rightChoice", "rightId"):
                assert key not in pre, pre
            name = pre["answerName"].lower()
            assert all(name not in choice.lower() for choice in pre["choices"]), pre
            game = player.act(game, {"type": "choose", "choice": rng.randrange(3)})
            answer = game["view"]["answer"]
            event = next(e for e in game["events"] if e["type"] == "answered")
            assert event["rightChoice"] == answer["rightChoice"]
            assert pre["choices"][answer["rightChoice"]] == answer["rightId"]
            assert game["view"]["choices"] == pre["choices"]
            positions[answer["rightChoice"]] += 1
            questions += 1
            if game["isOver"]:
                break
            game = player.act(game, {"type": "next"})
            # The question after holds nothing of the one before.
            assert "answer" not in game["view"]
    # The right picture's position is not a tell: each place is right about a third of the time.
    assert questions == 24 * 8
    assert all(positions[p] >= questions // 6 for p in range(3)), positions


def test_bullseye_views_never_hold_the_target_while_guessing(server):
    player = Api(server.url)
    player.join("Rae")

    def holds(node, target):
        if isinstance(node, dict):
            if all(node.get(c) == target[c] for c in "rgb"):
                return True
            return any(holds(v, target) for v in node.values())
        if isinstance(node, list):
            return any(holds(v, target) for v in node)
        if isinstance(node, str):
            return "#%02X%02X%02X" % (target["r"], target["g"], target["b"]) in node.upper()
        return False

    rng = random.Random(11)
    for _ in range(30):
        game = player.start_game("bullseye", {"rounds": 3})
        while not game["isOver"]:
            guessing = [game["view"], player.game(game["id"])["view"]]
            for view in guessing:
                assert view["phase"] == "guessing" and "result" not in view and "history" not in view
            _, _, svg = player.get(f"/api/games/{game['id']}/target.svg")
            guess = {c: rng.randrange(256) for c in "rgb"}
            game = player.act(game, {"type": "check", "guess": guess})
            scored = next(e for e in game["events"] if e["type"] == "scored")
            target = scored["target"]
            assert {c: game["view"]["result"]["target"][c] for c in "rgb"} == target
            assert ("#%02X%02X%02X" % (target["r"], target["g"], target["b"])).encode() in svg.upper()
            if guess == target:
                continue
            for view in guessing:
                assert not holds(view, target), (target, view)
            if not game["isOver"]:
                game = player.act(game, {"type": "next"})
                assert not any("target" in e for e in game["events"]), game["events"]

    # Free play: a check says how close, never where; the colour shows only once given up.
    for _ in range(5):
        game = player.start_game("bullseye", {"freePlay": True})
        views = [game["view"]]
        for _ in range(3):
            game = player.act(game, {"type": "check", "guess": {c: rng.randrange(256) for c in "rgb"}})
            views.append(game["view"])
            assert "target" not in game["view"]["result"] and all("target" not in e for e in game["events"])
        game = player.act(game, {"type": "newColour"})
        target = next(e for e in game["events"] if e["type"] == "revealed")["target"]
        for view in views:
            assert not holds({k: v for k, v in view.items() if k != "startGuess"}, target), (target, view)


# ---------------------------------------------------------------------------------------------
# Custom categories, reminders and cities


def iso_in(seconds, offset_minutes=60):
    """A start `seconds` from now, written in local time at a UTC offset."""
    from datetime import datetime, timedelta, timezone
    zone = timezone(timedelta(minutes=offset_minutes))
    return (datetime.now(timezone.utc) + timedelta(seconds=seconds)).astimezone(zone).isoformat(timespec="seconds")


def test_custom_categories_routes(server, ana):
    words = [f"thing {chr(97 + i)}" for i in range(12)]
    status, _, mine = ana.post("/api/categories", {"name": "Office", "words": words + ["Thing A", "  "]})
    assert status == 201 and mine["words"] == words and mine["name"] == "Office", mine
    assert ana.get("/api/categories")[2] == {"categories": [mine]}
    assert ana.get(f"/api/categories/{mine['id']}")[2] == mine
    catalog = ana.get("/api/catalog")[2]["categories"]
    assert catalog[-1] == {"id": mine["id"], "title": "Office", "words": 12, "custom": True}
    # Invisible to anyone else: not in their catalog, not readable, not playable, not editable.
    bo = Api(server.url)
    bo.join("Bo")
    assert all(c["id"] != mine["id"] for c in bo.get("/api/catalog")[2]["categories"])
    assert bo.get(f"/api/categories/{mine['id']}")[0] == 404
    assert bo.request("PUT", f"/api/categories/{mine['id']}", {"name": "Mine", "words": words})[0] == 404
    assert bo.request("DELETE", f"/api/categories/{mine['id']}")[0] == 404
    assert bo.post("/api/games", {"game": "guess-or-pass", "category": mine["id"]})[2]["error"]["code"] == "unknown-category"
    assert bo.get("/api/categories")[2] == {"categories": []}
    # Validation, with messages that say what to fix.
    for body, fragment in [
        ({"name": "", "words": words}, "name must not be empty"),
        ({"name": "x" * 41, "words": words}, "name must be at most 40 characters"),
        ({"name": "Short", "words": words[:9]}, "at least 10 different words (it has 9)"),
        ({"name": "Same", "words": ["a"] * 20}, "at least 10 different words (it has 1)"),
        ({"name": "Long", "words": [f"w{i:04d}" for i in range(501)]}, "at most 500 words (it has 501)"),
        ({"name": "Wordy", "words": words + ["x" * 41]}, "at most 40 characters"),
        ({"name": "Animals", "words": words}, "already a category called"),
        ({"name": "office", "words": words}, "already a category called"),
        ({"name": "Rude", "words": words + ["big shit"]}, "family-friendly"),
        ({"name": "Typed", "words": "abc"}, "words must be an array"),
    ]:
        status, _, error = ana.post("/api/categories", body)
        assert status == 400 and error["error"]["code"] in ("invalid-category", "bad-request"), (body, error)
        assert fragment in error["error"]["message"], (fragment, error)
    # Edit, play, delete.
    status, _, edited = ana.request("PUT", f"/api/categories/{mine['id']}", {"name": "Work", "words": words[:10]})
    assert status == 200 and edited["name"] == "Work" and edited["words"] == words[:10]
    assert ana.request("PUT", f"/api/categories/{mine['id']}", {"name": "Work", "words": []})[0] == 400
    assert ana.request("PUT", "/api/categories/custom-nope", {"name": "Work", "words": words})[0] == 404
    game = ana.start_game("guess-or-pass", {"duration": 30}, category=mine["id"])
    assert game["variant"] == mine["id"] and game["view"]["category"] == mine["id"]
    huge = b"{" + b" " * (2 * 1024 * 1024) + b"}"
    assert ana.post("/api/categories", raw=huge)[0] == 413
    assert ana.request("PUT", f"/api/categories/{mine['id']}", raw=huge)[0] == 413
    assert ana.request("DELETE", f"/api/categories/{mine['id']}")[0] == 204
    assert ana.get(f"/api/categories/{mine['id']}")[0] == 404
    assert ana.request("DELETE", f"/api/categories/{mine['id']}")[0] == 404


def test_reminders_routes(server, ana):
    status, _, made = ana.post("/api/reminders", {"start": iso_in(2 * 3600, 120)})
    assert status == 201, made
    assert made["title"] == "Game night" and made["place"] == "Skopje"
    assert made["alarmAt"] == made["startsAt"] - 3600 * 1000
    assert made["start"].endswith("+02:00") and made["icsURL"] == f"/api/reminders/{made['id']}.ics"
    status, _, other = ana.post("/api/reminders", {"title": "Quiz, night; fun", "start": iso_in(3 * 3600, -300),
                                                   "place": "Lima", "latitude": -12.05, "longitude": -77.04})
    assert status == 201 and other["latitude"] == -12.05
    assert [r["id"] for r in ana.get("/api/reminders")[2]["reminders"]] == [made["id"], other["id"]]
    assert ana.get(f"/api/reminders/{made['id']}")[2] == made
    status, headers, ics = ana.get(made["icsURL"])
    assert status == 200 and headers["Content-Type"].startswith("text/calendar")
    assert b"BEGIN:VALARM\r\n" in ics and b"TRIGGER;RELATED=START:-PT1H\r\n" in ics
    for body, fragment in [
        ({"start": iso_in(59 * 60)}, "at least one hour from now"),
        ({"start": iso_in(-3600)}, "in the past"),
        ({"start": "2030-01-01T20:00"}, "with its UTC offset"),
        ({"start": "2030-02-30T20:00+01:00"}, "with its UTC offset"),
        ({"start": "tomorrow"}, "with its UTC offset"),
        ({"start": iso_in(7200), "title": ""}, "title must not be empty"),
        ({"start": iso_in(7200), "title": "x" * 81}, "title must be at most 80 characters"),
        ({"start": iso_in(7200), "place": " "}, "place must not be empty"),
        ({"start": iso_in(7200), "place": "p" * 81}, "place must be at most 80 characters"),
        ({"start": iso_in(7200), "latitude": 10}, "come together"),
        ({"start": iso_in(7200), "latitude": 91, "longitude": 0}, "come together"),
        ({"start": iso_in(7200), "latitude": 0, "longitude": 181}, "come together"),
        ({"start": iso_in(10 * 366 * 86400)}, "five years"),
        ({}, "start is missing"),
    ]:
        status, _, error = ana.post("/api/reminders", body)
        assert status == 400, (body, status, error)
        assert fragment in error["error"]["message"], (fragment, error)
    assert ana.post("/api/reminders", raw=b"{" + b" " * (2 * 1024 * 1024) + b"}")[0] == 413
    # Another player sees none of it.
    bo = Api(server.url)
    bo.join("Bo")
    assert bo.get("/api/reminders")[2] == {"reminders": []}
    assert bo.get(f"/api/reminders/{made['id']}")[0] == 404
    assert bo.get(made["icsURL"])[0] == 404
    assert bo.request("DELETE", f"/api/reminders/{made['id']}")[0] == 404
    assert ana.request("DELETE", f"/api/reminders/{made['id']}")[0] == 204
    assert ana.get(made["icsURL"])[0] == 404
    assert ana.request("DELETE", f"/api/reminders/{made['id']}")[0] == 404
    assert [r["id"] for r in ana.get("/api/reminders")[2]["reminders"]] == [other["id"]]


def test_nearest_city(server):
    client = Api(server.url)
    for (lat, lon), name in [((41.99, 21.43), "Skopje"), ((51.5, -0.12), "London"),
                             ((-33.9, 151.2), "Sydney"), ((35.7, 139.7), "Tokyo")]:
        status, _, city = client.get(f"/api/cities/nearest?lat={lat}&lon={lon}")
        assert status == 200 and city["name"] == name and city["distanceKm"] < 30, city
    for query in ("", "?lat=91&lon=0", "?lat=0&lon=-181", "?lat=abc&lon=1", "?lat=1"):
        assert client.get(f"/api/cities/nearest{query}")[0] == 400, query


# ---------------------------------------------------------------------------------------------


def test_daily_routes(server, ana):
    """The daily set as a client meets it: today's five, a counted start (once), the archive,
    leaderboards with names and avatars, and every bad input refused with its reason."""
    status, _, day = Api(server.url).get("/api/daily")
    assert status == 200 and "streak" not in day and [g["state"] for g in day["games"]] == ["new"] * 5
    status, _, game = ana.post("/api/daily/number", {})
    assert status == 201 and game["daily"]["counted"] is True and game["daily"]["date"] == day["today"]
    status, _, again = ana.post("/api/daily/number", {})
    assert status == 409 and again["error"]["code"] == "daily-played" and again["error"]["gameId"] == game["id"]
    while not game["isOver"]:
        game = ana.halve(game)
    share = game["daily"]["share"]
    assert share["text"].startswith(f"Guesswork · Guess the Number #{day['number']}\n")
    assert share["text"].endswith(share["url"]) and "/daily.html?game=number&date=" in share["url"]
    # The grid line shows arrows and the attempts used ("7/7"), never the secret itself.
    grid, used_of = share["text"].split("\n")[1].rsplit(" ", 1)
    assert re.fullmatch(r"([1-7]|X)/7", used_of) and str(game["summary"]["secret"]) not in grid
    # Bo, with an avatar, plays too: his name and picture are on the board for Ana.
    bo = Api(server.url)
    bo.join("Bo")
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    assert bo.request("PUT", "/api/me/avatar", raw=png, headers={"Content-Type": "image/png"})[0] == 200
    status, _, bos = bo.post("/api/daily/number", None)
    assert status == 201
    bos = bo.act(bos, {"type": "guess", "number": game["summary"]["secret"]})
    status, _, board = ana.get("/api/daily/number/leaderboard")
    assert status == 200 and board["players"] == 2 and board["you"]["of"] == 2
    # Bo found it at once. So did Ana when her first halving guess was the secret (one day in
    # the range's size): then the two share rank 1, Ana first, having finished first.
    tie = game["score"] == bos["score"]
    assert [e["name"] for e in board["entries"]] == (["Ana", "Bo"] if tie else ["Bo", "Ana"])
    bo_entry = board["entries"][1 if tie else 0]
    assert bo_entry["rank"] == 1 and board["you"]["rank"] == (1 if tie else 2)
    assert ana.get(bo_entry["avatarURL"])[2] == png
    for period in ("week", "all"):
        status, _, other = ana.get(f"/api/daily/number/leaderboard?period={period}&date={day['today']}")
        assert status == 200 and other["you"]["score"] == game["score"]
    status, _, mine = ana.get("/api/daily")
    assert mine["games"][0]["state"] == "done" and mine["games"][0]["streak"] == {"current": 1, "best": 1}
    assert ana.stats()["number"]["daily"] == {"current": 1, "best": 1, "played": 1}
    status, _, archive = ana.get("/api/daily/number/archive")
    used = f"{8 - game['score']}/7" if game["score"] > 0 else "X/7"  # the daily gives 7 attempts
    assert status == 200 and archive["days"][0] == {"date": day["today"], "number": day["number"], "today": True,
                                                    "score": game["score"], "result": used}
    assert board["you"]["result"] == used and mine["games"][0]["result"] == used
    assert archive["days"][-1]["number"] == 1 and len(archive["days"]) == day["number"]
    if len(archive["days"]) > 1:
        status, _, past = ana.post("/api/daily/number", {"date": archive["days"][1]["date"]})
        assert status == 201 and past["daily"]["counted"] is False
    # Bad input: said, and nothing changes.
    for bad in ({"date": "2999-01-01"}, {"date": "2001-01-01"}, {"date": "2026-13-01"}, {"date": 7}, {"day": 3}):
        status, _, error = ana.post("/api/daily/bullseye", bad)
        assert status == 400, (bad, status, error)
    assert ana.post("/api/daily/bullseye", raw=b"{" + b" " * (2 * 1024 * 1024) + b"}")[0] == 413
    assert ana.get("/api/daily")[2]["games"][2]["state"] == "new"
    assert ana.post("/api/daily/chess", {})[0] == 404
    assert ana.get("/api/daily/chess/leaderboard")[0] == 404
    assert ana.get("/api/daily/chess/archive")[0] == 404
    assert ana.get("/api/daily/number/leaderboard?period=year")[0] == 400
    assert ana.get("/api/daily?date=tomorrow")[0] == 400


def test_json_routes_refuse_other_body_types(server):
    """Login CSRF: a cross-site form can post text/plain or form data, never application/json,
    so every JSON route refuses other types with 415 and changes nothing."""
    ana = Api(server.url)
    me = ana.join("Ana")
    category = ana.post("/api/categories", {"name": "Mine", "words": [f"thing {chr(97 + i)}" for i in range(12)]})[2]
    game = ana.start_game("number")
    routes = [("POST", "/api/players"), ("PATCH", "/api/me"), ("POST", "/api/games"),
              ("POST", f"/api/games/{game['id']}/actions"), ("POST", "/api/categories"),
              ("PUT", f"/api/categories/{category['id']}"), ("POST", "/api/reminders"),
              ("POST", "/api/daily/number"), ("POST", "/api/me/link-codes"),
              ("POST", "/api/link-codes/AAAAAAAAAAAAAAAAAAAAAA"), ("POST", "/api/rooms"),
              ("POST", "/api/rooms/ABCD/join"), ("POST", "/api/rooms/ABCD/actions"),
              ("POST", "/api/me/sign-out")]
    # Every route whose body is JSON is here (the avatar's body is a picture, judged by its bytes).
    json_routes = {(method, path) for path, item in DOC["paths"].items() for method, operation in item.items()
                   if method in METHODS and
                   "application/json" in operation.get("requestBody", {}).get("content", {})}
    assert {(method.lower(), template_of(path)) for method, path in routes} == json_routes
    for method, path in routes:
        for kind in ("text/plain", "application/x-www-form-urlencoded"):
            status, _, payload = ana.request(method, path, raw=b'{"name": "Eve"}', headers={"Content-Type": kind})
            assert status == 415 and payload["error"]["code"] == "unsupported-media-type", (method, path, kind)
    assert ana.get("/api/me")[2]["name"] == me["name"]
    assert ana.get(f"/api/games/{game['id']}")[2]["version"] == game["version"]


def test_an_optional_body_is_nothing_or_a_json_object(server):
    """The routes whose body is optional and carries nothing (sign-in codes, sign-out, joining a
    room) take no body or a JSON object; any other JSON is a 400 that changes nothing."""
    host = Api(server.url)
    host.join("Host")
    room = f"/api/rooms/{host.post('/api/rooms', {})[2]['code']}"
    tess = Api(server.url)
    me = tess.join("Tess")
    code = tess.post("/api/me/link-codes", {})[2]["code"]
    for body in (b"[]", b"null", b'"x"', b"7", b"true"):
        for client, path in ((tess, "/api/me/link-codes"), (host, f"/api/link-codes/{code}"),
                             (tess, f"{room}/join"), (tess, "/api/me/sign-out")):
            status, _, error = client.post(path, raw=body)
            assert status == 400 and error["error"]["code"] == "bad-request", (path, body, status, error)
    # Nothing happened: the code is unused, Tess is signed in and not in the room.
    assert host.get("/api/me")[2]["name"] == "Host" and tess.get("/api/me")[2] == me
    assert tess.get(f"/api/link-codes/{code}")[0] == 200
    assert host.get(room)[2]["players"] == 0
    assert tess.post(f"{room}/join", None)[0] == 200 and tess.post(f"{room}/join", {"x": 1})[0] == 200
    # Such a body is small: 1 KB.
    for client, path in ((tess, "/api/me/link-codes"), (host, f"/api/link-codes/{code}"),
                         (tess, f"{room}/join"), (tess, "/api/me/sign-out")):
        assert client.post(path, {"x": "y" * 2000})[0] == 413, path
    assert tess.post("/api/me/sign-out", {"x": 1})[0] == 204


def test_null_is_absent_where_the_document_says_so(server, ana):
    """Each null the document allows in a request is valid there and taken as the key left out."""
    def accepted(component_name, method, path, body, expect):
        errors = list(component(component_name).iter_errors(body))
        assert not errors, (component_name, body, errors[0].message)
        status, _, reply = ana.request(method, path, body=body)
        assert status == expect, (path, body, status, reply)
        return reply

    before = ana.get("/api/me")[2]
    after = accepted("PlayerChanges", "PATCH", "/api/me", {"name": None, "preferences": None}, 200)
    assert after == before
    after = accepted("PlayerChanges", "PATCH", "/api/me", {"preferences": {
        "inputMode": None, "sound": None, "theme": None, "language": None}}, 200)
    assert after == before
    game = accepted("DailyStart", "POST", "/api/daily/color-match", {"date": None}, 201)
    assert game["daily"]["counted"] is True
    reminder = accepted("NewReminder", "POST", "/api/reminders", {
        "start": "2099-01-01T20:00Z", "title": None, "place": None, "latitude": None, "longitude": None}, 400)
    start = time.strftime("%Y-%m-%dT20:00Z", time.gmtime(time.time() + 30 * 86400))
    reminder = accepted("NewReminder", "POST", "/api/reminders", {
        "start": start, "title": None, "place": None, "latitude": None, "longitude": None}, 201)
    assert reminder["title"] == "Game night" and reminder["place"] == "Skopje" and "latitude" not in reminder
    for half in ({"latitude": 1}, {"latitude": 1, "longitude": None}, {"latitude": None, "longitude": 2}):
        body = {"start": start, **half}
        assert list(component("NewReminder").iter_errors(body)), body
        assert ana.post("/api/reminders", body)[0] == 400, body
    room = accepted("NewRoom", "POST", "/api/rooms", {"limit": None}, 201)
    assert room["room"]["limit"] == 30
    assert ana.post("/api/rooms", None)[2]["room"]["limit"] == 30  # no body: the same


def test_party_room_routes_and_their_errors(server):
    """Every room route and status, each answer checked against the document."""
    host = Api(server.url)
    host.join("Host")
    assert host.post("/api/rooms", {"limit": 1})[0] == 400
    assert host.post("/api/rooms", raw=b'{"limit": 3, "x": "' + b"y" * 2000 + b'"}')[0] == 413
    status, _, created = host.post("/api/rooms", {"limit": 2})
    assert status == 201
    code = created["code"]
    room = f"/api/rooms/{code}"
    assert Api(server.url).post("/api/rooms", {})[0] == 401
    assert host.get("/api/rooms/QQQQ")[0] == 404
    status, headers, picture = host.get(f"{room}/qr.svg")
    assert status == 200 and picture.startswith(b"<svg") or b"<svg" in picture[:200]
    assert host.get("/api/rooms/QQQQ/qr.svg")[0] == 404
    players = []
    for name in ("Ana", "Ben"):
        player = Api(server.url)
        player.join(name)
        assert player.post(f"{room}/join", {})[0] == 200
        players.append(player)
    ana, ben = players
    eve = Api(server.url)
    assert eve.post(f"{room}/join", {})[0] == 401
    eve.join("Eve")
    assert eve.post(f"{room}/join", {})[2]["error"]["code"] == "room-full"
    assert eve.post("/api/rooms/QQQQ/join", {})[0] == 404
    assert eve.post(f"{room}/join", raw=b'{"x": "' + b"y" * 2000 + b'"}')[0] == 413

    def version():
        status, _, summary = host.get(room)
        assert status == 200
        return summary["version"]

    assert ana.post(f"{room}/actions", {"version": version(), "action": {"type": "start"}})[0] == 403
    assert host.post(f"{room}/actions", {"version": version(), "action": {"type": "start"}})[0] == 409
    assert host.post(f"{room}/actions", {"version": version(), "action": {"type": "dance"}})[0] == 400
    assert host.post(f"{room}/actions", raw=b'{"action": {"type": "' + b"x" * 20_000 + b'"}}')[0] == 413
    assert Api(server.url).post(f"{room}/actions", {"action": {"type": "leave"}})[0] == 401
    assert host.post("/api/rooms/QQQQ/actions", {"action": {"type": "leave"}})[0] == 404
    assert host.get(f"{room}/target.svg")[0] == 404  # no Bullseye being played
    assert Api(server.url).get(f"{room}/target.svg")[0] == 401
    assert eve.get(f"{room}/target.svg")[0] == 403
    status, _, view = host.post(f"{room}/actions", {"version": version(), "action": {
        "type": "choose", "game": "bullseye", "settings": {"rounds": 1}}})
    assert status == 200 and view["game"]["kind"] == "bullseye"
    assert host.post(f"{room}/actions", {"version": version(), "action": {"type": "start"}})[0] == 200
    assert ana.get(f"{room}/target.svg")[0] == 200
    guess = {"type": "play", "round": 0, "action": {"type": "check", "guess": {"r": 300, "g": 0, "b": 0}}}
    assert ana.post(f"{room}/actions", {"action": guess})[0] == 422
    guess["action"]["guess"]["r"] = 10
    assert ana.post(f"{room}/actions", {"action": guess})[0] == 200
    assert ana.post(f"{room}/actions", {"action": guess})[0] == 409
    # Ben is kicked: he cannot play or join.
    ben_id = ben.post(f"{room}/join", {})[2]["you"]["id"]
    assert host.post(f"{room}/actions", {"version": version(), "action": {"type": "kick", "player": ben_id}})[0] == 200
    assert ben.post(f"{room}/actions", {"action": guess})[0] == 403
    assert ben.post(f"{room}/join", {})[0] == 403
    # Room mates' pictures: Ana's to Host, not to Eve (not in the room); a stranger's is none.
    ana_id = ana.post(f"{room}/join", {})[2]["you"]["id"]
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    assert ana.request("PUT", "/api/me/avatar", raw=png, headers={"Content-Type": "image/png"})[0] == 200
    assert host.get(f"{room}/players/{ana_id}/avatar")[0] == 200
    assert eve.get(f"{room}/players/{ana_id}/avatar")[0] == 403
    assert Api(server.url).get(f"{room}/players/{ana_id}/avatar")[0] == 401
    assert host.get(f"{room}/players/{eve.get('/api/me')[2]['id']}/avatar")[0] == 404
    assert host.post(f"{room}/actions", {"version": version(), "action": {"type": "close"}})[0] == 200
    assert eve.post(f"{room}/join", {})[0] == 410


def test_zz_every_documented_route_and_status_was_exercised():
    """Runs last: fails when the document lists a route or status that no test touched."""
    missing = []
    for path, item in DOC["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            for status in operation["responses"]:
                key = (method, path, status)
                if key not in EXERCISED and key not in UNREACHABLE:
                    missing.append(key)
    assert not missing, f"documented but never exercised: {missing}"
