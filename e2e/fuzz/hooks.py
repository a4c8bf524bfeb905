"""Schemathesis hooks for e2e/fuzz/test_schemathesis.py (loaded through SCHEMATHESIS_HOOKS).

Every generated request carries a player's cookie, so the routes behind `playerCookie` are
fuzzed too, not only their 401:

- most operations use the player the test made and seeded (GUESSWORK_FUZZ_COOKIE), whose
  games, category and reminder the config file names; when its cookie stops working (a 401),
  Schemathesis asks again and a new player is made, then the request is replayed;
- the operations that end the cookie they are sent with (sign out, take a new token, use a
  sign-in code) get a fresh player each, so they never end the shared one.
"""
import json
import os
import urllib.request

import schemathesis

COOKIE = "guesswork_player"
BASE_URL = os.environ["GUESSWORK_FUZZ_URL"]
SEEDED_COOKIE = os.environ["GUESSWORK_FUZZ_COOKIE"]
ENDS_ITS_COOKIE = dict(
    path_regex=r"^/api/(me/sign-out|me/token|link-codes/\{code\})$", method_regex="^POST$"
)


def new_player(name):
    request = urllib.request.Request(
        BASE_URL + "/api/players",
        data=json.dumps({"name": name}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201, response.status
        for header in response.headers.get_all("Set-Cookie") or []:
            name_value = header.split(";", 1)[0]
            if name_value.startswith(COOKIE + "="):
                return name_value.split("=", 1)[1]
    raise AssertionError("POST /api/players set no player cookie")


@schemathesis.auth(refresh_interval=None).apply_to(**ENDS_ITS_COOKIE)
class FreshPlayer:
    """A new player for every request that ends its cookie."""

    def get(self, case, context):
        return new_player("Fuzz Once")

    def set(self, case, data, context):
        case.cookies = {**(case.cookies or {}), COOKIE: data}


@schemathesis.auth(refresh_interval=24 * 3600, retry_on=[401]).skip_for(**ENDS_ITS_COOKIE)
class SeededPlayer:
    """The seeded player first; a new one after its cookie stopped working."""

    def __init__(self):
        self.used_seed = False

    def get(self, case, context):
        if not self.used_seed:
            self.used_seed = True
            return SEEDED_COOKIE
        return new_player("Fuzz Again")

    def set(self, case, data, context):
        case.cookies = {**(case.cookies or {}), COOKIE: data}
