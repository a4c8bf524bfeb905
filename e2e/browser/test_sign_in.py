"""Signing devices in and out in a real Chromium: Settings makes a one-use sign-in link; the
link's page says who it signs in as and who this browser stops being, and signs in only on a
click; signing out forgets the player on this browser."""
import os
import sys

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
from test_browser import axe_violations, browser, player, server  # noqa: E402,F401  (fixtures are used by name)


def test_a_sign_in_link_is_confirmed_then_signs_in_once(player):
    player.join("Tess")
    player.open("settings.html")
    player.click("#make-link")
    player.wait_text("#status", "Sign-in link made")
    link = player.find("#link-url").get_attribute("value")
    assert link.startswith(player.base + "/link.html#") and len(link.split("#", 1)[1]) == 22
    assert axe_violations(player) == []

    # Another browser, already someone else: it is told both names before anything happens.
    player.join("Bea")
    player.d.get(link)
    assert player.wait_text("#confirm-title", r"^Sign in as Tess\?$")
    warning = player.text("#what-happens")
    assert "This browser is Bea now" in warning and "signs Bea out of this browser" in warning
    assert "#" not in player.d.current_url, "the code leaves the address bar once read"
    assert player.js("return fetch('/api/me').then(r => r.json())")["name"] == "Bea", "nothing happens before the click"
    assert axe_violations(player) == []
    player.click("#sign-in")
    player.find("#games")  # the statistics page
    assert player.d.current_url.endswith("/stats.html")
    assert player.js("return fetch('/api/me').then(r => r.json())")["name"] == "Tess"

    # The same link again: used.
    player.d.get(link)
    assert player.wait_text("#status", "unknown, used or expired")
    assert not player.d.find_element(By.ID, "confirm").is_displayed()


def test_signing_out_forgets_the_player_on_this_browser(player):
    player.join("Cy")
    player.open("settings.html")
    player.click("#sign-out")
    assert "need a sign-in link" in player.text("#sign-out-warning")
    player.click("#sign-out-confirm")
    player.find("#welcome-name")  # the first-visit form: nobody is signed in
    assert player.js("return fetch('/api/session').then(r => r.json())") == {"player": None}
    assert player.d.get_cookie("guesswork_player") is None
