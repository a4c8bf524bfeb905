"""Picture Quiz with imported photo decks, in a real headless Chromium.

A folder of small generated PNGs (one colour each, named after their answers) is imported with
`guesswork decks import` into the running server's database; the player picks it from the deck
list and plays it by clicks and by keyboard. The test reads each picture's colour from a canvas
to know which button is which: that is what a player's eyes do, and nothing in the page's
markup (alt, src, accessible names) may tell it before the question is answered. The roster deck
needs photos until an import fills it. As in test_browser.py, every test ends with no console
error and no request off the server's origin.
"""
import json
import os
import re
import subprocess
import tempfile
import urllib.request
from urllib.parse import quote, quote_plus

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

from test_browser import POLL, Player, browser, check_console_and_origin, tiny_png  # noqa: F401 (browser is a fixture)
from server import Server, binary

CRITTERS = {  # answer → the colour of its picture
    "Red Fox": (220, 38, 38),
    "Green Frog": (22, 163, 74),
    "Blue Whale": (37, 99, 235),
    "Gold Fish": (234, 179, 8),
    "Pink Flamingo": (236, 72, 153),
}
MANIFEST = {
    "title": "Colour Critters",
    "question": "Which one is {answer}?",
    "noun": "the critter",
    "theme": ["#0b3d2e", "#14532d", "#1e3a8a"],
    "credit": "Pictures: plain squares made by the test suite.",
}
ROSTER = {  # four of the Hall of Famers, enough for three choices a question
    "Reggie White": (0, 76, 84),
    "Brian Dawkins": (200, 200, 200),
    "Chuck Bednarik": (120, 20, 160),
    "Mike Ditka": (250, 120, 0),
}
# As sent: the server gzips text. 30 KB before the pages spoke three languages; js/i18n.js and
# the pages' keyed text add about 8 KB (the language's catalog is left out: see page_weight).
PAGE_LIMIT = 40 * 1024


def deck_folder(pictures, manifest=None):
    folder = tempfile.mkdtemp(prefix="guesswork-photos-")
    for name, colour in pictures.items():
        tiny_png(os.path.join(folder, f"{name}.png"), colour=colour, size=48)
    if manifest is not None:
        with open(os.path.join(folder, "deck.json"), "w", encoding="utf-8") as f:
            json.dump(manifest, f)
    return folder


def import_deck(data_dir, folder, deck_id):
    result = subprocess.run([binary(), "decks", "import", folder, "--id", deck_id, "--data-dir", data_dir],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def server():
    data_dir = tempfile.mkdtemp(prefix="guesswork-photo-decks-")
    # One deck imported before the server starts; the roster is filled while it runs.
    out = import_deck(data_dir, deck_folder(CRITTERS, MANIFEST), "critters")
    assert "5 pictures" in out, out
    with Server(data_dir=data_dir) as s:
        yield s


@pytest.fixture
def player(server, browser):  # noqa: F811
    browser.set_window_size(1280, 800)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    browser.get_log("browser")
    p = Player(browser, server.url)
    yield p
    check_console_and_origin(browser, server.url)


# ---------------------------------------------------------------------------------------------
# What the player sees


def rgb(hex_colour):
    h = hex_colour.lstrip("#")
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


def loaded_colours(player):
    """Waits until every choice's picture has loaded, then returns each one's colour."""
    WebDriverWait(player.d, 10, poll_frequency=POLL).until(lambda d: player.js("""
      const imgs = [...document.querySelectorAll('#pictures img')];
      return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0);"""), "pictures never loaded")
    return [tuple(c) for c in player.js("""
      return [...document.querySelectorAll('#pictures img')].map((img) => {
        const c = document.createElement('canvas');
        c.width = c.height = 1;
        const g = c.getContext('2d');
        g.drawImage(img, 0, 0, 1, 1);
        return [...g.getImageData(0, 0, 1, 1).data].slice(0, 3);
      });""")]


def name_of(colour, pictures):
    return min(pictures, key=lambda n: sum((a - b) ** 2 for a, b in zip(pictures[n], colour)))


def assert_nothing_names_an_answer(player, pictures):
    """Before an answer: no picture's alt or src, and no button's accessible name, says a name."""
    forms = {form.lower() for name in pictures for form in (name, quote(name), quote_plus(name), name.split()[0])}
    images = player.js("return [...document.images].map((i) => [i.getAttribute('alt'), i.src])")
    for alt, src in images:
        assert not any(f in (alt or "").lower() or f in src.lower() for f in forms), (alt, src)
    for alt, src in player.js("return [...document.querySelectorAll('#pictures img')].map((i) => [i.getAttribute('alt'), i.getAttribute('src')])"):
        assert alt == "" and re.fullmatch(r"/api/pictures/[0-9a-f]{64}", src), (alt, src)
    buttons = player.d.find_elements(By.CSS_SELECTOR, "#pictures button")
    names = [b.accessible_name for b in buttons]
    assert names == [f"Picture {i + 1} of {len(buttons)}" for i in range(len(buttons))], names
    assert player.find("#pictures").text.strip() == ""


def page_weight(player):
    """Bytes of the page itself as the server sends them (gzipped): the HTML, its style sheet and
    scripts that the page loaded (not the API or pictures, nor the web app manifest and its icon,
    which the browser fetches to offer installing, nor the language's catalog, the words of every
    page, kept by the service worker). Asked again here, because a service worker's cached copies
    report their unpacked size."""
    urls = player.js(r"""
      const entries = performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'));
      return entries.map((e) => e.name)
        .filter((name) => !/^\/(api\/|icons\/|i18n\/|manifest\.webmanifest$)/.test(new URL(name).pathname));""")
    total = 0
    for url in set(urls):
        request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request, timeout=10) as r:
            total += len(r.read())
    return total


