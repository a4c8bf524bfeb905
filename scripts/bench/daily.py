"""The daily set at scale (scripts/bench-daily): leaderboards, statistics and finishing a daily
game on a database of 100,000 players with 100,000 and with 1,000,000 finished games.

For each size, the server first starts on an empty database, so that its own migrations make
the schema, and plays one game of each kind and one daily Number through the API (the first
size only): the fill copies those games' stored summaries, so that every filled game reads
back as a real one. The server stops, and the database is filled directly: players (each with
a known token), finished games over the five kinds and the last 60 days, half of them counted
daily Numbers (today's board holds tens of thousands of players), their daily plays, and the
leaderboards and streaks built from those plays with INSERT ... SELECT ... GROUP BY as the
server would have built them one result at a time. Then the server starts again and wrk
measures, at the same concurrency and in each run:

(a) GET /ping, which touches nothing: the framework's ceiling on this machine;
(b) GET /api/daily/number/leaderboard?period=day (today) and ?period=all, as 1,000 different
    filled players in turn, so that each answer also ranks its player ("you");
(c) GET /api/me/stats: first reads (every request a player read for the first time, whose
    answer folds all of that player's finished games into the stored tally), then second
    reads (1,000 players already read, whose tally is up to date);
(d) finishing today's daily Number: new players started it before the run (POST /api/players,
    POST /api/daily/number), the day's secret was learnt by playing one to the end, and each
    request guesses it, which wins, finishes the game and records the result in the day's,
    week's and all-time leaderboards and the streaks.

Medians of the runs; each measurement's ratio to the ceiling of its own run; and the cost growth
from the small to the large size, as the small size's ratio over the large size's.
"""
import argparse
import concurrent.futures
import csv
import datetime
import hashlib
import http.client
import json
import os
import random
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

from harness import free_port, parse_wrk, peak_rss_mb, start_wrk


def wrk(url, connections, seconds, script=None, script_args=()):
    """One wrk against one server, its answer parsed."""
    return parse_wrk(start_wrk(url, connections, seconds, script, script_args))

DAY_MS = 86_400_000
KINDS = ["number", "color-match", "bullseye", "guess-or-pass", "picture-quiz"]
# Scores of the filled ordinary games are drawn from 0...these (roughly each game's range).
MAX_SCORE = {"number": 5, "color-match": 3000, "bullseye": 500, "guess-or-pass": 15, "picture-quiz": 8}
SIZES = [("small", 100_000, 100_000), ("large", 100_000, 1_000_000)]
SMOKE_SIZES = [("small", 2_000, 2_000), ("large", 2_000, 20_000)]
# The players whose cookies the leaderboard reads and the second statistics reads rotate over.
ROTATED = 1_000


# ---------------------------------------------------------------------------------------------
# The server and its API


