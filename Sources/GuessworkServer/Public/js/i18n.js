// The browser in the player's language: English, Spanish or Russian. Every text a page shows
// comes from the catalog of its language (GET /i18n/<lang>.json: the merged `core`, `pages` and
// `play` areas of Sources/GuessworkContent/Resources/i18n), by key:
//
//   t('home.title')                          a string
//   t('daily.attempts', {count: 3})          a plural: "=N" exact matches first, then the
//                                             language's category of `count` (en/es: one, other;
//                                             ru: one, few, many, other)
//   tm({key: 'number.hint.higher', args})    a message object from the server (a plain string
//                                             is returned as it is)
//
// Placeholders are `{name}`; `{{` and `}}` are literal braces. Numbers are formatted for the
// language (10,000 · 10.000 · 10 000), strings go in as they are.
//
// Static HTML says which key fills an element: `data-i18n="key"` (its text) and
// `data-i18n-attr="aria-label:key;title:key2"` (attributes), with `data-i18n-args` (JSON) for
// any arguments. theme.js (a plain script in every page's head) sets <html lang> from the last
// choice and hides those elements until the catalog is in, so a page never flashes English
// before its own language.
//
// The language: the player's `preferences.language` ('en' | 'es' | 'ru'; absent means
// automatic: the device's), else the first supported language of navigator.languages, else
// English. This browser remembers the choice (localStorage) for the first paint of the next
// page, before the player is known, and for a newcomer who chose one before having a name.

export const LANGUAGES = ['en', 'es', 'ru'];
/** Each language's name in that language, for the switches. */
export const LANGUAGE_NAMES = { en: 'English', es: 'Español', ru: 'Русский' };

const STORAGE_KEY = 'guesswork.lang';
const LOADING_CLASS = 'i18n-loading';

function stored() {
  try { return localStorage.getItem(STORAGE_KEY); } catch { return null; } // storage may be blocked
}

function store(code) {
  try {
    if (code) localStorage.setItem(STORAGE_KEY, code);
    else localStorage.removeItem(STORAGE_KEY);
  } catch { /* this page still shows it */ }
}

/** A supported language for a BCP 47 tag ('es-MX' -> 'es'), or null. */
export function supported(tag) {
  const primary = String(tag || '').trim().toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.includes(primary) ? primary : null;
}

/** This device's language: the first of navigator.languages that is supported, else English. */
export function deviceLanguage() {
  const tags = (navigator.languages && navigator.languages.length) ? navigator.languages : [navigator.language];
  for (const tag of tags) {
    const code = supported(tag);
    if (code) return code;
  }
  return 'en';
}

// The player's own choice, once api.js has read the player: a code, 'auto', or undefined
// (no player known on this page).
let preference;
let current = supported(stored()) || deviceLanguage();
let messages = null; // the loaded catalog of `current`, or null when it could not be loaded
let loadedLanguage = null;

/** The chosen language now: 'en', 'es' or 'ru'. */
export function lang() {
  return current;
}

/** The choice as the switches show it: 'auto' or a language code. */
export function choice() {
  if (preference !== undefined) return preference;
  return supported(stored()) || 'auto';
}

// ------------------------------------------------------------------------------------------------
// Rendering

/** Russian (and the CLDR rule it follows): one 1, 21, 101; few 2-4, 22-24; many 0, 5-20, 25; other fractions. */
export function pluralCategory(n, code = current) {
  const x = Math.abs(Number(n));
  if (code === 'ru') {
    if (!Number.isInteger(x)) return 'other';
    const d = x % 10;
    const h = x % 100;
    if (d === 1 && h !== 11) return 'one';
    if (d >= 2 && d <= 4 && !(h >= 12 && h <= 14)) return 'few';
    return 'many';
  }
  return x === 1 ? 'one' : 'other';
}

const numberFormats = new Map();
/** `n` as language `code` writes it (Intl.NumberFormat). */
function numberIn(code, n, options = {}) {
  const cacheKey = `${code}|${JSON.stringify(options)}`;
  let format = numberFormats.get(cacheKey);
  if (!format) {
    format = new Intl.NumberFormat(code, options);
    numberFormats.set(cacheKey, format);
  }
  // Russian groups thousands with a no-break space (U+00A0), as the server and terminal write it;
  // some ICU versions give the narrow one (U+202F).
  return format.format(n).replace(/\u202f/g, '\u00a0');
}

/** A number as the language writes it (Intl.NumberFormat of lang()): 10,000 · 10.000 · 10 000. */
export function formatNumber(n, options = {}) {
  return numberIn(current, n, options);
}

function missing(key, why = 'missing key') {
  console.error(`i18n: ${why} "${key}" (${current})`);
}

/**
 * A catalog value (a string, or a plural object) rendered with `args` in language `code`: the
 * plural form for `args.count` ("=N" first, then the language's category, else "other"), its
 * `{name}` placeholders filled (numbers formatted for the language), `{{` and `}}` as braces.
 * `key` only names the value in the console when something is missing.
 */
