"""The browser UI in a real headless Chromium, against a real server with a fresh database.

Each test plays as a new player (its own cookie) and asserts what a player sees. After every
test the browser console must hold no error and no request may have left the server's origin.
Screenshots of every game at 360×640 and 1280×800 go to GUESSWORK_SCREENSHOTS (or a temp dir);
the folder is printed at the end of the run.
"""
import base64
import json
import os
import re
import struct
import sys
import tempfile
import time
import zlib

import pytest
from selenium import webdriver
from selenium.common.exceptions import (
    NoAlertPresentException, StaleElementReferenceException, TimeoutException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from server import Server  # noqa: E402

SCREENSHOTS = os.environ.get("GUESSWORK_SCREENSHOTS") or tempfile.mkdtemp(prefix="guesswork-screens-")
os.makedirs(SCREENSHOTS, exist_ok=True)  # save_screenshot quietly saves nothing into a missing folder
PAGES = ["index.html", "settings.html", "stats.html", "number.html", "color-match.html",
         "bullseye.html", "guess-or-pass.html", "picture-quiz.html"]
XSS_NAME = "<img src=x onerror=alert(1)>"
# Names are 1...24 characters, so the 28-character payload above may be refused; this one fits
# and would run just the same if a page ever inserted a name as HTML.
XSS_SHORT = "<svg onload=alert(1)>"
# Waits look often: Color Match shows its ✓/✗ mark for only half a second.
POLL = 0.05


# ---------------------------------------------------------------------------------------------
# Fixtures


@pytest.fixture(scope="module")
def server():
    # The room tests' host opens a room a test on this one server: the cap of open rooms per
    # host (tested in e2e/server/test_hardening_two.py) is lifted here.
    with Server(env={"GUESSWORK_ROOMS_PER_HOST": "1000"}) as s:
        yield s
    print(f"\nScreenshots of every game: {SCREENSHOTS}")


def chromium(*arguments, prefs=None):
    """A new headless Debian Chromium (offline: the driver is Debian's too) with the browser
    console kept, plus `arguments` and Chromium `prefs`."""
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,800", *arguments):
        options.add_argument(arg)
    if prefs:
        options.add_experimental_option("prefs", prefs)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    binary = os.environ.get("CHROME_BIN") or "/usr/bin/chromium"
    if os.path.exists(binary):
        options.binary_location = binary
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")),
                              options=options)
    driver.set_script_timeout(30)
    return driver


@pytest.fixture(scope="module")
def browser():
    driver = chromium("--autoplay-policy=no-user-gesture-required")
    yield driver
    driver.quit()


def known_range(player):
    """The Number game's known range as drawn under its bar (read whole: when the range is
    narrow, one label shows both ends)."""
    return tuple(player.js(
        "return ['range-low', 'range-high'].map((id) => Number(document.getElementById(id).textContent))"))


class Player:
    """A person at the browser: opens pages, waits for what they would see, and clicks."""

    def __init__(self, driver, base):
        self.d = driver
        self.base = base

    def open(self, page):
        self.d.get(f"{self.base}/{page}")

    def wait(self, timeout=10):
        """A wait that looks again when the page drew an element anew meanwhile (a room redraws
        its lists as players come and go): a stale element is no answer yet, not an error."""
        return WebDriverWait(self.d, timeout, poll_frequency=POLL,
                             ignored_exceptions=(StaleElementReferenceException,))

    def find(self, css, timeout=10):
        return self.wait(timeout).until(
            lambda d: next((e for e in d.find_elements(By.CSS_SELECTOR, css) if e.is_displayed()), None),
            f"{css} never became visible")

    def gone(self, css, timeout=10):
        self.wait(timeout).until(
            lambda d: not any(e.is_displayed() for e in d.find_elements(By.CSS_SELECTOR, css)),
            f"{css} is still visible")

    def text(self, css, timeout=10):
        return self.find(css, timeout).text

    def wait_text(self, css, pattern, timeout=10):
        found = self.wait(timeout).until(
            lambda d: next((e.text for e in d.find_elements(By.CSS_SELECTOR, css)
                            if e.is_displayed() and re.search(pattern, e.text)), None),
            f"{css} never showed {pattern!r}")
        return found

    def wait_attribute(self, css, name, value, timeout=10):
        self.wait(timeout).until(
            lambda d: any(e.get_attribute(name) == value for e in d.find_elements(By.CSS_SELECTOR, css)),
            f"{css} never had {name}={value!r} (it has {[e.get_attribute(name) for e in self.d.find_elements(By.CSS_SELECTOR, css)]})")

    def click(self, css, timeout=10):
        # A page that draws a list again (a room's players, when someone connects) replaces the
        # element found a moment ago: find it again then, as a person's tap would, for as long as
        # `timeout` (a room of four phones on a loaded machine redraws its lobby many times).
        deadline = time.time() + timeout
        while True:
            element = self.find(css, timeout)
            try:
                WebDriverWait(self.d, timeout, poll_frequency=POLL).until(lambda d: element.is_enabled(), f"{css} stays disabled")
                # In the middle of the screen, as a person scrolls to a button before tapping it:
                # WebDriver's own scroll leaves it at the bottom edge, where a room's lobby
                # growing above it (a view arriving) moved it away from under the tap.
                self.js("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", element)
                element.click()
                return element
            except StaleElementReferenceException:
                if time.time() > deadline:
                    raise
                time.sleep(0.05)

    def keys(self, *keys):
        ActionChains(self.d).send_keys(*keys).perform()

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def version(self):
        return self.js("return new URLSearchParams(location.search).get('game')")

    def join(self, name="Ana", avatar=None):
        self.d.delete_all_cookies()
        self.open("index.html")
        self.find("#welcome-name").send_keys(name)
        if avatar:
            self.d.find_element(By.CSS_SELECTOR, "#welcome-avatar").send_keys(avatar)
        self.click("#welcome-form button[type=submit]")
        self.find("#home")
        return self

    def screenshot(self, name):
        for width, height, mobile in ((360, 640, True), (1280, 800, False)):
            self.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
            time.sleep(0.2)
            self.d.save_screenshot(os.path.join(SCREENSHOTS, f"{name}-{width}x{height}.png"))
        self.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.fixture