def deck_card(player, title):
    return WebDriverWait(player.d, 10, poll_frequency=POLL).until(
        lambda d: next((c for c in d.find_elements(By.CSS_SELECTOR, "#decks .deck-card")
                        if c.find_element(By.TAG_NAME, "strong").text == title), None),
        f"no card for {title}")


def play_question(player, pictures, manifest, number, total, right, by_keyboard, score):
    """Answers one question (rightly or not); returns (title, new score, chosen name, asked name)."""
    assert player.wait_text("#progress", f"^Question {number} of {total}$")
    template = re.escape(manifest["question"]).replace(re.escape("{answer}"), "(.+)")
    asked = re.fullmatch(template, player.text("#question")).group(1)
    assert asked in pictures
    colours = loaded_colours(player)
    shown = [name_of(c, pictures) for c in colours]
    assert len(set(shown)) == len(shown) == 3 and asked in shown, (asked, shown)
    assert_nothing_names_an_answer(player, pictures)
    index = shown.index(asked) if right else next(i for i, n in enumerate(shown) if n != asked)
    if by_keyboard:
        WebDriverWait(player.d, 5, poll_frequency=POLL).until(
            lambda d: d.switch_to.active_element.get_attribute("aria-label") == "Picture 1 of 3",
            "the first picture never took the focus")
        player.keys(*([Keys.TAB] * index), Keys.ENTER if number % 2 else Keys.SPACE)
    else:
        player.d.find_elements(By.CSS_SELECTOR, "#pictures button")[index].click()
    score = score + 1 if right else max(0, score - 1)  # the seed's rule: a wrong tap costs a point
    expected = "Correct!" if right else f"Wrong! That's {manifest['noun']} {shown[index]}."
    if number < total:
        assert player.wait_text("#answer-title", ".") == expected
        left = total - number
        assert player.text("#answer-text") == (
            f"Your score is {score} with {left} question{'s' if left > 1 else ''} remaining!")
        # The dialog shows the tapped picture, now with its name.
        pic = player.find("#answer-pic img")
        assert pic.get_attribute("alt") == shown[index]
        # The tapped picture spun, the others shrank and blurred; a wrong tap shows the right one.
        buttons = player.d.find_elements(By.CSS_SELECTOR, "#pictures button")
        for i, b in enumerate(buttons):
            classes = b.get_attribute("class").split()
            if i == index:
                assert "fade" not in classes
            elif not right and shown[i] == asked:
                assert "right" in classes
            else:
                assert "fade" in classes and "blur" in b.value_of_css_property("filter")
        if by_keyboard:
            player.keys(Keys.ENTER if number % 2 else Keys.ESCAPE)  # Continue has focus; Esc goes on too
        else:
            player.click("#continue")
        player.gone("#answer")
    else:
        # The last answer's verdict heads the end dialog, apart from the end's own sentence.
        player.find("#over")
        assert player.text("#over-title") == expected
    return expected, score, shown[index], asked


def play_deck(player, pictures, manifest, total, by_keyboard, wrong_on=(2, 4)):
    score, missed = 0, []
    for number in range(1, total + 1):
        right = number not in wrong_on
        _, score, chosen, asked = play_question(player, pictures, manifest, number, total, right, by_keyboard, score)
        if not right:
            missed.append((number, asked, chosen))
    assert player.text("#over-text") == f"Game over! Your final score was {score} of {total}."
    items = player.d.find_elements(By.CSS_SELECTOR, "#missed li")
    assert [li.text for li in items] == [f"Q{n}: {a} (you tapped {c})" for n, a, c in missed]
    # The missed list shows the right pictures, named now that the game is over.
    WebDriverWait(player.d, 10).until(lambda d: player.js(
        "return [...document.querySelectorAll('#missed img')].every((i) => i.complete && i.naturalWidth > 0)"))
    for li, (_, asked, _) in zip(items, missed):
        img = li.find_element(By.TAG_NAME, "img")
        assert img.get_attribute("alt") == asked
        colour = player.js("""const c = document.createElement('canvas'); c.width = c.height = 1;
          const g = c.getContext('2d'); g.drawImage(arguments[0], 0, 0, 1, 1);
          return [...g.getImageData(0, 0, 1, 1).data].slice(0, 3);""", img)
        assert name_of(colour, pictures) == asked
    return score


