// Bullseye's colour mixer, shared by its own page and the party room's phone page: the red,
// green and blue sliders (#r, #g, #b, their outputs #r-out...) and the live preview (#guess).
import { $, setText } from './api.js';
import { t } from './i18n.js';

export const channels = ['r', 'g', 'b'];

export function setSliders(rgb) {
  for (const c of channels) $(`#${c}`).value = String(rgb[c]);
  preview();
}

export function currentGuess() {
  return { r: Number($('#r').value), g: Number($('#g').value), b: Number($('#b').value) };
}

export function preview() {
  const g = currentGuess();
  for (const c of channels) setText(`#${c}-out`, g[c]);
  const colour = `rgb(${g.r}, ${g.g}, ${g.b})`;
  const chip = $('#guess');
  chip.style.backgroundColor = colour;
  chip.setAttribute('aria-label', t('bullseye.yourColour.mix', { red: g.r, green: g.g, blue: g.b }));
}
