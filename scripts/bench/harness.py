"""The benchmarks' shared helpers: a fresh server on loopback, wrk runs and their parsing, and the
CPU time of the server, its SQLite writer's thread, PostgreSQL and the load client, per request.
Used by run.py (scripts/bench-http), socket_moves.py, reads_ab.py, starts.py, counts.py and
daily.py (scripts/bench-daily); it imports none of them."""
import json
import os
import re
import resource
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


def start_server(binary, database_url, log_level="error", extra_args=()):
    """A fresh server on loopback, with `extra_args` after its own; (process, url, start time)."""
    data_dir = tempfile.mkdtemp(prefix="guesswork-bench-")
    port = free_port()
    args = [binary, "serve", "--port", str(port), "--data-dir", data_dir, "--log-level", log_level,
            *extra_args]
    if database_url:
        args += ["--database-url", database_url]
    # The benchmarks measure what the server can do: no rate limits (a person never meets them).
    # Every load client is one address: the per-client cap of sockets is lifted with the limits.
    env = dict(os.environ, GUESSWORK_DATAMUSE="off", GUESSWORK_RATE_LIMITS="off",
               GUESSWORK_SOCKETS_PER_CLIENT="1000000")
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


def stat_cpu_seconds(path):
    """The CPU time (user + system) in a /proc stat file, in seconds, and the command name."""
    with open(path) as f:
        stat = f.read()
    # Fields 14 (utime) and 15 (stime), counted after the command name, which is in
    # parentheses and may hold spaces: the fields after ")" start with field 3.
    fields = stat[stat.rindex(")") + 2:].split()
    name = stat[stat.index("(") + 1:stat.rindex(")")]
    return (int(fields[14 - 3]) + int(fields[15 - 3])) / os.sysconf("SC_CLK_TCK"), name


def cpu_seconds(pid):
    """The process's CPU time so far (user + system, all its threads), in seconds."""
    return stat_cpu_seconds(f"/proc/{pid}/stat")[0]


def pool_cpu_seconds(pid):
    """The CPU time so far of the process's NIO thread pool (threads named TP-#n): the SQLite
    writer's own thread, which runs its checkpoints and the batches that wait for SQLite's lock
    (the others are committed on the event loops since 2026-11-28, late night); nearly all the
    rest of a server's time is its event loops'."""
    total = 0.0
    for thread in os.listdir(f"/proc/{pid}/task"):
        try:
            seconds, name = stat_cpu_seconds(f"/proc/{pid}/task/{thread}/stat")
        except FileNotFoundError:  # the thread ended meanwhile
            continue
        if name.startswith("TP-"):
            total += seconds
    return total


def database_cpu_seconds():
    """The CPU time so far of the local PostgreSQL's processes (those of the user postgres, as
    scripts/lib/postgres.sh starts it): the database's share of a run on this machine. A backend
    that exits during a run takes its time with it; the server's pool keeps its connections."""
    pids = subprocess.run(["pgrep", "-u", "postgres"], capture_output=True, text=True).stdout.split()
    total = 0.0
    for pid in pids:
        try:
            total += cpu_seconds(int(pid))
        except OSError:
            pass
    return total


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


