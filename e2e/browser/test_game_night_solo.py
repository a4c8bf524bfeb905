"""Issue 51, the solo games as a newcomer reads them, at a phone's size (360x640; Guess or Pass
also sideways, 740x360): Number says each hint and a loss once; Picture Quiz says its score out
of the questions and why a wrong answer lowers it; no end screen scrolls inside itself; no focus
ring until a key is used; Guess or Pass starts in two taps with Play in view; Russian chips break
no word; status lines follow a change of language; Bullseye's three sliders have the same track.

The fixtures and helpers come from test_browser.py, test_phone.py and test_languages_games.py."""
import os
import re
import struct
import sys
import zlib

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_browser import POLL, browser, player, server, type_guess  # noqa: E402,F401
from test_languages_games import english_afterwards, use_language, wait_language  # noqa: E402,F401
from test_phone import PHONE, SIDEWAYS, join_on_phone, phone, set_size, settle, shoot  # noqa: E402,F401


# Text a player can see under `root`: text nodes in boxes larger than a pixel (screen-reader-only
# text sits in a 1 px clipped box), with the page's hidden parts left out.
VISIBLE_TEXT = """
  const root = typeof arguments[0] === 'string' ? document.querySelector(arguments[0]) : arguments[0];
  const parts = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const seen = (e) => {
    for (let a = e; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.display === 'none' || s.visibility === 'hidden' || s.clip !== 'auto') return false;
      const r = a.getBoundingClientRect();
      if (r.width <= 1 || r.height <= 1) return false;
    }
    return true;
  };
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.textContent.trim() && seen(n.parentElement)) parts.push(n.textContent.trim());
  }
  return parts.join('\\n');"""


def visible_text(player, css):
    return player.js(VISIBLE_TEXT, css)


# ---------------------------------------------------------------------------------------------
# 7. Number: one hint and the range bar; a loss said once


def test_number_says_each_hint_once_and_a_loss_once(phone):
    join_on_phone(phone, "Hana")
    for _ in range(5):  # 50 is the secret one game in a hundred: then another game
        phone.open("number.html")
        Select(phone.find("#set-attempts")).select_by_value("2")
        phone.click("#start")
        phone.find("#pad")
        type_guess(phone, 50, by_keyboard=False)
        phone.wait_text("#guesses li", "50")
        if not phone.d.find_element(By.ID, "over").is_displayed():
            break
    else:
        pytest.fail("50 won five games running")
    hint = phone.text("#message")
    assert hint in ("My number is higher than 50.", "My number is lower than 50."), hint
    shown = visible_text(phone, "#hint-panel")
    assert shown.count("50") == 1, shown  # the sentence, not "Higher than 50" nor "between 51 and 99"
    assert "between" not in shown and "Higher than" not in shown and "Lower than" not in shown, shown
    assert phone.find(".rangebar").is_displayed()
    # Screen readers still hear the range in words (the bar is drawn only).
    assert re.match(r"^The number is between \d+ and \d+\.$",
                    phone.d.find_element(By.ID, "range-text").get_attribute("textContent"))
    shoot(phone, "solo-number-hint")
    # A miss at the other end of the range loses the last attempt: the secret is said once.
    type_guess(phone, 0 if "lower" in hint else 99, by_keyboard=False)
    title = phone.wait_text("#over-title", r".")
    if title.startswith("Out of attempts"):
        secret = re.search(r"\d+", title).group()
        shown = visible_text(phone, "#over")
        assert shown.count("My number was") == 1, shown
        assert re.findall(rf"\b{secret}\b", shown.split("\n")[0]) == [secret]
        shoot(phone, "solo-number-lost")


# ---------------------------------------------------------------------------------------------
# 7. Picture Quiz: the score out of the questions, and the −1 rule where the score is shown


