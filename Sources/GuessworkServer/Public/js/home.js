// The welcome form on a first visit, then home: the player, today's daily puzzles and the games
// the catalog lists (each with its emoji, blurb and page from the catalog).
import { api, catalog, me, el, $, say, avatarSrc, initialOf, showLanguageSwitch } from './api.js';
import { uploadAvatar, previewInto } from './avatar.js';
import { streakText, countDown, stateText, dailyHref, resultText, lostResult } from './daily-words.js';
import { normaliseCode, validCode } from './room-common.js';
import { t, bind, onLanguageChange, storedChoice, usePlayerLanguage } from './i18n.js';

// The player home shows (null while the welcome form is shown), for redrawing in a new language.
let shown = null;

async function main() {
  const player = await me();
  if (player) showHome(player);
  else showWelcome();
}

function showWelcome() {
  showLanguageSwitch();
  $('#welcome').hidden = false;
  showRoomToJoin();
  const file = $('#welcome-avatar');
  file.addEventListener('change', () => previewInto($('#welcome-preview'), file.files[0]));
  $('#welcome-name').focus();
  $('#welcome-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = $('#welcome-name').value.trim();
    if (!name) {
      say({ key: 'home.needName' }, 'error');
      $('#welcome-name').focus();
      return;
    }
    try {
      let player = await api('POST', '/api/players', { name });
      say(''); // an earlier "Please provide input" is answered
      // A language chosen here before the name is the new player's own choice.
      const chosen = storedChoice();
      if (chosen) {
        try {
          player = await api('PATCH', '/api/me', { preferences: { language: chosen } });
        } catch { /* this browser remembers it anyway */ }
      }
      await usePlayerLanguage(player); // from now on a choice in the header is the player's
      if (file.files[0]) {
        try {
          player = await uploadAvatar(file.files[0]);
        } catch (e) {
          say(t('home.pictureNotSaved', { error: e.message }), 'error');
        }
      }
      // A newcomer who opened a game or a shared daily link first goes back to it (api.js's
      // welcomeFirst left its path; only a path on this site, never another site's address).
      const back = sessionStorage.getItem('after-welcome');
      sessionStorage.removeItem('after-welcome');
      if (back && /^\/(?![/\\])/.test(back) && back !== '/' && !back.startsWith('/index.html')) { location.assign(back); return; }
      $('#welcome').hidden = true;
      showHome(player);
    } catch (e) {
      say(e.message, 'error');
    }
  });
}

// A newcomer who opened a room's link (room.html?code=K7QM) reads whose room the name is for.
// GET /api/rooms/{code} answers without a player; a room that is gone or closed says nothing
// here (the room page tells why after the name).
async function showRoomToJoin() {
  const back = new URL(sessionStorage.getItem('after-welcome') || '/', location.origin);
  const code = normaliseCode(back.searchParams.get('code'));
  if (back.pathname !== '/room.html' || !validCode(code)) return;
  let room;
  try {
    room = await api('GET', `/api/rooms/${encodeURIComponent(code)}`);
  } catch {
    return;
  }
  if (!room.open) return;
  const line = $('#welcome-room');
  bind(line, room.host ? 'home.welcome.joining' : 'home.welcome.joiningRoom', { host: room.host || '', code: room.code || code });
  line.hidden = false;
}

async function showHome(player) {
  shown = player;
  showLanguageSwitch();
  $('#home').hidden = false;
  $('#home-name').textContent = player.name;
  const holder = $('#home-avatar');
  holder.replaceChildren(player.avatarURL
    ? el('img', { class: 'avatar large', src: avatarSrc(player), alt: '' })
    : el('span', { class: 'avatar large initial', 'aria-hidden': 'true', text: initialOf(player.name) }));
  showDailyStrip();
  const [{ games }, stats] = await Promise.all([catalog(), api('GET', '/api/me/stats')]);
  const best = Object.fromEntries(stats.games.map((g) => [g.game, g]));
  const grid = $('#game-grid');
  // The party room's card stays last.
  grid.replaceChildren(...games.map((game) => {
    const figures = best[game.id];
    const bestText = figures && figures.bestScore !== undefined && figures.bestScore !== null
      ? t('home.bestScore', { score: figures.bestScore, count: figures.played }) : t('home.notPlayed');
    return el('a', { class: `game-card ${game.id}`, href: game.page },
      el('span', { class: 'emoji', 'aria-hidden': 'true', text: game.emoji }),
      el('strong', { text: game.title }),
      el('span', { text: game.blurb }),
      el('span', { class: 'best', text: bestText }));
  }), $('#party-card'));
}

// The short chip of a daily puzzle: a screen reader hears it in full through the label.
const CHIP_STATE = { new: 'daily.chip.play', playing: 'daily.chip.continue' };
function dailyChip(g) {
  // A lost Number reads "X/7", not a green tick.
  const lost = g.state === 'done' && lostResult(g);
  const result = resultText(g);
  const state = g.state === 'done' ? (lost ? result : `✓ ${result}`) : t(CHIP_STATE[g.state] || 'daily.chip.play');
  return el('li', {}, el('a', {
    class: `daily-chip ${g.game} ${g.state}${lost ? ' lost' : ''}`, href: dailyHref(g.game),
    'aria-label': t('daily.chip.label', { title: g.title, number: String(g.number), state: stateText(g) }),
  },
  el('span', { class: 'emoji', 'aria-hidden': 'true', text: g.emoji }),
  el('span', { class: 'chip-title', 'aria-hidden': 'true', text: g.title }),
  el('span', { class: 'chip-state', 'aria-hidden': 'true', text: state })));
}

// Today's five puzzles above the games. Home works without them: a failure only hides the strip.
let stopCountDown = () => {};
async function showDailyStrip() {
  let day;
  try {
    day = await api('GET', '/api/daily');
  } catch {
    $('#daily-strip').hidden = true;
    return;
  }
  bind($('#daily-strip-title'), 'home.daily.titleNumbered', { number: String(day.number) });
  $('#daily-streak').textContent = streakText(day.streak);
  $('#daily-chips').replaceChildren(...day.games.map(dailyChip));
  stopCountDown();
  stopCountDown = countDown($('#daily-next'), day.nextInSeconds, showDailyStrip);
  $('#daily-strip').hidden = false;
}

// A new language: the games (their titles and blurbs come from the server in that language) and
// the daily strip again; the welcome form's text is all static.
onLanguageChange(() => {
  if (shown) showHome(shown);
});

main().catch((e) => say(e.message, 'error'));
