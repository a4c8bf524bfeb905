"""The pages in English, Spanish and Russian, in a real headless Chromium (issue 17).

Home, settings, statistics, the daily pages and the sign-in link page are opened in each
language, chosen both ways a player chooses one: by the browser's own language
(navigator.languages and Accept-Language, Chromium's --lang and intl.accept_languages) and by the
switch in the page header. Each page must say <html lang>, leave no text as its catalog key
(no `data-i18n` element, text or label reading like a key), log no "missing key" and show the
catalog's exact texts. The choice survives a reload and follows the player to another browser
(a sign-in link); the header with the switch fits a phone (360x640) in every language; and
js/i18n.js's plural rules, exact matches and number formats are checked in the browser itself.

The catalogs are read from Sources/GuessworkContent/Resources/i18n/<lang>/pages.json, the same
files the server serves (GUESSWORK_I18N_DIR points a prebuilt server at a working copy's).
"""
import json
import os
import re
import sys
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_browser import POLL, SCREENSHOTS, Player, axe_violations, chromium, server  # noqa: E402,F401  (fixtures are used by name)
from test_phone import outside, set_size, settle  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CATALOGS = os.path.join(ROOT, "Sources", "GuessworkContent", "Resources", "i18n")
LANGUAGES = ["en", "es", "ru"]
PHONE = (360, 640)
DESKTOP = (1280, 800)


def catalog(lang):
    with open(os.path.join(CATALOGS, lang, "pages.json"), encoding="utf-8") as f:
        return json.load(f)


PAGES = {lang: catalog(lang) for lang in LANGUAGES}


def plural_category(lang, n):
    if lang == "ru":
        if n != int(n):
            return "other"
        d, h = n % 10, n % 100
        if d == 1 and h != 11:
            return "one"
        if 2 <= d <= 4 and not 12 <= h <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def expected(lang, key, **args):
    """A pages.json text as the page must show it (whole numbers under 1000 only: no grouping)."""
    value = PAGES[lang][key]
    if isinstance(value, dict):
        count = args["count"]
        value = value.get(f"={count}") or value.get(plural_category(lang, count)) or value["other"]
    text = re.sub(r"\{\{|\}\}|\{(\w+)\}",
                  lambda m: {"{{": "{", "}}": "}"}.get(m.group(0)) or str(args[m.group(1)]), value)
    return text


# ---------------------------------------------------------------------------------------------
# Browsers with a language of their own


def chromium_in(lang):
    """A new headless Chromium whose own language is `lang` (navigator.languages and the
    Accept-Language it sends)."""
    return chromium(f"--lang={lang}", prefs={"intl.accept_languages": lang})


@pytest.fixture
def browsers(server):
    """Opens Chromiums by language: browsers('es') is a Player in a Spanish browser. Each one's
    console must hold no error (and no i18n complaint) when the test ends."""
    opened = []

    def open_browser(lang):
        driver = chromium_in(lang)
        opened.append(driver)
        return Player(driver, server.url)

    yield open_browser
    try:
        for driver in opened:
            assert console_problems(driver) == []
    finally:
        for driver in opened:
            driver.quit()


# The only console errors allowed: the browser's note of the 404 a made-up sign-in code gets.
EXPECTED = re.compile(r"/api/link-codes/\S+ - Failed to load resource: the server responded with a status of 404")


def console_problems(driver):
    return [entry["message"] for entry in driver.get_log("browser")
            if (entry["level"] in ("SEVERE", "ERROR") and not EXPECTED.search(entry["message"]))
            or "i18n:" in entry["message"]]


def wait(player, condition, message, timeout=10):
    return WebDriverWait(player.d, timeout, poll_frequency=POLL).until(lambda d: condition(), message)


def wait_language(player, lang):
    """Waits until the page is in `lang`, translated and drawn (not hidden for loading)."""
    wait(player, lambda: player.js(
        "return document.documentElement.lang === arguments[0]"
        " && !document.documentElement.classList.contains('i18n-loading')", lang),
        f"the page never turned {lang} (it is {player.js('return document.documentElement.lang')})")
    settle(player)


