// A game's setup form, drawn from the catalog's description of its settings (name, label,
// kind, default, range, choices): the server says what can be set and within which bounds;
// this module only draws the controls and reads them back as the `settings` of POST /api/games.
import { el } from './api.js';
import { t, formatNumber } from './i18n.js';

/**
 * Draws `game.settings` into `container`. Options:
 * - `main`: the names shown at once (in this order); every other setting, including any the
 *   server adds later, goes under "More settings". Without it, every setting is shown at once.
 * - `prefix`: the start of each control's id (`set-` gives `set-attempts`); `ids` overrides
 *   it for single names ({freePlay: 'set-free'}).
 */
export function settingsForm(game, container, { main, prefix = 'setting-', ids = {} } = {}) {
  const settings = (game && game.settings) || [];
  const idOf = (s) => ids[s.name] || `${prefix}${s.name}`;
  const first = main ? main.map((name) => settings.find((s) => s.name === name)).filter(Boolean) : settings;
  const rest = settings.filter((s) => !first.includes(s));
  const row = el('div', { class: 'row settings-row' }, first.map((s) => field(s, idOf(s))));
  container.replaceChildren(row);
  if (rest.length) {
    container.append(el('details', { class: 'more-settings' },
      el('summary', { 'data-i18n': 'settingsForm.more', text: t('settingsForm.more') }),
      el('div', { class: 'row settings-row' }, rest.map((s) => field(s, idOf(s))))));
  }
}

/** The values of the controls drawn by settingsForm(), keyed by setting name. */
export function readSettings(container) {
  const settings = {};
  for (const input of container.querySelectorAll('[data-setting]')) {
    const { setting: name, kind } = input.dataset;
    if (kind === 'flag') settings[name] = input.checked;
    else if (kind === 'choice') settings[name] = input.value;
    else if (input.value !== '' && Number.isFinite(Number(input.value))) settings[name] = Number(input.value);
  }
  return settings;
}

// One labelled control, with the setting's explanation tied to it for screen readers.
function field(s, id) {
  const aboutId = s.about ? `${id}-about` : undefined;
  const about = s.about && el('small', { class: 'muted about', id: aboutId, text: s.about });
  const data = { id, 'data-setting': s.name, 'data-kind': s.kind, 'aria-describedby': aboutId };
  if (s.kind === 'flag') {
    return el('div', { class: 'field' },
      el('label', { class: 'choice' }, el('input', { ...data, type: 'checkbox', checked: !!s.default }), ` ${s.label}`),
      about);
  }
  return el('div', { class: 'field' }, el('label', { for: id, text: s.label }), control(s, data), about);
}

function control(s, data) {
  if (s.kind === 'choice') {
    return el('select', data, (s.choices || []).map((c) => el('option', {
      value: String(c.value), text: c.label ?? String(c.value), selected: c.value === s.default,
    })));
  }
  if (s.kind === 'number') {
    const input = el('input', { ...data, type: 'range', min: s.min, max: s.max, step: s.step ?? 'any', value: s.default });
    const shown = (value) => (value === undefined || value === null || value === '' ? '' : formatNumber(Number(value)));
    const output = el('output', { for: data.id, text: shown(s.default) });
    input.addEventListener('input', () => { output.textContent = shown(input.value); });
    return el('span', { class: 'range-setting' }, input, output);
  }
  const values = listed(s);
  if (values) {
    return el('select', data, values.map((n) => el('option', { value: String(n), text: formatNumber(n), selected: n === s.default })));
  }
  return el('input', { ...data, type: 'number', inputmode: 'numeric', min: s.min, max: s.max, step: 1, value: s.default });
}

// An integer with few enough values is a list to pick from: every value up to 50 of them,
// else round steps (5, 10, 15, 30, 60) between the ends, always with the default. A wide
// range (a number to type) gets null.
function listed(s) {
  const { min, max } = s;
  if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) return null;
  const step = max - min < 50 ? 1 : [5, 10, 15, 30, 60].find((n) => (max - min) / n <= 24);
  if (!step) return null;
  const values = new Set([min, max]);
  for (let n = Math.ceil((min + 1) / step) * step; n < max; n += step) values.add(n);
  if (Number.isInteger(s.default) && s.default >= min && s.default <= max) values.add(s.default);
  return [...values].sort((a, b) => a - b);
}
