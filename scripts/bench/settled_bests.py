#!/usr/bin/env python3
"""How many of a player's finishes ask PostgreSQL for their recent bests, once their tally is
settled: each build given gets a fresh database and one player, who plays 10 Number games by
halving, waits two minutes (a tally takes only games a minute old), opens their statistics
(which settles the tally), then plays 40 more. Prints, for each build, the settled best, how
many of the 40 beat it, and how many `recentBests` queries PostgreSQL ran for them.

Needs a PostgreSQL with pg_stat_statements preloaded (`shared_preload_libraries`), given by
an admin URL (a database this script may create databases from):

    python3 scripts/bench/settled_bests.py postgres://postgres@127.0.0.1:PORT/postgres BIN...

The builds run side by side, so the whole takes about two and a half minutes.
"""
import json
import os
import subprocess
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the benchmark's own helpers, next to this file)
from reads_ab import recreate  # noqa: E402

RECENT_BESTS = "SELECT variant, MAX(score)%"


def psql(url, sql):
    return subprocess.run(
        ["psql", url, "-Atc", sql], capture_output=True, text=True, check=True
    ).stdout.strip()


def play(url, cookie, games):
    """Plays `games` Number games to the end by halving; answers their scores."""
    scores = []
    for _ in range(games):
        _, game = run.post(url, "/api/games",
                           '{"game":"number","settings":{"low":0,"high":9999,"attempts":20}}',
                           cookie)
        while not game["isOver"]:
            view = game["view"]
            action = {"action": {"type": "guess",
                                 "number": (view["knownLow"] + view["knownHigh"]) // 2},
                      "version": game["version"]}
            _, game = run.post(url, f"/api/games/{game['id']}/actions", json.dumps(action), cookie)
        scores.append(game["score"])
    return scores


def measure(admin, binary, database, results):
    url_db = admin.rsplit("/", 1)[0] + "/" + database
    recreate(url_db)
    psql(url_db, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    queries = (
        "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s "
        "JOIN pg_database d ON d.oid = s.dbid "
        f"WHERE d.datname = current_database() AND query LIKE '{RECENT_BESTS}'")
    process, url, _ = run.start_server(binary, url_db)
    try:
        cookie, _ = run.post(url, "/api/players", '{"name":"Settled"}')
        first = play(url, cookie, 10)
        time.sleep(125)
        urllib.request.urlopen(urllib.request.Request(
            url + "/api/me/stats", headers={"Cookie": cookie})).read()
        before = int(psql(url_db, queries))
        later = play(url, cookie, 40)
        asked = int(psql(url_db, queries)) - before
    finally:
        process.kill()
    results[binary] = (
        f"settled best {max(first)}; of 40 finishes, {sum(s > max(first) for s in later)} "
        f"beat it; recentBests queries: {asked}")


def main():
    admin, binaries = sys.argv[1], sys.argv[2:]
    results = {}
    threads = [threading.Thread(target=measure, args=(admin, b, f"settled_bests{i}", results))
               for i, b in enumerate(binaries)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for binary in binaries:
        print(f"{binary}: {results.get(binary, 'failed')}")


if __name__ == "__main__":
    main()
