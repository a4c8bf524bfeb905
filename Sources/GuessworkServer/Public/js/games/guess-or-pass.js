// Guess or Pass: category grid, then a timed round of words answered by buttons, swipes,
// tilts or keys. The server keeps the words and the clock (the page asks for the view again
// as each second passes); only the bar drains locally between answers. Tilts and swipes are
// read by js/gestures.js, the screen held awake by js/hold-screen.js; the game in a party room
// is drawn by guess-or-pass/room.js.
import { GameSession, boot, resumeOrSetup, api, catalog, gameEntry, el, $, setText, say, animate, openDialog, closeDialog, setGameIdInURL } from '../api.js';
import { settingsForm, readSettings } from '../settings-form.js';
import { play as sound } from '../sound.js';
import { celebrate, bestLines } from '../celebrate.js';
import { ready, t, tm, formatNumber } from '../i18n.js';
import { watchTilts, watchSwipes } from '../gestures.js';
import { holdScreen, holdingScreen, releaseScreen } from '../hold-screen.js';

// The solo page: its sections, after the title and status line of game.html (js/game-page.js
// puts them into the page and calls start).
export const solo = {
  markup: `
<section id="setup" hidden aria-labelledby="setup-title">
  <h2 id="setup-title" data-i18n="guess-or-pass.setup.welcome">Welcome <span id="setup-name" data-i18n-slot="name"></span>! 👋 Ready to play? 😁</h2>
  <p data-i18n="guess-or-pass.setup.how">Hold the phone to your forehead; your friends give clues. Pick a category.</p>
  <div class="category-grid" id="categories" role="group" aria-label="Categories" data-i18n-attr="aria-label:guess-or-pass.categories"></div>
  <!-- Play stays on the screen (stuck to its bottom) whatever the grid's length: a category's
       tap, then Play, starts the round. -->
  <div class="gop-go" id="go">
    <p id="confirm-text" aria-live="polite"></p>
    <button type="button" id="play-button" data-i18n="guess-or-pass.play">Play</button>
  </div>
  <div class="panel">
    <div id="settings"></div>
    <!-- How to answer, said before the round (the word's card carries only the word). -->
    <p id="input-help"></p>
    <p id="best-line" class="muted"></p>
    <p class="muted" id="mode-line"></p>
    <p><a href="settings.html#my-categories-title" data-i18n="guess-or-pass.ownCategory">Make a category of your own</a></p>
  </div>
</section>

<section id="play" class="gop-play" hidden aria-label="Round" data-i18n-attr="aria-label:guess-or-pass.round.label">
  <p class="rotate-hint panel" data-i18n="guess-or-pass.rotate">📱↻ Turn your phone sideways (landscape) for the best view.</p>
  <div class="hud"><span data-i18n="guess-or-pass.hud.guessed">Guessed: <span id="score" data-i18n-slot="score">0</span></span><span id="seconds" role="timer" aria-label="Seconds left" data-i18n-attr="aria-label:guess-or-pass.seconds.label"></span><span data-i18n="guess-or-pass.hud.passed">Passed: <span id="passed" data-i18n-slot="passed">0</span></span></div>
  <div class="timebar" id="timebar" role="progressbar" aria-label="Time left" data-i18n-attr="aria-label:guess-or-pass.timebar.label" aria-valuemin="0" aria-valuemax="100"><div id="timefill"></div></div>
  <div class="gop-stage" id="stage">
    <div>
      <div class="gop-count" id="countdown" aria-live="assertive"></div>
      <div class="gop-word" id="word" aria-live="assertive"></div>
    </div>
  </div>
  <p class="sr-only" id="alert" aria-live="assertive"></p>
  <div class="gop-buttons" id="buttons">
    <button type="button" class="bad" id="pass" aria-keyshortcuts="ArrowLeft" data-i18n="guess-or-pass.pass">← Pass</button>
    <button type="button" class="good" id="guessed" aria-keyshortcuts="ArrowRight Space" data-i18n="guess-or-pass.guessed">Guessed →</button>
  </div>
  <p id="tilt-note" class="tilt-note" hidden></p>
  <p class="row"><button type="button" class="secondary" id="tilt-enable" hidden data-i18n="guess-or-pass.tilt.enable">Enable tilting</button><button type="button" class="secondary" id="end" data-i18n="guess-or-pass.end">End game</button></p>
</section>

<section id="over" class="panel" hidden aria-labelledby="over-title" tabindex="-1">
  <h2 id="over-title"></h2>
  <p class="celebration" id="new-best" hidden></p>
  <p id="over-best"></p>
  <div class="daily-end" data-daily-end hidden></div>
  <div class="word-lists">
    <div><h3 data-i18n="guess-or-pass.over.guessed">Guessed ✅</h3><ul id="guessed-list"></ul></div>
    <div><h3 data-i18n="guess-or-pass.over.passed">Passed ⏭️</h3><ul id="passed-list"></ul></div>
  </div>
  <p id="missed-line" class="muted"></p>
  <div class="row"><button type="button" id="again" data-new-game data-i18n="play.playAgain">Play again</button><button type="button" class="secondary" id="change" data-new-game data-i18n="guess-or-pass.change">Choose a category</button></div>
</section>

<dialog id="no-category" aria-labelledby="no-category-title">
  <h2 id="no-category-title" data-i18n="guess-or-pass.noCategory.title">Select Category</h2>
  <p data-i18n="guess-or-pass.noCategory.text">Please select a category to play.</p>
  <div class="row end"><button type="button" id="no-category-ok" autofocus data-i18n="play.ok">OK</button></div>
</dialog>
`,
  start: main,
};

