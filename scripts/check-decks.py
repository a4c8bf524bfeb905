#!/usr/bin/env python3
"""Checks the Picture Quiz decks' translations (issue 17). Standard library only.

Every deck in Sources/GuessworkContent/Resources/decks (or the files given as arguments)
must parse as JSON and have:
- "languages" with "es" and "ru", each with the strings "title", "question", "noun" and
  "credit" (only "noun" may be empty, and like the English one it is at most 40 characters);
- "{answer}" in the English question and in each translated one;
- on every item, "names" with non-empty "es" and "ru";
- no two items sharing a name in one language (English included): the quiz would then have
  two right answers;
- in the emoji decks, Russian names written in Cyrillic (no Latin letters).
Prints every problem and exits 1 if there is any, else prints a line per deck.
"""
import json
import sys
import unicodedata
from pathlib import Path

LANGUAGES = ("es", "ru")
FIELDS = ("title", "question", "noun", "credit")
NOUN_LIMIT = 40  # PictureQuizGame.Settings refuses a longer noun
DECKS = Path(__file__).resolve().parent.parent / "Sources/GuessworkContent/Resources/decks"


def is_cyrillic(text):
    """Every letter is Cyrillic; spaces, hyphens and other punctuation may appear."""
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and all("CYRILLIC" in unicodedata.name(c, "") for c in letters)


def check(path):
    problems = []
    try:
        deck = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        return [f"does not parse: {error}"], 0
    if not isinstance(deck, dict):
        return ["is not a JSON object"], 0

    if "{answer}" not in str(deck.get("question", "")):
        problems.append("the English question lacks {answer}")

    languages = deck.get("languages")
    if not isinstance(languages, dict):
        problems.append('no "languages" object')
        languages = {}
    for lang in LANGUAGES:
        texts = languages.get(lang)
        if not isinstance(texts, dict):
            problems.append(f'languages: no "{lang}"')
            continue
        for field in FIELDS:
            value = texts.get(field)
            if not isinstance(value, str):
                problems.append(f"languages.{lang}: no {field}")
            elif field != "noun" and not value.strip():
                problems.append(f"languages.{lang}.{field} is empty")
        question = texts.get("question")
        if isinstance(question, str) and "{answer}" not in question:
            problems.append(f"languages.{lang}.question lacks {{answer}}: {question!r}")
        noun = texts.get("noun")
        if isinstance(noun, str) and len(noun) > NOUN_LIMIT:
            problems.append(f"languages.{lang}.noun is longer than {NOUN_LIMIT} characters")

    items = deck.get("items")
    if not isinstance(items, list) or not items:
        problems.append('no "items"')
        items = []
    emoji_deck = any(isinstance(i, dict) and i.get("emoji") for i in items)
    seen = {lang: {} for lang in ("en",) + LANGUAGES}
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            problems.append(f"item {index} is not an object")
            continue
        label = f"item {index} ({item.get('name')!r})"
        names = item.get("names")
        if not isinstance(names, dict):
            problems.append(f'{label}: no "names"')
            names = {}
        spelled = {"en": item.get("name")}
        for lang in LANGUAGES:
            name = names.get(lang)
            if not isinstance(name, str) or not name.strip():
                problems.append(f"{label}: no {lang} name")
            else:
                spelled[lang] = name
                if name != name.strip():
                    problems.append(f"{label}: the {lang} name has spaces around it")
        if emoji_deck and isinstance(spelled.get("ru"), str) and not is_cyrillic(spelled["ru"]):
            problems.append(f"{label}: the ru name is not Cyrillic: {spelled['ru']!r}")
        for lang, name in spelled.items():
            if not isinstance(name, str):
                continue
            key = " ".join(name.casefold().split())
            if key in seen[lang]:
                problems.append(
                    f"{label}: the {lang} name {name!r} is also item {seen[lang][key]}'s")
            else:
                seen[lang][key] = index
    return problems, len(items)


def main(arguments):
    paths = [Path(a) for a in arguments] or sorted(DECKS.glob("*.json"))
    if not paths:
        print(f"no decks found in {DECKS}")
        return 1
    failed = False
    for path in paths:
        problems, count = check(path)
        if problems:
            failed = True
            for problem in problems:
                print(f"{path.name}: {problem}")
        else:
            print(f"ok: {path.name} ({count} items, named in en, {', '.join(LANGUAGES)})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
