"""Coin Flip, the test-only sixth game (Sources/ExampleGames/CoinFlip), played end to end.

`guesswork-examples` (GUESSWORK_EXAMPLES_BIN) plays the five games and Coin Flip; its page module
(js/games/coin-flip.js, css/games/coin-flip.css) and its catalogs (i18n/<lang>/games/coin-flip.json)
live here, in e2e/support/examples/, and ship in no product. `ExamplesServer` lays them over a copy
of this working copy's pages and catalogs and serves those (GUESSWORK_PUBLIC_DIR,
GUESSWORK_I18N_DIR): a sixth game added the way the recipe says, with nothing of it in the shared
files.
"""
import os
import shutil
import tempfile

from support.server import ROOT, Server, examples_binary

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "examples")
PUBLIC = os.path.join(ROOT, "Sources", "GuessworkServer", "Public")
I18N = os.path.join(ROOT, "Sources", "GuessworkContent", "Resources", "i18n")


def example_folders(into):
    """Copies of the pages and catalogs with the example games' files added, under `into`;
    returns the environment that serves them."""
    public = os.path.join(into, "public")
    i18n = os.path.join(into, "i18n")
    shutil.copytree(PUBLIC, public)
    shutil.copytree(os.path.join(EXAMPLES, "public"), public, dirs_exist_ok=True)
    shutil.copytree(I18N, i18n)
    shutil.copytree(os.path.join(EXAMPLES, "i18n"), i18n, dirs_exist_ok=True)
    return {"GUESSWORK_PUBLIC_DIR": public, "GUESSWORK_I18N_DIR": i18n}


class ExamplesServer(Server):
    """A running `guesswork-examples serve` with Coin Flip's page and catalogs."""

    def __init__(self, env=None, **options):
        self.folders = tempfile.mkdtemp(prefix="guesswork-examples-")
        super().__init__(env={**example_folders(self.folders), **(env or {})}, program=examples_binary(), **options)

    def cleanup(self):
        super().cleanup()
        shutil.rmtree(self.folders, ignore_errors=True)