const EMOJI = { animals: '🐾', food: '🍕', sports: '⚽', technology: '💻', music: '🎵', nature: '🌿' };
const MODE_TEXT = { buttons: 'guess-or-pass.mode.buttons', swipes: 'guess-or-pass.mode.swipes', tilts: 'guess-or-pass.mode.tilts', all: 'guess-or-pass.mode.all' };

const session = new GameSession('guess-or-pass', render);
let player = null;
let game = null;
let categories = [];
let chosen = null;
let receivedAt = 0;
let stopLoop = null;
let refreshTimer = 0;
let refreshing = false;
let announcedTen = false;
let tickedAt = null;

const mode = () => (player && player.preferences && player.preferences.inputMode) || 'all';
// When tilting cannot work, buttons and swipes always can: a tilt-only round stays playable.
const allows = (m) => mode() === 'all' || mode() === m || (!!tilt.off && m !== 'tilts');

function categoryTitle(id) {
  const c = categories.find((x) => x.id === id);
  return c ? c.title : id || '';
}

function render(reply) {
  const v = reply.view;
  receivedAt = performance.now();
  $('#setup').hidden = true;
  for (const d of document.querySelectorAll('dialog')) closeDialog(d);
  if (v.isOver) return showOver(reply);
  $('#play').hidden = false;
  $('#over').hidden = true;
  setText('#score', formatNumber(v.score));
  setText('#passed', formatNumber(v.passedCount));
  const counting = v.phase === 'countdown';
  $('#countdown').hidden = !counting;
  $('#word').hidden = counting;
  if (counting) setText('#countdown', String(v.countdownSeconds ?? ''));
  else setText('#word', v.word || '');
  $('#pass').disabled = counting;
  $('#guessed').disabled = counting;
  const seconds = counting ? Math.round(v.durationMs / 1000) : v.secondsLeft ?? 0;
  setText('#seconds', t('guess-or-pass.seconds', { seconds }));
  $('#timebar').setAttribute('aria-valuetext', t('guess-or-pass.secondsLeft', { count: seconds }));
  const lastTen = !counting && v.lastTenSeconds;
  document.body.classList.toggle('last-ten', lastTen);
  $('#timebar').classList.toggle('last', lastTen);
  if (lastTen && !announcedTen) {
    announcedTen = true;
    setText('#alert', t('guess-or-pass.tenSecondsLeft'));
    if (navigator.vibrate) navigator.vibrate([120, 80, 120]);
  }
  if (lastTen) tickOnce(v.secondsLeft);
  const last = reply.events && reply.events.find((e) => e.type === 'guessed' || e.type === 'passed');
  if (last) {
    flash(last.type === 'guessed');
    sound(last.type === 'guessed' ? 'correct' : 'wrong');
  }
  scheduleRefresh(v);
  if (!stopLoop) stopLoop = animate(tick);
  // A round this page did not start (a reload mid-round): no tap to ask with, so no fullscreen.
  if (!holdingScreen()) { holdScreen(false); requestTilt(); }
}

