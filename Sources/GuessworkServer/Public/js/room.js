// The party room on a phone (room.html): join with a code (or create a room and host it), then
// follow the room's views as its socket pushes them: the lobby, each round's own game, the
// reveal, Guess or Pass turns in teams, and the podium. The server is the only judge; this page
// draws what a view says and sends the player's taps. The protocol is docs/rooms.md.
import { api, boot, catalog, gameEntry, el, $, setText, say, openDialog, closeDialog, showPlayerChip } from './api.js';
import { settingsForm, readSettings } from './settings-form.js';
import { play as sound } from './sound.js';
import { celebrate } from './celebrate.js';
import { questionText, picture } from './pictures.js';
import { buildPad, renderDisplay } from './digit-pad.js';
import { channels, setSliders, currentGuess, preview } from './colour-mix.js';
import { paintCard } from './stroop-cards.js';
import { ready, t, tm, formatNumber } from './i18n.js';
import { wireAvatarPicker } from './avatar-picker.js';
import {
  normaliseCode, validCode, codeFromURL, setCodeInURL, roomPath, roomAction, RoomSocket, ViewKeeper,
  clockOf, seconds, hostAction, gameTitle, avatar, playerById, present, teamName, standingsList, drawTurnOver, teamScores, decks, everyQuarterSecond,
  rememberPlaces, hostName, teamPodiumOf, teamResult,
} from './room-common.js';

const keeper = new ViewKeeper();
let code = null;
let socket = null;
let deckList = [];
let hostPanelBuilt = false;
let chooseTimer = 0;
// The round drawn (its number), so that a new one starts afresh and a view of the same one only
// updates it.
let shownRound = null;
// The player's own game in that round, as last seen: a player done with a round is sent none
// until the reveal, and keeps seeing their answer.
let roundView = null;
let chosenPicture = null;
let typed = '';
let sending = false;
let shownTrial = 0;
let trialShownAt = 0;
let soundedReveal = null;
let cheeredPodium = false;
// The phase drawn last: a status line (an error of the last round...) goes when it changes.
let shownPhase = null;
// A removed player's page asks now and then whether the host let them back in (a socket, closed
// at once while they are still out).
let readmitWatch = 0;
let readmitProbe = null;

// The settings shown at once for each game; the rest go under "More settings".
const MAIN_SETTINGS = {
  'picture-quiz': ['questions', 'choices'], 'guess-or-pass': ['duration'], number: ['low', 'high', 'attempts'],
  bullseye: ['rounds'], 'color-match': ['duration'],
};
const PHASE_SECTIONS = { lobby: '#lobby', question: '#question', reveal: '#reveal', turn: '#turn', turnOver: '#turn-over', podium: '#podium' };
const GAME_AREAS = { 'picture-quiz': '#pq', number: '#nu', bullseye: '#be', 'color-match': '#cm' };

const view = () => keeper.view;
const you = () => (view() && view().you) || {};
const mine = () => (view() ? playerById(view(), you().id) : null);

// ------------------------------------------------------------------------------------------------
// Joining, creating, leaving

function showEntry() {
  $('#room').hidden = true;
  $('#gone').hidden = true;
  $('#entry').hidden = false;
  $('#code-input').focus();
}

async function join(wanted) {
  try {
    const joined = await api('POST', `${roomPath(wanted)}/join`, {});
    say('');
    enter(joined);
  } catch (e) {
    setCodeInURL(wanted);
    code = wanted;
    // Removed by the host, a full room: the player may try again later; a closed or unknown room
    // is gone for good.
    showGone(t('room.joinFailed.title', { code: wanted }), e.message, e.status === 403 || e.status === 409 || e.status === 0);
    if (e.code === 'kicked') watchForReadmit();
  }
}

async function create() {
  $('#create-button').disabled = true;
  try {
    const created = await api('POST', '/api/rooms', {});
    // The host plays too: they join their own room like everyone.
    const joined = await api('POST', `${roomPath(created.code)}/join`, {});
    say('');
    enter(joined);
  } catch (e) {
    say(e.message, 'error');
  } finally {
    $('#create-button').disabled = false;
  }
}

