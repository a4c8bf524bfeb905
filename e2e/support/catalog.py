"""Messages as an English-speaking player reads them: the game views carry catalog keys and
arguments ({"key": ..., "args": ...}); these tests read them through the English catalog, with
the same rules as the server and the pages (exact "=N" forms, then one/other, {placeholders},
numbers written "10,000")."""

import json
import os
import re

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
FOLDER = os.path.join(ROOT, "Sources", "GuessworkContent", "Resources", "i18n", "en")


def _load():
    """Every area of English: <area>.json and each game's games/<id>.json."""
    entries = {}
    for folder in (FOLDER, os.path.join(FOLDER, "games")):
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    entries.update(json.load(f))
    return entries


ENGLISH = _load()


def _number(value):
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{int(value):,}" if value == int(value) else repr(value)
    return str(value)


def said(message):
    """A message ({"key", "args"}) in English words; a plain string as it is; None as None."""
    if message is None or isinstance(message, str):
        return message
    args = message.get("args") or {}
    entry = ENGLISH.get(message["key"], message["key"])
    if isinstance(entry, dict):
        count = args.get("count")
        template = (
            entry.get(f"={count}") if count is not None and f"={count}" in entry
            else entry.get("one") if count == 1 and "one" in entry
            else entry["other"]
        )
    else:
        template = entry

    def fill(match):
        name = match.group(1)
        value = args.get(name)
        if isinstance(value, dict) and "key" in value:
            return said({"key": value["key"]})
        return match.group(0) if value is None else _number(value)

    text = re.sub(r"\{(\w+)\}", fill, template.replace("{{", "\0").replace("}}", "\1"))
    return text.replace("\0", "{").replace("\1", "}")
