// Guess or Pass in a party room, in teams (the top of js/room.js says what a game's `room`
// holds; js/games/guess-or-pass.js gathers these into it): a turn at a time, one player holds
// their phone to their forehead and taps Got it or Pass; the word shows on the shared screen or
// on the teammates' phones (the host's choice), never on the holder's; after the turn, its
// words, guessed and passed. Its look is in css/games/guess-or-pass.css.
import { catalog, el, $, setText } from '../../api.js';
import { play as sound } from '../../sound.js';
import { t } from '../../i18n.js';
import { markup, seconds as wholeSeconds, teamName } from '../../room-parts.js';

/** The host's choices: the category, the number of teams and where the word shows. */
export async function hostSetup(box) {
  box.replaceChildren(markup(`
    <div class="field">
      <label for="host-category" data-i18n="room.host.category">Category</label>
      <select id="host-category"></select>
    </div>
    <div class="row settings-row">
      <div class="field">
        <label for="host-teams" data-i18n="room.host.teams">Teams</label>
        <select id="host-teams"><option value="2">2</option><option value="3">3</option><option value="4">4</option></select>
      </div>
      <div class="field">
        <label for="host-words" data-i18n="room.host.wordsOn">The word shows</label>
        <select id="host-words">
          <option value="screen" data-i18n="room.host.wordsOn.screen">on the shared screen</option>
          <option value="phones" data-i18n="room.host.wordsOn.phones">on the teammates' phones</option>
        </select>
      </div>
    </div>`));
  const { categories } = await catalog();
  $('#host-category', box).replaceChildren(...(categories || []).map((c) => el('option', { value: c.id, text: c.title })));
  return {
    set(game) {
      if (game.variant) $('#host-category', box).value = game.variant;
      if (game.teams) $('#host-teams', box).value = String(game.teams);
      if (game.wordsOn) $('#host-words', box).value = game.wordsOn;
    },
    read: () => ({
      category: $('#host-category', box).value, teams: Number($('#host-teams', box).value), wordsOn: $('#host-words', box).value,
    }),
  };
}

/** A turn on a phone: the holder's Got it and Pass, the teammates' clue. */
export function turnPhone(area, ctx) {
  area.replaceChildren(markup(`
    <div id="holder-box" class="holder-box" hidden>
      <p class="forehead" data-i18n="room.turn.forehead">📱 Hold the phone to your forehead, screen out: your team gives you clues.</p>
      <div class="big-count" id="holder-countdown" aria-live="assertive" hidden></div>
      <div class="gop-buttons">
        <button type="button" class="bad" id="turn-pass" data-i18n="room.turn.pass">Pass ⏭</button>
        <button type="button" class="good" id="turn-got" data-i18n="room.turn.gotIt">Got it ✓</button>
      </div>
    </div>
    <div id="clue-box" class="clue-box" hidden>
      <p id="clue-lead" class="clue-lead"></p>
      <p id="clue-word" class="clue-word" aria-live="polite"></p>
    </div>
    <p id="turn-guessed" class="turn-guessed"></p>`));
  const got = $('#turn-got', area);
  const pass = $('#turn-pass', area);
  let sending = false;
  const answer = async (type) => {
    const v = ctx.view();
    if (!v || v.phase !== 'turn' || sending || got.disabled) return;
    sending = true;
    got.disabled = true;
    pass.disabled = true;
    const after = await ctx.send({ type });
    sending = false;
    if (after) sound(type === 'guessed' ? 'correct' : 'wrong');
    got.disabled = false;
    pass.disabled = false;
    ctx.tick();
  };
  got.addEventListener('click', () => answer('guessed'));
  pass.addEventListener('click', () => answer('pass'));
  return {
    draw(v, { holding, mate, holder }) {
      const turn = v.turn || {};
      const tv = turn.view || {};
      $('#holder-box', area).hidden = !holding;
      $('#clue-box', area).hidden = holding;
      const lead = $('#clue-lead', area);
      const word = $('#clue-word', area);
      // The holder's phone never shows the word, whatever a view carries.
      if (holding) setText(word, '');
      else if (mate) {
        setText(lead, tv.word ? t('room.turn.clue', { name: holder.name }) : t('room.turn.clueScreen', { name: holder.name }));
        setText(word, tv.word || '');
      } else {
        setText(lead, t('room.turn.watch', { team: teamName(turn.team) }));
        setText(word, '');
      }
      setText($('#turn-guessed', area), t('room.turn.guessed', { count: tv.score ?? 0 }));
    },
    // The countdown before the turn, then Got it and Pass.
    tick({ countdown }) {
      const counting = countdown > 0;
      $('#holder-countdown', area).hidden = !counting;
      if (counting) setText($('#holder-countdown', area), String(wholeSeconds(countdown)));
      if (got.disabled !== counting && !sending) {
        got.disabled = counting;
        pass.disabled = counting;
      }
    },
    key(event) {
      if ($('#holder-box', area).hidden) return false;
      if (event.key === 'ArrowRight') answer('guessed');
      else if (event.key === 'ArrowLeft') answer('pass');
      else return false;
      return true;
    },
  };
}

/** A turn on the shared screen: the word (when it shows there), the turn's count. */
export function turnScreen(area) {
  area.replaceChildren(markup(`
    <p class="screen-word" id="s-word" aria-live="polite"></p>
    <p class="screen-turn-guessed" id="s-turn-guessed"></p>`));
  return {
    draw(v) {
      const tv = (v.turn && v.turn.view) || {};
      const onPhones = v.game && v.game.wordsOn === 'phones';
      setText($('#s-word', area), tv.word || (onPhones ? t('screen.turn.wordOnPhones') : ''));
      $('#s-word', area).classList.toggle('quiet', !tv.word);
      setText($('#s-turn-guessed', area), t('room.turn.guessed', { count: tv.score ?? 0 }));
    },
  };
}

/** The turn's words, guessed and passed. */
export function turnOver(area, v, prefix) {
  const tv = (v.turn && v.turn.view) || {};
  if (!area.firstChild) {
    area.replaceChildren(markup(`
      <div class="word-lists">
        <div><h3 data-i18n="guess-or-pass.over.guessed">Guessed ✅</h3><ul id="${prefix}turn-over-guessed"></ul></div>
        <div><h3 data-i18n="guess-or-pass.over.passed">Passed ⏭️</h3><ul id="${prefix}turn-over-passed"></ul></div>
      </div>`));
  }
  const list = (items) => (items && items.length ? items.map((w) => el('li', { text: w }))
    : [el('li', { class: 'muted', text: t('guess-or-pass.over.none') })]);
  $(`#${prefix}turn-over-guessed`, area).replaceChildren(...list(tv.guessed));
  $(`#${prefix}turn-over-passed`, area).replaceChildren(...list(tv.passed));
}
