"""Issue 51, what a newcomer and a player read around the games: home at a laptop's and a phone's
size (items 17, 10), the statistics' charts and words (16) and the daily set (18, and the daily
Number in attempts used: 6). Each test runs at 360x640 and 1280x800; screenshots go to
/tmp/game-night-home-shots/ (or GUESSWORK_HOME_SHOTS) to be looked at, not asserted."""
import os
import re
import sys
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from catalog import said  # noqa: E402
from server import Client, Server  # noqa: E402
from test_browser import browser, player  # noqa: E402,F401  (fixtures are used by name)

SHOTS = os.environ.get("GUESSWORK_HOME_SHOTS") or "/tmp/game-night-home-shots"
os.makedirs(SHOTS, exist_ok=True)
PHONE = (360, 640, True)
LAPTOP = (1280, 800, False)
GAMES = ["number", "color-match", "bullseye", "guess-or-pass", "picture-quiz"]


@pytest.fixture(scope="module")
def server():
    with Server() as s:
        yield s
    print(f"\nScreenshots: {SHOTS}")


# ---------------------------------------------------------------------------------------------
# Helpers


def size(player, width, height, mobile):
    player.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    player.js("window.scrollTo(0, 0)")
    time.sleep(0.3)


def unsize(player):
    player.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def theme(player, name):
    """Light or dark, as the Settings page would set it (theme.js reads it on every page)."""
    player.js("window.guessworkTheme.use(arguments[0])", name)
    time.sleep(0.1)


def shoot(player, name):
    player.d.save_screenshot(os.path.join(SHOTS, f"{name}.png"))


def no_sideways_scroll(player):
    return player.js("return document.documentElement.scrollWidth <= innerWidth")


def signed_in_as(player, client):
    """The browser becomes the API client's player (its cookie)."""
    player.d.delete_all_cookies()
    player.open("index.html")
    for c in client.cookies:
        player.d.add_cookie({"name": c.name, "value": c.value, "path": "/"})


def api_player(server, name):
    client = Client(server.url)
    client.join(name)
    return client


def wait_phase(client, game, phases, timeout=10):
    deadline = time.time() + timeout
    while True:
        _, _, reply = client.get(f"/api/games/{game['id']}")
        if reply["isOver"] or reply["view"]["phase"] in phases:
            return reply
        assert time.time() < deadline, f"{game['game']} never reached {phases}: {reply['view']}"
        time.sleep(0.1)


def start_daily(client, game):
    status, _, reply = client.post(f"/api/daily/{game}", {})
    assert status == 201, (status, reply)
    return reply


def lose_number(client):
    """Today's Number lost on purpose: always the lowest number still possible."""
    game = start_daily(client, "number")
    while not game["isOver"]:
        game = client.act(game, {"type": "guess", "number": game["view"]["knownLow"]})
    return game


def halve_number(client):
    game = start_daily(client, "number")
    while not game["isOver"]:
        game = client.halve(game)
    return game


INKS = {"#b32f3c": "red", "#f8941d": "orange", "#e7d936": "yellow", "#39b54a": "green",
        "#0072bc": "blue", "#92278f": "purple"}


def finish_all_five(client):
    """Every daily of today finished through the API: the Number lost, ten right Color Match
    cards (1,000 points), then quit; the rest as quickly as their rules allow."""
    replies = {"number": lose_number(client)}
    game = wait_phase(client, start_daily(client, "color-match"), ("trial",))
    right = 0
    while right < 10:
        view = game["view"]
        match = said(view["top"]["word"]).lower() == INKS[view["bottom"]["ink"].lower()]
        game = client.act(game, {"type": "answer", "match": match, "reactionMs": 700})
        right += 1
        game = wait_phase(client, game, ("trial",))
    replies["color-match"] = client.act(game, {"type": "quit"})
    game = start_daily(client, "bullseye")
    while not game["isOver"]:
        game = client.act(game, {"type": "check", "guess": {"r": 128, "g": 128, "b": 128}})
        if not game["isOver"]:
            game = client.act(game, {"type": "next"})
    replies["bullseye"] = game
    game = wait_phase(client, start_daily(client, "guess-or-pass"), ("playing",))
    game = client.act(game, {"type": "guessed"})
    replies["guess-or-pass"] = client.act(game, {"type": "end"})
    game = start_daily(client, "picture-quiz")
    while not game["isOver"]:
        game = client.act(game, {"type": "choose", "choice": 0})
        if not game["isOver"]:
            game = client.act(game, {"type": "next"})
    replies["picture-quiz"] = game
    assert all(r["isOver"] for r in replies.values())
    return replies