export function render(value, args = {}, code = current, key = '') {
  let text = value;
  if (text && typeof text === 'object') {
    const exact = `=${args.count}`;
    if (args.count !== undefined && Object.prototype.hasOwnProperty.call(text, exact)) text = text[exact];
    else text = text[pluralCategory(Number(args.count), code)] ?? text.other;
    if (typeof text !== 'string') {
      missing(key, 'no plural form for');
      return key;
    }
  }
  return String(text).replace(/\{\{|\}\}|\{([A-Za-z0-9_.]+)\}/g, (match, name) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    if (!(name in args) || args[name] === undefined || args[name] === null) {
      console.error(`i18n: no argument "${name}" for "${key}"`);
      return match;
    }
    const arg = args[name];
    if (typeof arg === 'number') return numberIn(code, arg);
    if (arg && typeof arg === 'object' && 'key' in arg) return tm(arg);
    return String(arg);
  });
}

/** Whether the catalog has `key`. */
export function has(key) {
  return !!messages && Object.prototype.hasOwnProperty.call(messages, key);
}

/** A catalog key rendered with `args`; a missing key renders as the key itself (and is logged). */
export function t(key, args = {}) {
  if (!has(key)) {
    missing(key, messages ? 'missing key' : 'no catalog for key');
    return key;
  }
  return render(messages[key], args || {}, current, key);
}

/** A message object `{key, args}` rendered; a plain string (or a number) is returned as it is. */
export function tm(message) {
  if (message === null || message === undefined) return '';
  if (typeof message !== 'object') return String(message);
  if (Array.isArray(message)) return message.map(tm).join(' ');
  return t(message.key, message.args || {});
}

/** A list joined the language's way: "a, b and c" / "a, b y c" / "a, b и c". */
export function formatList(items, type = 'conjunction') {
  if (typeof Intl.ListFormat !== 'function') return items.join(', ');
  return new Intl.ListFormat(current, { style: 'long', type }).format(items);
}

/** A date as the language writes it (Intl.DateTimeFormat of lang()). */
export function formatDate(date, options = {}) {
  return new Intl.DateTimeFormat(current, options).format(date);
}

/** An ordinal: en 1st 2nd 3rd 11th 21st, es 1.º, ru 1-й. */
export function ordinal(value) {
  const x = Number(value);
  if (current === 'en') {
    const rule = new Intl.PluralRules('en', { type: 'ordinal' }).select(x);
    return `${formatNumber(x)}${{ one: 'st', two: 'nd', few: 'rd' }[rule] || 'th'}`;
  }
  if (current === 'es') return `${formatNumber(x)}.º`;
  return `${formatNumber(x)}-й`;
}

/**
 * A catalog key rendered into a list of strings and nodes: an argument that is a DOM node (a link,
 * a <strong>) goes in where its placeholder is, as that node. For el(tag, {}, ...tNodes(...)).
 */
export function tNodes(key, args = {}) {
  const nodes = [];
  const marked = {};
  for (const [name, value] of Object.entries(args)) {
    if (value instanceof Node) {
      marked[name] = `\u0000${nodes.length}\u0000`;
      nodes.push(value);
    } else marked[name] = value;
  }
  const text = t(key, marked);
  if (!nodes.length) return [text];
  return text.split(/\u0000(\d+)\u0000/).map((part, i) => (i % 2 ? nodes[Number(part)] : part)).filter((part) => part !== '');
}

function parseArgs(node) {
  const text = node.getAttribute('data-i18n-args');
  if (!text) return {};
  try { return JSON.parse(text); } catch { return {}; }
}

/**
 * Fills every `[data-i18n]` (text) and `[data-i18n-attr]` ("attr:key;attr2:key2") under `root`,
 * `root` included, with `data-i18n-args` (JSON) as arguments. Without a catalog (it could not be
 * loaded) the page's own text stays.
 */
export function translatePage(root = document) {
  if (!messages) return;
  const nodes = [];
  if (root.nodeType === Node.ELEMENT_NODE && (root.hasAttribute('data-i18n') || root.hasAttribute('data-i18n-attr'))) nodes.push(root);
  nodes.push(...root.querySelectorAll('[data-i18n], [data-i18n-attr]'));
  for (const node of nodes) {
    const args = parseArgs(node);
    const key = node.getAttribute('data-i18n');
    // Child elements marked data-i18n-slot="name" (a <strong>, a link) stay, each where the
    // text's {name} is; they are translated on their own.
    const slots = key ? [...node.children].filter((child) => child.hasAttribute('data-i18n-slot')) : [];
    if (slots.length) {
      for (const slot of slots) args[slot.getAttribute('data-i18n-slot')] = slot;
      node.replaceChildren(...tNodes(key, args));
    } else if (key) {
      const text = t(key, args);
      if (node.textContent !== text) node.textContent = text;
    }
    const attrs = node.getAttribute('data-i18n-attr');
    if (attrs) {
      for (const pair of attrs.split(';')) {
        const at = pair.indexOf(':');
        if (at < 1) continue;
        const name = pair.slice(0, at).trim();
        const attrKey = pair.slice(at + 1).trim();
        if (name && attrKey) node.setAttribute(name, t(attrKey, args));
      }
    }
  }
  if (root === document) {
    const title = document.querySelector('title[data-i18n]');
    if (title) document.title = title.textContent;
  }
}