def test_picture_quiz_says_the_score_out_of_the_questions_and_why(phone):
    join_on_phone(phone, "Quin")
    phone.open("picture-quiz.html")
    phone.find("#decks button")
    assert "wrong one −1" in visible_text(phone, "#setup")
    Select(phone.find("#set-questions")).select_by_value("8")
    Select(phone.find("#set-choices")).select_by_value("6")
    phone.click("#decks button")
    assert phone.wait_text("#score", r"^Score: 0 of 8$")
    for question in range(1, 9):
        phone.wait_text("#progress", f"Question {question} of 8")
        phone.click("#pictures button")
        if question == 8:
            break
        phone.find("#answer")
        wrong = phone.text("#answer-title").startswith("Wrong")
        rule = phone.d.find_element(By.ID, "answer-rule")
        assert rule.is_displayed() == wrong
        if wrong:
            assert rule.text == "A right answer scores +1 and a wrong one −1; the score never goes below 0."
            shoot(phone, "solo-picture-quiz-wrong")
        phone.click("#continue")
    phone.find("#over")
    text = phone.wait_text("#over-text", r".")
    score = re.fullmatch(r"Game over! Your final score was (\d) of 8\.", text)
    assert score, text
    rule = re.fullmatch(r"\+1 for each right answer, −1 for each wrong one, never below 0: (\d) right, (\d) wrong\.",
                        phone.text("#over-rule"))
    assert rule, phone.text("#over-rule")
    right, wrong = int(rule.group(1)), int(rule.group(2))
    assert right + wrong == 8 and int(score.group(1)) <= right
    assert len(phone.d.find_elements(By.CSS_SELECTOR, "#missed li")) == wrong
    assert inner_scrollers(phone) == []
    shoot(phone, "solo-picture-quiz-end")


# ---------------------------------------------------------------------------------------------
# 8. End screens have no inner scrollers


INNER_SCROLLERS = """
  return [...document.querySelectorAll('body *')].filter((e) => {
    if (e.matches('textarea') || !e.getClientRects().length) return false;
    const s = getComputedStyle(e);
    const scrolls = (o) => o === 'auto' || o === 'scroll';
    return (scrolls(s.overflowY) && e.scrollHeight > e.clientHeight + 1)
      || (scrolls(s.overflowX) && e.scrollWidth > e.clientWidth + 1);
  }).map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${e.className} (${e.scrollHeight} px in ${e.clientHeight})`);"""


def inner_scrollers(player):
    """Elements of the page that scroll inside themselves (the share text box aside)."""
    return player.js(INNER_SCROLLERS)


def test_bullseye_end_table_shows_every_row_without_an_inner_scroller(phone):
    join_on_phone(phone, "Bo")
    phone.open("bullseye.html")
    Select(phone.find("#set-rounds")).select_by_value("5")
    phone.click("#start")
    for _ in range(5):
        phone.click("#check")
        phone.find("#result")
        phone.click("#next")
        phone.gone("#result")
    phone.wait_text("#over-title", r"Game over")
    rows = phone.d.find_elements(By.CSS_SELECTOR, "#history tr")
    assert len(rows) == 5
    assert inner_scrollers(phone) == []
    # The fifth row is on the page: scrolled to, it shows whole, at the screen's width.
    phone.js("arguments[0].scrollIntoView({block: 'center'})", rows[4])
    settle(phone)
    left, top, right, bottom = phone.js(
        "const r = arguments[0].getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]", rows[4])
    assert 0 <= left and 0 <= top and bottom <= 640 and right <= 360 + 0.5
    hit = phone.js("const e = document.elementFromPoint(arguments[0], arguments[1]); return e && e.closest('tr') === arguments[2]",
                   (left + right) / 2, (top + bottom) / 2, rows[4])
    assert hit, "the fifth row is covered"
    shoot(phone, "solo-bullseye-end")


def test_other_end_screens_have_no_inner_scrollers(phone):
    join_on_phone(phone, "Ezra")
    # Color Match, quit after a few answers.
    phone.open("color-match.html")
    Select(phone.find("#set-duration")).select_by_value("30")
    phone.click("#start")
    for i in range(4):
        phone.find("#top-card", 8)
        WebDriverWait(phone.d, 5, poll_frequency=POLL).until(lambda d: d.find_element(By.ID, "yes").is_enabled())
        phone.click("#yes" if i % 2 else "#no")
        phone.gone("#mark", 3)
    phone.click("#quit")
    phone.wait_text("#over-title", r".")
    assert len(phone.d.find_elements(By.CSS_SELECTOR, "#trials tr")) == 4
    assert inner_scrollers(phone) == [], "Color Match"
    # Number, lost in one attempt (or won).
    phone.open("number.html")
    Select(phone.find("#set-attempts")).select_by_value("1")
    phone.click("#start")
    phone.find("#pad")
    type_guess(phone, 50, by_keyboard=False)
    phone.wait_text("#over-title", r".")
    assert inner_scrollers(phone) == [], "Number"
    # Guess or Pass, ended after two words.
    phone.open("guess-or-pass.html")
    phone.click("#categories [data-id=food]")
    phone.click("#play-button")
    phone.find("#word", 8)
    for button in ("#guessed", "#pass"):
        count = int(phone.text("#score")) + int(phone.text("#passed"))
        phone.click(button)
        WebDriverWait(phone.d, 5, poll_frequency=POLL).until(
            lambda d: int(phone.text("#score")) + int(phone.text("#passed")) == count + 1)
    phone.click("#end")
    phone.wait_text("#over-title", r".")
    assert inner_scrollers(phone) == [], "Guess or Pass"