// The view's countdown digit and seconds change as each whole second of the phase passes (and
// the phase ends on one): ask again just after the next of them.
function scheduleRefresh(v) {
  clearTimeout(refreshTimer);
  const left = v.phase === 'countdown' ? v.countdownRemainingMs : v.remainingMs;
  refreshTimer = setTimeout(refresh, (left % 1000 || 1000) + 30);
}

// One request at a time; its answer schedules the next (so does a failure, a second later).
function refresh() {
  if (refreshing || !session.view || session.view.isOver) return;
  refreshing = true;
  session.refresh()
    .then(() => { refreshing = false; if (session.view && !session.view.isOver) scheduleRefresh(session.view); })
    .catch((e) => { refreshing = false; say(e.message, 'error'); refreshTimer = setTimeout(refresh, 1000); });
}

function flash(good) {
  const stage = $('#stage');
  stage.classList.remove('flash-good', 'flash-bad');
  void stage.offsetWidth;
  stage.classList.add(good ? 'flash-good' : 'flash-bad');
  clearTimeout(flash.timer);
  flash.timer = setTimeout(() => stage.classList.remove('flash-good', 'flash-bad'), 400);
}

// One animation frame: the bar drains from the last view's time left (an animation only).
function tick(now) {
  const v = session.view;
  if (!v || v.isOver) { stopLoop = null; return false; }
  const left = v.phase === 'countdown' ? v.durationMs : v.remainingMs - (now - receivedAt);
  const f = Math.max(0, Math.min(1, left / v.durationMs));
  $('#timefill').style.transform = `scaleX(${f})`;
  const percent = String(Math.round(f * 100));
  if ($('#timebar').getAttribute('aria-valuenow') !== percent) $('#timebar').setAttribute('aria-valuenow', percent);
  return true;
}

// The last ten seconds tick once a second (the view is asked for again as each one passes;
// an answer's reply in the same second does not tick again), the final three differently.
function tickOnce(secondsLeft) {
  if (secondsLeft === tickedAt || !secondsLeft) return;
  tickedAt = secondsLeft;
  sound(secondsLeft <= 3 ? 'last-tick' : 'tick');
}

function send(type) {
  const v = session.view;
  if (!v || v.isOver || v.phase !== 'playing') return;
  session.act({ type });
}

function onKey(event) {
  if ($('#play').hidden || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest('input, select, dialog')) return;
  if (event.key === 'ArrowRight' || event.key === ' ') {
    // Space on a focused button other than "Guessed" presses that button instead.
    if (event.key === ' ' && event.target.closest('button') && event.target.id !== 'guessed') return;
    send('guessed');
  } else if (event.key === 'ArrowLeft') {
    send('pass');
  } else {
    return;
  }
  event.preventDefault();
}

// Swipes: right = guessed, left = pass. Tilts: screen towards the floor (a nod forward) =
// guessed, towards the ceiling = pass (js/gestures.js says how far).
const tilt = watchTilts({
  enabled: () => allows('tilts'),
  onTilt: (way) => send(way === 'forward' ? 'guessed' : 'pass'),
  onChange: applyMode,
});
// Why tilting is off ("Tilting is off because …"), by the reason js/gestures.js gives.
const TILT_OFF = {
  http: 'guess-or-pass.tilt.http', noApi: 'guess-or-pass.tilt.noApi', denied: 'guess-or-pass.tilt.denied',
  noSensor: 'guess-or-pass.tilt.noSensor', silent: 'guess-or-pass.tilt.silent',
};

