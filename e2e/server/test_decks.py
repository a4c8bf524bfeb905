"""Picture Quiz decks: importing a folder of photos through the command, playing it through
the API, fetching its pictures, and refusing bad folders without changing anything."""
import json
import os
import re
import struct
import subprocess
import tempfile
import zlib

import pytest

from support.catalog import said
from support.server import Client, Server, binary

ROSTER = ["Reggie White", "Brian Dawkins", "Chuck Bednarik", "Mike Ditka"]


def png(rgb, size=8):
    """A small, real PNG of one colour."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    row = b"\x00" + bytes(rgb) * size
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(row * size))
        + chunk(b"IEND", b"")
    )


def folder_of(names, manifest=None):
    folder = tempfile.mkdtemp(prefix="guesswork-deck-")
    for index, name in enumerate(names):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(png((index * 40 % 256, 90, 200 - index * 30 % 200)))
    if manifest is not None:
        with open(os.path.join(folder, "deck.json"), "w") as f:
            f.write(manifest if isinstance(manifest, str) else json.dumps(manifest))
    return folder


def decks_command(data_dir, *args):
    return subprocess.run(
        [binary(), "decks", *args, "--data-dir", data_dir],
        capture_output=True, text=True, timeout=60,
    )


@pytest.fixture()
def server():
    with Server() as server:
        yield server


def test_an_imported_folder_plays_through_the_api_and_serves_its_pictures(server):
    folder = folder_of(
        [f"{name}.png" for name in ["Ada", "Grace", "Linus", "Margaret", "Dennis"]],
        {"id": "pioneers", "title": "Pioneers", "question": "Tap {answer}", "noun": "the pioneer",
         "theme": ["#111827", "#4b5563"], "credit": "Photos: our own."},
    )
    result = decks_command(server.data_dir, "import", folder)
    assert result.returncode == 0, result.stderr
    assert "pioneers" in result.stdout and "5 pictures" in result.stdout
    listing = decks_command(server.data_dir, "list").stdout
    assert re.search(r"pioneers\s+Pioneers\s+5\s+pictures\s+playable", listing), listing

    player = Client(server.url)
    player.join("Deck Player")
    status, _, decks = player.get("/api/decks")
    pioneers = next(d for d in decks if d["id"] == "pioneers")
    assert pioneers["playable"] and pioneers["kind"] == "photos" and pioneers["pictures"] == 5

    game = player.start_game("picture-quiz", {"questions": 5}, deck="pioneers")
    assert game["variant"] == "pioneers"
    seen_pictures = set()
    while not game["isOver"]:
        for choice in game["view"]["choices"]:
            assert re.fullmatch(r"[0-9a-f]{64}", choice), "a picture id says nothing of its answer"
            seen_pictures.add(choice)
        game = player.act(game, {"type": "choose", "choice": 1})
        title = said(game["view"]["answer"]["title"])
        assert title == "Correct" or title.startswith("Wrong! That's the pioneer "), title
        if not game["isOver"]:
            game = player.act(game, {"type": "next"})
    assert said(game["view"]["message"]) == f"Game over! Your final score was {game['score']}."

    picture = next(iter(seen_pictures))
    status, headers, body = player.get(f"/api/pictures/{picture}")
    assert status == 200
    assert headers["Content-Type"] == "image/png" and body.startswith(b"\x89PNG")
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["ETag"] == f'"{picture}"' and "immutable" in headers["Cache-Control"]
    status, _, _ = player.request("GET", f"/api/pictures/{picture}", headers={"If-None-Match": f'"{picture}"'})
    assert status == 304
    assert player.get("/api/pictures/" + "0" * 64)[0] == 404


def test_the_roster_needs_photos_until_an_import_fills_it(server):
    player = Client(server.url)
    player.join("Fan")
    _, _, decks = player.get("/api/decks")
    roster = next(d for d in decks if d["id"] == "eagles-hof")
    assert not roster["playable"] and "guesswork decks import" in roster["needsPhotos"]
    status, _, error = player.post("/api/games", {"game": "picture-quiz", "deck": "eagles-hof"})
    assert status == 400 and error["error"]["code"] == "deck-needs-photos"
    assert "needs photos" in decks_command(server.data_dir, "list").stdout

    result = decks_command(server.data_dir, "import", folder_of([f"{n}.png" for n in ROSTER]), "--id", "eagles-hof")
    assert result.returncode == 0, result.stderr
    _, _, decks = player.get("/api/decks")
    roster = next(d for d in decks if d["id"] == "eagles-hof")
    assert roster["playable"] and roster["title"] == "NFL HOF Eagles" and roster["pictures"] == 4
    assert roster["items"] == 25, "the roster still lists who has no photo yet"
    game = player.start_game("picture-quiz", deck="eagles-hof")
    assert game["view"]["answerName"] in ROSTER
    assert game["view"]["questions"] == 4, "questions are capped by the pictures there are"


def bad_folders():
    five_mb = folder_of(["Ada.png", "Grace.png", "Linus.png"])
    with open(os.path.join(five_mb, "Big.png"), "wb") as f:
        f.write(png((1, 2, 3)) + b"\x00" * (5 * 1024 * 1024))
    text = folder_of(["Ada.png", "Grace.png", "Linus.png"])
    with open(os.path.join(text, "Notes.jpg"), "w") as f:
        f.write("this is text, not a picture")
    return [
        ("a text file named .jpg", text, "Notes.jpg: not a JPEG, PNG or WebP picture"),
        ("a 5 MB picture", five_mb, "Big.png: 5.0 MB"),
        ("two files for one answer", folder_of(["Ada.png", "Ada.jpg", "Grace.png", "Linus.png"]), "two pictures for one answer"),
        ("too few items", folder_of(["Ada.png", "Grace.png"]), "a deck needs at least 3"),
        ("an unreadable manifest", folder_of(["Ada.png", "Grace.png", "Linus.png"], "{not json"), "deck.json: not a valid manifest"),
    ]


@pytest.mark.parametrize("what,folder,message", bad_folders(), ids=[b[0] for b in bad_folders()])
def test_a_bad_folder_is_refused_by_name_and_changes_nothing(server, what, folder, message):
    before = decks_command(server.data_dir, "list").stdout
    result = decks_command(server.data_dir, "import", folder, "--id", "eagles-hof")
    assert result.returncode == 65, (what, result.stdout, result.stderr)
    assert message in result.stderr, result.stderr
    assert decks_command(server.data_dir, "list").stdout == before


def test_no_question_view_identifies_the_right_picture(server):
    decks_command(server.data_dir, "import", folder_of([f"Item {i}.png" for i in range(8)]), "--id", "items")
    player = Client(server.url)
    player.join("Prober")
    names = {f"Item {i}" for i in range(8)}
    right_positions = set()
    for _ in range(40):
        game = player.start_game("picture-quiz", {"questions": 1, "choices": 4}, deck="items")
        view = game["view"]
        text = json.dumps(game)
        assert set(view) == {"phase", "isOver", "score", "questionNumber", "questions", "answerName", "choices"}
        for other in names - {view["answerName"]}:
            assert other not in text
        answered = player.act(game, {"type": "choose", "choice": 0})
        right_positions.add(answered["view"]["answer"]["rightChoice"])
    assert len(right_positions) == 4, "the right picture's place is random"
