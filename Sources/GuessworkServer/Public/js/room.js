// The party room on a phone (room.html): join with a code (or create a room and host it), then
// follow the room's views as its socket pushes them: the lobby, each round's own game, the
// reveal, Guess or Pass turns in teams, and the podium. The server is the only judge; this page
// draws what a view says and sends the player's taps. The protocol is docs/rooms.md.
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
import { api, boot, catalog, gameEntry, el, $, setText, say, openDialog, closeDialog, showPlayerChip } from './api.js';
import { settingsForm, readSettings } from './settings-form.js';
import { play as sound } from './sound.js';
import { celebrate } from './celebrate.js';
import { ready, t, formatNumber } from './i18n.js';
import { wireAvatarPicker } from './avatar-picker.js';
import {
  normaliseCode, validCode, codeFromURL, setCodeInURL, roomPath, roomAction, RoomSocket, ViewKeeper,
  clockOf, seconds, hostAction, gameTitle, avatar, playerById, present, teamName, standingsList, drawTurnOver, teamScores, everyQuarterSecond,
  rememberPlaces, hostName, teamPodiumOf, teamResult, loadGame, gameNow,
} from './room-common.js';

const keeper = new ViewKeeper();
let code = null;
let socket = null;
let hostPanelBuilt = false;
let chooseTimer = 0;
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
// The host menu's own part of each game (room.hostSetup), by the game's id.
const hostSetups = new Map();
let soundedReveal = null;
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
  // Who the others wait for, between rounds: the host.
  const waitFor = you().host ? '' : t(v.phase === 'podium' ? 'room.wait.podium' : 'room.wait.next', { name: hostName(v) });
  for (const id of ['#reveal-wait', '#turn-over-wait', '#podium-wait']) setText(id, waitFor);
  setText('#bar-code', v.code);
  setText('#bar-game', v.phase !== 'lobby' ? gameTitle(v) : '');
  for (const [phase, selector] of Object.entries(PHASE_SECTIONS)) $(selector).hidden = phase !== v.phase;
  if (v.phase !== 'question') shownRound = null;
  if (v.phase !== 'turn') shownTurn = null;
  if (v.phase === 'lobby') renderLobby(v);
  else if (v.phase === 'question') renderQuestion(v, game);
  else if (v.phase === 'reveal') renderReveal(v, game);
  else if (v.phase === 'turn') renderTurn(v, game);
  else if (v.phase === 'turnOver') renderTurnOver(v, game);
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
    if (turnDrawer && turnDrawer.tick) turnDrawer.tick({ countdown, total });
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
// a reload): the games a room can play (`rooms` in the catalog; without that field, those whose
// module has a `room`). Every change is sent as the room's choice, and Start sends it once more.
async function buildHostPanel(v) {
  hostPanelBuilt = true;
  const { games } = await catalog();
  const offered = [];
  for (const g of games) {
    if (g.rooms === false) continue;
    if (g.rooms === true || (await loadGame(g.id))) offered.push(g);
  }
  $('#host-game').replaceChildren(...offered.map((g) => el('option', { value: g.id, text: `${g.emoji} ${g.title}` })));
  if (v.game && offered.some((g) => g.id === v.game.kind)) $('#host-game').value = v.game.kind;
  await drawSettings(v.game);
  $('#host-game').addEventListener('change', async () => { await drawSettings(null); chooseSoon(); });
  for (const id of ['#host-game-setup', '#host-settings']) $(id).addEventListener('change', chooseSoon);
}

/** The chosen game's settings and own choices; `game`, the room's choice, fills them in. */
async function drawSettings(game) {
  const id = $('#host-game').value;
  const [entry, room] = await Promise.all([gameEntry(id), loadGame(id)]);
  if ($('#host-game').value !== id) return; // another game was chosen meanwhile
  settingsForm(entry, $('#host-settings'), { prefix: 'room-set-', main: room && room.settings });
  const values = game && game.settings;
  for (const input of $('#host-settings').querySelectorAll('[data-setting]')) {
    const value = values && values[input.dataset.setting];
    if (value === undefined || value === null) continue;
    if (input.dataset.kind === 'flag') input.checked = !!value;
    else input.value = String(value);
    input.dispatchEvent(new Event('input'));
  }
  // Each game's own part is drawn once and kept (what was chosen in it stays when the host looks
  // at another game and comes back).
  if (!hostSetups.has(id) && room && room.hostSetup) {
    const box = el('div', { 'data-game': id });
    $('#host-game-setup').append(box);
    hostSetups.set(id, { box, setup: await room.hostSetup(box) });
  }
  for (const [other, { box }] of hostSetups) box.hidden = other !== id;
  if (game && game.kind === id && hostSetups.has(id)) hostSetups.get(id).setup.set(game);
}

function chosen() {
  const game = $('#host-game').value;
  const own = hostSetups.has(game) ? hostSetups.get(game).setup.read() : {};
  return { type: 'choose', game, settings: readSettings($('#host-settings')), ...own };
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
// Reveal and podium

function renderReveal(v, game) {
  const result = ((v.reveal && v.reveal.results) || []).find((r) => r.id === you().id);
  const points = (v.round && typeof v.round.points === 'number') ? v.round.points : (result ? result.points : 0);
  const playing = !!result;
  const r = v.round || {};
  const rv = r.view || {};
  const shown = (game && game.reveal && game.reveal(rv, context(r.number))) || {};
  let title = t('screen.reveal.title', { number: r.number, count: r.of });
  if (playing) title = result.answered === false ? t('room.reveal.none') : result.correct ? t('room.reveal.right') : t('room.reveal.wrong');
  // A game may word the player's result its own way (Bullseye: by how different the colour
  // looks, "Close", "Different": points alone do not make it right).
  if (playing && result.answered !== false && shown.title) title = shown.title;
  const box = $('#reveal');
  box.classList.toggle('right', !!(result && result.correct));
  box.classList.toggle('wrong', !(result && result.correct));
  setText('#reveal-title', title);
  setText('#reveal-points', playing ? t('room.reveal.points', { count: points }) : '');
  setText('#reveal-answer', shown.answer || '');
  $('#reveal-standings').replaceChildren(standingsList(v, shortStandings(v), you().id));
  if (soundedReveal !== r.number) {
    soundedReveal = r.number;
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
  const drawer = v.phase === 'question' ? roundDrawer : v.phase === 'turn' ? turnDrawer : null;
  if (drawer && drawer.key && drawer.key(event)) event.preventDefault();
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
