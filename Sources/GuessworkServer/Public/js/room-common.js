// What the party room's two pages share (room.html on the phones, screen.html on the shared
// screen): the room's code in the address, the socket that pushes the room's views (and comes
// back by itself), actions, clocks, and the parts both draw: avatars, standings, team names.
// The protocol is docs/rooms.md.
import { $, api, el, initialOf, say, setText } from './api.js';
import { hideOffline } from './offline.js';
import { t, tm, formatNumber, formatList } from './i18n.js';
import { roomPath, seconds, teamName, decks, markup } from './room-parts.js';

// The parts a game's module uses, from room-parts.js (which its solo page loads alone).
export { roomPath, seconds, teamName, decks, markup };

const CODE_LETTERS = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A typed code as the server reads it: capitals, without spaces or dashes. */
export function normaliseCode(text) {
  return String(text || '').toUpperCase().replace(/[\s-]/g, '');
}

/** Whether `code` (normalised) can be a room's: 4 to 6 of the code letters. */
export function validCode(code) {
  return code.length >= 4 && code.length <= 6 && [...code].every((c) => CODE_LETTERS.includes(c));
}

/** The room code in the page's address (?code=K7QM), normalised, or null. */
export function codeFromURL() {
  const code = normaliseCode(new URLSearchParams(location.search).get('code'));
  return code || null;
}

export function setCodeInURL(code) {
  const url = new URL(location.href);
  if (code) url.searchParams.set('code', code);
  else url.searchParams.delete('code');
  history.replaceState(null, '', url);
}


/** One action in the room; resolves with the caller's view after it (ApiError otherwise). */
export function roomAction(code, version, action) {
  return api('POST', `${roomPath(code)}/actions`, { version, action });
}

/**
 * A host action with the version of the view `keeper` holds; the view after it goes to
 * `onView`. A host's actions go one at a time, each with the version its predecessor's answer
 * brought: a start clicked while the settings chosen a moment ago are still on their way waits
 * for them, instead of carrying the version before them. A stale version is no error: the next
 * pushed view is on its way. Resolves with the view after the action, or null.
 */
export function hostAction(code, keeper, action, onView) {
  const send = async () => {
    if (!keeper.view) return null;
    try {
      const after = await roomAction(code, keeper.view.version, action);
      say('');
      onView(after);
      return after;
    } catch (e) {
      if (e.code !== 'stale-version') say(e.message, 'error');
      return null;
    }
  };
  keeper.hostActions = keeper.hostActions.then(send);
  return keeper.hostActions;
}

const MIN_DELAY = 500;
const MAX_DELAY = 5000;
const PING_EVERY = 25000;

/**
 * The room's socket: every `{"type":"room"}` view goes to `onView`. It comes back by itself
 * when it drops (after 0.5 s, then twice as long each time, at most 5 s), unless the player was
 * removed (`onKicked`) or the room closed, or `stop()` was called. `onState(state)` hears
 * 'open' (a view arrived) and 'reconnecting'; `onError(message)` the server's refusals;
 * `onLost()` a socket that closed before it brought any view (the page may ask why, and stop).
 */
export class RoomSocket {
  constructor(code, as, handlers) {
    this.code = code;
    this.as = as;
    this.handlers = handlers;
    this.socket = null;
    this.failures = 0;
    this.stopped = false;
    this.timer = 0;
    this.ping = 0;
    this.sawView = false;
    this.open();
    this.wake = () => { if (!this.socket && !this.stopped) { clearTimeout(this.timer); this.open(); } };
    window.addEventListener('online', this.wake);
    document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') this.wake(); });
    // A page left for another lets its socket go (else Chromium's back/forward cache keeps it
    // open, and a host gone home would never be away), and opens it again if shown again.
    window.addEventListener('pagehide', () => this.pause());
    window.addEventListener('pageshow', (event) => { if (event.persisted) this.wake(); });
  }

  /** Closes the socket for now, without a retry: `wake` opens it again. */
  pause() {
    clearTimeout(this.timer);
    clearInterval(this.ping);
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close();
  }

