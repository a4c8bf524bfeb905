// Settings: name, avatar, the colour theme, devices (sign-in links, a new key, signing out), the Guess or
// Pass input mode, the player's own categories and game-night reminders; the instructions are static
// text but for the list of the other games, drawn from the catalog.
import { api, boot, catalog, $, say, showPlayerChip, avatarSrc, el, initialOf, usePlayerTheme } from './api.js';
import { uploadAvatar } from './avatar.js';
import {
  t, tNodes, lang, choice, setLanguage, onLanguageChange, bind,
} from './i18n.js';

/** A radio button's label as a message: its catalog key when it has one (so that a line naming
    it is said again in a new language), else its text (a language's own name). */
function labelOf(radio) {
  const span = radio.parentElement.querySelector('[data-i18n]');
  return span ? { key: span.getAttribute('data-i18n') } : radio.parentElement.textContent.trim();
}

/** Shows `message` in a status line: a message object `{key, args}` is said again after a change
    of language (a server's error, already in the player's language, is plain text). */
function statusLine(node, message, kind) {
  if (message && typeof message === 'object') bind(node, message.key, message.args);
  else {
    node.removeAttribute('data-i18n');
    node.removeAttribute('data-i18n-args');
    node.textContent = message;
  }
  node.dataset.kind = kind;
}

function showAvatar(player) {
  $('#current-avatar').replaceChildren(player.avatarURL
    ? el('img', { class: 'avatar large', src: avatarSrc(player), alt: t('settings.profile.currentPicture') })
    : el('span', { class: 'avatar large initial', 'aria-hidden': 'true', text: initialOf(player.name) }));
}

/** A group of radio buttons for one preference: checked as the player has it, saved on change
    (a PATCH of that preference alone) and said with the catalog key `savedKey`;
    `saved(player)` gets the player the server answers. */
function preferenceRadios(name, key, savedKey, player, saved) {
  for (const radio of document.querySelectorAll(`input[name=${name}]`)) {
    radio.checked = radio.value === player.preferences[key];
    radio.addEventListener('change', async () => {
      try {
        saved(await api('PATCH', '/api/me', { preferences: { [key]: radio.value } }));
        say({ key: savedKey, args: { choice: labelOf(radio) } });
      } catch (e) { say(e.message, 'error'); }
    });
  }
}

/** The language: automatic (the device's) or one of the three, saved for the player; the page
    changes to it at once, as from the header's switch. */
function languageRadios() {
  const show = () => {
    for (const radio of document.querySelectorAll('input[name=language]')) radio.checked = radio.value === choice();
  };
  for (const radio of document.querySelectorAll('input[name=language]')) {
    radio.addEventListener('change', async () => {
      try {
        await setLanguage(radio.value);
        say({ key: 'settings.language.saved', args: { choice: labelOf(radio) } });
      } catch (e) {
        say(t('common.language.notSaved', { error: e.message }), 'error');
      }
    });
  }
  onLanguageChange(show);
  show();
}

/** The Devices panel: a sign-in link for another device, a new key, signing out. */
function devices() {
  $('#make-link').addEventListener('click', async () => {
    try {
      const link = await api('POST', '/api/me/link-codes', {});
      $('#link-url').value = new URL(link.path, location.origin).href;
      $('#link-out').hidden = false;
      $('#link-url').select();
      say({ key: 'settings.devices.linkMade' });
    } catch (e) { say(e.message, 'error'); }
  });
  $('#copy-link').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText($('#link-url').value);
      say({ key: 'settings.devices.linkCopied' });
    } catch { $('#link-url').select(); say({ key: 'settings.devices.copyByHand' }); }
  });
  $('#new-key').addEventListener('click', async () => {
    try {
      await api('POST', '/api/me/token', {});
      say({ key: 'settings.devices.newKeyDone' });
    } catch (e) { say(e.message, 'error'); }
  });
  $('#sign-out').addEventListener('click', () => {
    $('#sign-out-warning').hidden = false;
    $('#sign-out-confirm').focus();
  });
  $('#sign-out-confirm').addEventListener('click', async () => {
    try {
      await api('POST', '/api/me/sign-out', {});
      location.assign('index.html');
    } catch (e) { say(e.message, 'error'); }
  });
}

