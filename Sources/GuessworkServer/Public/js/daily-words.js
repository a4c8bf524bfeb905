// How the daily set reads, the same on the home page, the daily page and the statistics.
import { t, bind, formatDate, formatNumber, ordinal as ordinalOf } from './i18n.js';

/** Whether a daily result reads in attempts used ("4/7", as the server words the Number's). */
export function inAttempts(entry) {
  return typeof entry?.result === 'string' && entry.result.includes('/');
}

/** Whether a daily result is a loss: the server words it "X/7". */
export function lostResult(entry) {
  return typeof entry?.result === 'string' && entry.result.startsWith('X');
}

/**
 * A daily result as players read it: as the server words it when that is more than a score
 * ("4/7": the Number's attempts used, "X/7" a loss), else the score in the page's language
 * ("40,000").
 */
export function resultText(entry) {
  if (inAttempts(entry)) return entry.result;
  return typeof entry?.score === 'number' ? formatNumber(entry.score) : '—';
}

/** "🔥 2-day streak · best 5", or '' when there is no streak to speak of. */
export function streakText(streak) {
  if (!streak || (!streak.current && !streak.best)) return '';
  const now = streak.current ? t('daily.streak.current', { count: streak.current }) : t('daily.streak.none');
  return t('daily.streak.line', { streak: now, best: streak.best });
}

/** "1 h 12 min", "5 min", "less than a minute". */
export function durationText(seconds) {
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1) return t('common.duration.lessThanMinute');
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h ? t('common.duration.hoursMinutes', { hours: h, minutes: m }) : t('common.duration.minutes', { minutes: m });
}

/**
 * Counts down to the next puzzles in `node` ("New puzzles in 1 h 12 min", or the catalog key
 * `labelKey` with its {duration} instead), and calls `onNewDay` when they are out. Returns a
 * function that stops it. The node keeps its key, so a change of language redraws it at once.
 */
export function countDown(node, nextInSeconds, onNewDay, labelKey = 'daily.newPuzzlesIn') {
  const due = Date.now() + nextInSeconds * 1000;
  const show = () => {
    const left = Math.round((due - Date.now()) / 1000);
    if (left <= 0) { clearInterval(timer); bind(node, 'daily.newPuzzlesOut'); onNewDay(); return; }
    bind(node, labelKey, { duration: durationText(left) });
  };
  const timer = setInterval(show, 20_000);
  show();
  return () => clearInterval(timer);
}

/** A game's state in a few words: "Not played", "In progress", "Played: score 3,000",
    "Played: 4/7". */
export function stateText(game) {
  if (game.state === 'done') {
    if (inAttempts(game)) return t('daily.state.doneAttempts', { result: resultText(game) });
    return t('daily.state.done', { score: resultText(game) });
  }
  if (game.state === 'playing') return t('daily.state.playing');
  return t('daily.state.new');
}

/** en 1st, 2nd, 3rd, 4th, 11th, 21st; es 1.º; ru 1-й. */
export function ordinal(n) {
  return ordinalOf(n);
}

/** "Mon, Nov 23" for "2026-11-23" (a UTC day, shown as that day wherever the player is), in the
    page's language. */
export function dayText(iso) {
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  return formatDate(date, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** The daily page of one game (and day, when given). */
export function dailyHref(game, date) {
  const q = new URLSearchParams({ game });
  if (date) q.set('date', date);
  return `daily.html?${q}`;
}
