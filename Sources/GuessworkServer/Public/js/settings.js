// Settings: name, avatar, the Guess or Pass input mode; the instructions are static text.
import { api, boot, $, say, showPlayerChip, avatarSrc, el, initialOf } from './api.js';
import { uploadAvatar } from './avatar.js';

function showAvatar(player) {
  $('#current-avatar').replaceChildren(player.avatarURL
    ? el('img', { class: 'avatar large', src: avatarSrc(player), alt: 'Your current picture' })
    : el('span', { class: 'avatar large initial', 'aria-hidden': 'true', text: initialOf(player.name) }));
}

async function main() {
  let player = await boot();
  $('#name').value = player.name;
  showAvatar(player);
  for (const radio of document.querySelectorAll('input[name=mode]')) {
    radio.checked = radio.value === player.preferences.inputMode;
    radio.addEventListener('change', async () => {
      try {
        player = await api('PATCH', '/api/me', { preferences: { ...player.preferences, inputMode: radio.value } });
        say(`Input mode saved: ${radio.parentElement.textContent.trim()}.`);
      } catch (e) { say(e.message, 'error'); }
    });
  }
  $('#name-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = $('#name').value.trim();
    if (!name) { say('Please provide input: a name is needed.', 'error'); return; }
    try {
      player = await api('PATCH', '/api/me', { name });
      showPlayerChip(player);
      say('Name saved.');
    } catch (e) { say(e.message, 'error'); }
  });
  $('#avatar').addEventListener('change', async () => {
    const file = $('#avatar').files[0];
    if (!file) return;
    try {
      player = await uploadAvatar(file);
      showAvatar(player);
      showPlayerChip(player);
      say('Picture saved.');
    } catch (e) { say(e.message, 'error'); }
  });
}

main().catch((e) => say(e.message, 'error'));
