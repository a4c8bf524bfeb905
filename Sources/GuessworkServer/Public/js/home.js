// The welcome form on a first visit, then home: the player and the five games.
import { api, me, el, $, say, avatarSrc, initialOf } from './api.js';
import { uploadAvatar, previewInto } from './avatar.js';

const GAMES = {
  number: { emoji: '🔢', page: 'number.html', blurb: 'Find my number with the hints.' },
  'color-match': { emoji: '🎨', page: 'color-match.html', blurb: 'Does the meaning match the ink?' },
  bullseye: { emoji: '🎯', page: 'bullseye.html', blurb: 'Mix the colour you see.' },
  'guess-or-pass': { emoji: '🙌', page: 'guess-or-pass.html', blurb: 'Guess the word from clues.' },
  'picture-quiz': { emoji: '🖼️', page: 'picture-quiz.html', blurb: 'Tap the right picture.' },
};

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
  const [catalog, stats] = await Promise.all([api('GET', '/api/catalog'), api('GET', '/api/me/stats')]);
  const best = Object.fromEntries(stats.games.map((g) => [g.game, g]));
  const grid = $('#game-grid');
  grid.replaceChildren(...catalog.games.map((game) => {
    const info = GAMES[game.id] || { emoji: '🎲', page: `${game.id}.html`, blurb: '' };
    const figures = best[game.id];
    const bestText = figures && figures.bestScore !== undefined && figures.bestScore !== null
      ? `Best score: ${figures.bestScore} · played ${figures.played}` : 'Not played yet';
    return el('a', { class: `game-card ${game.id}`, href: info.page },
      el('span', { class: 'emoji', 'aria-hidden': 'true', text: info.emoji }),
      el('strong', { text: game.title }),
      el('span', { text: info.blurb }),
      el('span', { class: 'best', text: bestText }));
  }));
}

main().catch((e) => say(e.message, 'error'));
