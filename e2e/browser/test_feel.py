"""Wins that feel like wins, and sound: the celebration line and its confetti (or, under reduced
motion, a still highlight), the sound cues every game plays through js/sound.js, the header's
sound switch remembered on the server, and silence while the page is hidden.

js/sound.js records each cue in `window.__sounds` at the moment its oscillators start, so the
tests read what was really played (nothing is played, so nothing is recorded, when the sound is
off, the page is hidden or no gesture has woken the audio yet).
"""
import re
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_browser import PAGES, POLL, axe_violations, browser, by_button, gop_round, player, server  # noqa: F401

# Counts every confetti layer the page ever adds (they remove themselves after 1.8 s).
WATCH_CONFETTI = """
  window.__bursts = 0;
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (node.classList && node.classList.contains('confetti')) window.__bursts += 1;
    }
  }).observe(document.body, { childList: true, subtree: true });
"""


def cues(player):
    return [entry["cue"] for entry in player.js("return window.__sounds || []")]


def wait_cue(player, cue, count=1, timeout=10):
    WebDriverWait(player.d, timeout, poll_frequency=POLL).until(
        lambda d: cues(player).count(cue) >= count, f"{cue!r} was never played (played: {cues(player)})")


def server_prefs(player):
    return player.js("return fetch('/api/me').then((r) => r.json()).then((me) => me.preferences)")


def new_number_game(player, high=9, attempts=10):
    player.open("number.html")
    player.find("#start")
    player.js("document.querySelector('#set-high').value = arguments[0];"
              "document.querySelector('#set-attempts').value = arguments[1];", str(high), str(attempts))
    player.click("#start")
    player.find("#pad button")


def over(player):
    return player.d.find_element(By.ID, "over").is_displayed()


def guess(player, number, by_script=False):
    """Enters a guess on the pad, by taps (gestures) or by script (a page nobody looks at cannot
    be tapped); returns the hint ("Higher than 5"...) or None when it won or lost."""
    before = len(player.d.find_elements(By.CSS_SELECTOR, "#guesses li"))
    if by_script:
        player.js("for (const digit of arguments[0]) document.querySelector(`#pad [aria-label='Digit ${digit}']`).click();"
                  "document.querySelector('#pad [aria-label=\"Enter guess\"]').click();", str(number))
    else:
        for digit in str(number):
            player.click(f"#pad [aria-label='Digit {digit}']")
        player.click("#pad [aria-label='Enter guess']")
    WebDriverWait(player.d, 10, poll_frequency=POLL).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#guesses li")) > before or over(player))
    return None if over(player) else player.d.find_elements(By.CSS_SELECTOR, "#guesses li")[-1].get_attribute("textContent")


def known_middle(player):
    low, high = map(int, re.findall(r"\d+", player.d.find_element(By.ID, "range-text").get_attribute("textContent")))
    return (low + high) // 2


def miss(player, by_script=False):
    """A guess that misses: the known range's middle (1 in 500 wins at first; then a new game)."""
    while True:
        if over(player):
            new_number_game(player, high=999, attempts=20)
        hint = guess(player, known_middle(player), by_script)
        if hint is not None:
            return hint


def win_number(player):
    """Halves the range until the number is found; returns how many guesses it took."""
    low, high, guesses = 0, 9, 0
    while True:
        middle = (low + high) // 2
        hint = guess(player, middle)
        guesses += 1
        if hint is None:
            return guesses
        if hint.startswith("Higher"):
            low = middle + 1
        else:
            assert hint.startswith("Lower"), hint
            high = middle - 1


def test_a_number_win_is_celebrated_with_its_line_confetti_and_sound(player):
    player.join("Wyn")
    new_number_game(player)
    player.js(WATCH_CONFETTI)
    guesses = win_number(player)
    plural = "guess" if guesses == 1 else "guesses"
    line = player.find("#over .celebration")
    assert line.text.startswith(f"You won in {guesses} {plural}!")
    # A first win is also the player's best Number score.
    assert "New best score" in line.text
    assert player.js("return window.__bursts") == 1
    assert player.js("return getComputedStyle(arguments[0]).animationName", line) == "celebration-pop"
    wait_cue(player, "win")
    assert cues(player) == ["wrong"] * (guesses - 1) + ["win"]

    # The finished game opened again shows the line, without a second burst or cheer.
    player.d.refresh()
    player.js(WATCH_CONFETTI)
    assert player.find("#over .celebration").text.startswith(f"You won in {guesses} {plural}!")
    time.sleep(0.5)
    assert player.js("return window.__bursts") == 0
    assert cues(player) == []