// "The other games" in the instructions: every game of the catalog but those with instructions of
// their own on this page ([data-help-game]), each in its own words: the line its module gives
// (`export const help`, a catalog key whose {game} is the game's title), else its title and blurb.
async function drawOtherGames() {
  const { games } = await catalog();
  const own = new Set([...document.querySelectorAll('[data-help-game]')].map((node) => node.dataset.helpGame));
  const listed = games.filter((g) => !own.has(g.id) && /^[a-z0-9-]+$/.test(g.id));
  const helps = await Promise.all(listed.map((g) => import(`./games/${g.id}.js`).then((module) => module.help, () => null)));
  const lines = listed.map((g, i) => {
    const game = el('strong', { text: g.title });
    return el('span', { 'data-game': g.id },
      ...(helps[i] ? tNodes(helps[i], { game }) : tNodes('settings.help.other.line', { game, blurb: g.blurb })));
  });
  $('#other-games').replaceChildren(...lines.flatMap((line, i) => (i ? [' ', line] : [line])));
}

async function main() {
  let player = await boot();
  drawOtherGames().catch((e) => say(e.message, 'error'));
  devices();
  $('#name').value = player.name;
  showAvatar(player);
  preferenceRadios('mode', 'inputMode', 'settings.mode.saved', player, (saved) => { player = saved; });
  preferenceRadios('theme', 'theme', 'settings.theme.saved', player, (saved) => { player = saved; usePlayerTheme(saved); });
  languageRadios();
  // A new language: what this page wrote itself (the static text follows by its keys).
  onLanguageChange(() => {
    showAvatar(player);
    drawOtherGames().catch((e) => say(e.message, 'error'));
    countWords();
    if (!$('#category-id').value) $('#category-save').textContent = t('settings.categories.create');
    else $('#category-save').textContent = t('settings.categories.save');
    return Promise.all([loadCategories(), loadReminders()]).catch((e) => say(e.message, 'error'));
  });
  $('#name-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const name = $('#name').value.trim();
    if (!name) { say({ key: 'settings.profile.needName' }, 'error'); return; }
    try {
      player = await api('PATCH', '/api/me', { name });
      showPlayerChip(player);
      say({ key: 'settings.profile.nameSaved' });
    } catch (e) { say(e.message, 'error'); }
  });
  $('#avatar').addEventListener('change', async () => {
    const file = $('#avatar').files[0];
    if (!file) return;
    try {
      player = await uploadAvatar(file);
      showAvatar(player);
      showPlayerChip(player);
      say({ key: 'settings.profile.pictureSaved' });
    } catch (e) { say(e.message, 'error'); }
  });
}

// ---------------------------------------------------------------------------------------------
// Custom categories

const wordsOf = (text) => text.split('\n').map((w) => w.trim()).filter(Boolean);

function categoryStatus(message, kind = 'info') {
  statusLine($('#category-status'), message, kind);
}

async function loadCategories() {
  const { categories } = await api('GET', '/api/categories');
  $('#my-categories').replaceChildren(...(categories.length ? categories.map((c) => el('li', { 'data-id': c.id },
    el('strong', { text: c.name }), ` · ${t('settings.categories.wordCount', { count: c.words.length })} `,
    el('button', { type: 'button', class: 'secondary', 'aria-label': t('settings.categories.editLabel', { name: c.name }), text: t('settings.categories.edit'), on: { click: () => editCategory(c) } }),
    ' ',
    el('button', { type: 'button', class: 'secondary', 'aria-label': t('settings.categories.deleteLabel', { name: c.name }), text: t('settings.categories.delete'), on: { click: () => deleteCategory(c) } }),
  )) : [el('li', { class: 'muted', text: t('settings.categories.none') })]));
}

function editCategory(category) {
  $('#category-id').value = category.id;
  $('#category-name').value = category.name;
  $('#category-words').value = category.words.join('\n');
  $('#category-save').textContent = t('settings.categories.save');
  $('#category-cancel').hidden = false;
  countWords();
  $('#category-name').focus();
}

