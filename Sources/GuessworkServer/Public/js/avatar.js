// Scales a picture the player chose down to at most 256×256 in a canvas and uploads it.
import { api } from './api.js';
import { t } from './i18n.js';

const MAX_SIDE = 256;

/** Reads an image file and returns a PNG (or JPEG when smaller) blob of at most 256×256. */
export async function scaleImage(file) {
  const bitmap = await loadImage(file);
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const width = Math.max(1, Math.round(bitmap.width * scale));
  const height = Math.max(1, Math.round(bitmap.height * scale));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d').drawImage(bitmap, 0, 0, width, height);
  let blob = await toBlob(canvas, 'image/png');
  if (blob.size > 200 * 1024) blob = await toBlob(canvas, 'image/jpeg', 0.85);
  return blob;
}

function toBlob(canvas, type, quality) {
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error(t('avatar.unreadable')))), type, quality));
}

function loadImage(file) {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => { URL.revokeObjectURL(url); resolve(img); };
    img.onerror = () => { URL.revokeObjectURL(url); reject(new Error(t('avatar.notAPicture'))); };
    img.src = url;
  });
}

export async function uploadAvatar(file) {
  const blob = await scaleImage(file);
  const player = await api('PUT', '/api/me/avatar', undefined, blob);
  sessionStorage.setItem('avatar-v', String(Date.now()));
  return player;
}

/** Shows a preview of the chosen file in `holder`. */
export function previewInto(holder, file) {
  holder.replaceChildren();
  if (!file) return;
  const img = new Image();
  img.className = 'avatar large';
  img.alt = t('avatar.previewAlt');
  const url = URL.createObjectURL(file);
  img.onload = () => URL.revokeObjectURL(url);
  img.src = url;
  holder.append(img);
}