/** Asks for motion access and listens for tilts: call it from the tap that starts the round. */
async function requestTilt() {
  const answer = await tilt.request();
  // Asked outside a tap (a resumed round): a tap on "Enable tilting" asks again.
  if (answer === 'tap') $('#tilt-enable').hidden = false;
  else if (answer === 'on') $('#tilt-enable').hidden = true;
}

function applyMode() {
  $('#buttons').hidden = !allows('buttons');
  const ways = [];
  if (allows('buttons')) ways.push(t('guess-or-pass.help.buttons'));
  if (allows('swipes')) ways.push(t('guess-or-pass.help.swipes'));
  if (allows('tilts') && !tilt.off) ways.push(t('guess-or-pass.help.tilts'));
  ways.push(t('guess-or-pass.help.keys'));
  setText('#input-help', t('guess-or-pass.help', { ways: ways.join(' · ') }));
  setText('#mode-line', t('guess-or-pass.modeLine', { mode: t(MODE_TEXT[mode()] || MODE_TEXT.all) }));
  $('#tilt-note').hidden = !tilt.off;
  setText('#tilt-note', tilt.off ? t('guess-or-pass.tilt.off', { reason: t(TILT_OFF[tilt.off]) }) : '');
}

// The best scores: overall, and per category from the figure the catalog says holds them.
async function loadBest() {
  try {
    const stats = await api('GET', '/api/me/stats');
    const g = stats.games.find((x) => x.game === 'guess-or-pass') || {};
    const perCategory = (game.figures || []).find((f) => f.format === 'byVariant');
    return { bestOverall: g.bestScore, byCategory: (perCategory && g.figures && g.figures[perCategory.id]) || {} };
  } catch { return { byCategory: {} }; }
}

async function showSetup() {
  stopTimers();
  $('#play').hidden = true;
  $('#over').hidden = true;
  $('#setup').hidden = false;
  setGameIdInURL(null);
  showChoice();
  const figures = await loadBest();
  setText('#best-line', figures.bestOverall !== undefined && figures.bestOverall !== null ? t('guess-or-pass.best', { count: figures.bestOverall }) : '');
  const first = $('#categories button');
  if (first) first.focus();
}

function stopTimers() {
  if (stopLoop) { stopLoop(); stopLoop = null; }
  clearTimeout(refreshTimer);
  document.body.classList.remove('last-ten');
  releaseScreen();
}

function buildCategories() {
  $('#categories').replaceChildren(...categories.map((c) => el('button', {
    type: 'button', 'aria-pressed': 'false', 'data-id': c.id,
    on: { click: (e) => choose(c.id, e.currentTarget) },
  }, el('span', { class: 'emoji', 'aria-hidden': 'true', text: EMOJI[c.id] || '🗂️' }), el('span', { text: c.title }))));
}

function choose(id, button) {
  chosen = chosen === id ? null : id;
  button.focus();
  showChoice();
}

// What Play will start, beside it (the original's "Ready?" words): the category and the round's
// length; Play names the start once there is a category.
function showChoice() {
  for (const b of document.querySelectorAll('#categories button')) b.setAttribute('aria-pressed', String(b.dataset.id === chosen));
  const button = $('#play-button');
  if (!chosen) {
    setText('#confirm-text', '');
    button.setAttribute('data-i18n', 'guess-or-pass.play');
    setText(button, t('guess-or-pass.play'));
    return;
  }
  const seconds = readSettings($('#settings')).duration;
  const span = seconds === undefined ? t('guess-or-pass.span.unknown')
    : seconds % 60 === 0 ? t('guess-or-pass.span.minutes', { count: seconds / 60 }) : t('guess-or-pass.span.seconds', { count: seconds });
  setText('#confirm-text', `${t('guess-or-pass.confirm.text', { category: categoryTitle(chosen), span })} ${t('guess-or-pass.confirm.luck')}`);
  button.setAttribute('data-i18n', 'guess-or-pass.startGame');
  setText(button, t('guess-or-pass.startGame'));
}