def player(server, browser):
    browser.set_window_size(1280, 800)
    browser.get_log("browser")  # start each test with an empty console
    p = Player(browser, server.url)
    yield p
    check_console_and_origin(browser, server.url)


# The only console lines allowed: the browser's own note of a 422 refusal, or of a used sign-in
# link's 404, that a test provoked on purpose. A first visit asks GET /api/session (200 either
# way), so it logs nothing.
EXPECTED_STATUS = re.compile(r"(/api/games/[0-9a-f-]+/actions - Failed to load resource: "
                             r"the server responded with a status of 422)|"
                             r"(/api/link-codes/\S+ - Failed to load resource: "
                             r"the server responded with a status of 404)")


def check_console_and_origin(driver, base):
    errors = [entry for entry in driver.get_log("browser")
              if entry["level"] in ("SEVERE", "ERROR") and not EXPECTED_STATUS.search(entry["message"])]
    assert errors == [], f"console errors: {errors}"
    try:
        resources = driver.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name)"
            ".concat(performance.getEntriesByType('navigation').map(e => e.name))")
    except Exception:  # the page is navigating; nothing to read
        resources = []
    foreign = [url for url in resources if not (url.startswith(base + "/") or url.startswith("blob:" + base)
                                                or url.startswith("data:"))]
    assert foreign == [], f"requests left the server's origin: {foreign}"


def tiny_png(path, colour=(200, 40, 90), size=600):
    """A plain PNG, bigger than an avatar may be, so the page must scale it down."""
    row = b"\x00" + bytes(colour) * size
    raw = zlib.compress(row * size)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", raw) + chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(png)
    return path


# ---------------------------------------------------------------------------------------------
# First visit, home, settings, statistics


def hostile_name(server):
    from server import Client
    status, _, _ = Client(server.url).post("/api/players", {"name": XSS_NAME})
    return XSS_NAME if status == 201 else XSS_SHORT


def test_a_hostile_name_shows_as_text_and_runs_nothing(player, server, tmp_path):
    name = hostile_name(server)
    player.d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
        "source": "window.__alerts = []; window.alert = (m) => window.__alerts.push(String(m));"})
    avatar = tiny_png(str(tmp_path / "me.png"))
    player.join(name, avatar=avatar)
    assert player.text("#home-name") == name
    assert player.text("#home h1") == f"Welcome {name}! 👋"
    # The picture was scaled to at most 256×256 and uploaded; home shows it.
    img = player.find("#home-avatar img")
    WebDriverWait(player.d, 10).until(lambda d: player.js("return arguments[0].naturalWidth", img) > 0)
    assert player.js("return arguments[0].naturalWidth", img) <= 256
    assert player.d.find_elements(By.CSS_SELECTOR, "img[src='x'], main svg[onload]") == []
    with pytest.raises(NoAlertPresentException):
        player.d.switch_to.alert.text
    assert player.js("return window.__alerts") == []
    # Every game is on home, with its best score line.
    cards = player.d.find_elements(By.CSS_SELECTOR, "#game-grid a:not(#party-card)")
    assert [c.find_element(By.TAG_NAME, "strong").text for c in cards] == [
        "Guess the Number", "Color Match", "Bullseye", "Guess or Pass", "Picture Quiz"]
    assert all("Not played yet" in c.text for c in cards)
    # The name shows as text on other pages too.
    player.open("settings.html")
    assert player.text("#player-chip .player-name") == name
    assert player.find("#name").get_attribute("value") == name
    player.open("guess-or-pass.html")
    assert player.text("#setup-name") == name
    assert player.js("return window.__alerts") == []


