// Guess the Number's digit pad and display, shared by its own page and the party room's phone
// page: the pad says which key was pressed; what a key does is the page's.
import { el } from './api.js';
import { t } from './i18n.js';

/** Fills `pad` with 1-9, ✕ (clear), 0 and ✓ (enter); `press(key)` gets a digit ('0'...'9'),
    'clear' or 'enter'. */
export function buildPad(pad, press) {
  const keys = ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'clear', '0', 'enter'];
  pad.replaceChildren(...keys.map((key) => {
    if (key === 'clear') return el('button', { type: 'button', class: 'secondary', 'aria-label': t('number.pad.clear'), 'data-key': key, text: '✕', on: { click: () => press(key) } });
    if (key === 'enter') return el('button', { type: 'button', class: 'good', 'aria-label': t('number.pad.enter'), 'data-key': key, text: '✓', on: { click: () => press(key) } });
    return el('button', { type: 'button', text: key, 'aria-label': t('number.pad.digit', { digit: key }), 'data-key': key, on: { click: () => press(key) } });
  }));
}

/** Shows the typed `digits` (a string: "007" is not the number 7, and never grouped) in
    `width` boxes, a dash in each empty one. */
export function renderDisplay(display, digits, width) {
  const shown = digits.padStart(width, ' ').split('');
  display.replaceChildren(...shown.map((d) => el('span', { text: d === ' ' ? '–' : d })));
  display.setAttribute('aria-label', digits ? t('number.display.typed', { digits }) : t('number.display.empty'));
}