class Server:
    """`guesswork serve` on a free loopback port, its log in `log`."""

    def __init__(self, binary, data_dir, database_url):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = os.path.join(data_dir, f"server-{self.port}.log")
        args = [binary, "serve", "--port", str(self.port), "--data-dir", data_dir, "--log-level", "error"]
        if database_url:
            args += ["--database-url", database_url]
        # The benchmarks measure what the server can do: no rate limits (a person never meets them).
        # Every load client is one address: the per-client cap of sockets is lifted with the limits.
        env = dict(os.environ, GUESSWORK_DATAMUSE="off", GUESSWORK_RATE_LIMITS="off",
                   GUESSWORK_SOCKETS_PER_CLIENT="1000000")
        started = time.perf_counter()
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env)
        while True:
            try:
                with urllib.request.urlopen(self.url + "/ping", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                if self.process.poll() is not None:
                    sys.exit(f"the server did not start: {open(self.log).read()[-2000:]}")
                time.sleep(0.01)
        self.start_seconds = time.perf_counter() - started

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def log_lines(self):
        """What the server wrote at log level error, but its "ready" line."""
        with open(self.log, errors="replace") as f:
            return [line.rstrip() for line in f if line.strip() and not line.startswith("Guesswork is ready")]


class Api:
    """One keep-alive connection to the server, as one player (its cookie kept)."""

    def __init__(self, url, cookie=None):
        host, port = urllib.parse.urlsplit(url)[1].split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=60)
        self.cookie = cookie

    def request(self, method, path, body=None):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if self.cookie:
            headers["Cookie"] = self.cookie
        self.connection.request(method, path, None if body is None else json.dumps(body), headers)
        answer = self.connection.getresponse()
        data = answer.read()
        cookie = answer.getheader("Set-Cookie")
        if cookie and cookie.startswith("guesswork_player="):
            self.cookie = cookie.split(";")[0]
        return answer.status, json.loads(data) if data else None

    def expect(self, status, method, path, body=None):
        got, reply = self.request(method, path, body)
        if got != status:
            sys.exit(f"{method} {path} answered {got}, not {status}: {reply}")
        return reply

    def join(self, name):
        self.cookie = None
        self.expect(201, "POST", "/api/players", {"name": name})

    def act(self, game, action):
        return self.expect(200, "POST", f"/api/games/{game['id']}/actions",
                           {"version": game["version"], "action": action})

    def halve(self, game):
        """Plays a Number game to its end by halving the known range."""
        while not game["isOver"]:
            view = game["view"]
            game = self.act(game, {"type": "guess", "number": (view["knownLow"] + view["knownHigh"]) // 2})
        return game


def token(player):
    """The token of filled player `player`: 43 characters, as the server's are."""
    return f"benchplayer{player:032d}"


def cookie(player):
    return f"guesswork_player={token(player)}"


def day_of(date):
    return (datetime.date.fromisoformat(date) - datetime.date(1970, 1, 1)).days


def play_real_games(url):
    """One game of each kind to its end, and one daily Number, through the API: the fill copies
    their stored summaries. Returns the launch day and the variants to fill with."""
    api = Api(url)
    api.join("Setup")
    daily = api.expect(200, "GET", "/api/daily")
    catalog = api.expect(200, "GET", "/api/catalog")
    categories = [c["id"] for c in catalog["categories"] if not c.get("custom")]
    decks = [d["id"] for d in catalog["decks"] if d["playable"]]
    api.halve(api.expect(201, "POST", "/api/daily/number", {}))
    api.halve(api.expect(201, "POST", "/api/games", {"game": "number"}))
    game = api.expect(201, "POST", "/api/games", {"game": "bullseye"})
    while not game["isOver"]:
        game = api.act(game, {"type": "check", "guess": {"r": 200, "g": 100, "b": 50}})
        if not game["isOver"]:
            game = api.act(game, {"type": "next"})
    game = api.expect(201, "POST", "/api/games", {"game": "picture-quiz", "deck": decks[0]})
    while not game["isOver"]:
        game = api.act(game, {"type": "choose", "choice": 0})
        if not game["isOver"]:
            game = api.act(game, {"type": "next"})
    # The timed games count down first (3 s and 5 s): both wait at once.
    colours = api.expect(201, "POST", "/api/games",
                         {"game": "color-match", "settings": {"duration": 30, "feedbackMs": 0}})
    words = api.expect(201, "POST", "/api/games",
                       {"game": "guess-or-pass", "category": categories[0], "settings": {"duration": 30}})
    for game, phase, actions, last in ((colours, "trial", [{"type": "answer", "match": True, "reactionMs": 480}] * 6,
                                        {"type": "quit"}),
                                       (words, "playing", [{"type": "guessed"}, {"type": "pass"}] * 3,
                                        {"type": "end"})):
        deadline = time.time() + 15
        while game["view"]["phase"] != phase:
            if time.time() > deadline:
                sys.exit(f"{game['game']} never reached {phase}")
            time.sleep(0.2)
            game = api.expect(200, "GET", f"/api/games/{game['id']}")
        for action in actions:
            game = api.act(game, action)
        if not api.act(game, last)["isOver"]:
            sys.exit(f"{game['game']} did not end")
    return day_of(daily["launch"]), {"guess-or-pass": categories, "picture-quiz": decks}


def in_parallel(count, work, threads=8):
    """work(i) for i in 0..<count, on `threads` threads (in no particular order)."""
    def worker(part):
        return [work(i) for i in range(part, count, threads)]
    with concurrent.futures.ThreadPoolExecutor(threads) as pool:
        return [result for part in pool.map(worker, range(threads)) for result in part]


class Connections(threading.local):
    """One keep-alive connection per thread."""

    def __init__(self, url):
        self.api = Api(url)


def prestart(url, count, prefix, connections):
    """Starts today's daily Number for `count` new players and writes the games, as
    "cookie|game-id" lines, to one file per wrk connection (prefix.0, prefix.1, ...)."""
    local = Connections(url)

    def start(i):
        api = local.api
        api.join("Finisher")
        game = api.expect(201, "POST", "/api/daily/number", {})
        return f"{api.cookie}|{game['id']}"
    started = time.perf_counter()
    games = in_parallel(count, start)
    files = [open(f"{prefix}.{i}", "w") for i in range(connections)]
    for i, line in enumerate(games):
        files[i % connections].write(line + "\n")
    for f in files:
        f.close()
    return time.perf_counter() - started


def learn_secret(url):
    """Today's Number secret (the same for every player): a new player plays it to the end."""
    api = Api(url)
    api.join("Learner")
    game = api.halve(api.expect(201, "POST", "/api/daily/number", {}))
    return game["summary"]["secret"]


def board_players(url, period="day"):
    return Api(url).expect(200, "GET", f"/api/daily/number/leaderboard?period={period}")["players"]


# ---------------------------------------------------------------------------------------------
# The databases


class SQLiteDatabase:
    """The server's SQLite file, filled with Python's sqlite3 module while the server is stopped."""
    name = "SQLite"

    def __init__(self, data_dir):
        self.data_dir = data_dir
        self.path = os.path.join(data_dir, "guesswork.sqlite")
        self.url = None

    def rows(self, sql):
        con = sqlite3.connect(self.path)
        try:
            return con.execute(sql).fetchall()
        finally:
            con.close()

    def fill(self, players, games, plays, aggregates):
        con = sqlite3.connect(self.path, isolation_level=None)
        # No journal and no syncing while filling (a failed fill is thrown away); WAL again after.
        for pragma in ("journal_mode = OFF", "synchronous = OFF", "cache_size = -1048576",
                       "temp_store = MEMORY"):
            con.execute(f"PRAGMA {pragma}")
        timings = {}
        con.execute("BEGIN")
        for table, columns, rows in (("players", PLAYER_COLUMNS, players), ("games", GAME_COLUMNS, games),
                                     ("daily_plays", PLAY_COLUMNS, plays)):
            started = time.perf_counter()
            con.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                            rows)
            timings[table] = time.perf_counter() - started
        started = time.perf_counter()
        for statement in aggregates:
            con.execute(statement)
        con.execute("COMMIT")
        timings["boards and streaks"] = time.perf_counter() - started
        con.execute("PRAGMA journal_mode = WAL")
        con.close()
        return timings

    def size(self):
        return sum(os.path.getsize(os.path.join(self.data_dir, f)) for f in os.listdir(self.data_dir)
                   if f.startswith("guesswork.sqlite"))

    def drop(self):
        pass


class PostgresDatabase:
    """A new database on the throwaway cluster, filled with psql (COPY, then SQL)."""
    name = "PostgreSQL"

    def __init__(self, admin_url, base_url, name):
        self.admin_url = admin_url
        self.name_in_cluster = f"guesswork_bench_{name}"
        parts = urllib.parse.urlsplit(base_url)
        self.url = urllib.parse.urlunsplit(parts._replace(path="/" + self.name_in_cluster))
        self.psql(self.admin_url, f"DROP DATABASE IF EXISTS {self.name_in_cluster}")
        self.psql(self.admin_url, f"CREATE DATABASE {self.name_in_cluster}")

    @staticmethod
    def psql(url, sql, stdin=None):
        return subprocess.run(["psql", url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "--csv", "-c", sql],
                              input=stdin, capture_output=True, text=True, check=True).stdout

    def rows(self, sql):
        lines = list(csv.reader(self.psql(self.url, sql).splitlines()))[1:]
        return [tuple(int(v) if v.lstrip("-").isdigit() else v for v in row) for row in lines]

    def copy(self, table, columns, rows):
        process = subprocess.Popen(
            ["psql", self.url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c",
             f"COPY {table} ({', '.join(columns)}) FROM STDIN WITH (FORMAT csv)"],
            stdin=subprocess.PIPE, text=True)
        csv.writer(process.stdin).writerows(rows)
        process.stdin.close()
        if process.wait() != 0:
            sys.exit(f"COPY {table} failed")

    def fill(self, players, games, plays, aggregates):
        timings = {}
        for table, columns, rows in (("players", PLAYER_COLUMNS, players), ("games", GAME_COLUMNS, games),
                                     ("daily_plays", PLAY_COLUMNS, plays)):
            started = time.perf_counter()
            self.copy(table, columns, rows)
            timings[table] = time.perf_counter() - started
        started = time.perf_counter()
        self.psql(self.url, "BEGIN;\n" + ";\n".join(aggregates) + ";\nCOMMIT;")
        timings["boards and streaks"] = time.perf_counter() - started
        # What autovacuum would have done by the time a database has grown this big.
        started = time.perf_counter()
        self.psql(self.url, "VACUUM ANALYZE")
        timings["VACUUM ANALYZE"] = time.perf_counter() - started
        return timings

    def size(self):
        return self.rows("SELECT pg_database_size(current_database())")[0][0]

    def drop(self):
        self.psql(self.admin_url, f"DROP DATABASE IF EXISTS {self.name_in_cluster} WITH (FORCE)")


# ---------------------------------------------------------------------------------------------
# The fill

PLAYER_COLUMNS = ["id", "token_hash", "name", "preferences", "created_at", "updated_at"]
GAME_COLUMNS = ["id", "player_id", "kind", "variant", "settings", "seed", "state", "version", "created_at",
                "updated_at", "finished_at", "score", "summary", "daily_day", "daily_counted"]
PLAY_COLUMNS = ["kind", "day", "player_id", "game_id", "started_at", "finished_at", "score"]


def uuid_of(text):
    """A lowercase UUID-shaped id, as the server's, spread like random ones but repeatable."""
    h = hashlib.md5(text.encode()).hexdigest()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


class Layout:
    """Who played what and when, for `players` players and `games` finished games.

    Half the games are counted daily Numbers: today's for players 0...T-1 (T = half the players,
    or half the dailies when there are fewer), the rest spread over the days from launch
    (at most 60 days back) to yesterday, each day's players mostly the same as the day before's
    (streaks), at most one per player and day. The other half are ordinary games of the five
    kinds, over the last 60 days, each of a random player. All finished at least 2 minutes ago,
    so that the statistics take them all into the stored tally.
    """

    def __init__(self, players, games, today, launch, now):
        self.players, self.games, self.today, self.now = players, games, today, now
        self.first_day = max(launch, today - 59)
        self.other_days = today - self.first_day
        dailies = games // 2
        self.today_players = min(players // 2, dailies // 2) if self.other_days else min(players, dailies)
        capacity = self.today_players + self.other_days * players
        self.dailies = min(dailies, capacity)

    def player_rows(self):
        created = self.now - 90 * DAY_MS
        for i in range(self.players):
            yield (uuid_of(f"player-{i}"), hashlib.sha256(token(i).encode()).hexdigest(), f"Player {i}", "{}",
                   created + i, created + i)

    def daily(self, k):
        """The day and player of the k-th daily game."""
        if k < self.today_players:
            return self.today, k
        j = k - self.today_players
        day, q = j % self.other_days, j // self.other_days
        # Day d's players are q + 1013 d: consecutive days share most of their players.
        return self.first_day + day, (q + 1013 * day) % self.players

    def draws(self, variants):
        """(game, player, kind, variant, created, finished, score, seed, daily day) of every
        game, dailies first, drawn the same way every time."""
        rng = random.Random(self.games)
        latest = self.now - 120_000
        for i in range(self.games):
            if i < self.dailies:
                day, player = self.daily(i)
                start = day * DAY_MS
                finished = start + rng.randrange(max(1, min(DAY_MS, latest - start)))
                created = max(start, finished - rng.randrange(10_000, 300_000))
                yield (i, player, "number", None, created, finished, rng.choice((0, 0, 1, 2, 3, 4, 5)),
                       rng.getrandbits(62), day)
            else:
                kind = KINDS[rng.randrange(len(KINDS))]
                choices = variants.get(kind)
                finished = latest - rng.randrange(60 * DAY_MS)
                yield (i, rng.randrange(self.players), kind,
                       choices[rng.randrange(len(choices))] if choices else None,
                       finished - rng.randrange(10_000, 300_000), finished, rng.randint(0, MAX_SCORE[kind]),
                       rng.getrandbits(62), None)

    def game_rows(self, summaries, variants):
        for i, player, kind, variant, created, finished, score, seed, day in self.draws(variants):
            yield (uuid_of(f"game-{i}"), uuid_of(f"player-{player}"), kind, variant, "{}", seed, "{}", 1,
                   created, finished, finished, score, summaries["daily" if day is not None else kind],
                   day, None if day is None else 1)

    def play_rows(self):
        """The daily plays of the daily games (recorded, as they are finished)."""
        for i, player, kind, _, created, finished, score, _, day in self.draws({}):
            if day is None:
                return
            yield (kind, day, uuid_of(f"player-{player}"), uuid_of(f"game-{i}"), created, finished, score)


def aggregates(sets=len(KINDS)):
    """Each player's key (a token per device, as POST /api/players leaves it), then the
    leaderboards and streaks, rebuilt from every recorded daily play (the same SQL on SQLite and
    PostgreSQL), as DailySet.record would have left them one result at a time."""
    recorded = "SELECT * FROM daily_plays WHERE score IS NOT NULL"
    return [
        "DELETE FROM player_tokens",
        """INSERT INTO player_tokens (token_hash, player_id, created_at)
        SELECT token_hash, id, created_at FROM players""",
        "DELETE FROM daily_boards", "DELETE FROM daily_board_scores", "DELETE FROM daily_streaks",
        # The day's board: the score; updated when recorded.
        f"""INSERT INTO daily_boards (kind, period, player_id, score, updated_at)
        SELECT kind, 'd' || day, player_id, score, finished_at FROM ({recorded}) p""",
        # The week's: the sum; updated by each result but a 0 (which changes no sum).
        f"""INSERT INTO daily_boards (kind, period, player_id, score, updated_at)
        SELECT kind, 'w' || week, player_id, SUM(score),
          COALESCE(MAX(CASE WHEN score > 0 THEN finished_at END), MIN(finished_at))
        FROM (SELECT kind, (day + 3) / 7 AS week, player_id, score, finished_at FROM ({recorded}) r) p
        GROUP BY kind, week, player_id""",
        # All time: the best; updated when first reached.
        f"""INSERT INTO daily_boards (kind, period, player_id, score, updated_at)
        SELECT p.kind, 'all', p.player_id, p.score, MIN(p.finished_at)
        FROM ({recorded}) p JOIN (SELECT kind, player_id, MAX(score) AS best FROM ({recorded}) r
                                  GROUP BY kind, player_id) b
          ON b.kind = p.kind AND b.player_id = p.player_id AND b.best = p.score
        GROUP BY p.kind, p.player_id, p.score""",
        """INSERT INTO daily_board_scores (kind, period, score, players)
        SELECT kind, period, score, COUNT(*) FROM daily_boards GROUP BY kind, period, score""",
        # Streaks: runs of consecutive days per player and game (and "*", the days on which
        # every daily was finished); the current run is the one that ends on the last day.
        f"""CREATE TEMP TABLE bench_runs AS
        SELECT player_id, kind, COUNT(*) AS length, MAX(day) AS last FROM (
          SELECT player_id, kind, day, day - ROW_NUMBER() OVER (PARTITION BY player_id, kind ORDER BY day) AS run
          FROM (SELECT player_id, kind, day FROM ({recorded}) p
                UNION ALL
                SELECT player_id, '*', day FROM ({recorded}) p GROUP BY player_id, day HAVING COUNT(*) = {sets}) d
        ) r GROUP BY player_id, kind, run""",
        """INSERT INTO daily_streaks (player_id, kind, current, best, last_day, played)
        SELECT s.player_id, s.kind, c.length, s.best, s.last_day, s.played
        FROM (SELECT player_id, kind, MAX(length) AS best, MAX(last) AS last_day, SUM(length) AS played
              FROM bench_runs GROUP BY player_id, kind) s
        JOIN bench_runs c ON c.player_id = s.player_id AND c.kind = s.kind AND c.last = s.last_day""",
        "DROP TABLE bench_runs",
    ]


def real_summaries(db):
    """The summaries of the games play_real_games finished, by kind ("daily": the daily Number)."""
    summaries = {}
    for kind, counted, summary in db.rows(
            "SELECT kind, daily_counted, summary FROM games WHERE finished_at IS NOT NULL ORDER BY finished_at"):
        summaries["daily" if counted == 1 else kind] = summary
    missing = {"daily", *KINDS} - set(summaries)
    if missing:
        sys.exit(f"no real summary of {', '.join(sorted(missing))}")
    return summaries


# ---------------------------------------------------------------------------------------------
# Measuring


def read_result(path):
    with open(path) as f:
        return {k: int(v) for k, v in (pair.split("=") for pair in f.read().split())}


def measure(server, options, workdir, layout, secret, label):
    """The runs against one filled database: each measurement's wrk results, one per run, and notes."""
    c, s, url = options.connections, options.seconds, server.url
    rotated = min(ROTATED, layout.today_players, layout.players // 4)
    # The first statistics reads of run r: players from rotated + r * chunk, never read before.
    chunk = (layout.players - rotated) // options.runs
    result = os.path.join(workdir, "result")
    pairs = os.path.join(workdir, "games")
    notes = {"rotated": rotated, "rereads": 0, "prestart": [], "exhausted": 0, "notwon": 0}

    # The second statistics reads need players read before: read them once now.
    local = Connections(url)

    def read_stats(i):
        local.api.cookie = cookie(i)
        return local.api.request("GET", "/api/me/stats")[0]
    statuses = set(in_parallel(rotated, read_stats))
    if statuses != {200}:
        sys.exit(f"{label}: reading the rotated players' statistics answered {sorted(statuses)}")

    # How fast daily games finish, to start enough for each run: a short run, not counted.
    calibration = 400 if options.smoke else 2_000
    print(f"  {label}: calibrating the finish run ({calibration} games) ...", flush=True)
    prestart(url, calibration, pairs, c)
    wrk(url, c, 2, "daily_finish.lua", [pairs, str(secret), result])
    done = read_result(result)
    rate = calibration if done["exhausted"] else done["won"] / 2

    runs = {key: [] for key in NAMES}
    for r in range(options.runs):
        print(f"  {label}: run {r + 1} of {options.runs} ...", flush=True)
        runs["ceiling"].append(wrk(url + "/ping", c, s))
        for key, period in (("board-day", "day"), ("board-all", "all")):
            runs[key].append(wrk(url, c, s, "daily_players.lua",
                                 [f"/api/daily/number/leaderboard?period={period}", "0", str(rotated), str(c)]))
        runs["stats-first"].append(wrk(url, c, s, "daily_stats_first.lua",
                                       [str(rotated + r * chunk), str(chunk), str(c), result]))
        notes["rereads"] += read_result(result)["rereads"]
        runs["stats-again"].append(wrk(url, c, s, "daily_players.lua", ["/api/me/stats", "0", str(rotated), str(c)]))

        # Enough new games for the run; a run that used them all up is run again with more.
        for _ in range(3):
            count = int(rate * s * 1.5) + 8 * c
            notes["prestart"].append((count, prestart(url, count, pairs, c)))
            finish = wrk(url, c, s, "daily_finish.lua", [pairs, str(secret), result])
            done = read_result(result)
            rate = max(rate, done["won"] / s)
            if not done["exhausted"]:
                break
            rate *= 2
        finish["errors"] += done["notwon"]
        runs["finish"].append(finish)
        notes["exhausted"] += done["exhausted"]
        notes["notwon"] += done["notwon"]
    return runs, notes


NAMES = {
    "ceiling": "(a) GET /ping (ceiling)",
    "board-day": "(b) leaderboard, today (`period=day`)",
    "board-all": "(b) leaderboard, all time (`period=all`)",
    "stats-first": "(c) statistics, first read (folds the games)",
    "stats-again": "(c) statistics, second read",
    "finish": "(d) finishing today's daily Number",
}


def ratios(runs, key):
    """The measurement's rate over the ceiling's, run by run."""
    return [run["rps"] / ceiling["rps"] for run, ceiling in zip(runs[key], runs["ceiling"])]


def median(values):
    return statistics.median(values)


def table(runs):
    lines = ["| measurement | req/s | p50 ms | p99 ms | errors | / ceiling |", "|---|---|---|---|---|---|"]
    for key, name in NAMES.items():
        rows = runs[key]
        lines.append(f"| {name} | {median(r['rps'] for r in rows):,.0f} | {median(r['p50'] for r in rows):.2f} "
                     f"| {median(r['p99'] for r in rows):.2f} | {sum(r['errors'] for r in rows)} "
                     f"| {median(ratios(runs, key)):.2f} |")
    return lines


def run_size(options, db_factory, name, players, games, setup):
    """Fills one database and measures against it; returns what the report needs."""
    workdir = tempfile.mkdtemp(prefix=f"guesswork-bench-daily-{name}-")
    db = db_factory(workdir, name)
    label = f"{db.name}, {name}"
    print(f"\n{label}: {players:,} players, {games:,} finished games", flush=True)

    server = Server(options.binary, workdir, db.url)
    try:
        if "summaries" not in setup:
            print(f"  {label}: playing one game of each kind for real summaries ...", flush=True)
            setup["launch"], setup["variants"] = play_real_games(server.url)
    finally:
        server.stop()
    if "summaries" not in setup:
        setup["summaries"] = real_summaries(db)

    now = int(time.time() * 1000)
    today = now // DAY_MS
    layout = Layout(players, games, today, setup["launch"], now)
    print(f"  {label}: filling ({layout.dailies:,} daily Numbers, {layout.today_players:,} of them today) ...",
          flush=True)
    started = time.perf_counter()
    timings = db.fill(layout.player_rows(), layout.game_rows(setup["summaries"], setup["variants"]),
                      layout.play_rows(), aggregates())
    fill_seconds = time.perf_counter() - started
    size = db.size()
    counts = dict(zip(("players", "games", "boards", "streaks"), db.rows(
        "SELECT (SELECT COUNT(*) FROM players), (SELECT COUNT(*) FROM games WHERE finished_at IS NOT NULL),"
        " (SELECT COUNT(*) FROM daily_boards), (SELECT COUNT(*) FROM daily_streaks)")[0]))
    print(f"  {label}: filled in {fill_seconds:.1f} s ("
          + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()) + f"); {size / 2**20:,.0f} MB on disk",
          flush=True)
    expected = dict(db.rows(f"SELECT kind, COUNT(*) FROM games WHERE player_id = '{uuid_of('player-0')}'"
                            " AND finished_at IS NOT NULL GROUP BY kind"))
    streak = db.rows(f"SELECT current, best, played FROM daily_streaks WHERE player_id = '{uuid_of('player-0')}'"
                     " AND kind = 'number'")

    server = Server(options.binary, workdir, db.url)
    problems = []
    try:
        # The fill reads back as the server would have written it.
        api = Api(server.url, cookie(0))
        stats = {g["game"]: g for g in api.expect(200, "GET", "/api/me/stats")["games"]}
        played = {k: g["played"] for k, g in stats.items() if g["played"]}
        if played != expected:
            problems.append(f"player 0's statistics count {played}, the database {expected}")
        daily = stats["number"].get("daily")
        if streak and (not daily or (daily["best"], daily["played"]) != tuple(streak[0][1:])):
            problems.append(f"player 0's Number streak reads {daily}, the database {streak[0]}")
        board = api.expect(200, "GET", "/api/daily/number/leaderboard?period=day")
        if "you" not in board or len(board["entries"]) != min(20, board["players"]):
            problems.append(f"today's leaderboard for player 0: {json.dumps(board)[:300]}")
        today_board, all_board = board["players"], board_players(server.url, "all")
        secret = learn_secret(server.url)
        runs, notes = measure(server, options, workdir, layout, secret, label)
        rss = peak_rss_mb(server.process.pid)
        final_board = board_players(server.url)
    finally:
        server.stop()
    # A finish answers after recording the result, but a failed recording only leaves the play
    # to DailySet.catchUp: count what it would have to catch up.
    notes["unrecorded"] = db.rows(
        "SELECT COUNT(*) FROM daily_plays d JOIN games g ON g.id = d.game_id"
        " WHERE d.score IS NULL AND g.finished_at IS NOT NULL")[0][0]
    log = server.log_lines()
    if int(time.time() * 1000) // DAY_MS != today:
        problems.append("the UTC day changed during the runs: today's board was a new one after midnight")
    if not options.keep:
        db.drop()
        shutil.rmtree(workdir, ignore_errors=True)
    return dict(label=label, name=name, players=players, games=games, layout=layout, timings=timings,
                fill_seconds=fill_seconds, size=size, counts=counts, runs=runs, notes=notes, rss=rss,
                start=server.start_seconds, today_board=today_board, all_board=all_board,
                final_board=final_board, log=log, problems=problems)


def report(results, options):
    errors = 0
    for res in results:
        runs, notes, layout = res["runs"], res["notes"], res["layout"]
        print(f"\n### {res['label']}: {res['players']:,} players, {res['games']:,} finished games\n")
        print(f"Fill: {res['fill_seconds']:.1f} s ("
              + ", ".join(f"{k} {v:.1f} s" for k, v in res["timings"].items())
              + f"); database {res['size'] / 2**20:,.0f} MB on disk; "
              f"{res['counts']['boards']:,} board rows, {res['counts']['streaks']:,} streaks. "
              f"{layout.dailies:,} counted daily Numbers over {layout.other_days + 1} days; "
              f"today's board {res['today_board']:,} players at start ({res['final_board']:,} after the "
              f"finish runs), all time {res['all_board']:,}.")
        print(f"Server start to first answer {res['start'] * 1000:.0f} ms; peak RSS {res['rss']:.1f} MB; "
              f"{options.connections} connections, {options.seconds} s x {options.runs} runs (medians).\n")
        for line in table(runs):
            print(line)
        started = ", ".join(f"{n:,} in {t:.1f} s" for n, t in notes["prestart"])
        print(f"\nFirst statistics reads: players never read before, except {notes['rereads']:,} reads "
              f"after a connection had used up its share. Second reads: {notes['rotated']:,} "
              f"players, each read before. Leaderboards: as {notes['rotated']:,} players in "
              f"turn, all on today's board. Daily games started before each finish run: {started}.")
        for key in NAMES:
            statuses = sorted(s for run in runs[key] for s in run.get("unexpected", []))
            sockets = [s for run in runs[key] for s in run.get("socket", [])]
            if statuses or sockets:
                print(f"{NAMES[key]}: unexpected statuses {' '.join(statuses) or 'none'}; "
                      f"socket errors {', '.join(sockets) or 'none'}")
        stalled = [NAMES[key] for key in NAMES if any(run["rps"] == 0 for run in runs[key])]
        if stalled:
            res["problems"].append(f"no answers at all: {', '.join(stalled)}")
        for what, n in (("finish requests after a connection ran out of games", notes["exhausted"]),
                        ("finished games that did not win", notes["notwon"]),
                        ("finished daily games whose result was not recorded", notes["unrecorded"])):
            if n:
                res["problems"].append(f"{n:,} {what}")
        if res["log"]:
            print(f"Server log: {len(res['log'])} lines, first: " + " | ".join(res["log"][:3])[:600])
        for problem in res["problems"]:
            print(f"PROBLEM: {problem}")
        errors += sum(run["errors"] for rows in runs.values() for run in rows) + len(res["problems"])

    by_name = {res["name"]: res for res in results}
    if "small" in by_name and "large" in by_name:
        small, large = by_name["small"], by_name["large"]
        print(f"\n### {small['label'].split(',')[0]}: cost growth from {small['games']:,} to {large['games']:,} games\n")
        print("The cost of a request is measured by the ceiling's rate over its rate in the same run; the "
              "growth is the large size's cost over the small size's (the small size's ratio to the ceiling "
              "over the large size's). Targets: leaderboard and (second) statistics reads at least 0.5 of "
              "the ceiling on the large size, growth at most 1.5.\n")
        print("| measurement | small / ceiling | large / ceiling | cost growth | target |")
        print("|---|---|---|---|---|")
        for key, name in NAMES.items():
            if key == "ceiling":
                continue
            a, b = median(ratios(small["runs"], key)), median(ratios(large["runs"], key))
            target = ""
            if key in ("board-day", "board-all", "stats-again"):
                target = "met" if b >= 0.5 and a / b <= 1.5 else "**missed**"
            print(f"| {name} | {a:.2f} | {b:.2f} | {a / b:.2f}x | {target} |")
    return errors


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--database-url", help="PostgreSQL: a database URL of the cluster (its host and user)")
    parser.add_argument("--admin-url", help="PostgreSQL: a URL to create and drop the benchmark's databases")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="small,large", help="which sizes to run: small, large or both")
    parser.add_argument("--smoke", action="store_true",
                        help="2,000 players with 2,000 and 20,000 games; fails on any error")
    parser.add_argument("--keep", action="store_true", help="keep the databases and data folders (SQLite files, logs)")
    options = parser.parse_args()
    if options.database_url and not options.admin_url:
        parser.error("--database-url needs --admin-url")
    wanted = options.sizes.split(",")
    sizes = [size for size in (SMOKE_SIZES if options.smoke else SIZES) if size[0] in wanted]

    def database(workdir, name):
        if options.database_url:
            return PostgresDatabase(options.admin_url, options.database_url, name)
        return SQLiteDatabase(workdir)

    command = os.environ.get("BENCH_COMMAND") or " ".join(["python3", *sys.argv])
    print(f"command: {command}")
    setup = {}
    results = [run_size(options, database, name, players, games, setup) for name, players, games in sizes]
    print(f"\ncommand: {command}")
    errors = report(results, options)
    if options.smoke:
        if errors:
            sys.exit(f"\nsmoke: {errors} errors or problems")
        print("\nsmoke: the benchmark runs and counts no errors")


if __name__ == "__main__":
    main()