def test_under_reduced_motion_the_line_shows_and_nothing_moves(player):
    player.join("Remy")
    player.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    try:
        new_number_game(player)
        assert player.js("return matchMedia('(prefers-reduced-motion: reduce)').matches")
        player.js(WATCH_CONFETTI)
        guesses = win_number(player)
        line = player.find("#over .celebration")
        assert line.text.startswith(f"You won in {guesses} ")
        time.sleep(0.5)
        assert player.js("return window.__bursts") == 0
        assert player.js("return getComputedStyle(arguments[0]).animationName", line) == "none"
        # The still highlight: a coloured band the line always has.
        assert player.js("return getComputedStyle(arguments[0]).backgroundColor", line) == "rgb(254, 240, 138)"
    finally:
        player.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_a_guess_or_pass_round_that_ends_on_time_celebrates_a_new_best(player):
    """The normal end: the clock runs out (30 s) after a guessed and a passed word."""
    player.join("Tia")
    gop_round(player, [by_button("guessed"), by_button("passed")])
    assert cues(player)[:2] == ["correct", "wrong"]
    player.js(WATCH_CONFETTI)
    player.find("#over", 40)
    assert player.text("#over-title") == "You guessed 1 word!"
    line = player.find("#new-best")
    reply = player.js("return fetch('/api/games/' + new URLSearchParams(location.search).get('game'))"
                      ".then((r) => r.json())")
    assert reply["view"]["endReason"] == "timeUp" and reply["newBest"] is True
    expected = "New best in Animals!" + ("\nNew best score overall!" if reply.get("newBestOverall") else "")
    assert line.text == expected
    assert player.js("return window.__bursts") == 1
    wait_cue(player, "win")
    played = cues(player)
    # The last ten seconds tick once a second, the final three with their own sound, then the
    # time-up cue and the cheer.
    assert played[2:] == ["tick"] * 7 + ["last-tick"] * 3 + ["time-up", "win"], played


def test_the_sound_switch_mutes_every_cue_and_is_remembered(player):
    player.join("Mo")
    new_number_game(player, high=999, attempts=20)
    switch = player.find("#sound-switch")
    assert switch.get_attribute("aria-pressed") == "true" and switch.get_attribute("aria-label") == "Sound"
    assert switch.text == "🔊"
    assert server_prefs(player)["sound"] is True
    miss(player)
    assert cues(player) == ["wrong"]

    player.click("#sound-switch")
    player.wait_attribute("#sound-switch", "aria-pressed", "false")
    assert player.find("#sound-switch").text == "🔇"
    WebDriverWait(player.d, 5, poll_frequency=POLL).until(lambda d: server_prefs(player)["sound"] is False)
    miss(player)
    assert cues(player) == ["wrong"]

    # Remembered: after a reload, and on another page.
    player.d.refresh()
    player.wait_attribute("#sound-switch", "aria-pressed", "false")
    player.find("#pad button")
    miss(player)
    assert cues(player) == []
    player.open("stats.html")
    player.wait_attribute("#sound-switch", "aria-pressed", "false")

    # And back on: heard again.
    new_number_game(player, high=999, attempts=20)
    player.click("#sound-switch")
    player.wait_attribute("#sound-switch", "aria-pressed", "true")
    WebDriverWait(player.d, 5, poll_frequency=POLL).until(lambda d: server_prefs(player)["sound"] is True)
    miss(player)
    assert cues(player) == ["wrong"]


def test_changing_the_input_mode_keeps_the_sound_as_switched(player):
    """Settings saves only the preference it changes: a mute made in its header stays."""
    player.join("Ines")
    player.open("settings.html")
    player.click("#sound-switch")
    WebDriverWait(player.d, 5, poll_frequency=POLL).until(lambda d: server_prefs(player)["sound"] is False)
    player.click("input[name=mode][value=buttons]")
    player.wait_text("#status", "Input mode saved")
    prefs = server_prefs(player)
    assert prefs["inputMode"] == "buttons" and prefs["sound"] is False, prefs