def untranslated(player, lang):
    """Every text or label on the page that reads as a catalog key: what the player would see
    instead of words."""
    return player.js("""
      const keys = new Set(arguments[0]);
      const found = [];
      for (const e of document.querySelectorAll('[data-i18n]')) {
        if (e.textContent.trim() === e.getAttribute('data-i18n')) found.push(`text of ${e.outerHTML.slice(0, 80)}`);
      }
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent.trim();
        if (keys.has(text)) found.push(`text "${text}"`);
      }
      for (const e of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
        for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
          const value = e.getAttribute(name);
          if (value && (keys.has(value) || /^[a-z]+(\\.[a-zA-Z]+)+$/.test(value))) found.push(`${name}="${value}"`);
        }
      }
      if (keys.has(document.title)) found.push(`title ${document.title}`);
      return found;""", list(PAGES[lang]))


def check_page(player, lang, page, texts):
    """Opens `page` and checks its language, that nothing is left as a key, and `texts`
    ({css: expected text}, the first element the css finds)."""
    player.open(page)
    wait_language(player, lang)
    for css, text in texts.items():
        wait(player, lambda: player.js("const e = document.querySelector(arguments[0]); return e && e.textContent.trim()", css) == text,
             f"{page}: {css} shows {player.js('const e = document.querySelector(arguments[0]); return e && e.textContent.trim()', css)!r}, not {text!r}")
    assert player.js("return document.documentElement.lang") == lang
    problems = untranslated(player, lang)
    assert problems == [], f"{page} in {lang}: {problems}"
    switch = player.d.find_elements(By.CSS_SELECTOR, "#language-switch .language-code")
    assert switch and switch[0].text.startswith(lang.upper()), f"{page}: the header's switch says {switch[0].text if switch else None!r}"
    assert Select(player.d.find_element(By.ID, "language-select")).first_selected_option.get_attribute("value") == lang


def join(player, name, lang):
    """A newcomer picks a name on the welcome form (the page in `lang`)."""
    player.d.delete_all_cookies()
    player.open("index.html")
    wait_language(player, lang)
    assert player.text("#welcome-title") == expected(lang, "home.welcome.title")
    player.find("#welcome-name").send_keys(name)
    player.click("#welcome-form button[type=submit]")
    player.find("#home")
    return player


def choose_in_header(player, lang):
    # The select is drawn invisible over the code it shows (Selenium calls it not displayed).
    player.find("#language-switch")
    Select(player.d.find_element(By.ID, "language-select")).select_by_value(lang)
    wait_language(player, lang)