def test_first_visit_needs_a_name(player):
    player.d.delete_all_cookies()
    player.open("index.html")
    player.click("#welcome-form button[type=submit]")
    assert "Please provide input" in player.text("#status")
    player.find("#welcome-name").send_keys("Bo", Keys.ENTER)
    assert player.text("#home-name") == "Bo"


# ---------------------------------------------------------------------------------------------
# Guess the Number


def number_start(player, attempts):
    player.open("number.html")
    Select(player.find("#set-attempts")).select_by_value(str(attempts))
    player.click("#start")
    player.find("#pad")
    assert player.text("#attempts").endswith("left")


def type_guess(player, number, by_keyboard):
    if by_keyboard:
        player.keys(*str(number), Keys.ENTER)
    else:
        # As a person does, look at the display after each key before pressing the next.
        player.click("#pad [aria-label='Clear']")
        player.wait_attribute("#display", "aria-label", "Nothing typed")
        typed = ""
        for digit in str(number):
            player.click(f"#pad [aria-label='Digit {digit}']")
            typed = str(int(typed + digit))
            player.wait_attribute("#display", "aria-label", f"Typed {typed}")
        player.click("#pad [aria-label='Enter guess']")


def guess_and_wait(player, guess):
    """Types `guess` on the keyboard and waits for its answer: a new line in the list of
    guesses, or the end of the game."""
    before = len(player.d.find_elements(By.CSS_SELECTOR, "#guesses li"))
    type_guess(player, guess, by_keyboard=True)
    WebDriverWait(player.d, 10, poll_frequency=POLL).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#guesses li")) > before
        or d.find_element(By.ID, "over").is_displayed())


def test_number_win_by_keyboard_halving_with_the_hints(player):
    player.join("Nina")
    number_start(player, attempts=7)
    guesses = 0
    while True:
        low, high = known_range(player)
        guess = (low + high) // 2
        guess_and_wait(player, guess)
        guesses += 1
        if player.d.find_element(By.CSS_SELECTOR, "#over").is_displayed():
            break
        assert player.text("#message") in (f"My number is higher than {guess}.", f"My number is lower than {guess}.")
        assert guesses < 7
    # The end title is the game's own sentence (the view's message); the score is the reply's.
    assert player.wait_text("#over-title", r"^You got it")
    assert re.match(r"^Score: \d+$", player.text("#over-score"))
    assert player.text("#over-title").endswith(f"My number was {guess}.")
    # The known range has shrunk to the one number; the end panel lists every hint.
    assert known_range(player) == (guess, guess)
    assert player.text("#end-guesses li:last-child").startswith(f"{guess} is right!")
    # The end analysis from the summary: the strategy sentence, and every guess (each one halved
    # the known range exactly) marked with a badge and words for screen readers.
    assert re.match(r"^A perfect halving strategy needs at most 7 tries for 100 numbers\. So 7 attempts "
                    rf"always find the number\. You halved the range with {guesses} of your "
                    rf"{guesses} guess(es)?\.$", player.text("#analysis")), player.text("#analysis")
    items = player.d.find_elements(By.CSS_SELECTOR, "#end-guesses li")
    assert len(items) == guesses
    for item in items:
        assert "halved" in item.get_attribute("class")
        assert item.find_element(By.CSS_SELECTOR, ".badge").text == "½"
        assert "halved the range" in item.get_attribute("textContent")
    player.screenshot("number-won")


def actions_posted(player):
    """How many moves this page has POSTed (the resource timings of `/api/games/{id}/actions`)."""
    return player.js("return performance.getEntriesByType('resource').filter("
                     "(e) => /^\\/api\\/games\\/[^/]+\\/actions$/.test(new URL(e.name).pathname)).length")


