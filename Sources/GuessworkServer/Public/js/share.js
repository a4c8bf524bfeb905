// The share panel of a finished daily game, on its game page and on the daily page. The text
// comes whole from the server (emoji line and link included); this only hands it on. "Share"
// uses the best way the browser offers (the share sheet, else the clipboard), and a read-only
// text box with "Copy" is always shown as well: on plain HTTP a phone has neither, and the player
// can still copy the text by hand.
import { el } from './api.js';
import { t, bind } from './i18n.js';

let panels = 0;

/** The panel for `share` ({text, url}): Share and Copy side by side, the text box below. */
export function sharePanel(share) {
  const id = `share-text-${++panels}`;
  const text = share.text;
  const status = el('p', { class: 'share-status', role: 'status', 'aria-live': 'polite' });
  const tell = (key) => { bind(status, key); }; // said again in a new language
  const box = el('textarea', {
    id, class: 'share-text', readOnly: true, rows: Math.max(3, text.split('\n').length + 1),
    spellcheck: 'false', text, on: { focus: () => box.select() },
  });

  // Selects the text so that the player's own copy (Ctrl+C, or the phone's menu) takes it all.
  const selectBox = () => { box.focus(); box.select(); };

  async function shareResult() {
    if (navigator.share && window.isSecureContext) {
      try {
        await navigator.share({ text });
        tell('share.shared');
        return;
      } catch (e) {
        if (e.name === 'AbortError') return; // the player closed the share sheet
      }
    }
    if (navigator.clipboard && window.isSecureContext) {
      try {
        await navigator.clipboard.writeText(text);
        tell('share.copied');
        return;
      } catch { /* not allowed here: the text box below is the way */ }
    }
    selectBox();
    tell('share.selectAndCopy');
  }

  // The old copy command works on plain HTTP too, as long as the text is selected.
  function copyBox() {
    selectBox();
    let copied = false;
    try { copied = document.execCommand('copy'); } catch { copied = false; }
    tell(copied ? 'share.copied' : 'share.selectAndCopy');
  }

  return el('div', { class: 'share-panel', role: 'group', 'aria-label': t('share.label'), 'data-i18n-attr': 'aria-label:share.label' },
    el('div', { class: 'row' },
      el('button', { type: 'button', class: 'share-button', 'data-i18n': 'share.button', text: t('share.button'), on: { click: shareResult } }),
      el('button', { type: 'button', class: 'secondary copy-button', 'data-i18n': 'share.copy', text: t('share.copy'), on: { click: copyBox } }),
      status),
    el('label', { for: id, class: 'share-label', 'data-i18n': 'share.textLabel', text: t('share.textLabel') }),
    box);
}
