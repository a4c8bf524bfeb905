"""The browser UI's files as a browser meets them: gzipped when asked, `304 Not Modified` while
unchanged, style sheets and scripts under versioned addresses kept for a year, and a list of
everything a service worker needs to open pages offline."""
import gzip
import json
import os
import re
import shutil
import tempfile
import urllib.error
import urllib.parse
import urllib.request

import pytest

from support.server import ROOT, Server

PUBLIC = os.path.join(ROOT, "Sources", "GuessworkServer", "Public")


def fetch(url, headers=None, method="GET"):
    """(status, headers, body) without following anything or decoding the body."""
    request = urllib.request.Request(url, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


@pytest.fixture(scope="module")
def server():
    with Server() as s:
        yield s


def test_pages_name_versioned_assets_that_are_kept_for_a_year(server):
    status, headers, body = fetch(server.url + "/number.html")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["Cache-Control"] == "no-cache", "a page is asked for again, so a new version shows"
    page = body.decode()
    references = re.findall(r'(?:href|src)="([^"#:]+)"', page)
    versioned = [r for r in references if r.startswith("v/")]
    assert any(r.endswith("css/app.css") for r in versioned), references
    # A game's page is game.html with the game's id in it: its own style sheet, and the script
    # that loads js/games/number.js.
    assert "{{game}}" not in page and 'data-game="number"' in page
    assert any(r.endswith("css/games/number.css") for r in versioned), references
    assert any(r.endswith("js/game-page.js") for r in versioned), references
    assert not [r for r in references if r.startswith(("css/", "js/"))], "every style sheet and script is versioned"
    version = versioned[0].split("/")[1]
    for reference in references:
        status, headers, _ = fetch(f"{server.url}/{reference}")
        assert status == 200, reference
        if reference.startswith("v/"):
            assert headers["Cache-Control"] == "public, max-age=31536000, immutable", reference
    # Relative imports between scripts resolve inside the same versioned folder.
    status, _, script = fetch(f"{server.url}/v/{version}/js/games/number.js")
    for imported in re.findall(r"from '(\.\.?/[^']+)'", script.decode()):
        url = urllib.parse.urljoin(f"{server.url}/v/{version}/js/games/number.js", imported)
        assert fetch(url)[0] == 200, url
    # An address of another version gets today's file, but not to be kept under that name.
    status, headers, old = fetch(f"{server.url}/v/000000000000/css/app.css")
    assert status == 200 and headers["Cache-Control"] == "no-cache"
    assert old == fetch(f"{server.url}/v/{version}/css/app.css")[2]
    assert fetch(f"{server.url}/v/{version}/js/nothing.js")[0] == 404


def test_text_is_gzipped_when_asked_and_revalidated_by_etag(server):
    with open(os.path.join(PUBLIC, "css", "app.css"), "rb") as f:
        original = f.read()
    status, headers, plain = fetch(server.url + "/css/app.css")
    assert status == 200 and plain == original and "Content-Encoding" not in headers
    assert headers["Vary"] == "Accept-Encoding"
    status, headers, packed = fetch(server.url + "/css/app.css", {"Accept-Encoding": "br, gzip;q=0.8"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed) == original and len(packed) < len(original) / 2
    assert int(headers["Content-Length"]) == len(packed)
    # gzip;q=0 means "not gzip".
    assert "Content-Encoding" not in fetch(server.url + "/css/app.css", {"Accept-Encoding": "gzip;q=0"})[1]
    # The two encodings have their own ETags, and each is answered 304 while current.
    plain_tag = fetch(server.url + "/css/app.css")[1]["ETag"]
    packed_tag = headers["ETag"]
    assert plain_tag != packed_tag
    status, headers, body = fetch(server.url + "/css/app.css", {"If-None-Match": plain_tag})
    assert status == 304 and body == b"" and headers["ETag"] == plain_tag
    status, _, _ = fetch(server.url + "/css/app.css", {"If-None-Match": packed_tag, "Accept-Encoding": "gzip"})
    assert status == 304
    assert fetch(server.url + "/css/app.css", {"If-None-Match": '"stale"'})[0] == 200
    # HEAD tells the same headers and sends no body; pictures are not gzipped again.
    status, headers, body = fetch(server.url + "/index.html", {"Accept-Encoding": "gzip"}, method="HEAD")
    assert status == 200 and body == b"" and headers["Content-Encoding"] == "gzip"
    status, headers, _ = fetch(server.url + "/", {"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"


def test_the_asset_list_names_every_page_and_asset(server):
    status, headers, body = fetch(server.url + "/assets.json")
    assert status == 200 and headers["Cache-Control"] == "no-cache"
    listed = json.loads(body)
    # The pages on disk, game.html (a template, not served itself) as each game's page.
    games = [g["id"] for g in json.loads(fetch(server.url + "/api/catalog")[2])["games"]]
    pages = sorted({name for name in os.listdir(PUBLIC) if name.endswith(".html") and name != "game.html"}
                   | {f"{game}.html" for game in games})
    assert listed["pages"] == pages
    on_disk = sorted(
        os.path.relpath(os.path.join(folder, name), PUBLIC)
        for folder, _, names in os.walk(PUBLIC) for name in names
        if not name.endswith(".html") and not name.startswith("."))
    # Beside the files, the languages' catalogs, made from the catalog files at start.
    catalogs = [f"i18n/{language}.json" for language in ("en", "es", "ru")]
    assert sorted(re.sub(r"^v/[0-9a-f]+/", "", asset) for asset in listed["assets"]) == sorted(on_disk + catalogs)
    for asset in listed["assets"]:
        assert fetch(f"{server.url}/{asset}")[0] == 200, asset
    assert all(a.startswith(f"v/{listed['version']}/") for a in listed["assets"] if re.search(r"(^|/)(css|js)/", a))


def test_a_changed_file_gets_a_new_version():
    folder = tempfile.mkdtemp(prefix="guesswork-public-")
    copy = os.path.join(folder, "Public")
    shutil.copytree(PUBLIC, copy)
    try:
        with Server(env={"GUESSWORK_PUBLIC_DIR": copy}) as first:
            before = json.loads(fetch(first.url + "/assets.json")[2])["version"]
        with open(os.path.join(copy, "css", "app.css"), "a") as f:
            f.write("\n/* changed */\n")
        with Server(env={"GUESSWORK_PUBLIC_DIR": copy}) as second:
            after = json.loads(fetch(second.url + "/assets.json")[2])["version"]
            page = fetch(second.url + "/index.html")[2].decode()
        assert before != after and f"v/{after}/css/app.css" in page
    finally:
        shutil.rmtree(folder)


def test_ranges_of_a_file(server):
    with open(os.path.join(PUBLIC, "css", "app.css"), "rb") as f:
        original = f.read()
    status, headers, body = fetch(server.url + "/css/app.css", {"Range": "bytes=10-19"})
    assert status == 206 and body == original[10:20]
    assert headers["Content-Range"] == f"bytes 10-19/{len(original)}" and headers["Content-Length"] == "10"
    status, headers, body = fetch(server.url + "/css/app.css", {"Range": "bytes=-5"})
    assert status == 206 and body == original[-5:]
    status, _, body = fetch(server.url + "/css/app.css", {"Range": f"bytes={len(original) - 3}-"})
    assert status == 206 and body == original[-3:]
    # Past the end: 416 with the length (Hummingbird's FileMiddleware answered 206 with a
    # negative Content-Length).
    status, headers, body = fetch(server.url + "/css/app.css", {"Range": "bytes=99999-"})
    assert status == 416 and headers["Content-Range"] == f"bytes */{len(original)}" and body == b""
    # What this does not read (several ranges) gets the whole file.
    status, _, body = fetch(server.url + "/css/app.css", {"Range": "bytes=0-1,5-6"})
    assert status == 200 and body == original
