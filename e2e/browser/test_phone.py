"""Phone-first play, in headless Chromium: every game's in-play controls are on the screen
without scrolling (checked with getBoundingClientRect) at 360x640, 390x844 and 1280x800, and
Guess or Pass also at 740x360 (sideways), from the start of a round, after moves and feedback,
to its end, in English, and in Spanish and Russian (longer words) at the phone's size (and Guess
or Pass sideways); no page is wider than the screen; Guess or Pass holds the screen (fullscreen, wake
lock) only while a round runs and says plainly when tilting cannot work; the words a newcomer
reads are plain (exact figures one tap away); the first visit leads back to the game it began
on. Screenshots of every game in play and at its end, at every size, in light and dark and in
each language (phone-<language>-<screen>-<size>-<scheme>.png), go to GUESSWORK_SCREENSHOTS (see
test_browser.py).

The fixtures and helpers come from test_browser.py (imported, not copied)."""
import os
import re
import sys
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_browser import (  # noqa: E402,F401  (fixtures are used by name)
    POLL, SCREENSHOTS, axe_violations, browser, known_range, player, server, set_input_mode, type_guess)
from test_languages_games import NEXT, PROGRESS, ROUND, english_afterwards, use_language  # noqa: E402,F401

PHONE = (360, 640)
TALL_PHONE = (390, 844)
DESKTOP = (1280, 800)
SIDEWAYS = (740, 360)
SIZES = [PHONE, TALL_PHONE, DESKTOP]
# The layouts are checked in English at every size, and in the languages with longer words at
# the phone's (where they are tightest).
LANGUAGES = ["en", "es", "ru"]


def sizes_for(lang, sizes=SIZES):
    """`sizes` in English; in another language only the small ones of them (the phone's, and
    Guess or Pass sideways), first in the same order."""
    return sizes if lang == "en" else [size for size in sizes if size in (PHONE, SIDEWAYS)]

# What a player needs on screen while playing each game.
NUMBER = ["#message", ".rangebar", "#attempts", "#display", "#pad button"]
COLOR_MATCH = [".hud", "#clock", "#top-card", "#bottom-card", "#no", "#yes", "#quit"]
BULLSEYE = ["#round-text", "#target", "#guess", "#r", "#g", "#b", "#check"]
GUESS_OR_PASS = ["#score", "#seconds", "#passed", "#timebar", "#pass", "#guessed", "#end"]
PICTURE_QUIZ = ["#progress", "#score", "#question", "#pictures button"]


def set_size(player, size):
    width, height = size
    player.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 1000})
    settle(player)


def settle(player):
    """Waits for two frames, so that a new size or state has been laid out and painted."""
    player.d.execute_async_script(
        "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done()));")


def outside(player, selectors):
    """Each shown element of `selectors` that is not wholly inside the screen with the page
    scrolled to its top, a selector that shows nothing, a page or table wider than the screen
    or its box, and Guess or Pass's word stage when its words spill out of it: what a player
    would have to scroll for, or could not read."""
    return player.js("""
      const [selectors] = arguments;
      window.scrollTo(0, 0);
      const problems = [];
      const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
      const box = (r) => `${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`;
      for (const selector of selectors) {
        const found = [...document.querySelectorAll(selector)].filter(shown);
        if (!found.length) problems.push(`${selector} is not shown`);
        for (const e of found) {
          const r = e.getBoundingClientRect();
          if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
            problems.push(`${selector} at ${box(r)} is outside ${innerWidth}x${innerHeight}`);
          }
        }
      }
      return problems.concat(overflowing());
      function overflowing() {
        const page = document.documentElement;
        const wide = page.scrollWidth > page.clientWidth ? [`the page is ${page.scrollWidth} px wide`] : [];
        const stage = document.getElementById('stage');
        const spills = stage && shown(stage) && stage.scrollHeight > stage.clientHeight
          ? [`the stage's words are ${stage.scrollHeight} px high in ${stage.clientHeight} px`] : [];
        return wide.concat(spills, [...document.querySelectorAll('table')].filter(shown)
          .filter((t) => t.scrollWidth > t.parentElement.clientWidth + 0.5 || t.getBoundingClientRect().right > innerWidth + 0.5)
          .map((t) => `a table is ${t.scrollWidth} px wide in ${t.parentElement.clientWidth} px`));
      }""", selectors)