function resetCategoryForm() {
  $('#category-form').reset();
  $('#category-id').value = '';
  $('#category-save').textContent = t('settings.categories.create');
  $('#category-cancel').hidden = true;
  countWords();
}

function countWords() {
  const n = new Set(wordsOf($('#category-words').value).map((w) => w.toLowerCase())).size;
  $('#category-count').textContent = n ? t('settings.categories.distinct', { count: n }) : '';
}

async function saveCategory(event) {
  event.preventDefault();
  const id = $('#category-id').value;
  const name = $('#category-name').value.trim();
  const words = wordsOf($('#category-words').value);
  // The same rules as the server, said before asking it.
  if (!name) { categoryStatus({ key: 'settings.categories.needName' }, 'error'); $('#category-name').focus(); return; }
  const distinct = new Set(words.map((w) => w.toLowerCase())).size;
  if (distinct < 10) { categoryStatus({ key: 'settings.categories.tooFew', args: { count: distinct } }, 'error'); $('#category-words').focus(); return; }
  try {
    const saved = await api(id ? 'PUT' : 'POST', id ? `/api/categories/${encodeURIComponent(id)}` : '/api/categories', { name, words });
    categoryStatus({ key: id ? 'settings.categories.saved' : 'settings.categories.created', args: { name: saved.name } });
    resetCategoryForm();
    await loadCategories();
  } catch (e) { categoryStatus(e.message, 'error'); }
}

async function deleteCategory(category) {
  if (!confirm(t('settings.categories.confirmDelete', { name: category.name }))) return;
  try {
    await api('DELETE', `/api/categories/${encodeURIComponent(category.id)}`);
    if ($('#category-id').value === category.id) resetCategoryForm();
    categoryStatus({ key: 'settings.categories.deleted', args: { name: category.name } });
    await loadCategories();
  } catch (e) { categoryStatus(e.message, 'error'); }
}

// ---------------------------------------------------------------------------------------------
// Reminders

