"""Start and stop a real `guesswork serve` for end-to-end tests.

The binary comes from GUESSWORK_BIN (scripts/test sets it to the debug build); each server
gets a free loopback port and, unless a DATABASE_URL is given, a fresh SQLite folder.
"""
import glob
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from http.cookiejar import CookieJar

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def binary():
    return os.environ.get("GUESSWORK_BIN") or os.path.join(ROOT, ".build", "debug", "guesswork")


def examples_binary():
    """`guesswork-examples`: the five games and the test-only example games (Coin Flip)."""
    return os.environ.get("GUESSWORK_EXAMPLES_BIN") or os.path.join(ROOT, ".build", "debug", "guesswork-examples")


def psql(url, sql):
    """What `sql` answers on the PostgreSQL at `url` (psql's unaligned rows, as text)."""
    program = shutil.which("psql") or sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))[-1]
    return subprocess.run([program, url, "-tAc", sql], capture_output=True, text=True,
                          check=True).stdout.strip()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A running `guesswork serve`; use as a context manager or call start()/stop()."""

    def __init__(self, data_dir=None, database_url=None, port=None, env=None, args=None, https=False,
                 program=None):
        self.own_dir = data_dir is None and database_url is None
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="guesswork-e2e-")
        self.database_url = database_url
        self.port = port or free_port()
        self.env = env or {}
        self.args = args or []
        self.https = https
        # The binary to run: `guesswork` (GUESSWORK_BIN) unless a test names another.
        self.program = program
        self.process = None
        self.log_path = os.path.join(self.data_dir, f"server-{self.port}.log")

    @property
    def url(self):
        return f"{'https' if self.https else 'http'}://127.0.0.1:{self.port}"

    def start(self, timeout=30):
        # The environment passes through (GUESSWORK_PUBLIC_DIR and GUESSWORK_I18N_DIR among it).
        env = dict(os.environ)
        env.pop("DATABASE_URL", None)
        # Test servers never reach the internet: Datamuse is off unless a test points it at a
        # local fake (GUESSWORK_DATAMUSE=on and GUESSWORK_DATAMUSE_URL in `env`).
        env.setdefault("GUESSWORK_DATAMUSE", "off")
        # Tests make many players from one address and move as fast as they can: the rate
        # limits are off unless a test sets them (e2e/server/test_limits.py).
        env.setdefault("GUESSWORK_RATE_LIMITS", "off")
        # The pages and catalogs of this working copy, whatever binary serves them (a binary
        # built elsewhere carries its own copy of them).
        env.setdefault("GUESSWORK_PUBLIC_DIR", os.path.join(ROOT, "Sources", "GuessworkServer", "Public"))
        env.setdefault("GUESSWORK_I18N_DIR", os.path.join(ROOT, "Sources", "GuessworkContent", "Resources", "i18n"))
        env.update(self.env)
        args = [self.program or binary(), "serve", "--port", str(self.port), "--data-dir", self.data_dir]
        if self.database_url:
            args += ["--database-url", self.database_url]
        args += self.args
        self.log = open(self.log_path, "ab")
        self.process = subprocess.Popen(args, stdout=self.log, stderr=self.log, env=env)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited early; log:\n{self.read_log()}")
            try:
                # Only whether it answers: the tests judge its certificate themselves.
                unchecked = ssl._create_unverified_context() if self.https else None
                with urllib.request.urlopen(self.url + "/healthz", timeout=1, context=unchecked) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, socket.timeout):
                time.sleep(0.1)
        raise RuntimeError(f"server did not answer in {timeout} s; log:\n{self.read_log()}")

    def read_log(self):
        try:
            with open(self.log_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def kill(self):
        """SIGKILL: no chance to flush or close anything."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        self.log.close()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process:
            self.log.close()

    def cleanup(self):
        if self.own_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        self.cleanup()


class _KeepRedirects(urllib.request.HTTPRedirectHandler):
    """Hands a redirect back as the answer instead of following it."""

    def redirect_request(self, *args, **kwargs):
        return None


def halving_guess(view):
    """The guess of a player who halves: the middle of a Number game's known range."""
    return {"type": "guess", "number": (view["knownLow"] + view["knownHigh"]) // 2}


class Client:
    """A player's browser, as far as the API is concerned: keeps its cookie."""

    def __init__(self, base_url, follow_redirects=True, ssl_context=None):
        self.base_url = base_url
        self.cookies = CookieJar()
        handlers = [urllib.request.HTTPCookieProcessor(self.cookies)]
        if ssl_context is not None:
            handlers.append(urllib.request.HTTPSHandler(context=ssl_context))
        if not follow_redirects:
            handlers.append(_KeepRedirects())
        self.opener = urllib.request.build_opener(*handlers)

    def cookie(self, name):
        return next((c.value for c in self.cookies if c.name == name), None)

    def request(self, method, path, body=None, raw=None, headers=None):
        """Returns (status, headers, parsed JSON or bytes)."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.base_url + path, data=data, method=method)
        if data is not None and "Content-Type" not in (headers or {}):
            req.add_header("Content-Type", "application/json")
        for k, v in (headers or {}).items():
            req.add_header(k, v)
        try:
            with self.opener.open(req, timeout=30) as r:
                return r.status, dict(r.headers), _decode(r.read(), r.headers)
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), _decode(e.read(), e.headers)

    def get(self, path):
        return self.request("GET", path)

    def post(self, path, body=None, raw=None):
        return self.request("POST", path, body=body, raw=raw)

    # Typed helpers: what a player does.
    def join(self, name="Ana"):
        status, _, player = self.post("/api/players", {"name": name})
        assert status == 201, (status, player)
        return player

    def start_game(self, game, settings=None, **options):
        body = {"game": game, **options}
        if settings is not None:
            body["settings"] = settings
        status, _, reply = self.post("/api/games", body)
        assert status == 201, (status, reply)
        return reply

    def act(self, game, action, expect=200):
        status, _, reply = self.post(
            f"/api/games/{game['id']}/actions", {"action": action, "version": game["version"]}
        )
        assert status == expect, (status, reply)
        return reply

    def halve(self, game):
        """One guess of a Number game in the middle of its known range."""
        return self.act(game, halving_guess(game["view"]))


def _decode(data, headers):
    if "json" in (headers.get("Content-Type") or ""):
        return json.loads(data or b"null")
    return data
