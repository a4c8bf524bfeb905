// A sign-in link (`link.html#<code>`, from Settings on another device or from
// `guesswork stats --browser-link`): says which player it signs this browser in as and what
// happens to the player this browser is now, and signs in only when asked. The code travels in
// the address's fragment, which browsers never send to a server or in a Referer.
import { api, $, say, showLanguageSwitch } from './api.js';
import { bind, ready, onLanguageChange } from './i18n.js';

const code = decodeURIComponent(location.hash.slice(1));
// The code is not kept in the address bar or the history once read.
history.replaceState(null, '', location.pathname);

async function show() {
  await ready;
  showLanguageSwitch();
  if (!code) { say({ key: 'link.noCode' }, 'error'); return; }
  let link;
  try {
    link = await api('GET', `/api/link-codes/${encodeURIComponent(code)}`);
  } catch (e) { say(e.message, 'error'); return; }
  // Marked with their keys: a change of language redraws them where they are.
  bind($('#confirm-title'), 'link.confirmTitle', { name: link.player.name });
  const names = { name: link.player.name, current: link.current ? link.current.name : '' };
  bind($('#what-happens'), link.current && link.current.id !== link.player.id
    ? 'link.switchPlayer' : link.current ? 'link.samePlayer' : 'link.newBrowser', names);
  $('#confirm').hidden = false;
  $('#sign-in').focus();
}

$('#sign-in').addEventListener('click', async () => {
  $('#sign-in').disabled = true;
  try {
    await api('POST', `/api/link-codes/${encodeURIComponent(code)}`, {});
    location.assign('stats.html');
  } catch (e) {
    $('#sign-in').disabled = false;
    say(e.message, 'error');
  }
});

// The texts are all marked with their keys: nothing to redraw but them.
onLanguageChange(() => {});

show();
