// Bullseye: the target is a picture from the server (its values never travel in a view);
// the sliders mix a guess that is previewed live and sent with "Check my match".
import { GameSession, boot, resumeOrSetup, gameEntry, el, $, setText, say, openDialog, closeDialog } from '../api.js';
import { settingsForm, readSettings } from '../settings-form.js';
import { play as sound } from '../sound.js';
import { celebrate, bestLines } from '../celebrate.js';
import { channels, setSliders, currentGuess, preview } from '../colour-mix.js';
import { ready, t, tm, formatNumber } from '../i18n.js';

// Its line among the other games in the settings page's instructions ({game}: its title).
export const help = 'bullseye.help.other';

// The solo page: its sections, after the title and status line of game.html (js/game-page.js
// puts them into the page and calls start).
export const solo = {
  markup: `
<section id="setup" class="panel" hidden aria-labelledby="setup-title">
  <h2 id="setup-title" data-i18n="bullseye.setup.title">Match this colour</h2>
  <p data-i18n="bullseye.setup.how">Mix red, green and blue until your colour matches the target, then check your match. 100 points is a perfect match.</p>
  <form id="setup-form">
    <div id="settings"></div>
    <button type="submit" id="start" data-i18n="play.start">Start</button>
  </form>
</section>

<section id="play" hidden aria-label="Round" data-i18n-attr="aria-label:bullseye.play.label">
  <p class="hud"><span id="round-text"></span><span id="total-text"></span></p>
  <div class="bullseye-layout">
    <div class="swatches">
      <figure class="swatch"><img id="target" alt="The target colour" data-i18n-attr="alt:bullseye.target.alt"><figcaption data-i18n="bullseye.target">Target</figcaption></figure>
      <figure class="swatch"><div class="chip" id="guess" role="img" aria-label="Your colour" data-i18n-attr="aria-label:bullseye.yourColour"></div><figcaption data-i18n="bullseye.yourColour">Your colour</figcaption></figure>
    </div>
    <div class="panel">
      <p id="message" class="muted"></p>
      <div class="slider red"><label for="r" data-i18n="bullseye.red">Red</label><input type="range" id="r" min="0" max="255" step="1"><output for="r" id="r-out"></output></div>
      <div class="slider green"><label for="g" data-i18n="bullseye.green">Green</label><input type="range" id="g" min="0" max="255" step="1"><output for="g" id="g-out"></output></div>
      <div class="slider blue"><label for="b" data-i18n="bullseye.blue">Blue</label><input type="range" id="b" min="0" max="255" step="1"><output for="b" id="b-out"></output></div>
      <div class="row">
        <button type="button" id="check" data-i18n="bullseye.check">Check my match</button>
        <button type="button" class="secondary" id="new-colour" hidden data-i18n="bullseye.newColour">New colour</button>
        <button type="button" class="secondary" id="finish" hidden data-i18n="bullseye.finish">Finish</button>
      </div>
    </div>
  </div>
</section>

<section id="over" class="panel" hidden aria-labelledby="over-title" tabindex="-1">
  <h2 id="over-title"></h2>
  <div class="daily-end" data-daily-end hidden></div>
  <div class="table-wrap"><table class="rounds">
    <caption class="sr-only" data-i18n="bullseye.history.caption">Every colour</caption>
    <thead><tr><th scope="col">#</th><th scope="col" data-i18n="bullseye.target">Target</th><th scope="col" data-i18n="bullseye.history.yours">Yours</th><th scope="col" data-i18n="bullseye.history.howClose">How close</th><th scope="col" data-i18n="bullseye.history.score">Score</th></tr></thead>
    <tbody id="history"></tbody>
  </table></div>
  <details class="exact-figures">
    <summary data-i18n="bullseye.deltaE.question">What is ΔE?</summary>
    <p data-i18n="bullseye.deltaE.explained">ΔE is how far apart two colours look, measured the way people see colour (the CIEDE2000 formula). 0 is the same colour; about 1 is the smallest difference anyone notices; above 10 the colours differ at a glance; above 49 they are nearly opposite.</p>
  </details>
  <div class="row"><button type="button" id="again" data-new-game data-i18n="play.playAgain">Play again</button></div>
</section>

<dialog id="result" aria-labelledby="result-title">
  <h2 id="result-title">Your score</h2>
  <p class="big-score" id="result-score"></p>
  <p id="result-delta"></p>
  <details class="exact-figures">
    <summary data-i18n="bullseye.result.exactTitle">The exact difference</summary>
    <p><span id="result-exact"></span> <span data-i18n="bullseye.result.exactExplained">ΔE is how far apart the two colours look: 0 is the same colour, about 1 the smallest difference anyone notices, above 49 nearly opposite.</span></p>
  </details>
  <div class="result-swatches">
    <div><div class="chip" id="result-target"></div><p id="result-target-hex"></p></div>
    <div><div class="chip" id="result-guess"></div><p id="result-guess-hex"></p></div>
  </div>
  <p id="result-total"></p>
  <div class="row end">
    <button type="button" class="secondary" id="keep-trying" hidden data-i18n="bullseye.keepTrying">Keep trying</button>
    <button type="button" id="next" autofocus>Next colour</button>
  </div>
</dialog>
`,
  start: main,
};