// In the room: its first view drawn, its socket opened.
function enter(first) {
  code = first.code;
  setCodeInURL(code);
  keeper.view = null;
  accept(first);
  if (socket) socket.stop();
  socket = new RoomSocket(code, 'player', {
    onView: accept,
    onKicked: showKicked,
    onState: (state) => { $('#conn').hidden = state !== 'reconnecting'; },
    onError: (message) => say(message, 'error'),
    // A socket that closed before any view: joining again says why (removed, closed, gone), or
    // lets the next socket in.
    onLost: async () => {
      try {
        accept(await api('POST', `${roomPath(code)}/join`, {}));
        return true;
      } catch (e) {
        if (e.status === 0) return true;
        socket.stop();
        showGone(t('room.joinFailed.title', { code }), e.message, e.status === 403 || e.status === 409);
        if (e.code === 'kicked') watchForReadmit();
        return false;
      }
    },
  });
}

function showGone(title, text, canRejoin, standings = null) {
  if (socket) socket.stop();
  stopReadmitWatch();
  closeDialog($('#close-dialog'));
  $('#room').hidden = true;
  $('#entry').hidden = true;
  const gone = $('#gone');
  const first = gone.hidden;
  gone.hidden = false;
  gone.classList.remove('welcome-back');
  setText('#gone-title', title);
  setText('#gone-text', text);
  $('#rejoin').hidden = !canRejoin;
  // A closed room: the standings it came to (the view keeps them).
  $('#gone-standings').hidden = !(standings && standings.length);
  $('#gone-standings-list').replaceChildren(...(standings && standings.length ? [standingsList(keeper.view, standings, you().id)] : []));
  if (first) gone.focus();
}

function showKicked() {
  showGone(t('room.kicked.title'), t('room.kicked.text'), true);
  watchForReadmit();
}

