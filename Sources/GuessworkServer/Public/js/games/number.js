// Guess the Number: the digit pad sends key presses; the server keeps the display and rules.
import { GameSession, boot, resumeOrSetup, gameEntry, el, $, setText, say } from '../api.js';
import { settingsForm, readSettings } from '../settings-form.js';
import { play as sound } from '../sound.js';
import { celebrate, bestLines } from '../celebrate.js';
import { buildPad, renderDisplay } from '../digit-pad.js';
import { ready, t, tm, formatNumber } from '../i18n.js';

// Its line among the other games in the settings page's instructions ({game}: its title).
export const help = 'number.help.other';

// The solo page: its sections, after the title and status line of game.html (js/game-page.js
// puts them into the page and calls start).
export const solo = {
  markup: `
<section id="setup" class="panel" hidden aria-labelledby="setup-title">
  <h2 id="setup-title" data-i18n="number.setup.title">New game</h2>
  <form id="setup-form">
    <div id="settings"></div>
    <button type="submit" id="start" data-i18n="play.start">Start</button>
  </form>
</section>

<section id="over" class="panel" hidden aria-labelledby="over-title" tabindex="-1">
  <h2 id="over-title"></h2>
  <p id="over-score"></p>
  <div class="daily-end" data-daily-end hidden></div>
  <p id="analysis"></p>
  <ul class="guess-list" id="end-guesses"></ul>
  <div class="row"><button id="again" type="button" data-new-game data-i18n="play.playAgain">Play again</button><a class="button secondary" href="stats.html" data-i18n="play.statistics">Statistics</a></div>
</section>

<div id="play" class="number-layout" hidden>
  <section class="panel" id="hint-panel" aria-labelledby="guess-title">
    <h2 id="guess-title" class="sr-only" data-i18n="number.guess.title">Your guess</h2>
    <!-- One hint (the game's own sentence) and the bar of the range still open: the bar's
         words are for screen readers, its ends are drawn under it. -->
    <p class="hint" id="message" aria-live="polite"></p>
    <p class="sr-only" id="range-text"></p>
    <div class="rangebar" aria-hidden="true"><div class="known" id="range-known"></div></div>
    <div class="range-ends" aria-hidden="true"><span id="range-low"></span><span id="range-high"></span></div>
    <p><span class="attempts" id="attempts" aria-live="polite"></span></p>
  </section>
  <section class="panel" id="pad-panel" aria-labelledby="pad-title">
    <h2 id="pad-title" class="sr-only" data-i18n="number.pad.title">Digit pad</h2>
    <div class="display" id="display" role="img" aria-label="Nothing typed" data-i18n-attr="aria-label:number.display.empty"></div>
    <div class="pad" id="pad" role="group" aria-label="Digit pad (or type digits, Backspace and Enter)" data-i18n-attr="aria-label:number.pad.label"></div>
  </section>
  <!-- After the pad: a growing list must never push the pad off a phone's screen. -->
  <section class="panel" id="history-panel" aria-labelledby="history-title">
    <h2 id="history-title" data-i18n="number.history.title">Guesses</h2>
    <ul class="guess-list" id="guesses"></ul>
  </section>
</div>
`,
  start: main,
};

const session = new GameSession('number', render);

// The known range's ends under the bar, each under its end; when the range is too narrow for
// two labels, one label ("68–73", the high end drawn by CSS) under its middle, inside the bar.
function placeRangeEnds(v, span) {
  const low = $('#range-low');
  const high = $('#range-high');
  const width = low.parentElement.clientWidth;
  setText(low, formatNumber(v.knownLow));
  setText(high, formatNumber(v.knownHigh));
  low.classList.remove('joined');
  high.style.visibility = '';
  const lowLeft = ((v.knownLow - v.low) / span) * width;
  const highLeft = width - ((v.high - v.knownHigh) / span) * width - high.offsetWidth;
  if (lowLeft + low.offsetWidth + 8 <= highLeft) {
    low.style.left = `${lowLeft}px`;
    high.style.left = `${highLeft}px`;
    return;
  }
  high.style.visibility = 'hidden';
  low.dataset.high = formatNumber(v.knownHigh);
  low.classList.toggle('joined', v.knownLow !== v.knownHigh);
  const middle = (((v.knownLow + v.knownHigh + 1) / 2 - v.low) / span) * width;
  low.style.left = `${Math.min(Math.max(0, middle - low.offsetWidth / 2), width - low.offsetWidth)}px`;
}