def shoot(player, name):
    """Screenshots of the page as it is, light and dark, named by the page's language."""
    width, height, lang = player.js("return [innerWidth, innerHeight, document.documentElement.lang]")
    for scheme in ("light", "dark"):
        player.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": "prefers-color-scheme", "value": scheme}]})
        settle(player)
        player.d.save_screenshot(os.path.join(SCREENSHOTS, f"phone-{lang}-{name}-{width}x{height}-{scheme}.png"))
    player.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def fits(player, name, selectors, sizes=SIZES, problems=None):
    """Checks `selectors` at every size (a screenshot of each) and collects what does not fit
    under `name`; ends at the phone's size. Returns the problems found so far."""
    problems = {} if problems is None else problems
    for size in sizes:
        set_size(player, size)
        found = outside(player, selectors)
        if found:
            problems[f"{name} at {size[0]}x{size[1]}"] = found
        shoot(player, name)
    set_size(player, sizes[0])
    return problems


@pytest.fixture
def phone(player):
    """The player at the phone's size; the browser's own size again afterwards."""
    player.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    yield player
    player.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    player.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def join_on_phone(player, name, lang="en"):
    player.join(name)
    if lang != "en":
        use_language(player, lang)
    set_size(player, PHONE)
    return player


# ---------------------------------------------------------------------------------------------
# Layouts that fit, game by game


def halving_guess(player):
    """Guesses the middle of the known range by keyboard; True once the game is over."""
    low, high = known_range(player)
    before = len(player.d.find_elements(By.CSS_SELECTOR, "#guesses li"))
    type_guess(player, (low + high) // 2, by_keyboard=True)
    WebDriverWait(player.d, 10, poll_frequency=POLL).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#guesses li")) > before
        or d.find_element(By.ID, "over").is_displayed())
    return player.d.find_element(By.ID, "over").is_displayed()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_number_fits_a_phone_from_the_first_guess_to_the_end(phone, lang):
    join_on_phone(phone, "Nell", lang)
    sizes = sizes_for(lang)
    for _ in range(5):  # halving hits the number within four guesses about 1 time in 20
        phone.open("number.html")
        Select(phone.find("#set-attempts")).select_by_value("7")
        shoot(phone, "number-setup")
        phone.click("#start")
        phone.find("#pad")
        problems = fits(phone, "number-start", NUMBER, sizes)
        if not any(halving_guess(phone) for _ in range(4)):
            break
    else:
        pytest.fail("won within four guesses five times running")
    assert phone.text("#message")  # the hint is up, the list of guesses below the pad
    assert len(phone.d.find_elements(By.CSS_SELECTOR, "#guesses li")) == 4
    fits(phone, "number-after-four-guesses", NUMBER, sizes, problems)
    # After four halvings the range is a few numbers wide: its ends never draw over each other.
    time.sleep(0.6)  # the labels glide to their places
    shown = phone.js("""return [...document.querySelectorAll('.range-ends span')]
      .filter((s) => getComputedStyle(s).visibility !== 'hidden')
      .map((s) => { const r = s.getBoundingClientRect(); return [r.left, r.right]; });""")
    bar = phone.js("const r = document.querySelector('.range-ends').getBoundingClientRect(); return [r.left, r.right];")
    assert all(bar[0] - 0.5 <= left and right <= bar[1] + 0.5 for left, right in shown), (shown, bar)
    assert len(shown) == 1 or shown[0][1] <= shown[1][0], shown
    while not halving_guess(phone):
        pass
    fits(phone, "number-end", ["#over-title", "#over-score"], sizes, problems)
    assert problems == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_color_match_fits_with_its_feedback_and_its_end_table_fits(phone, lang):
    join_on_phone(phone, "Cleo", lang)
    sizes = sizes_for(lang)
    phone.open("color-match.html")
    Select(phone.find("#set-duration")).select_by_value("30")
    shoot(phone, "color-match-setup")
    phone.click("#start")
    phone.find("#top-card", 8)
    problems = fits(phone, "color-match-start", COLOR_MATCH, sizes)
    for i in range(6):
        WebDriverWait(phone.d, 5, poll_frequency=POLL).until(lambda d: d.find_element(By.ID, "yes").is_enabled())
        phone.keys(Keys.ARROW_RIGHT if i % 2 else "n")
        phone.wait_text("#mark-text", r"^[✓✗]$", 3)
        if i == 0:
            shoot(phone, "color-match-feedback")
        phone.gone("#mark", 3)
    WebDriverWait(phone.d, 5, poll_frequency=POLL).until(lambda d: d.find_element(By.ID, "yes").is_enabled())
    fits(phone, "color-match-after-six-answers", COLOR_MATCH, sizes, problems)
    phone.click("#quit")
    phone.wait_text("#over-title", r"\d")
    assert len(phone.d.find_elements(By.CSS_SELECTOR, "#trials tr")) == 6
    fits(phone, "color-match-end", ["#over-title", "#trials tr:first-child td:last-child"], sizes, problems)
    assert problems == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bullseye_fits_with_its_result_and_its_end_table_fits(phone, lang):
    join_on_phone(phone, "Bram", lang)
    sizes = sizes_for(lang)
    phone.open("bullseye.html")
    Select(phone.find("#set-rounds")).select_by_value("2")
    shoot(phone, "bullseye-setup")
    phone.click("#start")
    target = phone.find("#target")
    WebDriverWait(phone.d, 10).until(lambda d: phone.js("return arguments[0].complete && arguments[0].naturalWidth > 0", target))
    problems = fits(phone, "bullseye-start", BULLSEYE, sizes)
    phone.keys(Keys.ARROW_RIGHT * 20)
    phone.click("#check")
    phone.find("#result")
    fits(phone, "bullseye-result", ["#result-score", "#result-delta", "#next"], sizes, problems)
    phone.click("#next")
    phone.gone("#result")
    assert phone.wait_text("#round-text", ROUND[lang].format(n=2))
    fits(phone, "bullseye-second-colour", BULLSEYE, sizes, problems)
    phone.click("#check")
    phone.wait_text("#next", NEXT[lang][1])
    phone.click("#next")
    phone.wait_text("#over-title", r"\d")
    fits(phone, "bullseye-end", ["#over-title", "#history tr:first-child td:last-child"], sizes, problems)
    assert problems == {}


