"""Fuzzing: Schemathesis against the OpenAPI document a real server serves, on SQLite and on
PostgreSQL, for a bounded number of generated requests per operation (a fixed seed, so a run
repeats). It runs every check Schemathesis has (`--checks all`): it fails on any 5xx, on any answer
the document does not allow (an undocumented status, content type or header, a body that does
not match the documented schema), on input the document forbids that the server takes, on
input the document allows that the server refuses, and on methods or authentication the
server does not answer as documented.

The requests carry a player's cookie (tests/fuzz/hooks.py), and the config file names a game,
a category, a reminder and the player the test made, so the routes behind the cookie and the
ones that take an id are fuzzed past their 401 and 404.

The schema is the server's own /openapi.json: openapi-base.json from the binary's resource
bundle (copied there by `swift build`) with the games' parts made from their types, so an edit
of Sources/GuessworkServer/openapi-base.json is fuzzed once the binary is rebuilt.
GUESSWORK_FUZZ_SCHEMA=<file> fuzzes a local copy instead.
GUESSWORK_FUZZ_EXAMPLES sets how many requests per operation and phase (default 50);
GUESSWORK_FUZZ_SEED another seed; GUESSWORK_FUZZ_CHECKS a comma-separated list of checks instead
of all of them (to look at one kind of finding); GUESSWORK_FUZZ_REPORT=har (or junit, vcr...) with
GUESSWORK_FUZZ_REPORT_DIR=<dir> keeps every request and answer.
"""
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings

import pytest

from support.server import Client, Server

POSTGRES_URL = os.environ.get("GUESSWORK_TEST_POSTGRES_URL")
REQUIRE_POSTGRES = os.environ.get("GUESSWORK_REQUIRE_POSTGRES") == "1"
HERE = os.path.dirname(os.path.abspath(__file__))

# What is checked: every check Schemathesis has (issue 52): the server's answers against the
# document, and the document's input schemas against what the server takes and refuses
# (positive_data_acceptance and negative_data_rejection, with Schemathesis's expected statuses).
CHECKS = "all"
SEED = int(os.environ.get("GUESSWORK_FUZZ_SEED", "20261124"))
EXAMPLES = int(os.environ.get("GUESSWORK_FUZZ_EXAMPLES", "50"))
# A run is bounded by EXAMPLES; this only stops a run that hangs.
TIMEOUT_SECONDS = 240


def seed_player(server):
    """A player with something behind each id the routes take."""
    client = Client(server.url)
    player = client.join("Fuzz")
    game = client.start_game("number", {"attempts": 20})
    bullseye = client.start_game("bullseye")
    words = [f"word {i}" for i in range(12)]
    status, _, category = client.post("/api/categories", {"name": "Fuzz words", "words": words})
    assert status == 201, (status, category)
    start = time.strftime("%Y-%m-%dT20:00Z", time.gmtime(time.time() + 30 * 86400))
    status, _, reminder = client.post("/api/reminders", {"start": start, "title": "Fuzz night"})
    assert status == 201, (status, reminder)
    status, _, link = client.post("/api/me/link-codes", {})
    assert status == 201, (status, link)
    return client.cookie("guesswork_player"), {
        "player": player["id"], "game": game["id"], "bullseye": bullseye["id"],
        "category": category["id"], "reminder": reminder["id"], "code": link["code"],
    }


