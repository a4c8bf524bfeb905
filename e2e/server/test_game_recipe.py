"""The recipe of docs/architecture.md ("Adding a game"), held for every game of the real list
(issue 53, items 1 and 8): a game is its folder, one line in `Games.all`, one page module (and its
styles), one terminal screen and one catalog file per language, and nothing else names it.

The games are the ids `/api/catalog` of the plain `guesswork` lists (with `rooms`); a game's
Swift name is its id in PascalCase (color-match -> ColorMatch). A check that finds a file
missing names it; `test_a_missing_file_is_named` shows that it does, on a copy of the files.
"""
import os
import re
import shutil

import pytest

from support.server import ROOT, Client, Server

SOURCES = os.path.join(ROOT, "Sources")
LANGUAGES = ["en", "es", "ru"]

# Shared Swift files that may name a game type, and why.
ALLOWED = {
    # The one list of the games.
    "GuessworkCore/Shape/Games.swift": "the list",
    # Known exception: its `@specialized(where G == ...)` lines, a second list of the games kept
    # for speed, measured in BENCHMARKS.md speed ledger.
    "GuessworkPlay/Engine.swift": "measured in BENCHMARKS.md speed ledger",
}
# Shared Swift files that name a game today and should not: Guess or Pass's word content
# (`GuessOrPassGame.Words`) is built by the server and the daily set, not through the game's
# content shape. Listed so that the check holds everything else now; each must go from here
# once the file no longer names the game (the test fails until it does).
PENDING = {}


def pascal(game_id):
    """A game's Swift name: 'color-match' -> 'ColorMatch'."""
    return "".join(part.capitalize() for part in game_id.split("-"))


def recipe(game_id, rooms):
    """The files the recipe names for game `game_id` (paths under Sources/)."""
    name = pascal(game_id)
    folder = f"GuessworkCore/Games/{name}"
    files = [f"{folder}/{name}Game.swift"]
    if rooms:
        files.append(f"{folder}/{name}Game+Room.swift")
    files += [
        f"GuessworkServer/Public/js/games/{game_id}.js",
        f"GuessworkServer/Public/css/games/{game_id}.css",
        f"guesswork/Play{name}.swift",
    ]
    files += [f"GuessworkContent/Resources/i18n/{lang}/games/{game_id}.json" for lang in LANGUAGES]
    return files


def exports(source, name):
    """Whether a module's text exports `name` (`export const name`, or in an `export { }` list)."""
    if re.search(rf"^export\s+(const|let|var|function|async function)\s+{name}\b", source, re.M):
        return True
    return any(re.search(rf"(^|,)\s*(\w+\s+as\s+)?{name}\s*(,|$)", names.strip())
               for names in re.findall(r"^export\s*\{([^}]*)\}", source, re.M))


def recipe_gaps(sources, games):
    """What the recipe asks of each game in `games` ({id: rooms}) that the tree at `sources`
    lacks, as sentences (none: every game keeps the recipe)."""
    gaps = []
    for game_id, rooms in games.items():
        for path in recipe(game_id, rooms):
            if not os.path.isfile(os.path.join(sources, path)):
                gaps.append(f"{game_id}: no {path}")
        module = os.path.join(sources, "GuessworkServer", "Public", "js", "games", f"{game_id}.js")
        if os.path.isfile(module):
            with open(module, encoding="utf-8") as f:
                text = f.read()
            for name in ["solo", "room"] if rooms else ["solo"]:
                if not exports(text, name):
                    gaps.append(f"{game_id}: js/games/{game_id}.js exports no `{name}`")
        page = os.path.join(sources, "GuessworkServer", "Public", f"{game_id}.html")
        if os.path.exists(page):
            gaps.append(f"{game_id}: a page of its own, Public/{game_id}.html (game.html draws every game)")
    return gaps


@pytest.fixture(scope="module")
def games():
    """The real list: {id: rooms} from the plain server's catalog."""
    with Server() as server:
        status, _, catalog = Client(server.url).get("/api/catalog")
    assert status == 200
    listed = {g["id"]: g.get("rooms") is True for g in catalog["games"]}
    assert len(listed) >= 5 and "coin-flip" not in listed, listed
    return listed


def test_every_game_of_the_list_has_every_file_of_the_recipe(games):
    assert recipe_gaps(SOURCES, games) == []