function play() {
  if (!chosen) { openDialog($('#no-category')); return; }
  startGame();
}

// Called from the tap that starts a round (Play, "Play again"): what a browser grants only to a
// tap (motion access, fullscreen, sound) is asked for here, before anything waits. Motion first:
// asking for fullscreen uses the tap up.
async function startGame() {
  requestTilt();
  holdScreen(true);
  announcedTen = false;
  tickedAt = null;
  tilt.arm();
  try {
    await session.start({ category: chosen, settings: readSettings($('#settings')) });
    say('');
    $(allows('buttons') ? '#guessed' : '#end').focus();
  } catch (e) {
    releaseScreen();
    say(e.message, 'error');
  }
}

async function showOver(reply) {
  stopTimers();
  const v = reply.view;
  const endedNow = session.endedNow;
  const timeUp = endedNow && v.endReason === 'timeUp';
  if (timeUp) sound('time-up');
  $('#play').hidden = true;
  const over = $('#over');
  const first = over.hidden;
  over.hidden = false;
  setText('#over-title', v.message ? tm(v.message) : t('guess-or-pass.result', { count: v.score }));
  const list = (items) => (items && items.length ? items.map((w) => el('li', { text: w })) : [el('li', { class: 'muted', text: t('guess-or-pass.over.none') })]);
  $('#guessed-list').replaceChildren(...list(v.guessed));
  $('#passed-list').replaceChildren(...list(v.passed));
  setText('#missed-line', v.missed ? t('guess-or-pass.over.missed', { word: v.missed }) : '');
  if (v.category) chosen = v.category;
  if (first) over.focus();
  // The server says whether this game beat every earlier one in its category, and every one;
  // the cheer waits for the time-up cue to finish.
  celebrate(over, bestLines(reply, categoryTitle(v.category)), endedNow, timeUp ? 0.9 : undefined);
  const figures = await loadBest();
  const best = figures.byCategory[v.category];
  const parts = [];
  if (best !== undefined) parts.push(t('guess-or-pass.bestIn', { category: categoryTitle(v.category), count: best }));
  if (figures.bestOverall !== undefined && figures.bestOverall !== null) parts.push(t('guess-or-pass.best', { count: figures.bestOverall }));
  setText('#over-best', parts.join(' · '));
}

async function main() {
  player = await boot();
  await ready;
  setText('#setup-name', player.name);
  categories = (await catalog()).categories;
  game = await gameEntry('guess-or-pass');
  settingsForm(game, $('#settings'), { prefix: 'set-', main: ['duration'] });
  buildCategories();
  applyMode();
  watchSwipes($('#stage'), { enabled: () => allows('swipes'), swiped: (right) => send(right ? 'guessed' : 'pass') });
  $('#play-button').addEventListener('click', play);
  $('#no-category-ok').addEventListener('click', () => closeDialog($('#no-category')));
  $('#settings').addEventListener('change', showChoice);
  $('#guessed').addEventListener('click', () => send('guessed'));
  $('#pass').addEventListener('click', () => send('pass'));
  $('#end').addEventListener('click', () => session.act({ type: 'end' }));
  $('#tilt-enable').addEventListener('click', requestTilt);
  $('#again').addEventListener('click', () => { if (chosen) startGame(); else showSetup(); });
  $('#change').addEventListener('click', showSetup);
  document.addEventListener('keydown', onKey);
  await resumeOrSetup(session, showSetup);
}


// ---- In a room ----
// Guess or Pass in a party room, in teams: a turn at a time, one player holds their phone to
// their forehead while their team gives clues. guess-or-pass/room.js draws each part.
import { hostSetup, turnPhone, turnScreen, turnOver } from './guess-or-pass/room.js';

export const room = { settings: ['duration'], hostSetup, turnPhone, turnScreen, turnOver };
