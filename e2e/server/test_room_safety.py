"""Room safety and access (issue 54, item 6, in part): the host locks a room and hides its code
from the shared screen; names pass the family-friendly filter (the bundled blocklists), with a
refusal in the request's language that changes nothing."""

import pytest

from support.server import Client, Server
from test_room_protocol import Socket, act, host_act, join_phones, make_room

pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used:DeprecationWarning")


def post(client, path, body, language):
    return client.request("POST", path, body, headers={"Accept-Language": language})


def test_a_locked_room_takes_nobody_new_and_the_screen_can_hide_the_code():
    with Server() as server:
        host, code, _ = make_room(server)
        screen = Socket(server.url, host, code, role="screen")
        ana, ben = join_phones(server, code, ["Ana", "Ben"])
        # Only the host locks; a stale version is refused like any host action.
        refused = act(ana, code, {"type": "lock", "locked": True}, version=0, expect=403)
        assert refused["error"]["code"] == "not-host"
        locked = host_act(host, code, {"type": "lock", "locked": True})
        assert locked["locked"] is True
        screen.latest(lambda m: m.get("locked") is True, "the lock on the screen")
        version = host.get(f"/api/rooms/{code}")[2]["version"]
        # Someone new is refused, in their language; the room does not change.
        cy = Client(server.url)
        cy.join("Cy")
        status, _, reply = post(cy, f"/api/rooms/{code}/join", {}, "es")
        assert status == 403 and reply["error"]["code"] == "room-locked"
        assert "anfitrión" in reply["error"]["message"]
        # Who has been in the room may come back: Ben leaves and rejoins.
        act(ben, code, {"type": "leave"})
        assert ben.post(f"/api/rooms/{code}/join", {})[0] == 200
        assert host.get(f"/api/rooms/{code}")[2]["version"] == version + 2
        # Open again: Cy joins.
        opened = host_act(host, code, {"type": "lock", "locked": False})
        assert "locked" not in opened
        assert cy.post(f"/api/rooms/{code}/join", {})[0] == 200
        # The code hidden on the shared screen (the view says so; the page draws no code).
        hidden = host_act(host, code, {"type": "hideCode", "hidden": True})
        assert hidden["codeHidden"] is True
        screen.latest(lambda m: m.get("codeHidden") is True, "the hidden code on the screen")
        shown = host_act(host, code, {"type": "hideCode", "hidden": False})
        assert "codeHidden" not in shown
        # A lock that is not a yes or no is a clear 400.
        status, _, summary = host.get(f"/api/rooms/{code}")
        status, _, reply = post(host, f"/api/rooms/{code}/actions",
                                {"version": summary["version"], "action": {"type": "lock", "locked": "yes"}}, "ru")
        assert status == 400, reply
        assert host.get(f"/api/rooms/{code}")[2]["version"] == summary["version"]
        screen.close()


@pytest.mark.parametrize("name", ["shit", "Big Dick", "fuck-face", "ХУЙ"])
def test_a_name_with_a_blocked_word_is_refused_and_changes_nothing(name):
    with Server() as server:
        player = Client(server.url)
        status, _, reply = post(player, "/api/players", {"name": name}, "es")
        assert status == 400, reply
        assert reply["error"]["code"] == "invalid-name" or "name" in reply["error"]["code"], reply
        assert "palabra" in reply["error"]["message"], reply
        assert player.cookie("guesswork_player") is None
        # A player's new name too: the old one stays.
        player.join("Ana")
        status, _, reply = player.request("PATCH", "/api/me", {"name": name}, headers={"Accept-Language": "ru"})
        assert status == 400, reply
        assert "слово" in reply["error"]["message"], reply
        assert player.get("/api/me")[2]["name"] == "Ana"
        # Words that only contain a blocked one are fine ("Dickens", "Scunthorpe").
        status, _, me = player.request("PATCH", "/api/me", {"name": "Dickens of Scunthorpe"})
        assert status == 200 and me["name"] == "Dickens of Scunthorpe", me
