"""`guesswork play` in a real pseudo-terminal: every game from start to end, the terminal given
back afterwards, plain output without a terminal or with NO_COLOR, the too-small message, the
settings' errors, and the statistics (`guesswork stats` and the browser's, which must agree).

Keys go in through pexpect; pyte renders what the program drew, so the assertions read the
screen as a player would.
"""
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import pexpect
import pyte
import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "support"))
from server import Client, Server, binary  # noqa: E402

DATA = tempfile.mkdtemp(prefix="guesswork-terminal-")
ESC = b"\x1b"
LEAVE = b"\x1b[?25h\x1b[?1049l"  # show the cursor, leave the alternate screen


def environment(**extra):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/tmp"),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
    }
    env.update(extra)
    return env


class Term:
    """A program in a pseudo-terminal, with its screen rendered by pyte."""

    def __init__(self, args, columns=100, rows=32, env=None, wrap_stty=False):
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        if wrap_stty:
            # A shell records the terminal's modes before and after, and the exit status.
            command = (
                "stty -g > {d}/before; {cmd}; echo \"exit=$?\" > {d}/status; stty -g > {d}/after"
            ).format(d=shlex.quote(DATA), cmd=" ".join(shlex.quote(a) for a in args))
            self.child = pexpect.spawn(
                "/bin/sh", ["-c", command], dimensions=(rows, columns), env=env or environment()
            )
        else:
            self.child = pexpect.spawn(
                args[0], args[1:], dimensions=(rows, columns), env=env or environment()
            )

    def drain(self, wait=0.15):
        deadline = time.time() + 0.5
        try:
            while time.time() < deadline:
                data = self.child.read_nonblocking(1 << 16, timeout=wait)
                self.raw += data
                self.stream.feed(data)
        except (pexpect.TIMEOUT, pexpect.EOF):
            pass

    def text(self):
        self.drain()
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for_lower(self, pattern, timeout=10):
        """Like wait_for, ignoring case (hex codes)."""
        return self.wait_for("(?i)" + pattern, timeout)

    def wait_for(self, pattern, timeout=10):
        deadline = time.time() + timeout
        while time.time() < deadline:
            text = self.text()
            if re.search(pattern, text):
                return text
        raise AssertionError(f"{pattern!r} never showed; the screen was:\n{self.text()}")

    def send(self, keys):
        self.child.send(keys)

    def finish(self, timeout=10):
        self.child.expect(pexpect.EOF, timeout=timeout)
        self.raw += self.child.before or b""
        self.child.close()
        return self.child


def play(*args, **kwargs):
    return Term([binary(), "play", *args, "--data-dir", DATA, "--name", "Tess"], **kwargs)


def assert_restored(term):
    """The program left the alternate screen and showed the cursor again, and the terminal's
    modes are what they were before it started."""
    assert LEAVE in term.raw, term.raw[-200:]
    assert term.raw.rfind(LEAVE) > term.raw.rfind(b"\x1b[?1049h")
    with open(os.path.join(DATA, "before")) as f:
        before = f.read().strip()
    with open(os.path.join(DATA, "after")) as f:
        after = f.read().strip()
    assert before == after, (before, after)


def status():
    with open(os.path.join(DATA, "status")) as f:
        return f.read().strip()


# --- The five games, start to end -----------------------------------------------------------


def test_number_by_halving_to_a_win_then_the_analysis():
    term = play("number", "--seed", "7", "--attempts", "7", wrap_stty=True)
    text = term.wait_for("five attempts|seven attempts")
    assert "I've picked a number from 0 to 99" in text
    low, high = 0, 99
    for _ in range(7):
        guess = (low + high) // 2
        term.send(str(guess).rjust(2, "0"))
        term.wait_for("Backspace")  # redrawn
        term.send("\r")
        text = term.wait_for(rf"lower than {guess}|higher than {guess}|You got it")
        if "You got it" in text:
            break
        if f"lower than {guess}" in text:
            high = guess - 1
        else:
            low = guess + 1
        assert f"between {low} and {high}" in text or f"number is {low}" in text
    assert "You got it" in text and f"My number was {guess}" in text
    assert "perfect halving strategy needs at most 7 tries for 100 numbers" in text
    assert "Seed 7" in text
    term.send("q")
    term.finish()
    assert_restored(term)
    assert status() == "exit=0"


