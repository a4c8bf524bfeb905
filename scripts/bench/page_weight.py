"""Page weight: for every page, the bytes of HTML, CSS and JavaScript a first visit
downloads (as sent: the server gzips text), the number of requests (and whether any left the
server's origin), the time to first contentful paint in headless Chromium on loopback, and
what a second visit still asks the server for. Run: scripts/bench-pages."""
import os
import sys
import time
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "e2e"))
from support.server import Client, Server  # noqa: E402

PAGES = ["index.html", "settings.html", "stats.html", "number.html", "color-match.html",
         "bullseye.html", "guess-or-pass.html", "picture-quiz.html"]


def browser():
    options = webdriver.ChromeOptions()
    options.add_argument("--headless=new")
    options.add_argument("--no-sandbox")
    options.add_argument("--window-size=1280,800")
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def measure(driver, url, origin, first_visit=True):
    if first_visit:  # nothing kept: no HTTP cache, no service worker or its cache (the cookie stays)
        driver.execute_cdp_cmd("Network.clearBrowserCache", {})
        driver.execute_cdp_cmd("Storage.clearDataForOrigin",
                               {"origin": origin, "storageTypes": "service_workers,cache_storage"})
    driver.get(url)
    # The paint entry appears a moment after the load event.
    for _ in range(40):
        if driver.execute_script(
                "return performance.getEntriesByType('paint').some(p => p.name === 'first-contentful-paint')"):
            break
        time.sleep(0.05)
    return driver.execute_script("""
      const nav = performance.getEntriesByType('navigation')[0];
      const resources = performance.getEntriesByType('resource');
      const paint = performance.getEntriesByType('paint').find(p => p.name === 'first-contentful-paint');
      return {
        entries: [{name: nav.name, type: 'html', bytes: nav.encodedBodySize, sent: nav.transferSize}].concat(
          resources.map(r => ({name: r.name, type: r.initiatorType, bytes: r.encodedBodySize,
                               sent: r.transferSize}))),
        fcp: paint ? paint.startTime : null,
      };
    """)


def main():
    with Server() as server:
        driver = browser()
        try:
            driver.execute_cdp_cmd("Network.enable", {})
            driver.get(server.url + "/")
            # A player, so that every page shows what a player sees.
            driver.execute_script(
                "return fetch('/api/players', {method: 'POST', headers: {'Content-Type': 'application/json'},"
                " body: JSON.stringify({name: 'Weigher'})}).then(r => r.status)")
            print("| page | HTML | CSS | JS | other | requests | other origins | first contentful paint "
                  "| second visit: bytes from the server |")
            print("|---|---|---|---|---|---|---|---|---|")
            for page in PAGES:
                result = measure(driver, f"{server.url}/{page}", server.url)
                again = measure(driver, f"{server.url}/{page}", server.url, first_visit=False)
                resent = sum(entry["sent"] or 0 for entry in again["entries"]
                             if not urllib.parse.urlparse(entry["name"]).path.startswith("/api/"))
                kinds = {"html": 0, "css": 0, "js": 0, "other": 0}
                foreign = 0
                for entry in result["entries"]:
                    path = urllib.parse.urlparse(entry["name"]).path
                    if not entry["name"].startswith(server.url):
                        foreign += 1
                    kind = ("html" if entry["type"] == "html" or path.endswith(".html") else
                            "css" if path.endswith(".css") else
                            "js" if path.endswith(".js") else "other")
                    kinds[kind] += entry["bytes"] or 0
                total = kinds["html"] + kinds["css"] + kinds["js"]
                fcp = f"{result['fcp']:.0f} ms" if result["fcp"] is not None else "n/a"
                print(f"| {page} | {kinds['html']:,} | {kinds['css']:,} | {kinds['js']:,} | {kinds['other']:,} "
                      f"| {len(result['entries'])} | {foreign} | {fcp} | {resent:,} |"
                      f"  ({total / 1024:.1f} KB HTML+CSS+JS)")
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
