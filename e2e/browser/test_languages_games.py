"""The five game pages in English, Spanish and Russian, in headless Chromium: each game played to
its end with the language chosen as the player's preference, checking on every screen that
<html lang> is the language, that no text (or accessible name) is a raw catalog key or, in
Spanish and Russian, an English text of the catalogs, that the console never reports a missing
key, and a few exact texts as the catalogs render them (plural forms, numbers in the language's
style). Screenshots of every game in each language at 360x640 and 1280x800 go to
GUESSWORK_SCREENSHOTS (named lang-<language>-<screen>-<size>.png).

The fixtures and helpers come from test_browser.py (imported, not copied)."""
import json
import os
import re
import sys
import urllib.request

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_browser import (  # noqa: E402,F401  (fixtures are used by name)
    EXPECTED_STATUS, POLL, browser, guess_and_wait, known_range, number_start, player, server)

LANGUAGES = ["en", "es", "ru"]
# A catalog key as it would show if a page printed one: dotted lowerCamel segments.
KEY_LIKE = re.compile(r"^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9]+)+$")
# ΔE with its one decimal, in each language's style.
DECIMAL = {"en": r"\d+\.\d", "es": r"\d+,\d", "ru": r"\d+,\d"}


# ---------------------------------------------------------------------------------------------
# The language and the catalogs


def use_language(player, lang):
    """Chooses `lang` as the joined player's language (their preference on the server, and this
    browser's last choice, which the next page's first paint uses) and reloads the page."""
    status = player.d.execute_async_script("""
      const [lang, done] = arguments;
      localStorage.setItem('guesswork.lang', lang);
      fetch('/api/me', {method: 'PATCH', credentials: 'same-origin', headers: {'Content-Type': 'application/json'},
                        body: JSON.stringify({preferences: {language: lang}})})
        .then((r) => done(r.status)).catch(() => done(0));""", lang)
    assert status == 200, status
    player.d.refresh()
    wait_language(player, lang)
    return player


def forget_language(driver):
    """This browser's last choice of language goes (the browser outlives each test's player,
    and the next test expects the device's language, English)."""
    try:
        driver.execute_script("try { localStorage.removeItem('guesswork.lang'); } catch (e) {}")
    except Exception:  # no page of the server's open
        pass


@pytest.fixture(autouse=True)
def english_afterwards(browser):
    yield
    forget_language(browser)


def wait_language(player, lang):
    WebDriverWait(player.d, 10, poll_frequency=POLL).until(
        lambda d: player.js("return document.documentElement.lang") == lang
        and not player.js("return document.documentElement.classList.contains('i18n-loading')"),
        f"the page never showed itself in {lang}")


_catalogs = {}


def catalog(server, lang):
    """The merged catalog the server serves for `lang` (what the pages render from)."""
    if (server.url, lang) not in _catalogs:
        with urllib.request.urlopen(f"{server.url}/i18n/{lang}.json", timeout=10) as r:
            _catalogs[(server.url, lang)] = json.loads(r.read().decode("utf-8"))
    return _catalogs[(server.url, lang)]


def strings(values):
    for value in values:
        if isinstance(value, dict):
            yield from value.values()
        else:
            yield value


def english_only(server, lang):
    """The English texts of the catalogs (without placeholders) that `lang` says differently:
    seen on a Spanish or Russian page, they are text a page forgot to translate."""
    if lang == "en":
        return set()
    own = set(strings(catalog(server, lang).values()))
    return {text for text in strings(catalog(server, "en").values())
            if "{" not in text and len(text) >= 3 and text not in own}


def shown_texts(player):
    """Every text a player sees or hears on the page now: the text of each rendered element,
    the accessible names and titles of rendered elements, and the document's title."""
    return player.js("""
      const out = [document.title];
      const rendered = (e) => e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent.trim();
        if (text && rendered(node.parentElement) && !node.parentElement.closest('script, style')) out.push(text);
      }
      for (const e of document.body.querySelectorAll('[aria-label], [title], [alt], [placeholder], [aria-valuetext]')) {
        if (!rendered(e)) continue;
        for (const name of ['aria-label', 'title', 'alt', 'placeholder', 'aria-valuetext']) {
          const value = (e.getAttribute(name) || '').trim();
          if (value) out.push(value);
        }
      }
      return out;""")


