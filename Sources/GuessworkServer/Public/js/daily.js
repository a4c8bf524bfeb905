// The daily set. With ?game=<id>[&date=YYYY-MM-DD]: that game's puzzle of the day (Play,
// Continue or the result and its share text), its leaderboards and the archive of earlier days.
// Without ?game: every game's puzzle of the day. The server decides everything (which puzzle,
// what counts, ranks, streaks, the share text); this page shows it and says where Play leads.
import { api, me, welcomeFirst, showPlayerChip, el, $, setText, say, avatarSrc, initialOf } from './api.js';
import { sharePanel } from './share.js';
import { streakText, countDown, stateText, ordinal, dayText, dailyHref, resultText, lostResult, inAttempts } from './daily-words.js';
import { t, bind, onLanguageChange } from './i18n.js';

const params = new URLSearchParams(location.search);
const ARCHIVE_PAGE = 10;

const gameHref = (g, id) => `${g.page}?game=${encodeURIComponent(id)}`;

// The day asked for; a date the server refuses (future, before launch, malformed) is said and
// today's is shown instead.
async function loadDay(date) {
  try {
    return await api('GET', date ? `/api/daily?${new URLSearchParams({ date })}` : '/api/daily');
  } catch (e) {
    if (!date || e.status !== 400) throw e;
    say(e.message, 'error');
    return loadDay(null);
  }
}

// The page's count-downs: stopped before the page is drawn again (in another language).
let stops = [];
function stopCountDowns() {
  for (const stop of stops) stop();
  stops = [];
}

function showTitle(key, args) {
  bind($('#daily-title'), key, args);
  document.title = t('common.pageTitle', { title: $('#daily-title').textContent });
}

function showAll(day) {
  const today = day.date === day.today;
  if (today) showTitle('daily.todayTitle', { number: String(day.number) });
  else showTitle('daily.dayTitle', { day: dayText(day.date), number: String(day.number) });
  setText('#all-streak', streakText(day.streak));
  if (today) stops.push(countDown($('#all-next'), day.nextInSeconds, () => {}));
  $('#all-list').replaceChildren(...day.games.map((g) => el('li', {},
    el('a', { class: `daily-row ${g.state}${g.state === 'done' && lostResult(g) ? ' lost' : ''}`, href: dailyHref(g.game, today ? null : day.date) },
      el('span', { class: 'emoji', 'aria-hidden': 'true', text: g.emoji }),
      el('span', { class: 'what' }, el('strong', { text: t('daily.gameNumber', { title: g.title, number: String(g.number) }) }), el('span', { class: 'state', text: stateText(g) })),
      el('span', { class: 'go', 'aria-hidden': 'true', text: '›' })))));
  $('#all').hidden = false;
  return showDayCard(day);
}

// ---------------------------------------------------------------------------------------------
// All five done: one card for the day, its five results and one text to share

/** The day's share: the server's when it gives one (`share` of GET /api/daily), else the five
    games' share texts made into one: a heading, a line per game (its emoji, then the game's own
    result line without its heading and link) and the link to the day. */
function combinedShare(day, replies) {
  if (day.share && day.share.text) return day.share;
  const shares = replies.map((reply) => reply && reply.daily && reply.daily.share);
  const lines = day.games.map((g, i) => {
    const share = shares[i];
    const result = share ? share.text.split('\n').slice(1).filter((line) => line.trim() && line !== share.url) : [];
    return `${g.emoji} ${result.length ? result.join(' ') : resultText(g)}`;
  });
  const link = shares.map((share) => share && share.url).find(Boolean);
  const url = `${link ? new URL(link).origin : location.origin}/daily.html?${new URLSearchParams({ date: day.date })}`;
  return { text: [t('daily.share.set', { number: String(day.number) }), ...lines, url].join('\n'), url };
}

async function showDayCard(day) {
  const holder = $('#day-card');
  if (!day.games.every((g) => g.state === 'done' && g.gameId)) {
    holder.replaceChildren();
    return;
  }
  const replies = day.share ? [] : await Promise.all(day.games.map((g) => api('GET', `/api/games/${encodeURIComponent(g.gameId)}`).catch(() => null)));
  holder.replaceChildren(el('section', { class: 'panel day-card', 'aria-labelledby': 'day-card-title' },
    el('h2', { id: 'day-card-title', text: t('daily.dayCard.title', { number: String(day.number) }) }),
    el('ul', { class: 'day-results' }, ...day.games.map((g) => el('li', { class: lostResult(g) ? 'lost' : null },
      el('span', { class: 'emoji', 'aria-hidden': 'true', text: g.emoji }),
      el('span', { class: 'what', text: g.title }),
      el('strong', { text: resultText(g) })))),
    sharePanel(combinedShare(day, replies))));
}

