"""The daily set in headless Chromium against a real server: today's five puzzles on home, the
daily page (Play, the share panel and its copy-by-hand box, the leaderboards, the archive) and
the daily badge and end screen on a game page. One counted game a day: reopening the daily
opens the same game, and an archive game says it is not counted.

Screenshots at 360x640, 740x360 and 1280x800 go to /tmp/daily-shots/ (or GUESSWORK_DAILY_SHOTS)
to be looked at, not asserted. The helpers come from test_browser.py (imported, not copied)."""
import json
import os
import re
import sys
import time
import urllib.error
import urllib.request

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from server import Server  # noqa: E402
from test_browser import axe_violations, browser, known_range, player  # noqa: E402,F401  (fixtures are used by name)

SHOTS = os.environ.get("GUESSWORK_DAILY_SHOTS") or "/tmp/daily-shots"
os.makedirs(SHOTS, exist_ok=True)
SIZES = ((360, 640, True), (740, 360, True), (1280, 800, False))
GAMES = ["number", "color-match", "bullseye", "guess-or-pass", "picture-quiz"]


@pytest.fixture(scope="module")
def server():
    with Server() as s:
        yield s
    print(f"\nScreenshots of the daily set: {SHOTS}")


# ---------------------------------------------------------------------------------------------
# Helpers


def screenshots(player, name):
    for width, height, mobile in SIZES:
        emulate(player, width, height, mobile)
        player.d.save_screenshot(os.path.join(SHOTS, f"{name}-{width}x{height}.png"))
    player.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def emulate(player, width, height, mobile=True):
    player.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    player.js("window.scrollTo(0, 0)")
    time.sleep(0.2)


def in_viewport(player, css):
    """Whether the element is wholly inside the viewport, with the page scrolled to the top."""
    return player.js("""
      window.scrollTo(0, 0);
      const r = document.querySelector(arguments[0]).getBoundingClientRect();
      return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;""", css)


def no_sideways_scroll(player):
    return player.js("return document.documentElement.scrollWidth <= innerWidth")


