// Working without the server: registers the service worker (sw.js keeps the pages and files so
// that a page opens offline) and shows a banner while the server cannot be reached. api.js calls
// showOffline() when a request fails for want of a network; every page loads this through it.

import { ready, translatePage } from './i18n.js';

const BANNER_ID = 'offline-banner';

/** The banner at the top of the page: what still works, and what needs the connection. */
export function showOffline() {
  if (document.getElementById(BANNER_ID)) return;
  const banner = document.createElement('div');
  banner.id = BANNER_ID;
  banner.className = 'offline-banner';
  banner.setAttribute('role', 'status');
  // Marked with their keys and translated once the catalog is in (a page may start offline,
  // before it is), and again after every change of language; English until then.
  const part = (tag, key, english) => {
    const node = document.createElement(tag);
    node.setAttribute('data-i18n', key);
    node.textContent = english;
    return node;
  };
  const title = part('strong', 'offline.banner.title', 'You are offline.');
  const text = part('span', 'offline.banner.text', 'Pages still open, but new games, moves and scores need the connection to the server.');
  const retry = part('button', 'offline.banner.retry', 'Try again');
  retry.type = 'button';
  retry.className = 'secondary';
  retry.addEventListener('click', () => location.reload());
  banner.append(title, ' ', text, ' ', retry);
  document.body.prepend(banner);
  ready.then(() => translatePage(banner));
}

/** Takes the banner away (the browser is online again, or the server answered again). */
export function hideOffline() {
  const banner = document.getElementById(BANNER_ID);
  if (banner) banner.remove();
}

window.addEventListener('offline', showOffline);
window.addEventListener('online', hideOffline);
if (!navigator.onLine) showOffline();

// Service workers need a secure context (HTTPS, or http://localhost and 127.0.0.1). sw.js sits at
// the site's root so that it serves every page; resolved against the page, not this file, which
// may be under a versioned folder.
if ('serviceWorker' in navigator && window.isSecureContext) {
  navigator.serviceWorker.register(new URL('sw.js', document.baseURI)).catch(() => {
    // Without it the site works as before, online only: nothing to tell the player.
  });
}