def check_every_page(player, lang, name):
    check_page(player, lang, "index.html", {
        "#home h1": expected(lang, "home.greeting", name=name),
        "#home .links a[href='settings.html']": expected(lang, "home.settings"),
        "#home .links a[href='stats.html']": expected(lang, "home.statistics"),
    })
    number = player.js("return fetch('/api/daily').then(r => r.json()).then(d => d.number)")
    assert player.text("#daily-strip-title") == expected(lang, "home.daily.titleNumbered", number=number)
    states = [e.text for e in player.d.find_elements(By.CSS_SELECTOR, "#daily-chips .chip-state")]
    assert states == [expected(lang, "daily.chip.play")] * 5
    assert player.js("return document.title") == expected(lang, "home.pageTitle")

    check_page(player, lang, "settings.html", {
        "h1": expected(lang, "settings.title"),
        "#profile-title": expected(lang, "settings.profile.title"),
        "#language-title": expected(lang, "settings.language.title"),
        "#language-auto": expected(lang, "settings.language.auto"),
        "#theme-title": expected(lang, "settings.theme.title"),
        ".topbar .home-link": expected(lang, "common.home"),
        "#my-categories li": expected(lang, "settings.categories.none"),
        "#reminders li": expected(lang, "settings.reminders.none"),
    })
    assert player.js("return document.title") == expected(lang, "settings.pageTitle")
    assert player.find("#reminder-title").get_attribute("value") == expected(lang, "settings.reminders.defaultTitle")
    assert player.find("#sound-switch").get_attribute("aria-label") == expected(lang, "common.sound.label")
    assert player.d.find_element(By.ID, "language-select").get_attribute("aria-label") == expected(lang, "common.language.label")

    check_page(player, lang, "stats.html", {
        "h1": expected(lang, "stats.title"),
        "#h-daily": expected(lang, "stats.daily.title"),
    })
    assert player.js("return document.title") == expected(lang, "stats.pageTitle")
    daily_panel = player.find("#h-daily").find_element(By.XPATH, "..").text
    assert expected(lang, "stats.daily.streakAll") in daily_panel and expected(lang, "stats.streakValue", current=0, best=0) in daily_panel

    check_page(player, lang, "daily.html", {
        "#daily-title": expected(lang, "daily.todayTitle", number=number),
    })
    rows = [e.text for e in player.d.find_elements(By.CSS_SELECTOR, "#all-list .state")]
    assert rows == [expected(lang, "daily.state.new")] * 5
    assert player.js("return document.title") == expected(lang, "common.pageTitle", title=expected(lang, "daily.todayTitle", number=number))

    check_page(player, lang, "daily.html?game=number", {
        "#daily-state": expected(lang, "daily.state.new"),
        "#board-title": expected(lang, "daily.board.title"),
        "#board-you": expected(lang, "daily.board.nobody"),
        "th.rank": expected(lang, "daily.board.rank"),
        "#board-tabs button": expected(lang, "daily.board.today"),
        "#archive-title": expected(lang, "daily.archive.title"),
        "#daily-actions .play": expected(lang, "daily.play"),
    })
    about = player.find("#archive-title").find_element(By.XPATH, "following-sibling::p")
    assert about.find_element(By.TAG_NAME, "strong").text == expected(lang, "daily.archive.notCounted")
    assert about.text == expected(lang, "daily.archive.about", notCounted=expected(lang, "daily.archive.notCounted"))

    check_page(player, lang, "link.html#not-a-real-code", {
        "h1": expected(lang, "link.title"),
    })
    assert player.js("return document.title") == expected(lang, "link.pageTitle")
    player.open("link.html")
    wait_language(player, lang)
    assert player.wait_text("#status", re.escape(expected(lang, "link.noCode")))


# ---------------------------------------------------------------------------------------------
# Every page in every language, chosen either way


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_in_the_browsers_language(browsers, lang):
    player = browsers(lang)
    assert player.js("return navigator.languages[0]").split("-")[0] == lang
    join(player, "Noa", lang)
    check_every_page(player, lang, "Noa")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_in_the_language_chosen_in_the_header(browsers, lang):
    own = "ru" if lang == "en" else "en"
    player = browsers(own)
    join(player, "Ilya", own)
    choose_in_header(player, lang)
    # Home changed where it stood: the games' blurbs and the greeting are in the new language.
    assert player.text("#home h1") == expected(lang, "home.greeting", name="Ilya")
    check_every_page(player, lang, "Ilya")
    # The welcome form follows the switch too, before there is a player.
    player.d.delete_all_cookies()
    player.js("localStorage.clear()")
    player.open("index.html")
    wait_language(player, own)
    choose_in_header(player, lang)
    assert player.text("#welcome-title") == expected(lang, "home.welcome.title")
    assert player.text("label[for=welcome-name]") == expected(lang, "home.welcome.name")


def test_a_switch_redraws_the_page_in_place_and_keeps_what_was_typed(browsers):
    player = browsers("en")
    join(player, "Kim", "en")
    player.open("settings.html")
    wait_language(player, "en")
    player.find("#category-name").send_keys("Birds")
    player.find("#category-words").send_keys("owl\nhawk\n")
    assert player.text("#category-count") == expected("en", "settings.categories.distinct", count=2)
    choose_in_header(player, "ru")
    assert player.text("h1") == expected("ru", "settings.title")
    assert player.find("#category-name").get_attribute("value") == "Birds"
    assert player.text("#category-count") == expected("ru", "settings.categories.distinct", count=2)
    assert player.js("return performance.getEntriesByType('navigation')[0].type") == "navigate", "not reloaded"
    # A game page (its own text is the play catalog's) is redrawn too, with its game kept.
    player.open("number.html")
    player.click("#start")
    wait(player, lambda: player.version(), "the game never started")
    game = player.version()
    choose_in_header(player, "es")
    assert player.version() == game
    assert player.text(".topbar .home-link") == expected("es", "common.home")


