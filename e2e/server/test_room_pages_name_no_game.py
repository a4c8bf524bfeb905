"""A party room's shared pages name no game (issue 53): room.html and screen.html, their scripts
(room.js, room-lobby.js, room-results.js, screen.js, room-common.js) and css/room.css draw any game through its module,
js/games/<id>.js, whose `room` export draws the game's part (and css/games/<id>.css styles it).
The games' ids come from the modules' file names; a game the catalog says a room can play
(`rooms`) has a module that exports `room`."""
import json
import os
import re
import urllib.request

import pytest

from support.server import ROOT, Server

PUBLIC = os.path.join(ROOT, "Sources", "GuessworkServer", "Public")
SHARED = ["room.html", "screen.html", "js/room.js", "js/room-lobby.js", "js/room-results.js", "js/screen.js",
          "js/room-common.js", "css/room.css"]


def game_ids():
    ids = sorted(name[:-3] for name in os.listdir(os.path.join(PUBLIC, "js", "games")) if name.endswith(".js"))
    assert len(ids) >= 5, ids
    return ids


def camel(game_id):
    """A game's catalog prefix: 'color-match' -> 'colorMatch'."""
    first, *rest = game_id.split("-")
    return first + "".join(part.capitalize() for part in rest)


def read(path):
    with open(os.path.join(PUBLIC, path), encoding="utf-8") as f:
        return f.read()


def named_in_script_or_page(text, ids):
    """The game ids a script or a page names: a quoted word that is an id ('number', "bullseye")
    or a catalog key of the game's own ('number.reveal', "guess-or-pass.over.guessed"). A type
    test (typeof x === 'number') and an input's type="number" are no game."""
    text = re.sub(r"""typeof\s+[\w.$()\[\]?]+\s*[!=]==?\s*(['"])\w+\1""", "", text)
    text = re.sub(r"""\b(type|inputmode)="[^"]*\"""", "", text)
    found = set()
    for quoted in re.finditer(r"""(['"`])([A-Za-z0-9_.#-]+)\1""", text):
        word = quoted.group(2).lstrip("#")
        head = word.split(".")[0]
        for game_id in ids:
            if word == game_id or head in (game_id, camel(game_id)):
                found.add(f"{game_id} ({quoted.group(0)})")
    return found


def named_in_style(text, ids):
    """The game ids a style sheet's selectors name (.room-number, #guess-or-pass...)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    found = set()
    for selector in re.findall(r"([^{}]+)\{", text):
        for token in re.findall(r"[A-Za-z0-9_-]+", selector):
            for game_id in ids:
                if token == game_id or re.search(rf"(^|-){re.escape(game_id)}(-|$)", token):
                    found.add(f"{game_id} ({token})")
    return found


def without_comments(script):
    """A script without its comments (a comment may speak of a `number` field)."""
    script = re.sub(r"/\*.*?\*/", "", script, flags=re.S)
    return re.sub(r"(^|\s)//.*$", r"\1", script, flags=re.M)


@pytest.mark.parametrize("path", SHARED)
def test_a_rooms_shared_pages_name_no_game(path):
    ids = game_ids()
    text = read(path)
    if path.endswith(".js"):
        text = without_comments(text)
    found = named_in_style(text, ids) if path.endswith(".css") else named_in_script_or_page(text, ids)
    assert not found, f"{path} names games: {sorted(found)} (each game draws its own part: js/games/<id>.js, `room`)"


def test_the_check_sees_a_game_named():
    """The checks above find what they look for."""
    ids = ["number", "color-match", "guess-or-pass"]
    assert named_in_script_or_page("if (kind === 'color-match') x(); t('number.reveal')", ids) == {
        "color-match ('color-match')", "number ('number.reveal')"}
    assert named_in_script_or_page('<h3 data-i18n="guess-or-pass.over.guessed">', ids)
    assert not named_in_script_or_page("typeof p.team === 'number' && t('room.turn.number'); <input type=\"number\">", ids)
    assert without_comments("a = 1; // the `number` field\n/* 'number' */ b = `${s}://x`;") == "a = 1; \n b = `${s}://x`;"
    assert named_in_style(".room-number .pad { x: 1 }\n.a { font-variant-numeric: tabular-nums; }", ids) == {"number (room-number)"}


@pytest.fixture(scope="module")
def catalog():
    with Server() as server:
        with urllib.request.urlopen(server.url + "/api/catalog", timeout=10) as response:
            yield json.load(response)


def test_every_game_a_room_can_play_has_a_module_that_exports_room(catalog):
    games = catalog["games"]
    assert all("rooms" in game for game in games), "the catalog says which games a room can play (`rooms`)"
    playable = [game["id"] for game in games if game["rooms"]]
    assert playable, "no game a room can play"
    for game_id in playable:
        module = read(f"js/games/{game_id}.js")
        assert re.search(r"^export const room = \{", module, re.M), f"js/games/{game_id}.js exports no `room`"
        assert os.path.exists(os.path.join(PUBLIC, "css", "games", f"{game_id}.css")), f"no css/games/{game_id}.css"