def start_wrk(url, connections, seconds, script=None, script_args=()):
    """Starts one wrk; parse_wrk reads what it printed."""
    args = ["wrk", "-t", str(connections), "-c", str(connections), "-d", f"{seconds}s", "--latency"]
    if script:
        args += ["-s", os.path.join(HERE, script)]
    return subprocess.Popen(args + [url, "--", *script_args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def parse_wrk(wrk_process):
    out, err = wrk_process.communicate()
    if wrk_process.returncode:
        raise subprocess.CalledProcessError(wrk_process.returncode, wrk_process.args, out, err)
    result = {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "requests": int(re.search(r"(\d+) requests in", out).group(1)),
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
    # Any other loop's own unit (starts.lua): counted like the move loop's actions.
    counted = re.search(r"COUNTED made=(\d+) errors=(\d+) per_s=([\d.]+)", out)
    if counted:
        result["rps"] = float(counted.group(3))
        result["actions"] = int(counted.group(1))
        result["games"] = 0
        result["errors"] += max(0, int(counted.group(2)) - non2xx)
    moves = re.search(r"MOVES actions=(\d+) games=(\d+) errors=(\d+) actions_per_s=([\d.]+)", out)
    if moves:
        result["rps"] = float(moves.group(4))
        result["actions"] = int(moves.group(1))
        result["games"] = int(moves.group(2))
        # The script counts the unexpected answers that wrk counts as non-2xx: once, not twice.
        result["errors"] += max(0, int(moves.group(3)) - non2xx)
    return result


def split(connections, instances):
    """connections shared as evenly as possible between the instances."""
    return [connections // instances + (1 if i < connections % instances else 0) for i in range(instances)]


def wrk(servers, connections, seconds, script=None, script_args=None, path="", database=False):
    """One measurement: one wrk per server, all at once, each with its share of the connections
    (wrk -t = -c, as moves.lua needs); script_args, if any, holds one list per server.
    Request rates, requests and errors add up; latencies are the worst of the servers'.
    The servers' CPU time over the run is divided by the requests completed (for the move loop,
    also by the accepted actions)."""
    shares = split(connections, len(servers))
    before = sum(cpu_seconds(process.pid) for process, _ in servers)
    pool_before = sum(pool_cpu_seconds(process.pid) for process, _ in servers)
    database_before = database_cpu_seconds() if database else 0
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    running = [start_wrk(url + path, share, seconds, script, script_args[i] if script_args else ())
               for i, ((_, url), share) in enumerate(zip(servers, shares))]
    try:
        parts = [parse_wrk(w) for w in running]
    finally:
        for w in running:  # if one failed, stop the others before the error goes up
            if w.poll() is None:
                w.kill()
                w.wait()
    # The load client's own CPU (the wrk processes just waited for): on the same cores, so the
    # ratios to the ceiling carry it too.
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    load_cpu = (children.ru_utime + children.ru_stime
                - children_before.ru_utime - children_before.ru_stime)
    cpu = sum(cpu_seconds(process.pid) for process, _ in servers) - before
    pool_cpu = sum(pool_cpu_seconds(process.pid) for process, _ in servers) - pool_before
    database_cpu = database_cpu_seconds() - database_before if database else float("nan")
    result = {key: sum(part[key] for part in parts) for key in ("rps", "requests", "errors")}
    result.update({key: max(part[key] for part in parts) for key in ("p50", "p99", "max")})
    for key in ("socket", "unexpected"):
        if any(key in part for part in parts):
            result[key] = [item for part in parts for item in part.get(key, [])]
    unit = result["requests"]
    if "actions" in parts[0]:
        result["games"] = sum(part["games"] for part in parts)
        result["actions"] = sum(part["actions"] for part in parts)
        result["cpu_us_per_request"] = microseconds_each(cpu, result["requests"])
        # Per accepted action: the move loop's unit, as its req/s.
        unit = result["actions"]
    for key, spent in (("cpu_us", cpu), ("pool_cpu_us", pool_cpu), ("load_cpu_us", load_cpu),
                       ("database_cpu_us", database_cpu)):
        result[key] = microseconds_each(spent, unit)
    return result


def wrk_window(process, url, connections, seconds, script=None, path="", warmup=1):
    """One server's CPU over `seconds` of a wrk run, after `warmup` seconds of it (wrk starting
    its threads and connections, and the server's first answers, left out), and the requests
    (or, for the move loop, accepted actions) in that window, counted at the run's rate. The
    rate carries the start too, so the count is a little low and the CPU each a little high."""
    running = start_wrk(url + path, connections, warmup + seconds, script)
    time.sleep(warmup)
    before, started = cpu_seconds(process.pid), time.perf_counter()
    time.sleep(seconds)
    cpu, elapsed = cpu_seconds(process.pid) - before, time.perf_counter() - started
    result = parse_wrk(running)
    rate = result["rps"]
    return {"cpu_seconds": cpu, "count": rate * elapsed, "errors": result["errors"]}


def microseconds_each(seconds, count):
    """`seconds` shared among `count`, in µs each (NaN for none)."""
    return seconds * 1e6 / count if count else float("nan")


def median_of(runs, key):
    return statistics.median(run[key] for run in runs)