/** Marks `node` to show `key` (with `args`) now and after every change of language. */
export function bind(node, key, args) {
  node.setAttribute('data-i18n', key);
  if (args && Object.keys(args).length) node.setAttribute('data-i18n-args', JSON.stringify(args));
  else node.removeAttribute('data-i18n-args');
  node.textContent = t(key, args || {});
  return node;
}

// ------------------------------------------------------------------------------------------------
// Loading and switching

const catalogs = new Map();

/** The catalog of `code` (fetched once per page). Resolves with null when it cannot be had. */
function fetchCatalog(code) {
  if (!catalogs.has(code)) {
    catalogs.set(code, fetch(`/i18n/${code}.json`, { credentials: 'same-origin' })
      .then((response) => (response.ok ? response.json() : null))
      .catch(() => null)
      .then((data) => {
        if (!data) catalogs.delete(code); // asked again next time
        return data;
      }));
  }
  return catalogs.get(code);
}

function setDocumentLanguage() {
  document.documentElement.lang = current;
}

function showTranslated() {
  document.documentElement.classList.remove(LOADING_CLASS);
}

async function load(code) {
  let data = await fetchCatalog(code);
  if (!data && code !== 'en') {
    console.error(`i18n: the ${code} catalog could not be loaded; English instead`);
    data = await fetchCatalog('en');
    if (data) code = 'en';
  }
  current = code;
  messages = data;
  loadedLanguage = data ? code : null;
  setDocumentLanguage();
}

setDocumentLanguage();

/** Resolves once the catalog is loaded and the page's static text translated. */
export const ready = (async () => {
  try {
    await load(current);
    if (document.readyState === 'loading') {
      await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
    }
    translatePage(document);
  } finally {
    showTranslated();
  }
})();

const listeners = new Map();

/**
 * Calls `listener(lang)` after every change of language, once the static text is translated:
 * the page redraws what it wrote itself. A page without any listener of its own is reloaded
 * instead (its address keeps the game); `{chrome: true}` marks a listener of shared parts (the
 * header's switch) that does not redraw the page.
 */
export function onLanguageChange(listener, { chrome = false } = {}) {
  listeners.set(listener, chrome);
  return () => listeners.delete(listener);
}

/** Moves the page to language `code` (already chosen): the catalog, <html lang>, the text, and
    what the page wrote itself (its listeners redraw it; without any, `reload` reloads it). */
async function switchTo(code, reload) {
  await ready;
  if (code === loadedLanguage && code === current) return;
  await load(code);
  translatePage(document);
  if (![...listeners.values()].some((chrome) => !chrome) && reload) {
    location.reload();
    return;
  }
  for (const listener of listeners.keys()) {
    try { await listener(current); } catch (e) { console.error(e); }
  }
}

/**
 * Follows the player's saved choice (api.js calls this with every player it reads). The choice
 * is kept in localStorage for the first paint of the next page; a page shown in another
 * language than the player's is switched before the page goes on.
 */
export async function usePlayerLanguage(player) {
  if (!player) return;
  const saved = supported(player.preferences && player.preferences.language);
  preference = saved || 'auto';
  // Without a choice of their own (automatic), each device speaks its own language; this
  // browser's memory of an earlier choice goes.
  const code = saved || deviceLanguage();
  store(saved);
  if (code !== current || !loadedLanguage) await switchTo(code, false);
}

/**
 * The player chooses a language ('en' | 'es' | 'ru', or 'auto' for the device's): it is saved
 * for the player (PATCH /api/me, when there is a player) and in this browser, and the page
 * changes to it. Rejects when the server could not save it (the page has changed anyway).
 */
export async function setLanguage(code) {
  const wanted = code === 'auto' ? 'auto' : supported(code);
  if (!wanted) throw new Error(`Unsupported language: ${code}`);
  store(wanted === 'auto' ? null : wanted);
  let failure = null;
  if (preference !== undefined) {
    preference = wanted;
    try {
      const response = await fetch('/api/me', {
        method: 'PATCH',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', 'Accept-Language': wanted === 'auto' ? deviceLanguage() : wanted },
        body: JSON.stringify({ preferences: { language: wanted } }),
      });
      if (!response.ok) {
        let message = '';
        try { message = ((await response.json()).error || {}).message || ''; } catch { /* no body */ }
        failure = new Error(message || `HTTP ${response.status}`);
      }
    } catch (e) {
      failure = e;
    }
  }
  await switchTo(wanted === 'auto' ? deviceLanguage() : wanted, true);
  if (failure) throw failure;
}

/** Whether a newcomer chose a language on this browser before they had a name (home.js saves it). */
export function storedChoice() {
  return supported(stored());
}
