// A sign-in link (`link.html#<code>`, from Settings on another device or from
// `guesswork stats --browser-link`): says which player it signs this browser in as and what
// happens to the player this browser is now, and signs in only when asked. The code travels in
// the address's fragment, which browsers never send to a server or in a Referer.
import { api, $, say, setText } from './api.js';

const code = decodeURIComponent(location.hash.slice(1));
// The code is not kept in the address bar or the history once read.
history.replaceState(null, '', location.pathname);

async function show() {
  if (!code) { say('This link has no sign-in code: open the whole link you were given.', 'error'); return; }
  let link;
  try {
    link = await api('GET', `/api/link-codes/${encodeURIComponent(code)}`);
  } catch (e) { say(e.message, 'error'); return; }
  setText('#confirm-title', `Sign in as ${link.player.name}?`);
  setText('#what-happens', link.current && link.current.id !== link.player.id
    ? `This browser is ${link.current.name} now. Signing in as ${link.player.name} signs ${link.current.name} out of this browser: to come back as ${link.current.name} here later, you will need a sign-in link made by ${link.current.name} on another device (Settings → Devices).`
    : link.current
      ? `This browser is already ${link.player.name}; signing in again gives it a new key.`
      : `This browser will play as ${link.player.name}, with ${link.player.name}'s statistics. The link works once, for ten minutes.`);
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

show();
