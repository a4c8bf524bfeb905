// Daily games on the game pages: a "Daily #23" badge by the title and, once the game is over,
// the share panel with a way back to the daily page. A daily is one fixed puzzle that cannot be
// re-rolled with new settings, so the page's "Play again"-style buttons (marked data-new-game)
// are hidden by CSS while the body has the class "daily-game". Every game module imports this
// file; it hears every reply through api.js, so the games themselves know nothing of dailies.
import { onEveryReply, el, $ } from './api.js';
import { t, bind } from './i18n.js';

// The finished game the end slots were built for: a repeated reply must not rebuild them (that
// would wipe the "Copied" line and any selection).
let shownEnd = null;

function showBadge(daily) {
  const title = $('main h1');
  let badge = $('#daily-badge');
  if (!daily) {
    if (badge) badge.remove();
    return;
  }
  if (!badge) {
    badge = el('span', { id: 'daily-badge', class: 'daily-badge' });
    // Beside the title, in a row of their own (the title keeps its id and text for the page).
    if (title && !title.parentElement.classList.contains('title-row')) {
      const row = el('div', { class: 'title-row' });
      title.before(row);
      row.append(title);
    }
    if (title) title.after(badge);
    else $('main').prepend(badge);
  }
  // Color Match asks for its view ten times a second: an unchanged badge is left alone. The badge
  // keeps its key, so that a change of language redraws it.
  const key = daily.counted ? 'daily.badge.counted' : 'daily.badge.archive';
  const args = JSON.stringify({ number: String(daily.number) });
  if (badge.getAttribute('data-i18n') !== key || badge.getAttribute('data-i18n-args') !== args) {
    bind(badge, key, { number: String(daily.number) });
  }
  badge.classList.toggle('archive', !daily.counted);
}

// Fills each [data-daily-end] slot of the end screen (the page decides where it sits). The share
// panel's code is loaded only then: most games played are no daily (page weight, e2e tests).
async function showEnd(reply) {
  const key = reply ? `${reply.id}\n${reply.daily.share ? reply.daily.share.text : ''}` : null;
  if (key === shownEnd) return;
  shownEnd = key;
  const [{ sharePanel }, { dailyHref }] = reply
    ? await Promise.all([import('./share.js'), import('./daily-words.js')]) : [{}, {}];
  if (key !== shownEnd) return;  // a newer reply came meanwhile
  for (const slot of document.querySelectorAll('[data-daily-end]')) {
    slot.hidden = !reply;
    if (!reply) { slot.replaceChildren(); continue; }
    const back = el('a', { class: 'button secondary', href: dailyHref(reply.game, reply.daily.date), 'data-i18n': 'daily.backToDaily', text: t('daily.backToDaily') });
    slot.replaceChildren(...(reply.daily.share ? [sharePanel(reply.daily.share)] : []), el('div', { class: 'row' }, back));
  }
}

function showDaily(reply) {
  const daily = reply.daily || null;
  const over = reply.isOver ?? (reply.view && reply.view.isOver);
  document.body.classList.toggle('daily-game', !!daily);
  showBadge(daily);
  showEnd(daily && over ? reply : null).catch(() => { shownEnd = null; });
}

onEveryReply(showDaily);
