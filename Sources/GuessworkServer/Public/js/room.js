// The party room on a phone (room.html): join with a code (or create a room and host it), then
// follow the room's views as its socket pushes them: the lobby, each round's own game, the
// reveal, Guess or Pass turns in teams, and the podium. The server is the only judge; this page
// draws what a view says and sends the player's taps. The protocol is docs/rooms.md. The lobby
// (and the host's menu in it) is drawn by room-lobby.js, the reveal and the podium by
// room-results.js; this file holds the rest: joining and leaving, being removed, each view's
// phase, a round and a team's turn, the keys, and the host's buttons outside the lobby.
//
// This page and the shared screen (screen.js) name no game: each game's module, js/games/<id>.js,
// exports `room`, loaded by the game's id (loadGame in room-common.js, with css/games/<id>.css),
// and draws its own part. A game without `room` is not offered. `room` holds what its game needs of:
//   settings: ['low', ...]    the host menu's main settings (the others go under "More settings")
//   load()                    once, before anything is drawn (a promise: Picture Quiz's decks)
//   hostSetup(box)            the host's choices beyond the settings (a deck, a category, teams),
//                             drawn into `box` (may be async); returns { set(game): shows the room's
//                             choice (view.game), read(): the fields it adds to the `choose` action }
//   together: true            everyone plays the whole round at once: no "answered" count
//   phone(area, ctx)          a round on a phone, drawn afresh into `area` each round; returns
//                             { draw(roundView, { answered }), key?(event): true when it took the key }
//   screen(area, ctx)         a round on the shared screen; returns { draw(roundView): the question
//                             line (or null: the game's title) }
//   reveal(roundView, ctx)    { answer: text, picture: node, title: the player's own result (phone) }
//   paint(view)               the shared screen's colours while the game is on (a deck's)
//   turnPhone(area, ctx)      a team game's turn on a phone: { draw(view, { holding, mate, holder }),
//                             tick({ countdown, total }), key?(event) }
//   turnScreen(area, ctx)     the turn on the shared screen: { draw(view) }
//   turnOver(area, view, prefix)  what the turn came to (its words), ids prefixed with `prefix`
// ctx: { code, round (its number), view() (the room's view now), send(action) (plays it: resolves
// with the view after it, or null), redraw(), tick() }.
import { api, boot, $, setText, say, openDialog, closeDialog } from './api.js';
import { ready, t } from './i18n.js';
import {
  normaliseCode, validCode, codeFromURL, setCodeInURL, roomPath, roomAction, RoomSocket, ViewKeeper,
  clockOf, seconds, hostAction, gameTitle, playerById, present, teamName, standingsList, drawTurnOver, teamScores, everyQuarterSecond,
  rememberPlaces, hostName, gameNow, drawHostNote,
} from './room-common.js';
import { wireLobby, drawLobby } from './room-lobby.js';
import { drawReveal, drawPodium } from './room-results.js';

const keeper = new ViewKeeper();
let code = null;
let socket = null;
// The round drawn (its number), so that a new one starts afresh and a view of the same one only
// updates it, and what draws it (the game's room.phone).
let shownRound = null;
let roundDrawer = null;
// The player's own game in that round, as last seen: a player done with a round is sent none
// until the reveal, and keeps seeing their answer.
let roundView = null;
// The team turn drawn (its number) and what draws it (the game's room.turnPhone).
let shownTurn = null;
let turnDrawer = null;
// Whether the podium drawn has cheered (once, when it first shows).
let cheeredPodium = false;
// The phase drawn last: a status line (an error of the last round...) goes when it changes.
let shownPhase = null;
// A removed player's page asks now and then whether the host let them back in (a socket, closed
// at once while they are still out).
let readmitWatch = 0;
let readmitProbe = null;

