"""The SQLite hot path under a mix a game night makes: moves, committed on the event loop that
reads them, and new players, written by the pool's own transactions, which hold SQLite's write
lock across hops through an event loop. Neither may wait for the other: a move's commit that
waited for the lock on the pool's loop would stop both until SQLite's busy timeout (5 s), and
then fail."""
import threading
import time

from support.server import Client, Server

SECONDS = 3


def play(url, end, counts, failures):
    """Number games played by halving until `end`, each move counted."""
    try:
        player = Client(url)
        player.join("Mover")
        while time.monotonic() < end:
            game = player.start_game("number", {"low": 0, "high": 9999, "attempts": 20})
            while not game["isOver"] and time.monotonic() < end:
                game = player.halve(game)
                counts["moves"] += 1
    except Exception as error:  # noqa: BLE001 (any failure is the test's finding)
        failures.append(f"mover: {error!r}")


def join(url, end, counts, failures):
    """New players, one after another, until `end`."""
    try:
        while time.monotonic() < end:
            Client(url).join("Newcomer")
            counts["players"] += 1
    except Exception as error:  # noqa: BLE001
        failures.append(f"joiner: {error!r}")


def test_moves_and_new_players_at_once_both_go_on():
    with Server() as server:
        counts, failures = {"moves": 0, "players": 0}, []
        end = time.monotonic() + SECONDS
        threads = [threading.Thread(target=play, args=(server.url, end, counts, failures))
                   for _ in range(6)]
        threads += [threading.Thread(target=join, args=(server.url, end, counts, failures))
                    for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        # A move stuck behind the lock is answered with a 500 once the busy timeout ends.
        assert failures == []
        assert counts["moves"] > 0 and counts["players"] > 0, counts
