"""The hostile sequence that once grew the server from 81 MB to 1,186 MB and the database to
776 MB in 650 rounds: a category padded to its byte limit, played round after round, plus a
thousand actions that change nothing. The server's memory and the database must stay under
stated bounds (the figures are printed, and kept in BENCHMARKS.md)."""
import os
import sqlite3

from support.server import Client, Server

ROUNDS = 400
# Bounds for this run: the caches are bounded by bytes (64 MB of live games, 16 MB of decoded
# states a game, ...), a category's words by 20,000 bytes, so a round stores at most ~40 KB.
RSS_GROWTH_LIMIT_MB = 150
DATABASE_LIMIT_MB = 40


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def database_mb(folder):
    return sum(os.path.getsize(os.path.join(folder, name)) for name in os.listdir(folder)
               if name.startswith("guesswork.sqlite")) / (1 << 20)


def test_a_hostile_player_cannot_grow_memory_or_disk_without_bound():
    with Server() as server:
        eve = Client(server.url)
        eve.join("Eve")
        # The heaviest category the rules let through: 500 words, each as many bytes as fit
        # in 20,000 together (combining marks make few characters of many bytes).
        words = [f"{i:03d}" + "e\u0301" * 11 for i in range(500)]  # 3 + 22 code points, 36 bytes
        status, _, category = eve.post("/api/categories", {"name": "Padded", "words": words})
        assert status == 201, category
        # Padded further, it is refused.
        heavier = [f"{i:03d}" + "e\u0301" * 14 for i in range(500)]
        assert eve.post("/api/categories", {"name": "Heavier", "words": heavier})[0] == 400
        before = rss_mb(server.process.pid)
        for _ in range(ROUNDS):
            game = eve.start_game("guess-or-pass", {"duration": 30}, category=category["id"])
            eve.act(game, {"type": "end"})
        number = eve.start_game("number")
        for _ in range(1000):
            reply = eve.act(number, {"type": "backspace"})
            assert reply["version"] == number["version"]
        after = rss_mb(server.process.pid)
        size = database_mb(server.data_dir)
        with sqlite3.connect(f"file:{os.path.join(server.data_dir, 'guesswork.sqlite')}?mode=ro", uri=True) as db:
            stored = db.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (number["id"],)).fetchone()[0]
        print(f"\nhostile sequence: {ROUNDS} rounds on a {len(''.join(words).encode()):,}-byte category, "
              f"1,000 idle actions: RSS {before:.0f} MB -> {after:.0f} MB, database {size:.1f} MB, "
              f"idle actions stored {stored}")
        assert stored <= 1, "an action that changes nothing is not stored"
        assert after - before < RSS_GROWTH_LIMIT_MB, (before, after)
        assert size < DATABASE_LIMIT_MB, size
