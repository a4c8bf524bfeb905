"""Reading a live game, or the move loop, builds against each other.

For each binary in turn (in rounds of all of them, so that the machine's drift falls on each
alike): a fresh server, one player and one game per connection, a short move loop so that the
database is not empty, then twice a ping run and a read run (with --moves, a move-loop run) of
4 s each. Prints each run's rate against the ping run just before it, the server's CPU per
request (per accepted action for moves; of it, the thread pool's, where the SQLite writer
runs) and that CPU against the ping's, then the medians per
binary. The CPU ratio is the one to compare across days: the machine's speed drifts by tens of
percent between runs, and a ping run just before carries the same drift.

With --database-url, also PostgreSQL's CPU (this machine's postgres processes) per request.
With --fresh-database too, the URL's database is dropped and made again before each server
starts, so that each build migrates and fills its own (builds whose migrations differ cannot
share one).

    python3 scripts/bench/reads_ab.py [--database-url URL [--fresh-database]] [--rounds N] [--moves]
        [--log-level LEVEL] BINARY...
"""
import argparse
import os
import statistics
import subprocess
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402  (the benchmarks' shared helpers, next to this file)


def recreate(database_url):
    """Drops the database of `database_url` and creates it again, empty (through the `postgres`
    database of the same server)."""
    parts = urllib.parse.urlsplit(database_url)
    name = parts.path.lstrip("/")
    admin = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    subprocess.run(["psql", admin, "-q", "-c", f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)',
                    "-c", f'CREATE DATABASE "{name}"'], check=True)


def measure(binary, database_url, connections=64, seconds=4, script="read.lua", log_level="error"):
    """Two (rate / ping's, server CPU µs a request, server CPU µs a ping, PostgreSQL's CPU µs a
    request or None) of one fresh server; `script` is read.lua or moves.lua."""
    process, url, _ = harness.start_server(binary, database_url, log_level)
    try:
        readers = harness.live_games(url, connections) if script == "read.lua" else None
        subprocess.run(["wrk", "-t", str(connections), "-c", str(connections), "-d", "3s",
                        "-s", os.path.join(harness.HERE, "moves.lua"), url], capture_output=True, check=True)
        results = []
        for _ in range(2):
            ping = harness.wrk([(process, url)], connections, seconds, path="/ping")
            read = harness.wrk([(process, url)], connections, seconds, script,
                           [readers] if readers else None, database=bool(database_url))
            if read["errors"] or ping["errors"]:
                sys.exit(f"{binary}: errors in a run ({read['errors']} in {script}, {ping['errors']} pinging)")
            results.append((read["rps"] / ping["rps"], read["cpu_us"], ping["cpu_us"],
                            read["database_cpu_us"] if database_url else None,
                            read["pool_cpu_us"]))
        return results
    finally:
        process.terminate()
        process.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", action="store_true", help="the move loop instead of reads")
    parser.add_argument("--log-level", default="error",
                        help="the servers' log level (the benchmarks' is error; a server's default, info)")
    parser.add_argument("--fresh-database", action="store_true",
                        help="drop and create the --database-url database before each server")
    parser.add_argument("binaries", nargs="+")
    options = parser.parse_args()
    if options.fresh_database and not options.database_url:
        sys.exit("--fresh-database needs --database-url")
    results = {binary: [] for binary in options.binaries}
    what, one = ("moves", "move") if options.moves else ("reads", "read")
    for _ in range(options.rounds):
        for binary in options.binaries:
            if options.fresh_database:
                recreate(options.database_url)
            for ratio, cpu, ping_cpu, database_cpu, pool_cpu in measure(
                    binary, options.database_url, script="moves.lua" if options.moves else "read.lua",
                    log_level=options.log_level):
                results[binary].append((ratio, cpu, ping_cpu, database_cpu, pool_cpu))
                print(f"{binary}: {what} {ratio:.2f} of the ceiling, server CPU {cpu:.0f} µs a {one} "
                      f"({pool_cpu:.0f} of them in the thread pool), "
                      f"{ping_cpu:.0f} a ping ({cpu / ping_cpu:.2f} x)"
                      + (f", PostgreSQL {database_cpu:.0f} µs a {one}" if database_cpu is not None else ""),
                      flush=True)
    for binary, runs in results.items():
        print(f"{binary}: median {statistics.median(r[0] for r in runs):.2f} of the ceiling, "
              f"{statistics.median(r[1] for r in runs):.0f} µs a {one} "
              f"({statistics.median(r[4] for r in runs):.0f} in the thread pool), "
              f"{statistics.median(r[2] for r in runs):.0f} µs a ping, "
              f"CPU {statistics.median(r[1] / r[2] for r in runs):.2f} x a ping's"
              + (f", PostgreSQL {statistics.median(r[3] for r in runs):.0f} µs a {one}"
                 if options.database_url else "")
              + f" ({len(runs)} runs)")


if __name__ == "__main__":
    main()