def attempts_text(reply):
    """A finished Number as the daily shows it: attempts used of those allowed, X for a loss."""
    allowed = reply["view"]["attemptsAllowed"]
    used = reply["summary"]["attemptsUsed"] if reply["view"]["phase"] == "won" else "X"
    return f"{used}/{allowed}"


def luminance(rgb):
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def rgb(css):
    return tuple(int(float(x)) for x in re.findall(r"[\d.]+", css)[:3])


# ---------------------------------------------------------------------------------------------
# 17. Home


def test_home_shows_every_card_on_a_laptop_and_a_sensible_name_field(player):
    player.d.delete_all_cookies()
    player.open("index.html")
    field = player.find("#welcome-name")
    for width, height, mobile in (LAPTOP, PHONE):
        size(player, width, height, mobile)
        box = player.js("return arguments[0].getBoundingClientRect().width", field)
        assert box <= 400, f"the name field is {box} px wide at {width}x{height}"
        assert box >= min(240, width - 60)
        assert no_sideways_scroll(player)
        shoot(player, f"welcome-{width}x{height}")
    unsize(player)

    player.join("Hal")
    size(player, *LAPTOP)
    cards = player.js("""window.scrollTo(0, 0);
      return [...document.querySelectorAll('#game-grid > a')].map((a) => {
        const r = a.getBoundingClientRect(); return [a.id || a.className, Math.round(r.top), r.bottom <= innerHeight]; });""")
    assert [c[0] for c in cards][-1] == "party-card" and len(cards) == 6
    rows = sorted({top for _, top, _ in cards})
    assert len(rows) == 2, f"the six cards are in {len(rows)} rows: {cards}"
    assert [sum(1 for c in cards if c[1] == top) for top in rows] == [3, 3]
    assert all(inside for _, _, inside in cards), f"not every card is on the first screen: {cards}"
    shoot(player, "home-1280x800")
    size(player, *PHONE)
    assert no_sideways_scroll(player)
    assert player.js("return document.querySelector('#game-grid a').getBoundingClientRect().top < innerHeight")
    shoot(player, "home-360x640")
    unsize(player)


def test_a_deck_that_cannot_be_played_is_not_offered(player, server):
    player.join("Deb")
    _, _, decks = Client(server.url).get("/api/decks")
    unplayable = [d["title"] for d in decks if not d["playable"]]
    assert "NFL HOF Eagles" in unplayable  # the roster, without its photos
    player.open("picture-quiz.html")
    player.find("#decks button")
    for width, height, mobile in (PHONE, LAPTOP):
        size(player, width, height, mobile)
        offered = player.js("return [...document.querySelectorAll('#decks > *')].map((c) => [c.tagName, c.querySelector('strong').textContent])")
        assert offered and all(tag == "BUTTON" for tag, _ in offered), offered
        assert not set(unplayable) & {title for _, title in offered}, offered
        assert "0 of 25" not in player.text("#setup")
        shoot(player, f"decks-{width}x{height}")
    unsize(player)


# ---------------------------------------------------------------------------------------------
# 10. A room's link


def test_a_room_link_names_the_room_and_its_host_before_the_name(player, server):
    ben = api_player(server, "Ben")
    status, _, created = ben.post("/api/rooms", {})
    assert status == 201, created
    code = created["code"]
    for width, height, mobile in (PHONE, LAPTOP):
        player.d.delete_all_cookies()
        size(player, width, height, mobile)
        player.open(f"room.html?code={code.lower()}")
        line = player.wait_text("#welcome-room", code)
        assert line == f"You are joining Ben's room {code}."
        assert player.js("const r = document.getElementById('welcome-room').getBoundingClientRect(); return r.bottom <= innerHeight")
        assert player.js("const r = document.getElementById('welcome-name').getBoundingClientRect(); return r.bottom <= innerHeight")
        shoot(player, f"welcome-room-{width}x{height}")
    # The name, then the room itself.
    player.find("#welcome-name").send_keys("Cleo", Keys.ENTER)
    WebDriverWait(player.d, 10).until(lambda d: "room.html" in d.current_url)
    player.wait_text("#bar-code", code)
    unsize(player)
    # Home without a room's link says nothing of rooms.
    player.d.delete_all_cookies()
    player.open("index.html")
    player.find("#welcome-name")
    assert not player.d.find_element(By.ID, "welcome-room").is_displayed()


