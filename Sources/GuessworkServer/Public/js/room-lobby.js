// The lobby on a phone (room.js draws the rest of the room page): who is in, team by team; the
// player's own picture; and, for the host, the menu of the next game (which game, its settings
// and its own choices, each change sent as the room's choice), Start, and removing a player or
// letting them back in. A game's part of the menu comes from its module (`room.settings`,
// `room.hostSetup`: the top of room.js says what `room` holds); this file names no game.
import { api, catalog, gameEntry, el, $, setText, say, showPlayerChip } from './api.js';
import { settingsForm, readSettings } from './settings-form.js';
import { t } from './i18n.js';
import { wireAvatarPicker } from './avatar-picker.js';
import { roomPath, gameTitle, avatar, present, teamName, loadGame } from './room-common.js';

// The room page, as room.js gives it: { code(), you(), mine(), accept(view), hostAct(action) }.
let page = null;
let hostPanelBuilt = false;
let chooseTimer = 0;
// The host menu's own part of each game (room.hostSetup), by the game's id.
const hostSetups = new Map();
let lookBuilt = false;

const you = () => page.you();

/** Wires the lobby's buttons; `room` is the room page (see `page` above). */
export function wireLobby(room) {
  page = room;
  $('#start').addEventListener('click', start);
  $('#host-lock').addEventListener('change', (e) => page.hostAct({ type: 'lock', locked: e.target.checked }));
  $('#host-hide-code').addEventListener('change', (e) => page.hostAct({ type: 'hideCode', hidden: e.target.checked }));
}

export function drawLobby(v) {
  const host = !!you().host;
  setText('#lobby-join', t('room.lobby.join', { code: v.code, link: v.link || '' }));
  const people = byTeam(host ? v.players || [] : present(v));
  $('#lobby-players').replaceChildren(...people.map((p) => playerRow(p, host)));
  setText('#lobby-count', t('room.lobby.count', { count: present(v).length, limit: v.limit }));
  setText('#lobby-wait', host ? '' : v.game ? t('room.lobby.waitGame', { game: gameTitle(v) }) : t('room.lobby.wait'));
  // Locked, the room takes nobody new: no invitation, but why.
  $('#lobby-locked').hidden = !v.locked;
  $('#lobby-join').hidden = Boolean(v.locked);
  $('#guest-actions').hidden = host;
  $('#host-panel').hidden = !host;
  drawLook();
  if (host) {
    $('#open-screen').href = `screen.html?code=${encodeURIComponent(v.code)}`;
    $('#host-lock').checked = !!v.locked;
    $('#host-hide-code').checked = !!v.codeHidden;
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
      ? el('button', { type: 'button', class: 'secondary small', 'data-readmit': p.id, text: t('room.host.readmit'), on: { click: () => page.hostAct({ type: 'readmit', player: p.id }) } })
      : el('button', { type: 'button', class: 'bad small', 'data-kick': p.id, text: t('room.host.kick'), 'aria-label': t('room.host.kickName', { name: p.name }), on: { click: () => page.hostAct({ type: 'kick', player: p.id }) } });
  }
  const team = typeof p.team === 'number' ? el('span', { class: `team-tag team-${p.team % 4}`, text: teamName(p.team) }) : null;
  return el('li', { class: classes, 'data-id': p.id }, avatar(p), el('span', { class: 'name', text: p.name }),
    team, el('span', { class: 'tags', text: tags }), action);
}

// The player's picture, chosen in the lobby: an emoji (drawn into a picture and uploaded as the
// avatar) or a photo. The room hears of it when the player joins again with the new profile.
function drawLook() {
  const me = page.mine();
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
  const code = page.code();
  if (!code) return;
  try {
    page.accept(await api('POST', `${roomPath(code)}/join`, {}));
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
  chooseTimer = setTimeout(() => page.hostAct(chosen()), 300);
}

async function start() {
  clearTimeout(chooseTimer);
  $('#start').disabled = true;
  try {
    if (await page.hostAct(chosen())) await page.hostAct({ type: 'start' });
  } finally {
    $('#start').disabled = false;
  }
}
