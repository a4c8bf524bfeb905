// Color Match (Stroop): the server deals trials and keeps time; this page shows the clock and
// countdown the view gives (asking again every 100 ms while they run) and measures reaction
// time from the moment the cards are painted.
import { GameSession, boot, resumeOrSetup, gameEntry, el, $, setText, say, animate, afterPaint } from '../api.js';
import { settingsForm, readSettings } from '../settings-form.js';
import { play as sound } from '../sound.js';
import { celebrate, bestLines } from '../celebrate.js';
import '../daily-badge.js';

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
  setText('#score', v.score);
  setText('#streak', v.streak);
  setText('#clock', v.clock);
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
    $('#mark-text').setAttribute('aria-label', v.lastAnswer.correct ? 'Right' : 'Wrong');
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

function paintCard(card, data) {
  card.textContent = data.word;
  card.style.color = data.ink;
  card.style.backgroundColor = data.background;
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
  const key = event.key.toLowerCase();
  if (key === 'arrowright' || key === 'y') { answer(true); event.preventDefault(); }
  else if (key === 'arrowleft' || key === 'n') { answer(false); event.preventDefault(); }
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
  setText('#over-title', v.endReason === 'quit' ? `You quit · score ${v.score}` : `Time's up! Score ${v.score}`);
  const ms = (x) => (x === undefined || x === null ? '—' : `${Math.round(x)} ms`);
  const figures = [
    ['Score', v.score],
    ['Answers', r.trials ?? v.answered],
    ['Right', r.accuracy === undefined ? '—' : `${Math.round(r.accuracy * 100)}%`],
    ['Best streak', r.bestStreak ?? v.bestStreak],
  ];
  const times = [
    ['Time when word and ink agree', ms(r.meanReactionMsCongruent)],
    ['Time when they disagree', ms(r.meanReactionMsIncongruent)],
    ['Slowed by the mismatch', ms(r.interferenceMs)],
  ];
  const figureList = (pairs) => pairs.map(([k, val]) => el('div', {}, el('span', { class: 'k', text: k }), el('strong', { class: 'v', text: String(val) })));
  $('#report').replaceChildren(...figureList(figures));
  setText('#interference', interferenceSentence(r.interferenceMs));
  $('#exact-times').replaceChildren(...figureList(times));
  const records = r.trialRecords || [];
  $('#trials').replaceChildren(...records.map((t) => el('tr', {},
    el('td', { text: t.index }),
    el('td', { text: t.topWord }),
    el('td', { text: `${t.bottomWord}, in ${t.bottomInk} ink` }),
    el('td', { text: `${t.answer ? 'Yes' : 'No'} ${t.correct ? '✓' : '✗'}` }),
    el('td', { text: `${t.reactionMs} ms` }))));
  $('#csv').disabled = records.length === 0;
  celebrate(over, cheers(reply, r), session.endedNow, timeUp ? 0.9 : undefined);
  if (first) over.focus();
}

// The interference (Stroop) effect in one sentence: how much slower the player answered when
// a word's meaning and its ink disagreed than when they agreed.
function interferenceSentence(ms) {
  if (ms === undefined || ms === null) return 'Answer both kinds of cards (word and ink agreeing, and not) to see how a mismatch slows you down.';
  const size = Math.round(Math.abs(ms));
  if (size === 0) return 'You answered just as fast when the word and its ink disagreed.';
  return `You answered ${size} ms ${ms > 0 ? 'slower' : 'faster'} when the word and its ink disagreed.`;
}

// A perfect round: played to the end of the clock with every answer right (at least one).
function cheers(reply, r) {
  const trials = (r.trialRecords || []).length;
  const right = (r.trialRecords || []).filter((t) => t.correct).length;
  const full = reply.view.endReason === 'timeUp';
  const perfect = full && trials > 0 && right === trials ? [`Perfect round: ${right} out of ${trials} right!`] : [];
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

main().catch((e) => say(e.message, 'error'));
