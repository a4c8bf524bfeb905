"""Fuzzing: Schemathesis against the OpenAPI document a real server serves, on SQLite and on
PostgreSQL, for a bounded number of generated requests per operation (a fixed seed, so a run
repeats). It runs every check Schemathesis has (`--checks all`): it fails on any 5xx, on any answer
the document does not allow (an undocumented status, content type or header, a body that does
not match the documented schema), on input the document forbids that the server takes, on
input the document allows that the server refuses, and on methods or authentication the
server does not answer as documented.

The requests carry a player's cookie (e2e/fuzz/hooks.py), and the config file names the
games, the avatar and the sign-in code the test made, so the routes behind the cookie and the
ones that take an id are fuzzed past their 401 and 404 (the category and reminder it made are
found by Schemathesis in their lists; see config_toml).

A few operations refuse requests the document allows for reasons no JSON Schema can state (a
day between the launch and today, a setting's range, ten different words...):
POSITIVE_DATA_REFUSED lists them, each with its reason and the statuses the document gives it.
Every other finding is a disagreement between the document and the server: fix one of them.

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
    # A picture (no route deletes one, and a PUT replaces it only with another), so the avatar
    # route is fuzzed past its 404, and so is the stateful phase's step from a new player to it.
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
    status, _, me = client.request("PUT", "/api/me/avatar", raw=png, headers={"Content-Type": "image/png"})
    assert status == 200 and me.get("avatarURL"), (status, me)
    return client.cookie("guesswork_player"), {
        "player": player["id"], "game": game["id"], "bullseye": bullseye["id"],
        "category": category["id"], "reminder": reminder["id"], "code": link["code"],
    }


# Schemathesis expects a request its data generator made from the document to be accepted
# (positive_data_acceptance: 2xx, 3xx, 401, 403, 404, 409, 429). These operations also refuse
# some requests the document allows, for reasons no JSON Schema can state; each is documented
# with its status and codes in the document, and only these operations get these statuses.
POSITIVE_DATA_REFUSED = {
    # A day must be from the launch to today (UTC): today moves, so no schema can bound it.
    "GET /api/daily": ["400"],
    "GET /api/daily/{game}/leaderboard": ["400"],
    "POST /api/daily/{game}": ["400"],
    # Ten different words once blanks and repeats (ignoring case) are dropped, family-friendly,
    # a name no other category of the player's or built-in one has, 50 categories a player.
    "POST /api/categories": ["400"],
    "PUT /api/categories/{id}": ["400"],
    # Settings' ranges are told in their descriptions (invalid-setting names the bad one), and a
    # category or deck must exist for this player.
    "POST /api/games": ["400"],
    # The action schema is every game's actions (anyOf): an action of another game than the
    # one at {id} is a 400, and a game refuses a move its state does not allow (422).
    "POST /api/games/{id}/actions": ["400", "422"],
    # A start from an hour to five years ahead of now, a real date; 100 reminders a player.
    "POST /api/reminders": ["400"],
    # An avatar's type is judged by its bytes, which the document can only call a string.
    "PUT /api/me/avatar": ["415"],
    # Some bodies are capped in bytes (1 KB; a room action 16 KB), and their objects take any
    # other keys (ignored), so a valid one can be too large (413).
    "POST /api/rooms": ["413"],
    "POST /api/rooms/{code}/join": ["413"],
    "POST /api/me/link-codes": ["413"],
    "POST /api/link-codes/{code}": ["413"],
    "POST /api/me/sign-out": ["413"],
    # As for a game: a choice must exist (game, deck, the player's own category, settings in
    # their ranges), and a game refuses a move its state does not allow (422).
    "POST /api/rooms/{code}/actions": ["400", "413", "422"],
}
POSITIVE_DATA_ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]


def config_toml(ids):
    """Schemathesis's config: the seeded ids for the operations that take them (the
    generated ones still reach the 404s through the negative and coverage cases), and the
    statuses of POSITIVE_DATA_REFUSED."""
    def operation(name, **parameters):
        lines = [f"[[operations]]\ninclude-name = {json.dumps(name)}"]
        if parameters:
            values = ", ".join(f"{json.dumps(k)} = {json.dumps(v)}" for k, v in parameters.items())
            lines.append(f"parameters = {{ {values} }}")
        if name in POSITIVE_DATA_REFUSED:
            statuses = sorted(POSITIVE_DATA_ACCEPTED + POSITIVE_DATA_REFUSED[name])
            lines.append(f"checks.positive_data_acceptance.expected-statuses = {json.dumps(statuses)}")
        return "\n".join(lines) + "\n"

    # Warnings that mean the run tested less than it seems: every answer a 401 (the cookie
    # did not reach the server), a pattern Schemathesis cannot generate from, a 429.
    fail_on = (
        "[warnings]\n"
        'fail-on = ["missing_auth", "unsupported_regex", "unresolvable_reference", "rate_limited"]\n'
    )
    # A pinned id wins over the stateful phase's links too, so only what is never deleted is
    # pinned: games, the avatar, a link code (used once, then its 404), the games of the daily
    # routes. The seeded category and reminder are found by Schemathesis in GET /api/categories
    # and GET /api/reminders (and may be deleted from there); pinned, a GET after a POST would
    # read the seeded one, perhaps deleted, and be taken for a created resource that is missing.
    pinned = {
        "GET /api/games/{id}": dict(id=ids["game"]),
        "POST /api/games/{id}/actions": dict(id=ids["game"]),
        "GET /api/games/{id}/target.svg": dict(id=ids["bullseye"]),
        "GET /api/players/{id}/avatar": dict(id=ids["player"]),
        "GET /api/link-codes/{code}": dict(code=ids["code"]),
        "POST /api/link-codes/{code}": dict(code=ids["code"]),
        "POST /api/daily/{game}": dict(game="number"),
        "GET /api/daily/{game}/archive": dict(game="color-match"),
        "GET /api/daily/{game}/leaderboard": dict(game="bullseye"),
    }
    names = list(pinned) + [name for name in POSITIVE_DATA_REFUSED if name not in pinned]
    return "\n".join([fail_on] + [operation(name, **pinned.get(name, {})) for name in names])


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