// Removed, the player waits outside: every few seconds a socket asks to come in. The server
// refuses it (and closes it) while they are out; once the host let them back in, it brings the
// room's view, and the page says they can come back.
function watchForReadmit() {
  stopReadmitWatch();
  const room = code;
  const probe = () => {
    if (code !== room || $('#gone').hidden) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}${roomPath(room)}/socket?as=player`);
    readmitProbe = ws;
    ws.addEventListener('message', (event) => {
      let message = null;
      try { message = JSON.parse(event.data); } catch { /* not ours */ }
      if (message && message.type === 'room' && message.phase !== 'closed') {
        ws.close();
        showReadmitted();
      } else if (message && message.type === 'error' && message.code !== 'kicked') {
        stopReadmitWatch(); // the room closed, or is gone: nothing to wait for
      }
    });
    ws.addEventListener('close', () => {
      if (readmitProbe === ws) readmitProbe = null;
      if (readmitWatch) readmitWatch = setTimeout(probe, READMIT_EVERY);
    });
  };
  readmitWatch = setTimeout(probe, READMIT_EVERY);
}

const READMIT_EVERY = 4000;

function stopReadmitWatch() {
  clearTimeout(readmitWatch);
  readmitWatch = 0;
  if (readmitProbe) readmitProbe.close();
  readmitProbe = null;
}

function showReadmitted() {
  stopReadmitWatch();
  const gone = $('#gone');
  gone.classList.add('welcome-back');
  setText('#gone-title', t('room.readmitted.title'));
  setText('#gone-text', t('room.readmitted.text'));
  $('#rejoin').hidden = false;
  $('#rejoin').focus();
}

async function leave() {
  const v = view();
  if (!v) return;
  try {
    await roomAction(code, v.version, { type: 'leave' });
  } catch (e) {
    say(e.message, 'error');
    return;
  }
  if (socket) socket.stop();
  socket = null;
  setCodeInURL(null);
  code = null;
  say({ key: 'room.left' });
  showEntry();
}

// ------------------------------------------------------------------------------------------------
// Views

function accept(v) {
  if (!keeper.take(v)) return;
  render();
}

function render() {
  const v = view();
  rememberPlaces(v);
  // A new phase: what the status line said (an answer refused as too late...) is over.
  if (shownPhase !== null && shownPhase !== v.phase) say('');
  shownPhase = v.phase;
  if (v.phase === 'closed') {
    showGone(t('room.closed.title'), t('room.closed.text'), false, v.standings);
    return;
  }
  if (mine() && mine().kicked) { showKicked(); return; }
  stopReadmitWatch();
  $('#entry').hidden = true;
  $('#gone').hidden = true;
  $('#room').hidden = false;
  document.body.dataset.phase = v.phase;
  for (const row of document.querySelectorAll('.host-row')) row.hidden = !you().host;
  $('#close-room').hidden = !you().host;
  // Who the others wait for, between rounds: the host.
  const waitFor = you().host ? '' : t(v.phase === 'podium' ? 'room.wait.podium' : 'room.wait.next', { name: hostName(v) });
  for (const id of ['#reveal-wait', '#turn-over-wait', '#podium-wait']) setText(id, waitFor);
  setText('#bar-code', v.code);
  setText('#bar-game', v.phase !== 'lobby' ? gameTitle(v) : '');
  for (const [phase, selector] of Object.entries(PHASE_SECTIONS)) $(selector).hidden = phase !== v.phase;
  if (v.phase !== 'question') shownRound = null;
  if (v.phase === 'lobby') renderLobby(v);
  else if (v.phase === 'question') renderQuestion(v);
  else if (v.phase === 'reveal') renderReveal(v);
  else if (v.phase === 'turn') renderTurn(v);
  else if (v.phase === 'turnOver') drawTurnOver(v, '');
  else if (v.phase === 'podium') renderPodium(v);
  if (v.phase !== 'podium') cheeredPodium = false;
  tick();
}

// The clocks, between views: the round's in the bar, the turn's in its place.
function tick() {
  const v = view();
  const running = v && clockOf(v);
  const bar = $('#bar-clock');
  bar.hidden = !running || v.phase !== 'question';
  if (!running) return;
  const total = keeper.left(running.total);
  const countdown = keeper.left(running.countdown);
  if (v.phase === 'question') {
    setText(bar, t('room.seconds', { seconds: seconds(total) }));
    bar.classList.toggle('last', total <= 5000);
  } else if (v.phase === 'turn') {
    setText('#turn-count', countdown !== null && countdown > 0 ? '' : t('room.seconds', { seconds: seconds(total) }));
    $('#holder-countdown').hidden = !(countdown > 0);
    if (countdown > 0) setText('#holder-countdown', String(seconds(countdown)));
    const playing = !(countdown > 0);
    if ($('#turn-got').disabled === playing && !sending) {
      $('#turn-got').disabled = !playing;
      $('#turn-pass').disabled = !playing;
    }
  }
}

// ------------------------------------------------------------------------------------------------
// The lobby

function renderLobby(v) {
  const host = !!you().host;
  setText('#lobby-join', t('room.lobby.join', { code: v.code, link: v.link || '' }));
  const people = byTeam(host ? v.players || [] : present(v));
  $('#lobby-players').replaceChildren(...people.map((p) => playerRow(p, host)));
  setText('#lobby-count', t('room.lobby.count', { count: present(v).length, limit: v.limit }));
  setText('#lobby-wait', host ? '' : v.game ? t('room.lobby.waitGame', { game: gameTitle(v) }) : t('room.lobby.wait'));
  $('#guest-actions').hidden = host;
  $('#host-panel').hidden = !host;
  drawLook();
  if (host) {
    $('#open-screen').href = `screen.html?code=${encodeURIComponent(v.code)}`;
    if (!hostPanelBuilt) buildHostPanel(v).catch((e) => say(e.message, 'error'));
  }
}

// The players, team by team when they have teams (in the order they joined within a team).
const byTeam = (people) => [...people].sort((a, b) => (a.team ?? -1) - (b.team ?? -1));

function playerRow(p, host) {
  const self = p.id === you().id;
  const classes = ['room-player', p.connected === false ? 'away' : '', p.kicked ? 'kicked' : '', self ? 'you' : ''].join(' ');
  const tags = [p.host ? t('room.player.host') : '', self ? t('room.player.you') : '', p.kicked ? t('room.player.removed') : '']
    .filter(Boolean).join(' · ');
  let action = null;
  if (host && !self) {
    action = p.kicked
      ? el('button', { type: 'button', class: 'secondary small', 'data-readmit': p.id, text: t('room.host.readmit'), on: { click: () => hostAct({ type: 'readmit', player: p.id }) } })
      : el('button', { type: 'button', class: 'bad small', 'data-kick': p.id, text: t('room.host.kick'), 'aria-label': t('room.host.kickName', { name: p.name }), on: { click: () => hostAct({ type: 'kick', player: p.id }) } });
  }
  const team = typeof p.team === 'number' ? el('span', { class: `team-tag team-${p.team % 4}`, text: teamName(p.team) }) : null;
  return el('li', { class: classes, 'data-id': p.id }, avatar(p), el('span', { class: 'name', text: p.name }),
    team, el('span', { class: 'tags', text: tags }), action);
}

// The player's picture, chosen in the lobby: an emoji (drawn into a picture and uploaded as the
// avatar) or a photo. The room hears of it when the player joins again with the new profile.
let lookBuilt = false;
function drawLook() {
  const me = mine();
  const details = $('#look');
  if (!lookBuilt) {
    lookBuilt = true;
    // Open at first for someone without a picture: the shared screen shows only an initial.
    details.open = !(me && me.avatar);
    wireAvatarPicker($('#look-picker'), pictureChosen);
  }
}

async function pictureChosen(player) {
  showPlayerChip(player);
  if (!code) return;
  try {
    accept(await api('POST', `${roomPath(code)}/join`, {}));
    say({ key: 'room.look.saved' });
  } catch (e) {
    say(e.message, 'error');
  }
}

// The host's choice of the next game, drawn once from the catalog (and the room's choice, after
// a reload); every change is sent as the room's choice, and Start sends it once more.
async function buildHostPanel(v) {
  hostPanelBuilt = true;
  const { games, categories } = await catalog();
  $('#host-game').replaceChildren(...games.map((g) => el('option', { value: g.id, text: `${g.emoji} ${g.title}` })));
  $('#host-deck').replaceChildren(...deckList.filter((d) => d.playable).map((d) => el('option', { value: d.id, text: d.title })));
  $('#host-category').replaceChildren(...(categories || []).map((c) => el('option', { value: c.id, text: c.title })));
  const game = v.game;
  if (game) {
    $('#host-game').value = game.kind;
    if (game.kind === 'picture-quiz' && game.variant) $('#host-deck').value = game.variant;
    if (game.kind === 'guess-or-pass') {
      if (game.variant) $('#host-category').value = game.variant;
      if (game.teams) $('#host-teams').value = String(game.teams);
      if (game.wordsOn) $('#host-words').value = game.wordsOn;
    }
  }
  await drawSettings(game && game.settings);
  $('#host-game').addEventListener('change', async () => { await drawSettings(null); chooseSoon(); });
  for (const id of ['#host-deck', '#host-category', '#host-teams', '#host-words', '#host-settings']) $(id).addEventListener('change', chooseSoon);
}

async function drawSettings(values) {
  const id = $('#host-game').value;
  settingsForm(await gameEntry(id), $('#host-settings'), { prefix: 'room-set-', main: MAIN_SETTINGS[id] });
  for (const input of $('#host-settings').querySelectorAll('[data-setting]')) {
    const value = values && values[input.dataset.setting];
    if (value === undefined || value === null) continue;
    if (input.dataset.kind === 'flag') input.checked = !!value;
    else input.value = String(value);
    input.dispatchEvent(new Event('input'));
  }
  $('#host-deck-field').hidden = id !== 'picture-quiz';
  $('#host-category-field').hidden = id !== 'guess-or-pass';
  $('#host-teams-row').hidden = id !== 'guess-or-pass';
}

function chosen() {
  const game = $('#host-game').value;
  const action = { type: 'choose', game, settings: readSettings($('#host-settings')) };
  if (game === 'picture-quiz') action.deck = $('#host-deck').value;
  if (game === 'guess-or-pass') {
    action.category = $('#host-category').value;
    action.teams = Number($('#host-teams').value);
    action.wordsOn = $('#host-words').value;
  }
  return action;
}

function chooseSoon() {
  clearTimeout(chooseTimer);
  chooseTimer = setTimeout(() => hostAct(chosen()), 300);
}

async function start() {
  clearTimeout(chooseTimer);
  $('#start').disabled = true;
  try {
    if (await hostAct(chosen())) await hostAct({ type: 'start' });
  } finally {
    $('#start').disabled = false;
  }
}

const hostAct = (action) => hostAction(code, keeper, action, accept);

// ------------------------------------------------------------------------------------------------
// A round: the player's own game

/** The round an answer is for (0-based): the round's, else the turn's. */
function roundIndex(v) {
  if (v.round && typeof v.round.number === 'number') return v.round.number - 1;
  if (v.turn && typeof v.turn.number === 'number') return v.turn.number - 1;
  return 0;
}

/** Plays the player's own game in this round; resolves with the view after it, or null. */
async function play(action) {
  const v = view();
  if (!v) return null;
  try {
    const after = await roomAction(code, v.version, { type: 'play', round: roundIndex(v), action });
    say('');
    accept(after);
    return after;
  } catch (e) {
    say(e.message, 'error');
    return null;
  }
}

function renderQuestion(v) {
  const r = v.round || {};
  const kind = v.game && v.game.kind;
  const fresh = shownRound !== r.number;
  if (fresh) {
    shownRound = r.number;
    roundView = null;
    chosenPicture = null;
    typed = '';
    shownTrial = 0;
    }
  setText('#round-text', t('room.round', { number: r.number, count: r.of }));
  setText('#answered-text', t('room.answered', { answered: r.answered ?? 0, players: r.players ?? present(v).length }));
  // Color Match: everyone plays the same minute, nobody has "answered" before it ends.
  $('#answered-text').hidden = kind === 'color-match';
  for (const [game, selector] of Object.entries(GAME_AREAS)) $(selector).hidden = game !== kind;
  const answered = !!(you().answered || (mine() && mine().answered));
  if (r.view) roundView = r.view;
  const rv = roundView || {};
  // Someone who joined after the game began plays from the next one.
  const watching = !roundView && !answered;
  $('#question').classList.toggle('watching', watching);
  if (kind === 'picture-quiz') renderPictureQuiz(v, rv, fresh, answered);
  else if (kind === 'number') renderNumber(rv, answered);
  else if (kind === 'bullseye') renderBullseye(rv, r.number, fresh, answered);
  else if (kind === 'color-match') renderStroop(rv, answered);
  const waiting = $('#waiting');
  waiting.hidden = !answered && !watching;
  setText(waiting, watching ? t('room.watching') : answered ? t('room.waiting') : '');
  // Nothing of the round to show (a reload after answering, or not in this game): the wait only.
  if (!roundView) for (const selector of Object.values(GAME_AREAS)) $(selector).hidden = true;
  document.body.classList.toggle('answered', answered);
}

function renderPictureQuiz(v, rv, fresh, answered) {
  const deck = deckList.find((d) => d.id === (v.game && v.game.variant)) || null;
  setText('#pq-question', rv.answerName ? questionText(deck, rv.answerName) : '');
  const choices = rv.choices || [];
  if (choices.length && (fresh || $('#pq-pictures').children.length !== choices.length)) {
    $('#pq-pictures').dataset.count = String(choices.length);
    $('#pq-pictures').replaceChildren(...choices.map((id, i) => el('button', {
      type: 'button', class: 'picture', 'data-choice': i,
      'aria-label': t('pictureQuiz.picture', { number: i + 1, count: choices.length }),
      on: { click: () => choosePicture(i) },
    }, picture(id))));
  }
  const mark = rv.answer && typeof rv.answer.choice === 'number' ? rv.answer.choice : chosenPicture;
  const closed = answered || (rv.phase && rv.phase !== 'question') || chosenPicture !== null;
  [...$('#pq-pictures').children].forEach((b, i) => {
    b.disabled = closed;
    b.classList.toggle('chosen', i === mark);
    b.classList.toggle('fade', closed && mark !== null && i !== mark);
  });
}

async function choosePicture(index) {
  if (chosenPicture !== null) return;
  chosenPicture = index;
  render();
  if (!(await play({ type: 'choose', choice: index }))) {
    chosenPicture = null;
    render();
  }
}

function renderNumber(rv, answered) {
  if (!$('#pad').children.length) buildPad($('#pad'), pressKey);
  setText('#nu-hint', rv.hint ? tm(rv.hint) : tm(rv.message));
  $('#nu-hint').classList.toggle('said', !rv.hint);
  setText('#nu-range', rv.knownRangeText ? tm(rv.knownRangeText) : '');
  setText('#nu-attempts', rv.attemptsLeftText ? tm(rv.attemptsLeftText) : '');
  $('#nu-attempts').classList.toggle('last', !!rv.isLastAttempt && !rv.isOver);
  renderDisplay($('#display'), typed, numberWidth(rv));
  const over = !!rv.isOver || answered;
  for (const button of $('#pad').querySelectorAll('button')) button.disabled = over || sending;
}

const numberWidth = (rv) => rv.displayWidth || String(rv.high ?? 99).length;

// The digits are typed here and sent as one guess.
function pressKey(key) {
  const v = view();
  const rv = (v && v.round && v.round.view) || {};
  if (!v || v.phase !== 'question' || rv.isOver || sending) return;
  if (key === 'clear') typed = '';
  else if (key === 'backspace') typed = typed.slice(0, -1);
  else if (key === 'enter') { guessNumber(); return; }
  else if (typed.length < numberWidth(rv)) typed += key;
  renderDisplay($('#display'), typed, numberWidth(rv));
}

async function guessNumber() {
  if (!typed) return;
  const number = Number(typed);
  typed = '';
  sending = true;
  render();
  const after = await play({ type: 'guess', number });
  sending = false;
  // A miss that leaves attempts: the game's hint comes back (a last guess is judged in the reveal).
  const rv = after && after.round && after.round.view;
  if (rv && rv.hint && !rv.isOver) sound('wrong');
  render();
}

// Bullseye's target is a picture of the room's (no view carries the colour).
function renderBullseye(rv, round, fresh, answered) {
  if (fresh) setSliders(rv.startGuess || { r: 128, g: 128, b: 128 });
  const src = `${roomPath(code)}/target.svg?r=${round}`;
  if ($('#be-target').getAttribute('src') !== src) $('#be-target').src = src;
  const can = !answered && !sending && (rv.actions || ['check']).includes('check');
  $('#be-check').disabled = !can;
  for (const c of channels) $(`#${c}`).disabled = !can;
}