# ---------------------------------------------------------------------------------------------
# 9. Focus rings only after keyboard use


def ring(player):
    """The focused element's id (or tag) and its outline width in px."""
    return player.js("""
      const e = document.activeElement;
      return [e.id || e.tagName.toLowerCase(), parseFloat(getComputedStyle(e).outlineWidth) *
              (getComputedStyle(e).outlineStyle === 'none' ? 0 : 1)];""")


# The first control each page focuses for keyboard users, with no key pressed yet.
FIRST_FOCUS = [
    ("number.html", "#start", "start"),
    ("bullseye.html", "#start", "start"),
    ("color-match.html", "#start", "start"),
    ("picture-quiz.html", "#decks button", "BUTTON"),
    ("guess-or-pass.html", "#categories button", "BUTTON"),
    ("room.html", "#code-input", "code-input"),
]


def test_no_focus_ring_until_a_key_is_used(phone):
    join_on_phone(phone, "Faye")
    phone.find("#game-grid a").click()  # a tap: the pages after it are a pointer's
    for page, css, focused in FIRST_FOCUS:
        phone.open(page)
        phone.find(css)
        WebDriverWait(phone.d, 5, poll_frequency=POLL).until(
            lambda d: phone.js("return document.activeElement !== document.body"), f"{page} focuses nothing")
        element, width = ring(phone)
        assert focused in (element, element.upper()), (page, element)
        assert width == 0, f"{page}: {element} has a {width} px ring before any key"
        if page == "picture-quiz.html":
            shoot(phone, "solo-first-focus-picture-quiz")
    # A key press (Tab) shows the ring where focus is, and a tap takes it away.
    phone.open("number.html")
    phone.find("#start")
    WebDriverWait(phone.d, 5, poll_frequency=POLL).until(lambda d: ring(phone)[0] == "start")
    ActionChains(phone.d).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()  # to the setting above
    element, width = ring(phone)
    assert width == 4, (element, width)
    # Keyboard use carries on to the next page of this tab: its first focus shows at once.
    phone.open("bullseye.html")
    phone.find("#start")
    WebDriverWait(phone.d, 5, poll_frequency=POLL).until(lambda d: ring(phone)[0] == "start")
    assert ring(phone) == ["start", 4]
    phone.d.find_element(By.CSS_SELECTOR, "main h1").click()
    phone.js("document.getElementById('start').focus()")
    assert ring(phone) == ["start", 0]


# ---------------------------------------------------------------------------------------------
# 11. Guess or Pass: two taps, Play in view, help before the round and not on the card


def in_view(player, css):
    return player.js("""
      const r = document.querySelector(arguments[0]).getBoundingClientRect();
      return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;""", css)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", [PHONE, SIDEWAYS], ids=["360x640", "740x360"])
def test_guess_or_pass_starts_in_two_taps_with_play_in_view(phone, lang, size):
    join_on_phone(phone, "Gil", lang)
    set_size(phone, size)
    phone.open("guess-or-pass.html")
    wait_language(phone, lang)
    phone.find("#categories button")
    # The last category of the grid: tapped where it is, then Play is on the screen.
    last = phone.d.find_elements(By.CSS_SELECTOR, "#categories button")[-1]
    phone.js("arguments[0].scrollIntoView({block: 'center'})", last)
    last.click()
    settle(phone)
    assert last.get_attribute("aria-pressed") == "true"
    assert in_view(phone, "#play-button"), "Play is off the screen after picking a category"
    assert in_view(phone, "#confirm-text")
    # The help is said before the round, with the choices.
    help_text = phone.text("#input-help")
    assert help_text.startswith({"en": "To answer: tap Guessed or Pass", "ru": "Как отвечать: нажимайте"}[lang]), help_text
    shoot(phone, f"solo-guess-or-pass-picked-{size[0]}x{size[1]}")
    # The second tap starts the round.
    phone.click("#play-button")
    phone.find("#countdown", 3)
    word = phone.wait_text("#word", r"\w", 8)
    # The card carries the word alone.
    assert visible_text(phone, "#stage") == word
    shoot(phone, f"solo-guess-or-pass-word-{size[0]}x{size[1]}")
    phone.click("#end")
    phone.wait_text("#over-title", r".")