# ---------------------------------------------------------------------------------------------
# Tests


def test_an_imported_photo_deck_plays_by_clicks_and_by_keyboard(player):
    player.join("Phoebe")
    player.open("picture-quiz.html")
    card = deck_card(player, MANIFEST["title"])
    assert card.tag_name == "button" and "5 photos" in card.text
    swatch = card.find_element(By.CSS_SELECTOR, ".swatch").value_of_css_property("background-image")
    assert all(f"rgb({', '.join(map(str, rgb(c)))})" in swatch for c in MANIFEST["theme"]), swatch
    # Every emoji deck is listed with its size; the roster needs photos and is not offered.
    emoji = player.d.find_element(By.XPATH, "//div[@id='decks']/button[strong='Animal Friends']")
    assert re.search(r"\d+ pictures", emoji.text)
    assert not any(c.text.startswith("NFL HOF Eagles") for c in player.d.find_elements(By.CSS_SELECTOR, "#decks .deck-card"))
    assert page_weight(player) < PAGE_LIMIT

    Select(player.find("#set-questions")).select_by_value("5")
    card.click()
    assert player.wait_text("#game-title", MANIFEST["title"])
    assert player.text("#credit") == MANIFEST["credit"]
    background = player.js("return getComputedStyle(document.body).backgroundImage")
    assert all(f"rgb({', '.join(map(str, rgb(c)))})" in background for c in MANIFEST["theme"]), background
    # The photos fill tiles as big as the emoji ones.
    loaded_colours(player)
    tile = player.find("#pictures button")
    img = tile.find_element(By.TAG_NAME, "img")
    assert img.value_of_css_property("object-fit") == "cover"
    assert img.size["width"] >= tile.size["width"] - 2 and tile.size["width"] >= 96
    player.screenshot("picture-quiz-photos")

    # By clicks: the whole deck, two wrong taps.
    play_deck(player, CRITTERS, MANIFEST, 5, by_keyboard=False)
    player.screenshot("picture-quiz-photos-over")

    # By keyboard, with reduced motion: "Play again" has focus; nothing spins or transitions.
    player.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    assert player.d.switch_to.active_element.get_attribute("id") == "again"
    player.keys(Keys.ENTER)
    player.gone("#over")
    assert player.wait_text("#progress", "^Question 1 of 5$")
    assert player.text("#credit") == MANIFEST["credit"]
    tile = player.find("#pictures button")
    assert tile.value_of_css_property("transition-duration") in ("0s", "0s, 0s, 0s")
    play_deck(player, CRITTERS, MANIFEST, 5, by_keyboard=True, wrong_on=(1, 5))
    assert player.d.find_elements(By.CSS_SELECTOR, "#pictures button.spin") == []
    assert all(b.value_of_css_property("animation-name") == "none"
               for b in player.d.find_elements(By.CSS_SELECTOR, "#pictures button"))

    # Reloading mid-game keeps the deck's look and wording.
    player.click("#again")
    assert player.wait_text("#progress", "^Question 1 of 5$")
    loaded_colours(player)
    player.d.refresh()
    assert player.wait_text("#progress", "^Question 1 of 5$")
    assert player.text("#game-title") == MANIFEST["title"] and player.text("#credit") == MANIFEST["credit"]
    assert re.fullmatch(r"Which one is .+\?", player.text("#question"))
    loaded_colours(player)
    assert_nothing_names_an_answer(player, CRITTERS)
    assert page_weight(player) < PAGE_LIMIT


def test_the_roster_needs_photos_until_an_import_fills_it(player, server):
    player.join("Fletcher")
    player.open("picture-quiz.html")
    # A deck that cannot be played (0 of 25 photos) is not offered to players at all.
    deck_card(player, "Animal Friends")
    titles = [c.find_element(By.TAG_NAME, "strong").text for c in player.d.find_elements(By.CSS_SELECTOR, "#decks .deck-card")]
    assert "NFL HOF Eagles" not in titles and "0 of 25" not in player.text("#decks")

    import_deck(server.data_dir, deck_folder(ROSTER), "eagles-hof")
    player.d.refresh()  # the page asks for the decks afresh
    card = deck_card(player, "NFL HOF Eagles")
    assert card.tag_name == "button" and "4 of 25 photos" in card.text
    card.click()
    assert player.wait_text("#game-title", "NFL HOF Eagles")
    assert player.text("#credit").startswith("All images are the property of the NFL Hall of Fame.")
    roster = {"question": "Tap the NFL Hall of Fame Eagle that is {answer}", "noun": "Eagles legend"}
    play_deck(player, ROSTER, roster, 4, by_keyboard=False, wrong_on=(3,))  # capped by its 4 photos
    player.click("#other-deck")
    assert player.wait_text("#setup-title", "Choose a deck")
    assert deck_card(player, "NFL HOF Eagles").tag_name == "button"