function render(reply) {
  const v = reply.view;
  $('#setup').hidden = true;
  $('#play').hidden = v.isOver;
  // The banner says the last hint ("My number is higher than 50."); the view's short `hint` is
  // the same words again, so it is not shown, and the range is the bar.
  setText('#message', tm(v.message));
  setText('#range-text', tm(v.knownRangeText));
  const span = Math.max(1, v.high - v.low + 1);
  const bar = $('#range-known');
  bar.style.left = `${((v.knownLow - v.low) / span) * 100}%`;
  bar.style.width = `${Math.max(1.5, ((v.knownHigh - v.knownLow + 1) / span) * 100)}%`;
  placeRangeEnds(v, span);
  const attempts = $('#attempts');
  setText(attempts, tm(v.attemptsLeftText));
  attempts.classList.toggle('last', !!v.isLastAttempt && !v.isOver);
  renderDisplay($('#display'), v.display, v.displayWidth);
  $('#guesses').replaceChildren(...v.guesses.map((g) => el('li', { text: tm(g.text) })));
  for (const button of $('#pad').querySelectorAll('button')) button.disabled = v.isOver;
  soundGuess(reply.events);

  const over = $('#over');
  if (v.isOver) {
    const wasHidden = over.hidden;
    over.hidden = false;
    // The title says the secret ("Out of attempts! My number was 42."), once.
    setText('#over-title', tm(v.message));
    setText('#over-score', t('number.score', { score: reply.score }));
    renderAnalysis(v, reply.summary);
    celebrate(over, winLines(reply), session.endedNow);
    if (wasHidden) over.focus();
  } else {
    over.hidden = true;
  }
}

// A guess that missed sounds wrong; the winning one is cheered by the celebration.
function soundGuess(events) {
  const types = (events || []).map((e) => e.type);
  if (types.includes('guessed') && !types.includes('won')) sound('wrong');
}

function winLines(reply) {
  const v = reply.view;
  if (v.phase !== 'won') return [];
  return [t('number.win', { count: v.guesses.length }), ...bestLines(reply)];
}

// The end analysis from the reply's summary: the strategy in sentences (message objects; an
// older server sent one English `strategyText`), and each guess with a "½" badge when it halved
// the range that was still possible.
function strategy(v, summary) {
  if (summary && Array.isArray(summary.strategy)) return summary.strategy.map(tm).join(' ');
  return (summary && summary.strategyText) || tm(v.message);
}

function renderAnalysis(v, summary) {
  setText('#analysis', strategy(v, summary));
  const marks = (summary && summary.guesses) || [];
  $('#end-guesses').replaceChildren(...v.guesses.map((g, i) => {
    const halved = !!(marks[i] && marks[i].halved);
    return el('li', { class: halved ? 'halved' : '' }, tm(g.text),
      halved && el('span', { class: 'badge', 'aria-hidden': 'true', title: t('number.halved.title'), text: '½' }),
      halved && el('span', { class: 'sr-only', text: ` ${t('number.halved.spoken')}` }));
  }));
}

// A pad key is the game's action: the server keeps the display.
function press(key) {
  if (key === 'clear') session.act({ type: 'clear' });
  else if (key === 'enter') session.act({ type: 'enter' });
  else session.act({ type: 'digit', digit: Number(key) });
}

function onKey(event) {
  if (!session.view || session.view.isOver || $('#play').hidden) return;
  if (event.target.closest('input, select, textarea')) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (/^[0-9]$/.test(event.key)) {
    session.act({ type: 'digit', digit: Number(event.key) });
  } else if (event.key === 'Backspace') {
    session.act({ type: 'backspace' });
  } else if (event.key === 'Escape' || event.key === 'Delete') {
    session.act({ type: 'clear' });
  } else if (event.key === 'Enter') {
    // Enter submits the guess even when a pad key has focus (Space still presses that key).
    if (event.target.closest('button, a') && !event.target.closest('#pad')) return;
    session.act({ type: 'enter' });
  } else {
    return;
  }
  event.preventDefault();
}

function showSetup() {
  $('#play').hidden = true;
  $('#over').hidden = true;
  $('#setup').hidden = false;
  $('#start').focus();
}

