// Color Match (Stroop): the server deals trials and keeps time; this page shows the clock and
// countdown the view gives (asking again every 100 ms while they run) and measures reaction
// time from the moment the cards are painted.
import { GameSession, boot, resumeOrSetup, gameEntry, el, $, setText, say, animate, afterPaint } from '../api.js';
import { settingsForm, readSettings } from '../settings-form.js';
import { play as sound } from '../sound.js';
import { celebrate, bestLines } from '../celebrate.js';
import { paintCard, clock } from '../stroop-cards.js';
import { ready, t, formatNumber } from '../i18n.js';

// Its line among the other games in the settings page's instructions ({game}: its title).
export const help = 'color-match.help.other';

// The solo page: its sections, after the title and status line of game.html (js/game-page.js
// puts them into the page and calls start).
export const solo = {
  markup: `
<section id="setup" class="panel" hidden aria-labelledby="setup-title">
  <h2 id="setup-title" data-i18n="color-match.setup.title">How to play</h2>
  <p id="how-to-play" data-i18n="color-match.setup.how">Two cards appear. Does the <strong data-i18n-slot="meaning" data-i18n="color-match.setup.meaning">meaning</strong> of the top word match the <strong data-i18n-slot="ink" data-i18n="color-match.setup.ink">ink</strong> of the bottom word? Answer <strong data-i18n-slot="yes" data-i18n="color-match.yes">Yes</strong> or <strong data-i18n-slot="no" data-i18n="color-match.no">No</strong> as fast as you can: +100 when right, −100 when wrong.</p>
  <p id="keys-help" data-i18n="color-match.setup.keys">Keys: <kbd data-i18n-slot="right">→</kbd> or <kbd data-i18n-slot="y">Y</kbd> = <span data-i18n-slot="yes" data-i18n="color-match.yes">Yes</span>, <kbd data-i18n-slot="left">←</kbd> or <kbd data-i18n-slot="n">N</kbd> = <span data-i18n-slot="no" data-i18n="color-match.no">No</span>.</p>
  <form id="setup-form">
    <div id="settings"></div>
    <button type="submit" id="start" data-i18n="play.start">Start</button>
  </form>
</section>

<section id="play" hidden aria-label="Round" data-i18n-attr="aria-label:color-match.play.label">
  <div class="hud">
    <span data-i18n="color-match.hud.score">Score: <span id="score" data-i18n-slot="score">0</span></span>
    <span class="clock" id="clock" role="timer" aria-label="Time left" data-i18n-attr="aria-label:color-match.clock.label"></span>
    <span data-i18n="color-match.hud.streak">Streak: <span id="streak" data-i18n-slot="streak">0</span></span>
  </div>
  <div id="countdown" class="big-count" aria-live="assertive" hidden></div>
  <div id="trial" class="cm-play" hidden>
    <div class="cards">
      <div><div class="card-label" data-i18n="color-match.card.meaning">Meaning</div><div class="color-card" id="top-card"></div></div>
      <div><div class="card-label" data-i18n="color-match.card.ink">Ink</div><div class="color-card" id="bottom-card"></div></div>
    </div>
    <div>
      <p class="question" data-i18n="color-match.question">Does the meaning of the top word match the ink of the bottom word?</p>
      <div class="answer-row">
        <button type="button" class="bad" id="no" aria-keyshortcuts="ArrowLeft N"><span data-i18n="color-match.no">No</span> <span aria-hidden="true">←</span></button>
        <button type="button" class="good" id="yes" aria-keyshortcuts="ArrowRight Y"><span data-i18n="color-match.yes">Yes</span> <span aria-hidden="true">→</span></button>
      </div>
    </div>
  </div>
  <p class="row end"><button type="button" class="secondary" id="quit" data-i18n="color-match.quit">Quit</button></p>
  <div class="mark" id="mark" aria-live="assertive" hidden><span id="mark-text"></span></div>
</section>

<section id="over" class="panel" hidden aria-labelledby="over-title" tabindex="-1">
  <h2 id="over-title"></h2>
  <div class="daily-end" data-daily-end hidden></div>
  <div class="figures" id="report"></div>
  <p class="plain-line" id="interference"></p>
  <details class="exact-figures">
    <summary data-i18n="color-match.report.exactTimes">The exact times</summary>
    <div class="figures" id="exact-times"></div>
  </details>
  <div class="table-wrap"><table class="trials">
    <caption class="sr-only" data-i18n="color-match.trials.caption">Every answer</caption>
    <thead><tr><th scope="col" class="index">#</th><th scope="col" data-i18n="color-match.trials.topWord">Top word</th><th scope="col" data-i18n="color-match.trials.bottomWord">Bottom word and ink</th><th scope="col" data-i18n="color-match.trials.answer">Answer</th><th scope="col" data-i18n="color-match.trials.time">Time</th></tr></thead>
    <tbody id="trials"></tbody>
  </table></div>
  <div class="row"><button type="button" id="again" data-new-game data-i18n="play.playAgain">Play again</button><button type="button" class="secondary" id="csv" data-i18n="color-match.csv">Download your answers (CSV)</button></div>
</section>
`,
  start: main,
};