# ---------------------------------------------------------------------------------------------
# 14. Russian: the daily chips break no word; status lines follow a change of language


BROKEN_WORDS = """
  const broken = [];
  for (const title of document.querySelectorAll('#daily-chips .chip-title')) {
    const node = title.firstChild;
    const text = node.textContent;
    for (const m of text.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      const box = title.parentElement.getBoundingClientRect();
      const word = range.getBoundingClientRect();
      if (lines.size > 1 || word.left < box.left - 0.5 || word.right > box.right + 0.5) broken.push(m[0]);
    }
  }
  return broken;"""


@pytest.mark.parametrize("lang", ["ru", "es", "en"])
def test_daily_chips_break_no_word(phone, lang):
    join_on_phone(phone, "Dima", lang)
    phone.open("index.html")
    wait_language(phone, lang)
    WebDriverWait(phone.d, 10, poll_frequency=POLL).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, "#daily-chips .chip-title")) == 5)
    settle(phone)
    assert phone.js(BROKEN_WORDS) == []
    shoot(phone, "solo-daily-chips")


def test_status_lines_follow_a_change_of_language(player):
    player.join("Lev")
    player.open("settings.html")
    player.click("input[name=theme][value=dark]")
    assert player.wait_text("#status", r"^Theme saved") == "Theme saved: Dark."
    player.click("#category-save")  # no name: the form says so
    assert player.wait_text("#category-status", r".") == "Please give the category a name."
    # The header's switch: the page stays, its lines are said again in Russian.
    player.find("#language-switch")
    Select(player.d.find_element(By.ID, "language-select")).select_by_value("ru")
    wait_language(player, "ru")
    theme = player.wait_text("#status", r"^Тема")
    assert theme == "Тема сохранена: Тёмная.", theme
    assert not re.search(r"[A-Za-z]", player.text("#category-status")), player.text("#category-status")
    # The radios of Settings: said in the language chosen.
    player.click("input[name=language][value=es]")
    wait_language(player, "es")
    assert player.wait_text("#status", r"^Idioma") == "Idioma guardado: Español.", player.text("#status")
    player.click("input[name=theme][value=light]")
    player.wait_text("#status", r"Claro")
    player.click("input[name=language][value=en]")
    wait_language(player, "en")


# ---------------------------------------------------------------------------------------------
# 19. Bullseye: the three sliders' unfilled tracks are alike


def png_pixels(data):
    """A PNG screenshot (8-bit RGB or RGBA, not interlaced) as (width, height, pixel(x, y))."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6) and body[12] == 0
        elif kind == b"IDAT":
            idat += body
    step = 3 if colour == 2 else 4
    raw, stride, rows, previous, i = zlib.decompress(idat), width * step, [], bytearray(width * step), 0
    for _ in range(height):
        kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - step] if x >= step else 0
            b = previous[x]
            c = previous[x - step] if x >= step else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, lambda x, y: tuple(rows[y][x * step:x * step + 3])


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_bullseye_sliders_have_the_same_unfilled_track(phone, scheme):
    join_on_phone(phone, "Rhea")
    phone.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    phone.open("bullseye.html")
    phone.click("#start")
    phone.find("#r")
    # Every slider low, so that most of each track is the unfilled part.
    phone.js("""for (const id of ['r', 'g', 'b']) {
      const s = document.getElementById(id); s.value = 10; s.dispatchEvent(new Event('input', {bubbles: true})); }""")
    phone.click("#round-text")  # a tap: no focus ring on a slider
    settle(phone)
    boxes = phone.js("""return ['r', 'g', 'b'].map((id) => {
      const r = document.getElementById(id).getBoundingClientRect();
      return [r.left, r.width, r.top + r.height / 2]; });""")
    _, _, pixel = png_pixels(phone.d.get_screenshot_as_png())
    tracks = [[pixel(int(left + width * f), int(middle)) for f in (0.6, 0.75, 0.9)] for left, width, middle in boxes]
    red, green, blue = tracks
    assert red[0] == red[1] == red[2], red
    assert green == red and blue == red, {"red": red, "green": green, "blue": blue}