# ---------------------------------------------------------------------------------------------
# The choice is the player's


def preference(player):
    return player.js("return fetch('/api/session').then(r => r.json()).then(s => s.player && s.player.preferences.language)")


def test_the_choice_survives_a_reload_and_follows_the_player(browsers):
    first = browsers("en")
    join(first, "Lena", "en")
    first.open("settings.html")
    wait_language(first, "en")
    first.click("input[name=language][value=ru]")
    wait_language(first, "ru")
    assert first.wait_text("#status", re.escape(expected("ru", "settings.language.saved", choice="Русский")))
    assert preference(first) == "ru"
    first.d.refresh()
    wait_language(first, "ru")
    assert first.find("input[name=language][value=ru]").is_selected()
    # Without this browser's memory the server's preference still says it.
    first.js("localStorage.clear()")
    first.open("stats.html")
    wait_language(first, "ru")
    assert first.text("h1") == expected("ru", "stats.title")

    # Another browser, in Spanish: the sign-in link page is Spanish, the player's pages Russian.
    first.open("settings.html")
    wait_language(first, "ru")
    first.click("#make-link")
    link = first.wait_text("#status", ".") and first.find("#link-url").get_attribute("value")
    second = browsers("es")
    second.d.get(link)
    wait_language(second, "es")
    assert second.wait_text("#confirm-title", re.escape(expected("es", "link.confirmTitle", name="Lena")))
    second.click("#sign-in")
    second.find("#games")
    wait_language(second, "ru")
    assert second.text("h1") == expected("ru", "stats.title")
    assert second.js("return localStorage['guesswork.lang']") == "ru"

    # Automatic: each browser its own language again, and the server forgets the choice.
    second.open("settings.html")
    wait_language(second, "ru")
    second.click("input[name=language][value=auto]")
    wait_language(second, "es")
    assert second.find("input[name=language][value=auto]").is_selected()
    assert preference(second) in (None, "auto")
    assert second.js("return localStorage['guesswork.lang']") is None
    first.open("index.html")
    wait_language(first, "en")


def test_a_language_chosen_before_the_name_is_kept_for_the_new_player(browsers):
    player = browsers("en")
    player.open("index.html")
    wait_language(player, "en")
    choose_in_header(player, "es")
    player.find("#welcome-name").send_keys("Pau")
    player.click("#welcome-form button[type=submit]")
    assert player.wait_text("#home h1", re.escape(expected("es", "home.greeting", name="Pau")))
    assert preference(player) == "es"


# ---------------------------------------------------------------------------------------------
# A phone's header


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_header_with_the_switch_fits_a_phone(browsers, lang):
    player = browsers(lang)
    join(player, "Maximiliana Alexandrovna", lang)
    problems = {}
    header = {
        "index.html": ["#language-switch", ".topbar"],
        "settings.html": [".home-link", "#language-switch", "#sound-switch", "#player-chip", "h1"],
        "stats.html": [".home-link", "#language-switch", "#sound-switch", "#player-chip", "h1"],
        "daily.html?game=number": [".home-link", "#language-switch", "#sound-switch", "#player-chip", "#daily-actions .play"],
        "number.html": [".home-link", "#language-switch", "#sound-switch", "#player-chip"],
        "link.html#x": [".home-link", "#language-switch", "h1"],
    }
    for page, selectors in header.items():
        player.open(page)
        wait_language(player, lang)
        player.find("#language-switch")
        for size in (PHONE, DESKTOP):
            set_size(player, size)
            found = outside(player, selectors)
            # The header is one row: every part of it beside the others, none pushed below.
            rows = player.js("""
              const bar = document.querySelector('.topbar');
              const tops = [...bar.children].filter((e) => e.getClientRects().length)
                .map((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2));
              return Math.max(...tops) - Math.min(...tops);""")
            if rows > 8:
                found.append(f"the header's parts are {rows} px apart in height: more than one row")
            if found:
                problems[f"{page} at {size[0]}x{size[1]}"] = found
            name = re.sub(r"\W+", "-", page.split("#")[0])
            player.d.save_screenshot(os.path.join(SCREENSHOTS, f"languages-{lang}-{name}-{size[0]}x{size[1]}.png"))
        player.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert problems == {}


