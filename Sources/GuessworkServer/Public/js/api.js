// Shared helpers for every page: the JSON API, a game session that serialises actions,
// small DOM builders (text only, never HTML from data) and dialogs.
import { soundOn, setSoundOn } from './sound.js';
import { showOffline } from './offline.js';
import {
  lang, t, has, bind, ready, usePlayerLanguage, setLanguage, onLanguageChange, formatNumber,
  LANGUAGES, LANGUAGE_NAMES,
} from './i18n.js';

// Said when a request finds no network: English while the catalog itself could not be had.
const offlineMessage = () => (has('common.offline.message') ? t('common.offline.message')
  : 'The server cannot be reached. Check the connection and try again.');

export class ApiError extends Error {
  /** `details` is the whole error object, for the fields some codes add (daily-played: gameId). */
  constructor(status, code, message, details) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.details = details || {};
  }
}

/** Calls the API; resolves with the parsed JSON, throws ApiError on any 4xx/5xx. */
export async function api(method, path, body, raw) {
  const init = { method, headers: { 'Accept-Language': lang() }, credentials: 'same-origin' };
  if (raw !== undefined) {
    init.body = raw;
    if (raw && raw.type) init.headers['Content-Type'] = raw.type;
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    showOffline();
    throw new ApiError(0, 'offline', offlineMessage());
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code, error.message, error);
  }
  return data;
}

/** The current player, or null for a first visit (GET /api/session answers 200 either way).
    The page is in the player's language (and theme) when this resolves. */
export async function me() {
  const [session] = await Promise.all([api('GET', '/api/session'), ready]);
  const player = (session && session.player) || null;
  if (player) {
    usePlayerTheme(player);
    await usePlayerLanguage(player);
  }
  return player;
}

/** Draws the page in the player's theme; js/theme.js (in every page's head) remembers it, so
    the next page starts in it. */
export function usePlayerTheme(player) {
  if (window.guessworkTheme && player.preferences) window.guessworkTheme.use(player.preferences.theme);
}

/** The current player; sends a newcomer to the welcome page first, and back here after it. */
export async function requirePlayer() {
  const player = await me();
  if (!player) {
    welcomeFirst();
    throw new ApiError(401, 'no-player', t('common.welcomeFirst'));
  }
  return player;
}

/** Sends a newcomer to pick a name; home.js brings them back to this page afterwards. */
export function welcomeFirst() {
  sessionStorage.setItem('after-welcome', location.pathname + location.search);
  location.replace('index.html');
}

let catalogPromise = null;
// The server writes the catalog's titles and labels in the request's language: a new language
// asks again.
onLanguageChange(() => { catalogPromise = null; }, { chrome: true });
export function catalog() {
  if (!catalogPromise) catalogPromise = api('GET', '/api/catalog');
  return catalogPromise;
}

/** A game's catalog entry (title, page, settings, figures), or a bare one if it is missing. */
export async function gameEntry(id) {
  const { games } = await catalog();
  return games.find((g) => g.id === id) || { id, title: id, settings: [], figures: [] };
}

/** Builds an element: el('p', {class: 'x', text: 'hi'}, child, ...). Text goes in as text. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else if (key === 'on') for (const [type, fn] of Object.entries(value)) node.addEventListener(type, fn);
    else if (key in node && typeof value !== 'string') node[key] = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export const $ = (selector, root = document) => root.querySelector(selector);

export function setText(selector, text) {
  const node = typeof selector === 'string' ? $(selector) : selector;
  if (node && node.textContent !== String(text)) node.textContent = text;
}

/** Says something to the player (and to screen readers) in the page's status line: a text
    (the server's, already in the player's language) or a catalog message `{key, args}`, which
    follows a change of language. */
export function say(message, kind = 'info') {
  const node = $('#status');
  if (!node) return;
  // A request that failed for want of a network: the offline banner says it, with what still works.
  if (message === offlineMessage()) message = '';
  if (message && typeof message === 'object') bind(node, message.key, message.args);
  else {
    node.removeAttribute('data-i18n');
    node.removeAttribute('data-i18n-args');
    node.textContent = message || '';
  }
  node.dataset.kind = kind;
}

export const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

export function openDialog(dialog) {
  if (!dialog.open) dialog.showModal();
  const focus = dialog.querySelector('[autofocus]') || dialog.querySelector('button');
  if (focus) focus.focus();
}

export function closeDialog(dialog) {
  if (dialog.open) dialog.close();
}

/** The game id in the page's address (?game=...). */
export function gameIdFromURL() {
  return new URLSearchParams(location.search).get('game');
}

export function setGameIdInURL(id) {
  const url = new URL(location.href);
  if (id) url.searchParams.set('game', id);
  else url.searchParams.delete('game');
  history.replaceState(null, '', url);
}

// Told of every reply any GameSession accepts, after the page has drawn it. The daily badge
// (daily-badge.js) listens here so that no game module needs code of its own for the daily set.
const replyListeners = new Set();
export function onEveryReply(listener) {
  replyListeners.add(listener);
}

