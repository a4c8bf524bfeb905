// Statistics: each game's figures as the catalog describes them (label and format), with
// small SVG charts drawn here for the "bars" figures and each game's score history.
import { api, boot, catalog, el, $, say } from './api.js';
import { streakText } from './daily-words.js';
import { t, has, formatNumber, onLanguageChange } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// Charts are drawn at the pixel width of their box (one SVG unit = one CSS pixel), so their
// labels are as big on a phone as on a laptop (`.chart text` in the style sheet: 13 px), and
// again when the box changes width. Labels sit on the panel, never on a bar: above each bar its
// value, under it its label.
const MAX_WIDTH = 520;
const drawers = new WeakMap();

/** A chart under its title (HTML, so that a long title wraps), drawn by `draw(width)` once it is
    on the page. */
function chartBox(title, draw) {
  const box = el('figure', { class: 'chart-box' }, el('figcaption', { text: title }));
  drawers.set(box, draw);
  return box;
}

function drawCharts() {
  for (const box of document.querySelectorAll('.chart-box')) {
    const width = Math.min(MAX_WIDTH, Math.floor(box.clientWidth));
    if (!width || box.dataset.width === String(width)) continue;
    box.dataset.width = String(width);
    box.replaceChildren(box.firstChild, drawers.get(box)(width));
  }
}