async function checkColour() {
  sending = true;
  render();
  await play({ type: 'check', guess: currentGuess() });
  sending = false;
  render();
}

// Color Match: the cards come and go as the server pushes each view (docs/rooms.md: a client
// never has to ask). One clock (the room's, in the bar) and the room's points: the solo game's score (+100/−100) is
// not what a room awards.
function renderStroop(rv, answered) {
  const points = view().round && view().round.points;
  setText('#cm-points', typeof points === 'number' ? t('room.cm.points', { count: points }) : '');
  setText('#cm-cards', t('room.cm.cards', { count: rv.answered ?? 0, correct: rv.correct ?? 0 }));
  const counting = rv.phase === 'countdown';
  $('#cm-countdown').hidden = !counting;
  $('#cm-trial').hidden = counting;
  if (counting) setText('#cm-countdown', String(rv.countdownSeconds ?? ''));
  if (rv.phase === 'trial' && rv.top && rv.bottom && rv.trialNumber !== shownTrial) {
    paintCard($('#cm-top'), rv.top);
    paintCard($('#cm-bottom'), rv.bottom);
    shownTrial = rv.trialNumber;
    trialShownAt = performance.now();
  }
  const can = rv.phase === 'trial' && !answered && !sending && !rv.isOver;
  $('#cm-yes').disabled = !can;
  $('#cm-no').disabled = !can;
}

