"""Guess or Pass words end to end: `guesswork words` against a Datamuse stand-in on loopback,
the server's background refresh (once a day, failures logged in one line), rounds that play
whatever Datamuse does, and the .ics of a reminder read by a real iCalendar parser."""
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import icalendar
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from server import Client, Server, binary, free_port  # noqa: E402

NORMAL = [{"word": w, "score": 100 - i} for i, w in enumerate(
    ["aardwolves", "Buses", "hot dogs", "dog", "three word thing", "mp3", "species", "wolves", "dugongs"])]


class FakeDatamuse:
    """A Datamuse stand-in: `mode` is normal, empty, malformed, slow or busy (429)."""

    def __init__(self, mode="normal"):
        self.mode = mode
        self.requests = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                url = urlparse(self.path)
                fake.requests.append({k: v[0] for k, v in parse_qs(url.query).items()})
                if url.path != "/words":
                    return self.answer(404, b"[]")
                if fake.mode == "slow":
                    time.sleep(8)
                body = {"normal": json.dumps(NORMAL).encode(), "empty": b"[]", "malformed": b"{not json",
                        "slow": b"[]", "busy": b'{"error": "slow down"}'}[fake.mode]
                self.answer(429 if fake.mode == "busy" else 200, body)

            def answer(self, status, body):
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except OSError:
                    pass

            def log_message(self, *args):
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def close(self):
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def fake():
    server = FakeDatamuse()
    yield server
    server.close()


def words(*args, data_dir, env=None):
    return subprocess.run([binary(), "words", *args, "--data-dir", data_dir], capture_output=True, text=True,
                          timeout=60, env={**os.environ, **(env or {})})


def test_words_command_lists_refreshes_and_adds(fake, tmp_path):
    data = str(tmp_path)
    listed = words("list", "animals", data_dir=data)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines()[0].split() == ["dog", "bundled"]
    assert listed.stdout.strip().endswith("bundled, 0 stored")

    refreshed = words("refresh", "--datamuse-url", fake.url, data_dir=data)
    assert refreshed.returncode == 0, refreshed.stdout + refreshed.stderr
    lines = refreshed.stdout.splitlines()
    # A progress line per category, in the seed's order.
    assert [line.split()[0] for line in lines] == ["animals", "food", "sports", "technology", "music", "nature"]
    assert "words from Datamuse" in lines[0]
    asked = {r["ml"]: r for r in fake.requests}
    assert asked["dog"] == {"ml": "dog", "topics": "animals,zoo,pets", "max": "1000"}
    assert asked["tree"]["topics"] == "nature,environment,outdoors"

    listed = words("list", "animals", data_dir=data).stdout.splitlines()
    stored = {line.split()[0]: line.split()[-1] for line in listed[:-1]}
    for word in ("aardwolf", "bus", "species", "dugong"):
        assert stored.get(word) == "datamuse", (word, listed[-8:])
    assert stored["wolf"] == "bundled"
    assert "mp3" not in stored and "buse" not in stored and "bu" not in stored
    assert "hot dog" in "\n".join(listed)

    added = words("add", "animals", "zebra finches", "mp3", "Quokka", data_dir=data)
    assert added.returncode == 0, added.stderr
    assert "2 words added" in added.stdout and '"mp3"' in added.stdout
    plain = words("list", "animals", "--plain", data_dir=data).stdout.splitlines()
    assert "zebra finch" in plain and "quokka" in plain and len(plain) == len(set(plain))

    fake.mode = "busy"
    failed = words("refresh", "food", "--datamuse-url", fake.url, data_dir=data)
    assert failed.returncode == 1 and "429" in failed.stdout and "stay in use" in failed.stdout
    assert words("list", "nope", data_dir=data).returncode != 0