def test_number_refuses_a_repeat_without_spending_an_attempt():
    term = play("number", "--seed", "7")
    term.wait_for("five attempts")
    term.send("99\r")
    text = term.wait_for("Four attempts left")
    term.send("\x7f\x7f99\r")
    text = term.wait_for("You already guessed 99")
    assert "Four attempts left" in text
    term.send("q")
    term.finish()


def test_color_match_countdown_answers_and_report():
    term = play("color-match", "--seed", "3", "--duration", "30", wrap_stty=True)
    text = term.wait_for(r"MEANING match")
    assert re.search(r"0:30\.0", text)
    term.wait_for("Does the top word's meaning match", timeout=6)
    answers = 0
    for key in ["\x1b[C", "\x1b[D", "y", "n"]:
        term.wait_for("Does the top word's meaning match")
        term.send(key)
        term.wait_for("✓|✗")
        answers += 1
    text = term.wait_for(r"Streak")
    term.send("q")
    text = term.wait_for("You quit the round")
    assert f"Trials: {answers}" in text
    assert "Interference effect" in text and "Mean reaction, congruent" in text
    term.send("q")
    term.finish()
    assert_restored(term)


def test_bullseye_round_with_typed_values_and_big_steps():
    term = play("bullseye", "--seed", "5", "--rounds", "2", wrap_stty=True)
    text = term.wait_for("Round 1 of 2")
    assert "target" in text and "#808080" in text
    term.send("r")
    term.send("200")
    term.wait_for_lower("#c88080")
    term.send("g\x1b[1;2C")  # Shift+→: +16
    term.wait_for_lower("#c89080")
    term.send("\x1b[B\x1b[6~")  # ↓ to blue, PgDn: −16
    term.wait_for_lower("#c89070")
    term.send("\r")
    text = term.wait_for(r"points: ΔE")
    assert re.search(r"\d+ points: ΔE \d+(\.\d)?\.", text)
    # What the difference means to the eye, in words, under the score.
    assert re.search(r"perceptible|close look|at a glance|clearly different|opposite", text), text
    assert "#c89070" in text.lower()
    term.send("\r")
    term.wait_for("Round 2 of 2")
    term.send("\r")
    text = term.wait_for(r"Game over: \d+ of 200 points")
    assert "Round 1:" in text and "Round 2:" in text
    term.send("q")
    term.finish()
    assert_restored(term)


def test_guess_or_pass_round_with_the_end_list():
    term = play("guess-or-pass", "--seed", "2", "--category", "animals", "--duration", "30")
    text = term.wait_for("Starting in")
    assert "Guess or Pass · Animals" in text
    text = term.wait_for(r"Time left: 30 s", timeout=8)
    assert "█" in text  # the word in large letters, and the timer bar
    words = []
    for key in ["\x1b[C", " ", "\x1b[D"]:
        text = term.wait_for("Time left")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        words.append(lines[-2])  # the word in small letters under the large ones
        term.send(key)
        term.wait_for("guessed|passed")
    term.send("q")
    text = term.wait_for("You guessed 2 words!")
    assert f"Guessed: {words[0]}, {words[1]}" in text
    assert f"Passed: {words[2]}" in text
    term.send("q")
    term.finish()


def test_picture_quiz_to_the_final_score_and_misses():
    term = play("picture-quiz", "--seed", "4", "--deck", "animals", "--questions", "2")
    text = term.wait_for("Question 1 of 2")
    assert re.search(r"Choose the \w+", text)
    term.send("1")
    text = term.wait_for("Correct|Wrong!")
    assert "with 1 question remaining" in text
    term.send("\r")
    term.wait_for("Question 2 of 2")
    term.send("2")
    text = term.wait_for("Game over! Your final score was")
    assert "No misses!" in text or "Missed:" in text
    term.send("q")
    term.finish()


def test_the_menu_starts_a_game_and_esc_goes_back():
    term = Term([binary(), "play", "--data-dir", DATA, "--name", "Tess"])
    text = term.wait_for("Pick a game")
    for title in ["Guess the Number", "Color Match", "Bullseye", "Guess or Pass", "Picture Quiz"]:
        assert title in text
    term.send("\x1b[B\x1b[B\x1b[B\r")
    term.wait_for("Pick a category")
    term.send("\x1b")
    term.wait_for("Pick a game")
    term.send("1")
    term.wait_for("I've picked a number")
    term.send("q")
    term.finish()