def test_a_missing_file_is_named(games, tmp_path):
    """The check above fails when a file is missing: on a copy of the recipe's files, one moved
    away (a game's terminal screen) and one module without its `room`."""
    copy = tmp_path / "Sources"
    for game_id, rooms in games.items():
        for path in recipe(game_id, rooms):
            (copy / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(os.path.join(SOURCES, path), copy / path)
    assert recipe_gaps(str(copy), games) == []
    first, rooms = next((g, r) for g, r in games.items() if r)
    name = pascal(first)
    os.rename(copy / f"guesswork/Play{name}.swift", tmp_path / "moved-away.swift")
    module = copy / f"GuessworkServer/Public/js/games/{first}.js"
    module.write_text(re.sub(r"^export const room\b", "const room", module.read_text(encoding="utf-8"), flags=re.M))
    (copy / f"GuessworkServer/Public/{first}.html").write_text("<!doctype html>")
    assert recipe_gaps(str(copy), games) == [
        f"{first}: no guesswork/Play{name}.swift",
        f"{first}: js/games/{first}.js exports no `room`",
        f"{first}: a page of its own, Public/{first}.html (game.html draws every game)",
    ]


def test_the_recipe_in_the_docs_names_every_file_the_check_asks_for():
    with open(os.path.join(ROOT, "docs", "architecture.md"), encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## Adding a game"):]
    section = section[:section.index("\n## ", 1)]
    for pattern in ["Sources/GuessworkCore/Games/<Name>/", "<Name>Game.swift", "<Name>Game+Room.swift",
                    "Games.all", "js/games/<id>.js", "css/games/<id>.css", "Sources/guesswork/Play<Name>.swift",
                    "i18n/<lang>/games/<id>.json"]:
        assert pattern in section, f"the recipe does not name {pattern}"


def game_types():
    """The game types, read from the games' folders: Sources/GuessworkCore/Games/<Name>/ holds
    <Name>Game."""
    folder = os.path.join(SOURCES, "GuessworkCore", "Games")
    names = sorted(f"{name}Game" for name in os.listdir(folder) if os.path.isdir(os.path.join(folder, name)))
    assert len(names) >= 5, names
    return names


def shared_swift_naming_a_game(sources, types):
    """{path under Sources: the game types it names} for every Swift file outside the games'
    folders and terminal screens that names one in code (comments are not code)."""
    word = re.compile(r"\b(" + "|".join(map(re.escape, types)) + r")\b")
    found = {}
    for folder, _, files in os.walk(sources):
        for file in files:
            path = os.path.relpath(os.path.join(folder, file), sources).replace(os.sep, "/")
            if not file.endswith(".swift") or path.startswith("GuessworkCore/Games/"):
                continue
            if re.fullmatch(r"guesswork/Play[A-Z]\w*\.swift", path):
                continue
            with open(os.path.join(folder, file), encoding="utf-8") as f:
                code = "\n".join(line.split("//", 1)[0] for line in f)
            names = sorted(set(word.findall(code)))
            if names:
                found[path] = names
    return found


def test_no_shared_swift_file_names_a_game():
    found = shared_swift_naming_a_game(SOURCES, game_types())
    unexpected = {path: names for path, names in found.items() if path not in ALLOWED and path not in PENDING}
    assert unexpected == {}, f"shared files that name a game (its folder or terminal screen should): {unexpected}"
    cleared = sorted(path for path in PENDING if path not in found)
    assert cleared == [], f"these no longer name a game: take them off PENDING: {cleared}"


def test_naming_a_game_in_a_shared_file_is_found(tmp_path):
    """The check above finds a game named in code, not in a comment."""
    (tmp_path / "GuessworkServer").mkdir()
    (tmp_path / "GuessworkServer" / "Routes.swift").write_text(
        "// NumberGame.kind is an example\nlet x = BullseyeGame.self\n")
    (tmp_path / "guesswork").mkdir()
    (tmp_path / "guesswork" / "PlayBullseye.swift").write_text("let x = BullseyeGame.self\n")
    assert shared_swift_naming_a_game(str(tmp_path), ["NumberGame", "BullseyeGame"]) == {
        "GuessworkServer/Routes.swift": ["BullseyeGame"]}