const session = new GameSession('bullseye', render);
let shownRound = null;
// The game ended while this page watched: its results, once shown, are cheered.
let endedHere = false;

function render(reply) {
  const v = reply.view;
  $('#setup').hidden = true;
  if (session.endedNow) endedHere = true;
  if (v.isOver && !(reply.events && reply.events.some((e) => e.type === 'scored'))) {
    return showOver(v);
  }
  $('#play').hidden = false;
  $('#over').hidden = true;
  const key = `${v.round}:${v.phase}`;
  if (v.phase === 'guessing' && shownRound !== key) {
    shownRound = key;
    $('#target').src = `/api/games/${encodeURIComponent(reply.id)}/target.svg?r=${v.round}`;
    setSliders(v.startGuess);
  }
  setText('#round-text', v.rounds ? t('bullseye.round.of', { round: v.round, rounds: v.rounds }) : t('bullseye.round.free', { round: v.round }));
  setText('#total-text', v.freePlay ? (v.bestScore !== undefined && v.bestScore !== null ? t('bullseye.best', { score: v.bestScore }) : '')
    : t('bullseye.total', { total: v.total, max: v.maxTotal }));
  setText('#message', said(v.message));
  const can = new Set(v.actions);
  $('#check').disabled = !can.has('check');
  $('#new-colour').hidden = !can.has('newColour');
  $('#finish').hidden = !can.has('finish');
  for (const c of channels) $(`#${c}`).disabled = !can.has('check');

  const checked = reply.events && reply.events.some((e) => e.type === 'scored' || e.type === 'checked');
  if (checked) soundScore(v.result.score);
  if (v.result && (v.phase === 'scored' || v.isOver || (v.freePlay && checked))) showResult(reply, checked);
}

// A close match sounds right and a poor one wrong; a perfect one is cheered by the celebration.
function soundScore(score) {
  if (score >= 80 && score < 100) sound('correct');
  else if (score < 50) sound('wrong');
}

function showResult(reply, fresh) {
  const v = reply.view;
  const r = v.result;
  // One colour: a perfect match is cheered, a close one (90 or more) gets its line.
  celebrate($('#result'), r.score === 100 ? [t('bullseye.cheer.perfect')]
    : r.score >= 90 ? [t('bullseye.cheer.great', { score: r.score })] : [], fresh && r.score === 100);
  setText('#result-title', v.freePlay ? t('bullseye.result.freeTitle') : t('bullseye.result.roundTitle', { round: r.round }));
  setText('#result-score', t('bullseye.result.score', { score: r.score }));
  setText('#result-delta', closeness(r).sentence);
  setText('#result-exact', t('bullseye.result.exact', { deltaE: deltaE(r), meaning: tm(r.meaning) }));
  const target = r.target || (v.revealed && v.revealed.target);
  $('#result-target').style.backgroundColor = target ? target.hex : 'transparent';
  setText('#result-target-hex', target ? t('bullseye.result.target', { hex: target.hex }) : t('bullseye.result.targetHidden'));
  $('#result-guess').style.backgroundColor = r.guess.hex;
  setText('#result-guess-hex', t('bullseye.result.yours', { hex: r.guess.hex }));
  setText('#result-total', v.freePlay ? '' : t('bullseye.result.total', { total: v.total, max: v.maxTotal }));
  setText('#next', t(NEXT_LABEL[nextStep(v)]));
  // Checking again is allowed (free play): the dialog may just close.
  $('#keep-trying').hidden = !v.actions.includes('check');
  openDialog($('#result'));
}

