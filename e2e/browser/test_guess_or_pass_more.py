"""Guess or Pass around the game, in headless Chromium: a player's own categories (made,
checked, edited, played, deleted, and invisible to anyone else), game-night reminders in the
settings page (the picker refuses past times, "Use my location" finds the nearest city,
Skopje when no location is shared, .ics download read by a real iCalendar parser, a browser
notification one hour before), and the instructions. The server here has Datamuse switched on
but unreachable, so every round also shows that play never depends on it.

The helpers come from test_browser.py (imported, not copied)."""
import os
import re
import socket
import sys
import urllib.error
import urllib.request
from datetime import datetime, timedelta, timezone

import icalendar
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from server import Server  # noqa: E402
from test_browser import (  # noqa: E402,F401  (fixtures are used by name)
    browser, by_button, by_key, by_swipe, by_tilt, gop_end, gop_round, player, set_input_mode)

CATEGORY_WORDS = ["office chair", "stapler", "printer", "coffee mug", "whiteboard", "deadline",
                  "meeting", "spreadsheet", "lanyard", "water cooler", "paper clip", "desk lamp"]


def closed_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    env = {"GUESSWORK_DATAMUSE": "on", "GUESSWORK_DATAMUSE_URL": f"http://127.0.0.1:{closed_port()}"}
    with Server(env=env) as s:
        yield s


def fill(player, css, text):
    field = player.find(css)
    field.clear()
    if text:
        field.send_keys(text)


def in_page(player, method, path, body=None):
    """A request from the page, with the player's cookie: (status, JSON or text)."""
    return player.d.execute_async_script("""
      const [method, path, body, done] = arguments;
      fetch(path, {method, credentials: 'same-origin', headers: body ? {'Content-Type': 'application/json'} : {},
                   body: body ? JSON.stringify(body) : undefined})
        .then(async (r) => done([r.status, await r.text()])).catch((e) => done([0, String(e)]));""",
                                         method, path, body)


def as_player(player, method, path):
    """A request outside the page with the player's cookie (a refused one would otherwise be
    logged in the console): the status."""
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in player.d.get_cookies())
    request = urllib.request.Request(player.base + path, method=method, headers={"Cookie": cookie})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def drain_expected(player, pattern):
    """Empties the console, which may hold only the refusals a test provoked on purpose."""
    unexpected = [e for e in player.d.get_log("browser")
                  if e["level"] in ("SEVERE", "ERROR") and not re.search(pattern, e["message"])]
    assert unexpected == [], unexpected


def wait_item(player, css, pattern, timeout=10):
    """Waits for an item of a list that the page redraws whole (so no element goes stale)."""
    return WebDriverWait(player.d, timeout, poll_frequency=0.05).until(
        lambda d: next((t for t in d.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0]), e => e.innerText)", css)
            if re.search(pattern, t)), None), f"{css} never showed {pattern!r}")


def next_month(hour_minute="19:30"):
    return (datetime.now() + timedelta(days=30)).strftime(f"%Y-%m-%dT{hour_minute}")


# ---------------------------------------------------------------------------------------------
# Custom categories