/**
 * The page's moves over one open connection (docs/play-socket.md): the same moves as
 * `POST /api/games/{id}/actions`, answered alike, without an HTTP request each. Opened when a
 * game is shown; until it is open, or when it closes with a move unanswered, moves are POSTed
 * (a move the server took before the socket closed then comes back as a stale version, and
 * the game is loaded again). After three sockets that never opened, the page stops trying.
 */
class PlaySocket {
  constructor() {
    this.ws = null;
    this.lang = null;
    this.pending = new Map();
    this.nextRef = 1;
    this.failures = 0;
  }

  open() {
    if (this.ws && this.lang !== lang()) this.ws.close(1000, 'language changed');
    if (this.ws || this.failures >= 3 || typeof WebSocket !== 'function') return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(
      `${scheme}//${location.host}/api/play/socket?lang=${encodeURIComponent(lang())}`);
    let opened = false;
    this.ws = ws;
    this.lang = lang();
    ws.onopen = () => { opened = true; this.failures = 0; };
    ws.onmessage = (event) => {
      let answer;
      try { answer = JSON.parse(event.data); } catch { return; }
      const waiting = this.pending.get(answer && answer.ref);
      if (!waiting) return;
      this.pending.delete(answer.ref);
      waiting(answer);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (!opened) this.failures += 1;
      for (const waiting of this.pending.values()) waiting(null);
      this.pending.clear();
    };
  }

  get isOpen() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN && this.lang === lang();
  }

  /** The reply to a move, as `api()` resolves; throws ApiError as it does; resolves with
      `undefined` when the socket closed first (the move is then POSTed). */
  move(game, version, action) {
    const ref = this.nextRef++;
    return new Promise((resolve, reject) => {
      this.pending.set(ref, (answer) => {
        if (!answer) resolve(undefined);
        else if (answer.status === 200) resolve(answer.reply);
        else {
          const error = answer.error || {};
          reject(new ApiError(answer.status, error.code, error.message, error));
        }
      });
      this.ws.send(JSON.stringify({ ref, game, version, action }));
    });
  }
}

const playSocket = new PlaySocket();

/**
 * One game on the server. Actions go one at a time, each with the latest version; a stale
 * version reloads the game. `onReply(reply)` renders every answer.
 */
export class GameSession {
  constructor(kind, onReply) {
    this.kind = kind;
    this.onReply = onReply;
    this.reply = null;
    // True while the reply being drawn is the one that ended a game this page saw in play (not
    // a finished game opened again): only then does a page cheer or sound the end.
    this.endedNow = false;
    this.queue = Promise.resolve();
  }

  get id() { return this.reply && this.reply.id; }
  get view() { return this.reply && this.reply.view; }

  accept(reply) {
    if (this.reply && reply.id === this.reply.id && reply.version < this.reply.version) return;
    this.endedNow = reply.isOver && !!this.reply && this.reply.id === reply.id && !this.reply.isOver;
    this.reply = reply;
    if (!reply.isOver) playSocket.open();
    setGameIdInURL(reply.id);
    this.onReply(reply);
    for (const listener of replyListeners) listener(reply);
  }

  async start(options = {}) {
    const reply = await api('POST', '/api/games', { game: this.kind, ...options });
    this.accept(reply);
    return reply;
  }

  async load(id) {
    const reply = await api('GET', `/api/games/${encodeURIComponent(id)}`);
    this.accept(reply);
    return reply;
  }

  refresh() {
    return this.enqueue(() => this.load(this.id));
  }

  /** Sends an action; resolves with the reply, or null when it was refused (said to the player). */
  act(action) {
    return this.enqueue(async () => {
      if (!this.reply) return null;
      try {
        const version = this.reply.version;
        const reply = (playSocket.isOpen ? await playSocket.move(this.id, version, action) : undefined)
          ?? await api('POST', `/api/games/${encodeURIComponent(this.id)}/actions`, {
            action, version,
          });
        say('');
        this.accept(reply);
        return reply;
      } catch (e) {
        if (e.status === 409) {
          await this.load(this.id);
          if (e.code !== 'stale-version') say(e.message);
          return null;
        }
        say(e.message, 'error');
        return null;
      }
    });
  }

  enqueue(task) {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => {});
    return run;
  }
}

/** Loads the game named in the URL, or calls `startScreen()` when there is none. */
export async function resumeOrSetup(session, startScreen) {
  const id = gameIdFromURL();
  if (id) {
    try {
      await session.load(id);
      return true;
    } catch (e) {
      setGameIdInURL(null);
      say(e.status === 404 ? { key: 'common.gameNotFound' } : e.message, 'error');
    }
  }
  startScreen();
  return false;
}

/** Runs `frame(now)` on every animation frame until it returns false or stop() is called. */
export function animate(frame) {
  let handle = 0;
  let running = true;
  const step = (now) => {
    if (!running) return;
    if (frame(now) === false) { running = false; return; }
    handle = requestAnimationFrame(step);
  };
  handle = requestAnimationFrame(step);
  return () => { running = false; cancelAnimationFrame(handle); };
}

