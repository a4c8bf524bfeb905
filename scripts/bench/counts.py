"""What a ping and a move cost the server in things that can be counted, not timed: system calls
by kind, Swift task jobs run and continuations awaited, and the SQLite writer's checkpoints, each
divided by the requests (for the move loop, the accepted moves) the server's own counters
(`/metrics`, on a port of its own) show for the same window.

Counts hold still on a noisy machine where times do not, and these virtual machines have no
hardware counters (`perf stat -e instructions` is "not supported"), so this is how a change to
the number of system calls or task hops is seen. Counted with `perf stat` over a window of a wrk
run against a fresh server (the ping, then the move loop of moves.lua, 64 connections each):
the kernel's syscall tracepoints, and uprobes that this script adds on the Swift runtime's
`swift_job_run_on_task_executor` and `swift_continuation_await` and on SQLite's
`sqlite3_wal_checkpoint_v2` in the binary, and removes at the end. Needs root (uprobes) and
Debian's linux-perf.

    python3 scripts/bench/counts.py [--seconds S] [--connections C] BINARY
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402  (the benchmarks' shared helpers, next to this file)

CONCURRENCY = "/opt/swift/usr/lib/swift/linux/libswift_Concurrency.so"
SYSCALLS = ["read", "writev", "write", "pwrite64", "pread64", "fcntl", "futex", "epoll_wait",
            "fsync", "ftruncate", "getrandom"]


def add_probes(binary):
    """Adds the uprobes; returns the perf event names, the probes' own first."""
    library = CONCURRENCY if os.path.exists(CONCURRENCY) else None
    events = []
    wanted = [(binary, "sqlite_nio_sqlite3_wal_checkpoint_v2", "checkpoints")]
    if library:
        wanted = [(library, "swift_job_run_on_task_executor", "task jobs run"),
                  (library, "swift_continuation_await", "continuations awaited")] + wanted
    for path, symbol, label in wanted:
        added = subprocess.run(["perf", "probe", "-q", "-x", path, "--add", symbol],
                               capture_output=True, text=True)
        if added.returncode and "already exists" not in added.stderr:
            sys.exit(f"perf probe {symbol}: {added.stderr.strip()}")
        # perf names the group after the file, up to its first character that is not a letter,
        # a digit or an underscore ("gw-final" gives probe_gw).
        group = "probe_" + re.match(r"\w*", os.path.basename(path)).group()
        events.append((f"{group}:{symbol}", label))
    return events


def remove_probes(events):
    for event, _ in events:
        subprocess.run(["perf", "probe", "-q", "--del", event], capture_output=True)


def start_server(binary):
    """A fresh server as harness.py starts it, with its metrics on a port of their own."""
    metrics_port = harness.free_port()
    process, url, _ = harness.start_server(binary, None,
                                       extra_args=["--metrics-port", str(metrics_port)])
    return process, url, f"http://127.0.0.1:{metrics_port}/metrics"


def served(metrics_url):
    """Requests answered so far and moves accepted, from the server's own counters."""
    totals = {"guesswork_http_requests_total": 0.0, "guesswork_moves_total": 0.0}
    with urllib.request.urlopen(metrics_url) as answer:
        for line in answer.read().decode().splitlines():
            name = line.split("{")[0].split(" ")[0]
            if name in totals:
                totals[name] += float(line.rsplit(" ", 1)[1])
    return totals["guesswork_http_requests_total"], totals["guesswork_moves_total"]


def count(process, url, metrics_url, events, connections, seconds, script=None, path="",
          warmup=2):
    """Counts of `events` over `seconds` of a wrk run, after `warmup` seconds, and the requests
    (for the move loop, the accepted moves) the server counted in that window."""
    running = harness.start_wrk(url + path, connections, warmup + seconds + 1, script)
    time.sleep(warmup)
    names = [event for event, _ in events]
    before = served(metrics_url)
    stat = subprocess.run(["perf", "stat", "-x,", "-e", ",".join(names), "-p", str(process.pid),
                           "--", "sleep", str(seconds)], capture_output=True, text=True)
    after = served(metrics_url)
    result = harness.parse_wrk(running)
    counts = {}
    for line in stat.stderr.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[0].isdigit():
            counts[fields[2]] = int(fields[0])
    requests, moves = (b - a for a, b in zip(before, after))
    return counts, moves if script else requests, result["errors"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=int, default=6)
    parser.add_argument("--connections", type=int, default=64)
    options = parser.parse_args()
    if not shutil.which("perf"):
        sys.exit("perf is needed: apt-get install linux-perf")
    binary = os.path.realpath(options.binary)
    probes = add_probes(binary)
    events = probes + [("raw_syscalls:sys_enter", "system calls")] + [
        (f"syscalls:sys_enter_{name}", f"  {name}") for name in SYSCALLS]
    try:
        columns = []
        for label, script, path in (("a ping", None, "/ping"), ("a move", "moves.lua", "")):
            process, url, metrics_url = start_server(binary)
            try:
                counts, units, errors = count(process, url, metrics_url, events,
                                              options.connections, options.seconds, script, path)
            finally:
                process.kill()
                process.wait()
            if errors:
                sys.exit(f"{label}: {errors} errors")
            columns.append((label, counts, units))
        print(f"{'':24}" + "".join(f"{label:>12}" for label, _, _ in columns))
        for event, name in events:
            print(f"{name:24}" + "".join(f"{counts.get(event, 0) / units:12.3f}"
                                         for _, counts, units in columns))
        print(f"{'(requests counted)':24}" + "".join(f"{units:12.0f}" for _, _, units in columns))
    finally:
        remove_probes(probes)


if __name__ == "__main__":
    main()