def api_as_player(player, method, path, body=None):
    """A request outside the page with the player's cookie (a refusal asked from the page would be
    logged in its console): (status, JSON)."""
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in player.d.get_cookies())
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(player.base + path, data=data, method=method,
                                     headers={"Cookie": cookie, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def game_id(player):
    return player.js("return new URLSearchParams(location.search).get('game')")


def open_number_daily_from_home(player):
    player.open("index.html")
    player.click("#daily-chips a.number")
    WebDriverWait(player.d, 10).until(lambda d: "daily.html?game=number" in d.current_url)
    player.wait_text("#daily-state", r".")


def play_number_to_the_end(player):
    """Halving from the known range, by keyboard, until the game is won or out of attempts."""
    while not player.d.find_element(By.ID, "over").is_displayed():
        low, high = known_range(player)
        before = len(player.d.find_elements(By.CSS_SELECTOR, "#guesses li"))
        player.keys(*str((low + high) // 2), Keys.ENTER)
        WebDriverWait(player.d, 10).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#guesses li")) > before
            or d.find_element(By.ID, "over").is_displayed())
    player.find("#over-title")


# ---------------------------------------------------------------------------------------------
# Tests


def test_a_new_player_plays_the_number_daily_and_shares_it(player):
    player.join("Dana")
    # Home: today's five puzzles above the games, none played yet.
    assert re.match(r"^Today's puzzles · #\d+$", player.text("#daily-strip-title"))
    chips = player.d.find_elements(By.CSS_SELECTOR, "#daily-chips a")
    assert [c.get_attribute("class").split()[1] for c in chips] == GAMES
    assert all(c.text.endswith("Play") for c in chips)
    assert player.wait_text("#daily-next", r"^New puzzles in ")
    screenshots(player, "home")
    emulate(player, 360, 640)
    assert no_sideways_scroll(player)
    # The game cards still start on the first screen of a phone.
    assert player.js("return document.querySelector('#game-grid a').getBoundingClientRect().top < innerHeight")
    player.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    # The daily page: not played yet, Play in view on a phone.
    open_number_daily_from_home(player)
    assert re.match(r"^🔢 Guess the Number #\d+$", player.text("#daily-title"))
    number = player.text("#daily-title").split("#")[1]
    assert player.text("#daily-state") == "Not played"
    assert player.text("#daily-note") == "One try counts, and everyone gets the same puzzle today."
    assert player.text("#daily-actions .play") == "▶ Play"
    player.find("#archive li")
    screenshots(player, "daily-before")
    emulate(player, 360, 640)
    assert in_viewport(player, "#daily-actions .play"), "Play is not in view at 360x640"
    assert no_sideways_scroll(player)
    player.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    # Play: the Number page with the daily's badge; no setup form, no "Play again" later.
    player.click("#daily-actions .play")
    player.find("#pad")
    assert player.text("#daily-badge") == f"Daily #{number}"
    game = game_id(player)
    play_number_to_the_end(player)
    assert not player.d.find_element(By.ID, "again").is_displayed()
    back = player.find(".daily-end a")
    assert back.text == "← Back to the daily"
    assert "daily.html?game=number&date=" in back.get_attribute("href")

    # The share panel: the server's text, in a box that can be copied by hand on plain HTTP.
    box = player.find(".daily-end textarea.share-text")
    text = box.get_property("value")
    assert text.startswith(f"Guesswork · Guess the Number #{number}\n"), text
    assert re.search(r"/daily\.html\?game=number&date=\d{4}-\d{2}-\d{2}$", text), text
    assert box.get_attribute("readonly") is not None
    _, reply = api_as_player(player, "GET", f"/api/games/{game}")
    assert reply["daily"]["share"]["text"] == text
    secret = reply["view"]["secret"]
    # Nothing of the game but the score: the title's number, the score and the link aside, no
    # number is left, so the secret cannot be there.
    emoji_lines = re.sub(r"\d+/\d+", "", "\n".join(text.split("\n")[1:-1]))
    assert not re.search(rf"(?<!\d){secret}(?!\d)", emoji_lines), (secret, text)
    assert "right" not in text and "ower" not in text and "igher" not in text
    player.click(".daily-end .copy-button")
    assert player.wait_text(".daily-end .share-status", r".") == "Copied"
    selected = player.js("const t = arguments[0]; return t.value.slice(t.selectionStart, t.selectionEnd)", box)
    assert selected == text
    # "Share result" uses the share sheet or the clipboard where the browser has them, else it
    # selects the text for the player; whichever it is, it says so.
    player.js("arguments[0].textContent = ''", player.find(".daily-end .share-status"))
    player.click(".daily-end .share-button")
    assert player.wait_text(".daily-end .share-status", r".") in ("Shared", "Copied", "Select and copy the text")
    screenshots(player, "number-daily-over")
    emulate(player, 360, 640)
    assert no_sideways_scroll(player)
    player.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    # Back to the daily: played, the same share text, ranked 1st of 1 on every board.
    player.click(".daily-end a")
    # The Number reads in attempts used of those allowed (its score is attempts left + 1).
    allowed = reply["view"]["attemptsAllowed"]
    result = f"{allowed + 1 - reply['score']}/{allowed}" if reply["score"] else f"X/{allowed}"
    assert player.wait_text("#daily-state", r"^Played: ") == f"Played: {result}"
    assert player.find("#daily-share textarea").get_property("value") == text
    assert player.wait_text("#board-you", "You are") == f"You are 1st of 1 · {result}"
    row = player.find("#board-rows tr.you")
    assert row.find_element(By.CSS_SELECTOR, "td.rank").text == "1"
    assert "Dana" in row.text
    assert player.find("#board-tabs [aria-pressed=true]").text == "Today"
    for tab in ("This week", "All time", "Today"):
        player.d.find_element(By.XPATH, f"//div[@id='board-tabs']/button[.='{tab}']").click()
        player.wait_attribute("#board-tabs button[aria-pressed=true]", "textContent", tab)
        assert player.wait_text("#board-you", r"^You are 1st of 1")
    screenshots(player, "daily-after")
    emulate(player, 360, 640)
    assert in_viewport(player, "#daily-share .share-button"), "Share is not in view at 360x640"
    assert no_sideways_scroll(player)
    player.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    # Statistics: the Number's daily streak, and the overall one (all five on a day: none yet).
    player.open("stats.html")
    panel = player.find("#h-number").find_element(By.XPATH, "..")
    assert "Daily streak\n1 (best 1)" in panel.text and "Dailies played\n1" in panel.text
    assert "Daily streak (all five)\n0 (best 0)" in player.find("#h-daily").find_element(By.XPATH, "..").text


def test_reopening_the_daily_opens_the_same_counted_game(player):
    player.join("Reo")
    open_number_daily_from_home(player)
    player.click("#daily-actions .play")
    player.find("#pad")
    game = game_id(player)
    # Mid-game: home says so, and the daily page continues this game.
    player.open("index.html")
    assert player.wait_text("#daily-chips a.number", "Continue")
    open_number_daily_from_home(player)
    assert player.text("#daily-state") == "In progress"
    player.click("#daily-actions a.play")
    player.find("#pad")
    assert game_id(player) == game
    play_number_to_the_end(player)
    # Finished: home shows the score; the daily page only opens this game again.
    player.open("index.html")
    assert player.wait_text("#daily-chips a.number", r"(✓ \d+|X)/\d+")
    open_number_daily_from_home(player)
    assert player.d.find_elements(By.CSS_SELECTOR, "#daily-actions .play") == []
    player.click("#daily-more a")
    player.find("#over")
    assert game_id(player) == game
    # The server refuses a second counted game and names the first: the page would open it.
    status, refusal = api_as_player(player, "POST", "/api/daily/number", {})
    assert status == 409 and refusal["error"]["code"] == "daily-played"
    assert refusal["error"]["gameId"] == game


def test_an_archive_day_is_played_and_not_counted(player):
    player.join("Arch")
    player.open("daily.html?game=number")
    player.find("#archive li")
    past = player.d.find_elements(By.CSS_SELECTOR, "#archive li button")
    if not past:
        pytest.skip("the server's launch is today: no earlier day to play")
    day = past[0].find_element(By.XPATH, "..").find_element(By.CSS_SELECTOR, "strong").text
    past[0].click()
    player.find("#pad")
    assert player.text("#daily-badge") == f"Daily {day} · archive · not counted"
    play_number_to_the_end(player)
    assert player.find(".daily-end textarea").get_property("value").startswith(
        f"Guesswork · Guess the Number {day}")
    # Not counted: today's Number is still new, and no board has this player.
    player.open("index.html")
    assert player.wait_text("#daily-chips a.number", r".").endswith("Play")
    player.open("daily.html?game=number")
    assert player.wait_text("#board-you", r".") != "" and not player.text("#board-you").startswith("You are")


def test_all_of_todays_puzzles_without_a_game(player):
    player.join("Alle")
    player.open("daily.html")
    assert re.match(r"^Today's puzzles · #\d+$", player.wait_text("#daily-title", "Today"))
    rows = player.d.find_elements(By.CSS_SELECTOR, "#all-list a")
    assert len(rows) == 5
    assert [r.get_attribute("href").split("game=")[1] for r in rows] == GAMES
    assert [r.find_element(By.CSS_SELECTOR, ".state").text for r in rows] == ["Not played"] * 5
    screenshots(player, "daily-all")
    # A newcomer with a shared link picks a name first, then lands on the shared page.
    player.d.delete_all_cookies()
    player.open("daily.html?game=bullseye")
    player.find("#welcome-name").send_keys("Neu", Keys.ENTER)
    WebDriverWait(player.d, 10).until(lambda d: "daily.html?game=bullseye" in d.current_url)
    assert re.match(r"^🎯 Bullseye #\d+$", player.wait_text("#daily-title", "Bullseye"))


def test_the_daily_pages_pass_axe(player):
    player.join("Axa")
    problems = {}
    for page, ready in (("index.html", "#daily-chips a"), ("daily.html", "#all-list a"),
                        ("daily.html?game=number", "#archive li"), ("stats.html", "#h-daily")):
        player.open(page)
        player.find(ready)
        found = axe_violations(player)
        if found:
            problems[page] = found
    # A finished daily: the badge, the share panel and the way back on the game page, then the
    # daily page with the result, the leaderboard's own row and the share panel.
    player.open("daily.html?game=number")
    player.click("#daily-actions .play")
    player.find("#pad")
    play_number_to_the_end(player)
    player.find(".daily-end textarea")
    found = axe_violations(player)
    if found:
        problems["number.html (daily, over)"] = found
    player.click(".daily-end a")
    player.find("#board-rows tr.you")
    player.find("#daily-share textarea")
    found = axe_violations(player)
    if found:
        problems["daily.html?game=number (played)"] = found
    assert problems == {}