// ΔE with its one decimal in the language's style ("3.0", "3,0"); the server's own text when
// the number is missing.
const oneDecimal = (n) => formatNumber(n, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
function deltaE(result) {
  return typeof result.deltaE === 'number' ? oneDecimal(result.deltaE) : result.deltaEText;
}

// The game's line (a message), its ΔE written with its one decimal as everywhere on the page
// (a plain number would lose a ".0").
function said(message) {
  const args = message && typeof message === 'object' && message.args;
  if (!args || typeof args.deltaE !== 'number') return tm(message);
  return tm({ ...message, args: { ...args, deltaE: oneDecimal(args.deltaE) } });
}

// How close a colour came, in plain words, from the band the server names (its `meaning`: a
// message whose key ends in the band's name, or from an older server the band's English
// label); a band this page does not know reads as the server's own words. The exact ΔE is a
// tap away.
const CLOSENESS = {
  notPerceptible: ['bullseye.close.notPerceptible.word', 'bullseye.close.notPerceptible.sentence'],
  visibleOnCloseLook: ['bullseye.close.visibleOnCloseLook.word', 'bullseye.close.visibleOnCloseLook.sentence'],
  visibleAtAGlance: ['bullseye.close.visibleAtAGlance.word', 'bullseye.close.visibleAtAGlance.sentence'],
  moreSimilarThanOpposite: ['bullseye.close.moreSimilarThanOpposite.word', 'bullseye.close.moreSimilarThanOpposite.sentence'],
  oppositeColours: ['bullseye.close.oppositeColours.word', 'bullseye.close.oppositeColours.sentence'],
};
const BAND_OF_LABEL = {
  'not perceptible': 'notPerceptible',
  'visible on close look': 'visibleOnCloseLook',
  'visible at a glance': 'visibleAtAGlance',
  'clearly different': 'moreSimilarThanOpposite',
  'opposite colours': 'oppositeColours',
};
function band(meaning) {
  if (meaning && typeof meaning === 'object') {
    const last = String(meaning.key || '').split('.').pop();
    return CLOSENESS[last] ? last : null;
  }
  return BAND_OF_LABEL[meaning] || null;
}
function closeness(result) {
  const keys = CLOSENESS[band(result.meaning)];
  if (keys) return { word: t(keys[0]), sentence: t(keys[1]) };
  const words = tm(result.meaning);
  return { word: words, sentence: t('bullseye.close.other.sentence', { meaning: words }) };
}

// What the dialog's main button does, from the actions the view allows now: the next colour
// when the game offers it, the results once it is over, else a new colour (free play).
const NEXT_LABEL = { next: 'bullseye.next.next', results: 'bullseye.next.results', newColour: 'bullseye.newColour', close: 'bullseye.next.close' };
function nextStep(v) {
  if (v.actions.includes('next')) return 'next';
  if (v.isOver) return 'results';
  if (v.actions.includes('newColour')) return 'newColour';
  return 'close';
}

async function next() {
  const v = session.view;
  closeDialog($('#result'));
  if (!v) return;
  const step = nextStep(v);
  if (step === 'results') return showOver(v);
  if (step === 'next' || step === 'newColour') await session.act({ type: step });
  $('#r').focus();
}

function showOver(v) {
  closeDialog($('#result'));
  $('#play').hidden = true;
  const over = $('#over');
  const first = over.hidden;
  over.hidden = false;
  setText('#over-title', v.message ? said(v.message) : t('bullseye.over', { total: v.total, max: v.maxTotal }));
  const rows = v.history || [];
  $('#history').replaceChildren(...rows.map((row) => {
    const swatch = (hex) => {
      const chip = el('span', { class: 'avatar small', role: 'img', 'aria-label': hex });
      chip.style.backgroundColor = hex;
      return el('td', { class: 'colour-cell' }, chip, el('span', { class: 'hex', text: hex }));
    };
    return el('tr', {}, el('td', { text: formatNumber(row.round) }), row.target ? swatch(row.target.hex) : el('td', { text: '—' }),
      swatch(row.guess.hex),
      el('td', {}, closeness(row).word, el('span', { class: 'exact', text: t('bullseye.history.deltaE', { deltaE: deltaE(row) }) })),
      el('td', { text: formatNumber(row.score) }));
  }));
  celebrate(over, roundLines(session.reply, v), endedHere);
  endedHere = false;
  if (first) over.focus();
}

// A perfect round (every colour matched exactly), a high one (90% of the points or more), a
// new best.
function roundLines(reply, v) {
  const lines = [];
  if (!v.freePlay && v.maxTotal) {
    if (v.total === v.maxTotal) lines.push(t('bullseye.cheer.perfectRound', { total: v.total, max: v.maxTotal }));
    else if (v.total >= 0.9 * v.maxTotal) lines.push(t('bullseye.cheer.greatEye', { total: v.total, max: v.maxTotal }));
  }
  return [...lines, ...bestLines(reply)];
}

async function start() {
  shownRound = null;
  try {
    await session.start({ settings: readSettings($('#settings')) });
    say('');
    $('#r').focus();
  } catch (e) {
    say(e.message, 'error');
  }
}

function showSetup() {
  $('#setup').hidden = false;
  $('#play').hidden = true;
  $('#over').hidden = true;
  $('#start').focus();
}

async function main() {
  await boot();
  await ready;
  settingsForm(await gameEntry('bullseye'), $('#settings'), { prefix: 'set-', ids: { freePlay: 'set-free' } });
  for (const c of channels) $(`#${c}`).addEventListener('input', preview);
  $('#setup-form').addEventListener('submit', (e) => { e.preventDefault(); start(); });
  $('#check').addEventListener('click', () => session.act({ type: 'check', guess: currentGuess() }));
  $('#next').addEventListener('click', next);
  $('#keep-trying').addEventListener('click', () => closeDialog($('#result')));
  $('#new-colour').addEventListener('click', () => session.act({ type: 'newColour' }));
  $('#finish').addEventListener('click', () => session.act({ type: 'finish' }));
  $('#again').addEventListener('click', showSetup);
  // Escape closes the dialog: treat it as "Next colour" so the game never gets stuck.
  $('#result').addEventListener('cancel', (e) => { e.preventDefault(); next(); });
  await resumeOrSetup(session, showSetup);
}


// ---- In a room ----
// Bullseye in a party room (js/room.js says what `room` holds): each player mixes the room's
// target colour on their phone; the target is a picture of the room's (no view carries the
// colour), on the phones and the shared screen; the reveal words each result as the solo game
// does, by how different the colours look.
import { markup, roomPath } from '../room-parts.js';

export const room = {
  settings: ['rounds'],

  phone(area, ctx) {
    area.replaceChildren(markup(`
      <div id="be" class="game-area room-bullseye">
        <div class="swatches">
          <figure class="swatch"><img class="chip" id="be-target" alt="The target colour" data-i18n-attr="alt:bullseye.target.alt"><figcaption data-i18n="bullseye.target">Target</figcaption></figure>
          <figure class="swatch"><div class="chip" id="guess" role="img" aria-label="Your colour" data-i18n-attr="aria-label:bullseye.yourColour"></div><figcaption data-i18n="bullseye.yourColour">Your colour</figcaption></figure>
        </div>
        <div class="be-controls">
          <div class="slider red"><label for="r" data-i18n="bullseye.red">Red</label><input type="range" id="r" min="0" max="255" step="1"><output for="r" id="r-out"></output></div>
          <div class="slider green"><label for="g" data-i18n="bullseye.green">Green</label><input type="range" id="g" min="0" max="255" step="1"><output for="g" id="g-out"></output></div>
          <div class="slider blue"><label for="b" data-i18n="bullseye.blue">Blue</label><input type="range" id="b" min="0" max="255" step="1"><output for="b" id="b-out"></output></div>
          <button type="button" id="be-check" class="wide" data-i18n="bullseye.check">Check my match</button>
        </div>
      </div>`));
    let sending = false;
    let started = false;
    $('#be-check', area).addEventListener('click', async () => {
      sending = true;
      ctx.redraw();
      await ctx.send({ type: 'check', guess: currentGuess() });
      sending = false;
      ctx.redraw();
    });
    for (const c of channels) $(`#${c}`, area).addEventListener('input', preview);
    return {
      draw(rv, { answered }) {
        if (!started) {
          started = true;
          setSliders(rv.startGuess || { r: 128, g: 128, b: 128 });
        }
        const target = $('#be-target', area);
        const src = `${roomPath(ctx.code)}/target.svg?r=${ctx.round}`;
        if (target.getAttribute('src') !== src) target.src = src;
        const can = !answered && !sending && (rv.actions || ['check']).includes('check');
        $('#be-check', area).disabled = !can;
        for (const c of channels) $(`#${c}`, area).disabled = !can;
      },
    };
  },

  screen(area, ctx) {
    area.replaceChildren(markup(`<img class="screen-target" id="s-target" alt="The target colour" data-i18n-attr="alt:bullseye.target.alt">`));
    return {
      draw() {
        const target = $('#s-target', area);
        const src = `${roomPath(ctx.code)}/target.svg?r=${ctx.round}`;
        if (target.getAttribute('src') !== src) target.src = src;
        return t('bullseye.screen.ask');
      },
    };
  },

  // "Close", "Different"...: the player's own result, by how different it looks.
  reveal(rv) {
    const band = rv.result && rv.result.meaning && String(rv.result.meaning.key || '').split('.').pop();
    return { title: band ? t(`bullseye.close.${band}.word`) : null };
  },
};
