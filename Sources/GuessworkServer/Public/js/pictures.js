// Picture Quiz's pictures and colours, shared by its own page and the party room's pages: a
// deck's question, a picture (an emoji, or a photo by its id) and the deck's colours made safe
// under white text.
import { el, say } from './api.js';
import { t } from './i18n.js';

// A deck's colours, or the game's own; only #hex colours reach a style (a manifest is data).
export function themeOf(d) {
  const colours = ((d && d.theme) || []).filter((c) => /^#[0-9a-f]{3,8}$/i.test(c));
  if (colours.length === 1) colours.push(colours[0]);
  return colours.length ? colours : ['#047857', '#0e7490', '#1e3a8a'];
}

/** Relative luminance (WCAG) of [r, g, b] in 0...255. */
function luminance(rgb) {
  const [r, g, b] = rgb.map((v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

// A deck's colours are data, often light at one end, and the page's text on them is white: each
// is darkened (mixed with black, its hue kept) until white reads on it at 4.5:1 or better.
export function underWhiteText(hex) {
  const digits = hex.slice(1).length <= 4 ? hex.slice(1).replace(/./g, '$&$&') : hex.slice(1);
  const rgb = [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16));
  let k = 1;
  while (k > 0 && 1.05 / (luminance(rgb.map((v) => v * k)) + 0.05) < 4.6) k -= 0.05;
  return `rgb(${rgb.map((v) => Math.round(v * Math.max(k, 0))).join(' ')})`;
}

/** Paints the page's gradient in a deck's colours (the game's own without a deck). */
export function paintDeckColours(d) {
  const colours = themeOf(d).map(underWhiteText);
  // The page's gradient colours, not its background: the stylesheet darkens them for the dark
  // and high-contrast themes.
  ['--g1', '--g2', '--g3'].forEach((name, i) => document.body.style.setProperty(name, colours[Math.min(i, colours.length - 1)]));
}

/** The deck's question for `answerName` (in the language the server answered in), else the
    game's own. */
export function questionText(deck, answerName) {
  if (!(deck && deck.question)) return t('picture-quiz.question', { answer: answerName });
  return deck.question.split('{answer}').join(answerName);
}

// A picture: a photo deck's choices are picture ids (64 hex characters, which say nothing of
// the answer); an emoji deck's are the emoji themselves. `name` is given only once the question
// is answered: before that a photo's alt is empty and the button's label is neutral.
const isPhoto = (id) => /^[0-9a-f]{64}$/.test(id);

export function picture(id, name) {
  if (!isPhoto(id)) {
    return name ? el('span', { class: 'pic', role: 'img', 'aria-label': name, text: id })
      : el('span', { class: 'pic', 'aria-hidden': 'true', text: id });
  }
  const img = el('img', { class: 'pic photo', src: `/api/pictures/${id}`, alt: name || '', draggable: 'false', decoding: 'async' });
  img.addEventListener('error', () => {
    img.classList.add('broken');
    say({ key: 'picture-quiz.pictureFailed' }, 'error');
  }, { once: true });
  return img;
}