# ---------------------------------------------------------------------------------------------
# 16. Statistics


CHART_TEXTS = """
  const panelBackground = (node) => {
    for (let n = node; n; n = n.parentElement) {
      const bg = getComputedStyle(n).backgroundColor;
      if (!/rgba\\(.*, 0\\)$/.test(bg) && bg !== 'transparent') return bg;
    }
    return 'rgb(255, 255, 255)';
  };
  return [...document.querySelectorAll('.chart text')].map((text) => {
    const box = text.getBoundingClientRect();
    const bars = [...text.ownerSVGElement.querySelectorAll('rect')].map((r) => r.getBoundingClientRect());
    const onBar = bars.some((b) => box.left < b.right && box.right > b.left && box.top < b.bottom && box.bottom > b.top);
    return { text: text.textContent, px: parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a,
             fill: getComputedStyle(text).fill, background: panelBackground(text.ownerSVGElement), onBar };
  });"""


def test_statistics_charts_read_at_any_size_in_light_and_dark(player, server):
    client = api_player(server, "Stat")
    for _ in range(3):
        game = client.start_game("number", {"attempts": 7})
        while not game["isOver"]:
            game = client.halve(game)
    signed_in_as(player, client)
    player.open("stats.html")
    player.find("#h-number")
    for name in ("light", "dark"):
        theme(player, name)
        for width, height, mobile in (PHONE, LAPTOP):
            size(player, width, height, mobile)
            texts = player.js(CHART_TEXTS)
            assert len(texts) >= 4, texts
            small = [t for t in texts if t["px"] < 12]
            assert small == [], f"labels under 12 px at {width}x{height}: {small}"
            assert [t for t in texts if t["onBar"]] == [], f"labels on a bar at {width}x{height}"
            poor = [t for t in texts if contrast(rgb(t["fill"]), rgb(t["background"])) < 4.5]
            assert poor == [], f"labels without contrast in {name} at {width}x{height}: {poor}"
            assert no_sideways_scroll(player)
            player.js("document.getElementById('h-number').scrollIntoView()")
            shoot(player, f"stats-{name}-{width}x{height}")
    theme(player, "system")
    unsize(player)


@pytest.mark.parametrize("language, plain, jargon", [
    ("en", ["Average score per colour (out of 100)", "Extra time when word and ink disagree"],
     ["Average colour", "Slowed by the mismatch"]),
    ("es", ["Puntuación media por color (sobre 100)", "Tiempo de más cuando palabra y tinta no coinciden"],
     ["Media por color", "Retraso por el desajuste"]),
    ("ru", ["Средний балл за цвет (из 100)", "Сколько дольше, когда слово и цвет не совпадают"],
     ["В среднем за цвет", "Замедление из-за несовпадения"]),
])
def test_statistics_say_their_figures_in_plain_words(player, server, language, plain, jargon):
    client = api_player(server, "Words")
    status, _, _ = client.request("PATCH", "/api/me", {"preferences": {"language": language}})
    assert status == 200
    signed_in_as(player, client)
    player.open("stats.html")
    page = player.find("#h-color-match").find_element(By.XPATH, "../..").text
    assert all(p in page for p in plain), page
    assert not any(j in page for j in jargon), page


# ---------------------------------------------------------------------------------------------
# 6, 18. The daily set


