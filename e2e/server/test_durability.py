"""What a server operator relies on: several instances share one PostgreSQL, nothing a
player saw acknowledged is lost when the process is killed, and the README's command works
with nothing set up."""
import glob
import os
import re
import subprocess
import tempfile
import time
import urllib.parse
import urllib.request

import pytest

from support.server import Client, Server, binary, free_port, psql

POSTGRES_URL = os.environ.get("GUESSWORK_TEST_POSTGRES_URL")


def stats_for(client, kind):
    status, _, stats = client.get("/api/me/stats")
    assert status == 200
    return next(g for g in stats["games"] if g["game"] == kind)


@pytest.mark.skipif(
    not POSTGRES_URL and os.environ.get("GUESSWORK_REQUIRE_POSTGRES") != "1",
    reason="needs the PostgreSQL that scripts/test starts",
)
def test_a_game_started_on_one_instance_finishes_on_another():
    assert POSTGRES_URL, "scripts/test should have started PostgreSQL"
    with Server(database_url=POSTGRES_URL) as a, Server(database_url=POSTGRES_URL) as b:
        player = Client(a.url)
        player.join("Two Servers")
        game = player.start_game("number", {"attempts": 7})
        game = player.halve(game)
        game = player.halve(game)
        # The same browser (same cookie) now reaches the other instance.
        player.base_url = b.url
        status, _, resumed = player.get(f"/api/games/{game['id']}")
        assert status == 200
        assert resumed["version"] == game["version"] == 2
        assert resumed["view"] == game["view"]
        game = resumed
        while not game["isOver"]:
            game = player.halve(game)
        assert game["view"]["phase"] == "won"
        for url in (a.url, b.url):
            player.base_url = url
            number = stats_for(player, "number")
            assert number["played"] == 1
            assert number["bestScore"] == game["score"]


def postgres_sockets(pid):
    """The local ports of process `pid`'s TCP connections to the test PostgreSQL, read from
    /proc (the process's socket inodes, matched against the kernel's TCP table)."""
    port = urllib.parse.urlparse(POSTGRES_URL).port
    inodes = set()
    for fd in glob.glob(f"/proc/{pid}/fd/*"):
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                local, remote, state, inode = fields[1], fields[2], fields[3], fields[9]
                # state 01: established
                if inode in inodes and state == "01" and int(remote.split(":")[1], 16) == port:
                    ports.append(int(local.split(":")[1], 16))
    return ports


def wait_for(condition, seconds=10):
    deadline = time.time() + seconds
    while not condition():
        if time.time() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.skipif(
    not POSTGRES_URL and os.environ.get("GUESSWORK_REQUIRE_POSTGRES") != "1",
    reason="needs the PostgreSQL that scripts/test starts",
)
def test_a_server_holds_its_postgres_connections_and_makes_them_again_when_dropped():
    """A server opens its pool's connections at the start and keeps them (no idle timers on
    the hot path: BENCHMARKS.md); when PostgreSQL drops them all, the next requests still
    succeed and the pool is made again."""
    assert POSTGRES_URL, "scripts/test should have started PostgreSQL"
    with Server(database_url=POSTGRES_URL) as server:
        # Before any request: the pool (at least 4 connections on any machine) is open.
        assert wait_for(lambda: len(postgres_sockets(server.process.pid)) >= 4), \
            postgres_sockets(server.process.pid)
        ports = postgres_sockets(server.process.pid)
        dropped = psql(POSTGRES_URL, "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                       f"WHERE client_port IN ({','.join(map(str, ports))})")
        assert int(dropped) == len(ports)
        assert wait_for(lambda: not set(ports) & set(postgres_sockets(server.process.pid)))
        player = Client(server.url)
        player.join("Dropped")
        game = player.start_game("number", {"attempts": 7})
        game = player.halve(game)
        status, _, read = player.get(f"/api/games/{game['id']}")
        assert status == 200 and read["version"] == game["version"] == 1
        assert wait_for(lambda: len(postgres_sockets(server.process.pid)) >= 4)


def test_nothing_acknowledged_is_lost_when_the_server_is_killed():
    data_dir = tempfile.mkdtemp(prefix="guesswork-kill-")
    port = free_port()
    server = Server(data_dir=data_dir, port=port).start()
    player = Client(server.url)
    player.join("Survivor")
    game = player.start_game("number", {"attempts": 7})
    game = player.halve(game)
    game = player.halve(game)
    acknowledged = game
    server.kill()

    server = Server(data_dir=data_dir, port=port).start()
    try:
        status, _, resumed = player.get(f"/api/games/{game['id']}")
        assert status == 200
        assert resumed["version"] == acknowledged["version"]
        assert resumed["view"] == acknowledged["view"]
        game = resumed
        while not game["isOver"]:
            game = player.halve(game)
        assert stats_for(player, "number")["played"] == 1
    finally:
        server.stop()


def test_the_readme_command_starts_a_server_with_nothing_set_up():
    folder = tempfile.mkdtemp(prefix="guesswork-fresh-")
    port = free_port()
    env = dict(os.environ, GUESSWORK_PORT=str(port))
    env.pop("DATABASE_URL", None)
    process = subprocess.Popen(
        [binary(), "serve"], cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = process.stdout.readline()
        assert re.search(rf"open http://127\.0\.0\.1:{port}/", line), line
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            assert response.status == 200
            assert "<html" in response.read().decode().lower()
        assert os.path.exists(os.path.join(folder, "guesswork.sqlite"))
    finally:
        process.terminate()
        process.wait(timeout=10)
