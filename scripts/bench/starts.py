"""What starting costs the server: a new player, a new game, and their share of a move.

The move loop (moves.lua) starts a Number game every 12-14 moves, so the server's CPU a move
that run.py and socket_moves.py report carries a share of each game's start. This measures the
share. Each round runs every loop on a fresh server, for `--seconds`, at `--connections`:
(a) GET /ping, the ceiling, for the ratios;
(b) new players alone (starts.lua with 0 games a player);
(c) new games, `--games` a player and then a new player (starts.lua): the CPU a game, with the
    players' share (b / games) taken out;
(d) the move loop (moves.lua): the CPU a move, and a move with its games' starts taken out:
    (CPU - games started x c) / moves.
Each start in (c) counts its player's unfinished games (up to `--games` - 1, read from the
database), which a start in the move loop does not find: (c) is a little high for the move
loop, and (d)'s second figure a little low.

    python3 scripts/bench/starts.py [--rounds N] [--seconds S] [--games G] BINARY
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402  (the benchmarks' shared helpers, next to this file)


def measure(binary, connections, seconds, script=None, script_args=None, path=""):
    """One loop on a fresh server: harness.wrk's result."""
    process, url, _ = harness.start_server(binary, None)
    try:
        result = harness.wrk([(process, url)], connections, seconds, script,
                         [script_args] if script_args else None, path=path)
    finally:
        process.kill()
        process.wait()
    if result["errors"]:
        sys.exit(f"{script or path}: {result['errors']} errors")
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=4)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--games", type=int, default=5, help="games each player starts in (c)")
    options = parser.parse_args()
    if not 1 <= options.games <= 100:
        sys.exit("--games must be from 1 to 100 (a player may have 100 unfinished games)")
    rows = []
    for number in range(1, options.rounds + 1):
        ping = measure(options.binary, options.connections, options.seconds, path="/ping")
        players = measure(options.binary, options.connections, options.seconds, "starts.lua", ["0"])
        games = measure(options.binary, options.connections, options.seconds, "starts.lua",
                        [str(options.games)])
        moves = measure(options.binary, options.connections, options.seconds, "moves.lua")
        player_us = players["cpu_us"]
        game_us = games["cpu_us"] - player_us / options.games
        move_us = moves["cpu_us"]
        starts_us = moves["games"] * game_us / moves["actions"]
        row = {"ping": ping["cpu_us"], "player": player_us, "game": game_us, "move": move_us,
               "moves_per_game": moves["actions"] / moves["games"], "starts": starts_us,
               "alone": move_us - starts_us}
        rows.append(row)
        print(f"round {number}: a ping {row['ping']:.1f} µs of server CPU; a new player "
              f"{player_us:.0f} µs; a new game {game_us:.1f} µs ({game_us / row['ping']:.2f} x a "
              f"ping); the move loop {move_us:.1f} µs a move ({move_us / row['ping']:.2f} x), "
              f"{row['moves_per_game']:.1f} moves a game, so its starts {starts_us:.1f} µs a "
              f"move and a move alone {row['alone']:.1f} µs ({row['alone'] / row['ping']:.2f} x)",
              flush=True)

    def median(key):
        return statistics.median(row[key] for row in rows)

    ratios = {key: statistics.median(row[key] / row["ping"] for row in rows)
              for key in ("game", "move", "alone")}
    print(f"\nmedians of {len(rows)} rounds of {options.seconds} s: a ping {median('ping'):.1f} µs; "
          f"a new player {median('player'):.0f} µs; a new game {median('game'):.1f} µs "
          f"({ratios['game']:.2f} x a ping); a move in the loop {median('move'):.1f} µs "
          f"({ratios['move']:.2f} x), of which its game's start {median('starts'):.1f} µs; "
          f"a move alone {median('alone'):.1f} µs ({ratios['alone']:.2f} x)")


if __name__ == "__main__":
    main()