def config_toml(ids):
    """Schemathesis's config: the seeded ids for the operations that take them (the
    generated ones still reach the 404s through the negative and coverage cases)."""
    def operation(name, **parameters):
        values = ", ".join(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in parameters.items())
        return f"[[operations]]\ninclude-name = {json.dumps(name)}\nparameters = {{ {values} }}\n"

    # Warnings that mean the run tested less than it seems: every answer a 401 (the cookie
    # did not reach the server), a pattern Schemathesis cannot generate from, a 429.
    fail_on = (
        "[warnings]\n"
        'fail-on = ["missing_auth", "unsupported_regex", "unresolvable_reference", "rate_limited"]\n'
    )
    # Not for the DELETEs: the seeded category and reminder stay for the coverage and fuzzing
    # phases (the stateful one may still delete them, found through the lists).
    return "\n".join([
        fail_on,
        operation("GET /api/games/{id}", id=ids["game"]),
        operation("POST /api/games/{id}/actions", id=ids["game"]),
        operation("GET /api/games/{id}/target.svg", id=ids["bullseye"]),
        operation("GET /api/categories/{id}", id=ids["category"]),
        operation("PUT /api/categories/{id}", id=ids["category"]),
        operation("GET /api/reminders/{id}", id=ids["reminder"]),
        operation("GET /api/reminders/{id}.ics", id=ids["reminder"]),
        operation("GET /api/players/{id}/avatar", id=ids["player"]),
        operation("GET /api/link-codes/{code}", code=ids["code"]),
        operation("POST /api/link-codes/{code}", code=ids["code"]),
        operation("POST /api/daily/{game}", game="number"),
        operation("GET /api/daily/{game}/archive", game="color-match"),
        operation("GET /api/daily/{game}/leaderboard", game="bullseye"),
    ])


DATABASES = ["sqlite", "postgres"]


@pytest.mark.parametrize("database", DATABASES)
def test_schemathesis_finds_no_5xx_and_no_answer_the_document_forbids(database):
    if database == "postgres" and not POSTGRES_URL:
        if REQUIRE_POSTGRES:
            pytest.fail("GUESSWORK_REQUIRE_POSTGRES=1 but GUESSWORK_TEST_POSTGRES_URL is not set")
        reason = "FUZZING ON POSTGRESQL SKIPPED: set GUESSWORK_TEST_POSTGRES_URL (scripts/test does)"
        warnings.warn(reason)
        pytest.skip(reason)
    server = Server(database_url=POSTGRES_URL if database == "postgres" else None)
    with server, tempfile.TemporaryDirectory(prefix="guesswork-fuzz-") as work:
        cookie, ids = seed_player(server)
        config = os.path.join(work, "schemathesis.toml")
        with open(config, "w") as f:
            f.write(config_toml(ids))
        schema = os.environ.get("GUESSWORK_FUZZ_SCHEMA") or server.url + "/openapi.json"
        env = dict(
            os.environ,
            SCHEMATHESIS_HOOKS=os.path.join(HERE, "hooks.py"),
            GUESSWORK_FUZZ_URL=server.url,
            GUESSWORK_FUZZ_COOKIE=cookie,
        )
        command = [
            sys.executable, "-m", "schemathesis.cli", "--config-file", config, "run", schema,
            "--url", server.url,
            "--checks", os.environ.get("GUESSWORK_FUZZ_CHECKS") or CHECKS,
            "--max-examples", str(EXAMPLES),
            "--seed", str(SEED),
            # One worker: with several threads, Hypothesis's ast.parse hit CPython 3.11's
            # "AST constructor recursion depth mismatch" SystemError.
            "--workers", "1",
            # The cookie comes from the hooks, never a generated one.
            "--generation-with-security-parameters", "false",
            "--generation-database", "none",
            "--request-timeout", "30",
            "--suppress-health-check", "all",
            "--no-color",
        ]
        if os.environ.get("GUESSWORK_FUZZ_REPORT"):
            command += ["--report", os.environ["GUESSWORK_FUZZ_REPORT"],
                        "--report-dir", os.environ.get("GUESSWORK_FUZZ_REPORT_DIR", os.getcwd())]
        started = time.monotonic()
        try:
            run = subprocess.run(
                command, cwd=work, env=env, capture_output=True, text=True, timeout=TIMEOUT_SECONDS
            )
        except subprocess.TimeoutExpired as e:
            partial = e.stdout.decode("utf-8", "replace") if isinstance(e.stdout, bytes) else e.stdout or ""
            pytest.fail(f"schemathesis ran over {TIMEOUT_SECONDS} s:\n{partial[-20000:]}")
        took = time.monotonic() - started
        output = run.stdout + run.stderr
        print(output[-6000:])
        print(f"schemathesis on {database}: {took:.0f} s")
        assert server.process.poll() is None, f"the server died; log:\n{server.read_log()[-5000:]}"
        assert run.returncode == 0, f"schemathesis failed on {database}:\n{output[-30000:]}"
        assert "Tested:" in output, output[-5000:]