def start_guess_or_pass(player, category="animals"):
    player.open("guess-or-pass.html")
    player.click(f"#categories [data-id={category}]")
    Select(player.find("#set-duration")).select_by_value("30")
    player.click("#play-button")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_guess_or_pass_fits_a_phone_upright_and_sideways(phone, lang):
    join_on_phone(phone, "Gwen", lang)
    phone.open("guess-or-pass.html")
    phone.find("#categories button")
    shoot(phone, "guess-or-pass-setup")
    start_guess_or_pass(phone)
    phone.wait_text("#countdown", r"^[1-5]$", 3)
    problems = fits(phone, "guess-or-pass-countdown", GUESS_OR_PASS + ["#countdown"], [SIDEWAYS, PHONE])
    phone.find("#word", 8)
    fits(phone, "guess-or-pass-start", GUESS_OR_PASS + ["#word"], sizes_for(lang, SIZES + [SIDEWAYS]), problems)
    for button in ("#guessed", "#pass", "#guessed"):
        count = int(phone.text("#score")) + int(phone.text("#passed"))
        phone.click(button)
        WebDriverWait(phone.d, 5, poll_frequency=POLL).until(
            lambda d: int(phone.text("#score")) + int(phone.text("#passed")) == count + 1)
    fits(phone, "guess-or-pass-after-three-words", GUESS_OR_PASS + ["#word"], sizes_for(lang, [SIDEWAYS] + SIZES), problems)
    phone.click("#end")
    phone.wait_text("#over-title", r"\b2\b")
    fits(phone, "guess-or-pass-end", ["#over-title"], sizes_for(lang, [SIDEWAYS] + SIZES), problems)
    assert problems == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_picture_quiz_fits_with_its_dialogs(phone, lang):
    join_on_phone(phone, "Pip", lang)
    sizes = sizes_for(lang)
    phone.open("picture-quiz.html")
    Select(phone.find("#set-questions")).select_by_value("3")
    Select(phone.find("#set-choices")).select_by_value("6")
    shoot(phone, "picture-quiz-setup")
    phone.click("#decks button")
    phone.find("#pictures button")
    problems = fits(phone, "picture-quiz-start", PICTURE_QUIZ, sizes)
    for question in (1, 2, 3):
        phone.click("#pictures button")
        if question < 3:
            phone.find("#answer")
            fits(phone, "picture-quiz-answer", ["#answer-title", "#continue"], sizes, problems)
            phone.click("#continue")
            phone.wait_text("#progress", PROGRESS[lang].format(n=question + 1))
    phone.find("#over")
    fits(phone, "picture-quiz-end", ["#over-title", "#again"], sizes, problems)
    assert problems == {}