  open() {
    if (this.stopped) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${location.host}${roomPath(this.code)}/socket?as=${this.as}`);
    this.socket = socket;
    this.sawView = false;
    socket.addEventListener('message', (event) => this.message(event.data));
    socket.addEventListener('open', () => {
      clearInterval(this.ping);
      this.ping = setInterval(() => { if (socket.readyState === WebSocket.OPEN) socket.send('{"type":"ping"}'); }, PING_EVERY);
    });
    socket.addEventListener('close', () => this.closed(socket));
  }

  message(data) {
    let message;
    try { message = JSON.parse(data); } catch { return; }
    if (message.type === 'room') {
      this.sawView = true;
      this.failures = 0;
      hideOffline(); // a request that failed while the server was away had said it was
      if (message.phase === 'closed') this.stopped = true;
      this.handlers.onState?.('open');
      this.handlers.onView(message);
    } else if (message.type === 'kicked') {
      this.stopped = true;
      this.handlers.onKicked?.();
    } else if (message.type === 'error') {
      this.handlers.onError?.(message.message || message.code);
    }
  }

  closed(socket) {
    if (socket !== this.socket) return;
    clearInterval(this.ping);
    this.socket = null;
    if (this.stopped) return;
    if (!this.sawView && this.handlers.onLost) {
      // Asked why (no such room, not the host...): the page says so and may stop.
      Promise.resolve(this.handlers.onLost()).then((goOn) => { if (goOn !== false) this.retry(); });
      return;
    }
    this.retry();
  }

  retry() {
    if (this.stopped) return;
    this.handlers.onState?.('reconnecting');
    const delay = Math.min(MAX_DELAY, MIN_DELAY * 2 ** this.failures);
    this.failures += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), delay);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.ping);
    if (this.socket) this.socket.close();
    this.socket = null;
  }
}

/**
 * Keeps the newest view: a view older than the one kept (a lower version) is ignored. Returns
 * whether `view` was taken.
 */
export class ViewKeeper {
  constructor() {
    this.view = null;
    this.receivedAt = 0;
    /** The host's last action (see hostAction): the next waits for it. */
    this.hostActions = Promise.resolve();
  }

  take(view) {
    if (!view || view.type !== 'room') return false;
    if (this.view && view.version < this.view.version) return false;
    this.view = view;
    this.receivedAt = performance.now();
    return true;
  }

  /** Milliseconds left of `ms` as the kept view said it (the server's clock counts, not ours). */
  left(ms) {
    if (typeof ms !== 'number') return null;
    return Math.max(0, ms - (performance.now() - this.receivedAt));
  }
}

/** What is counted down now: the turn (Guess or Pass in teams, after its countdown) or the
    round; null when nothing runs. */
export function clockOf(view) {
  if (!view) return null;
  if ((view.phase === 'turn') && view.turn && view.turn.view) {
    const v = view.turn.view;
    if (v.phase === 'countdown') return { countdown: v.countdownRemainingMs, total: v.remainingMs };
    if (typeof v.remainingMs === 'number') return { total: v.remainingMs };
  }
  if (view.phase === 'question' && view.round && typeof view.round.remainingMs === 'number') {
    return { total: view.round.remainingMs };
  }
  return null;
}

// Each player's colour: one of twelve (css/room.css, .pc-0 to .pc-11), by their place in the
// room's list of players (the order they joined), so that no two of the first twelve look alike.
const PLAYER_COLOURS = 12;
let places = new Map();

/** Remembers each player's place in `view`'s list: avatar() colours them by it. */
export function rememberPlaces(view) {
  places = new Map((view.players || []).map((p, i) => [p.id, i]));
}

/** The class of a player's colour ("pc-3"), or '' for someone not in the list. */
export const colourClass = (id) => (places.has(id) ? `pc-${places.get(id) % PLAYER_COLOURS}` : '');

/** A player's picture in their colour: the avatar with a ring of it, or their initial on a disc of
    it. */
export function avatar(player, size = 'small') {
  if (player && player.avatar) {
    // A picture changed on this page is asked for afresh (api.js's uploadAvatar counts them).
    const src = `${player.avatar}?v=${sessionStorage.getItem('avatar-v') || '0'}`;
    const img = el('img', { class: `avatar ${size} ${colourClass(player.id)}`, src, alt: '', loading: 'lazy' });
    img.addEventListener('error', () => img.replaceWith(initialAvatar(player, size)), { once: true });
    return img;
  }
  return initialAvatar(player, size);
}

function initialAvatar(player, size) {
  return el('span', {
    class: `avatar ${size} initial ${colourClass(player && player.id)}`, 'aria-hidden': 'true', text: initialOf(player && player.name),
  });
}

/** The host's name (from the players' list), or "the host". */
export function hostName(view) {
  const host = (view.players || []).find((p) => p.host);
  return host ? host.name : t('room.theHost');
}

/** What the room is told of its host: gone a while (the game goes on by itself), or someone
    standing in for them; '' when the host is there. */
export function hostNote(view) {
  if (view.hostAway) {
    const host = (view.players || []).find((p) => p.host);
    return host ? t('room.hostAway.named', { name: host.name }) : t('room.hostAway.unnamed');
  }
  if (view.firstHost) {
    const first = playerById(view, view.firstHost);
    return t('room.standIn', { name: hostName(view), first: first ? first.name : t('room.theHost') });
  }
  return '';
}

/** Shows `hostNote` in `#host-note-text` (its box hidden when there is nothing to say). */
export function drawHostNote(view) {
  const note = hostNote(view);
  setText('#host-note-text', note);
  $('#host-note').hidden = !note;
}

/** The title of the room's chosen game (a message, in the viewer's language), or ''. */
export const gameTitle = (view) => (view.game ? tm(view.game.title) : '');

export const playerById = (view, id) => (view.players || []).find((p) => p.id === id) || null;

/** The players still in the room (not removed). */
export const present = (view) => (view.players || []).filter((p) => !p.kicked);

/** The standings as a list: rank, picture, name, score; `you` is marked. */
export function standingsList(view, rows, you) {
  return el('ol', { class: 'standings' }, rows.map((row) => el('li', { class: row.id === you ? 'you' : '' },
    el('span', { class: 'rank', text: formatNumber(row.rank) }),
    avatar(playerById(view, row.id) || row),
    el('span', { class: 'name', text: row.name }),
    el('span', { class: 'score', text: formatNumber(row.score) }))));
}

/** The room's teams, [{number, players, score}]: the view's, else gathered from the players'
    `team` (none when the players have no team). */
export function teamsOf(view) {
  if (view.teams && view.teams.length) return view.teams;
  const teams = new Map();
  for (const p of present(view)) {
    if (typeof p.team !== 'number') continue;
    if (!teams.has(p.team)) teams.set(p.team, { number: p.team, players: [], score: 0 });
    teams.get(p.team).players.push(p.id);
  }
  return [...teams.values()].sort((a, b) => a.number - b.number);
}

/** Who is in which team: a block a team in its colour, its name, its score (`scores`) and its
    players; `current`, the team playing now, stands out. */
export function teamRoster(view, { scores = true, current = null } = {}) {
  const teams = teamsOf(view);
  const turnScores = view.turn && view.turn.teamScores;
  return el('ul', { class: 'team-roster' }, teams.map((team) => el('li', {
    class: `team-block team-${team.number % 4}${team.number === current ? ' current' : ''}`, 'data-team': team.number,
  },
  el('p', { class: 'team-head' }, el('span', { text: teamName(team.number) }),
    scores ? el('strong', { text: formatNumber((turnScores && turnScores[team.number]) ?? team.score ?? 0) }) : null),
  el('ul', { class: 'team-members' }, team.players.map((id) => {
    const p = playerById(view, id) || { id, name: '?' };
    return el('li', {}, avatar(p), el('span', { class: 'name', text: p.name }));
  })))));
}

/**
 * A team game's podium, best first, as [{team, score, rank, players}]: the server's `teamPodium`
 * (its rows may name the team `number`, as `teams` does), else made from the teams' scores; null
 * for a game without teams.
 */
export function teamPodiumOf(view) {
  const rows = view.teamPodium && view.teamPodium.length ? view.teamPodium : view.game && view.game.teams ? view.teams : null;
  if (!rows || !rows.length) return null;
  return rows.map((row) => ({
    team: row.team ?? row.number, score: row.score, players: row.players || [],
    rank: row.rank ?? 1 + rows.filter((other) => other.score > row.score).length,
  })).sort((a, b) => a.rank - b.rank || a.team - b.team);
}

/** What a team game came to: "Team 2 wins, 6–5", or "Team 1 and Team 2 tie, 5–5". */
export function teamResult(rows) {
  const scores = [...rows].sort((a, b) => b.score - a.score).map((row) => formatNumber(row.score)).join('–');
  const first = rows.filter((row) => row.rank === 1);
  if (first.length === 1) return t('room.teams.wins', { team: teamName(first[0].team), scores });
  return t('room.teams.tie', { teams: formatList(first.map((row) => teamName(row.team))), scores });
}

/** Between turns: who holds the phone next ("Next: Team 2, Dan holds"), or ''. */
export function nextTurnText(view) {
  const next = view.turn && view.turn.next;
  if (!next || typeof next.team !== 'number') return '';
  const holder = playerById(view, next.holder);
  return holder ? t('room.turn.next', { team: teamName(next.team), name: holder.name })
    : t('room.turn.nextTeam', { team: teamName(next.team) });
}

/** The teams' scores as chips: "Team 1 · 3". */
export function teamScores(view) {
  const scores = (view.turn && view.turn.teamScores) || (view.teams || []).map((team) => team.score);
  return el('ul', { class: 'team-scores' }, scores.map((score, i) => el('li', { class: `team-chip team-${i % 4}` },
    el('span', { text: teamName(i) }), el('strong', { text: formatNumber(score) }))));
}

/** A team turn that is over: its title (how many the team got), the teams (their scores and
    players) and who holds next, into the elements `<prefix>turn-over-title`, `-scores` and
    `-next`; `roster`: each team with its players (the shared screen), else its score alone (a
    phone). What the turn was made of (its words) is the game's to draw (room.turnOver). */
export function drawTurnOver(view, prefix, { roster = false } = {}) {
  const turn = view.turn || {};
  const tv = turn.view || {};
  const node = (name) => document.getElementById(`${prefix}turn-over-${name}`);
  node('title').textContent = t('room.turnOver.title', { team: teamName(turn.team), count: tv.score ?? 0 });
  node('scores').replaceChildren(roster ? teamRoster(view, { current: turn.team }) : teamScores(view));
  setText(node('next'), nextTurnText(view));
}


/** Runs `frame()` four times a second until stop() is called (clocks on screen). */
export function everyQuarterSecond(frame) {
  const handle = setInterval(frame, 250);
  return () => clearInterval(handle);
}

// ------------------------------------------------------------------------------------------------
// A game's part in a room: the `room` its module (js/games/<id>.js) exports, loaded by the game's
// id with its style sheet (css/games/<id>.css). js/room.js says what `room` holds.

const games = new Map();
const loadedGames = new Map();

/** The `room` of game `id`'s module, once its style sheet is in and its `load()` is done (null for
    a game without one); asked once a page. */
export function loadGame(id) {
  if (!/^[a-z0-9-]+$/.test(String(id))) return Promise.resolve(null);
  if (!games.has(id)) {
    // Relative to this file: pages are served under a versioned folder (v/<version>/js/...).
    const room = import(`./games/${id}.js`).then((module) => module.room || null);
    games.set(id, Promise.all([room, stylesheet(id)]).then(async ([game]) => {
      if (game && game.load) await game.load();
      loadedGames.set(id, game);
      return game;
    }));
  }
  return games.get(id);
}

/** The `room` of game `id` when it is loaded already (null for a game without one); else
    undefined, and `then()` is called once it is. */
export function gameNow(id, then) {
  if (loadedGames.has(id)) return loadedGames.get(id);
  loadGame(id).then(then, (e) => say(e.message, 'error'));
  return undefined;
}

function stylesheet(id) {
  return new Promise((resolve) => {
    const link = el('link', { rel: 'stylesheet', href: new URL(`../css/games/${id}.css`, import.meta.url).href });
    link.addEventListener('load', resolve, { once: true });
    link.addEventListener('error', resolve, { once: true });
    document.head.append(link);
  });
}