@pytest.mark.parametrize("mode", ["normal", "busy", "malformed", "empty"])
def test_the_server_refreshes_in_the_background_and_plays_whatever_datamuse_does(mode, tmp_path):
    fake = FakeDatamuse(mode)
    env = {"GUESSWORK_DATAMUSE": "on", "GUESSWORK_DATAMUSE_URL": fake.url}
    try:
        with Server(data_dir=str(tmp_path), env=env) as server:
            player = Client(server.url)
            player.join("Dee")
            # A round plays at once: the refresh never sits in the request path.
            game = player.start_game("guess-or-pass", {"duration": 30}, category="animals")
            deadline = time.time() + 15
            # Six categories in English, and the same six in Spanish (v=es, Spanish seed words).
            while len(fake.requests) < 12 and time.time() < deadline:
                time.sleep(0.1)
            assert len(fake.requests) == 12, fake.requests
            spanish = [r for r in fake.requests if r.get("v") == "es"]
            assert len(spanish) == 6, fake.requests
            assert {r["ml"] for r in spanish} >= {"perro", "árbol", "guitarra"}, spanish
            time.sleep(0.5)
            log = server.read_log()
            catalog = {c["id"]: c["words"] for c in player.get("/api/catalog")[2]["categories"]}
            if mode == "normal":
                assert catalog["animals"] > 200
            else:
                # One line per category, naming what went wrong; the bundled words stay.
                failures = [line for line in log.splitlines() if "words: " in line and "stay in use" in line]
                assert len(failures) == 12, log
                assert all(catalog[c] >= 200 for c in catalog)
            game = player.act(game, {"type": "end"})
            assert game["isOver"]
        # Started again the same day: nobody asks Datamuse again.
        asked = len(fake.requests)
        with Server(data_dir=str(tmp_path), env=env):
            time.sleep(1.5)
        assert len(fake.requests) == asked
    finally:
        fake.close()


def test_a_round_plays_while_datamuse_is_unreachable_or_slow(tmp_path):
    slow = FakeDatamuse("slow")
    closed = f"http://127.0.0.1:{free_port()}"
    try:
        for url in (closed, slow.url):
            with Server(env={"GUESSWORK_DATAMUSE": "on", "GUESSWORK_DATAMUSE_URL": url}) as server:
                player = Client(server.url)
                player.join("Eve")
                started = time.time()
                game = player.start_game("guess-or-pass", {"duration": 30}, category="music")
                assert time.time() - started < 2
                deadline = time.time() + 8
                while game["view"]["phase"] != "playing":
                    assert time.time() < deadline
                    time.sleep(0.2)
                    game = {**game, **player.get(f"/api/games/{game['id']}")[2]}
                game = player.act(game, {"type": "guessed"})
                game = player.act(game, {"type": "end"})
                assert game["isOver"] and game["view"]["guessed"]
    finally:
        slow.close()


def test_reminder_ics_read_by_a_real_icalendar_parser(tmp_path):
    with Server() as server:
        ana = Client(server.url)
        ana.join("Ana")
        zone = timezone(timedelta(hours=2))
        start = (datetime.now(timezone.utc) + timedelta(days=2)).astimezone(zone).replace(second=0, microsecond=0)
        title = "Game night 🥳, with; commas\\and a very long title that must fold"
        status, _, made = ana.post("/api/reminders", {"title": title[:80], "start": start.isoformat(),
                                                      "place": "Café Zürich, Bahnhofstrasse 1; 2nd floor",
                                                      "latitude": 47.37, "longitude": 8.54})
        assert status == 201, made
        status, headers, raw = ana.get(made["icsURL"])
        assert status == 200 and headers["Content-Type"].startswith("text/calendar")
        assert "attachment" in headers.get("Content-Disposition", "")
        # RFC 5545: CRLF everywhere, no line over 75 octets.
        assert raw.endswith(b"\r\n") and b"\n" not in raw.replace(b"\r\n", b"")
        assert all(len(line) <= 75 for line in raw.split(b"\r\n"))
        calendar = icalendar.Calendar.from_ical(raw)
        events = list(calendar.walk("VEVENT"))
        assert len(events) == 1
        event = events[0]
        assert event.decoded("DTSTART") == start
        assert str(event["SUMMARY"]) == title[:80]
        assert str(event["LOCATION"]) == "Café Zürich, Bahnhofstrasse 1; 2nd floor"
        assert (event["GEO"].latitude, event["GEO"].longitude) == (47.37, 8.54)
        alarms = list(event.walk("VALARM"))
        assert len(alarms) == 1
        assert alarms[0].decoded("TRIGGER") == timedelta(hours=-1)
        assert str(alarms[0]["ACTION"]) == "DISPLAY"
        assert event.decoded("DTSTART") + alarms[0].decoded("TRIGGER") == datetime.fromtimestamp(
            made["alarmAt"] / 1000, timezone.utc)
