// The party room's shared screen (screen.html, on a TV or a laptop): the join code and its QR
// code, the players, each question with its clock and who has answered, the reveal, Guess or
// Pass turns, and the podium. Only the room's host may open it; the socket pushes every view.
// The protocol is docs/rooms.md.
import { api, me, el, $, setText, say, showLanguageSwitch } from './api.js';
import { celebrate } from './celebrate.js';
import { play as sound } from './sound.js';
import { questionText, picture, paintDeckColours } from './pictures.js';
import { ready, t, formatNumber } from './i18n.js';
import {
  codeFromURL, roomPath, RoomSocket, ViewKeeper, hostAction, clockOf, seconds, gameTitle, avatar, playerById, present,
  teamName, standingsList, drawTurnOver, decks, everyQuarterSecond, rememberPlaces, teamRoster, teamPodiumOf, teamResult,
} from './room-common.js';

const keeper = new ViewKeeper();
let code = null;
let socket = null;
let deckList = [];
let refused = null;
let cheered = false;
let shownQuestion = null;
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
  $('#s-problem').hidden = true;
  document.body.dataset.phase = v.phase;
  setText('#top-code', v.phase === 'lobby' ? '' : t('screen.codeShort', { code: v.code }));
  for (const [phase, selector] of Object.entries(PHASE_SECTIONS)) $(selector).hidden = phase !== v.phase;
  $('#s-start').hidden = !(v.phase === 'lobby' && v.game);
  $('#s-next').hidden = !(v.phase === 'reveal' || v.phase === 'turnOver');
  $('#s-back').hidden = v.phase !== 'podium';
  const deck = deckOf(v);
  // A deck's colours while its questions are on, the room's own otherwise.
  if (deck && v.game.kind === 'picture-quiz' && v.phase !== 'lobby') paintDeckColours(deck);
  else resetColours();
  if (v.phase !== 'podium') cheered = false;
  if (v.phase === 'lobby') renderLobby(v);
  else if (v.phase === 'question') renderQuestion(v, deck);
  else if (v.phase === 'reveal') renderReveal(v);
  else if (v.phase === 'turn') renderTurn(v);
  else if (v.phase === 'turnOver') drawTurnOver(v, 's-', { roster: true });
  else if (v.phase === 'podium') renderPodium(v);
  tick();
}

const deckOf = (v) => deckList.find((d) => d.id === (v.game && v.game.variant)) || null;

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
  setText('#s-code', v.code);
  setText('#s-link', v.link || '');
  const qr = `${roomPath(v.code)}/qr.svg`;
  if ($('#s-qr').getAttribute('src') !== qr) $('#s-qr').src = qr;
  const people = present(v);
  setText('#s-count', t('room.lobby.count', { count: people.length, limit: v.limit }));
  setText('#s-next-game', v.game ? t('room.lobby.waitGame', { game: gameTitle(v) }) : t('room.lobby.wait'));
  // Team by team once the players have teams.
  people.sort((a, b) => (a.team ?? -1) - (b.team ?? -1));
  $('#s-players').replaceChildren(...people.map((p) => el('li', { class: p.connected === false ? 'away' : '', 'data-id': p.id },
    avatar(p, 'large'), el('span', { class: 'name', text: p.name }),
    typeof p.team === 'number' ? el('span', { class: `team-tag team-${p.team % 4}`, text: teamName(p.team) }) : null)));
}

function renderQuestion(v, deck) {
  const r = v.round || {};
  const rv = r.view || {};
  const kind = v.game && v.game.kind;
  setText('#s-round', t('room.round', { number: r.number, count: r.of }));
  let question = gameTitle(v);
  if (kind === 'picture-quiz' && rv.answerName) question = questionText(deck, rv.answerName);
  else if (kind === 'number' && typeof rv.low === 'number') question = t('screen.number.ask', { low: rv.low, high: rv.high });
  else if (kind === 'bullseye') question = t('screen.bullseye.ask');
  else if (kind === 'color-match') question = t('screen.stroop.ask');
  setText('#s-question-text', question);
  const key = `${r.number}:${(rv.choices || []).join(',')}`;
  if (shownQuestion !== key) {
    shownQuestion = key;
    $('#s-pictures').replaceChildren(...(kind === 'picture-quiz' ? (rv.choices || []) : []).map((id) => el('span', { class: 'screen-picture' }, picture(id))));
  }
  const target = $('#s-target');
  target.hidden = kind !== 'bullseye';
  const src = `${roomPath(v.code)}/target.svg?r=${r.number}`;
  if (kind === 'bullseye' && target.getAttribute('src') !== src) target.src = src;
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

function renderReveal(v) {
  const r = v.round || {};
  const rv = r.view || {};
  const kind = v.game && v.game.kind;
  setText('#s-reveal-title', t('screen.reveal.title', { number: r.number, count: r.of }));
  let answer = '';
  let pic = null;
  if (kind === 'picture-quiz' && rv.answerName) {
    answer = t('room.reveal.answer', { answer: rv.answerName });
    const right = rightPicture(rv);
    if (right) pic = picture(right, rv.answerName);
  } else if (kind === 'number' && typeof rv.secret === 'number') {
    answer = t('number.reveal', { number: rv.secret });
  }
  setText('#s-reveal-answer', answer);
  $('#s-reveal-pic').replaceChildren(...(pic ? [pic] : []));
  const results = [...((v.reveal && v.reveal.results) || [])].sort((a, b) => b.points - a.points);
  $('#s-results').replaceChildren(...results.map((result) => {
    const p = playerById(v, result.id) || { name: '?' };
    return el('li', { class: result.correct ? 'right' : 'wrong' }, avatar(p), el('span', { class: 'name', text: p.name }),
      el('span', { class: 'result-mark', role: 'img', 'aria-label': result.correct ? t('screen.right') : t('screen.wrong'), text: result.correct ? '✓' : '✗' }),
      el('span', { class: 'points', text: t('room.reveal.points', { count: result.points }) }));
  }));
  $('#s-standings').replaceChildren(standingsList(v, (v.standings || []).slice(0, 8)));
}

// The right picture of a Picture Quiz question, when the view says which it was.
function rightPicture(rv) {
  if (rv.answer && rv.answer.rightId) return rv.answer.rightId;
  const index = rv.answer && typeof rv.answer.rightChoice === 'number' ? rv.answer.rightChoice : rv.rightChoice;
  return typeof index === 'number' && rv.choices ? rv.choices[index] : null;
}

function renderTurn(v) {
  const turn = v.turn || {};
  const tv = turn.view || {};
  const holder = playerById(v, turn.holder) || { name: '?' };
  setText('#s-turn-round', turn.of ? t('room.turn.number', { number: turn.number, count: turn.of }) : '');
  setText('#s-turn-title', teamName(turn.team));
  $('#s-turn-title').className = `screen-turn-title team-${(turn.team || 0) % 4}`;
  $('#s-holder').replaceChildren(avatar(holder, 'large'), el('span', { text: t('screen.turn.holder', { name: holder.name }) }));
  const onPhones = v.game && v.game.wordsOn === 'phones';
  setText('#s-word', tv.word || (onPhones ? t('screen.turn.wordOnPhones') : ''));
  $('#s-word').classList.toggle('quiet', !tv.word);
  setText('#s-turn-guessed', t('room.turn.guessed', { count: tv.score ?? 0 }));
  $('#s-turn-scores').replaceChildren(teamRoster(v, { current: turn.team }));
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
  try {
    deckList = await decks();
  } catch { /* questions then read "Tap the …" */ }
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