def check_screen(player, server, lang, where):
    """<html lang>, no raw key, no untranslated English, no missing key in the console."""
    assert player.js("return document.documentElement.lang") == lang, where
    keys = set(catalog(server, lang))
    english = english_only(server, lang)
    texts = shown_texts(player)
    raw = [text for text in texts if text in keys or KEY_LIKE.match(text)]
    assert raw == [], f"{where}: raw keys shown: {raw}"
    untranslated = sorted({text for text in texts if text in english})
    assert untranslated == [], f"{where}: English left in {lang}: {untranslated}"
    console = player.d.get_log("browser")  # emptied here: every error is judged now
    missing = [e["message"] for e in console if "i18n" in e["message"]]
    assert missing == [], f"{where}: {missing}"
    errors = [e for e in console if e["level"] in ("SEVERE", "ERROR") and not EXPECTED_STATUS.search(e["message"])]
    assert errors == [], f"{where}: console errors: {errors}"


def joined_in(player, lang, name):
    player.join(name)
    return use_language(player, lang)


def shoot(player, lang, name):
    player.screenshot(f"lang-{lang}-{name}")


# ---------------------------------------------------------------------------------------------
# Guess the Number


# The one hint shown: the game's sentence (in Russian the original's words, as ORIGINALS.md quotes them).
HINT = {
    "en": r"^My number is (higher|lower) than {n}\.$",
    "es": r"^Mi número es (mayor|menor) que {n}\.$",
    "ru": r"^Мое число (больше|меньше) {n}$",
}
REVEAL = {"en": "My number was {n}.", "es": "Mi número era el {n}.", "ru": "Мое число было {n}."}
SCORE = {"en": "Score: {n}", "es": "Puntuación: {n}", "ru": "Очки: {n}"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_number_in_every_language(player, server, lang):
    joined_in(player, lang, "Nadia")
    player.open("number.html")
    wait_language(player, lang)
    Select(player.find("#set-attempts")).select_by_value("7")
    check_screen(player, server, lang, "number setup")
    player.click("#start")
    player.find("#pad")
    # The pad's keys are named in the language.
    digit = {"en": "Digit 5", "es": "Cifra 5", "ru": "Цифра 5"}[lang]
    assert player.find("#pad [data-key='5']").get_attribute("aria-label") == digit
    check_screen(player, server, lang, "number start")
    guesses = 0
    while True:
        low, high = known_range(player)
        guess = (low + high) // 2
        guess_and_wait(player, guess)
        guesses += 1
        if player.d.find_element(By.ID, "over").is_displayed():
            break
        hint = player.text("#message")
        assert re.match(HINT[lang].format(n=guess), hint), hint
        if guesses == 2:
            check_screen(player, server, lang, "number in play")
            shoot(player, lang, "number-play")
    player.wait_text("#over-title", r".")
    assert player.text("#over-title").endswith(REVEAL[lang].format(n=guess))
    assert re.match("^" + re.escape(SCORE[lang].format(n="N")).replace("N", r"\d+") + "$", player.text("#over-score"))
    assert player.text("#analysis")
    check_screen(player, server, lang, "number end")
    shoot(player, lang, "number-end")


# ---------------------------------------------------------------------------------------------
# Color Match


QUIT_TITLE = {"en": r"^You quit · score -?\d+$", "es": r"^Partida abandonada · -?\d+ puntos$",
              "ru": r"^Игра прервана · очки: -?\d+$"}
YES_NO = {"en": ("Yes", "No"), "es": ("Sí", "No"), "ru": ("Да", "Нет")}
COLOURS = {"en": ["Red", "Orange", "Yellow", "Green", "Blue", "Purple"],
           "es": ["Rojo", "Naranja", "Amarillo", "Verde", "Azul", "Morado"],
           "ru": ["Красный", "Оранжевый", "Жёлтый", "Зелёный", "Синий", "Фиолетовый"]}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_color_match_in_every_language(player, server, lang):
    joined_in(player, lang, "Carla")
    player.open("color-match.html")
    wait_language(player, lang)
    Select(player.find("#set-duration")).select_by_value("30")
    yes, no = YES_NO[lang]
    # The rules' words in bold and the keys stay elements inside the translated sentence.
    assert [s.text for s in player.d.find_elements(By.CSS_SELECTOR, "#how-to-play strong")][2:] == [yes, no]
    assert [k.text for k in player.d.find_elements(By.CSS_SELECTOR, "#keys-help kbd")] == ["→", "Y", "←", "N"]
    check_screen(player, server, lang, "color match setup")
    shoot(player, lang, "color-match-setup")
    player.click("#start")
    for i in range(4):
        player.find("#top-card", 8)
        WebDriverWait(player.d, 5, poll_frequency=POLL).until(lambda d: d.find_element(By.ID, "yes").is_enabled())
        # The cards' words are the language's colour words.
        assert player.text("#top-card").capitalize() in COLOURS[lang], player.text("#top-card")
        assert player.text("#bottom-card").capitalize() in COLOURS[lang], player.text("#bottom-card")
        if i == 1:
            assert player.text("#yes").split() == [yes, "→"] and player.text("#no").split() == [no, "←"]
            check_screen(player, server, lang, "color match in play")
            shoot(player, lang, "color-match-play")
        player.keys(Keys.ARROW_RIGHT if i % 2 else Keys.ARROW_LEFT)
        player.wait_text("#mark-text", r"^[✓✗]$", 3)
        player.gone("#mark", 3)
    player.click("#quit")
    assert re.match(QUIT_TITLE[lang], player.wait_text("#over-title", r"\d")), player.text("#over-title")
    rows = player.d.find_elements(By.CSS_SELECTOR, "#trials tr")
    assert len(rows) == 4
    cells = rows[0].find_elements(By.TAG_NAME, "td")
    assert cells[1].text in COLOURS[lang]
    assert cells[3].text.split(" ")[0] in YES_NO[lang]
    assert re.match(r"^\d+ " + {"en": "ms", "es": "ms", "ru": "мс"}[lang] + "$", cells[4].text), cells[4].text
    assert player.text("#interference").endswith(".")
    check_screen(player, server, lang, "color match end")
    shoot(player, lang, "color-match-end")


# ---------------------------------------------------------------------------------------------
# Bullseye


ROUND = {"en": "Colour {n} of 2", "es": "Color {n} de 2", "ru": "Цвет {n} из 2"}
NEXT = {"en": ("Next colour", "See my results"), "es": ("Siguiente color", "Ver mis resultados"),
        "ru": ("Следующий цвет", "Показать результаты")}
BANDS = {
    "en": ["Spot on", "Very close", "Close", "Different", "Far apart"],
    "es": ["Exacto", "Muy cerca", "Cerca", "Distinto", "Muy lejos"],
    "ru": ["В точку", "Очень близко", "Близко", "Мимо", "Далеко"],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bullseye_in_every_language(player, server, lang):
    joined_in(player, lang, "Berta")
    player.open("bullseye.html")
    wait_language(player, lang)
    Select(player.find("#set-rounds")).select_by_value("2")
    check_screen(player, server, lang, "bullseye setup")
    player.click("#start")
    player.find("#target")
    assert player.text("#round-text") == ROUND[lang].format(n=1)
    check_screen(player, server, lang, "bullseye in play")
    shoot(player, lang, "bullseye-play")
    player.keys(Keys.ARROW_RIGHT * 30)
    player.click("#check")
    player.find("#result")
    assert re.match(r"^\d{1,3} / 100$", player.text("#result-score"))
    assert player.text("#next") == NEXT[lang][0]
    player.click("#result details summary")
    exact = player.text("#result-exact")
    assert re.match(rf"^ΔE {DECIMAL[lang]} \(.+\)\.$", exact), exact
    check_screen(player, server, lang, "bullseye result")
    shoot(player, lang, "bullseye-result")
    player.click("#next")
    player.gone("#result")
    assert player.wait_text("#round-text", ROUND[lang].format(n=2))
    player.click("#check")
    assert player.wait_text("#next", NEXT[lang][1])
    player.click("#next")
    player.find("#over")
    rows = player.d.find_elements(By.CSS_SELECTOR, "#history tr")
    assert len(rows) == 2
    word, delta = rows[0].find_elements(By.TAG_NAME, "td")[3].text.split("\n")
    assert word in BANDS[lang], word
    assert re.match(rf"^ΔE {DECIMAL[lang]}$", delta), delta
    check_screen(player, server, lang, "bullseye end")
    shoot(player, lang, "bullseye-end")


# ---------------------------------------------------------------------------------------------
# Guess or Pass


SECONDS = {"en": r"^\d+ s$", "es": r"^\d+ s$", "ru": r"^\d+ с$"}
CONFIRM = {"en": "You've chosen category ", "es": "Has elegido la categoría ", "ru": "Выбрана категория «"}
SPAN = {"en": "30 seconds", "es": "30 segundos", "ru": "30 секунд"}
BEST_TWO = {"en": "Best score 💪: 2 words", "es": "Mejor puntuación 💪: 2 palabras", "ru": "Рекорд 💪: 2 слова"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_guess_or_pass_in_every_language(player, server, lang):
    joined_in(player, lang, "Greta")
    player.open("guess-or-pass.html")
    wait_language(player, lang)
    assert player.text("#setup-name") == "Greta"
    player.click("#play-button")  # no category yet: the dialog says so
    player.find("#no-category")
    check_screen(player, server, lang, "guess or pass without a category")
    player.click("#no-category-ok")
    player.click("#categories [data-id=animals]")
    Select(player.find("#set-duration")).select_by_value("30")
    confirm = player.text("#confirm-text")
    assert confirm.startswith(CONFIRM[lang]) and SPAN[lang] in confirm, confirm
    check_screen(player, server, lang, "guess or pass setup")
    shoot(player, lang, "guess-or-pass-setup")
    player.click("#play-button")
    player.find("#word", 8)
    assert re.match(SECONDS[lang], player.text("#seconds")), player.text("#seconds")
    seen = {"guessed": [], "passed": []}
    for i, button in enumerate(("#guessed", "#pass", "#guessed")):
        word = player.wait_text("#word", r"\w")
        count = int(player.text("#score")) + int(player.text("#passed"))
        if i == 1:
            check_screen(player, server, lang, "guess or pass in play")
            shoot(player, lang, "guess-or-pass-play")
        player.click(button)
        seen["guessed" if button == "#guessed" else "passed"].append(word)
        WebDriverWait(player.d, 5, poll_frequency=POLL).until(
            lambda d: int(player.text("#score")) + int(player.text("#passed")) == count + 1)
    player.click("#end")
    title = player.wait_text("#over-title", r"\d")
    assert "2" in title, title
    assert [e.text for e in player.d.find_elements(By.CSS_SELECTOR, "#guessed-list li")] == seen["guessed"]
    assert [e.text for e in player.d.find_elements(By.CSS_SELECTOR, "#passed-list li")] == seen["passed"]
    assert player.wait_text("#over-best", re.escape(BEST_TWO[lang]) + "$")
    check_screen(player, server, lang, "guess or pass end")
    shoot(player, lang, "guess-or-pass-end")


# ---------------------------------------------------------------------------------------------
# Picture Quiz


PROGRESS = {"en": "Question {n} of 3", "es": "Pregunta {n} de 3", "ru": "Вопрос {n} из 3"}
PICTURE = {"en": "Picture {n} of 3", "es": "Imagen {n} de 3", "ru": "Картинка {n} из 3"}
DECKS = os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "GuessworkContent", "Resources", "decks")


def deck_questions(deck, lang):
    """Every question the bundled `deck` can ask in `lang`: its question in that language around
    each item's name in that language (English is the deck's own text)."""
    with open(os.path.join(DECKS, f"{deck}.json"), encoding="utf-8") as f:
        data = json.load(f)
    question = data["question"] if lang == "en" else data["languages"][lang]["question"]
    names = [item["name"] if lang == "en" else item["names"][lang] for item in data["items"]]
    return {question.replace("{answer}", name) for name in names}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_picture_quiz_in_every_language(player, server, lang):
    joined_in(player, lang, "Paula")
    player.open("picture-quiz.html")
    wait_language(player, lang)
    Select(player.find("#set-questions")).select_by_value("3")
    player.find("#decks button")
    check_screen(player, server, lang, "picture quiz setup")
    shoot(player, lang, "picture-quiz-setup")
    player.click("#decks button")
    assert player.wait_text("#progress", PROGRESS[lang].format(n=1))
    # The first deck (animals) asks in the page's language, with the name in that language.
    assert player.text("#question") in deck_questions("animals", lang)
    labels = [b.get_attribute("aria-label") for b in player.d.find_elements(By.CSS_SELECTOR, "#pictures button")]
    assert labels == [PICTURE[lang].format(n=n) for n in (1, 2, 3)]
    check_screen(player, server, lang, "picture quiz in play")
    shoot(player, lang, "picture-quiz-play")
    for question in (1, 2, 3):
        player.click("#pictures button")
        if question < 3:
            player.find("#answer")
            assert player.text("#answer-title")
            if question == 1:
                check_screen(player, server, lang, "picture quiz answer")
                shoot(player, lang, "picture-quiz-answer")
            player.click("#continue")
            assert player.wait_text("#progress", PROGRESS[lang].format(n=question + 1))
    player.find("#over")
    assert player.text("#over-title") and player.text("#over-text")
    check_screen(player, server, lang, "picture quiz end")
    shoot(player, lang, "picture-quiz-end")


# ---------------------------------------------------------------------------------------------
# A change of language in the middle of a game


def text_after_reload(player, css, pattern, timeout=10):
    """The text of `css` once it matches `pattern`, waiting through a reload of the page (while
    the old page goes, its elements and even its document may vanish under the driver)."""
    def shown(driver):
        text = driver.execute_script("const e = document.querySelector(arguments[0]); return e && e.textContent", css)
        return text if text and re.search(pattern, text) else None
    return WebDriverWait(player.d, timeout, poll_frequency=POLL, ignored_exceptions=(WebDriverException,)).until(
        shown, f"{css} never showed {pattern!r}")


def test_switching_language_mid_game_keeps_the_game(player, server):
    """The header's switch on a game page: the page comes back in the new language with the same
    game where it was, the engine's hint now said in that language."""
    player.join("Sasha")
    for _ in range(3):  # 50 may be the number itself (one game in a hundred): then another game
        number_start(player, attempts=7)
        guess_and_wait(player, 50)
        if not player.d.find_element(By.ID, "over").is_displayed():
            break
    player.wait_text("#message", r"^My number is (higher|lower) than 50\.$")
    game = player.version()
    player.find("#language-switch")
    Select(player.d.find_element(By.ID, "language-select")).select_by_value("ru")
    assert text_after_reload(player, "#message", r"^Мое число (больше|меньше) 50$")
    wait_language(player, "ru")
    assert player.version() == game
    assert re.match(r"^Мое число (больше|меньше) 50$", player.text("#guesses li"))
    check_screen(player, server, "ru", "number after switching to Russian")
    # Back to English, the same way.
    player.find("#language-switch")
    Select(player.d.find_element(By.ID, "language-select")).select_by_value("en")
    assert text_after_reload(player, "#message", r"^My number is (higher|lower) than 50\.$")
    wait_language(player, "en")
    assert player.version() == game