def test_the_switch_is_named_and_passes_axe(browsers):
    player = browsers("ru")
    join(player, "Vera", "ru")
    player.open("settings.html")
    wait_language(player, "ru")
    player.find("#language-switch")
    select = player.d.find_element(By.ID, "language-select")
    assert select.get_attribute("aria-label") == expected("ru", "common.language.label")
    assert [o.text for o in Select(select).options] == ["English", "Español", "Русский"]
    assert [o.get_attribute("lang") for o in Select(select).options] == ["en", "es", "ru"]
    assert axe_violations(player) == []


# ---------------------------------------------------------------------------------------------
# js/i18n.js itself


UNIT = """
const done = arguments[arguments.length - 1];
const script = document.querySelector('script[type=module]').src;
import(new URL('i18n.js', script).href).then(async (m) => {
  await m.ready;
  const attempts = {one: '{count} попытка', few: '{count} попытки', many: '{count} попыток', other: '{count} попытки'};
  const exact = {'=0': 'попыток не осталось', '=1': 'последняя попытка!', ...attempts};
  const en = {one: '{count} attempt', other: '{count} attempts'};
  const es = {one: '{count} intento', other: '{count} intentos'};
  done({
    lang: m.lang(),
    ru: [1, 2, 5, 11, 21, 22, 0, 12, 14, 25, 101, 111, 1.5].map((count) => m.render(attempts, {count}, 'ru')),
    categories: [0, 1, 2, 4, 5, 11, 12, 21, 22, 112, 1.5].map((n) => m.pluralCategory(n, 'ru')),
    exact: [0, 1, 2, 21].map((count) => m.render(exact, {count}, 'ru')),
    en: [0, 1, 2, 1000].map((count) => m.render(en, {count}, 'en')),
    es: [0, 1, 2, 10000].map((count) => m.render(es, {count}, 'es')),
    enExact: m.render({'=1': 'last one!', one: 'one {count}', other: '{count} left'}, {count: 1}, 'en'),
    numbers: ['en', 'es', 'ru'].map((code) => [10000, 1234.5, 1000000].map((n) => m.render('{n}', {n}, code))),
    formatNumber: m.formatNumber(10000),
    braces: m.render('{{literal}} {x} }}', {x: 'y'}, 'en'),
    strings: m.render('{name} {n}', {name: '10000', n: 10000}, 'es'),
    t: [1, 3, 5, 21].map((count) => m.t('settings.categories.wordCount', {count})),
    tm: [m.tm({key: 'settings.categories.wordCount', args: {count: 2}}), m.tm('as it is'), m.tm(null)],
    missing: m.t('no.such.key'),
    names: m.LANGUAGE_NAMES,
    languages: m.LANGUAGES,
    supported: ['es-MX', 'ru_RU', 'EN', 'de', ''].map(m.supported),
  });
}).catch((e) => done({error: String(e)}));
"""