// A new game with the form's settings; "Play again" repeats the last game's range and attempts.
async function start(previous) {
  const settings = readSettings($('#settings'));
  if (previous) Object.assign(settings, { low: previous.low, high: previous.high, attempts: previous.attemptsAllowed });
  try {
    await session.start({ settings });
    say('');
    $('#pad button').focus();
  } catch (e) {
    say(e.message, 'error');
  }
}

async function main() {
  await boot();
  await ready;
  buildPad($('#pad'), press);
  settingsForm(await gameEntry('number'), $('#settings'), { prefix: 'set-' });
  $('#setup-form').addEventListener('submit', (e) => { e.preventDefault(); start(null); });
  $('#again').addEventListener('click', () => { $('#over').hidden = true; start(session.view); });
  document.addEventListener('keydown', onKey);
  const resumed = await resumeOrSetup(session, showSetup);
  if (!resumed) { /* the setup form is shown */ }
}


// ---- In a room ----
// Guess the Number in a party room (js/room.js says what `room` holds): each player guesses the
// room's number on their own phone's digit pad, the digits sent as one guess; the shared screen
// asks for it, and the reveal says it.
import { markup } from '../room-parts.js';

export const room = {
  settings: ['low', 'high', 'attempts'],

  phone(area, ctx) {
    area.replaceChildren(markup(`
      <div id="nu" class="game-area room-number">
        <div class="nu-info">
          <p class="hint" id="nu-hint" aria-live="polite"></p>
          <p id="nu-range"></p>
          <p><span class="attempts" id="nu-attempts"></span></p>
          <div class="display" id="display" role="img" aria-label="Nothing typed" data-i18n-attr="aria-label:number.display.empty"></div>
        </div>
        <div class="pad" id="pad" role="group" aria-label="Digit pad (or type digits, Backspace and Enter)" data-i18n-attr="aria-label:number.pad.label"></div>
      </div>`));
    let rv = {};
    let typed = '';
    let sending = false;
    const width = () => rv.displayWidth || String(rv.high ?? 99).length;
    const guess = async () => {
      if (!typed) return;
      const number = Number(typed);
      typed = '';
      sending = true;
      ctx.redraw();
      const after = await ctx.send({ type: 'guess', number });
      sending = false;
      // A miss that leaves attempts: the game's hint comes back (a last guess is judged in the reveal).
      const next = after && after.round && after.round.view;
      if (next && next.hint && !next.isOver) sound('wrong');
      ctx.redraw();
    };
    // The digits are typed here and sent as one guess.
    const press = (key) => {
      const v = ctx.view();
      if (!v || v.phase !== 'question' || rv.isOver || sending) return;
      if (key === 'clear') typed = '';
      else if (key === 'backspace') typed = typed.slice(0, -1);
      else if (key === 'enter') { guess(); return; }
      else if (typed.length < width()) typed += key;
      renderDisplay($('#display', area), typed, width());
    };
    buildPad($('#pad', area), press);
    return {
      draw(view, { answered }) {
        rv = view;
        setText($('#nu-hint', area), rv.hint ? tm(rv.hint) : tm(rv.message));
        $('#nu-hint', area).classList.toggle('said', !rv.hint);
        setText($('#nu-range', area), rv.knownRangeText ? tm(rv.knownRangeText) : '');
        setText($('#nu-attempts', area), rv.attemptsLeftText ? tm(rv.attemptsLeftText) : '');
        $('#nu-attempts', area).classList.toggle('last', !!rv.isLastAttempt && !rv.isOver);
        renderDisplay($('#display', area), typed, width());
        const over = !!rv.isOver || answered;
        for (const button of area.querySelectorAll('#pad button')) button.disabled = over || sending;
      },
      key(event) {
        if (/^[0-9]$/.test(event.key)) press(event.key);
        else if (event.key === 'Backspace') press('backspace');
        else if (event.key === 'Escape' || event.key === 'Delete') press('clear');
        else if (event.key === 'Enter' && !event.target.closest('button, a')) press('enter');
        else return false;
        return true;
      },
    };
  },

  screen() {
    return { draw: (rv) => (typeof rv.low === 'number' ? t('number.screen.ask', { low: rv.low, high: rv.high }) : null) };
  },

  reveal: (rv) => ({ answer: typeof rv.secret === 'number' ? t('number.reveal', { number: rv.secret }) : '' }),
};