function chartFrame(label, width, height) {
  return svg('svg', { class: 'chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label });
}

/** A bar chart: bars = [{label, value, colour}]. */
function barChart(title, bars, width) {
  const height = 180;
  const pad = { l: 8, r: 8, t: 22, b: 28 }; // room for the tallest bar's value above it
  const max = Math.max(1, ...bars.map((b) => b.value));
  const chart = chartFrame(`${title}: ${bars.map((b) => `${b.label} ${formatNumber(Math.round(b.value))}`).join(', ')}`, width, height);
  const w = (width - pad.l - pad.r) / Math.max(1, bars.length);
  bars.forEach((b, i) => {
    const h = ((height - pad.t - pad.b) * b.value) / max;
    const middle = pad.l + i * w + w / 2;
    const y = height - pad.b - h;
    const barWidth = Math.min(w * 0.7, 64);
    chart.append(svg('rect', { x: middle - barWidth / 2, y, width: barWidth, height: Math.max(0, h), rx: 4, fill: b.colour || '#4f46e5' }));
    chart.append(svg('text', { x: middle, y: height - pad.b + 18, 'text-anchor': 'middle' }, b.label));
    chart.append(svg('text', { class: 'value', x: middle, y: y - 6, 'text-anchor': 'middle' }, formatNumber(Math.round(b.value))));
  });
  chart.append(svg('line', { x1: pad.l, x2: width - pad.r, y1: height - pad.b, y2: height - pad.b, stroke: '#6b7280' }));
  return chart;
}

/** A line chart of scores, oldest first, with its highest and lowest values written left of it. */
function lineChart(title, values, width) {
  const height = 160;
  const left = 12 + 8 * Math.max(...[Math.min(0, ...values), Math.max(1, ...values)].map((v) => formatNumber(v).length));
  const pad = { l: left, r: 12, t: 12, b: 12 };
  const min = Math.min(0, ...values);
  const max = Math.max(1, ...values);
  const x = (i) => pad.l + (values.length === 1 ? 0 : (i * (width - pad.l - pad.r)) / (values.length - 1));
  const y = (v) => height - pad.b - ((v - min) * (height - pad.t - pad.b)) / (max - min || 1);
  const chart = chartFrame(`${title}: ${values.map((v) => formatNumber(v)).join(', ')}`, width, height);
  chart.append(svg('line', { x1: pad.l, x2: width - pad.r, y1: y(min), y2: y(min), stroke: '#9ca3af' }));
  chart.append(svg('text', { x: pad.l - 8, y: y(max) + 5, 'text-anchor': 'end' }, formatNumber(max)));
  chart.append(svg('text', { x: pad.l - 8, y: y(min) + 5, 'text-anchor': 'end' }, formatNumber(min)));
  chart.append(svg('polyline', { points: values.map((v, i) => `${x(i)},${y(v)}`).join(' '), fill: 'none', stroke: '#4f46e5', 'stroke-width': 3 }));
  values.forEach((v, i) => chart.append(svg('circle', { cx: x(i), cy: y(v), r: 4, fill: '#be185d' })));
  return chart;
}

// How a figure's value reads, by the format the catalog gives it.
const FORMATS = {
  count: (x) => formatNumber(Math.round(x)),
  score: (x) => formatNumber(Math.round(x)),
  percent: (x) => formatNumber(Math.round(x * 100) / 100, { style: 'percent', maximumFractionDigits: 0 }),
  ms: (x) => t('stats.format.ms', { value: Math.round(x) }),
  decimal: (x) => formatNumber(x, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
};
function formatted(format, value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '—';
  return (FORMATS[format] || String)(value);
}

function figureList(pairs) {
  return el('div', { class: 'figures' }, ...pairs.map(([k, v]) => el('div', {}, el('span', { class: 'k', text: k }), el('strong', { class: 'v', text: typeof v === 'number' ? formatNumber(v) : String(v ?? '—') }))));
}

// A category's or deck's title for a "byVariant" figure, or its id when the catalog lacks it.
function variantTitle(info, game, id) {
  const lists = game.content === 'deck' ? [info.decks] : game.content === 'words' ? [info.categories] : [info.categories, info.decks];
  const found = lists.flatMap((list) => list || []).find((x) => x.id === id);
  return found ? found.title : id;
}

function gamePanel(g, info) {
  const game = info.games.find((x) => x.id === g.game) || { figures: [] };
  const values = g.figures || {};
  const panel = el('section', { class: 'panel', 'aria-labelledby': `h-${g.game}` }, el('h2', { id: `h-${g.game}`, text: g.title }));
  const pairs = [[t('stats.played'), g.played], [t('stats.bestScore'), g.bestScore ?? '—']];
  if (g.daily) {
    pairs.push([t('stats.dailyStreak'), t('stats.streakValue', { current: g.daily.current, best: g.daily.best })],
      [t('stats.dailiesPlayed'), g.daily.played]);
  }
  const charts = [];
  for (const figure of game.figures || []) {
    const value = values[figure.id];
    // The label from this page's catalog (its key is `<game>.figure.<id>`), else the server's.
    const key = `${game.id}.figure.${figure.id}`;
    const label = has(key) ? t(key) : figure.label;
    if (figure.format === 'bars') {
      if (Array.isArray(value) && value.length) {
        const bars = value.map((b) => ({ label: formatNumber(Number(b[figure.barLabel])), value: Number(b[figure.barValue]) || 0, colour: '#0369a1' }));
        charts.push(chartBox(label, (width) => barChart(label, bars, width)));
      }
    } else if (figure.format === 'byVariant') {
      for (const [id, best] of Object.entries(value || {})) pairs.push([t('stats.byVariant', { figure: label, variant: variantTitle(info, game, id) }), best]);
    } else {
      pairs.push([label, formatted(figure.format, value)]);
    }
  }
  panel.append(figureList(pairs), ...charts);
  if (g.lastScores && g.lastScores.length) panel.append(chartBox(t('stats.scoreHistory'), (width) => lineChart(t('stats.scoreHistory'), g.lastScores, width)));
  else panel.append(el('p', { class: 'muted', text: t('stats.noGames') }));
  return panel;
}

// The overall daily streak: days on which every game's daily puzzle was finished (the server
// leaves it out until there is one).
function dailyPanel(given) {
  const daily = given || { current: 0, best: 0 };
  return el('section', { class: 'panel', 'aria-labelledby': 'h-daily' },
    el('h2', { id: 'h-daily', text: t('stats.daily.title') }),
    figureList([[t('stats.daily.streakAll'), t('stats.streakValue', { current: daily.current, best: daily.best })]]),
    el('p', { class: 'muted' }, streakText(daily) || t('stats.daily.startStreak'),
      ' ', el('a', { href: 'daily.html', text: t('stats.daily.today') })));
}

async function main() {
  await boot();
  const [info, stats] = await Promise.all([catalog(), api('GET', '/api/me/stats')]);
  $('#games').replaceChildren(dailyPanel(stats.daily), ...stats.games.map((g) => gamePanel(g, info)));
  drawCharts();
}

new ResizeObserver(drawCharts).observe($('#games'));

// A new language: every panel again (the server writes titles and figure labels in it).
let drawn = false;
onLanguageChange(() => { if (drawn) return main(); });

main().then(() => { drawn = true; }).catch((e) => say(e.message, 'error'));