# ---------------------------------------------------------------------------------------------
# Guess or Pass holds the screen, and says when tilting cannot work


@pytest.fixture
def on_every_page(player):
    """Runs a script before any of the page's own on every page opened in this test."""
    added = []

    def add(source):
        added.append(player.d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": source})["identifier"])
    yield add
    for identifier in added:
        player.d.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": identifier})


# Records each fullscreen request (whether a tap was under way) and each wake lock granted.
RECORD_SCREEN = """
window.__screen = { fullscreen: [], locks: [] };
const requestFullscreen = Element.prototype.requestFullscreen;
Element.prototype.requestFullscreen = function (...args) {
  window.__screen.fullscreen.push(navigator.userActivation.isActive);
  return requestFullscreen.apply(this, args);
};
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => request(type).then((lock) => { window.__screen.locks.push(lock); return lock; });
}
"""


def screen_state(player):
    return player.js("""return {fullscreen: window.__screen.fullscreen, inFullscreen: !!document.fullscreenElement,
                                locks: window.__screen.locks.map((l) => l.released)}""")


def wait_screen(player, expected, message):
    WebDriverWait(player.d, 5, poll_frequency=POLL).until(lambda d: screen_state(player) == expected,
                                                          f"{message}: {screen_state(player)}")


def test_guess_or_pass_holds_the_screen_only_while_a_round_runs(player, on_every_page):
    on_every_page(RECORD_SCREEN)
    player.join("Wanda")
    assert player.js("return !!navigator.wakeLock"), "this Chromium has no wake lock to test"
    start_guess_or_pass(player)
    player.wait_text("#countdown", r"^[1-5]$", 3)
    # Asked for once, from the tap on "Start game"; one wake lock held.
    wait_screen(player, {"fullscreen": [True], "inFullscreen": True, "locks": [False]}, "the round holds no screen")
    # The browser lets the lock go while the page is hidden; coming back takes a new one.
    player.js("window.__screen.locks[0].release().then(() => document.dispatchEvent(new Event('visibilitychange')))")
    wait_screen(player, {"fullscreen": [True], "inFullscreen": True, "locks": [True, False]}, "no new lock on coming back")
    player.find("#word", 8)
    player.click("#end")
    player.wait_text("#over-title", r"You guessed 0 words")
    wait_screen(player, {"fullscreen": [True], "inFullscreen": False, "locks": [True, True]}, "the end let nothing go")
    # "Play again" is a tap that starts a round too.
    player.click("#again")
    wait_screen(player, {"fullscreen": [True, True], "inFullscreen": True, "locks": [True, True, False]}, "play again holds nothing")
    player.find("#word", 8)
    player.click("#end")
    wait_screen(player, {"fullscreen": [True, True], "inFullscreen": False, "locks": [True, True, True]}, "the second end let nothing go")


def tilt_note(player):
    return player.wait_text("#tilt-note", r"^Tilting is off", 6)


def test_guess_or_pass_says_why_tilting_is_off_and_what_works(player, on_every_page):
    """Headless Chromium has the orientation API but no sensor: it sends one event without
    angles, which the page reads as what it is."""
    player.join("Tilda")
    start_guess_or_pass(player)
    assert tilt_note(player) == ("Tilting is off because this device has no tilt sensor: "
                                 "tap Guessed or Pass, or swipe the word.")
    player.find("#word", 8)
    # The help said before the round no longer offers tilting either.
    assert "tilt" not in player.d.find_element(By.ID, "input-help").get_attribute("textContent")
    assert player.find("#buttons").is_displayed()
    player.click("#end")


def test_guess_or_pass_without_https_says_so(player, on_every_page):
    on_every_page("Object.defineProperty(window, 'isSecureContext', { value: false });")
    player.join("Theo")
    start_guess_or_pass(player)
    assert tilt_note(player) == ("Tilting is off because the page was opened over http, and phones only allow "
                                 "tilting on a secure (https) address: tap Guessed or Pass, or swipe the word.")
    player.click("#end")


def test_guess_or_pass_asks_for_motion_from_the_tap_and_a_refusal_leaves_buttons(player, on_every_page):
    """As on an iPhone: both motion permissions are asked from the tap that starts the round.
    Refused in the tilt-only mode, the round still has its buttons and swipes."""
    on_every_page("""
      window.__asked = [];
      for (const E of [window.DeviceMotionEvent, window.DeviceOrientationEvent]) {
        E.requestPermission = () => { window.__asked.push(navigator.userActivation.isActive); return Promise.resolve('denied'); };
      }""")
    player.join("Iris")
    set_input_mode(player, "tilts")
    start_guess_or_pass(player)
    assert tilt_note(player) == ("Tilting is off because motion access was not allowed: "
                                 "tap Guessed or Pass, or swipe the word.")
    assert player.js("return window.__asked") == [True, True]
    player.find("#word", 8)
    assert player.find("#buttons").is_displayed()
    player.click("#guessed")
    assert player.wait_text("#score", "^1$")
    player.click("#end")


# ---------------------------------------------------------------------------------------------
# Plain words, with the exact figures one tap away


def test_bullseye_says_how_close_in_plain_words(player):
    player.join("Pia")
    player.open("bullseye.html")
    Select(player.find("#set-rounds")).select_by_value("1")
    player.click("#start")
    player.click("#check")
    player.find("#result")
    plain = player.text("#result-delta")
    assert plain in ("Nobody could tell your colour from the target.",
                     "Only a close look tells your colour from the target.",
                     "Close! The difference shows at a glance.",
                     "Your colour is clearly different from the target.",
                     "Your colour is far from the target: nearly its opposite."), plain
    # The exact difference is one tap away, with what the number means.
    assert not player.d.find_element(By.ID, "result-exact").is_displayed()
    player.click("#result details summary")
    assert re.match(r"^ΔE \d+\.\d \(.+\)\.$", player.text("#result-exact"))
    assert "0 is the same colour" in player.text("#result details p")
    player.click("#next")
    player.wait_text("#over-title", "Game over")
    headers = [th.text for th in player.d.find_elements(By.CSS_SELECTOR, "#over th")]
    assert headers == ["#", "Target", "Yours", "How close", "Score"]
    closeness = player.text("#history td:nth-child(4)")
    assert re.match(r"^(Spot on|Very close|Close|Different|Far apart)\nΔE \d+\.\d$", closeness), closeness
    assert axe_violations(player) == []


def test_color_match_says_the_mismatch_effect_in_a_sentence(player):
    player.join("Stella")
    player.open("color-match.html")
    Select(player.find("#set-duration")).select_by_value("30")
    player.click("#start")
    for i in range(8):
        player.find("#top-card", 8)
        WebDriverWait(player.d, 5, poll_frequency=POLL).until(lambda d: d.find_element(By.ID, "yes").is_enabled())
        player.keys("y" if i % 2 else "n")
        player.gone("#mark", 3)
    player.click("#quit")
    player.wait_text("#over-title", "You quit")
    report = player.text("#report")
    assert "Interference" not in report and "congruent" not in report.lower()
    summary = player.js("return fetch(`/api/games/${new URLSearchParams(location.search).get('game')}`)"
                        ".then((r) => r.json()).then((r) => r.summary)")
    effect = summary.get("interferenceMs")
    sentence = player.text("#interference")
    if effect is None:  # every card was of one kind: nothing to compare
        assert sentence.startswith("Answer both kinds of cards")
    elif int(abs(effect) + 0.5) == 0:
        assert sentence == "You answered just as fast when the word and its ink disagreed."
    else:
        assert sentence == (f"You answered {int(abs(effect) + 0.5)} ms {'slower' if effect > 0 else 'faster'} "
                            "when the word and its ink disagreed.")
    # The exact times, one tap away.
    assert not player.d.find_element(By.ID, "exact-times").is_displayed()
    player.click("#over details summary")
    times = player.text("#exact-times")
    assert "Time when word and ink agree" in times and "Slowed by the mismatch" in times
    assert "incongruent" not in player.text("#trials")
    assert axe_violations(player) == []


def test_statistics_name_a_category_by_its_title(player):
    player.join("Tess")
    start_guess_or_pass(player, category="food")
    player.find("#word", 8)
    player.click("#guessed")
    player.wait_text("#score", "^1$")
    player.click("#end")
    player.wait_text("#over-title", "You guessed 1 word!")
    assert player.wait_text("#over-best", r"Best score in Food: 1 word\b")
    player.open("stats.html")
    panel = player.find("#h-guess-or-pass").find_element(By.XPATH, "..")
    assert re.search(r": Food\n1\b", panel.text), panel.text
    assert not re.search(r": food\b", panel.text)


# ---------------------------------------------------------------------------------------------
# First impression


def test_home_fits_most_games_on_a_phone_and_a_sign_up_clears_the_error(player):
    player.d.delete_all_cookies()
    set_size(player, PHONE)
    try:
        player.open("index.html")
        player.click("#welcome-form button[type=submit]")
        assert "Please provide input" in player.text("#status")
        player.find("#welcome-name").send_keys("Hana", Keys.ENTER)
        assert player.text("#home-name") == "Hana"
        assert player.d.find_element(By.ID, "status").text == ""
        player.find("#game-grid a")
        settle(player)
        cards = player.js("""window.scrollTo(0, 0);
          return [...document.querySelectorAll('#game-grid a:not(#party-card)')].map((a) => a.getBoundingClientRect().bottom <= innerHeight);""")
        assert len(cards) == 5 and sum(cards) >= 3, f"only {sum(cards)} of the five games are on the first screen"
        assert outside(player, ["#home h1", "#game-grid a:first-child"]) == []
        shoot(player, "home")
        player.open("stats.html")
        player.find(".panel")
        assert outside(player, ["h1"]) == []
        shoot(player, "stats")
    finally:
        player.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_newcomer_on_a_game_page_comes_back_to_it_after_choosing_a_name(player):
    player.d.delete_all_cookies()
    player.open("number.html?from=a-friend")
    player.find("#welcome-name").send_keys("Nico", Keys.ENTER)
    WebDriverWait(player.d, 10, poll_frequency=POLL).until(lambda d: "/number.html" in d.current_url)
    assert player.d.current_url.endswith("/number.html?from=a-friend")
    player.find("#setup")
    assert player.text("#player-chip .player-name") == "Nico"
    # Only once: the next visit to home stays home.
    player.open("index.html")
    assert player.text("#home-name") == "Nico"


# ---------------------------------------------------------------------------------------------
# Picture Quiz


def test_picture_quiz_counts_come_first_and_the_end_reads_as_sentences(player):
    player.join("Quinn")
    player.open("picture-quiz.html")
    player.find("#decks button")
    # The counts are set before a deck is tapped, so they come first.
    above = player.js("""const s = document.getElementById('set-questions').getBoundingClientRect();
      const d = document.getElementById('decks').getBoundingClientRect(); return s.bottom <= d.top;""")
    assert above
    assert "First choose how many questions and pictures" in player.text("#setup")
    # The roster without its photos cannot be played, so it is not offered.
    assert player.d.find_elements(By.XPATH, "//div[@id='decks']/*[strong='NFL HOF Eagles']") == []
    Select(player.find("#set-questions")).select_by_value("1")
    player.d.find_element(By.XPATH, "//div[@id='decks']/button[strong='Animal Friends']").click()
    player.click("#pictures button")
    player.find("#over")
    verdict = player.text("#over-title")
    assert verdict == "Correct!" or re.match(r"^Wrong! That's the .+\.$", verdict), verdict
    assert re.match(r"^Game over! Your final score was \d of 1\.$", player.text("#over-text"))
