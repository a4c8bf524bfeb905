"""A room whose host goes, in real headless Chromium sessions (docs/rooms.md, "When the host is
away"): the host's phone and their shared screen close mid-round; the phones say so within
10 s; after the room's hand-over time (10 s here) the player connected longest hosts and moves
the room on; the first host's screen, opened again, says who hosts; the first host, back, taps
Host again. And the host locks the room and hides its code from the screen. Screenshots:
rooms-host-away-*.png and rooms-locked-*.png (phones at 360x640, the screen at 1920x1080)."""
import os
import sys
import time

from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_browser import POLL, server  # noqa: E402,F401  (fixtures are used by name)
from test_rooms import BIG_SCREEN, PHONE, SCREEN, choose, join_everyone, open_room, party, room  # noqa: E402,F401


def test_the_room_goes_on_when_its_host_goes_and_the_host_takes_it_back(room):
    party = room
    host, screen, phones = party.host, party.screen, party.phones
    ivo = phones[0]
    host.resize(PHONE)
    host.open("room.html")
    code = host.js("""return fetch('/api/rooms', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({handoverSeconds: 10})}).then((r) => r.json()).then((c) => c.code)""")
    host.open(f"room.html?code={code}")
    host.find("#lobby")
    screen.open(f"screen.html?code={code}")
    assert screen.wait_text("#s-code", code) == code
    join_everyone(party, code)
    choose(host, "picture-quiz", {"questions": 1, "choices": 3}, deck="animals")
    for person in party.players:
        person.wait_text("#round-text", r"^Round 1 of 1$")
        assert not person.shown("#host-note")

    # The host's phone and screen go mid-round (a phone locked, a laptop closed).
    host.open("index.html")
    screen.open("index.html")
    for phone in phones:
        assert phone.wait_text("#host-note-text", r".", timeout=10) == \
            "Hana, the host, has gone. The game goes on by itself."
        assert not phone.shown("#reclaim")
    ivo.assert_fits("the host away")
    ivo.shot("host-away-question")

    # Ten seconds away: Ivo, connected longest, hosts; everyone reads who, and for whom.
    for phone in phones:
        assert phone.wait_text("#host-note-text", "Ivo hosts", timeout=15) == "Ivo hosts while Hana is away."
    assert ivo.shown("#close-room") and not phones[1].shown("#close-room")
    for index, phone in enumerate(phones):
        phone.click(f"#pq-pictures button[data-choice='{index % 3}']")
    # The round runs its time out (Hana is still a player), then Ivo moves on.
    WebDriverWait(ivo.d, 30, poll_frequency=POLL).until(lambda d: ivo.shown("#reveal-next"), "Ivo has no Next")
    ivo.shot("host-away-stand-in-reveal")
    ivo.click("#reveal-next")
    for phone in phones:
        phone.wait_text("#podium-title", r".")

    # The first host's screen, opened again, shows the podium and who hosts, and no host buttons.
    screen.resize(BIG_SCREEN)
    screen.open(f"screen.html?code={code}")
    assert screen.wait_text("#host-note-text", "Ivo hosts") == "Ivo hosts while Hana is away."
    screen.wait_count("#s-podium-blocks li", 3)
    assert not screen.shown("#s-back")
    time.sleep(1)  # the steps rise
    screen.shot("host-away-screen")

    # Hana comes back: her phone offers to host again; one tap, and she is the host.
    host.open(f"room.html?code={code}")
    assert host.wait_text("#host-note-text", "Ivo hosts") == "Ivo hosts while Hana is away."
    assert host.shown("#reclaim") and not host.shown("#close-room")
    host.assert_fits("the host back")
    host.shot("host-away-back")
    host.click("#reclaim")
    WebDriverWait(host.d, 10, poll_frequency=POLL).until(lambda d: host.shown("#close-room"), "Hana is not the host")
    for person in [*phones, host, screen]:
        WebDriverWait(person.d, 10, poll_frequency=POLL).until(
            lambda d: not person.shown("#host-note"), f"{person.name} still shows the host's note")
    assert not ivo.shown("#close-room")
    assert screen.shown("#s-back")


def test_the_host_locks_the_room_and_hides_the_code_from_the_screen(room):
    party = room
    host, screen, phones = party.host, party.screen, party.phones
    screen.resize(SCREEN)
    code = open_room(party)
    join_everyone(party, code)
    host.click("#host-hide-code")
    screen.wait_text("#s-code-hidden", "hidden")
    assert screen.text("#s-code-hidden") == "🙈 The code is hidden: ask the host for it."
    assert not screen.shown("#s-code") and not screen.shown("#s-qr")
    assert screen.js("return document.querySelector('#top-code').textContent") == ""
    assert code not in screen.page_text()
    screen.resize(BIG_SCREEN).shot("locked-screen-code-hidden")
    host.click("#host-lock")
    for phone in phones:
        assert phone.wait_text("#lobby-locked", "locked") == "🔒 The host has locked the room: nobody new can join."
    host.find("#lobby-locked")
    assert host.find("#host-lock").is_selected() and host.find("#host-hide-code").is_selected()
    host.shot("locked-host-lobby")
    phones[0].shot("locked-phone-lobby")
    # Open again, the code shown again.
    host.click("#host-lock")
    host.click("#host-hide-code")
    assert screen.wait_text("#s-code", code) == code
    for phone in phones:
        WebDriverWait(phone.d, 10, poll_frequency=POLL).until(lambda d: not phone.shown("#lobby-locked"), "still locked")