def test_a_lost_daily_number_reads_x_in_attempts_everywhere(player, server):
    client = api_player(server, "Lou")
    lost = lose_number(client)
    expected = attempts_text(lost)
    assert expected.startswith("X/")
    winner = api_player(server, "Wyn")
    halved = halve_number(winner)
    signed_in_as(player, client)
    for width, height, mobile in (PHONE, LAPTOP):
        size(player, width, height, mobile)
        player.open("index.html")
        chip = player.wait_text("#daily-chips a.number .chip-state", "/")
        assert chip == expected, chip
        state = player.find("#daily-chips a.number .chip-state")
        good = player.js("return getComputedStyle(document.querySelector('#daily-chips a.number')).getPropertyValue('--good-text')")
        assert state.value_of_css_property("color") != player.js(
            "const s = document.createElement('span'); s.style.color = arguments[0]; document.body.append(s);"
            "const c = getComputedStyle(s).color; s.remove(); return c;", good.strip()), "a lost Number is green"
        shoot(player, f"daily-chips-lost-{width}x{height}")
        player.open("daily.html?game=number")
        assert player.wait_text("#daily-state", "Played") == f"Played: {expected}"
        assert player.wait_text("#board-you", "You are") == f"You are 2nd of 2 · {expected}" or \
            player.text("#board-you") == f"You are 1st of 2 · {expected}"
        cells = {r.find_element(By.CSS_SELECTOR, ".name").text: r.find_element(By.CSS_SELECTOR, "td.score").text
                 for r in player.d.find_elements(By.CSS_SELECTOR, "#board-rows tr")}
        assert cells == {"Lou": expected, "Wyn": attempts_text(halved)}, cells
        assert player.text("#board-score") == "Attempts"
        assert re.search(r" X/\d+\n", player.find("#daily-share textarea").get_property("value") + "\n")
        shoot(player, f"daily-number-lost-{width}x{height}")
        player.open("daily.html")
        row = player.wait_text("#all-list a[href*='game=number'] .state", "Played")
        assert row == f"Played: {expected}"
    unsize(player)


def test_finishing_all_five_gives_one_card_and_one_share(player, server):
    client = api_player(server, "Fay")
    replies = finish_all_five(client)
    signed_in_as(player, client)
    player.open("daily.html")
    card = player.find("#day-card .day-card")
    number = re.search(r"#(\d+)", player.text("#daily-title")).group(1)
    assert player.text("#day-card-title") == f"All five done · #{number}"
    results = [li.text.split("\n")[-1] for li in card.find_elements(By.CSS_SELECTOR, ".day-results li")]
    assert results[0] == attempts_text(replies["number"])
    assert results[1] == f"{replies['color-match']['score']:,}" and "," in results[1]  # 1,000 or more
    assert card.find_element(By.CSS_SELECTOR, ".day-results li.lost").text.endswith(results[0])
    # One share for the day: a heading, a line per game (none carrying its own heading or link),
    # and the day's link.
    assert len(card.find_elements(By.CSS_SELECTOR, ".share-panel")) == 1
    text = card.find_element(By.CSS_SELECTOR, "textarea.share-text").get_property("value")
    lines = text.split("\n")
    assert lines[0] == f"Guesswork · daily set #{number}", text
    assert len(lines) == 7, text
    assert all("Guesswork" not in line and "http" not in line for line in lines[1:6]), text
    assert lines[1].startswith("🔢 ") and lines[1].endswith(attempts_text(replies["number"])), text
    assert re.search(r"/daily\.html\?date=\d{4}-\d{2}-\d{2}$", lines[6]), text
    for width, height, mobile in (PHONE, LAPTOP):
        size(player, width, height, mobile)
        assert no_sideways_scroll(player)
        assert player.js("return document.getElementById('day-card').getBoundingClientRect().top < innerHeight")
        shoot(player, f"daily-day-card-{width}x{height}")
        theme(player, "dark")
        shoot(player, f"daily-day-card-dark-{width}x{height}")
        theme(player, "system")
    unsize(player)
    # Home: the Color Match chip's score in the page's language.
    player.open("index.html")
    assert player.wait_text("#daily-chips a.color-match .chip-state", "✓") == f"✓ {replies['color-match']['score']:,}"
    # One game's page of a finished day still shares that game alone.
    player.open("daily.html?game=bullseye")
    player.find("#daily-share textarea")
    assert player.d.find_elements(By.CSS_SELECTOR, "#day-card .day-card") == []