def test_the_plural_rules_and_formats_of_i18n_js(browsers):
    player = browsers("ru")
    join(player, "Unit", "ru")
    result = player.d.execute_async_script(UNIT)
    assert "error" not in result, result
    assert result["lang"] == "ru"
    assert result["ru"] == ["1 попытка", "2 попытки", "5 попыток", "11 попыток", "21 попытка", "22 попытки",
                            "0 попыток", "12 попыток", "14 попыток", "25 попыток", "101 попытка", "111 попыток",
                            "1,5 попытки"]
    assert result["categories"] == ["many", "one", "few", "few", "many", "many", "many", "one", "few", "many", "other"]
    assert result["exact"] == ["попыток не осталось", "последняя попытка!", "2 попытки", "21 попытка"]
    assert result["en"] == ["0 attempts", "1 attempt", "2 attempts", "1,000 attempts"]
    assert result["es"] == ["0 intentos", "1 intento", "2 intentos", "10.000 intentos"]
    assert result["enExact"] == "last one!"
    nbsp = "\u00a0"
    assert result["numbers"] == [["10,000", "1,234.5", "1,000,000"],
                                 ["10.000", "1234,5", "1.000.000"],
                                 [f"10{nbsp}000", f"1{nbsp}234,5", f"1{nbsp}000{nbsp}000"]]
    assert result["formatNumber"] == f"10{nbsp}000"
    assert result["braces"] == "{literal} y }"
    assert result["strings"] == "10000 10.000"
    assert result["t"] == ["1 слово", "3 слова", "5 слов", "21 слово"]
    assert result["tm"] == ["2 слова", "as it is", ""]
    assert result["missing"] == "no.such.key"
    assert result["languages"] == ["en", "es", "ru"]
    assert result["names"] == {"en": "English", "es": "Español", "ru": "Русский"}
    assert result["supported"] == ["es", "ru", "en", None, None]
    # The missing key was said in the console, as the page tests look for.
    logged = player.d.get_log("browser")
    assert any('missing key \\"no.such.key\\"' in e["message"] or 'missing key "no.such.key"' in e["message"] for e in logged), logged
    # Ordinals and dates per language, through the page's own module in each language.
    ordinals = {}
    for lang in LANGUAGES:
        choose_in_header(player, lang)
        ordinals[lang] = player.d.execute_async_script("""
          const done = arguments[arguments.length - 1];
          import(new URL('i18n.js', document.querySelector('script[type=module]').src).href)
            .then((m) => done([1, 2, 3, 4, 11, 21, 22, 101].map(m.ordinal)
              .concat(m.formatDate(new Date(Date.UTC(2026, 10, 23)), {month: 'long', day: 'numeric', timeZone: 'UTC'}))));""")
    assert ordinals["en"] == ["1st", "2nd", "3rd", "4th", "11th", "21st", "22nd", "101st", "November 23"]
    assert ordinals["es"] == ["1.º", "2.º", "3.º", "4.º", "11.º", "21.º", "22.º", "101.º", "23 de noviembre"]
    assert ordinals["ru"] == ["1-й", "2-й", "3-й", "4-й", "11-й", "21-й", "22-й", "101-й", "23 ноября"]


# ---------------------------------------------------------------------------------------------
# The catalogs


def test_the_pages_catalogs_agree_and_every_key_is_used():
    """The same keys in the three languages, the same placeholders in every form, the plural
    forms each language has (with `other` always), and every key written somewhere in the
    pages' sources."""
    forms = {"en": {"one", "other"}, "es": {"one", "other"}, "ru": {"one", "few", "many", "other"}}

    def placeholders(text):
        return set(re.findall(r"(?<!\{)\{(\w+)\}", text.replace("{{", "").replace("}}", "")))

    keys = set(PAGES["en"])
    for lang in LANGUAGES:
        assert set(PAGES[lang]) == keys, f"{lang}: {set(PAGES[lang]) ^ keys}"
    for key in keys:
        found = set()
        for lang in LANGUAGES:
            value = PAGES[lang][key]
            texts = [value] if isinstance(value, str) else list(value.values())
            if isinstance(value, dict):
                assert "other" in value, (lang, key)
                assert all(f in forms[lang] or re.fullmatch(r"=\d+", f) for f in value), (lang, key, value)
                assert all("count" in placeholders(t) for t in texts), (lang, key)
            found |= {frozenset(placeholders(t)) for t in texts}
        assert len(found) == 1, f"{key}: placeholders differ: {found}"
    sources = ""
    public = os.path.join(ROOT, "Sources", "GuessworkServer", "Public")
    for folder, _, files in os.walk(public):
        for name in files:
            if name.endswith((".js", ".html")):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    sources += f.read()
    unused = sorted(k for k in keys if f"'{k}'" not in sources and f'"{k}"' not in sources
                    and f":{k}" not in sources and f"{k};" not in sources)
    assert unused == []