async function answerStroop(match) {
  const reactionMs = Math.round((performance.now() - trialShownAt) * 10) / 10;
  sending = true;
  render();
  const after = await play({ type: 'answer', match, reactionMs });
  sending = false;
  const rv = after && after.round && after.round.view;
  if (rv && rv.lastAnswer) sound(rv.lastAnswer.correct ? 'correct' : 'wrong');
  render();
}

// ------------------------------------------------------------------------------------------------
// Guess or Pass in teams

function renderTurn(v) {
  const turn = v.turn || {};
  const tv = turn.view || {};
  const holder = playerById(v, turn.holder) || { name: '?' };
  const holding = !!you().holding || you().id === turn.holder;
  const mate = !holding && you().team === turn.team;
  setText('#turn-title', holding ? t('room.turn.yours') : t('room.turn.title', { team: teamName(turn.team), name: holder.name }));
  setText('#turn-round', turn.of ? t('room.turn.number', { number: turn.number, count: turn.of }) : '');
  $('#holder-box').hidden = !holding;
  $('#clue-box').hidden = holding;
  document.body.classList.toggle('holding', holding);
  // The holder's phone never shows the word, whatever a view carries.
  if (holding) setText('#clue-word', '');
  else if (mate) {
    setText('#clue-lead', tv.word ? t('room.turn.clue', { name: holder.name }) : t('room.turn.clueScreen', { name: holder.name }));
    setText('#clue-word', tv.word || '');
  } else {
    setText('#clue-lead', t('room.turn.watch', { team: teamName(turn.team) }));
    setText('#clue-word', '');
  }
  setText('#turn-guessed', t('room.turn.guessed', { count: tv.score ?? 0 }));
  $('#turn-scores').replaceChildren(teamScores(v));
}

