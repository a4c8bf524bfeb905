"""Runs the HTTP benchmarks of scripts/bench-http against one server and prints the tables.

(a) GET /ping, which touches nothing: the framework's ceiling on this machine;
(b) the move loop (moves.lua): players create Number games and play them to the end; and
    the same loop by a lean client in C (socket_load.c, compiled here), which POSTs the same
    moves without wrk's Lua callbacks: the server loaded as wrk loads it in (a);
(b') the same loop with each move sent over the player's play socket (socket_moves.py, a
     Python client), and (b'') with a lean client in C (socket_load.c, compiled here) that
     loads the server as wrk does in (a);
(c) GET /api/games/{id} of a live game (read.lua).
All three at the same concurrency, each repeated; medians reported, with (b)/(a) and (c)/(a),
and the server's CPU time per request (read from /proc around each wrk run) and its ratios,
and the load client's (wrk's) own CPU time per request, spent on the same cores.
With PostgreSQL, also the CPU time of this machine's postgres processes per move and per read,
and the move loop run by run (the database's cost per move can grow over a run).

--instances N (PostgreSQL only) starts N servers on the same database and, for every
measurement, runs N wrk at once, one per server, sharing the connections between them.
"""
import argparse
import asyncio
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import socket_moves  # noqa: E402  (the socket loops, next to this file)
from harness import live_games, median_of, peak_rss_mb, split, start_server, wrk  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--database-url")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--instances", type=int, default=1,
                        help="servers on the same database (PostgreSQL only), one wrk each")
    parser.add_argument("--smoke", action="store_true", help="check only that it runs with no errors")
    parser.add_argument("--moves-only", action="store_true",
                        help="only the move loop, its runs back to back, printed run by run")
    options = parser.parse_args()
    if options.instances < 1:
        sys.exit("--instances must be at least 1")
    if options.instances > 1 and not options.database_url:
        sys.exit("--instances > 1 needs --database-url (PostgreSQL): several servers on one "
                 "SQLite file is not a supported deployment")
    if options.connections < options.instances:
        sys.exit("--connections must be at least --instances: each wrk needs a connection")

    # One after the other, so that only the first migrates the database.
    servers, start_seconds = [], []
    try:
        for _ in range(options.instances):
            process, url, seconds = start_server(options.binary, options.database_url)
            servers.append((process, url))
            start_seconds.append(seconds)
        results = {"ceiling": [], "moves": [], "lean_post": [], "sockets": [], "lean": [],
                   "reads": []}
        database = bool(options.database_url)
        if options.moves_only:
            for number in range(1, options.runs + 1):
                run = wrk(servers, options.connections, options.seconds, "moves.lua", database=database)
                print(f"run {number}: {run['rps']:,.0f} moves/s, {run['errors']} errors, server "
                      f"{run['cpu_us']:.0f} µs a move" +
                      (f", PostgreSQL {run['database_cpu_us']:.0f} µs a move" if database else ""),
                      flush=True)
            return
        # Each server's readers are its own players, with its own share of the connections.
        readers = [live_games(url, share)
                   for (_, url), share in zip(servers, split(options.connections, options.instances))]
        # The socket loop's players (socket_moves.py), the same number on each server.
        bench_players = [socket_moves.players(url, share)
                         for (_, url), share in zip(servers, split(options.connections, options.instances))]
        lean_client = socket_moves.lean_client()
        for _ in range(options.runs):
            results["ceiling"].append(wrk(servers, options.connections, options.seconds, path="/ping",
                                          database=database))
            results["moves"].append(wrk(servers, options.connections, options.seconds, "moves.lua",
                                        database=database))
            # The same loop by POST from a load client as lean as wrk without Lua.
            results["lean_post"].append(dict(
                socket_moves.lean_loop(lean_client, servers, bench_players, options.seconds,
                                       by_post=True),
                p50=float("nan"), p99=float("nan"), max=float("nan"), pool_cpu_us=float("nan"),
                database_cpu_us=float("nan")))
            # No latencies: the Python client times nothing but the whole run.
            results["sockets"].append(dict(
                asyncio.run(socket_moves.socket_loop(servers, bench_players, options.seconds, database)),
                p50=float("nan"), p99=float("nan"), max=float("nan"), pool_cpu_us=float("nan")))
            # The same loop with a load client as lean as wrk (socket_load.c): the server is
            # loaded as in the ping run, which the Python client cannot do on the same cores.
            results["lean"].append(dict(
                socket_moves.lean_loop(lean_client, servers, bench_players, options.seconds),
                p50=float("nan"), p99=float("nan"), max=float("nan"), pool_cpu_us=float("nan"),
                database_cpu_us=float("nan")))
            results["reads"].append(wrk(servers, options.connections, options.seconds, "read.lua", readers,
                                        database=database))
        rss = [peak_rss_mb(process.pid) for process, _ in servers]
    finally:
        for process, _ in servers:
            process.terminate()
        for process, _ in servers:
            process.wait()

    games = sum(run.get("games", 0) for run in results["moves"])
    ceiling = median_of(results["ceiling"], "rps")
    if options.instances == 1:
        print(f"\nserver start to first answer: {start_seconds[0] * 1000:.0f} ms; "
              f"peak RSS {rss[0]:.1f} MB after {games} games; "
              f"{options.connections} connections, {options.seconds} s x {options.runs} runs (medians)\n")
    else:
        print(f"\n{options.instances} instances on one database; "
              f"server start to first answer: {' / '.join(f'{s * 1000:.0f}' for s in start_seconds)} ms; "
              f"peak RSS {' / '.join(f'{r:.1f}' for r in rss)} MB after {games} games; "
              f"{options.connections} connections in all ({' / '.join(map(str, split(options.connections, options.instances)))}), "
              f"{options.seconds} s x {options.runs} runs (medians; req/s summed, latencies the worst instance's)\n")
    print("| measurement | req/s | p50 ms | p99 ms | max ms | errors | / ceiling | server CPU µs/req |")
    print("|---|---|---|---|---|---|---|---|")
    names = {"ceiling": "(a) GET /ping (ceiling)", "moves": "(b) move loop (accepted actions/s)",
             "lean_post": "(b) the same, a lean load client (socket_load.c post)",
             "sockets": "(b') move loop over the play socket (accepted actions/s)",
             "lean": "(b'') the same, a lean load client (socket_load.c)",
             "reads": "(c) GET /api/games/{id}"}
    errors = 0
    cpu = {}
    for key, runs in results.items():
        rps = median_of(runs, "rps")
        run_errors = sum(run["errors"] for run in runs)
        errors += run_errors
        cpu[key] = median_of(runs, "cpu_us")
        cpu_text = f"{cpu[key]:.1f}"
        if "cpu_us_per_request" in runs[0]:
            # The move loop's unit is the accepted action; per HTTP request too (players and
            # games are made by requests of their own).
            cpu_text += f" ({median_of(runs, 'cpu_us_per_request'):.1f} per request)"
        def ms(key, digits):
            value = median_of(runs, key)
            return "-" if value != value else f"{value:.{digits}f}"  # NaN: not timed
        print(f"| {names[key]} | {rps:,.0f} | {ms('p50', 2)} | {ms('p99', 2)} "
              f"| {ms('max', 1)} | {run_errors} | {rps / ceiling:.2f} | {cpu_text} |")
    print(f"\nserver CPU per move / per ping: {cpu['moves'] / cpu['ceiling']:.2f} "
          f"({cpu['lean_post'] / cpu['ceiling']:.2f} with the lean client); "
          f"over the play socket: {cpu['sockets'] / cpu['ceiling']:.2f} "
          f"({cpu['lean'] / cpu['ceiling']:.2f} with the lean client); "
          f"per read / per ping: {cpu['reads'] / cpu['ceiling']:.2f}")
    print("of the server's, its thread pool's (the SQLite writer's thread: checkpoints, batches "
          "that wait for the lock): " + "; ".join(
        f"{median_of(results[key], 'pool_cpu_us'):.1f} µs {unit}"
        for key, unit in (("ceiling", "a ping"), ("moves", "a move"), ("reads", "a read"))))
    print("the load client's CPU (wrk's, the lean client's by POST; over the socket Python's, then "
          "the lean client's): " + "; ".join(
        f"{median_of(results[key], 'load_cpu_us'):.1f} µs {unit}"
        for key, unit in (("ceiling", "a ping"), ("moves", "a move"), ("lean_post", "a move by POST"),
                          ("sockets", "a move over the socket"),
                          ("lean", "a move over the socket"), ("reads", "a read"))))
    if options.database_url:
        print(f"PostgreSQL's CPU (this machine's postgres processes) per move: "
              f"{median_of(results['moves'], 'database_cpu_us'):.1f} µs; over the socket: "
              f"{median_of(results['sockets'], 'database_cpu_us'):.1f} µs; per read: "
              f"{median_of(results['reads'], 'database_cpu_us'):.1f} µs")
    print("move loop run by run (moves/s, server" + (" / PostgreSQL" if options.database_url else "")
          + " CPU µs a move): " + "; ".join(
              f"{run['rps']:,.0f}, {run['cpu_us']:.0f}"
              + (f" / {run['database_cpu_us']:.0f}" if options.database_url else "")
              for run in results["moves"]))
    for key, runs in results.items():
        statuses = sorted(s for run in runs for s in run.get("unexpected", []))
        socket = [s for run in runs for s in run.get("socket", [])]
        if statuses or socket:
            print(f"\n{names[key]}: unexpected statuses {' '.join(statuses) or 'none'}; "
                  f"socket errors {', '.join(socket) or 'none'}")
    if options.smoke:
        moved = all(any(run["rps"] > 0 for run in results[key])
                    for key in ("moves", "lean_post", "sockets", "lean"))
        if errors or not moved:
            sys.exit(f"smoke: {errors} errors, the four move loops ran: {moved}")
        print("\nsmoke: the benchmark runs and counts no errors")


if __name__ == "__main__":
    main()
