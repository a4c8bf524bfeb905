"""One page for every game: the server serves /<id>.html as Public/game.html with the game's id
in it, and the game's module (js/games/<id>.js) draws its own sections. A new game needs a
module and a style sheet, never an HTML page of its own."""
import glob
import json
import os
import urllib.error
import urllib.request

from selenium.webdriver.support.ui import WebDriverWait

from test_browser import POLL, browser, player, server  # noqa: F401

from support.server import ROOT

PUBLIC = os.path.join(ROOT, "Sources", "GuessworkServer", "Public")


def catalog_games(server):
    with urllib.request.urlopen(server.url + "/api/catalog", timeout=10) as r:
        return json.load(r)["games"]


def status_of(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as error:
        return error.code


def test_no_game_has_a_page_of_its_own(server):
    games = [g["id"] for g in catalog_games(server)]
    modules = sorted(os.path.basename(path)[:-3] for path in glob.glob(os.path.join(PUBLIC, "js", "games", "*.js")))
    assert sorted(games) == modules, "every game in the catalog has its module, and no module is left over"
    assert os.path.exists(os.path.join(PUBLIC, "game.html"))
    pages = [f"{game}.html" for game in games if os.path.exists(os.path.join(PUBLIC, f"{game}.html"))]
    assert pages == [], f"game.html draws every game; these pages should go: {pages}"
    for game in games:
        assert os.path.exists(os.path.join(PUBLIC, "css", "games", f"{game}.css")), game
    # The template itself is no page.
    assert status_of(server.url + "/game.html") == 404


def assert_game_page(player, game):
    """The page of `game` as its player meets it: its id, its title, its style and its setup."""
    WebDriverWait(player.d, 10, poll_frequency=POLL).until(
        lambda d: d.current_url.split("?")[0].endswith(f"/{game['id']}.html"), f"not on {game['id']}.html")
    assert player.js("return document.body.dataset.game") == game["id"]
    assert player.wait_text("main h1", f"^{game['title']}")
    WebDriverWait(player.d, 10, poll_frequency=POLL).until(
        lambda d: d.title == f"{game['title']} · Guesswork", f"the title stays {player.d.title!r}")
    # Its setup, drawn by its module, is what shows first.
    player.find("#setup")
    assert player.js("return document.querySelectorAll('main > section').length") >= 2
    sheets = player.js("return [...document.styleSheets].map((s) => s.href || '')")
    assert any(s.endswith(f"/css/games/{game['id']}.css") for s in sheets), sheets
    assert "{{game}}" not in player.js("return document.documentElement.outerHTML")


def test_every_game_opens_from_its_address_and_from_home(player, server):
    games = catalog_games(server)
    player.join("Gale")
    for game in games:
        player.open(f"{game['id']}.html")
        assert_game_page(player, game)
    for game in games:
        player.open("index.html")
        player.click(f"#game-grid a.game-card.{game['id']}")
        assert_game_page(player, game)