# --- The terminal is given back --------------------------------------------------------------


def test_ctrl_c_restores_the_terminal():
    term = play("number", "--seed", "1", wrap_stty=True)
    term.wait_for("five attempts")
    term.send("\x03")
    term.finish()
    assert_restored(term)
    assert status() == "exit=130"


def test_sigterm_restores_the_terminal_then_ends_by_the_signal():
    term = play("color-match", "--seed", "1", "--duration", "30")
    term.wait_for("Color Match")
    term.child.kill(signal.SIGTERM)
    child = term.finish()
    assert LEAVE in term.raw
    assert child.signalstatus == signal.SIGTERM


def test_24_bit_colour_when_the_terminal_says_so_else_256():
    term = play("bullseye", "--seed", "5", env=environment(COLORTERM="truecolor"))
    term.wait_for("Round 1")
    term.send("q")
    term.finish()
    assert b"48;2;128;128;128" in term.raw  # the guess swatch, mid grey
    term = play("bullseye", "--seed", "5")
    term.wait_for("Round 1")
    term.send("q")
    term.finish()
    assert b"48;2;" not in term.raw and b"48;5;" in term.raw


def test_a_too_small_terminal_gets_a_clear_message():
    term = play("number", "--seed", "1", columns=30, rows=10)
    text = term.wait_for("too small")
    assert "30×10" in text and "40×12" in text
    term.send("q")
    term.finish()


# --- Plain text ----------------------------------------------------------------------------


def test_no_color_in_a_terminal_is_plain_text():
    term = play("number", "--seed", "7", "--attempts", "1", env=environment(NO_COLOR="1"))
    term.wait_for("one attempt")
    term.send("0\r")
    term.wait_for("My number was")
    term.send("q")
    term.finish()
    assert ESC not in term.raw
    assert b"Out of attempts!" in term.raw or b"You got it" in term.raw


def test_output_that_is_not_a_terminal_is_plain_text():
    keys = b"50\r25\r"
    result = subprocess.run(
        [binary(), "play", "number", "--seed", "7", "--data-dir", DATA, "--name", "Tess"],
        input=keys, capture_output=True, timeout=60, env=environment(),
    )
    assert result.returncode == 0, result.stderr
    assert ESC not in result.stdout
    out = result.stdout.decode()
    assert "I've picked a number from 0 to 99" in out
    assert "Four attempts left" in out and "Three attempts left" in out


def test_the_same_seed_replays_the_same_game():
    def secret(seed):
        result = subprocess.run(
            [binary(), "play", "number", "--seed", seed, "--attempts", "1", "--data-dir", DATA],
            input=b"0\r", capture_output=True, timeout=60, env=environment(),
        )
        return re.search(r"My number was (\d+)", result.stdout.decode()).group(1)

    assert secret("12345") == secret("12345")
    assert len({secret(str(seed)) for seed in range(1, 6)}) > 1


# --- Settings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (["number", "--attempts", "0"], "attempts must be a whole number from 1 to 20"),
        (["number", "--low", "50", "--high", "55"], "high must be a whole number from 59 to"),
        (["color-match", "--duration", "10"], "duration must be a whole number from 30 to 120"),
        (["bullseye", "--rounds", "11"], "rounds must be a whole number from 1 to 10"),
        (["guess-or-pass", "--duration", "500"], "duration must be a whole number from 30 to 180"),
        (["guess-or-pass", "--category", "cars"], "category must be one of animals"),
        (["picture-quiz", "--choices", "7"], "choices must be a whole number from 2 to 6"),
        (["bullseye", "--set", "rounds=11"], "rounds must be a whole number from 1 to 10"),
        (["bullseye", "--set", "scoring=loose"], "scoring must be one of perceptual, classic"),
        (["color-match", "--set", "feedback-ms=5000"], "feedbackMs must be a whole number from 0 to 2,000"),
        (["number", "--set", "sides=3"], "sides is not a setting of this game: choose one of low, high, attempts"),
        (["number", "--sides", "3"], "unknown option --sides for number"),
        (["chess"], "game must be one of number, color-match"),
    ],
)
def test_an_invalid_setting_exits_64_with_the_cores_message(args, message):
    result = subprocess.run(
        [binary(), "play", *args, "--data-dir", DATA], capture_output=True, timeout=60,
        env=environment(),
    )
    assert result.returncode == 64, (result.returncode, result.stderr)
    assert message in result.stderr.decode()