const PHASE_SECTIONS = { lobby: '#lobby', question: '#question', reveal: '#reveal', turn: '#turn', turnOver: '#turn-over', podium: '#podium' };

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
  // The game's part of the page: its module, loaded once (the page is drawn again then).
  const game = v.game ? gameNow(v.game.kind, render) : null;
  if (game === undefined && v.phase !== 'lobby') return;
  stopReadmitWatch();
  $('#entry').hidden = true;
  $('#gone').hidden = true;
  $('#room').hidden = false;
  document.body.dataset.phase = v.phase;
  for (const row of document.querySelectorAll('.host-row')) row.hidden = !you().host;
  $('#close-room').hidden = !you().host;
  drawHostNote(v);
  $('#reclaim').hidden = !v.firstHost || v.firstHost !== you().id;
  // Who the others wait for, between rounds: the host (while they are away, nobody).
  const waitFor = you().host ? ''
    : v.hostAway && v.phase !== 'podium' ? t('room.wait.byItself')
      : t(v.phase === 'podium' ? 'room.wait.podium' : 'room.wait.next', { name: hostName(v) });
  for (const id of ['#reveal-wait', '#turn-over-wait', '#podium-wait']) setText(id, waitFor);
  setText('#bar-code', v.code);
  setText('#bar-game', v.phase !== 'lobby' ? gameTitle(v) : '');
  for (const [phase, selector] of Object.entries(PHASE_SECTIONS)) $(selector).hidden = phase !== v.phase;
  if (v.phase !== 'question') shownRound = null;
  if (v.phase !== 'turn') shownTurn = null;
  if (v.phase === 'lobby') drawLobby(v);
  else if (v.phase === 'question') renderQuestion(v, game);
  else if (v.phase === 'reveal') drawReveal(v, game, you().id, context);
  else if (v.phase === 'turn') renderTurn(v, game);
  else if (v.phase === 'turnOver') renderTurnOver(v, game);
  else if (v.phase === 'podium') { drawPodium(v, you().id, !cheeredPodium); cheeredPodium = true; }
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
    if (turnDrawer && turnDrawer.tick) turnDrawer.tick({ countdown, total });
  }
}

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

/** What a game's module is given to draw with (see the top of this file). */
function context(round) {
  return { code, round, view, send: play, redraw: render, tick };
}

function renderQuestion(v, game) {
  const r = v.round || {};
  const fresh = shownRound !== r.number;
  if (fresh) {
    shownRound = r.number;
    roundView = null;
    roundDrawer = null;
    $('#game-area').replaceChildren();
  }
  setText('#round-text', t('room.round', { number: r.number, count: r.of }));
  setText('#answered-text', t('room.answered', { answered: r.answered ?? 0, players: r.players ?? present(v).length }));
  // A game everyone plays at once (Color Match's minute): nobody has "answered" before it ends.
  $('#answered-text').hidden = !!(game && game.together);
  const answered = !!(you().answered || (mine() && mine().answered));
  if (r.view) roundView = r.view;
  // Someone who joined after the game began plays from the next one.
  const watching = !roundView && !answered;
  $('#question').classList.toggle('watching', watching);
  // Nothing of the round to show (a reload after answering, or not in this game): the wait only.
  $('#game-area').hidden = !roundView;
  if (roundView && game && game.phone) {
    if (!roundDrawer) roundDrawer = game.phone($('#game-area'), context(r.number));
    roundDrawer.draw(roundView, { answered });
  }
  const waiting = $('#waiting');
  waiting.hidden = !answered && !watching;
  setText(waiting, watching ? t('room.watching') : answered ? t('room.waiting') : '');
  document.body.classList.toggle('answered', answered);
}

// ------------------------------------------------------------------------------------------------
// A team game's turns (Guess or Pass in teams): who holds the phone, the teams' scores; the
// game draws the rest (room.turnPhone, room.turnOver).

function renderTurn(v, game) {
  const turn = v.turn || {};
  const holder = playerById(v, turn.holder) || { name: '?' };
  const holding = !!you().holding || you().id === turn.holder;
  const mate = !holding && you().team === turn.team;
  setText('#turn-title', holding ? t('room.turn.yours') : t('room.turn.title', { team: teamName(turn.team), name: holder.name }));
  setText('#turn-round', turn.of ? t('room.turn.number', { number: turn.number, count: turn.of }) : '');
  document.body.classList.toggle('holding', holding);
  if (shownTurn !== turn.number) {
    shownTurn = turn.number;
    $('#turn-area').replaceChildren();
    turnDrawer = game && game.turnPhone ? game.turnPhone($('#turn-area'), context(turn.number)) : null;
  }
  if (turnDrawer) turnDrawer.draw(v, { holding, mate, holder });
  $('#turn-scores').replaceChildren(teamScores(v));
}

function renderTurnOver(v, game) {
  drawTurnOver(v, '');
  if (game && game.turnOver) game.turnOver($('#turn-over-words'), v, '');
}

// ------------------------------------------------------------------------------------------------
// The host's buttons, keys and start

const hostAct = (action) => hostAction(code, keeper, action, accept);

function onKey(event) {
  const v = view();
  if (!v || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest('input, select, textarea')) return;
  const drawer = v.phase === 'question' ? roundDrawer : v.phase === 'turn' ? turnDrawer : null;
  if (drawer && drawer.key && drawer.key(event)) event.preventDefault();
}

function wire() {
  wireLobby({ code: () => code, you, mine, accept, hostAct });
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
  $('#reclaim').addEventListener('click', () => hostAct({ type: 'reclaim' }));
  document.addEventListener('keydown', onKey);
  everyQuarterSecond(tick);
}

async function main() {
  await boot();
  await ready;
  wire();
  const wanted = codeFromURL();
  if (wanted) await join(wanted);
  else showEntry();
}

main().catch((e) => say(e.message, 'error'));
