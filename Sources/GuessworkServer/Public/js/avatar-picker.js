// The player's picture, picked with one tap: an emoji, drawn here into a picture on a soft disc
// of colour and uploaded as the avatar (PUT /api/me/avatar, as a photo is), or a photo from the
// gallery or the camera. The markup (room.html's #look-picker) holds an empty `.emoji-grid`, a
// file input and its label; wireAvatarPicker() fills the grid and listens.
import { say } from './api.js';
import { uploadAvatar } from './avatar.js';

export const EMOJIS = ['🦊', '🐼', '🐸', '🦁', '🐙', '🦄', '🐢', '🐝', '🐧', '🦉', '🐯', '🐨', '🐵', '🦖', '🐳', '🌵', '🍕', '🚀', '⚽', '🎸'];
// Light backgrounds, one after another: the emoji reads on them, and they read on light and dark
// pages alike.
const BACKGROUNDS = ['#fde68a', '#bfdbfe', '#bbf7d0', '#fecaca', '#ddd6fe', '#fbcfe8', '#a5f3fc', '#fed7aa'];
const SIDE = 256;

/** `emoji` drawn on a disc of `background`, as a PNG of 256×256. */
export function emojiPicture(emoji, background) {
  const canvas = document.createElement('canvas');
  canvas.width = SIDE;
  canvas.height = SIDE;
  const g = canvas.getContext('2d');
  g.fillStyle = background;
  g.beginPath();
  g.arc(SIDE / 2, SIDE / 2, SIDE / 2, 0, 2 * Math.PI);
  g.fill();
  g.font = `${Math.round(SIDE * 0.62)}px "Apple Color Emoji", "Segoe UI Emoji", "Noto Color Emoji", sans-serif`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(emoji, SIDE / 2, SIDE * 0.54);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('canvas'))), 'image/png'));
}

/**
 * Fills `root`'s `.emoji-grid` with a button an emoji, and uploads what the player picks (an
 * emoji or the file of `root`'s file input); `onPicked(player)` hears the profile after it.
 */
export function wireAvatarPicker(root, onPicked) {
  const grid = root.querySelector('.emoji-grid');
  const file = root.querySelector('input[type=file]');
  let busy = false;
  const upload = async (picture, pressed) => {
    if (busy) return;
    busy = true;
    root.classList.add('busy');
    try {
      const player = await uploadAvatar(picture);
      for (const b of grid.children) b.setAttribute('aria-pressed', String(b === pressed));
      await onPicked(player);
    } catch (e) {
      say(e.message, 'error');
    } finally {
      busy = false;
      root.classList.remove('busy');
    }
  };
  grid.replaceChildren(...EMOJIS.map((emoji, i) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'emoji-choice';
    button.textContent = emoji;
    button.dataset.emoji = emoji;
    button.setAttribute('aria-pressed', 'false');
    button.addEventListener('click', async () => upload(await emojiPicture(emoji, BACKGROUNDS[i % BACKGROUNDS.length]), button));
    return button;
  }));
  file.addEventListener('change', () => {
    const chosen = file.files && file.files[0];
    file.value = '';
    if (chosen) upload(chosen, null);
  });
}