def halve_to_the_end(player):
    """Plays the Number game on the page to its end by halving; the guesses."""
    guesses = []
    while not player.d.find_element(By.CSS_SELECTOR, "#over").is_displayed():
        low, high = known_range(player)
        guesses.append((low + high) // 2)
        guess_and_wait(player, guesses[-1])
    return guesses


def test_moves_go_over_the_play_socket_and_by_post_without_it(player, browser):
    player.join("Sol")
    for _ in range(3):  # a game won at the first guess (1 in 100) shows nothing: play another
        number_start(player, attempts=7)
        guesses = halve_to_the_end(player)
        if len(guesses) >= 2:
            break
    # The socket opens with the game. Every digit and Enter is an action: at most those of the
    # first guess, typed before it was open, are POSTed; the others went over the socket.
    keys = [len(str(guess)) + 1 for guess in guesses]
    assert len(guesses) >= 2 and actions_posted(player) <= keys[0], (actions_posted(player), keys)
    assert player.wait_text("#over-title", r"^You got it")
    # A browser whose socket cannot open plays the same game by POST.
    script = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                     {"source": "window.WebSocket = undefined;"})
    try:
        number_start(player, attempts=7)
        guesses = len(halve_to_the_end(player))
        # Every key of the pad is an action (the typed number is the game's): at least the
        # guesses' Enter keys were POSTed.
        assert actions_posted(player) >= guesses
        assert player.wait_text("#over-title", r"^You got it")
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})


