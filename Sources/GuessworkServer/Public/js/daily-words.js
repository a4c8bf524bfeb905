// How the daily set reads, the same on the home page, the daily page and the statistics.

/** "🔥 2-day streak · best 5", or '' when there is no streak to speak of. */
export function streakText(streak) {
  if (!streak || (!streak.current && !streak.best)) return '';
  const now = streak.current ? `🔥 ${streak.current}-day streak` : 'No streak today';
  return `${now} · best ${streak.best}`;
}

/** "1 h 12 min", "5 min", "less than a minute". */
export function durationText(seconds) {
  const minutes = Math.floor(seconds / 60);
  if (minutes < 1) return 'less than a minute';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h ? `${h} h ${m} min` : `${m} min`;
}

/**
 * Counts down to the next puzzles in `node` ("New puzzles in 1 h 12 min", or `label` instead of
 * "New puzzles in"), and calls `onNewDay` when they are out. Returns a function that stops it.
 */
export function countDown(node, nextInSeconds, onNewDay, label = 'New puzzles in') {
  const due = Date.now() + nextInSeconds * 1000;
  const show = () => {
    const left = Math.round((due - Date.now()) / 1000);
    if (left <= 0) { clearInterval(timer); node.textContent = 'New puzzles are out'; onNewDay(); return; }
    node.textContent = `${label} ${durationText(left)}`;
  };
  const timer = setInterval(show, 20_000);
  show();
  return () => clearInterval(timer);
}

/** A game's state in a few words: "Not played", "In progress", "Played: score 3". */
export function stateText(game) {
  if (game.state === 'done') return `Played: score ${game.score ?? '—'}`;
  if (game.state === 'playing') return 'In progress';
  return 'Not played';
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 101st, 111th. */
export function ordinal(n) {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th'}`;
}

/** "Mon, Nov 23" for "2026-11-23" (a UTC day, shown as that day wherever the player is). */
export function dayText(iso) {
  const date = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString('en', { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** The daily page of one game (and day, when given). */
export function dailyHref(game, date) {
  const q = new URLSearchParams({ game });
  if (date) q.set('date', date);
  return `daily.html?${q}`;
}
