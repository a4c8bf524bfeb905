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