def test_own_category_made_checked_edited_played_and_deleted(player, server):
    player.join("Cora")
    player.open("settings.html")
    player.find("#my-categories")
    fill(player, "#category-name", "Office")
    fill(player, "#category-words", "\n".join(CATEGORY_WORDS[:9]))
    player.click("#category-save")
    assert player.wait_text("#category-status", "at least 10 different words \\(it has 9\\)")
    fill(player, "#category-words", "\n".join(CATEGORY_WORDS))
    fill(player, "#category-name", "Animals")
    player.click("#category-save")
    assert player.wait_text("#category-status", "already a category called")
    fill(player, "#category-name", "Office")
    player.find("#category-words").send_keys("\nwhat the fuck")
    player.click("#category-save")
    assert player.wait_text("#category-status", "family-friendly")
    fill(player, "#category-words", "\n".join(CATEGORY_WORDS))
    player.click("#category-save")
    assert player.wait_text("#category-status", "Created “Office”")
    drain_expected(player, r"/api/categories - Failed to load resource: .* status of 400")
    assert wait_item(player, "#my-categories li", "Office · 12 words")

    # Edit: drop two words and rename.
    player.click("#my-categories button[aria-label='Edit Office']")
    assert player.find("#category-name").get_attribute("value") == "Office"
    fill(player, "#category-name", "Work")
    fill(player, "#category-words", "\n".join(CATEGORY_WORDS[:10]))
    player.click("#category-save")
    assert wait_item(player, "#my-categories li", "Work · 10 words")

    # In the category grid, playable, with its words and nobody else's.
    player.open("guess-or-pass.html")
    button = player.find("#categories button[data-id^='custom-']")
    assert button.text.endswith("Work")
    category = button.get_attribute("data-id")
    seen = gop_round(player, [by_button("guessed"), by_key(Keys.ARROW_LEFT, "passed")], category=category)
    assert set(seen["guessed"] + seen["passed"]) <= set(CATEGORY_WORDS[:10])
    gop_end(player, seen)

    # Another player never sees it.
    mine = player.d.get_cookies()
    player.join("Dora")
    player.open("guess-or-pass.html")
    player.find("#categories button[data-id=animals]")
    assert player.d.find_elements(By.CSS_SELECTOR, "#categories button[data-id^='custom-']") == []
    player.open("settings.html")
    assert wait_item(player, "#my-categories li", "None yet")
    assert as_player(player, "GET", f"/api/categories/{category}") == 404

    # Back as its owner: delete it (after confirming), and it leaves the grid.
    player.d.delete_all_cookies()
    for cookie in mine:
        player.d.add_cookie(cookie)
    player.open("settings.html")
    player.click("#my-categories button[aria-label='Delete Work']")
    WebDriverWait(player.d, 5).until(expected_conditions.alert_is_present()).accept()
    assert player.wait_text("#category-status", "Deleted “Work”")
    assert wait_item(player, "#my-categories li", "None yet")
    player.open("guess-or-pass.html")
    player.find("#categories button[data-id=animals]")
    assert player.d.find_elements(By.CSS_SELECTOR, "#categories button[data-id^='custom-']") == []


def test_a_round_in_every_input_mode_with_datamuse_unreachable(player):
    """The full round per input mode the test browser can produce, on a server whose Datamuse
    cannot be reached: the words are the bundled ones and nothing waits for it."""
    player.join("Gil")
    for mode, moves in [("buttons", [by_button("guessed"), by_button("passed")]),
                        ("swipes", [by_swipe("guessed"), by_swipe("passed")]),
                        ("tilts", [by_tilt("guessed"), by_tilt("passed")]),
                        ("all", [by_key(Keys.ARROW_RIGHT, "guessed"), by_key(Keys.SPACE, "guessed"),
                                 by_key(Keys.ARROW_LEFT, "passed")])]:
        set_input_mode(player, mode)
        seen = gop_round(player, moves, category="nature")
        gop_end(player, seen)


# ---------------------------------------------------------------------------------------------
# Reminders


