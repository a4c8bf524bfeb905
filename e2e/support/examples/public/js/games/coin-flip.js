// Coin Flip, the test-only sixth game (Sources/ExampleGames/CoinFlip): call heads or tails, the
// server flips the coin. Its page module is the whole of it in the browser: the solo page
// (js/game-page.js) and its round in a party room, on a phone and on the shared screen
// (js/room.js says what `room` holds). It ships in no product: e2e/support/examples.py lays it
// over a copy of the pages for `guesswork-examples`.
import { GameSession, boot, resumeOrSetup, gameEntry, $, setText, say } from '../api.js';
import { settingsForm, readSettings } from '../settings-form.js';
import { play as sound } from '../sound.js';
import { celebrate, bestLines } from '../celebrate.js';
import { ready, t } from '../i18n.js';
import { markup } from '../room-common.js';

const SIDES = ['heads', 'tails'];

// The coin and the two calls, on the solo page and on a phone in a room (ids prefixed).
const calls = (prefix) => `
  <div class="coin" id="${prefix}coin" aria-hidden="true"><span id="${prefix}side">?</span></div>
  <div class="coin-calls" role="group" aria-label="Your call" data-i18n-attr="aria-label:coin-flip.calls.label">
    <button type="button" id="${prefix}heads" data-side="heads" data-i18n="coin-flip.heads">Heads</button>
    <button type="button" id="${prefix}tails" data-side="tails" data-i18n="coin-flip.tails">Tails</button>
  </div>`;

/** The coin shows `side` (or "?" before the first flip). */
function showSide(coin, label, side) {
  coin.dataset.side = side || '';
  setText(label, side ? t(`coin-flip.${side}`) : '?');
}

// ---- Alone ----

export const solo = {
  markup: `
<section id="setup" class="panel" hidden aria-labelledby="setup-title">
  <h2 id="setup-title" data-i18n="coin-flip.setup.title">Call the coin</h2>
  <p data-i18n="coin-flip.setup.how">Call heads or tails, then the coin is flipped. Each right call scores a point.</p>
  <form id="setup-form">
    <div id="settings"></div>
    <button type="submit" id="start" data-i18n="play.start">Start</button>
  </form>
</section>

<section id="play" class="panel coin-play" hidden aria-labelledby="ask">
  <p class="hud"><span id="flip-text"></span><span id="score-text"></span></p>
  <h2 id="ask" data-i18n="coin-flip.ask">Heads or tails?</h2>
  ${calls('')}
  <p id="message" aria-live="polite"></p>
</section>

<section id="over" class="panel" hidden aria-labelledby="over-title" tabindex="-1">
  <h2 id="over-title"></h2>
  <p id="over-side"></p>
  <div class="daily-end" data-daily-end hidden></div>
  <div class="row"><button type="button" id="again" data-new-game data-i18n="play.playAgain">Play again</button></div>
</section>
`,
  start: main,
};

const session = new GameSession('coin-flip', render);

function render(reply) {
  const v = reply.view;
  const flipped = (reply.events || []).find((e) => e.type === 'flipped');
  $('#setup').hidden = true;
  $('#play').hidden = v.isOver;
  showSide($('#coin'), $('#side'), v.lastSide);
  setText('#flip-text', t('coin-flip.flip.of', { number: Math.min(v.flip + 1, v.flips), flips: v.flips }));
  setText('#score-text', t('coin-flip.score', { score: v.score }));
  // What the last flip showed, and whether the call was right (known from the reply's event).
  const shown = v.lastSide ? t(`coin-flip.shown.${v.lastSide}`) : '';
  const verdict = flipped ? t(flipped.right ? 'coin-flip.right' : 'coin-flip.wrong') : '';
  setText('#message', [shown, verdict].filter(Boolean).join(' '));
  if (flipped && !v.isOver) sound(flipped.right ? 'correct' : 'wrong');
  for (const side of SIDES) $(`#${side}`).disabled = v.isOver;
  const over = $('#over');
  if (!v.isOver) {
    over.hidden = true;
    return;
  }
  const first = over.hidden;
  over.hidden = false;
  setText('#over-title', t('coin-flip.over', { score: v.score, flips: v.flips }));
  setText('#over-side', $('#message').textContent);
  const lines = v.score === v.flips ? [t('coin-flip.cheer.allRight')] : [];
  celebrate(over, [...lines, ...bestLines(reply)], session.endedNow);
  if (first) over.focus();
}

function showSetup() {
  $('#setup').hidden = false;
  $('#play').hidden = true;
  $('#over').hidden = true;
  $('#start').focus();
}

async function start() {
  try {
    await session.start({ settings: readSettings($('#settings')) });
    say('');
    $('#heads').focus();
  } catch (e) {
    say(e.message, 'error');
  }
}

async function main() {
  await boot();
  await ready;
  settingsForm(await gameEntry('coin-flip'), $('#settings'), { prefix: 'set-' });
  $('#setup-form').addEventListener('submit', (e) => { e.preventDefault(); start(); });
  for (const side of SIDES) $(`#${side}`).addEventListener('click', () => session.act({ type: 'call', side }));
  $('#again').addEventListener('click', showSetup);
  await resumeOrSetup(session, showSetup);
}

// ---- In a room ----
// Each flip is a round, the same coin for everyone: a phone calls it, the shared screen asks,
// and the reveal says what the coin showed.

export const room = {
  settings: ['flips'],

  phone(area, ctx) {
    area.replaceChildren(markup(`<div id="cf" class="game-area room-coin-flip">${calls('cf-')}</div>`));
    let sending = false;
    for (const side of SIDES) {
      $(`#cf-${side}`, area).addEventListener('click', async () => {
        sending = true;
        ctx.redraw();
        await ctx.send({ type: 'call', side });
        sending = false;
        ctx.redraw();
      });
    }
    return {
      draw(rv, { answered }) {
        showSide($('#cf-coin', area), $('#cf-side', area), null);
        for (const side of SIDES) $(`#cf-${side}`, area).disabled = answered || sending || !!rv.isOver;
      },
    };
  },

  screen(area) {
    area.replaceChildren(markup('<div class="coin screen-coin" aria-hidden="true"><span>?</span></div>'));
    return { draw: () => t('coin-flip.ask') };
  },

  // The shared screen shows the coin as it landed.
  reveal(rv) {
    if (!rv.lastSide) return { answer: '' };
    const coin = markup('<div class="coin screen-coin" aria-hidden="true"><span></span></div>').firstElementChild;
    showSide(coin, coin.firstElementChild, rv.lastSide);
    return { answer: t(`coin-flip.shown.${rv.lastSide}`), picture: coin };
  },
};