def test_help_explains_the_controls():
    result = subprocess.run([binary(), "play", "--help"], capture_output=True, timeout=60)
    out = result.stdout.decode()
    for words in ["Backspace", "PgUp/PgDn", "Space", "NO_COLOR", "--seed", "--name", "--set"]:
        assert words in out, words


def test_help_lists_every_games_settings_from_the_catalog():
    """The settings in `guesswork play --help` are the ones the server's catalog offers."""
    import json
    import urllib.request
    help_text = " ".join(subprocess.run(
        [binary(), "play", "--help"], capture_output=True, timeout=60).stdout.decode().split())
    with Server() as server, urllib.request.urlopen(server.url + "/api/catalog") as response:
        catalog = json.load(response)
    for game in catalog["games"]:
        for setting in game["settings"]:
            option = "".join("-" + c.lower() if c.isupper() else c for c in setting["name"])
            if setting["kind"] in ("integer", "number"):
                assert f"{option} {setting['min']}…{setting['max']}" in help_text, (game["id"], option)
            else:
                assert option in help_text, (game["id"], option)


# --- Statistics ----------------------------------------------------------------------------


def test_the_daily_number_counts_once_and_ends_with_a_share_text():
    data = tempfile.mkdtemp(prefix="guesswork-daily-")
    args = [binary(), "play", "number", "--daily", "--data-dir", data, "--name", "Dee"]
    term = Term(args)
    # The daily gives seven attempts for 0...99: halving always wins.
    text = term.wait_for("seven attempts")
    low, high = 0, 99
    for _ in range(7):
        guess = (low + high) // 2
        term.send(str(guess).rjust(2, "0"))
        term.wait_for("Backspace")
        term.send("\r")
        text = term.wait_for(rf"lower than {guess}|higher than {guess}|You got it|My number was")
        if "You got it" in text or "My number was" in text:
            break
        if f"lower than {guess}" in text:
            high = guess - 1
        else:
            low = guess + 1
    assert "You got it" in term.wait_for("My number was|You got it"), "halving found it"
    term.send("\r")  # "play again" does not replay a daily: it ends
    child = term.finish()
    assert child.exitstatus == 0
    after = term.raw[term.raw.rfind(LEAVE):].decode()
    share = re.search(r"Guesswork · Guess the Number #(\d+)\r?\n(\S+) ([1-7X])/7", after)
    assert share, after
    assert set(share.group(2)) <= set("⬆⬇✅\ufe0f"), share.group(2)
    # A second attempt the same day is refused, and says why.
    again = subprocess.run(args, capture_output=True, timeout=60, env=environment())
    assert again.returncode == 1, again
    assert f"already played today's Guess the Number (#{share.group(1)})" in again.stderr.decode()
    stats = subprocess.run([binary(), "stats", "--data-dir", data], capture_output=True, timeout=60,
                           env=environment())
    assert re.search(r"daily streak\s+1 \(best 1\)", stats.stdout.decode()), stats.stdout.decode()
    # The daily takes no settings of its own.
    fixed = subprocess.run(args + ["--attempts", "9"], capture_output=True, timeout=60, env=environment())
    assert fixed.returncode == 64 and b"own settings" in fixed.stderr


