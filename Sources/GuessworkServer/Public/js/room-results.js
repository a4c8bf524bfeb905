// What a round and the game came to, on a phone (room.js draws the rest of the room page): the
// reveal (the player's own result, as their game words it, the answer and the top of the
// standings) and the podium (the player's place, or their team's). This file names no game: a
// game's module words its part (`room.reveal`: the top of room.js says what `room` holds).
import { el, $, setText } from './api.js';
import { play as sound } from './sound.js';
import { celebrate } from './celebrate.js';
import { t, formatNumber } from './i18n.js';
import { avatar, playerById, standingsList, teamName, teamPodiumOf, teamResult } from './room-common.js';

// The round whose reveal sounded (once a round, whatever views come).
let soundedReveal = null;

/** The reveal of view `v` for player `you` (their id); `game` is the game's `room`, `context(round)`
    what it is given to draw with. */
export function drawReveal(v, game, you, context) {
  const result = ((v.reveal && v.reveal.results) || []).find((r) => r.id === you);
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
  $('#reveal-standings').replaceChildren(standingsList(v, shortStandings(v, you), you));
  if (soundedReveal !== r.number) {
    soundedReveal = r.number;
    if (result) sound(result.correct ? 'correct' : 'wrong');
  }
}

// The top five, and the player's own line when it is further down.
function shortStandings(v, you) {
  const rows = v.standings || [];
  const top = rows.slice(0, 5);
  const own = rows.find((r) => r.id === you);
  return own && !top.includes(own) ? [...top.slice(0, 4), own] : top;
}

/** The podium of view `v` for player `you` (their id); `fresh`: the first time it is drawn (the
    cheer plays then). */
export function drawPodium(v, you, fresh) {
  const teams = teamPodiumOf(v);
  if (teams) { drawTeamPodium(v, teams, you, fresh); return; }
  const rows = v.standings || v.podium || [];
  const own = rows.find((r) => r.id === you) || (v.podium || []).find((r) => r.id === you);
  setText('#podium-title', own ? t('room.podium.rank', { place: own.rank }) : t('room.podium.title'));
  setText('#podium-score', own ? t('room.podium.score', { score: own.score }) : '');
  setText('#podium-medal', own ? ['🥇', '🥈', '🥉'][own.rank - 1] || '🎉' : '🏁');
  $('#podium-standings').replaceChildren(standingsList(v, rows, you));
  celebrate($('#podium'), own && own.rank === 1 ? [t('room.podium.won')] : [], fresh);
}

// A team game ends on the teams: who won (or tied), by how much, and each team's players.
function drawTeamPodium(v, rows, you, fresh) {
  const own = rows.find((row) => (row.players || []).includes(you));
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
  celebrate($('#podium'), own && own.rank === 1 ? [t('room.podium.teamWon')] : [], fresh);
}
