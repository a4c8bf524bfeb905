#!/usr/bin/env python3
"""Checks the Spanish and Russian Guess or Pass word lists (issue 17).

For each language directory (es, ru) under Sources/GuessworkContent/Resources/words it checks
every rule a program can check:

- each category file (animals, food, sports, technology, music, nature) exists and has
  220-240 entries (at least 200 are needed after cleaning);
- each entry is lowercase, trimmed, one word or a two-word phrase separated by one space;
- each word is made of letters and inner hyphens only (str.isalpha on the hyphen pieces),
  at most 24 letters, in the language's script (Latin for es, Cyrillic for ru);
- no entry is repeated within a file, nor appears in another category of the same language;
- no entry, word of it or hyphen piece of a word is on the language's blocklist;
- the blocklist starts with a comment, has 30-60 lowercase entries, no duplicates, and is
  in the language's script.

Prints a summary line per file and exits non-zero on any failure. Standard library only.
Usage: scripts/check-words.py [LANG ...]
"""

import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = ROOT / "Sources" / "GuessworkContent" / "Resources" / "words"
CATEGORIES = ["animals", "food", "sports", "technology", "music", "nature"]
LANGUAGES = {"es": "LATIN", "ru": "CYRILLIC"}
MIN_ENTRIES, MAX_ENTRIES = 220, 240
MIN_BLOCKED, MAX_BLOCKED = 30, 60
MAX_LETTERS = 24


def in_script(text, script):
    """Whether every letter of `text` belongs to `script` ("LATIN" or "CYRILLIC")."""
    return all(
        not ch.isalpha() or unicodedata.name(ch, "").startswith(script + " ") for ch in text
    )


def read_lines(path):
    """The lines of `path` (UTF-8, no BOM), with their 1-based numbers."""
    data = path.read_bytes()
    problems = []
    if data.startswith(b"\xef\xbb\xbf"):
        problems.append("starts with a byte order mark")
    text = data.decode("utf-8-sig")
    if text and not text.endswith("\n"):
        problems.append("does not end with a newline")
    if "\r" in text:
        problems.append("has carriage returns")
    return list(enumerate(text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"),
                          start=1)), problems


def word_problems(entry, script):
    """What is wrong with one category entry (an empty list when nothing is)."""
    problems = []
    if entry != entry.strip():
        problems.append("leading or trailing space")
    if entry != entry.lower():
        problems.append("not lowercase")
    if entry.startswith("#"):
        problems.append("a comment in a category file")
    words = entry.split(" ")
    if not 1 <= len(words) <= 2:
        problems.append(f"{len(words)} words (1 or 2 allowed)")
    for word in words:
        if not word:
            problems.append("an empty word (two spaces?)")
            continue
        pieces = word.split("-")
        if not all(piece.isalpha() for piece in pieces):
            problems.append(f"'{word}': only letters and inner hyphens allowed")
        if len(word.replace("-", "")) > MAX_LETTERS:
            problems.append(f"'{word}': more than {MAX_LETTERS} letters")
    if not in_script(entry, script):
        problems.append(f"letters outside the {script.lower()} script")
    if unicodedata.normalize("NFC", entry) != entry:
        problems.append("not in Unicode normal form C")
    return problems


def blocked(entry, blocklist):
    """The blocklisted word an entry contains (whole entry, word or hyphen piece), or None."""
    if entry in blocklist:
        return entry
    for word in entry.split(" "):
        if word in blocklist:
            return word
        for piece in word.split("-"):
            if piece in blocklist:
                return piece
    return None


def check_blocklist(path, script):
    """The blocklist of `path` as a set, and a list of its problems."""
    if not path.exists():
        return set(), [f"{path} is missing"]
    lines, problems = read_lines(path)
    if not lines or not lines[0][1].startswith("#"):
        problems.append("does not start with a comment")
    entries = set()
    for number, line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        if line != line.strip() or line != line.lower():
            problems.append(f"line {number} '{line}': not trimmed and lowercase")
        if not in_script(line, script):
            problems.append(f"line {number} '{line}': letters outside the {script.lower()} script")
        if line in entries:
            problems.append(f"line {number} '{line}': duplicate")
        entries.add(line.strip())
    if not MIN_BLOCKED <= len(entries) <= MAX_BLOCKED:
        problems.append(f"{len(entries)} entries ({MIN_BLOCKED}-{MAX_BLOCKED} wanted)")
    return entries, problems


def check_language(lang):
    """Checks one language directory; prints its summary lines; returns the failure count."""
    script = LANGUAGES[lang]
    folder = WORDS / lang
    failures = 0

    blocklist, problems = check_blocklist(folder / "blocklist.txt", script)
    status = "ok" if not problems else "FAIL"
    print(f"{status:4} {lang}/blocklist.txt: {len(blocklist)} entries")
    for problem in problems:
        print(f"       {problem}")
    failures += len(problems)

    seen = {}  # entry -> first category it appears in
    for category in CATEGORIES:
        path = folder / f"{category}.txt"
        if not path.exists():
            print(f"FAIL {lang}/{category}.txt: missing")
            failures += 1
            continue
        lines, problems = read_lines(path)
        entries = []
        in_file = {}
        for number, line in lines:
            if not line:
                problems.append(f"line {number}: empty")
                continue
            for problem in word_problems(line, script):
                problems.append(f"line {number} '{line}': {problem}")
            hit = blocked(line, blocklist)
            if hit:
                problems.append(f"line {number} '{line}': '{hit}' is on the blocklist")
            if line in in_file:
                problems.append(f"line {number} '{line}': duplicate of line {in_file[line]}")
                continue
            in_file[line] = number
            if line in seen:
                problems.append(f"line {number} '{line}': also in {seen[line]}")
            else:
                seen[line] = category
            entries.append(line)
        if not MIN_ENTRIES <= len(entries) <= MAX_ENTRIES:
            problems.append(f"{len(entries)} entries ({MIN_ENTRIES}-{MAX_ENTRIES} wanted)")
        status = "ok" if not problems else "FAIL"
        print(f"{status:4} {lang}/{category}.txt: {len(entries)} entries")
        for problem in problems:
            print(f"       {problem}")
        failures += len(problems)
    return failures


def main(argv):
    languages = argv[1:] or list(LANGUAGES)
    unknown = [lang for lang in languages if lang not in LANGUAGES]
    if unknown:
        print(f"unknown language(s): {', '.join(unknown)}; known: {', '.join(LANGUAGES)}")
        return 2
    failures = sum(check_language(lang) for lang in languages)
    print("all word lists pass" if not failures else f"{failures} problem(s)")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
