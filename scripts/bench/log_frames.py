"""How many pages of SQLite's write-ahead log a batch of moves writes, simulated.

Replays the move loop's writes (scripts/bench/moves.lua: 64 players, each playing Number games
of 13 moves) with Python's sqlite3 on the server's tables and statements (games and its two
indexes; the actions in one of three layouts), in batches of BATCH moves of distinct games, as
the SQLite writer commits them, and prints the log frames (pages) a batch writes, from the log's
growth with automatic checkpoints off. Rows are of the sizes the server writes (a Number state
of 500 bytes and 60 more a guess, a summary of 1,350 bytes at the finish). BENCHMARKS.md,
2026-11-29 (fourth).

    python3 scripts/bench/log_frames.py LAYOUT [BATCH]
    LAYOUT: key (actions keyed by game and version, without a row id: as the server's),
            rowid (actions in row id order, with a unique index on game and version),
            none (no actions written)
"""
import os
import random
import shutil
import sqlite3
import sys
import tempfile

layout = sys.argv[1]
if layout not in ('key', 'rowid', 'none'):
    sys.exit(__doc__)
path = os.path.join(tempfile.mkdtemp(prefix='guesswork-frames-'), 'games.sqlite')
c = sqlite3.connect(path, isolation_level=None)
c.execute('pragma journal_mode=wal'); c.execute('pragma synchronous=normal'); c.execute('pragma wal_autocheckpoint=0')
c.execute('''CREATE TABLE games (id TEXT PRIMARY KEY, player_id TEXT NOT NULL, kind TEXT NOT NULL, variant TEXT, settings TEXT NOT NULL,
 seed BIGINT NOT NULL, state TEXT NOT NULL, version INTEGER NOT NULL, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL,
 finished_at BIGINT, score INTEGER, summary TEXT, daily_day INTEGER, daily_counted INTEGER)''')
c.execute('CREATE INDEX games_unfinished ON games (created_at) WHERE finished_at IS NULL')
c.execute('CREATE INDEX games_by_player_finished ON games (player_id, finished_at, kind, variant, score, id)')
if layout == 'key':
    c.execute('CREATE TABLE actions (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, version INTEGER NOT NULL, action TEXT NOT NULL, at BIGINT NOT NULL, PRIMARY KEY (game_id, version)) WITHOUT ROWID')
elif layout == 'rowid':
    c.execute('CREATE TABLE actions (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, version INTEGER NOT NULL, action TEXT NOT NULL, at BIGINT NOT NULL)')
    c.execute('CREATE UNIQUE INDEX actions_by_game ON actions (game_id, version)')
MOVES_A_GAME = 13  # halving 0...9999
rnd = random.Random(1)
seq = [0]
def gid():
    seq[0] += 1
    return '01a2267d-%04x-7559-b82b-%012x' % (seq[0] >> 16 & 0xffff, seq[0])
players = ['894d0971-23e7-496c-9942-%012x' % i for i in range(64)]
live = {}
def state(n): return 'x' * (500 + 60 * n)
def new_game(p, t):
    g = gid()
    c.execute('INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)', (g, p, 'number', None, '{"low":0,"high":9999,"attempts":20}', 1, state(0), 0, t, t, None, None, None, None, None))
    live[p] = (g, 0)
t = 1795942068633
c.execute('begin')
for p in players: new_game(p, t)
c.execute('commit')
def walsize(): return os.path.getsize(path + '-wal')
frames = []
B = int(sys.argv[2]) if len(sys.argv) > 2 else 28
for step in range(3000):
    t += 2
    batch = rnd.sample(players, B)
    before = walsize()
    c.execute('begin immediate')
    for p in batch:
        g, v = live[p]
        finishing = v + 1 >= MOVES_A_GAME
        if finishing:
            c.execute('UPDATE games SET state=?, version=?, updated_at=?, finished_at=?, score=?, summary=? WHERE id=? AND version=? AND finished_at IS NULL', (state(v+1), v+1, t, t, 5, 'y'*1350, g, v))
        else:
            c.execute('UPDATE games SET state=?, version=?, updated_at=? WHERE id=? AND version=? AND finished_at IS NULL', (state(v+1), v+1, t, g, v))
        if layout != 'none':
            c.execute('INSERT INTO actions (game_id, version, action, at) VALUES (?,?,?,?)', (g, v+1, '{"type":"guess","number":%d}' % rnd.randrange(10000), t))
        if finishing: new_game(p, t)
        else: live[p] = (g, v+1)
    c.execute('commit')
    after = walsize()
    if step >= 500: frames.append((after - before) / (4096 + 24))
    if after > 40_000_000:
        c.execute('pragma wal_checkpoint(TRUNCATE)')
print(layout, 'batch', B, 'frames/batch %.1f' % (sum(frames)/len(frames)), 'frames/move %.2f' % (sum(frames)/len(frames)/B))
c.close()
shutil.rmtree(os.path.dirname(path))