/** Resolves after the next paint (double requestAnimationFrame). */
export function afterPaint() {
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now()))));
}

/** Shows the player's name (as text) and avatar in the page header, if the page has one, with
    the language and sound switches before it. */
export function showPlayerChip(player) {
  const chip = $('#player-chip');
  if (!chip || !player) return;
  translateHeader();
  chip.replaceChildren();
  if (player.avatarURL) {
    chip.append(el('img', { class: 'avatar small', src: avatarSrc(player), alt: '' }));
  } else {
    chip.append(el('span', { class: 'avatar small initial', 'aria-hidden': 'true', text: initialOf(player.name) }));
  }
  chip.append(el('span', { class: 'player-name', text: player.name }));
  showSoundSwitch(player);
}

// The sound switch, once per page, before the player chip: the player's preference, kept on
// the server so that it follows them to every page and device.
function showSoundSwitch(player) {
  setSoundOn(!player.preferences || player.preferences.sound !== false);
  let button = $('#sound-switch');
  if (!button) {
    button = el('button', { type: 'button', id: 'sound-switch', class: 'sound-switch', on: { click: toggleSound } });
    $('#player-chip').before(button);
  }
  drawSoundSwitch(button);
  showLanguageSwitch();
}

// The switch's name and its state's title, in the page's language now and after a change.
function drawSoundSwitch(button) {
  const on = soundOn();
  button.setAttribute('aria-pressed', String(on));
  button.textContent = on ? '🔊' : '🔇';
  button.setAttribute('data-i18n-attr', `aria-label:common.sound.label;title:${on ? 'common.sound.onTitle' : 'common.sound.offTitle'}`);
  button.setAttribute('aria-label', t('common.sound.label'));
  button.title = t(on ? 'common.sound.onTitle' : 'common.sound.offTitle');
}

async function toggleSound(event) {
  const button = event.currentTarget;
  const on = !soundOn();
  setSoundOn(on);
  drawSoundSwitch(button);
  try {
    await api('PATCH', '/api/me', { preferences: { sound: on } });
  } catch (e) {
    setSoundOn(!on);
    drawSoundSwitch(button);
    say(t(on ? 'common.sound.notOn' : 'common.sound.notOff', { error: e.message }), 'error');
  }
}

/** The avatar's address, with a cache-buster so a new picture shows at once. */
export function avatarSrc(player) {
  return `${player.avatarURL}?v=${sessionStorage.getItem('avatar-v') || '0'}`;
}

export function initialOf(name) {
  return (Array.from((name || '?').trim())[0] || '?').toUpperCase();
}

/** Common start for every game page: the player, the header chip. */
export async function boot() {
  const player = await requirePlayer();
  showPlayerChip(player);
  return player;
}

/** 0.42 as "42%" ("42 %" in Spanish and Russian). */
export function percent(value) {
  return formatNumber(Math.round(value * 100) / 100, { style: 'percent', maximumFractionDigits: 0 });
}

// ------------------------------------------------------------------------------------------------
// The page header: its Home link and the language switch

/** The header's Home link and site name in the page's language (every page's header has them). */
function translateHeader() {
  const home = $('.topbar .home-link');
  if (home && !home.hasAttribute('data-i18n')) bind(home, 'common.home');
}

/**
 * The language switch in the page header (before the sound switch, or at the header's end on a
 * page without a player): a compact select that shows the language's code ("ES") and lists the
 * languages by their own names. Choosing one saves it for the player and redraws the page in it.
 * `where` puts it elsewhere (a page without a header).
 */
export function showLanguageSwitch(where) {
  let box = $('#language-switch');
  if (!box) {
    const select = el('select', {
      id: 'language-select', 'data-i18n-attr': 'aria-label:common.language.label;title:common.language.label',
      'aria-label': t('common.language.label'), title: t('common.language.label'),
      on: { change: (event) => chooseLanguage(event.currentTarget.value) },
    }, LANGUAGES.map((code) => el('option', { value: code, lang: code, text: LANGUAGE_NAMES[code] })));
    box = el('span', { id: 'language-switch', class: 'language-switch' },
      el('span', { class: 'language-code', 'aria-hidden': 'true' }), select);
    const sound = $('#sound-switch');
    const chip = $('#player-chip');
    if (where) where.append(box);
    else if (sound) sound.before(box);
    else if (chip) chip.before(box);
    else if ($('.topbar')) $('.topbar').append(box);
    else return;
    onLanguageChange(drawLanguageSwitch, { chrome: true });
  }
  drawLanguageSwitch();
}

function drawLanguageSwitch() {
  const box = $('#language-switch');
  if (!box) return;
  box.querySelector('select').value = lang();
  box.querySelector('.language-code').textContent = lang().toUpperCase();
}

async function chooseLanguage(code) {
  try {
    await setLanguage(code);
  } catch (e) {
    say(t('common.language.notSaved', { error: e.message }), 'error');
  }
  drawLanguageSwitch();
}
