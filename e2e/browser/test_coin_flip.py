"""Coin Flip, the test-only sixth game, in real headless Chromium (issue 53, item 8): added the
way docs/architecture.md's recipe says (its folder, one line in a list, one page module, one
catalog file per language), it plays alone from the home menu and in a party room with a TV and
two phones, with nothing of it in the shared pages.

The server is `guesswork-examples` (GUESSWORK_EXAMPLES_BIN); Coin Flip's module, style sheet and
catalogs come from e2e/support/examples/ (see e2e/support/examples.py). Screenshots (coin-flip-*.png)
go to GUESSWORK_SCREENSHOTS.
"""
import os
import re
import sys

import pytest
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_browser import POLL, SCREENSHOTS, Player, check_console_and_origin, chromium  # noqa: E402
from test_rooms import BIG_SCREEN, PHONE, Person  # noqa: E402

from support.examples import ExamplesServer  # noqa: E402


@pytest.fixture(scope="module")
def server():
    with ExamplesServer() as s:
        yield s


@pytest.fixture(scope="module")
def browser():
    driver = chromium()
    yield driver
    driver.quit()


def set_setting(person, css, value):
    """A setting's control: 1 to 5 flips is a list to pick from."""
    control = person.find(css)
    assert control.tag_name == "select", control.tag_name
    Select(control).select_by_value(str(value))


def phone_shot(person, name):
    person.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 360, "height": 640, "deviceScaleFactor": 1, "mobile": True})
    person.settle()
    person.d.save_screenshot(os.path.join(SCREENSHOTS, f"coin-flip-{name}-360x640.png"))


def test_coin_flip_alone_from_the_home_menu_to_its_end(server, browser):
    browser.get_log("browser")
    player = Person(browser, server.url, "Ana")
    player.resize(PHONE)
    player.join("Ana")
    # Home lists it from the catalog, in the player's language, like the five.
    card = player.find("a.game-card.coin-flip")
    assert card.get_attribute("href").endswith("/coin-flip.html")
    assert "Coin Flip" in card.text and "Call heads or tails before the coin lands." in card.text
    card.click()
    WebDriverWait(browser, 10, poll_frequency=POLL).until(
        lambda d: d.current_url.split("?")[0].endswith("/coin-flip.html"), "not on coin-flip.html")
    assert player.wait_text("main h1", "^Coin Flip$")
    WebDriverWait(browser, 10, poll_frequency=POLL).until(lambda d: d.title == "Coin Flip · Guesswork")
    # The setup form comes from the catalog's settings, with their labels.
    assert player.text("#setup-title") == "Call the coin"
    assert player.text("label[for=set-flips]") == "Flips"
    set_setting(player, "#set-flips", 3)
    phone_shot(player, "setup")
    player.click("#start")
    player.find("#play")
    assert player.text("#flip-text") == "Flip 1 of 3"
    assert player.text("#score-text") == "Score: 0"
    assert player.text("#side") == "?"
    phone_shot(player, "play")
    score = 0
    for number, side in enumerate(["heads", "tails", "heads"], start=1):
        player.click(f"#{side}")
        said = player.wait_text("#message" if number < 3 else "#over-side", r"The coin showed (heads|tails)\. ")
        shown, verdict = re.match(r"^The coin showed (heads|tails)\. (You called it!|Not this time\.)$", said).groups()
        assert (verdict == "You called it!") == (shown == side), said
        score += shown == side
        if number < 3:
            assert player.wait_text("#flip-text", f"Flip {number + 1} of 3")
            assert player.text("#score-text") == f"Score: {score}"
            assert player.text("#side") == shown.capitalize()
            if number == 1:
                phone_shot(player, "flipped")
    assert player.text("#over-title") == f"You called {score} of 3 right."
    player.gone("#play")
    phone_shot(player, "over")
    # Play again: the setup once more.
    player.click("#again")
    player.find("#setup")
    check_console_and_origin(browser, server.url)


@pytest.fixture(scope="module")
def party(server):
    """The host's phone, their TV (the same player's cookie) and a second phone."""
    drivers = []
    try:
        people = []
        for name in ("Hana", "Ivo"):
            driver = chromium("--autoplay-policy=no-user-gesture-required")
            drivers.append(driver)
            people.append(Person(driver, server.url, name).resize(PHONE).join(name))
        driver = chromium("--autoplay-policy=no-user-gesture-required")
        drivers.append(driver)
        tv = Person(driver, server.url, "the TV")
        cookie = people[0].d.get_cookie("guesswork_player")
        driver.execute_cdp_cmd("Network.setCookie", {"name": cookie["name"], "value": cookie["value"], "url": server.url})
        tv.resize(BIG_SCREEN)
        yield people[0], people[1], tv
    finally:
        for driver in drivers:
            driver.quit()


def shot(person, name):
    person.settle()
    width, height = person.size
    person.d.save_screenshot(os.path.join(SCREENSHOTS, f"coin-flip-{name}-{width}x{height}.png"))


