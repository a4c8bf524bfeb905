"""Party rooms under load (scripts/bench-rooms): many rooms playing Picture Quiz at once, every
player on a WebSocket, against one server on loopback with a fresh database.

Per room: a host (a player cookie that creates the room and holds its shared screen socket,
`?as=screen`) and N players (each its own cookie: `POST /api/players`, then
`POST /api/rooms/{code}/join`, then a socket `?as=player`). With every socket connected, each
host chooses Picture Quiz (animals, 4 pictures) and starts; in each round every player waits
for the question on its own socket, thinks for a random 0..think-ms, and answers over HTTP
(`POST /api/rooms/{code}/actions`, a random picture). The server reveals the round when the
last answer is in; once all of the room's sockets have the reveal, the host sends `next` (with
the version its screen last saw); after the last round that `next` is the podium, which every
socket must receive. Every room plays --runs games (3) one after the other, going back to the
lobby between them (not measured); each figure is given per game and as the median.

Measured, in the same run:
- the reveal's latency: for each round of each room, from the arrival of the reply to the
  round's last answer (the answer whose reply came last) to the arrival of the reveal (phase
  "reveal", that round's number) on each of the room's sockets; p50 / p99 / max over all
  sockets and rounds. The server sends the reveal before it answers the request that closed
  the round, so a socket can have it before that reply is read: those latencies are negative.
  Also given from the moment that answer was sent;
- messages received per second by all sockets during the play phase (from the first host's
  `choose` to the last socket's podium), and their bytes;
- the server's CPU time (utime + stime from /proc/<pid>/stat) over the play phase divided by
  the messages received, against its CPU time per `GET /ping` in a burst of keep-alive
  requests made just before each game (with every socket connected); the play's CPU also
  pays for the answers' HTTP requests (one per 21 messages at 20 players). Also: the CPU time
  of the load client, of PostgreSQL (--database-pid) and of everything else on the machine
  (/proc/stat) over the play, and the server's busiest threads;
- every view received again (the version a socket already has) or older than one it has:
  each accepted change should reach each socket once, in order (the expected count of
  messages is printed beside the count received);
- memory per connection: the server's VmRSS (/proc/<pid>/status) with all rooms made and
  joined but no socket open, against the same with every socket connected and quiet, divided
  by the sockets;
- errors: any unexpected HTTP status, a socket refused or closed by the server, an error
  message on a socket, a reveal or podium that does not arrive within 30 s. Must be 0.

The load client is Python (asyncio, `websockets`, a small keep-alive HTTP/1.1 client over
asyncio streams shared by a worker's rooms); `--workers N` splits the rooms between N
processes (each room's players, sockets and clock in one process). It runs on the same cores
as the server: its CPU time is printed too.
"""
import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

PHASE = re.compile(r'"phase":"(\w+)"')
ROUND = re.compile(r'"round":\{"number":(\d+)')
VERSION = re.compile(r'"version":(\d+)')
WAIT_SECONDS = 30


# MARK: The server

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(binary, database_url, log_path):
    data_dir = tempfile.mkdtemp(prefix="guesswork-bench-rooms-")
    port = free_port()
    args = [binary, "serve", "--port", str(port), "--data-dir", data_dir, "--log-level", "warning"]
    if database_url:
        args += ["--database-url", database_url]
    # What the server can do: no rate limits (a person never meets them), no Datamuse.
    # Every load client is one address: the per-client cap of sockets is lifted with the limits.
    env = dict(os.environ, GUESSWORK_DATAMUSE="off", GUESSWORK_RATE_LIMITS="off",
               GUESSWORK_SOCKETS_PER_CLIENT="1000000")
    log = open(log_path, "wb")
    process = subprocess.Popen(args, stdout=log, stderr=log, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url + "/ping", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"the server did not start; its log: {log_path}")
            time.sleep(0.01)
    return process, port, data_dir