const session = new GameSession('color-match', render);
const REFRESH_MS = 100;
let receivedAt = 0;
let shownTrial = 0;
let shownAt = 0;
let paintedAt = null;
let answering = false;
let refreshing = false;
let lastRefresh = 0;
let stopLoop = null;

function render(reply) {
  const v = reply.view;
  receivedAt = performance.now();
  $('#setup').hidden = true;
  setText('#score', formatNumber(v.score));
  setText('#streak', formatNumber(v.streak));
  setText('#clock', clock(v.clock));
  const answered = reply.events && reply.events.find((e) => e.type === 'answered');
  if (answered) sound(answered.correct ? 'correct' : 'wrong');
  if (v.isOver) return showReport(v, reply);
  $('#play').hidden = false;
  $('#over').hidden = true;
  $('#countdown').hidden = v.phase !== 'countdown';
  if (v.phase === 'countdown') setText('#countdown', String(v.countdownSeconds ?? ''));
  $('#trial').hidden = v.phase === 'countdown';
  const mark = $('#mark');
  if (v.phase === 'feedback' && v.lastAnswer) {
    mark.hidden = false;
    mark.className = `mark ${v.lastAnswer.correct ? 'good' : 'bad'}`;
    setText('#mark-text', v.lastAnswer.mark);
    $('#mark-text').setAttribute('aria-label', v.lastAnswer.correct ? t('color-match.mark.right') : t('color-match.mark.wrong'));
  } else {
    mark.hidden = true;
  }
  if (v.phase === 'trial' && v.top && v.bottom && v.trialNumber !== shownTrial) {
    paintCard($('#top-card'), v.top);
    paintCard($('#bottom-card'), v.bottom);
    shownTrial = v.trialNumber;
    shownAt = receivedAt;
    answering = false;
    paintedAt = null;
    afterPaint().then((t) => { if (shownTrial === v.trialNumber) paintedAt = t; });
  }
  setButtons(v.phase === 'trial' && !answering);
  if (!stopLoop) stopLoop = animate(tick);
}

function setButtons(enabled) {
  $('#yes').disabled = !enabled;
  $('#no').disabled = !enabled;
}

// One animation frame: ask the server for the view again, one request at a time — every
// 100 ms while the countdown or the clock runs and the page is seen (not while an answer is
// on its way), and once the feedback's time is over.
function tick(now) {
  const v = session.view;
  if (!v || v.isOver) { stopLoop = null; return false; }
  if (refreshing || now - lastRefresh < REFRESH_MS) return true;
  const due = v.phase === 'feedback'
    ? now - receivedAt >= v.feedbackRemainingMs
    : (v.phase === 'countdown' || v.phase === 'trial') && !answering && document.visibilityState === 'visible';
  if (due) {
    refreshing = true;
    lastRefresh = now;
    session.refresh().catch((e) => say(e.message, 'error')).finally(() => { refreshing = false; });
  }
  return true;
}

function answer(match) {
  const v = session.view;
  if (!v || v.phase !== 'trial' || answering) return;
  answering = true;
  setButtons(false);
  const reactionMs = Math.max(0, performance.now() - (paintedAt ?? shownAt));
  session.act({ type: 'answer', match, reactionMs: Math.round(reactionMs * 10) / 10 }).then((reply) => {
    if (!reply) { answering = false; if (session.view && session.view.phase === 'trial') setButtons(true); }
  });
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest('input, select')) return;
  // Y and N; on a layout without Latin letters (Russian: "н" and "т"), the keys in their place.
  const key = event.key.toLowerCase();
  const letter = /^[a-z]$/.test(key) ? key : ({ KeyY: 'y', KeyN: 'n' })[event.code];
  if (key === 'arrowright' || letter === 'y') { answer(true); event.preventDefault(); }
  else if (key === 'arrowleft' || letter === 'n') { answer(false); event.preventDefault(); }
}