const HOUR = 3600 * 1000;
const pad = (n) => String(n).padStart(2, '0');
/** A Date as the value of a datetime-local input (local time, to the minute). */
const localValue = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
/** A datetime-local value with the browser's UTC offset at that time: 2026-12-24T20:00:00+01:00. */
function withOffset(value) {
  const offset = -new Date(value).getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  return `${value}:00${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}
let coordinates = null;
let alarms = [];

function reminderStatus(message, kind = 'info') {
  statusLine($('#reminder-status'), message, kind);
}

/** The earliest time the picker offers: an hour from now, to the next minute. */
function setEarliest() {
  const earliest = new Date(Date.now() + HOUR + 60 * 1000);
  $('#reminder-start').min = localValue(earliest);
}

function defaultStart() {
  // As in the original app: tomorrow at 20:00.
  const d = new Date();
  d.setDate(d.getDate() + 1);
  d.setHours(20, 0, 0, 0);
  return localValue(d);
}

async function useLocation() {
  if (!navigator.geolocation) { $('#location-note').textContent = t('settings.reminders.noLocation'); return; }
  $('#location-note').textContent = t('settings.reminders.finding');
  navigator.geolocation.getCurrentPosition(async (position) => {
    const { latitude, longitude } = position.coords;
    try {
      const city = await api('GET', `/api/cities/nearest?lat=${latitude}&lon=${longitude}`);
      $('#reminder-place').value = city.name;
      coordinates = { latitude, longitude };
      $('#location-note').textContent = t('settings.reminders.nearest', { city: city.name, km: city.distanceKm });
    } catch (e) { $('#location-note').textContent = e.message; }
  }, () => {
    coordinates = null;
    $('#location-note').textContent = t('settings.reminders.notShared');
  }, { timeout: 10000, maximumAge: 600000 });
}

async function askNotificationPermission() {
  if (!('Notification' in window) || Notification.permission !== 'default') return;
  try { await Notification.requestPermission(); } catch { /* old callback form: nothing to do */ }
}

/** While the page is open, a notification one hour before each reminder. */
function scheduleAlarms(reminders) {
  for (const timer of alarms) clearTimeout(timer);
  alarms = [];
  const now = Date.now();
  for (const r of reminders) {
    const wait = r.alarmAt - now;
    if (wait < 0 || wait > 2147483647) continue;
    alarms.push(setTimeout(() => {
      const text = t('settings.reminders.alarm', { title: r.title, place: r.place });
      reminderStatus(`⏰ ${text}`);
      if ('Notification' in window && Notification.permission === 'granted') {
        try { new Notification(r.title, { body: text, tag: r.id }); } catch { /* the status line said it */ }
      }
    }, wait));
  }
}

async function loadReminders() {
  const { reminders } = await api('GET', '/api/reminders');
  const when = (r) => new Date(r.startsAt).toLocaleString(lang(), { dateStyle: 'full', timeStyle: 'short' });
  $('#reminders').replaceChildren(...(reminders.length ? reminders.map((r) => el('li', { 'data-id': r.id },
    el('strong', { text: r.title }), ` · ${when(r)} · ${r.place} `,
    el('a', { href: r.icsURL, download: 'game-night.ics', text: t('settings.reminders.download'), 'aria-label': t('settings.reminders.downloadLabel', { title: r.title }) }),
    ' ',
    el('button', { type: 'button', class: 'secondary', text: t('settings.reminders.delete'), 'aria-label': t('settings.reminders.deleteLabel', { title: r.title }), on: { click: () => deleteReminder(r) } }),
  )) : [el('li', { class: 'muted', text: t('settings.reminders.none') })]));
  scheduleAlarms(reminders);
}

async function saveReminder(event) {
  event.preventDefault();
  askNotificationPermission();
  setEarliest();
  const title = $('#reminder-title').value.trim();
  const place = $('#reminder-place').value.trim();
  const value = $('#reminder-start').value;
  if (!title) { reminderStatus({ key: 'settings.reminders.needTitle' }, 'error'); return; }
  if (!place) { reminderStatus({ key: 'settings.reminders.needPlace' }, 'error'); return; }
  if (!value) { reminderStatus({ key: 'settings.reminders.needTime' }, 'error'); $('#reminder-start').focus(); return; }
  if (new Date(value).getTime() < Date.now() + HOUR) {
    reminderStatus({ key: 'settings.reminders.tooSoon' }, 'error');
    $('#reminder-start').focus();
    return;
  }
  try {
    const made = await api('POST', '/api/reminders', { title, start: withOffset(value), place, ...(coordinates || {}) });
    reminderStatus({ key: 'settings.reminders.added', args: { title: made.title, when: new Date(made.startsAt).toLocaleString(lang(), { dateStyle: 'medium', timeStyle: 'short' }) } });
    await loadReminders();
  } catch (e) { reminderStatus(e.message, 'error'); }
}

async function deleteReminder(reminder) {
  try {
    await api('DELETE', `/api/reminders/${encodeURIComponent(reminder.id)}`);
    reminderStatus({ key: 'settings.reminders.deleted', args: { title: reminder.title } });
    await loadReminders();
  } catch (e) { reminderStatus(e.message, 'error'); }
}

async function extras() {
  $('#category-form').addEventListener('submit', saveCategory);
  $('#category-cancel').addEventListener('click', resetCategoryForm);
  $('#category-words').addEventListener('input', countWords);
  $('#reminder-form').addEventListener('submit', saveReminder);
  $('#use-location').addEventListener('click', useLocation);
  $('#reminder-place').addEventListener('input', () => { coordinates = null; });
  setEarliest();
  $('#reminder-start').value = defaultStart();
  // The default title in the page's language (a title the player typed stays).
  const title = $('#reminder-title');
  title.value = t('settings.reminders.defaultTitle');
  onLanguageChange(() => { if (!title.dataset.typed) title.value = t('settings.reminders.defaultTitle'); });
  title.addEventListener('input', () => { title.dataset.typed = '1'; });
  await Promise.all([loadCategories(), loadReminders()]);
}

main().then(extras).catch((e) => say(e.message, 'error'));