def test_a_hidden_page_plays_nothing(player):
    player.join("Hal")
    new_number_game(player, high=999, attempts=20)
    miss(player)
    assert cues(player) == ["wrong"]
    # Another tab comes to the front: this page is hidden (Selenium still talks to it).
    page = player.d.current_window_handle
    player.d.switch_to.new_window("tab")
    other = player.d.current_window_handle
    player.d.switch_to.window(page)
    player.d.execute_cdp_cmd("Target.activateTarget", {"targetId": other})
    WebDriverWait(player.d, 5, poll_frequency=POLL).until(lambda d: player.js("return document.hidden"))
    miss(player, by_script=True)
    miss(player, by_script=True)
    assert cues(player) == ["wrong"]
    # Seen again: heard again.
    player.d.switch_to.window(other)
    player.d.close()
    player.d.switch_to.window(page)
    player.d.execute_cdp_cmd("Target.activateTarget", {"targetId": page})
    WebDriverWait(player.d, 5, poll_frequency=POLL).until(lambda d: not player.js("return document.hidden"))
    miss(player)
    # Waited for, as elsewhere in this file: in a clean-clone CI run the cue was not yet in the
    # list at the moment the guess showed (seen once in four runs).
    wait_cue(player, "wrong", count=2)
    assert cues(player) == ["wrong", "wrong"]


def test_every_page_passes_axe_with_the_sound_switch(player):
    player.join("Axa")
    problems = {}
    for page in PAGES + ["daily.html"]:
        player.open(page)
        player.find("main")
        if page != "index.html":
            player.find("#sound-switch")
        time.sleep(0.3)
        found = axe_violations(player)
        if found:
            problems[page] = found
    # Muted, and with a celebration line on the end screen.
    player.open("number.html")
    player.click("#sound-switch")
    player.wait_attribute("#sound-switch", "aria-pressed", "false")
    new_number_game(player)
    win_number(player)
    player.find("#over .celebration")
    found = axe_violations(player)
    if found:
        problems["number.html (won, muted)"] = found
    assert problems == {}


def test_a_perfect_bullseye_match_and_round_are_cheered(player):
    """The target is a picture the page may not read; the test reads it to aim exactly."""
    player.join("Bea")
    player.open("bullseye.html")
    player.find("#start")
    player.js("document.querySelector('#set-rounds').value = '1'")
    player.click("#start")
    player.find("#r")
    svg = player.js("return fetch(document.querySelector('#target').src).then((r) => r.text())")
    hex = re.search(r'fill="#([0-9a-fA-F]{6})"', svg).group(1)
    player.js("""for (const [id, value] of arguments[0]) {
                   const slider = document.getElementById(id);
                   slider.value = String(value);
                   slider.dispatchEvent(new Event('input'));
                 }""", [["r", int(hex[0:2], 16)], ["g", int(hex[2:4], 16)], ["b", int(hex[4:6], 16)]])
    player.js(WATCH_CONFETTI)
    player.click("#check")
    assert player.text("#result-score") == "100 / 100"
    assert player.text("#result .celebration") == "Perfect match: 100 out of 100!"
    assert player.js("return window.__bursts") == 1
    wait_cue(player, "win")
    player.click("#next")
    line = player.text("#over .celebration")
    assert line.startswith("Perfect round: 100 out of 100!\nNew best score"), line
    assert player.js("return window.__bursts") == 2


def test_a_picture_quiz_answer_sounds_right_or_wrong_and_a_perfect_round_is_cheered(player):
    player.join("Quinn")
    player.open("picture-quiz.html")
    player.find("#decks button")
    player.js("document.querySelector('#set-questions').value = '1';"
              "document.querySelector('#set-choices').value = '2';")
    player.click("#decks button")
    player.js(WATCH_CONFETTI)
    player.click("#pictures button")
    title = player.text("#over-title")
    right = title.startswith("Correct")
    assert right or title.startswith("Wrong"), title
    assert cues(player)[0] == ("correct" if right else "wrong")
    line = player.d.find_element(By.CSS_SELECTOR, "#over .celebration")
    if right:
        assert line.text.startswith("Perfect round: 1 out of 1 right!\nNew best in Animal Friends!")
        assert player.js("return window.__bursts") == 1
        wait_cue(player, "win")
    else:
        assert not line.is_displayed()
        assert player.js("return window.__bursts") == 0