async function answerWord(type) {
  const v = view();
  if (!v || v.phase !== 'turn' || sending || $('#turn-got').disabled) return;
  sending = true;
  $('#turn-got').disabled = true;
  $('#turn-pass').disabled = true;
  const after = await play({ type });
  sending = false;
  if (after) sound(type === 'guessed' ? 'correct' : 'wrong');
  $('#turn-got').disabled = false;
  $('#turn-pass').disabled = false;
  tick();
}


// ------------------------------------------------------------------------------------------------
// Reveal and podium

function renderReveal(v) {
  const result = ((v.reveal && v.reveal.results) || []).find((r) => r.id === you().id);
  const points = (v.round && typeof v.round.points === 'number') ? v.round.points : (result ? result.points : 0);
  const playing = !!result;
  const r = v.round || {};
  let title = t('screen.reveal.title', { number: r.number, count: r.of });
  if (playing) title = result.answered === false ? t('room.reveal.none') : result.correct ? t('room.reveal.right') : t('room.reveal.wrong');
  // Bullseye words a colour as the solo game does, by how different it looks ("Close",
  // "Different"): points alone do not make it right.
  const mine = (v.round && v.round.view) || {};
  const band = mine.result && mine.result.meaning && String(mine.result.meaning.key || '').split('.').pop();
  if (playing && result.answered !== false && v.game && v.game.kind === 'bullseye' && band) {
    title = t(`bullseye.close.${band}.word`);
  }
  const box = $('#reveal');
  box.classList.toggle('right', !!(result && result.correct));
  box.classList.toggle('wrong', !(result && result.correct));
  setText('#reveal-title', title);
  setText('#reveal-points', playing ? t('room.reveal.points', { count: points }) : '');
  const rv = (v.round && v.round.view) || {};
  const kind = v.game && v.game.kind;
  let answer = '';
  if (kind === 'picture-quiz' && rv.answerName) answer = t('room.reveal.answer', { answer: rv.answerName });
  else if (kind === 'number' && typeof rv.secret === 'number') answer = t('number.reveal', { number: rv.secret });
  setText('#reveal-answer', answer);
  $('#reveal-standings').replaceChildren(standingsList(v, shortStandings(v), you().id));
  if (soundedReveal !== (v.round && v.round.number)) {
    soundedReveal = v.round && v.round.number;
    if (result) sound(result.correct ? 'correct' : 'wrong');
  }
}