def test_moves_after_a_restart_go_by_post_until_the_socket_opens_again(browser, tmp_path):
    """kill -9 closes the page's socket: the next move is POSTed to the server started again,
    whose answer opens a new socket, and the game plays on to its end."""
    with Server(data_dir=str(tmp_path)) as server:
        player = Player(browser, server.url)
        player.join("Rey")
        for _ in range(3):  # a game won at the first guess (1 in 100): play another
            number_start(player, attempts=20)
            low, high = known_range(player)
            guess_and_wait(player, (low + high) // 2)
            if not player.d.find_element(By.CSS_SELECTOR, "#over").is_displayed():
                break
        before = actions_posted(player)
        server.kill()
        server.start()
        after = halve_to_the_end(player)
        guesses = 1 + len(after)
        posted = actions_posted(player) - before
        assert posted >= 1, "no move was POSTed after the socket closed"
        # Every digit and Enter is an action. A guess is typed once the one before is answered,
        # so from the second guess after the restart on, the new socket is open.
        if len(after) >= 2:
            keys = sum(len(str(guess)) + 1 for guess in after)
            assert posted <= keys - 2, (posted, keys)
        assert player.wait_text("#over-title", r"^You got it")
        # Every move reached the server: the game read again is the one the page ended with.
        player.d.refresh()
        assert player.wait_text("#over-title", r"^You got it")
        assert len(player.d.find_elements(By.CSS_SELECTOR, "#end-guesses li")) == guesses


def test_number_loss_by_clicks_with_a_refusal_and_reload(player):
    player.join("Lou")
    for _ in range(5):  # one attempt each: 1 in 100 to win by luck, so try again then
        number_start(player, attempts=2)
        type_guess(player, 50, by_keyboard=False)
        # The guess in the list, or (1 in 100) a win, which hides the list with the board.
        WebDriverWait(player.d, 10, poll_frequency=POLL).until(
            lambda d: d.find_element(By.ID, "over").is_displayed()
            or any(e.is_displayed() and "50" in e.text
                   for e in d.find_elements(By.CSS_SELECTOR, "#guesses li")),
            "neither the guess 50 in the list nor the end of the game showed")
        if player.d.find_element(By.CSS_SELECTOR, "#over").is_displayed():
            continue
        # Last attempt: said in words and highlighted.
        assert player.text("#attempts") == "last attempt!"
        assert "last" in player.find("#attempts").get_attribute("class")
        # A repeat is refused with a reason and costs nothing.
        type_guess(player, 50, by_keyboard=False)
        assert "already guessed 50" in player.wait_text("#status", "already")
        assert player.text("#attempts") == "last attempt!"
        # Reloading mid-game resumes it.
        game = player.version()
        player.d.refresh()
        assert player.wait_text("#guesses li", "50")
        assert player.version() == game
        hint = player.text("#message")
        other = 0 if "lower" in hint else 99
        type_guess(player, other, by_keyboard=False)
        title = player.wait_text("#over-title", r".")
        if title.startswith("Out of attempts"):
            assert re.match(r"^Out of attempts! My number was \d+\.$", title)
            assert re.match(r"^A perfect halving strategy needs at most 7 tries for 100 numbers\. So 2 "
                            r"attempts can guarantee only 3 of them\. You halved the range with 1 of "
                            r"your 2 guesses\.$", player.text("#analysis")), player.text("#analysis")
            # 50 halved 0...99; the guess at the edge did not.
            first, last = player.d.find_elements(By.CSS_SELECTOR, "#end-guesses li")
            assert "halved the range" in first.get_attribute("textContent")
            assert first.find_element(By.CSS_SELECTOR, ".badge").text == "½"
            assert "halved the range" not in last.get_attribute("textContent")
            assert last.find_elements(By.CSS_SELECTOR, ".badge") == []
            player.screenshot("number-lost")
            player.click("#again")
            assert player.text("#attempts") == "two attempts left"
            assert player.version() != game
            return
    pytest.fail("never lost a two-attempt game in five tries")


# ---------------------------------------------------------------------------------------------
# Color Match


def test_color_match_by_clicks_and_keys_with_reload_and_report(player):
    player.join("Cora")
    player.open("color-match.html")
    Select(player.find("#set-duration")).select_by_value("30")
    player.click("#start")
    assert player.wait_text("#countdown", r"^[123]$", 3)
    answered = 0
    for i in range(6):
        player.find("#top-card", 6)
        WebDriverWait(player.d, 5).until(lambda d: d.find_element(By.ID, "yes").is_enabled())
        assert re.match(r"^0:([0-2]\d|30)\.\d$", player.text("#clock"))  # 0:30.0 at the very start
        if i == 2:
            player.screenshot("color-match")
            game = player.version()
            player.d.refresh()
            player.find("#top-card", 6)
            assert player.version() == game
            WebDriverWait(player.d, 5).until(lambda d: d.find_element(By.ID, "yes").is_enabled())
        if i % 2:
            player.keys(Keys.ARROW_RIGHT if i % 4 == 1 else "n")
        else:
            player.click("#yes" if i % 4 == 0 else "#no")
        answered += 1
        mark = player.wait_text("#mark-text", r"^[✓✗]$", 3)
        assert mark in "✓✗"
        player.gone("#mark", 3)
    assert int(player.text("#score")) % 100 == 0
    player.click("#quit")
    assert player.wait_text("#over-title", r"You quit · score -?\d+")
    report = player.text("#report")
    assert "Answers\n6" in report and "Right" in report
    assert re.match(r"^(You answered .+ when the word and its ink disagreed|Answer both kinds of cards .+)\.$",
                    player.text("#interference"))
    assert len(player.d.find_elements(By.CSS_SELECTOR, "#trials tr")) == answered
    csv = player.js("""
      const made = [];
      const original = URL.createObjectURL;
      URL.createObjectURL = (b) => { made.push(b); return original(b); };
      document.getElementById('csv').click();
      URL.createObjectURL = original;
      return made[0].text();""")
    lines = csv.splitlines()
    assert lines[0].startswith("index,topWord") and len(lines) == answered + 1


# ---------------------------------------------------------------------------------------------
# Bullseye


def test_bullseye_two_colours_by_keyboard_and_clicks(player):
    player.join("Bea")
    player.open("bullseye.html")
    Select(player.find("#set-rounds")).select_by_value("2")
    player.click("#start")
    target = player.find("#target")
    WebDriverWait(player.d, 10).until(lambda d: player.js("return arguments[0].complete && arguments[0].naturalWidth > 0", target))
    # Keyboard: the red slider has focus; arrows move it and the value and preview follow.
    assert player.d.switch_to.active_element.get_attribute("id") == "r"
    player.keys(Keys.ARROW_RIGHT * 5)
    assert player.text("#r-out") == "133"
    assert player.js("return getComputedStyle(document.getElementById('guess')).backgroundColor") == "rgb(133, 128, 128)"
    player.keys(Keys.TAB, Keys.ARROW_LEFT * 3, Keys.TAB, Keys.HOME)
    assert (player.text("#g-out"), player.text("#b-out")) == ("125", "0")
    player.screenshot("bullseye")
    player.keys(Keys.TAB, Keys.ENTER)  # "Check my match"
    player.find("#result")
    assert re.match(r"^\d{1,3} / 100$", player.text("#result-score"))
    # How close, in words; the exact ΔE is one tap away (test_phone.py opens it).
    assert "ΔE" not in player.text("#result-delta") and player.text("#result-delta").endswith(".")
    exact = player.d.find_element(By.ID, "result-exact").get_attribute("textContent")
    assert re.match(r"^ΔE \d+(\.\d)? \(.+\)\.$", exact), exact
    assert re.match(r"^Target #[0-9A-F]{6}$", player.text("#result-target-hex"))
    assert player.text("#result-guess-hex") == "Yours #857D00"
    assert re.match(r"Total so far: \d+ of 200", player.text("#result-total"))
    assert player.text("#next") == "Next colour"
    player.keys(Keys.ENTER)
    player.gone("#result")
    assert player.text("#round-text") == "Colour 2 of 2"
    player.click("#check")
    assert player.wait_text("#next", "See my results")
    player.click("#next")
    assert player.wait_text("#over-title", r"Game over: \d+ of 200 points\.")
    assert len(player.d.find_elements(By.CSS_SELECTOR, "#history tr")) == 2


# ---------------------------------------------------------------------------------------------
# Guess or Pass


def set_input_mode(player, mode):
    player.open("settings.html")
    player.click(f"input[name=mode][value={mode}]")
    player.wait_text("#status", "Input mode saved")


def gop_round(player, moves, category="animals"):
    """Plays one round; `moves` are callables that answer the word on screen. Returns the
    (guessed, passed) words as seen."""
    player.open("guess-or-pass.html")
    player.click(f"#categories [data-id={category}]")
    Select(player.find("#set-duration")).select_by_value("30")
    assert "You've chosen category" in player.text("#confirm-text")
    player.click("#play-button")
    assert player.wait_text("#countdown", r"^[1-5]$", 3)
    player.find("#word", 8)
    seen = {"guessed": [], "passed": []}
    for move in moves:
        word = player.wait_text("#word", r"\w")
        count = int(player.text("#score")) + int(player.text("#passed"))
        kind = move(player)
        seen[kind].append(word)
        WebDriverWait(player.d, 5).until(lambda d: int(player.text("#score")) + int(player.text("#passed")) == count + 1)
    return seen


def gop_end(player, seen):
    player.click("#end")
    title = player.wait_text("#over-title", r"You guessed \d+ words?!")
    assert title.startswith(f"You guessed {len(seen['guessed'])} word")
    guessed = [e.text for e in player.d.find_elements(By.CSS_SELECTOR, "#guessed-list li")]
    passed = [e.text for e in player.d.find_elements(By.CSS_SELECTOR, "#passed-list li")]
    assert guessed == (seen["guessed"] or ["none"])
    assert passed == (seen["passed"] or ["none"])
    assert player.wait_text("#over-best", r"Best score.*: \d+ words?")


def by_button(kind):
    def move(player):
        player.click("#guessed" if kind == "guessed" else "#pass")
        return "guessed" if kind == "guessed" else "passed"
    return move


def by_key(key, kind):
    def move(player):
        player.keys(key)
        return kind
    return move


def by_swipe(kind):
    def move(player):
        stage = player.find("#stage")
        ActionChains(player.d).move_to_element(stage).click_and_hold().move_by_offset(
            150 if kind == "guessed" else -150, 0).release().perform()
        return kind
    return move


def by_tilt(kind):
    def move(player):
        player.js("""
          const fire = (beta) => window.dispatchEvent(new DeviceOrientationEvent('deviceorientation', {alpha: 0, beta, gamma: 0}));
          fire(90); fire(arguments[0]);""", 170 if kind == "guessed" else 10)
        return kind
    return move


def test_guess_or_pass_needs_a_category(player):
    player.join("Gus")
    player.open("guess-or-pass.html")
    player.click("#play-button")
    assert player.find("#no-category").text.startswith("Select Category\nPlease select a category to play.")
    player.click("#no-category-ok")
    # Tapping the chosen category again deselects it.
    player.click("#categories [data-id=food]")
    player.click("#categories [data-id=food]")
    assert player.find("#categories [data-id=food]").get_attribute("aria-pressed") == "false"
    player.screenshot("guess-or-pass-categories")


def test_guess_or_pass_rounds_in_every_input_mode(player):
    player.join("Hedy")
    set_input_mode(player, "buttons")
    seen = gop_round(player, [by_button("guessed"), by_button("passed"), by_button("guessed")])
    assert player.find("#buttons").is_displayed()
    player.screenshot("guess-or-pass")
    game = player.version()
    player.d.refresh()  # reload mid-round: same round, same score
    player.find("#word")
    assert player.version() == game and player.text("#score") == "2"
    gop_end(player, seen)
    assert player.find("#new-best").is_displayed()

    set_input_mode(player, "swipes")
    seen = gop_round(player, [by_swipe("guessed"), by_swipe("passed")])
    assert not player.d.find_element(By.ID, "buttons").is_displayed()
    gop_end(player, seen)

    set_input_mode(player, "tilts")
    seen = gop_round(player, [by_tilt("guessed"), by_tilt("passed"), by_tilt("guessed")])
    gop_end(player, seen)

    set_input_mode(player, "all")
    seen = gop_round(player, [by_key(Keys.ARROW_RIGHT, "guessed"), by_key(Keys.ARROW_LEFT, "passed"),
                              by_key(Keys.SPACE, "guessed"), by_button("passed"), by_swipe("guessed"),
                              by_tilt("passed")])
    gop_end(player, seen)


# ---------------------------------------------------------------------------------------------
# Picture Quiz


def test_picture_quiz_by_clicks_and_keyboard(player):
    player.join("Pia")
    player.open("picture-quiz.html")
    Select(player.find("#set-questions")).select_by_value("3")
    player.click("#decks button")  # Animal Friends
    assert player.text("#game-title") == "Animal Friends"
    assert player.js("return getComputedStyle(document.body).backgroundImage").startswith("linear-gradient")
    assert player.text("#progress") == "Question 1 of 3"
    assert re.match(r"^Tap the .+", player.text("#question"))
    labels = [b.get_attribute("aria-label") for b in player.d.find_elements(By.CSS_SELECTOR, "#pictures button")]
    assert labels == ["Picture 1 of 3", "Picture 2 of 3", "Picture 3 of 3"]
    player.screenshot("picture-quiz")
    for question in (1, 2):
        if question == 1:
            player.click("#pictures button")
        else:
            player.find("#pictures button").send_keys(Keys.ENTER)
        dialog = player.find("#answer")
        title = player.text("#answer-title")
        assert title == "Correct!" or re.match(r"^Wrong! That's (the )?.+\.$", title)
        assert re.match(rf"^Your score is \d with {3 - question} questions? remaining!$", player.text("#answer-text"))
        if question == 1:
            player.click("#continue")
        else:
            player.keys(Keys.ENTER)  # "Continue" has focus
        player.gone("#answer")
        assert player.wait_text("#progress", f"Question {question + 1} of 3")
        assert dialog is not None
    # Reload mid-game resumes with the deck's look: the reply's variant names the deck, so the
    # address needs no &deck=.
    assert "deck=" not in player.d.current_url
    player.d.refresh()
    assert player.wait_text("#progress", "Question 3 of 3")
    assert player.text("#game-title") == "Animal Friends"
    assert re.match(r"^Tap the .+", player.text("#question"))
    assert player.js("return getComputedStyle(document.body).backgroundImage").startswith("linear-gradient")
    player.click("#pictures button")
    player.find("#over")
    # The last answer's verdict heads the end dialog, and the end is a sentence of its own.
    assert re.match(r"^(Correct!|Wrong! That's (the )?.+\.)$", player.text("#over-title")), player.text("#over-title")
    assert re.match(r"^Game over! Your final score was \d of 3\.$", player.text("#over-text"))
    missed = player.d.find_elements(By.CSS_SELECTOR, "#missed li")
    assert all(re.match(r"^Q\d: .+ \(you tapped .+\)$", li.text.split("\n")[-1]) for li in missed)
    player.click("#again")
    assert player.wait_text("#progress", "Question 1 of 3")


def test_picture_quiz_uses_the_decks_question_and_noun(player):
    """Game Day asks "Tap the picture for <name>" and a wrong tap says "Wrong! That's the picture
    for <name>." (six pictures a question, always the first: all right by luck is 1 in 7,776)."""
    player.join("Gus")
    player.open("picture-quiz.html?deck=animals")  # an old link's deck is only a fallback
    Select(player.find("#set-questions")).select_by_value("5")
    Select(player.find("#set-choices")).select_by_value("6")
    player.d.find_element(By.XPATH, "//div[@id='decks']/button[strong='Game Day']").click()
    assert player.wait_text("#game-title", "Game Day")
    wrong = None
    for question in range(1, 6):
        assert player.wait_text("#progress", f"Question {question} of 5")
        assert re.match(r"^Tap the picture for .+$", player.text("#question")), player.text("#question")
        if question == 2:  # resume: the deck comes from the reply's variant, not the address
            player.d.refresh()
            assert player.wait_text("#progress", "Question 2 of 5")
            assert player.text("#game-title") == "Game Day"
            assert re.match(r"^Tap the picture for .+$", player.text("#question"))
        player.click("#pictures button")
        if question < 5:
            player.find("#answer")
            title = player.text("#answer-title")
            player.click("#continue")
            player.gone("#answer")
        else:
            player.find("#over")
            title = player.text("#over-title")
        if title != "Correct!":
            assert re.match(r"^Wrong! That's the picture for .+\.$", title), title
            wrong = title
    assert wrong, "every first picture was right"
    missed = player.d.find_elements(By.CSS_SELECTOR, "#missed li")
    assert missed and all(re.search(r"\(you tapped .+\)$", li.text) for li in missed)


# ---------------------------------------------------------------------------------------------
# Statistics, accessibility, screenshots


def test_statistics_draw_charts(player, server):
    player.join("Stan")
    number_start(player, attempts=7)
    while not player.d.find_element(By.CSS_SELECTOR, "#over").is_displayed():
        low, high = known_range(player)
        before = len(player.d.find_elements(By.CSS_SELECTOR, "#guesses li"))
        type_guess(player, (low + high) // 2, by_keyboard=True)
        WebDriverWait(player.d, 10).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#guesses li")) > before)
    player.open("stats.html")
    panel = player.find("#h-number").find_element(By.XPATH, "..")
    assert "Played\n1" in panel.text and "Win rate\n100%" in panel.text
    charts = panel.find_elements(By.CSS_SELECTOR, "svg.chart")
    assert len(charts) == 2  # attempts histogram and score history
    # The histogram is the Number's "bars" figure, titled with the label the catalog gives it.
    bars = player.d.execute_async_script("""
      const done = arguments[arguments.length - 1];
      fetch('/api/catalog').then((r) => r.json()).then((c) => done(
        c.games.find((g) => g.id === 'number').figures.find((f) => f.format === 'bars').label));""")
    assert bars and charts[0].get_attribute("aria-label").startswith(bars)
    player.open("index.html")
    assert "Best score:" in player.find("#game-grid a.number").text


AXE = os.path.join(os.path.dirname(__import__("axe_selenium_python").__file__), "node_modules", "axe-core", "axe.min.js")


def axe_violations(player):
    with open(AXE, encoding="utf-8") as f:
        player.js(f.read())
    result = player.d.execute_async_script(
        "const done = arguments[arguments.length - 1]; axe.run().then(r => done(r.violations));")
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
            for v in result if v["impact"] in ("serious", "critical")]


def test_every_page_passes_axe(player):
    player.join("Axel")
    problems = {}
    for page in PAGES:
        player.open(page)
        player.find("main")
        time.sleep(0.3)
        found = axe_violations(player)
        if found:
            problems[page] = found
    # In play too: a game screen of each kind.
    for page, start in (("number.html", "#start"), ("bullseye.html", "#start")):
        player.open(page)
        player.click(start)
        time.sleep(0.3)
        found = axe_violations(player)
        if found:
            problems[page + " (playing)"] = found
    player.open("picture-quiz.html")
    player.click("#decks button")
    player.find("#pictures button")
    found = axe_violations(player)
    if found:
        problems["picture-quiz.html (playing)"] = found
    assert problems == {}


def test_every_setup_form_is_drawn_from_the_catalogs_settings(server, browser):
    """Each game's page offers exactly the settings the catalog lists, each with its default
    and range, and sends what is chosen: a setting added on the server needs no page change."""
    player = Player(browser, server.url).join("Forma")
    catalog = player.js("return fetch('/api/catalog').then((r) => r.json())")
    for game in catalog["games"]:
        player.open(game["page"])
        player.find("[data-setting]")
        drawn = player.js("""
            return [...document.querySelectorAll('[data-setting]')].map((e) => ({
              name: e.dataset.setting, kind: e.dataset.kind, type: e.type,
              value: e.type === 'checkbox' ? e.checked : e.value,
              min: e.min, max: e.max,
              options: e.tagName === 'SELECT' ? [...e.options].map((o) => o.value) : null }));""")
        by_name = {d["name"]: d for d in drawn}
        assert sorted(by_name) == sorted(s["name"] for s in game["settings"]), game["id"]
        for setting in game["settings"]:
            control = by_name[setting["name"]]
            assert control["kind"] == setting["kind"], (game["id"], setting["name"])
            if setting["kind"] == "flag":
                assert control["value"] == setting["default"]
            elif setting["kind"] == "choice":
                assert control["options"] == [c["value"] for c in setting["choices"]]
                assert control["value"] == setting["default"]
            else:
                assert float(control["value"]) == float(setting["default"]), (game["id"], setting["name"])
                if control["options"]:
                    values = [float(v) for v in control["options"]]
                    assert min(values) >= setting["min"] and max(values) <= setting["max"], setting["name"]
                else:
                    assert float(control["min"]) == setting["min"] and float(control["max"]) == setting["max"]
