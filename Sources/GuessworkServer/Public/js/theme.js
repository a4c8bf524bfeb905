// The colour theme, applied before the page draws: a plain (not module) script in every page's
// <head>, so it runs synchronously and there is no flash of the wrong theme. It reads the last
// theme this browser saw (localStorage); pages confirm it from the player's preferences
// (GET /api/me) through guessworkTheme.use(), which also remembers it for the next page.
(function () {
  const KEY = 'guesswork-theme';
  const SETTINGS = ['system', 'light', 'dark', 'contrast'];
  const contrast = matchMedia('(prefers-contrast: more)');
  const dark = matchMedia('(prefers-color-scheme: dark)');
  let setting = 'system';

  function stored() {
    try { return localStorage.getItem(KEY); } catch { return null; } // storage may be blocked
  }

  /** The theme the stylesheet draws: the setting itself, or what the system asks for. */
  function resolved() {
    if (setting !== 'system') return setting;
    if (contrast.matches) return 'contrast';
    return dark.matches ? 'dark' : 'light';
  }

  function apply() {
    document.documentElement.dataset.theme = resolved();
  }

  function use(value) {
    setting = SETTINGS.includes(value) ? value : 'system';
    try { localStorage.setItem(KEY, setting); } catch { /* this page still shows it */ }
    apply();
  }

  setting = SETTINGS.includes(stored()) ? stored() : 'system';
  apply();
  // "System" follows the system while the page is open too.
  contrast.addEventListener('change', apply);
  dark.addEventListener('change', apply);
  window.guessworkTheme = { use, get setting() { return setting; } };
})();

// The language, also before the page draws: <html lang> from the last choice of this browser
// (or the device's language), and, for a language other than English (the pages' own text), the
// class that keeps every [data-i18n] element invisible until js/i18n.js has translated it, so
// that no English flashes first. A page whose scripts never run is shown after a few seconds.
(function () {
  const SUPPORTED = ['en', 'es', 'ru'];
  const primary = (tag) => String(tag || '').toLowerCase().split(/[-_]/)[0];
  let chosen = null;
  try { chosen = localStorage.getItem('guesswork.lang'); } catch { chosen = null; }
  if (!SUPPORTED.includes(chosen)) {
    const tags = (navigator.languages && navigator.languages.length) ? navigator.languages : [navigator.language];
    chosen = tags.map(primary).find((code) => SUPPORTED.includes(code)) || 'en';
  }
  const root = document.documentElement;
  root.lang = chosen;
  if (chosen === 'en') return;
  root.classList.add('i18n-loading'); // css/app.css hides the texts while it is there
  setTimeout(() => root.classList.remove('i18n-loading'), 4000);
})();

// Focus rings only after keyboard use. Pages put focus on their first control for whoever uses
// a keyboard, and Chromium draws :focus-visible for a focus set by script before any input, so a
// tap-only player saw a thick ring that looked like a hint. <html class="keyboard"> is set by a
// key that moves or presses (not a letter typed into a field) and cleared by a tap or click;
// css/app.css draws the ring only while it is there. A keyboard user's mode carries over to the
// next page of this tab, so the focus a page sets on arrival shows at once.
(function () {
  const KEY = 'guesswork.keyboard';
  const root = document.documentElement;
  const MODIFIERS = ['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock'];
  function use(keyboard) {
    if (root.classList.contains('keyboard') === keyboard) return;
    root.classList.toggle('keyboard', keyboard);
    try { sessionStorage.setItem(KEY, keyboard ? '1' : ''); } catch { /* this page still knows */ }
  }
  let stored = false;
  try { stored = sessionStorage.getItem(KEY) === '1'; } catch { stored = false; }
  root.classList.toggle('keyboard', stored);
  addEventListener('keydown', (event) => {
    if (MODIFIERS.includes(event.key)) return;
    const typing = event.key.length === 1 && event.target instanceof Element
      && event.target.closest('input, textarea, select, [contenteditable]');
    if (!typing) use(true);
  }, true);
  addEventListener('pointerdown', (event) => { if (event.isPrimary !== false) use(false); }, true);
})();
