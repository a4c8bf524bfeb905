// The party room's shared screen (screen.html, on a TV or a laptop): the join code and its QR
// code, the players, each question with its clock and who has answered, the reveal, Guess or
// Pass turns, and the podium. Only the room's host may open it; the socket pushes every view.
// The protocol is docs/rooms.md. Each game draws its own part (its module's `room`: js/room.js
// says what it holds); this page names no game.
import { api, me, el, $, setText, say, showLanguageSwitch } from './api.js';
import { celebrate } from './celebrate.js';
import { play as sound } from './sound.js';
import { ready, t, formatNumber } from './i18n.js';
import {
  codeFromURL, roomPath, RoomSocket, ViewKeeper, hostAction, clockOf, seconds, gameTitle, avatar, playerById, present,
  teamName, standingsList, drawTurnOver, everyQuarterSecond, rememberPlaces, teamRoster, teamPodiumOf, teamResult, gameNow, drawHostNote,
} from './room-common.js';

const keeper = new ViewKeeper();
let code = null;
let socket = null;
let refused = null;
let cheered = false;
// The round (and the turn) drawn, and what draws it (the game's room.screen, room.turnScreen).
let shownRound = null;
let roundDrawer = null;
let shownTurn = null;
let turnDrawer = null;
// The phase drawn last: the status line goes when it changes.
let shownPhase = null;

const PHASE_SECTIONS = { lobby: '#s-lobby', question: '#s-question', reveal: '#s-reveal', turn: '#s-turn', turnOver: '#s-turn-over', podium: '#s-podium' };

function problem(title, text, standings = null) {
  if (socket) socket.stop();
  for (const selector of Object.values(PHASE_SECTIONS)) $(selector).hidden = true;
  for (const selector of ['#s-start', '#s-next', '#s-back']) $(selector).hidden = true;
  resetColours();
  $('#s-problem').hidden = false;
  setText('#s-problem-title', title);
  setText('#s-problem-text', text);
  // A closed room: the standings it came to.
  $('#s-problem-standings').hidden = !(standings && standings.length);
  $('#s-problem-list').replaceChildren(...(standings && standings.length ? [standingsList(keeper.view, standings)] : []));
}

// A socket that closed before it brought a view: the room may be gone, or this browser is not
// its host's. A room seen before is waited for (the network dropped).
async function lost() {
  if (keeper.view) return true;
  if (refused) { problem(t('screen.refused.title'), refused); return false; }
  try {
    const room = await api('GET', roomPath(code));
    if (room && room.open === false) { problem(t('room.closed.title'), t('room.closed.text')); return false; }
  } catch (e) {
    if (e.status === 0) return true;
    problem(t('screen.refused.title'), e.message);
    return false;
  }
  problem(t('screen.refused.title'), t('screen.notHost'));
  return false;
}

function accept(v) {
  if (!keeper.take(v)) return;
  render();
}

function render() {
  const v = keeper.view;
  rememberPlaces(v);
  if (shownPhase !== null && shownPhase !== v.phase) say('');
  shownPhase = v.phase;
  if (v.phase === 'closed') { problem(t('room.closed.title'), t('room.closed.text'), v.standings); return; }
  // The game's part of the page: its module, loaded once (the page is drawn again then).
  const game = v.game ? gameNow(v.game.kind, render) : null;
  if (game === undefined && v.phase !== 'lobby') return;
  $('#s-problem').hidden = true;
  document.body.dataset.phase = v.phase;
  drawHostNote(v);
  setText('#top-code', v.phase === 'lobby' || v.codeHidden ? '' : t('screen.codeShort', { code: v.code }));
  for (const [phase, selector] of Object.entries(PHASE_SECTIONS)) $(selector).hidden = phase !== v.phase;
  // While a player stands in for the host, they run the room from their phone.
  const standIn = Boolean(v.firstHost);
  $('#s-start').hidden = standIn || !(v.phase === 'lobby' && v.game);
  $('#s-next').hidden = standIn || !(v.phase === 'reveal' || v.phase === 'turnOver');
  $('#s-back').hidden = standIn || v.phase !== 'podium';
  // The game's colours while it is on (a deck's), the room's own otherwise.
  resetColours();
  if (game && game.paint && v.phase !== 'lobby') game.paint(v);
  if (v.phase !== 'podium') cheered = false;
  if (v.phase !== 'question') shownRound = null;
  if (v.phase !== 'turn') shownTurn = null;
  if (v.phase === 'lobby') renderLobby(v);
  else if (v.phase === 'question') renderQuestion(v, game);
  else if (v.phase === 'reveal') renderReveal(v, game);
  else if (v.phase === 'turn') renderTurn(v, game);
  else if (v.phase === 'turnOver') renderTurnOver(v, game);
  else if (v.phase === 'podium') renderPodium(v);
  tick();
}

/** What a game's module is given to draw with (js/room.js says what). */
const context = (round) => ({ code, round, view: () => keeper.view, redraw: render, tick });