// The top five, and the player's own line when it is further down.
function shortStandings(v) {
  const rows = v.standings || [];
  const top = rows.slice(0, 5);
  const own = rows.find((r) => r.id === you().id);
  return own && !top.includes(own) ? [...top.slice(0, 4), own] : top;
}

function renderPodium(v) {
  const teams = teamPodiumOf(v);
  if (teams) { renderTeamPodium(v, teams); return; }
  const rows = v.standings || v.podium || [];
  const own = rows.find((r) => r.id === you().id) || (v.podium || []).find((r) => r.id === you().id);
  setText('#podium-title', own ? t('room.podium.rank', { place: own.rank }) : t('room.podium.title'));
  setText('#podium-score', own ? t('room.podium.score', { score: own.score }) : '');
  setText('#podium-medal', own ? ['🥇', '🥈', '🥉'][own.rank - 1] || '🎉' : '🏁');
  $('#podium-standings').replaceChildren(standingsList(v, rows, you().id));
  const fresh = !cheeredPodium;
  cheeredPodium = true;
  celebrate($('#podium'), own && own.rank === 1 ? [t('room.podium.won')] : [], fresh);
}

// A team game ends on the teams: who won (or tied), by how much, and each team's players.
function renderTeamPodium(v, rows) {
  const own = rows.find((row) => (row.players || []).includes(you().id));
  setText('#podium-title', teamResult(rows));
  setText('#podium-score', own ? t('room.podium.yourTeam', { team: teamName(own.team), score: own.score }) : '');
  setText('#podium-medal', own ? ['🥇', '🥈', '🥉'][own.rank - 1] || '🎉' : '🏁');
  $('#podium-standings').replaceChildren(el('ol', { class: 'team-podium' }, rows.map((row) => el('li', {
    class: `team-block team-${row.team % 4}${own === row ? ' you' : ''}`, 'data-team': row.team,
  },
  el('p', { class: 'team-head' }, el('span', { class: 'rank', text: formatNumber(row.rank) }), el('span', { text: teamName(row.team) }),
    el('strong', { text: formatNumber(row.score) })),
  el('ul', { class: 'team-members' }, (row.players || []).map((id) => {
    const p = playerById(v, id) || { id, name: '?' };
    return el('li', {}, avatar(p), el('span', { class: 'name', text: p.name }));
  }))))));
  const fresh = !cheeredPodium;
  cheeredPodium = true;
  celebrate($('#podium'), own && own.rank === 1 ? [t('room.podium.teamWon')] : [], fresh);
}

