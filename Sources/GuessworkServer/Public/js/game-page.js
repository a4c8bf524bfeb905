// A game's solo page (game.html, served as /<id>.html with <body data-game="<id>">): the page
// loads the game's module, js/games/<id>.js, puts the module's markup into <main> and starts it.
// A game module exports
//
//   export const solo = {
//     markup: `<section id="setup" ...>...</section> ...`,  // its sections, after the <h1> and
//                                                         // #status every game page has
//     start() { ... },                                    // draws the page and plays (async)
//   };
//
// and does nothing else when imported (a room may import it too, and the settings page reads its
// `help`, if it has one: a catalog key, its line among the instructions' other games, whose
// {game} is its title; without it the line is its title and blurb). The markup is plain HTML with
// data-i18n keys, translated here as the page's own text is. The conventions the shared parts
// rely on: an end section `#over` holding a `[data-daily-end]` slot (js/daily-badge.js fills it
// for a daily game), "new game" buttons marked `data-new-game` (hidden for a daily), `#status`
// for what api.js says, and the page's `main h1`.
import { say } from './api.js';
import { ready, translatePage } from './i18n.js';
import './daily-badge.js';

async function open() {
  const id = document.body.dataset.game;
  if (!/^[a-z0-9-]+$/.test(id || '')) throw new Error(`No game named "${id}"`);
  const { solo } = await import(`./games/${id}.js`);
  const main = document.querySelector('main');
  const part = document.createElement('template');
  part.innerHTML = solo.markup;
  main.append(part.content);
  // The catalog may be in already (then this translates now, before anything is drawn), or not
  // (then i18n.js translates the whole page once it is).
  translatePage(main);
  await ready;
  await solo.start();
}

open().catch((e) => say(e.message, 'error'));