// Starts the puzzle (today's counted one, or an earlier day's from the archive) and opens it.
async function play(g, date, button) {
  button.disabled = true;
  say({ key: 'daily.starting' });
  try {
    const reply = await api('POST', `/api/daily/${encodeURIComponent(g.game)}`, date ? { date } : {});
    location.assign(gameHref(g, reply.id));
  } catch (e) {
    // Already started today (in another tab, say): open that game, never a second counted one.
    if (e.code === 'daily-played' && e.details.gameId) {
      location.assign(gameHref(g, e.details.gameId));
      return;
    }
    say(e.message, 'error');
    button.disabled = false;
  }
}

// The puzzle's card: what happened so far and the one thing to do next, first (in view on a
// phone): Play, Continue, or the result with its share panel.
async function showCard(day, g) {
  const today = day.date === day.today;
  if (today) stops.push(countDown($('#daily-meta'), day.nextInSeconds, () => {}, 'daily.nextPuzzleIn'));
  else setText('#daily-meta', t('daily.earlierDay', { day: dayText(day.date) }));
  setText('#daily-state', stateText(g));
  setText('#daily-note', streakText(g.streak) || t(today ? 'daily.note.today' : 'daily.note.archive'));

  const yours = g.gameId && el('a', { class: 'button secondary', href: gameHref(g, g.gameId), text: t('daily.seeYourGame') });
  let action = null;
  if (today && g.state === 'new') {
    action = el('button', { type: 'button', class: 'play', text: t('daily.play'), on: { click: (e) => play(g, null, e.currentTarget) } });
  } else if (today && g.state === 'playing') {
    action = el('a', { class: 'button play', href: gameHref(g, g.gameId), text: t('daily.continue') });
  } else if (!today) {
    action = el('button', {
      type: 'button', class: 'play', 'aria-label': t('daily.playArchiveLabel', { number: String(g.number) }),
      on: { click: (e) => play(g, day.date, e.currentTarget) },
    }, t('daily.play'), ' ', el('span', { class: 'not-counted', text: t('daily.archiveNotCounted') }));
  }
  $('#daily-actions').replaceChildren(...(action ? [action] : []));
  // Today's game in progress is what Continue opens; any other game of the player's is a link.
  $('#daily-more').replaceChildren(...(yours && !(today && g.state === 'playing') ? [yours] : []));

  // A finished counted game: its share text comes with the game's reply.
  if (g.state === 'done' && g.gameId) {
    try {
      const reply = await api('GET', `/api/games/${encodeURIComponent(g.gameId)}`);
      if (reply.daily && reply.daily.share) $('#daily-share').replaceChildren(sharePanel(reply.daily.share));
    } catch (e) {
      say(e.message, 'error');
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Leaderboards

let boardAsked = 0;
// The board shown, kept when the page is drawn again in another language.
let boardPeriod = 'day';

function avatarOf(entry, player) {
  const url = entry.you && player.avatarURL ? avatarSrc(player) : entry.avatarURL;
  return url
    ? el('img', { class: 'avatar small', src: url, alt: '' })
    : el('span', { class: 'avatar small initial', 'aria-hidden': 'true', text: initialOf(entry.name) });
}

function boardRow(entry, player) {
  return el('tr', { class: entry.you ? 'you' : null },
    el('td', { class: 'rank', text: entry.rank }),
    el('td', {}, el('span', { class: 'who' }, avatarOf(entry, player),
      el('span', { class: 'name', text: entry.name }),
      entry.you && el('span', { class: 'sr-only', text: t('daily.board.youMark') }))),
    el('td', { class: 'score', text: resultText(entry) }));
}

async function showBoard(g, day, period, player) {
  for (const tab of document.querySelectorAll('#board-tabs button')) {
    tab.setAttribute('aria-pressed', String(tab.dataset.period === period));
  }
  boardPeriod = period;
  const asked = ++boardAsked;
  let board;
  try {
    board = await api('GET', `/api/daily/${encodeURIComponent(g.game)}/leaderboard?${new URLSearchParams({ period, date: day.date })}`);
  } catch (e) {
    if (asked === boardAsked) say(e.message, 'error');
    return;
  }
  if (asked !== boardAsked) return; // another tab was chosen meanwhile: its answer wins
  setText('#board-caption', board.title);
  // The Number's day and best-day boards read in attempts used ("4/7", as the server words
  // them); a week adds scores up, so its board stays in points.
  const you = board.you;
  const attempts = inAttempts(you) || board.entries.some(inAttempts);
  bind($('#board-score'), attempts ? 'daily.board.attempts' : 'daily.board.score');
  setText('#board-you', you ? t(attempts ? 'daily.board.youResult' : 'daily.board.you', { rank: ordinal(you.rank), of: you.of, score: resultText(you), result: resultText(you) })
    : board.players ? t('daily.board.notYou', { count: board.players }) : t('daily.board.nobody'));
  const rows = board.entries.map((entry) => boardRow(entry, player));
  // Outside the top rows, the player still sees their own, after a gap.
  if (you && !board.entries.some((entry) => entry.you)) {
    rows.push(el('tr', { class: 'gap', 'aria-hidden': 'true' }, el('td', { colspan: '3', text: '⋮' })),
      boardRow({ rank: you.rank, name: player.name, avatarURL: player.avatarURL, score: you.score, result: you.result, you: true }, player));
  }
  if (!rows.length) rows.push(el('tr', {}, el('td', { colspan: '3', class: 'muted', text: t('daily.board.noResults') })));
  $('#board-rows').replaceChildren(...rows);
}

function showBoards(g, day, player) {
  const today = day.date === day.today;
  const labels = {
    day: today ? t('daily.board.today') : `#${day.number}`,
    week: t(today ? 'daily.board.thisWeek' : 'daily.board.thatWeek'),
    all: t('daily.board.allTime'),
  };
  $('#board-tabs').replaceChildren(...Object.entries(labels).map(([period, label]) => el('button', {
    type: 'button', 'data-period': period, 'aria-pressed': 'false', text: label,
    on: { click: () => showBoard(g, day, period, player) },
  })));
  return showBoard(g, day, boardPeriod, player);
}

// ---------------------------------------------------------------------------------------------
// Archive

function archiveResult(g, d) {
  if (d.score === undefined || d.score === null) return t('daily.archive.notPlayed');
  return inAttempts(d) ? resultText(d) : t('daily.archive.score', { score: resultText(d) });
}

function archiveRow(g, day, d) {
  const here = d.date === day.date;
  return el('li', { class: here ? 'here' : null },
    el('a', { href: dailyHref(g.game, d.today ? null : d.date), 'aria-current': here ? 'page' : null },
      el('strong', { text: `#${d.number}` }),
      el('span', { text: d.today ? t('daily.archive.today') : dayText(d.date) }),
      el('span', { class: 'muted', text: archiveResult(g, d) })),
    !d.today && el('button', {
      type: 'button', class: 'secondary', 'aria-label': t('daily.playArchiveLabel', { number: String(d.number) }),
      text: t('daily.play'), on: { click: (e) => play(g, d.date, e.currentTarget) },
    }));
}

async function showArchive(g, day) {
  const { days } = await api('GET', `/api/daily/${encodeURIComponent(g.game)}/archive`);
  const list = $('#archive');
  const more = $('#archive-more');
  let shown = 0;
  const showMore = () => {
    list.append(...days.slice(shown, shown + ARCHIVE_PAGE).map((d) => archiveRow(g, day, d)));
    shown += ARCHIVE_PAGE;
    more.hidden = shown >= days.length;
  };
  list.replaceChildren();
  if (!days.some((d) => !d.today)) list.append(el('li', { class: 'muted', text: t('daily.archive.none') }));
  more.onclick = showMore;
  showMore();
}

async function showOne(day, g, player) {
  bind($('#daily-title'), 'daily.oneTitle', { emoji: g.emoji, title: g.title, number: String(g.number) });
  document.title = t('common.pageTitle', { title: t('daily.gameNumber', { title: g.title, number: String(g.number) }) });
  $('#one').hidden = false;
  await Promise.all([showCard(day, g), showBoards(g, day, player), showArchive(g, day)]);
}

async function main() {
  const player = await me();
  if (!player) {
    welcomeFirst(); // shared links start here
    return;
  }
  showPlayerChip(player);
  const day = await loadDay(params.get('date'));
  const wanted = params.get('game');
  const g = wanted && day.games.find((x) => x.game === wanted);
  if (wanted && !g) say({ key: 'daily.noSuchGame', args: { game: wanted } }, 'error');
  if (g) await showOne(day, g, player);
  else await showAll(day);
}

// A new language: the page again (the server writes the games' titles and the boards' captions
// in it).
let drawn = false;
onLanguageChange(() => {
  if (!drawn) return undefined;
  stopCountDowns();
  return main().catch((e) => say(e.message, 'error'));
});

main().then(() => { drawn = true; }).catch((e) => say(e.message, 'error'));