// The room's own colours again (a deck's are only for its questions).
function resetColours() {
  for (const name of ['--g1', '--g2', '--g3']) document.body.style.removeProperty(name);
}

function tick() {
  const v = keeper.view;
  const running = v && clockOf(v);
  if (!running) return;
  const total = keeper.left(running.total);
  const countdown = keeper.left(running.countdown);
  const text = countdown > 0 ? t('screen.getReady', { seconds: seconds(countdown) }) : t('room.seconds', { seconds: seconds(total) });
  const node = $(v.phase === 'turn' ? '#s-turn-clock' : '#s-clock');
  setText(node, text);
  node.classList.toggle('last', !(countdown > 0) && total <= 5000);
}

function renderLobby(v) {
  // For a stream, the host may hide the code: the screen then says how to get in instead.
  const hidden = Boolean(v.codeHidden);
  $('#s-join').hidden = hidden;
  $('#s-code-hidden').hidden = !hidden;
  setText('#s-code', hidden ? '' : v.code);
  setText('#s-link', hidden ? '' : v.link || '');
  const qr = hidden ? '' : `${roomPath(v.code)}/qr.svg`;
  if (hidden) $('#s-qr').removeAttribute('src');
  else if ($('#s-qr').getAttribute('src') !== qr) $('#s-qr').src = qr;
  const people = present(v);
  setText('#s-count', t('room.lobby.count', { count: people.length, limit: v.limit }));
  setText('#s-next-game', v.game ? t('room.lobby.waitGame', { game: gameTitle(v) }) : t('room.lobby.wait'));
  // Team by team once the players have teams.
  people.sort((a, b) => (a.team ?? -1) - (b.team ?? -1));
  $('#s-players').replaceChildren(...people.map((p) => el('li', { class: p.connected === false ? 'away' : '', 'data-id': p.id },
    avatar(p, 'large'), el('span', { class: 'name', text: p.name }),
    typeof p.team === 'number' ? el('span', { class: `team-tag team-${p.team % 4}`, text: teamName(p.team) }) : null)));
}

function renderQuestion(v, game) {
  const r = v.round || {};
  const rv = r.view || {};
  setText('#s-round', t('room.round', { number: r.number, count: r.of }));
  if (shownRound !== r.number) {
    shownRound = r.number;
    $('#s-game').replaceChildren();
    roundDrawer = game && game.screen ? game.screen($('#s-game'), context(r.number)) : null;
  }
  setText('#s-question-text', (roundDrawer && roundDrawer.draw(rv)) || gameTitle(v));
  const people = present(v);
  // Color Match: everyone plays the same minute; what counts is how far each has got.
  const progress = r.progress && typeof r.progress === 'object' ? r.progress : null;
  $('#s-question').classList.toggle('progress', !!progress);
  if (progress) {
    const cards = people.reduce((sum, p) => sum + (progress[p.id] || 0), 0);
    setText('#s-answered', t('screen.cards', { count: cards }));
    $('#s-answered-list').replaceChildren(...people.map((p) => {
      const count = progress[p.id] || 0;
      return el('li', { class: count > 0 ? 'playing' : '' },
        avatar(p), el('span', { class: 'name', 'aria-hidden': 'true', text: p.name }),
        el('span', { class: 'cards', 'aria-hidden': 'true', text: formatNumber(count) }),
        el('span', { class: 'sr-only', text: t('screen.cardsOf', { name: p.name, count }) }));
    }));
    return;
  }
  const answered = r.answered ?? people.filter((p) => p.answered).length;
  setText('#s-answered', t('room.answered', { answered, players: r.players ?? people.length }));
  $('#s-answered-list').replaceChildren(...people.map((p) => el('li', { class: p.answered ? 'done' : '' },
    avatar(p), el('span', { class: 'name', 'aria-hidden': 'true', text: p.name }),
    el('span', { class: 'sr-only', text: p.answered ? t('screen.hasAnswered', { name: p.name }) : t('screen.notAnswered', { name: p.name }) }))));
}

function renderReveal(v, game) {
  const r = v.round || {};
  const rv = r.view || {};
  setText('#s-reveal-title', t('screen.reveal.title', { number: r.number, count: r.of }));
  const shown = (game && game.reveal && game.reveal(rv, context(r.number))) || {};
  setText('#s-reveal-answer', shown.answer || '');
  $('#s-reveal-pic').replaceChildren(...(shown.picture ? [shown.picture] : []));
  const results = [...((v.reveal && v.reveal.results) || [])].sort((a, b) => b.points - a.points);
  $('#s-results').replaceChildren(...results.map((result) => {
    const p = playerById(v, result.id) || { name: '?' };
    return el('li', { class: result.correct ? 'right' : 'wrong' }, avatar(p), el('span', { class: 'name', text: p.name }),
      el('span', { class: 'result-mark', role: 'img', 'aria-label': result.correct ? t('screen.right') : t('screen.wrong'), text: result.correct ? '✓' : '✗' }),
      el('span', { class: 'points', text: t('room.reveal.points', { count: result.points }) }));
  }));
  $('#s-standings').replaceChildren(standingsList(v, (v.standings || []).slice(0, 8)));
}

