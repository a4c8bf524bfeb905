"""Runs the HTTP benchmarks of scripts/bench-http against one server and prints the tables.

(a) GET /ping, which touches nothing: the framework's ceiling on this machine;
(b) the move loop (moves.lua): players create Number games and play them to the end;
(c) GET /api/games/{id} of a live game (read.lua).
All three at the same concurrency, each repeated; medians reported, with (b)/(a) and (c)/(a).
"""
import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(binary, database_url):
    data_dir = tempfile.mkdtemp(prefix="guesswork-bench-")
    port = free_port()
    args = [binary, "serve", "--port", str(port), "--data-dir", data_dir, "--log-level", "error"]
    if database_url:
        args += ["--database-url", database_url]
    env = dict(os.environ, GUESSWORK_DATAMUSE="off")
    started = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}"
    while True:
        try:
            with urllib.request.urlopen(url + "/ping", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            if process.poll() is not None:
                sys.exit("the server did not start")
            time.sleep(0.002)
    return process, url, time.perf_counter() - started


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def to_ms(text):
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]


def post(url, path, body, cookie=None):
    request = urllib.request.Request(url + path, data=body.encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **({"Cookie": cookie} if cookie else {})})
    with urllib.request.urlopen(request) as answer:
        return answer.headers.get("Set-Cookie", "").split(";")[0], json.load(answer)


def live_games(url, count):
    """One player and one new Number game per connection, as "cookie|game-id" for read.lua."""
    pairs = []
    for _ in range(count):
        cookie, _ = post(url, "/api/players", '{"name":"Reader"}')
        _, game = post(url, "/api/games", '{"game":"number"}', cookie)
        pairs.append(f"{cookie}|{game['id']}")
    return pairs


def wrk(url, connections, seconds, script=None, script_args=()):
    args = ["wrk", "-t", str(connections), "-c", str(connections), "-d", f"{seconds}s", "--latency"]
    if script:
        args += ["-s", os.path.join(HERE, script)]
    out = subprocess.run(args + [url, "--", *script_args], capture_output=True, text=True,
                         check=True).stdout
    result = {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50": to_ms(re.search(r"\s50%\s+(\S+)", out).group(1)),
        "p99": to_ms(re.search(r"\s99%\s+(\S+)", out).group(1)),
        "max": to_ms(re.search(r"Latency\s+\S+\s+\S+\s+(\S+)", out).group(1)),
        "errors": 0,
    }
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    non2xx = int(non2xx.group(1)) if non2xx else 0
    result["errors"] = non2xx + (sum(int(g) for g in socket_errors.groups()) if socket_errors else 0)
    socket = [f"{kind} {n}" for kind, n in zip(("connect", "read", "write", "timeout"), socket_errors.groups())
              if int(n)] if socket_errors else []
    if socket:
        result["socket"] = socket
    unexpected = re.search(r"UNEXPECTED (.*)", out)
    if unexpected:
        result["unexpected"] = unexpected.group(1).split()
    moves = re.search(r"MOVES actions=(\d+) games=(\d+) errors=(\d+) actions_per_s=([\d.]+)", out)
    if moves:
        result["rps"] = float(moves.group(4))
        result["games"] = int(moves.group(2))
        # The script counts the unexpected answers that wrk counts as non-2xx: once, not twice.
        result["errors"] += max(0, int(moves.group(3)) - non2xx)
    return result


def median_of(runs, key):
    return statistics.median(run[key] for run in runs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--database-url")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--smoke", action="store_true", help="check only that it runs with no errors")
    options = parser.parse_args()

    process, url, start_seconds = start_server(options.binary, options.database_url)
    try:
        results = {"ceiling": [], "moves": [], "reads": []}
        readers = live_games(url, options.connections)
        for _ in range(options.runs):
            results["ceiling"].append(wrk(url + "/ping", options.connections, options.seconds))
            results["moves"].append(wrk(url, options.connections, options.seconds, "moves.lua"))
            results["reads"].append(wrk(url, options.connections, options.seconds, "read.lua", readers))
        rss = peak_rss_mb(process.pid)
    finally:
        process.terminate()
        process.wait()

    games = sum(run.get("games", 0) for run in results["moves"])
    ceiling = median_of(results["ceiling"], "rps")
    print(f"\nserver start to first answer: {start_seconds * 1000:.0f} ms; "
          f"peak RSS {rss:.1f} MB after {games} games; "
          f"{options.connections} connections, {options.seconds} s x {options.runs} runs (medians)\n")
    print("| measurement | req/s | p50 ms | p99 ms | max ms | errors | / ceiling |")
    print("|---|---|---|---|---|---|---|")
    names = {"ceiling": "(a) GET /ping (ceiling)", "moves": "(b) move loop (accepted actions/s)",
             "reads": "(c) GET /api/games/{id}"}
    errors = 0
    for key, runs in results.items():
        rps = median_of(runs, "rps")
        run_errors = sum(run["errors"] for run in runs)
        errors += run_errors
        print(f"| {names[key]} | {rps:,.0f} | {median_of(runs, 'p50'):.2f} | {median_of(runs, 'p99'):.2f} "
              f"| {median_of(runs, 'max'):.1f} | {run_errors} | {rps / ceiling:.2f} |")
    for key, runs in results.items():
        statuses = sorted(s for run in runs for s in run.get("unexpected", []))
        socket = [s for run in runs for s in run.get("socket", [])]
        if statuses or socket:
            print(f"\n{names[key]}: unexpected statuses {' '.join(statuses) or 'none'}; "
                  f"socket errors {', '.join(socket) or 'none'}")
    if options.smoke:
        moved = sum(1 for run in results["moves"] if run["rps"] > 0)
        if errors or not moved:
            sys.exit(f"smoke: {errors} errors, move loop ran: {bool(moved)}")
        print("\nsmoke: the benchmark runs and counts no errors")


if __name__ == "__main__":
    main()