def cpu_seconds(pid):
    """The process's CPU time so far (user + system, all its threads), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        stat = f.read()
    # Fields 14 (utime) and 15 (stime), counted after the command name, which is in
    # parentheses and may hold spaces: the fields after ")" start with field 3.
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[14 - 3]) + int(fields[15 - 3])) / os.sysconf("SC_CLK_TCK")


def tree_cpu(pid):
    """CPU time so far of a process and its children (PostgreSQL's postmaster and backends)."""
    if not pid:
        return 0.0
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(entry) == pid or int(fields[4 - 3]) == pid:
            total += (int(fields[14 - 3]) + int(fields[15 - 3])) / os.sysconf("SC_CLK_TCK")
    return total


def thread_cpu(pid):
    """Each thread's CPU time so far: {thread id: (name, seconds)}."""
    threads = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        threads[tid] = (name, (int(fields[14 - 3]) + int(fields[15 - 3])) / os.sysconf("SC_CLK_TCK"))
    return threads


def busiest_threads(before, after, seconds, count=4):
    """The threads that worked most between two thread_cpu readings, as text."""
    spent = sorted(((cpu - before.get(tid, ("", 0))[1], name) for tid, (name, cpu) in after.items()),
                   reverse=True)
    return ", ".join(f"{name} {cpu:.2f} s ({cpu / seconds:.0%})" for cpu, name in spent[:count] if cpu > 0)


def machine_idle():
    """The machine's idle time so far (all cores), in seconds, from /proc/stat."""
    with open("/proc/stat") as f:
        fields = f.readline().split()
    return (int(fields[4]) + int(fields[5])) / os.sysconf("SC_CLK_TCK")  # idle + iowait


def status_kb(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


# MARK: A keep-alive HTTP/1.1 client over asyncio streams

class HTTPConnection:
    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.used = False
        self.open = True

    @classmethod
    async def make(cls, port):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return cls(reader, writer)

    async def request(self, head, body):
        self.writer.write(head + body if body else head)
        await self.writer.drain()
        line = await self.reader.readuntil(b"\r\n")
        self.used = True
        status = int(line.split(b" ", 2)[1])
        headers = {}
        while True:
            line = await self.reader.readuntil(b"\r\n")
            if line == b"\r\n":
                break
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            value = value.strip()
            headers[name] = f"{headers[name]}, {value}" if name in headers and name != "set-cookie" else value
        if "content-length" in headers:
            data = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    while await self.reader.readuntil(b"\r\n") != b"\r\n":
                        pass
                    break
                parts.append(await self.reader.readexactly(size))
                await self.reader.readexactly(2)
            data = b"".join(parts)
        elif status in (204, 304) or 100 <= status < 200:
            data = b""
        else:
            data = await self.reader.read()
            self.open = False
        if headers.get("connection", "").lower() == "close":
            self.open = False
        return status, headers, data

    def close(self):
        self.open = False
        self.writer.close()


class HTTPPool:
    """Up to `size` keep-alive connections shared by all requests of a process."""

    def __init__(self, port, size):
        self.port, self.size = port, size
        self.idle = []
        self.slots = asyncio.Semaphore(size)
        self.retries = 0
        self.host = f"127.0.0.1:{port}".encode()

    async def request(self, method, path, body=None, cookie=None):
        """(status, headers, parsed JSON or bytes)."""
        data = json.dumps(body, separators=(",", ":")).encode() if body is not None else b""
        head = b"%s %s HTTP/1.1\r\nHost: %s\r\n" % (method.encode(), path.encode(), self.host)
        if body is not None:
            head += b"Content-Type: application/json\r\nContent-Length: %d\r\n" % len(data)
        if cookie:
            head += b"Cookie: %s\r\n" % cookie.encode()
        head += b"\r\n"
        async with self.slots:
            connection = self.idle.pop() if self.idle else await HTTPConnection.make(self.port)
            try:
                status, headers, answer = await connection.request(head, data)
            except (ConnectionError, asyncio.IncompleteReadError):
                connection.close()
                # A kept connection the server closed while it was idle (its idle timeout):
                # the request never reached it; once more on a new connection.
                if not connection.used:
                    raise
                self.retries += 1
                connection = await HTTPConnection.make(self.port)
                status, headers, answer = await connection.request(head, data)
            if connection.open:
                self.idle.append(connection)
            else:
                connection.close()
        if "json" in headers.get("content-type", ""):
            answer = json.loads(answer or b"null")
        return status, headers, answer

    def close(self):
        for connection in self.idle:
            connection.close()
        self.idle = []


# MARK: One process's rooms

class Socket:
    """A room's socket: counts what it receives and notes when each phase of each round came."""

    def __init__(self, worker, room, role, cookie):
        self.worker, self.room, self.role, self.cookie = worker, room, role, cookie
        self.ws = None
        self.seen = {}  # ("question" | "reveal" | "podium", round number) -> time.monotonic()
        self.waiting = {}  # the same keys -> asyncio.Event
        self.version = None
        self.phase = None
        self.closing = False
        self.first = asyncio.Event()

    async def open(self):
        url = f"ws://127.0.0.1:{self.worker.port}/api/rooms/{self.room.code}/socket?as={self.role}"
        # max_size: a view of a full room is a few KB; the library's default 1 MiB is fine too.
        self.ws = await connect(url, additional_headers={"Cookie": self.cookie}, open_timeout=30,
                                ping_interval=None, max_size=2 ** 20)
        self.task = asyncio.get_running_loop().create_task(self.read())

    async def read(self):
        worker = self.worker
        try:
            async for text in self.ws:
                now = time.monotonic()
                worker.received += 1
                worker.received_bytes += len(text)
                if not text.startswith('{"type":"room"'):
                    worker.error(f"room {self.room.code} {self.role}: {text[:200]}")
                    continue
                self.first.set()
                phase = PHASE.search(text)
                phase = phase.group(1) if phase else None
                version = VERSION.search(text)
                version = int(version.group(1)) if version else None
                if version is not None and self.version is not None:
                    # Each change is told once, in order: a view again, or an older one after
                    # a newer, is a message the server need not have sent (or a step back).
                    if version == self.version:
                        worker.repeated += 1
                    elif version < self.version:
                        worker.older += 1
                        step = f"{self.phase} -> {phase}"
                        worker.older_steps[step] = worker.older_steps.get(step, 0) + 1
                        if len(worker.older_examples) < 10:
                            worker.older_examples.append(
                                f"room {self.room.code} {self.role}: version {version} ({phase}) "
                                f"after {self.version} ({self.phase})")
                self.version = version
                self.phase = phase
                if phase in ("question", "reveal"):
                    number = ROUND.search(text)
                    key = (phase, int(number.group(1)) if number else None)
                elif phase in ("podium", "lobby"):
                    key = (phase, 0)
                else:
                    continue
                if key not in self.seen:
                    self.seen[key] = now
                    event = self.waiting.pop(key, None)
                    if event:
                        event.set()
            if not self.closing:
                worker.error(f"room {self.room.code} {self.role}: closed by the server "
                             f"({self.ws.close_code} {self.ws.close_reason})")
        except ConnectionClosed as closed:
            if not self.closing:
                worker.error(f"room {self.room.code} {self.role}: closed ({closed})")

    async def wait(self, key):
        """The time `key` arrived on this socket; None (an error) after WAIT_SECONDS."""
        if key not in self.seen:
            event = self.waiting.setdefault(key, asyncio.Event())
            try:
                await asyncio.wait_for(event.wait(), WAIT_SECONDS)
            except asyncio.TimeoutError:
                self.worker.error(f"room {self.room.code} {self.role}: no {key[0]} {key[1]} "
                                  f"within {WAIT_SECONDS} s")
                return None
        return self.seen[key]

    def forget(self):
        """A new game: what was seen of the last one no longer counts."""
        self.seen = {}
        self.waiting = {}

    async def close(self):
        self.closing = True
        await self.ws.close()
        await self.task


class Room:
    def __init__(self, index):
        self.index = index
        self.code = None
        self.host = None  # cookie
        self.players = []  # cookies
        self.screen = None
        self.sockets = []  # the players' sockets


class Worker:
    def __init__(self, port, rooms, players, questions, think_ms, connections, seed):
        self.port = port
        self.rooms = [Room(i) for i in rooms]
        self.players = players
        self.questions = questions
        self.think = think_ms / 1000
        self.http = HTTPPool(port, connections)
        self.random = random.Random(seed)
        self.errors = []
        self.error_count = 0
        self.received = 0
        self.received_bytes = 0
        self.repeated = 0
        self.older = 0
        self.older_examples = []
        self.older_steps = {}  # "reveal -> question": how many older views went that way
        self.latencies = []  # seconds, from the last answer's reply
        self.latencies_sent = []  # seconds, from the moment the last answer was sent
        self.answers = []  # seconds, each answer's request to its reply

    def error(self, text):
        self.error_count += 1
        if len(self.errors) < 20:
            self.errors.append(text)

    async def call(self, method, path, body=None, cookie=None, expect=200):
        try:
            status, headers, answer = await self.http.request(method, path, body, cookie)
        except (OSError, asyncio.IncompleteReadError) as failure:
            self.error(f"{method} {path}: {failure!r}")
            return None, None
        if status != expect:
            self.error(f"{method} {path}: {status} {str(answer)[:300]}")
            return None, None
        return headers, answer

    async def new_player(self, name):
        headers, _ = await self.call("POST", "/api/players", {"name": name}, expect=201)
        if headers is None:
            return None
        return headers.get("set-cookie", "").split(";")[0]

    async def setup_room(self, room):
        room.host = await self.new_player(f"Host {room.index}")
        _, created = await self.call("POST", "/api/rooms", {}, room.host, expect=201)
        if created is None:
            raise SystemExit(f"could not create room {room.index}: {self.errors}")
        room.code = created["code"]

        async def join(i):
            cookie = await self.new_player(f"R{room.index} P{i}")
            _, view = await self.call("POST", f"/api/rooms/{room.code}/join", {}, cookie)
            if view is not None and not view["you"]["member"]:
                self.error(f"room {room.code}: joined but not a member")
            return cookie

        room.players = await asyncio.gather(*(join(i) for i in range(self.players)))

    async def setup(self):
        await asyncio.gather(*(self.setup_room(room) for room in self.rooms))
        return {"errors": self.error_count}

    async def connect(self, at_once):
        gate = asyncio.Semaphore(at_once)

        async def open_socket(socket):
            async with gate:
                try:
                    await socket.open()
                except Exception as failure:  # refused, reset, timed out
                    self.error(f"room {socket.room.code} {socket.role}: could not connect: {failure!r}")
                    return
                try:
                    await asyncio.wait_for(socket.first.wait(), WAIT_SECONDS)
                except asyncio.TimeoutError:
                    self.error(f"room {socket.room.code} {socket.role}: no view at once")

        sockets = []
        for room in self.rooms:
            room.screen = Socket(self, room, "screen", room.host)
            room.sockets = [Socket(self, room, "player", cookie) for cookie in room.players]
            sockets += [room.screen, *room.sockets]
        started = time.monotonic()
        await asyncio.gather(*(open_socket(s) for s in sockets))
        connected = time.monotonic() - started
        # Each connection tells the room's others: wait until the sockets are quiet.
        while True:
            before = self.received
            await asyncio.sleep(0.3)
            if self.received == before:
                break
        return {"sockets": sum(1 for s in sockets if s.ws is not None), "seconds": connected,
                "errors": self.error_count}

    async def answer(self, room, cookie, socket, number):
        """One player's answer to round `number` (0-based): (sent, reply) times."""
        asked = await socket.wait(("question", number + 1))
        if asked is None:
            return None
        await asyncio.sleep(self.random.uniform(0, self.think))
        sent = time.monotonic()
        body = {"action": {"type": "play", "round": number,
                           "action": {"type": "choose", "choice": self.random.randrange(4)}}}
        noted = len(self.errors)
        _, view = await self.call("POST", f"/api/rooms/{room.code}/actions", body, cookie)
        replied = time.monotonic()
        if len(self.errors) > noted:
            self.errors[-1] += (f" (round {number + 1}: question received {(sent - asked) * 1000:.0f} ms "
                                f"before the answer was sent, reply {(replied - sent) * 1000:.0f} ms after)")
        self.answers.append(replied - sent)
        return (sent, replied) if view is not None else None

    async def host_action(self, room, action):
        _, view = await self.call("POST", f"/api/rooms/{room.code}/actions",
                                  {"version": room.screen.version, "action": action}, room.host)
        return view

    async def play_room(self, room):
        everyone = [room.screen, *room.sockets]
        choose = {"type": "choose", "game": "picture-quiz",
                  "settings": {"questions": self.questions, "choices": 4}, "deck": "animals"}
        view = await self.host_action(room, choose)
        if view is None:
            return
        _, view = await self.call("POST", f"/api/rooms/{room.code}/actions",
                                  {"version": view["version"], "action": {"type": "start"}}, room.host)
        if view is None:
            return
        for number in range(self.questions):
            answered = await asyncio.gather(*(self.answer(room, cookie, socket, number)
                                              for cookie, socket in zip(room.players, room.sockets)))
            answered = [a for a in answered if a]
            if not answered:
                return
            sent, last = max(answered, key=lambda a: a[1])
            reveals = await asyncio.gather(*(s.wait(("reveal", number + 1)) for s in everyone))
            for at in reveals:
                if at is not None:
                    self.latencies.append(at - last)
                    self.latencies_sent.append(at - sent)
            # The host moves on with the version the screen last saw (the reveal's).
            if await self.host_action(room, {"type": "next"}) is None:
                return
        await asyncio.gather(*(s.wait(("podium", 0)) for s in everyone))

    async def lobby(self):
        """From the podium back to the lobby, each room, outside the measured play."""
        async def back(room):
            room.screen.forget()
            if await self.host_action(room, {"type": "lobby"}) is not None:
                await room.screen.wait(("lobby", 0))
        await asyncio.gather(*(back(room) for room in self.rooms))
        while True:
            before = self.received
            await asyncio.sleep(0.3)
            if self.received == before:
                break
        for room in self.rooms:
            for s in [room.screen, *room.sockets]:
                s.forget()
        return {"errors": self.error_count}

    async def play(self):
        self.latencies, self.latencies_sent, self.answers = [], [], []
        received, received_bytes = self.received, self.received_bytes
        repeated, older = self.repeated, self.older
        cpu = time.process_time()
        started = time.monotonic()
        await asyncio.gather(*(self.play_room(room) for room in self.rooms))
        podiums = sum(1 for room in self.rooms for s in [room.screen, *room.sockets]
                      if ("podium", 0) in s.seen)
        return {"received": self.received - received, "bytes": self.received_bytes - received_bytes,
                "repeated": self.repeated - repeated, "older": self.older - older,
                "latencies": self.latencies, "latencies_sent": self.latencies_sent,
                "answers": self.answers, "podiums": podiums, "started": started,
                "ended": time.monotonic(), "cpu": time.process_time() - cpu,
                "errors": self.error_count}

    async def close(self):
        sockets = [s for room in self.rooms for s in [room.screen, *room.sockets] if s and s.ws]
        await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)
        self.http.close()
        return {"errors": self.error_count, "messages": self.errors, "retries": self.http.retries,
                "older": self.older_examples, "older_steps": self.older_steps}


def worker_process(pipe, options):
    """A process's rooms, step by step as the main process asks (setup, connect, play, close)."""
    async def run():
        worker = Worker(**options)
        loop = asyncio.get_running_loop()
        while True:
            command, argument = await loop.run_in_executor(None, pipe.recv)
            if command == "setup":
                pipe.send(await worker.setup())
            elif command == "connect":
                pipe.send(await worker.connect(argument))
            elif command == "play":
                pipe.send(await worker.play())
            elif command == "lobby":
                pipe.send(await worker.lobby())
            elif command == "close":
                pipe.send(await worker.close())
                return
    asyncio.run(run())


# MARK: GET /ping

async def ping_burst(port, requests, connections):
    pool = HTTPPool(port, connections)
    errors = 0
    left = requests

    async def loop():
        nonlocal errors, left
        while left > 0:
            left -= 1
            status, _, _ = await pool.request("GET", "/ping")
            errors += status != 200

    await asyncio.gather(*(loop() for _ in range(connections)))
    pool.close()
    return errors


# MARK: The run

def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def median(values):
    values = [v for v in values if v == v]
    return statistics.median(values) if values else float("nan")


def measure_run(pid, port, options, step):
    """One game in every room (after a burst of pings), with the server's CPU around each."""
    cpu = cpu_seconds(pid)
    started = time.monotonic()
    ping_errors = asyncio.run(ping_burst(port, options.pings, options.ping_connections))
    ping_seconds = time.monotonic() - started
    ping_cpu = cpu_seconds(pid) - cpu

    cpu = cpu_seconds(pid)
    database = tree_cpu(options.database_pid)
    threads = thread_cpu(pid)
    idle = machine_idle()
    started = time.monotonic()
    played = step("play")
    seconds = time.monotonic() - started
    idle = machine_idle() - idle
    server_cpu = cpu_seconds(pid) - cpu
    database_cpu = tree_cpu(options.database_pid) - database
    threads = busiest_threads(threads, thread_cpu(pid), seconds)
    client_cpu = sum(p["cpu"] for p in played)
    received = sum(p["received"] for p in played)
    latencies = [x * 1000 for p in played for x in p["latencies"]]
    sent = [x * 1000 for p in played for x in p["latencies_sent"]]
    answers = [x * 1000 for p in played for x in p["answers"]]
    per_message = server_cpu * 1e6 / received if received else float("nan")
    per_ping = ping_cpu * 1e6 / options.pings
    busy = os.cpu_count() * seconds - idle
    return {
        "seconds": seconds, "received": received, "bytes": sum(p["bytes"] for p in played),
        "rate": received / seconds, "latencies": latencies,
        "p50": percentile(latencies, 50), "p99": percentile(latencies, 99),
        "max": max(latencies, default=float("nan")), "min": min(latencies, default=float("nan")),
        "sent_p50": percentile(sent, 50), "sent_p99": percentile(sent, 99),
        "answer_p50": percentile(answers, 50), "answer_p99": percentile(answers, 99),
        "answers": len(answers), "server_cpu": server_cpu, "server_cores": server_cpu / seconds,
        "client_cores": client_cpu / seconds, "database_cores": database_cpu / seconds,
        # What the machine did besides (other people's work).
        "other_cores": max(0.0, busy - server_cpu - client_cpu - database_cpu) / seconds,
        "repeated": sum(p["repeated"] for p in played), "older": sum(p["older"] for p in played),
        "threads": threads, "per_message": per_message, "per_ping": per_ping,
        "ratio": per_message / per_ping, "ping_rate": options.pings / ping_seconds,
        "podiums": sum(p["podiums"] for p in played), "ping_errors": ping_errors,
        "errors": sum(p["errors"] for p in played),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--database-url")
    parser.add_argument("--database-pid", type=int, help="PostgreSQL's postmaster: its CPU time is counted")
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--players", type=int, default=20, help="players per room (the host is not one)")
    parser.add_argument("--questions", type=int, default=5)
    parser.add_argument("--think-ms", type=int, default=500, help="each answer waits 0..this after its question")
    parser.add_argument("--runs", type=int, default=3,
                        help="games played in every room, one after the other (medians reported)")
    parser.add_argument("--workers", type=int, default=1, help="client processes sharing the rooms")
    parser.add_argument("--http-connections", type=int, default=32,
                        help="keep-alive HTTP connections per worker process")
    parser.add_argument("--pings", type=int, default=20000, help="GET /ping requests before each game")
    parser.add_argument("--ping-connections", type=int, default=32)
    parser.add_argument("--connect-at-once", type=int, default=64, help="socket handshakes in flight per worker")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="fail on any error")
    options = parser.parse_args()
    workers = max(1, min(options.workers, options.rooms))
    sockets = options.rooms * (options.players + 1)

    log_path = tempfile.mktemp(prefix="guesswork-bench-rooms-", suffix=".log")
    process, port, data_dir = start_server(options.binary, options.database_url, log_path)
    pid = process.pid
    children = []
    runs = []
    try:
        context = multiprocessing.get_context("spawn")
        for w in range(workers):
            mine, theirs = context.Pipe()
            child = context.Process(target=worker_process, daemon=True, args=(theirs, dict(
                port=port, rooms=list(range(w, options.rooms, workers)), players=options.players,
                questions=options.questions, think_ms=options.think_ms,
                connections=options.http_connections, seed=options.seed * 1000 + w)))
            child.start()
            children.append((child, mine))

        def step(command, argument=None):
            for _, pipe in children:
                pipe.send((command, argument))
            return [pipe.recv() for _, pipe in children]

        started = time.monotonic()
        step("setup")
        setup_seconds = time.monotonic() - started
        time.sleep(0.5)
        rss_before = status_kb(pid, "VmRSS")
        connected = step("connect", options.connect_at_once)
        time.sleep(0.5)
        rss_after = status_kb(pid, "VmRSS")
        open_sockets = sum(c["sockets"] for c in connected)
        connect_seconds = max(c["seconds"] for c in connected)
        for run in range(options.runs):
            if run:
                step("lobby")
            runs.append(measure_run(pid, port, options, step))
        rss_peak = status_kb(pid, "VmHWM")
        closed = step("close")
        for child, _ in children:
            child.join(10)
    finally:
        for child, _ in children:
            if child.is_alive():
                child.kill()
        process.terminate()
        stopping = time.monotonic()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        stop_seconds = time.monotonic() - stopping
    exit_code = process.returncode

    errors = closed_errors = sum(c["errors"] for c in closed)
    ping_errors = sum(r["ping_errors"] for r in runs)
    errors += ping_errors
    retries = sum(c["retries"] for c in closed)
    podiums = [r["podiums"] for r in runs]

    def row(name, text, bold=False):
        cells = [text(r) for r in runs]
        middle = text({key: median([r[key] for r in runs]) if isinstance(runs[0][key], (int, float)) else None
                       for key in runs[0]}) if len(runs) > 1 else None
        if middle is not None and bold:
            middle = f"**{middle}**"
        print(f"| {name} | {' | '.join(cells)}{f' | {middle}' if middle is not None else ''} |")

    command = os.environ.get("BENCH_COMMAND") or " ".join(["python3", *sys.argv])
    print(f"\n{command}")
    print(f"{options.rooms} rooms x {options.players} players (+ each host's screen): {sockets:,} sockets; "
          f"Picture Quiz, {options.questions} questions of 4 pictures, {options.runs} game(s) a room one "
          f"after the other; think time 0-{options.think_ms} ms; {workers} client process(es) with "
          f"{options.http_connections} keep-alive HTTP connections each; "
          f"{'PostgreSQL' if options.database_url else 'SQLite'}")
    print(f"setup ({options.rooms * (options.players + 1):,} players, {options.rooms} rooms, "
          f"{options.rooms * options.players:,} joins) {setup_seconds:.1f} s; {open_sockets:,} sockets "
          f"connected in {connect_seconds:.1f} s; server RSS {rss_before / 1024:.1f} MB with the rooms "
          f"joined and no socket, {rss_after / 1024:.1f} MB with every socket connected: "
          f"**{(rss_after - rss_before) / max(open_sockets, 1):.1f} KB a connection**; "
          f"peak {rss_peak / 1024:.1f} MB\n")
    head = [f"game {i + 1}" for i in range(len(runs))] + (["median"] if len(runs) > 1 else [])
    print(f"| measurement | {' | '.join(head)} |")
    print(f"|---|{'---|' * len(head)}")
    row("reveal after the last answer's reply, p50 / p99 ms",
        lambda r: f"{r['p50']:.1f} / {r['p99']:.1f}", bold=True)
    row("reveal after the last answer was sent, p50 / p99 ms",
        lambda r: f"{r['sent_p50']:,.0f} / {r['sent_p99']:,.0f}")
    row("an answer's reply, p50 / p99 ms", lambda r: f"{r['answer_p50']:,.0f} / {r['answer_p99']:,.0f}")
    row("play phase, s", lambda r: f"{r['seconds']:.1f}")
    row("messages received a second", lambda r: f"{r['rate']:,.0f}", bold=True)
    row("server CPU per message, µs", lambda r: f"{r['per_message']:.0f}", bold=True)
    row("server CPU per `GET /ping`, µs", lambda r: f"{r['per_ping']:.0f}")
    row("per message / per ping", lambda r: f"{r['ratio']:.2f}", bold=True)
    if options.database_pid:
        row("cores: server / PostgreSQL / load client / others", lambda r: f"{r['server_cores']:.2f} / "
            f"{r['database_cores']:.2f} / {r['client_cores']:.2f} / {r['other_cores']:.2f}")
    else:
        row("cores: server / load client / others", lambda r: f"{r['server_cores']:.2f} / "
            f"{r['client_cores']:.2f} / {r['other_cores']:.2f}")
    row("views received again (same version) / older than one received", lambda r: f"{r['repeated']:,.0f} / {r['older']:,.0f}")
    print(f"| errors | {' | '.join(str(r['errors'] + r['ping_errors']) for r in runs)}"
          f"{f' | **{errors}** in all' if len(runs) > 1 else ''} |")
    # Every accepted change is one message to each of the room's sockets: choose, start, each
    # answer (the last one is the reveal) and each next (the last one is the podium). Fewer means
    # a socket's queue (the newest 16 messages) dropped some, or a round ran out of time.
    expected = options.rooms * (options.players + 1) * (2 + options.questions * (options.players + 1))
    counts = " / ".join(f"{r['received']:,}" for r in runs)
    print(f"\nEach game: {counts} messages of {expected:,} "
          f"expected ({runs[0]['bytes'] / max(runs[0]['received'], 1):,.0f} B on average), {runs[0]['answers']:,} answers, {len(runs[0]['latencies']):,} reveals received "
          f"(earliest {min(r['min'] for r in runs):.1f} ms, latest {max(r['max'] for r in runs):.1f} ms after "
          f"the last reply); podium seen by {' / '.join(f'{p:,}' for p in podiums)} of {sockets:,} sockets; "
          f"`GET /ping` {options.pings:,} at {options.ping_connections} connections before each game, "
          f"{median([r['ping_rate'] for r in runs]):,.0f}/s.")
    print("The server's busiest threads (CPU time in each game's play): ")
    for i, r in enumerate(runs):
        print(f"  game {i + 1}: {r['threads']}")
    older = [m for c in closed for m in c["older"]]
    if older:
        steps = {}
        for c in closed:
            for step, n in c["older_steps"].items():
                steps[step] = steps.get(step, 0) + n
        print("\nViews older than one the socket had received, by phase (newer -> older): "
              + ", ".join(f"{step} {n:,}" for step, n in sorted(steps.items(), key=lambda kv: -kv[1]))
              + "; the first:")
        for message in older[:10]:
            print(f"  {message}")
    if retries:
        print(f"\n{retries} request(s) sent again on a new connection (a kept one closed while idle)")
    messages = [m for c in closed for m in c["messages"]]
    if messages or ping_errors:
        print(f"\nerrors ({closed_errors} in the rooms, {ping_errors} pings); the first:")
        for message in messages[:20]:
            print(f"  {message}")
    if exit_code == -9:
        # Not a load error, but worth knowing: nothing was connected any more.
        print(f"\nWARNING: the server did not stop within 10 s of SIGTERM (killed); its log: {log_path}")
    elif exit_code not in (0, -15):
        print(f"\nthe server exited with {exit_code} ({stop_seconds:.1f} s after SIGTERM); its log: {log_path}")
        errors += 1
    with open(log_path, "rb") as f:
        log = f.read().decode("utf-8", "replace").strip()
    lines = [line for line in log.splitlines() if "is ready" not in line]
    if lines:
        print(f"\nthe server's log ({log_path}), {len(lines)} line(s); the last:")
        for line in lines[-10:]:
            print(f"  {line}")
    elif exit_code in (0, -15):
        os.unlink(log_path)
    subprocess.run(["rm", "-rf", data_dir])
    if errors or any(p != sockets for p in podiums):
        sys.exit(f"{errors} errors; podium on {' / '.join(map(str, podiums))} of {sockets} sockets")
    if options.smoke:
        print("\nsmoke: the rooms played to the podium with no errors")


if __name__ == "__main__":
    main()