def test_a_whole_coin_flip_room_with_a_tv_and_two_phones(server, party):
    host, guest, tv = party
    for person in party:
        person.d.get_log("browser")
    host.open("room.html")
    host.click("#create-button")
    code = host.wait_text("#bar-code", r"^[A-Z2-9]{4,6}$")
    tv.open(f"screen.html?code={code}")
    assert tv.wait_text("#s-code", code) == code
    guest.open(f"room.html?code={code}")
    tv.wait_count("#s-players li", 2)
    # The host's menu offers Coin Flip: the catalog says it plays in rooms.
    WebDriverWait(host.d, 10, poll_frequency=POLL).until(
        lambda d: host.js("return document.querySelector('#host-game option[value=\"coin-flip\"]') !== null"),
        "the host menu never offered Coin Flip")
    offered = host.js("return [...document.querySelectorAll('#host-game option')].map((o) => [o.value, o.textContent])")
    assert ["coin-flip", "🪙 Coin Flip"] in offered and len(offered) == 6, offered
    Select(host.find("#host-game")).select_by_value("coin-flip")
    assert host.text("label[for=room-set-flips]") == "Flips"
    set_setting(host, "#room-set-flips", 2)
    assert guest.wait_text("#lobby-wait", "Coin Flip") == "Next game: Coin Flip. Waiting for the host to start…"
    host.click("#start")
    scores = {host.name: 0, guest.name: 0}
    for number in (1, 2):
        assert tv.wait_text("#s-question-text", r".") == "Heads or tails?"
        tv.find(".screen-coin")
        for person in (host, guest):
            person.wait_text("#round-text", f"{number}")
            person.find("#cf-heads")
            assert person.text("#cf-side") == "?"
            person.assert_fits("the coin and the two calls")
        if number == 1:
            shot(host, "room-phone")
            shot(tv, "room-tv")
        # Hana calls heads, Ivo tails: one of them is right.
        calls = {host.name: "heads", guest.name: "tails"}
        for person in (host, guest):
            person.click(f"#cf-{calls[person.name]}")
        answers = set()
        for person in (host, guest):
            answers.add(person.wait_text("#reveal-answer", r"^The coin showed (heads|tails)\.$"))
        assert len(answers) == 1
        shown = re.match(r"^The coin showed (heads|tails)\.$", answers.pop()).group(1)
        for person in (host, guest):
            right = calls[person.name] == shown
            assert person.text("#reveal-title") == ("Right! 🎉" if right else "Not this time")
            points = int(re.match(r"^\+?(\d+)", person.text("#reveal-points").replace(",", "")).group(1))
            assert (500 <= points <= 1000) if right else points == 0, (person.name, points)
            scores[person.name] += points
        assert tv.wait_text("#s-reveal-answer", "The coin showed") == f"The coin showed {shown}."
        tv.wait_count("#s-results li", 2)
        if number == 1:
            shot(tv, "room-tv-reveal")
            shot(guest, "room-phone-reveal")
        host.click("#reveal-next")
    # The podium, on the TV and both phones.
    tv.find("#s-podium")
    for person in (host, guest):
        person.find("#podium")
        own = scores[person.name]
        assert person.text("#podium-score") == f"Your score: {own:,}"
    shot(tv, "room-tv-podium")
    for person in party:
        check_console_and_origin(person.d, server.url)


# The instructions' "other games" as the five had them by hand, and Coin Flip's line drawn from
# its catalog entry (title and blurb): a sixth game appears by itself.
OTHER_GAMES = {
    "en": ["Guess the Number: find my number with the higher/lower hints.",
           "Color Match: does the meaning of the top word match the ink of the bottom one?",
           "Bullseye: mix the target colour with three sliders.",
           "Picture Quiz: tap the picture the question names.",
           "Coin Flip: Call heads or tails before the coin lands."],
    "es": ["Adivina el número: encuentra mi número con las pistas de mayor o menor.",
           "Color a juego: ¿el significado de la palabra de arriba coincide con el color de la tinta de la de abajo?",
           "En el blanco: mezcla el color objetivo con tres controles deslizantes.",
           "Quiz de imágenes: toca la imagen que nombra la pregunta.",
           "Cara o cruz: Di cara o cruz antes de que caiga la moneda."],
}


def other_games(person):
    """The "other games" paragraph's lines, and the game names it shows in bold."""
    WebDriverWait(person.d, 10, poll_frequency=POLL).until(
        lambda d: person.js("return document.querySelectorAll('#other-games > span').length") >= 5,
        "the other games were never listed")
    return (person.js("return [...document.querySelectorAll('#other-games > span')].map((s) => s.textContent)"),
            person.js("return [...document.querySelectorAll('#other-games strong')].map((s) => s.textContent)"))


def test_the_instructions_name_every_game_of_the_catalog(server, browser):
    browser.get_log("browser")
    person = Person(browser, server.url, "Lia").resize(PHONE).join("Lia")
    person.open("settings.html")
    lines, names = other_games(person)
    assert lines == OTHER_GAMES["en"]
    assert names == [line.split(":")[0] for line in OTHER_GAMES["en"]]
    # Guess or Pass has its own instructions above: it is not among the others.
    assert person.text("#help-title") == "Instructions"
    person.js("document.querySelector('#other-games').scrollIntoView({block: 'center'})")
    person.settle()
    person.d.save_screenshot(os.path.join(SCREENSHOTS, "coin-flip-settings-help-360x640.png"))
    # In another language, the list follows.
    person.click("input[name=language][value=es]")
    WebDriverWait(browser, 10, poll_frequency=POLL).until(
        lambda d: other_games(person)[0] == OTHER_GAMES["es"], f"the list stays {other_games(person)[0]}")
    person.click("input[name=language][value=en]")
    WebDriverWait(browser, 10, poll_frequency=POLL).until(lambda d: other_games(person)[0] == OTHER_GAMES["en"])
    check_console_and_origin(browser, server.url)