def test_zz_stats_show_the_games_played_and_agree_with_the_browser():
    result = subprocess.run(
        [binary(), "stats", "--data-dir", DATA], capture_output=True, timeout=60, env=environment()
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert ESC not in result.stdout
    assert "Statistics of Tess" in out
    for title in ["Guess the Number", "Color Match", "Bullseye", "Guess or Pass", "Picture Quiz"]:
        block = out.split(title, 1)[1]
        played = int(re.search(r"played\s+(\d+)", block).group(1))
        assert played >= 1, (title, out)
    assert "│█" in out or "│" in out  # the bar chart
    # The same statistics in Russian (--lang), titles and labels from the catalog.
    russian = subprocess.run(
        [binary(), "stats", "--data-dir", DATA, "--lang", "ru"], capture_output=True, timeout=60,
        env=environment(),
    ).stdout.decode()
    assert "Статистика: Tess" in russian and "Угадай число" in russian and "сыграно" in russian, russian
    token_path = os.path.join(DATA, "guesswork-local-player")
    assert oct(os.stat(token_path).st_mode & 0o777) == "0o600"

    local = json.loads(
        subprocess.run(
            [binary(), "stats", "--data-dir", DATA, "--json"], capture_output=True, timeout=60
        ).stdout
    )
    with Server(data_dir=DATA) as server:
        printed = subprocess.run(
            [binary(), "stats", "--data-dir", DATA, "--browser-link", "--port", str(server.port)],
            capture_output=True, timeout=60,
        ).stdout.decode().strip().splitlines()
        link = printed[0]
        prefix = f"http://127.0.0.1:{server.port}/link.html#"
        assert link.startswith(prefix) and "once" in printed[1] and "Tess" in printed[1], printed
        code = link[len(prefix):]
        with open(token_path) as f:
            assert f.read().strip() not in link, "the link must not carry the player's token"
        browser = Client(server.url)
        status, _, info = browser.get(f"/api/link-codes/{code}")
        assert status == 200 and info["player"]["name"] == "Tess" and info["current"] is None
        status, _, me = browser.post(f"/api/link-codes/{code}", {})
        assert status == 200 and me["name"] == "Tess"
        status, _, stats = browser.get("/api/me/stats")
        assert status == 200
        assert stats == local
        assert Client(server.url).post(f"/api/link-codes/{code}", {})[0] == 404, "a code works once"
    # The terminal's own key still works: its statistics read as before.
    again = json.loads(
        subprocess.run(
            [binary(), "stats", "--data-dir", DATA, "--json"], capture_output=True, timeout=60
        ).stdout
    )
    assert again == local


def test_a_resize_redraws_the_screen():
    term = play("number", "--seed", "1")
    term.wait_for("five attempts")
    term.child.setwinsize(10, 30)  # SIGWINCH
    term.screen.resize(10, 30)
    term.wait_for("too small")
    term.child.setwinsize(32, 100)
    term.screen.resize(32, 100)
    text = term.wait_for("five attempts")
    assert "too small" not in text
    term.send("q")
    term.finish()


# --- Languages ---------------------------------------------------------------------------------

# The original app's Russian sentences (docs/originals/guess-the-number.md quotes its source).
ORIGINAL_INTRO = "Я загадал число от 0 до 99. У вас есть 5 попыток чтобы отгадать его!"


def test_number_in_russian_speaks_as_the_original_app():
    """LANG=ru_RU.UTF-8: the game says what the original Russian app said, to the last hint."""
    term = play("number", "--seed", "7", env=environment(LANG="ru_RU.UTF-8"), wrap_stty=True)
    text = term.wait_for("Угадай число")
    # The screen wraps long lines: compare with the spaces of the wrapped text folded.
    flat = " ".join(text.split())
    assert ORIGINAL_INTRO in flat, flat
    assert "У вас пять попыток" in flat
    assert "Диапазон - от 0 до 99" in flat
    low, high = 0, 99
    for left in ["четыре попытки", "три попытки", "две попытки", "последняя попытка"]:
        guess = (low + high) // 2
        term.send(str(guess).rjust(2, "0") + "\r")
        text = term.wait_for(rf"Мое число (больше|меньше) {guess}|Вы угадали")
        if "Вы угадали" in text:
            break
        flat = " ".join(text.split())
        if f"Мое число меньше {guess}" in flat:
            high = guess - 1
        else:
            low = guess + 1
        assert f"Диапазон - от {low} до {high}" in flat or f"Это число {low}" in flat, flat
        assert f"У вас {left}" in flat, flat
    term.send("q")
    term.finish()
    assert_restored(term)
    assert status() == "exit=0"


def test_number_lost_in_russian_tells_the_number_as_the_original():
    term = play("number", "--seed", "7", "--attempts", "1", env=environment(LANG="ru_RU.UTF-8"))
    term.wait_for("Угадай число")
    term.send("00\r")
    text = " ".join(term.wait_for(r"Кстати|угадали").split())
    if "Кстати" in text:
        assert "Нет, но давайте сыграем заново!" in text
        assert re.search(r"Кстати, мое число было \d+", text), text
    term.send("q")
    term.finish()


def test_lang_option_beats_the_environment():
    term = play("number", "--seed", "7", "--lang", "es", env=environment(LANG="ru_RU.UTF-8"))
    text = " ".join(term.wait_for("Adivina").split())
    assert "Я загадал" not in text
    assert "intentos" in text, text
    term.send("q")
    term.finish()
