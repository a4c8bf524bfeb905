"""Every text a player gives that is kept (names, category names and words, reminder titles
and places) refuses control characters and line breaks with a 400 that names the field, and
is limited in bytes as well as characters, on SQLite and on PostgreSQL, changing nothing."""
import os
from datetime import datetime, timedelta, timezone

import pytest

from support.server import Client, Server

POSTGRES_URL = os.environ.get("GUESSWORK_TEST_POSTGRES_URL")
DATABASES = ["sqlite"] + (["postgres"] if POSTGRES_URL else [])
# NUL (PostgreSQL refused it with a 500; SQLite cut the text there), BEL and ESC (raw in .ics
# files), a C1 control, DEL and the line and paragraph separators.
HOSTILE = ["a\u0000b", "a\u0007b", "a\u001b[31mb", "a\u0085b", "a\u007fb", "a\u2028b", "a\u2029b", "a\nb"]
# One character a person sees, hundreds of bytes: a letter under a pile of combining marks.
HEAVY = "e" + "\u0301" * 150
WORDS = [f"thing {chr(97 + i)}" for i in range(12)]


def in_hours(hours):
    return (datetime.now(timezone.utc) + timedelta(hours=hours)).isoformat(timespec="seconds")


@pytest.fixture(scope="module", params=DATABASES)
def server(request):
    with Server(database_url=POSTGRES_URL if request.param == "postgres" else None) as s:
        yield s


def refused(reply, field):
    status, _, payload = reply
    assert status == 400, (status, payload)
    message = payload["error"]["message"]
    assert message.startswith(field), message
    return message


def test_control_characters_are_refused_in_every_stored_text(server):
    for text in HOSTILE:
        assert "control characters" in refused(Client(server.url).post("/api/players", {"name": text}), "name")
    ana = Client(server.url)
    ana.join("Ana")
    category = ana.post("/api/categories", {"name": "Mine", "words": WORDS})[2]
    reminder = ana.post("/api/reminders", {"start": in_hours(3)})[2]
    for text in HOSTILE:
        refused(ana.request("PATCH", "/api/me", {"name": text}), "name")
        refused(ana.post("/api/categories", {"name": text, "words": WORDS}), "name")
        refused(ana.post("/api/categories", {"name": "Other", "words": WORDS + [text]}), "each word")
        refused(ana.request("PUT", f"/api/categories/{category['id']}", {"name": "Mine", "words": WORDS[1:] + [text]}),
                "each word")
        refused(ana.post("/api/reminders", {"title": text, "start": in_hours(3)}), "title")
        refused(ana.post("/api/reminders", {"place": text, "start": in_hours(3)}), "place")
    # Nothing changed: the same name, one category with its words, one reminder.
    assert ana.get("/api/me")[2]["name"] == "Ana"
    assert ana.get("/api/categories")[2]["categories"] == [category]
    assert [r["id"] for r in ana.get("/api/reminders")[2]["reminders"]] == [reminder["id"]]
    # Tabs and newlines at the ends are trimmed, as spaces are; white space inside a word is one space.
    assert ana.request("PATCH", "/api/me", {"name": "\tBea\n"})[2]["name"] == "Bea"
    status, _, spaced = ana.post("/api/categories", {"name": "Spaced", "words": WORDS[:-1] + ["ice\t\tcream"]})
    assert status == 201 and "ice cream" in spaced["words"], spaced


def test_texts_are_limited_in_bytes_as_well_as_characters(server):
    ana = Client(server.url)
    ana.join("Ana")
    assert len(HEAVY.encode()) > 300  # one character as people count, 301 bytes
    assert "bytes" in refused(ana.request("PATCH", "/api/me", {"name": HEAVY}), "name")
    assert "bytes" in refused(ana.post("/api/categories", {"name": "Heavy", "words": WORDS + [HEAVY]}), "each word")
    assert "bytes" in refused(ana.post("/api/reminders", {"title": HEAVY * 3, "start": in_hours(3)}), "title")
    # 500 words of 40 characters each fit as characters, but not as 1 MB of marks: the category's
    # words have a total in bytes.
    heavy_words = [f"{i:03d}" + "e\u0301" * 18 for i in range(500)]
    assert all(len(w) <= 40 for w in heavy_words)
    status, _, payload = ana.post("/api/categories", {"name": "Padded", "words": heavy_words})
    assert status == 400 and "bytes together" in payload["error"]["message"], payload
    assert ana.get("/api/categories")[2]["categories"] == []
    # Accents and emoji within the limits are kept exactly.
    assert ana.request("PATCH", "/api/me", {"name": "Zoë 🎲 Ñandú"})[2]["name"] == "Zoë 🎲 Ñandú"