function showReport(v, reply) {
  const timeUp = session.endedNow && v.endReason === 'timeUp';
  if (timeUp) sound('time-up');
  if (stopLoop) { stopLoop(); stopLoop = null; }
  $('#play').hidden = true;
  const over = $('#over');
  const first = over.hidden;
  over.hidden = false;
  const r = report(v, reply.summary);
  setText('#over-title', v.endReason === 'quit' ? t('color-match.over.quit', { score: v.score }) : t('color-match.over.timeUp', { score: v.score }));
  const ms = (x) => (x === undefined || x === null ? '—' : t('color-match.ms', { ms: Math.round(x) }));
  const figures = [
    [t('color-match.report.score'), formatNumber(v.score)],
    [t('color-match.report.answers'), formatNumber(r.trials ?? v.answered)],
    [t('color-match.report.right'), r.accuracy === undefined ? '—' : formatNumber(r.accuracy, { style: 'percent', maximumFractionDigits: 0 })],
    [t('color-match.report.bestStreak'), formatNumber(r.bestStreak ?? v.bestStreak)],
  ];
  const times = [
    [t('color-match.report.timeAgree'), ms(r.meanReactionMsCongruent)],
    [t('color-match.report.timeDisagree'), ms(r.meanReactionMsIncongruent)],
    [t('color-match.report.slowed'), ms(r.interferenceMs)],
  ];
  const figureList = (pairs) => pairs.map(([k, val]) => el('div', {}, el('span', { class: 'k', text: k }), el('strong', { class: 'v', text: String(val) })));
  $('#report').replaceChildren(...figureList(figures));
  setText('#interference', interferenceSentence(r.interferenceMs));
  // With no figure to tell, the line is advice for next time: a quiet note, not a headline.
  $('#interference').classList.toggle('advice', noFigure(r.interferenceMs));
  $('#exact-times').replaceChildren(...figureList(times));
  const records = r.trialRecords || [];
  $('#trials').replaceChildren(...records.map((record) => el('tr', {},
    el('td', { class: 'index', text: formatNumber(record.index) }),
    el('td', { text: colourName(record.topWord) }),
    el('td', { text: t('color-match.trials.wordInInk', { word: colourName(record.bottomWord), ink: inkPhrase(record.bottomInk) }) }),
    el('td', { text: `${record.answer ? t('color-match.yes') : t('color-match.no')} ${record.correct ? '✓' : '✗'}` }),
    el('td', { text: t('color-match.ms', { ms: record.reactionMs }) }))));
  $('#csv').disabled = records.length === 0;
  celebrate(over, cheers(reply, r), session.endedNow, timeUp ? 0.9 : undefined);
  if (first) over.focus();
}

// A colour of the game by its id (`red`), as the report's table names it: the word as a card
// shows it (the engine's own catalog key), and the ink as a phrase ("in red ink"), which in
// Spanish and Russian agrees with the word for ink. An id this page does not know is shown as
// it is.
const COLOUR_NAMES = {
  red: 'color-match.colour.red', orange: 'color-match.colour.orange', yellow: 'color-match.colour.yellow',
  green: 'color-match.colour.green', blue: 'color-match.colour.blue', purple: 'color-match.colour.purple',
};
const INK_PHRASES = {
  red: 'color-match.ink.red', orange: 'color-match.ink.orange', yellow: 'color-match.ink.yellow',
  green: 'color-match.ink.green', blue: 'color-match.ink.blue', purple: 'color-match.ink.purple',
};
const colourName = (id) => (COLOUR_NAMES[id] ? t(COLOUR_NAMES[id]) : String(id));
const inkPhrase = (id) => (INK_PHRASES[id] ? t(INK_PHRASES[id]) : String(id));

// No interference figure: every answered card was of one kind, so there is nothing to compare.
const noFigure = (ms) => ms === undefined || ms === null;

// The interference (Stroop) effect in one sentence: how much slower the player answered when
// a word's meaning and its ink disagreed than when they agreed.
function interferenceSentence(ms) {
  if (noFigure(ms)) return t('color-match.effect.unknown');
  const size = Math.round(Math.abs(ms));
  if (size === 0) return t('color-match.effect.none');
  return ms > 0 ? t('color-match.effect.slower', { count: size }) : t('color-match.effect.faster', { count: size });
}

// A perfect round: played to the end of the clock with every answer right (at least one).
function cheers(reply, r) {
  const trials = (r.trialRecords || []).length;
  const right = (r.trialRecords || []).filter((t) => t.correct).length;
  const full = reply.view.endReason === 'timeUp';
  const perfect = full && trials > 0 && right === trials ? [t('color-match.cheer.perfect', { count: trials })] : [];
  return [...perfect, ...bestLines(reply)];
}

// The end-of-game figures: the reply's summary, or the view's report from an older server.
function report(v, summary) {
  return summary || (v && v.report) || {};
}