function renderTurn(v, game) {
  const turn = v.turn || {};
  const holder = playerById(v, turn.holder) || { name: '?' };
  setText('#s-turn-round', turn.of ? t('room.turn.number', { number: turn.number, count: turn.of }) : '');
  setText('#s-turn-title', teamName(turn.team));
  $('#s-turn-title').className = `screen-turn-title team-${(turn.team || 0) % 4}`;
  $('#s-holder').replaceChildren(avatar(holder, 'large'), el('span', { text: t('screen.turn.holder', { name: holder.name }) }));
  if (shownTurn !== turn.number) {
    shownTurn = turn.number;
    $('#s-turn-area').replaceChildren();
    turnDrawer = game && game.turnScreen ? game.turnScreen($('#s-turn-area'), context(turn.number)) : null;
  }
  if (turnDrawer) turnDrawer.draw(v);
  $('#s-turn-scores').replaceChildren(teamRoster(v, { current: turn.team }));
}

function renderTurnOver(v, game) {
  drawTurnOver(v, 's-', { roster: true });
  if (game && game.turnOver) game.turnOver($('#s-turn-over-words'), v, 's-');
}

// The top three on their steps (second, first, third from the left), everyone else below.
function renderPodium(v) {
  const teams = teamPodiumOf(v);
  if (teams) { renderTeamPodium(v, teams); return; }
  $('#s-podium').classList.remove('teams');
  const rows = v.podium && v.podium.length ? v.podium : v.standings || [];
  const top = rows.filter((row) => row.rank <= 3).slice(0, 3);
  const order = [top[1], top[0], top[2]].filter(Boolean);
  $('#s-podium-blocks').replaceChildren(...order.map((row) => el('li', { class: `step step-${Math.min(row.rank, 3)}` },
    avatar(playerById(v, row.id) || row, 'large'),
    el('span', { class: 'name', text: row.name }),
    el('span', { class: 'score', text: formatNumber(row.score) }),
    el('span', { class: 'block', text: String(row.rank) }))));
  const shown = new Set(top.map((row) => row.id));
  const rest = (v.standings || rows).filter((row) => !shown.has(row.id));
  $('#s-podium-rest').replaceChildren(...(rest.length ? [standingsList(v, rest)] : []));
  const fresh = !cheered;
  cheered = true;
  const winner = top.find((row) => row.rank === 1);
  celebrate($('#s-podium'), winner ? [t('screen.podium.winner', { name: winner.name })] : [], fresh);
  if (fresh && !winner) sound('win');
}

// A team game: the teams on the steps (the winner in the middle), each with its players; the
// result ("Team 2 wins, 6–5") is the celebration's line.
function renderTeamPodium(v, rows) {
  $('#s-podium').classList.add('teams');
  const top = rows.slice(0, 3);
  const order = top.length === 1 ? top : [top[1], top[0], top[2]].filter(Boolean);
  $('#s-podium-blocks').replaceChildren(...order.map((row) => el('li', {
    class: `step step-${Math.min(row.rank, 3)} team-step team-${row.team % 4}`, 'data-team': row.team,
  },
  el('ul', { class: 'team-members' }, (row.players || []).map((id) => {
    const p = playerById(v, id) || { id, name: '?' };
    return el('li', {}, avatar(p, 'large'), el('span', { class: 'name', text: p.name }));
  })),
  el('span', { class: 'name team-name', text: teamName(row.team) }),
  el('span', { class: 'score', text: formatNumber(row.score) }),
  el('span', { class: 'block', text: String(row.rank) }))));
  $('#s-podium-rest').replaceChildren(...(rows.length > 3 ? [el('ol', { class: 'standings' }, rows.slice(3).map((row) => el('li', {},
    el('span', { class: 'rank', text: formatNumber(row.rank) }), el('span', {}), el('span', { class: 'name', text: teamName(row.team) }),
    el('span', { class: 'score', text: formatNumber(row.score) }))))] : []));
  const fresh = !cheered;
  cheered = true;
  celebrate($('#s-podium'), [teamResult(rows)], fresh);
}

async function main() {
  await me();
  await ready;
  showLanguageSwitch();
  code = codeFromURL();
  if (!code) { problem(t('screen.refused.title'), t('screen.noCode')); return; }
  const act = (action) => hostAction(code, keeper, action, accept);
  $('#s-start').addEventListener('click', () => act({ type: 'start' }));
  $('#s-next').addEventListener('click', () => act({ type: 'next' }));
  $('#s-back').addEventListener('click', () => act({ type: 'lobby' }));
  socket = new RoomSocket(code, 'screen', {
    onView: accept,
    onState: (state) => { $('#conn').hidden = state !== 'reconnecting'; },
    onError: (message) => { refused = message; say(message, 'error'); },
    onLost: lost,
  });
  everyQuarterSecond(tick);
}

main().catch((e) => say(e.message, 'error'));
