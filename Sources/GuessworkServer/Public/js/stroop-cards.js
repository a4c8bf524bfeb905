// Color Match's cards and clock, shared by its own page and the party room's phone page.
import { formatNumber, tm } from './i18n.js';

/** A card: its word (a message) in its ink on its background. */
export function paintCard(card, data) {
  card.textContent = tm(data.word);
  card.style.color = data.ink;
  card.style.backgroundColor = data.background;
}

/** The clock as the view gives it (m:ss.t), its decimal point in the language's style. */
export function clock(text) {
  const point = formatNumber(1.5).replace(/\d/g, '');
  return String(text ?? '').replace('.', point || '.');
}
