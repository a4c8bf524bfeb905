"""Rate limits and quotas as a script meets them: `guesswork serve` with its standard limits
answers a flood of new players, games or moves with 429 and Retry-After (a person never meets
them), and the per-player limits of categories and reminders hold under creations at once,
on SQLite and on PostgreSQL."""
import os
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from datetime import datetime, timedelta, timezone

import pytest

from support.server import Client, Server

POSTGRES_URL = os.environ.get("GUESSWORK_TEST_POSTGRES_URL")
DATABASES = ["sqlite"] + (["postgres"] if POSTGRES_URL else [])
STANDARD = {"GUESSWORK_RATE_LIMITS": ""}  # the setting given but empty: the standard limits


def test_a_flood_of_players_games_or_moves_gets_429_with_retry_after():
    with Server(env=STANDARD) as server:
        clients = [Client(server.url) for _ in range(25)]
        statuses = [client.post("/api/players", {"name": f"P{i}"}) for i, client in enumerate(clients)]
        assert [s[0] for s in statuses[:20]] == [201] * 20, "a household's worth of players is fine"
        status, headers, payload = statuses[20]
        assert status == 429 and payload["error"]["code"] == "too-many-requests", payload
        assert int(headers["Retry-After"]) >= 1
        assert all(s[0] == 429 for s in statuses[21:])
        # Games and moves are limited per player: another player is not slowed by the first.
        ana, bea = clients[0], clients[1]
        started = [ana.post("/api/games", {"game": "number"})[0] for _ in range(35)]
        assert started[:30] == [201] * 30 and 429 in started[30:], started
        game = bea.start_game("number", {"low": 0, "high": 9999, "attempts": 20})
        answers = []
        for _ in range(150):
            status, headers, reply = bea.post(f"/api/games/{game['id']}/actions",
                                              {"action": {"type": "digit", "digit": 1}, "version": game["version"]})
            answers.append(status)
            if status == 200:
                game = reply
            elif status == 429:
                assert int(headers["Retry-After"]) >= 1
                break
        assert answers[-1] == 429 and len(answers) > 50, answers
        # The refused move changed nothing.
        assert bea.get(f"/api/games/{game['id']}")[2]["version"] == game["version"]


@pytest.mark.parametrize("database", DATABASES)
def test_the_last_places_for_unfinished_games_are_taken_once_under_new_games_at_once(database):
    """95 unfinished games, then 20 new ones asked for at once: 5 are made, 15 refused. On
    PostgreSQL half of them go to a second instance on the same database."""
    url = POSTGRES_URL if database == "postgres" else None
    with Server(database_url=url) as one, Server(database_url=url) if url else nullcontext(one) as two:
        ana = Client(one.url)
        ana.join("Ana")
        for _ in range(95):
            ana.start_game("color-match")
        # The same browser on the other instance (cookies do not name a port).
        elsewhere = Client(two.url)
        for cookie in ana.cookies:
            elsewhere.cookies.set_cookie(cookie)
        with ThreadPoolExecutor(20) as pool:
            answers = list(pool.map(
                lambda i: (ana if i % 2 else elsewhere).post("/api/games", {"game": "number"}), range(20)))
        statuses = [status for status, _, _ in answers]
        assert statuses.count(201) == 5 and statuses.count(429) == 15, statuses
        assert all(reply["error"]["code"] == "too-many-unfinished-games"
                   for status, _, reply in answers if status == 429)
        # Every game made is there, and no other.
        for status, _, reply in answers:
            if status == 201:
                assert ana.get(f"/api/games/{reply['id']}")[0] == 200
        assert ana.post("/api/games", {"game": "number"})[0] == 429


def in_hours(hours):
    return (datetime.now(timezone.utc) + timedelta(hours=hours)).isoformat(timespec="seconds")


@pytest.mark.parametrize("database", DATABASES)
def test_category_and_reminder_limits_hold_under_creations_at_once(database):
    with Server(database_url=POSTGRES_URL if database == "postgres" else None) as server:
        ana = Client(server.url)
        ana.join("Ana")
        words = [f"thing {chr(97 + i)}" for i in range(12)]
        for i in range(45):
            assert ana.post("/api/categories", {"name": f"Cat {i}", "words": words})[0] == 201
        with ThreadPoolExecutor(20) as pool:
            made = list(pool.map(lambda i: ana.post("/api/categories", {"name": f"Rush {i}", "words": words})[0],
                                 range(20)))
        assert made.count(201) == 5 and made.count(400) == 15, made
        assert len(ana.get("/api/categories")[2]["categories"]) == 50
        for i in range(95):
            assert ana.post("/api/reminders", {"start": in_hours(2 + i)})[0] == 201
        with ThreadPoolExecutor(20) as pool:
            made = list(pool.map(lambda i: ana.post("/api/reminders", {"start": in_hours(200 + i)})[0], range(20)))
        assert made.count(201) == 5 and made.count(400) == 15, made
        assert len(ana.get("/api/reminders")[2]["reminders"]) == 100


def test_a_player_may_have_a_bounded_number_of_unfinished_games():
    with Server() as server:
        ana = Client(server.url)
        ana.join("Ana")
        games = [ana.start_game("color-match") for _ in range(100)]
        status, headers, payload = ana.post("/api/games", {"game": "number"})
        assert status == 429 and payload["error"]["code"] == "too-many-unfinished-games", payload
        assert int(headers["Retry-After"]) >= 1 and "finish one" in payload["error"]["message"]
        # Finishing one makes room for one.
        ana.act(games[0], {"type": "quit"})
        assert ana.post("/api/games", {"game": "number"})[0] == 201
        assert ana.post("/api/games", {"game": "number"})[0] == 429
        # Another player is not held back.
        bea = Client(server.url)
        bea.join("Bea")
        assert bea.post("/api/games", {"game": "number"})[0] == 201
