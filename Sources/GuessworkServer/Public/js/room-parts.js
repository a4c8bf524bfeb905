// The small parts of a party room that a game's page module uses for its round (js/games/<id>.js,
// `room`): kept apart from room-common.js, so that a game's solo page, which loads the same
// module, does not load the room's machinery.
import { api } from './api.js';
import { t, translatePage } from './i18n.js';

/** The API path of room `code`. */
export const roomPath = (code) => `/api/rooms/${encodeURIComponent(code)}`;

/** Whole seconds left of `ms`, rounded up (a clock's figure). */
export const seconds = (ms) => Math.ceil(Math.max(0, ms) / 1000);

/** A team's name ("Team 2") from its number (from 0). */
export const teamName = (number) => t('room.team', { number: Number(number) + 1 });

let decksPromise = null;
/** The Picture Quiz decks (fetched once a page). */
export function decks() {
  if (!decksPromise) decksPromise = api('GET', '/api/decks').catch((e) => { decksPromise = null; throw e; });
  return decksPromise;
}

/** A game's markup (a template's text) as nodes, its keyed texts in the page's language. */
export function markup(html) {
  const template = document.createElement('template');
  template.innerHTML = html.trim();
  translatePage(template.content);
  return template.content;
}
