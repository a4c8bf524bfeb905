"""The move loop over the play socket (docs/play-socket.md) against the same loop over HTTP.

Each connection is a player who starts Number games (0...9999, 20 attempts) by POST and plays
each to the end by halving, as moves.lua does over HTTP, but sends every move over one
WebSocket of its own. For each round: a fresh server, a short HTTP move loop so that the
database is not empty, then a ping run (wrk), the HTTP move loop (wrk, moves.lua) and the
socket move loop, each for `--seconds`. Prints, for each loop, accepted moves a second against
the ping run, and the server's CPU per accepted move against its CPU per ping; then the
medians.

The socket's load client is this Python process (asyncio, `websockets` from PyPI): it costs
more CPU a move than wrk's, on the same two cores, so the loop's rate against the ceiling
understates the server; the server's CPU a move is what to compare.

    python3 scripts/bench/socket_moves.py [--database-url URL] [--rounds N] [--seconds S]
        [--connections C] [--refused] [--lean] [--interleaved SLICES] BINARY

With --refused, also the same connections sending moves of a game that does not exist, each
answered with a 404: what the socket itself costs the server a message.

With --lean, also the same socket loop played by a lean load client (socket_load.c, compiled
here with cc): one thread a player and blocking sockets, a few tens of µs a move against the
Python client's 70-100, so that the server is loaded as wrk loads it in the ping run. The
server's CPU a move is then measured in the same conditions as its CPU a ping.

With --interleaved SLICES, each round takes its measurements in turn, SLICES times: a ping
run, the HTTP move loop by wrk (moves.lua), the same loop by the lean client (each move POSTed
as moves.lua POSTs it, without wrk's Lua callbacks, which cost about twice wrk's CPU a ping)
and the socket loop by the lean client.
"""
import argparse
import asyncio
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from websockets.asyncio.client import connect

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402  (the benchmarks' shared helpers, next to this file)

NEW_GAME = json.dumps({"game": "number", "settings": {"low": 0, "high": 9999, "attempts": 20}})


class Http:
    """One keep-alive HTTP/1.1 connection: a player's POSTs (a new game)."""

    def __init__(self, reader, writer, host, cookie):
        self.reader, self.writer, self.host, self.cookie = reader, writer, host, cookie

    async def post(self, path, body):
        data = body.encode()
        self.writer.write((f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nCookie: {self.cookie}\r\n"
                           f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n")
                          .encode() + data)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        return status, json.loads(await self.reader.readexactly(length))


async def player(url, cookie, stop, counts):
    """Plays Number games until `stop` is set; counts accepted moves, games and errors."""
    host = url.split("//", 1)[1]
    reader, writer = await asyncio.open_connection(*host.split(":"))
    http = Http(reader, writer, host, cookie)
    async with connect(url.replace("http", "ws", 1) + "/api/play/socket",
                       additional_headers={"Cookie": cookie}, compression=None,
                       max_size=1 << 20) as ws:
        ref = 0
        while not stop.is_set():
            status, game = await http.post("/api/games", NEW_GAME)
            if status != 201:
                counts["errors"] += 1
                await asyncio.sleep(0.01)
                continue
            counts["games"] += 1
            low, high, version = 0, 9999, 0
            while not stop.is_set():
                ref += 1
                await ws.send(json.dumps({
                    "ref": ref, "game": game["id"], "version": version,
                    "action": {"type": "guess", "number": (low + high) // 2}}))
                answer = json.loads(await ws.recv())
                if answer["status"] != 200:
                    counts["errors"] += 1
                    break
                counts["moves"] += 1
                reply = answer["reply"]
                if reply["isOver"]:
                    break
                version = reply["version"]
                low, high = reply["view"]["knownLow"], reply["view"]["knownHigh"]
    writer.close()


async def refused(url, cookie, stop, counts):
    """Sends moves of a game that does not exist until `stop` is set, each answered with a 404:
    what the socket itself costs a message (reading, the answer's frame, writing), without a
    game's work or a write. Counts answered messages as moves."""
    async with connect(url.replace("http", "ws", 1) + "/api/play/socket",
                       additional_headers={"Cookie": cookie}, compression=None) as ws:
        ref = 0
        while not stop.is_set():
            ref += 1
            await ws.send(json.dumps({"ref": ref, "game": "g_none", "version": 0,
                                      "action": {"type": "guess", "number": 5000}}))
            answer = json.loads(await ws.recv())
            if answer["status"] == 404:
                counts["moves"] += 1
            else:
                counts["errors"] += 1


async def socket_loop(servers, cookies, seconds, database=False, play=None):
    """The socket move loop on `servers` ((process, url) pairs; `cookies` holds one list of
    players for each) for `seconds` after a second's warm-up: moves a second, the servers',
    this process's and PostgreSQL's CPU µs a move, errors. `play` is what each connection
    does (`player`, or `refused`)."""
    stop = asyncio.Event()
    counts = {"moves": 0, "games": 0, "errors": 0}
    tasks = [asyncio.create_task((play or player)(url, cookie, stop, counts))
             for (_, url), players in zip(servers, cookies) for cookie in players]
    await asyncio.sleep(1)

    def cpu():
        return sum(harness.cpu_seconds(process.pid) for process, _ in servers)

    moves_before = counts["moves"]
    cpu_before = cpu()
    database_before = harness.database_cpu_seconds() if database else 0
    own_before = resource.getrusage(resource.RUSAGE_SELF)
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - started
    moves = counts["moves"] - moves_before
    spent = cpu() - cpu_before
    database_spent = harness.database_cpu_seconds() - database_before if database else float("nan")
    own = resource.getrusage(resource.RUSAGE_SELF)
    load = own.ru_utime + own.ru_stime - own_before.ru_utime - own_before.ru_stime
    stop.set()
    await asyncio.gather(*tasks)
    return {"rps": moves / elapsed, "cpu_us": harness.microseconds_each(spent, moves),
            "load_cpu_us": harness.microseconds_each(load, moves),
            "database_cpu_us": harness.microseconds_each(database_spent, moves),
            "errors": counts["errors"]}


def lean_client():
    """socket_load.c compiled into a temporary folder (with cc, or the Swift toolchain's
    clang): the path of the program."""
    compiler = shutil.which("cc") or shutil.which("clang")
    if not compiler:
        sys.exit("the lean load client needs a C compiler (cc or clang)")
    binary = os.path.join(tempfile.mkdtemp(prefix="guesswork-bench-"), "socket_load")
    subprocess.run([compiler, "-O2", "-pthread", "-o", binary,
                    os.path.join(harness.HERE, "socket_load.c")], check=True)
    return binary


def lean_loop(client, servers, cookies, seconds, by_post=False):
    """The socket move loop played by the lean client on `servers` ((process, url) pairs;
    `cookies` holds one list of players for each), one client a server, for `seconds` after a
    second's warm-up: moves a second, the moves and the servers' CPU seconds counted, the
    servers' and the clients' CPU µs a move, errors. `by_post`: the moves are POSTed, as
    moves.lua sends them, instead of sent over the socket."""
    clients = []
    for (process, url), players in zip(servers, cookies):
        host, port = url.split("//", 1)[1].split(":")
        arguments = [client, host, port, str(process.pid), "1", str(seconds)]
        client_process = subprocess.Popen(arguments + (["post"] if by_post else []),
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        # Every client is given its players (and starts) before any is waited for: the
        # clients play at once, one a server.
        client_process.stdin.write("\n".join(players))
        client_process.stdin.close()
        clients.append(client_process)
    counts = [json.loads(client_process.stdout.read()) for client_process in clients]
    for client_process in clients:
        client_process.wait()
    moves = sum(count["moves"] for count in counts)
    server_cpu = sum(count["server_cpu"] for count in counts)
    return {"rps": sum(count["moves"] / count["elapsed"] for count in counts),
            "moves": moves, "cpu_seconds": server_cpu,
            "cpu_us": harness.microseconds_each(server_cpu, moves),
            "load_cpu_us": harness.microseconds_each(sum(count["load_cpu"] for count in counts), moves),
            "errors": sum(count["errors"] for count in counts)}


def interleaved(client, process, url, cookies, slices, seconds):
    """`slices` turns of a ping run, the HTTP move loop (wrk), the same loop by the lean client
    and the lean socket loop, each for `seconds` after a second's warm-up: the server's CPU µs
    a ping, a move over HTTP (each client) and a move over the socket, each the CPU summed over
    its slices divided by their count; errors."""
    spent = {"ping": [0.0, 0.0], "http": [0.0, 0.0], "lean_post": [0.0, 0.0],
             "lean": [0.0, 0.0]}
    errors = 0
    for _ in range(slices):
        for key, script, path in (("ping", None, "/ping"), ("http", "moves.lua", "")):
            part = harness.wrk_window(process, url, len(cookies), seconds, script, path)
            spent[key][0] += part["cpu_seconds"]
            spent[key][1] += part["count"]
            errors += part["errors"]
        for key, by_post in (("lean_post", True), ("lean", False)):
            lean = lean_loop(client, [(process, url)], [cookies], seconds, by_post)
            spent[key][0] += lean["cpu_seconds"]
            spent[key][1] += lean["moves"]
            errors += lean["errors"]
    result = {key: harness.microseconds_each(cpu, count) for key, (cpu, count) in spent.items()}
    result["errors"] = errors
    return result


def players(url, count):
    """`count` new players' cookies."""
    return [harness.post(url, "/api/players", '{"name":"Bench"}')[0] for _ in range(count)]


def fresh_server(options):
    """A round's server: started on a fresh database, warmed by a short HTTP move loop so that
    the database is not empty, with `--connections` new players: process, URL, cookies."""
    process, url, _ = harness.start_server(options.binary, options.database_url)
    try:
        subprocess.run(["wrk", "-t", "16", "-c", "16", "-d", "2s", "-s",
                        os.path.join(harness.HERE, "moves.lua"), url], capture_output=True, check=True)
        return process, url, players(url, options.connections)
    except BaseException:
        process.terminate()
        process.wait()
        raise


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--database-url")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=8)
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--refused", action="store_true",
                        help="also messages refused with a 404: the socket's own cost")
    parser.add_argument("--lean", action="store_true",
                        help="also the socket loop played by a lean client (socket_load.c)")
    parser.add_argument("--interleaved", type=int, metavar="SLICES",
                        help="measure a ping, a move over HTTP and one over the socket (lean "
                             "client) in this many slices of --seconds each, taken in turn")
    options = parser.parse_args()
    if options.interleaved:
        return interleaved_rounds(options)
    client = lean_client() if options.lean else None
    rows = []
    for round_ in range(options.rounds):
        process, url, cookies = fresh_server(options)
        try:
            ping = harness.wrk([(process, url)], options.connections, options.seconds, path="/ping")
            http = harness.wrk([(process, url)], options.connections, options.seconds, "moves.lua",
                           database=False)
            socket = asyncio.run(socket_loop([(process, url)], [cookies], options.seconds))
            refusals = (asyncio.run(socket_loop([(process, url)], [cookies], options.seconds,
                                                play=refused)) if options.refused else None)
            lean = (lean_loop(client, [(process, url)], [cookies], options.seconds)
                    if options.lean else None)
        finally:
            process.terminate()
            process.wait()
        if lean and lean["errors"]:
            sys.exit(f"errors: {lean['errors']} with the lean client")
        if refusals and refusals["errors"]:
            sys.exit(f"errors: {refusals['errors']} messages not refused with a 404")
        if ping["errors"] or http["errors"] or socket["errors"]:
            sys.exit(f"errors: {ping['errors']} pinging, {http['errors']} over HTTP, "
                     f"{socket['errors']} over the socket")
        row = {"ping": ping["rps"], "ping_cpu": ping["cpu_us"],
               "http": http["rps"], "http_cpu": http["cpu_us"], "http_load": http["load_cpu_us"],
               "socket": socket["rps"], "socket_cpu": socket["cpu_us"],
               "socket_load": socket["load_cpu_us"]}
        if refusals:
            row["refused_cpu"] = refusals["cpu_us"]
        if lean:
            row.update(lean=lean["rps"], lean_cpu=lean["cpu_us"], lean_load=lean["load_cpu_us"])
        rows.append(row)
        print(f"round {round_ + 1}: ping {row['ping']:,.0f}/s {row['ping_cpu']:.1f} µs; "
              f"HTTP moves {row['http']:,.0f}/s ({row['http'] / row['ping']:.2f}) "
              f"{row['http_cpu']:.1f} µs ({row['http_cpu'] / row['ping_cpu']:.2f} x a ping); "
              f"socket moves {row['socket']:,.0f}/s ({row['socket'] / row['ping']:.2f}) "
              f"{row['socket_cpu']:.1f} µs ({row['socket_cpu'] / row['ping_cpu']:.2f} x a ping); "
              f"load client a move: wrk {row['http_load']:.0f} µs, Python {row['socket_load']:.0f} µs"
              + (f"; a refused message {row['refused_cpu']:.1f} µs "
                 f"({row['refused_cpu'] / row['ping_cpu']:.2f} x a ping)" if refusals else "")
              + (f"; lean client's socket moves {row['lean']:,.0f}/s "
                 f"({row['lean'] / row['ping']:.2f}) {row['lean_cpu']:.1f} µs "
                 f"({row['lean_cpu'] / row['ping_cpu']:.2f} x a ping), "
                 f"the client {row['lean_load']:.0f} µs a move" if lean else ""),
              flush=True)

    def median(key):
        return statistics.median(row[key] for row in rows)

    print(f"\nmedians of {len(rows)} rounds: ping {median('ping_cpu'):.1f} µs of server CPU; "
          f"a move over HTTP {median('http_cpu'):.1f} µs "
          f"({statistics.median(r['http_cpu'] / r['ping_cpu'] for r in rows):.2f} x a ping, "
          f"{statistics.median(r['http'] / r['ping'] for r in rows):.2f} of the ceiling); "
          f"over the socket {median('socket_cpu'):.1f} µs "
          f"({statistics.median(r['socket_cpu'] / r['ping_cpu'] for r in rows):.2f} x a ping, "
          f"{statistics.median(r['socket'] / r['ping'] for r in rows):.2f} of the ceiling)"
          + (f"; a refused message {median('refused_cpu'):.1f} µs "
             f"({statistics.median(r['refused_cpu'] / r['ping_cpu'] for r in rows):.2f} x a ping)"
             if options.refused else "")
          + (f"; with the lean client {median('lean_cpu'):.1f} µs "
             f"({statistics.median(r['lean_cpu'] / r['ping_cpu'] for r in rows):.2f} x a ping, "
             f"{statistics.median(r['lean'] / r['ping'] for r in rows):.2f} of the ceiling)"
             if options.lean else ""))


def interleaved_rounds(options):
    """--interleaved: for each round a fresh server, then the slices (``interleaved``)."""
    client = lean_client()
    rows = []
    for round_ in range(options.rounds):
        process, url, cookies = fresh_server(options)
        try:
            row = interleaved(client, process, url, cookies, options.interleaved, options.seconds)
        finally:
            process.terminate()
            process.wait()
        if row["errors"]:
            sys.exit(f"errors: {row['errors']}")
        rows.append(row)
        print(f"round {round_ + 1}: ping {row['ping']:.1f} µs of server CPU; a move over HTTP "
              f"{row['http']:.1f} µs ({row['http'] / row['ping']:.2f} x a ping), with the lean "
              f"client {row['lean_post']:.1f} µs ({row['lean_post'] / row['ping']:.2f} x a ping); "
              f"over the socket (lean client) {row['lean']:.1f} µs "
              f"({row['lean'] / row['ping']:.2f} x a ping)", flush=True)
    ratios = {key: statistics.median(row[key] / row["ping"] for row in rows)
              for key in ("http", "lean_post", "lean")}
    print(f"\nmedians of {len(rows)} rounds of {options.interleaved} slices of "
          f"{options.seconds} s: a move over HTTP {ratios['http']:.2f} x a ping "
          f"({ratios['lean_post']:.2f} with the lean client), over the socket "
          f"{ratios['lean']:.2f} x a ping")


if __name__ == "__main__":
    main()