def test_reminder_form_location_list_ics_and_delete(player, server):
    player.join("Rita")
    # No location shared: the place stays Skopje.
    player.d.execute_cdp_cmd("Browser.resetPermissions", {})
    player.d.execute_cdp_cmd("Emulation.setGeolocationOverride", {})
    player.open("settings.html")
    assert player.find("#reminder-title").get_attribute("value") == "Game night"
    assert player.find("#reminder-place").get_attribute("value") == "Skopje"
    start = player.find("#reminder-start")
    # The picker refuses past times: its minimum is at least an hour from now, and the default
    # is tomorrow at 20:00, as in the original app.
    earliest = player.js("return new Date(arguments[0]).getTime() - Date.now()", start.get_attribute("min"))
    assert 3600 * 1000 - 60 * 1000 < earliest <= 3600 * 1000 + 120 * 1000
    assert start.get_attribute("value").endswith("T20:00")
    player.click("#use-location")
    assert player.wait_text("#location-note", "Location not shared")
    assert player.find("#reminder-place").get_attribute("value") == "Skopje"

    # A time in the past, or too soon, is refused with a clear message.
    player.js("document.querySelector('#reminder-start').value = arguments[0]", "2020-01-01T20:00")
    player.click("#reminder-save")
    assert player.wait_text("#reminder-status", "at least one hour from now")
    assert wait_item(player, "#reminders li", "No reminders yet")

    # Sharing the location fills in the nearest city.
    player.d.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url, "permissions": ["geolocation"]})
    player.d.execute_cdp_cmd("Emulation.setGeolocationOverride",
                             {"latitude": 48.85, "longitude": 2.35, "accuracy": 50})
    player.click("#use-location")
    assert player.wait_text("#location-note", "Nearest city: Paris")
    assert player.find("#reminder-place").get_attribute("value") == "Paris"
    fill(player, "#reminder-title", "Heads-up night")
    when = next_month()
    player.js("document.querySelector('#reminder-start').value = arguments[0]", when)
    player.click("#reminder-save")
    assert player.wait_text("#reminder-status", "Reminder added: Heads-up night")
    item = wait_item(player, "#reminders li", "Heads-up night")
    assert "Paris" in item and when[:4] in item

    # The .ics download, read by a real iCalendar parser.
    link = player.find("#reminders li a")
    assert link.get_attribute("download") == "game-night.ics"
    href = link.get_attribute("href")
    status, text = in_page(player, "GET", href)
    assert status == 200
    event = next(iter(icalendar.Calendar.from_ical(text).walk("VEVENT")))
    expected = player.js("return new Date(arguments[0]).getTime()", when) / 1000
    assert event.decoded("DTSTART") == datetime.fromtimestamp(expected, timezone.utc)
    assert str(event["SUMMARY"]) == "Heads-up night" and str(event["LOCATION"]) == "Paris"
    assert round(event["GEO"].latitude, 2) == 48.85
    alarm = next(iter(event.walk("VALARM")))
    assert alarm.decoded("TRIGGER").total_seconds() == -3600

    # Invisible to another player.
    mine = player.d.get_cookies()
    player.join("Otto")
    player.open("settings.html")
    assert wait_item(player, "#reminders li", "No reminders yet")
    assert as_player(player, "GET", href.replace(server.url, "")) == 404
    player.d.delete_all_cookies()
    for cookie in mine:
        player.d.add_cookie(cookie)

    player.open("settings.html")
    player.click("#reminders button[aria-label='Delete Heads-up night']")
    assert wait_item(player, "#reminders li", "No reminders yet")
    player.d.execute_cdp_cmd("Emulation.clearGeolocationOverride", {})
    player.d.execute_cdp_cmd("Browser.resetPermissions", {})


def test_a_notification_one_hour_before_while_the_page_is_open(player, server):
    # A Notification that records what it shows, installed before the page's own scripts.
    script = player.d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
      window.__notes = [];
      window.__asked = 0;
      window.Notification = class {
        static permission = 'default';
        static requestPermission() { window.__asked += 1; window.Notification.permission = 'granted'; return Promise.resolve('granted'); }
        constructor(title, options) { window.__notes.push({title, body: options && options.body}); }
      };"""})
    try:
        player.join("Nina")
        player.open("settings.html")
        # Adding a reminder asks for permission first (from the click).
        player.js("document.querySelector('#reminder-start').value = arguments[0]", next_month("20:00"))
        player.click("#reminder-save")
        assert player.wait_text("#reminder-status", "Reminder added")
        assert player.js("return window.__asked") == 1
        # A reminder whose alarm is due in a few seconds (it starts in an hour and 4 s).
        status, _ = in_page(player, "POST", "/api/reminders", {
            "title": "Soon night", "place": "Ohrid",
            "start": player.js("return new Date(Date.now() + 3600e3 + 4000).toISOString()")})
        assert status == 201
        player.open("settings.html")
        player.js("window.Notification.permission = 'granted'")
        WebDriverWait(player.d, 12, poll_frequency=0.2).until(lambda d: d.execute_script("return window.__notes.length") >= 1)
        notes = player.js("return window.__notes")
        assert notes[0]["title"] == "Soon night" and "starts in one hour" in notes[0]["body"]
        assert player.wait_text("#reminder-status", "Soon night at Ohrid starts in one hour")
    finally:
        player.d.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def test_instructions_explain_the_game_and_every_input_mode(player):
    player.join("Ivo")
    player.open("settings.html")
    text = player.find("section[aria-labelledby=help-title]").text
    for needed in ("5-second countdown", "Guessed", "Pass", "End game", "Button clicks", "Swipe gestures",
                   "swipe right", "Phone tilting", "60°", "20°", "Enable all", "→ or Space = guessed, ← = pass"):
        assert needed in text, needed
