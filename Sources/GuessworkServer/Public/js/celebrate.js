// Wins, perfect rounds and new bests: a plain line on the end screen saying what the player did
// and, when the game ended while the page watched, a short burst of confetti with the win
// sound. Under reduced motion nothing moves: the line is simply highlighted.
import { el, reducedMotion } from './api.js';
import { play } from './sound.js';
import { t } from './i18n.js';

const COLOURS = ['#facc15', '#f472b6', '#34d399', '#60a5fa', '#f97316', '#a78bfa'];
const PIECES = 40;
const BURST_MS = 1800;

/**
 * The new-best lines a finished game's reply earns: per category or deck (`variantTitle`,
 * when the game has them) from `newBest`, and over every game of its kind from
 * `newBestOverall` (which older servers leave out).
 */
export function bestLines(reply, variantTitle) {
  const lines = [];
  // "Overall" only means something next to a category's or deck's own best.
  if (reply.newBest && variantTitle) lines.push(t('celebrate.newBestIn', { variant: variantTitle }));
  if (reply.newBestOverall && variantTitle) lines.push(t('celebrate.newBestOverall'));
  else if ((reply.newBest || reply.newBestOverall) && !variantTitle) lines.push(t('celebrate.newBest'));
  return lines;
}

/**
 * Shows `lines` in the end panel's celebration line (made after its heading when the page has
 * none), or hides it when there is nothing to cheer. `fresh`: the game has just ended here, so
 * the moment is marked; a finished game opened again only shows the line. `soundDelay`: seconds
 * before the win sound (after another cue, say).
 */
export function celebrate(panel, lines, fresh, soundDelay = 0.2) {
  const line = celebrationLine(panel);
  line.replaceChildren(...lines.map((text) => el('span', { text })));
  line.hidden = lines.length === 0;
  line.classList.remove('pop');
  if (!lines.length || !fresh) return;
  play('win', soundDelay);
  if (reducedMotion()) return;
  void line.offsetWidth; // restarts the pop when the same line cheers twice in a row
  line.classList.add('pop');
  burst(panel);
}

function celebrationLine(panel) {
  let line = panel.querySelector('.celebration');
  if (!line) {
    line = el('p', { class: 'celebration', hidden: true });
    const heading = panel.querySelector('h2');
    if (heading) heading.after(line);
    else panel.prepend(line);
  }
  return line;
}

// Confetti: coloured pieces falling across the screen from above, then gone. They live in the
// panel so that they show above it even when the panel is a modal dialog.
function burst(panel) {
  const layer = el('div', { class: 'confetti', 'aria-hidden': 'true' });
  for (let i = 0; i < PIECES; i++) {
    const piece = el('span');
    piece.style.left = `${Math.random() * 100}%`;
    piece.style.backgroundColor = COLOURS[i % COLOURS.length];
    piece.style.setProperty('--drift', `${Math.round((Math.random() - 0.5) * 160)}px`);
    piece.style.setProperty('--turn', `${Math.round(360 + Math.random() * 720)}deg`);
    piece.style.animationDelay = `${Math.round(Math.random() * 400)}ms`;
    layer.append(piece);
  }
  panel.append(layer);
  setTimeout(() => layer.remove(), BURST_MS);
}
