"""What an operator scrapes: /metrics in Prometheus's text format, on a port of its own, parsed
by Prometheus's own Python client, on SQLite and on PostgreSQL."""
import json
import os
import time
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import connect

from support.server import Client, Server, free_port

POSTGRES_URL = os.environ.get("GUESSWORK_TEST_POSTGRES_URL")
DATABASES = ["sqlite"] + (["postgres"] if POSTGRES_URL else [])


def scrape(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as r:
        assert r.status == 200
        assert r.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = r.read().decode()
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels):
    return samples.get((name, tuple(sorted(labels.items()))), 0)


@pytest.mark.parametrize("database", DATABASES)
def test_metrics_count_requests_play_batches_and_caches(database):
    metrics_port = free_port()
    server = Server(
        database_url=POSTGRES_URL if database == "postgres" else None,
        env={"GUESSWORK_METRICS_PORT": str(metrics_port)},
    )
    with server:
        before = scrape(metrics_port)
        player = Client(server.url)
        player.join("Operator")
        game = player.start_game("number", {"attempts": 20})
        moves = 0
        while not game["isOver"]:
            game = player.halve(game)
            moves += 1
        # A stale move: refused, and counted under its status.
        stale = {**game, "version": 0}
        player.act(stale, {"type": "guess", "number": 1}, expect=409)
        route = "/api/games/{id}/actions"
        # A request is counted and timed when its handler returns, before its answer is
        # written: every answered move is in the first scrape after it.
        after = scrape(metrics_port)

        def grew(name, **labels):
            return value(after, name, **labels) - value(before, name, **labels)

        assert grew("guesswork_http_requests_total", http_route=route,
                    http_request_method="POST", http_response_status_code="200") == moves
        assert grew("guesswork_http_requests_total", http_route=route,
                    http_request_method="POST", http_response_status_code="409") == 1
        assert grew("guesswork_http_request_duration_seconds_count", http_route=route,
                    http_request_method="POST", http_response_status_code="200") == moves
        # A new game skips the router too, and is labelled as the router names its route.
        assert grew("guesswork_http_requests_total", http_route="/api/games",
                    http_request_method="POST", http_response_status_code="201") == 1
        # No request is being answered but the scrape itself, which has its own listener.
        assert ("guesswork_http_active_requests", (("http_request_method", "POST"),)) in after
        assert value(after, "guesswork_http_active_requests", http_request_method="POST") == 0
        assert grew("guesswork_games_started_total", game="number") == 1
        assert grew("guesswork_moves_total", game="number") == moves
        assert grew("guesswork_games_finished_total", game="number") == 1
        assert grew("guesswork_games_finished_total", game="bullseye") == 0
        # Every new game and move went through the hot path's batches.
        assert grew("guesswork_write_batch_size_count", database=database) >= moves
        assert grew("guesswork_write_batch_size_sum", database=database) == moves + 1
        # The caches are measured at each scrape: the finished game is no longer live, and the
        # states decoded for it are.
        assert ("guesswork_cache_bytes", (("cache", "live_games"),)) in after
        # The won game was judged against its player's tally, which is kept for their next.
        assert game["score"] > 0
        assert value(after, "guesswork_cache_entries", cache="known_tallies") == 1
        assert value(after, "guesswork_cache_bytes", cache="known_tallies") > 0
        # And so is its score, the best of its kind that instance has seen this player make.
        assert value(after, "guesswork_cache_entries", cache="recent_bests") == 1
        assert value(after, "guesswork_cache_bytes", cache="recent_bests") > 0
        # A statistics answer is kept once read.
        assert player.get("/api/me/stats")[0] == 200
        kept = scrape(metrics_port)
        assert value(kept, "guesswork_cache_entries", cache="statistics_answers") >= 1
        assert value(kept, "guesswork_cache_bytes", cache="statistics_answers") > 0
        # So is the answer to a read of a game in play (of an untimed game: a Number game).
        assert value(kept, "guesswork_cache_entries", cache="read_replies") == 0
        playing = player.start_game("number")
        assert player.get(f"/api/games/{playing['id']}")[0] == 200
        read = scrape(metrics_port)
        assert value(read, "guesswork_cache_entries", cache="read_replies") == 1
        assert value(read, "guesswork_cache_bytes", cache="read_replies") > 0
        assert value(after, "guesswork_cache_entries", cache="decoded_states_number") >= 1
        assert value(after, "guesswork_cache_bytes", cache="decoded_states_number") > 0
        # Never on the public port.
        status, _, _ = player.get("/metrics")
        assert status == 404


def test_no_metrics_unless_asked():
    with Server() as server:
        assert "Metrics:" not in server.read_log()
        status, _, _ = Client(server.url).get("/metrics")
        assert status == 404


def test_the_metrics_port_listens_on_this_machine_only_by_default():
    metrics_port = free_port()
    with Server(env={"GUESSWORK_METRICS_PORT": str(metrics_port)}) as server:
        scrape(metrics_port)
        assert f"Metrics: http://127.0.0.1:{metrics_port}/metrics" in server.read_log()


@pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning")
def test_room_sockets_are_counted_while_open():
    metrics_port = free_port()
    with Server(env={"GUESSWORK_METRICS_PORT": str(metrics_port)}) as server:
        host = Client(server.url)
        host.join("Host")
        status, _, room = host.post("/api/rooms", {})
        assert status == 201, room
        phone = Client(server.url)
        phone.join("Phone")
        status, _, _ = phone.post(f"/api/rooms/{room['code']}/join", {})
        assert status == 200
        url = server.url.replace("http", "ws", 1) + f"/api/rooms/{room['code']}/socket?as="
        sockets = [
            connect(url + role, open_timeout=10, additional_headers={
                "Cookie": f"guesswork_player={client.cookie('guesswork_player')}"})
            for client, role in ((host, "screen"), (phone, "player"))
        ]
        for socket in sockets:  # the first view: the connection is counted by now
            assert json.loads(socket.recv(timeout=10))["type"] == "room"
        opened = scrape(metrics_port)
        assert value(opened, "guesswork_room_sockets") == 2
        assert value(opened, "guesswork_rooms_watched") == 1
        for socket in sockets:
            socket.close()
        deadline = time.monotonic() + 10
        while value(scrape(metrics_port), "guesswork_room_sockets") != 0:
            assert time.monotonic() < deadline, "the closed sockets are still counted"
            time.sleep(0.05)
        assert value(scrape(metrics_port), "guesswork_rooms_watched") == 0
