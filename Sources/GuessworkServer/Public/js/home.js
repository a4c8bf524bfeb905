// The welcome form on a first visit, then home: the player and the games the catalog lists
// (each with its emoji, blurb and page from the catalog).
import { api, catalog, me, el, $, say, avatarSrc, initialOf } from './api.js';
import { uploadAvatar, previewInto } from './avatar.js';

async function main() {
  const player = await me();
  if (player) showHome(player);
  else showWelcome();
}

function showWelcome() {
  $('#welcome').hidden = false;
  const file = $('#welcome-avatar');
  file.addEventListener('change', () => previewInto($('#welcome-preview'), file.files[0]));
  $('#welcome-name').focus();
  $('#welcome-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = $('#welcome-name').value.trim();
    if (!name) {
      say('Please provide input: your name is needed to play.', 'error');
      $('#welcome-name').focus();
      return;
    }
    try {
      let player = await api('POST', '/api/players', { name });
      if (file.files[0]) {
        try {
          player = await uploadAvatar(file.files[0]);
        } catch (e) {
          say(`Your name is saved, but the picture was not: ${e.message}`, 'error');
        }
      }
      $('#welcome').hidden = true;
      showHome(player);
    } catch (e) {
      say(e.message, 'error');
    }
  });
}

async function showHome(player) {
  $('#home').hidden = false;
  $('#home-name').textContent = player.name;
  const holder = $('#home-avatar');
  holder.replaceChildren(player.avatarURL
    ? el('img', { class: 'avatar large', src: avatarSrc(player), alt: '' })
    : el('span', { class: 'avatar large initial', 'aria-hidden': 'true', text: initialOf(player.name) }));
  const [{ games }, stats] = await Promise.all([catalog(), api('GET', '/api/me/stats')]);
  const best = Object.fromEntries(stats.games.map((g) => [g.game, g]));
  const grid = $('#game-grid');
  grid.replaceChildren(...games.map((game) => {
    const figures = best[game.id];
    const bestText = figures && figures.bestScore !== undefined && figures.bestScore !== null
      ? `Best score: ${figures.bestScore} · played ${figures.played}` : 'Not played yet';
    return el('a', { class: `game-card ${game.id}`, href: game.page },
      el('span', { class: 'emoji', 'aria-hidden': 'true', text: game.emoji }),
      el('strong', { text: game.title }),
      el('span', { text: game.blurb }),
      el('span', { class: 'best', text: bestText }));
  }));
}

main().catch((e) => say(e.message, 'error'));