// ------------------------------------------------------------------------------------------------
// Keys and start

function onKey(event) {
  const v = view();
  if (!v || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest('input, select, textarea')) return;
  if (v.phase === 'question' && v.game && v.game.kind === 'number') {
    if (/^[0-9]$/.test(event.key)) pressKey(event.key);
    else if (event.key === 'Backspace') pressKey('backspace');
    else if (event.key === 'Escape' || event.key === 'Delete') pressKey('clear');
    else if (event.key === 'Enter' && !event.target.closest('button, a')) pressKey('enter');
    else return;
    event.preventDefault();
  } else if (v.phase === 'turn' && !$('#holder-box').hidden) {
    if (event.key === 'ArrowRight') answerWord('guessed');
    else if (event.key === 'ArrowLeft') answerWord('pass');
    else return;
    event.preventDefault();
  }
}

function wire() {
  $('#code-input').addEventListener('input', (e) => {
    const input = e.currentTarget;
    const value = normaliseCode(input.value);
    if (input.value !== value) input.value = value;
  });
  $('#join-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const wanted = normaliseCode($('#code-input').value);
    if (!validCode(wanted)) {
      say({ key: 'room.entry.invalid' }, 'error');
      $('#code-input').focus();
      return;
    }
    join(wanted);
  });
  $('#create-button').addEventListener('click', create);
  $('#rejoin').addEventListener('click', () => { if (code) join(code); });
  $('#leave').addEventListener('click', leave);
  $('#start').addEventListener('click', start);
  // Closing ends the night for everyone: asked once more, in a dialog, from a button far from
  // Next and Start.
  $('#close-room').addEventListener('click', () => openDialog($('#close-dialog')));
  $('#close-cancel').addEventListener('click', () => closeDialog($('#close-dialog')));
  $('#close-confirm').addEventListener('click', () => {
    closeDialog($('#close-dialog'));
    hostAct({ type: 'close' });
  });
  $('#back-to-lobby').addEventListener('click', () => hostAct({ type: 'lobby' }));
  $('#reveal-next').addEventListener('click', () => hostAct({ type: 'next' }));
  $('#turn-next').addEventListener('click', () => hostAct({ type: 'next' }));
  $('#be-check').addEventListener('click', checkColour);
  for (const c of channels) $(`#${c}`).addEventListener('input', preview);
  $('#cm-yes').addEventListener('click', () => answerStroop(true));
  $('#cm-no').addEventListener('click', () => answerStroop(false));
  $('#turn-got').addEventListener('click', () => answerWord('guessed'));
  $('#turn-pass').addEventListener('click', () => answerWord('pass'));
  document.addEventListener('keydown', onKey);
  everyQuarterSecond(tick);
}

async function main() {
  await boot();
  await ready;
  wire();
  try {
    deckList = await decks();
  } catch { /* Picture Quiz's questions then read "Tap the …" */ }
  const wanted = codeFromURL();
  if (wanted) await join(wanted);
  else showEntry();
}

main().catch((e) => say(e.message, 'error'));
