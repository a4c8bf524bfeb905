"""A round whose time runs out is recorded when it runs out, by the server's sweep, with nobody
reading it: on SQLite, and on PostgreSQL with two instances sweeping the same database (the
round is stored once)."""
import os
import sqlite3
import time

from support.server import Client, Server, psql

POSTGRES_URL = os.environ.get("GUESSWORK_TEST_POSTGRES_URL")


def sqlite_row(server, sql, *args):
    path = os.path.join(server.data_dir, "guesswork.sqlite")
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return db.execute(sql, args).fetchone()


def test_rounds_that_run_out_are_recorded_when_they_run_out():
    servers = [Server()]
    if POSTGRES_URL:
        servers += [Server(database_url=POSTGRES_URL), Server(database_url=POSTGRES_URL)]
    for server in servers:
        server.start()
    try:
        games = []
        for server in servers[:2]:
            player = Client(server.url)
            player.join("Ana")
            started_at = time.time()
            games.append((server, player.start_game("color-match", {"duration": 30}), started_at))
        # Nobody reads them again; the sweep runs every second.
        time.sleep(36)
        for server, game, started_at in games:
            if server.database_url:
                finished, version = psql(
                    server.database_url, f"SELECT finished_at, version FROM games WHERE id = '{game['id']}'").split("|")
            else:
                finished, version = sqlite_row(server, "SELECT finished_at, version FROM games WHERE id = ?",
                                               game["id"])
            assert finished, f"the round on {server.database_url or 'SQLite'} is not recorded"
            # Recorded within a few seconds of its end (a 3 s countdown, then 30 s).
            ended = started_at + 33
            assert abs(int(finished) / 1000 - ended) < 3, (int(finished) / 1000 - started_at)
            # Stored once (one version on), though two instances sweep PostgreSQL.
            assert int(version) == game["version"] + 1, version
    finally:
        for server in servers:
            server.stop()
            server.cleanup()
