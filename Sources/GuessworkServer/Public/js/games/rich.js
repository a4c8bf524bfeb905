// A catalog sentence with elements in it (a strong word, a key, a live figure): each {name}
// of the message becomes the node given for it, in the order the language puts them.
import { t } from '../i18n.js';

const MARK = '\u0001';

/** Fills `node` with the message `key`, its placeholders replaced by `parts` (nodes or text). */
export function rich(node, key, parts, args = {}) {
  const marks = { ...args };
  for (const name of Object.keys(parts)) marks[name] = `${MARK}${name}${MARK}`;
  const pieces = t(key, marks).split(MARK);
  node.replaceChildren(...pieces.map((piece, i) => (i % 2 ? parts[piece] ?? '' : piece)).filter((x) => x !== ''));
}