function downloadCSV() {
  const reply = session.reply;
  const records = (reply && report(reply.view, reply.summary).trialRecords) || [];
  const columns = ['index', 'topWord', 'bottomWord', 'bottomInk', 'congruent', 'match', 'answer', 'correct', 'reactionMs'];
  const lines = [columns.join(',')].concat(records.map((t) => columns.map((c) => String(t[c])).join(',')));
  const blob = new Blob([lines.join('\n') + '\n'], { type: 'text/csv' });
  const url = URL.createObjectURL(blob);
  const link = el('a', { href: url, download: `color-match-${session.id}.csv` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// A new game with the form's settings; "Play again" keeps the last round's length.
async function start(previous) {
  shownTrial = 0;
  const settings = readSettings($('#settings'));
  if (previous && previous.durationMs) settings.duration = Math.round(previous.durationMs / 1000);
  try {
    await session.start({ settings });
    say('');
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
  settingsForm(await gameEntry('color-match'), $('#settings'), { prefix: 'set-', main: ['duration'] });
  $('#setup-form').addEventListener('submit', (e) => { e.preventDefault(); start(null); });
  $('#yes').addEventListener('click', () => answer(true));
  $('#no').addEventListener('click', () => answer(false));
  $('#quit').addEventListener('click', () => session.act({ type: 'quit' }));
  $('#again').addEventListener('click', () => start(session.view));
  $('#csv').addEventListener('click', downloadCSV);
  document.addEventListener('keydown', onKey);
  await resumeOrSetup(session, showSetup);
}


// ---- In a room ----
// Color Match in a party room (js/room.js says what `room` holds): everyone plays the same
// minute on their phone, the cards coming as the server pushes each view (docs/rooms.md: a
// client never has to ask). One clock (the room's, in the bar) and the room's points: the solo
// game's score (+100/−100) is not what a room awards. The shared screen shows how many cards
// each has answered (the room's own `progress`).
import { markup } from '../room-parts.js';

export const room = {
  settings: ['duration'],
  together: true,

  phone(area, ctx) {
    area.replaceChildren(markup(`
      <div id="cm" class="game-area room-stroop">
        <p class="room-hud"><span id="cm-points"></span><span id="cm-cards"></span></p>
        <div id="cm-countdown" class="big-count" aria-live="assertive" hidden></div>
        <div id="cm-trial" class="cm-play">
          <div class="cards">
            <div><div class="card-label" data-i18n="color-match.card.meaning">Meaning</div><div class="color-card" id="cm-top"></div></div>
            <div><div class="card-label" data-i18n="color-match.card.ink">Ink</div><div class="color-card" id="cm-bottom"></div></div>
          </div>
          <div class="answer-row">
            <button type="button" class="bad" id="cm-no"><span data-i18n="color-match.no">No</span></button>
            <button type="button" class="good" id="cm-yes"><span data-i18n="color-match.yes">Yes</span></button>
          </div>
        </div>
      </div>`));
    let shownTrial = 0;
    let trialShownAt = 0;
    let sending = false;
    const answer = async (match) => {
      const reactionMs = Math.round((performance.now() - trialShownAt) * 10) / 10;
      sending = true;
      ctx.redraw();
      const after = await ctx.send({ type: 'answer', match, reactionMs });
      sending = false;
      const rv = after && after.round && after.round.view;
      if (rv && rv.lastAnswer) sound(rv.lastAnswer.correct ? 'correct' : 'wrong');
      ctx.redraw();
    };
    $('#cm-yes', area).addEventListener('click', () => answer(true));
    $('#cm-no', area).addEventListener('click', () => answer(false));
    return {
      draw(rv, { answered }) {
        const round = ctx.view().round;
        const points = round && round.points;
        setText($('#cm-points', area), typeof points === 'number' ? t('room.cm.points', { count: points }) : '');
        setText($('#cm-cards', area), t('room.cm.cards', { count: rv.answered ?? 0, correct: rv.correct ?? 0 }));
        const counting = rv.phase === 'countdown';
        $('#cm-countdown', area).hidden = !counting;
        $('#cm-trial', area).hidden = counting;
        if (counting) setText($('#cm-countdown', area), String(rv.countdownSeconds ?? ''));
        if (rv.phase === 'trial' && rv.top && rv.bottom && rv.trialNumber !== shownTrial) {
          paintCard($('#cm-top', area), rv.top);
          paintCard($('#cm-bottom', area), rv.bottom);
          shownTrial = rv.trialNumber;
          trialShownAt = performance.now();
        }
        const can = rv.phase === 'trial' && !answered && !sending && !rv.isOver;
        $('#cm-yes', area).disabled = !can;
        $('#cm-no', area).disabled = !can;
      },
    };
  },

  screen() {
    return { draw: () => t('color-match.screen.ask') };
  },
};
