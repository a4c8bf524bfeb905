// Picture Quiz: a deck's question with its pictures as big buttons. The server knows which
// picture is right; this page animates the tap and shows the dialogs the view describes.
import { GameSession, api, boot, resumeOrSetup, gameEntry, el, $, setText, say, reducedMotion, openDialog, closeDialog, setGameIdInURL } from '../api.js';
import { settingsForm, readSettings } from '../settings-form.js';
import { play as sound } from '../sound.js';
import { celebrate, bestLines } from '../celebrate.js';
import { themeOf, paintDeckColours, questionText, picture } from '../pictures.js';
import { ready, t, tm } from '../i18n.js';

// Its line among the other games in the settings page's instructions ({game}: its title).
export const help = 'picture-quiz.help.other';

// The solo page: its sections, after the title and status line of game.html (js/game-page.js
// puts them into the page and calls start).
export const solo = {
  markup: `
<section id="setup" hidden aria-labelledby="setup-title">
  <div class="panel">
    <p class="setup-lead" data-i18n="picture-quiz.setup.lead">First choose how many questions and pictures, then tap a deck to play.</p>
    <p class="muted" data-i18n="picture-quiz.rule">A right answer scores +1 and a wrong one −1; the score never goes below 0.</p>
    <div id="settings"></div>
  </div>
  <h2 id="setup-title" data-i18n="picture-quiz.setup.title">Choose a deck</h2>
  <div class="deck-grid" id="decks"></div>
</section>

<section id="play" hidden aria-label="Question" data-i18n-attr="aria-label:picture-quiz.play.label">
  <p class="hud"><span id="progress"></span><span id="score"></span></p>
  <p class="question" id="question"></p>
  <div class="pictures" id="pictures" role="group" aria-labelledby="question"></div>
  <p class="credit" id="credit"></p>
</section>

<dialog id="answer" aria-labelledby="answer-title">
  <div class="answer-head"><div id="answer-pic" class="answer-pic"></div><h2 id="answer-title"></h2></div>
  <p id="answer-text"></p>
  <p id="answer-rule" class="muted" hidden data-i18n="picture-quiz.rule">A right answer scores +1 and a wrong one −1; the score never goes below 0.</p>
  <div class="row end"><button type="button" id="continue" autofocus data-i18n="picture-quiz.continue">Continue</button></div>
</dialog>
<!-- The end is a part of the page, as in the other games (a dialog would scroll inside itself
     under a long list of misses); its buttons come before that list. -->
<section id="over" class="panel" hidden aria-labelledby="over-title" tabindex="-1">
  <h2 id="over-title"></h2>
  <p id="over-text"></p>
  <p id="over-rule" class="muted"></p>
  <div class="daily-end" data-daily-end hidden></div>
  <div class="row"><button type="button" id="again" data-new-game data-i18n="play.playAgain">Play again</button><button type="button" class="secondary" id="other-deck" data-new-game data-i18n="picture-quiz.otherDeck">Other deck</button></div>
  <div id="missed-block"><h3 data-i18n="picture-quiz.missed.title">Questions you missed</h3><ul class="missed-list" id="missed"></ul></div>
</section>
`,
  start: main,
};

const session = new GameSession('picture-quiz', render);
let decks = [];
let deck = null;
let shownQuestion = null;

// Older links carried the deck as &deck=...; the reply's `variant` names it now.
function deckFromURL() {
  return new URLSearchParams(location.search).get('deck');
}

function forgetDeckInURL() {
  const url = new URL(location.href);
  if (!url.searchParams.has('deck')) return;
  url.searchParams.delete('deck');
  history.replaceState(null, '', url);
}

// The deck the reply names (its variant), with the old URL parameter only as a fallback.
function adoptDeck(reply) {
  const id = reply.variant || deckFromURL();
  const found = id ? decks.find((d) => d.id === id) : null;
  if (found && found !== deck) { deck = found; applyTheme(deck); }
  if (reply.variant) forgetDeckInURL();
}

function applyTheme(d) {
  paintDeckColours(d);
  setText('#game-title', d ? d.title : t('picture-quiz.title'));
  document.title = t('common.pageTitle', { title: d ? d.title : t('picture-quiz.title') });
  setText('#credit', d ? d.credit : '');
}

function render(reply) {
  const v = reply.view;
  adoptDeck(reply);
  $('#setup').hidden = true;
  $('#play').hidden = false;
  setText('#progress', t('picture-quiz.page.progress', { number: v.questionNumber, count: v.questions }));
  setText('#score', t('picture-quiz.scoreOf', { score: v.score, count: v.questions }));
  setText('#question', questionText(deck, v.answerName));
  const key = `${reply.id}:${v.questionNumber}`;
  if (shownQuestion !== key) {
    shownQuestion = key;
    $('#pictures').replaceChildren(...v.choices.map((id, i) => el('button', {
      type: 'button', class: 'picture', 'aria-label': t('picture-quiz.picture', { number: i + 1, count: v.choices.length }),
      on: { click: () => choose(i) },
    }, picture(id))));
  }
  const buttons = [...document.querySelectorAll('#pictures button')];
  for (const b of buttons) b.disabled = v.phase !== 'question';
  if (v.phase === 'question') {
    closeDialog($('#answer'));
    $('#over').hidden = true;
    $('#play').hidden = false;
    // Named pictures from earlier answers go too: nothing names a picture during a question.
    $('#answer-pic').replaceChildren();
    $('#missed').replaceChildren();
    for (const b of buttons) b.classList.remove('spin', 'fade', 'right');
    return;
  }
  const fresh = reply.events && reply.events.some((e) => e.type === 'answered');
  if (v.answer) {
    buttons.forEach((b, i) => {
      b.classList.toggle('spin', i === v.answer.choice && fresh && !reducedMotion());
      b.classList.toggle('fade', i !== v.answer.choice && i !== v.answer.rightChoice);
      b.classList.toggle('right', !v.answer.correct && i === v.answer.rightChoice);
    });
  }
  if (fresh && v.answer) sound(v.answer.correct ? 'correct' : 'wrong');
  const endedNow = session.endedNow;
  const delay = fresh && !reducedMotion() ? 850 : 0;
  setTimeout(() => (v.isOver ? showOver(v, endedNow) : showAnswer(v)), delay);
}

// The server's title (a message: "Correct", "Wrong! That's <noun> <name>.") as a sentence
// ("Correct!"). An older server sent English text, without the deck's noun: the noun is put
// before the name then.
function answerTitle(a) {
  if (a.title && typeof a.title === 'object') return sentence(tm(a.title));
  const given = a.title || (a.correct ? t('picture-quiz.correct') : t('picture-quiz.wrong', { name: a.chosenName }));
  const title = sentence(given);
  const noun = deck && deck.noun;
  if (a.correct || !noun) return title;
  const bare = `Wrong! That's ${a.chosenName}.`;
  return title === bare ? t('picture-quiz.wrong.noun', { noun, name: a.chosenName }) : title;
}

// A title ends as a sentence does: with its own stop, else "!" ("¡Correcto!" gets none twice).
function sentence(text) {
  return /[.!?…]$/.test(text) ? text : t('picture-quiz.answer.exclaim', { title: text });
}

function showAnswer(v) {
  if (session.view !== v) return;
  setText('#answer-title', answerTitle(v.answer));
  setText('#answer-text', v.message ? tm(v.message) : '');
  // A wrong answer costs a point: said where the lower score is shown.
  $('#answer-rule').hidden = !!v.answer.correct;
  const a = v.answer;
  $('#answer-pic').replaceChildren(...(a.chosenId ? [picture(a.chosenId, a.chosenName)] : []));
  openDialog($('#answer'));
}

// `endedNow`: the last answer ended the game on this page (not a finished game opened again).
function showOver(v, endedNow) {
  if (session.view !== v) return;
  closeDialog($('#answer'));
  // The last answer's verdict heads the dialog; the end of the game is the sentence below it.
  setText('#over-title', v.answer ? answerTitle(v.answer) : t('picture-quiz.over.title'));
  // The final score out of the questions, and how the right and wrong answers made it (a
  // wrong one costs a point, so 7 right of 8 score 6).
  const missed = v.missed || [];
  const s = (session.reply && session.reply.summary) || {};
  const right = typeof s.correct === 'number' ? s.correct : v.questions - missed.length;
  setText('#over-text', t('picture-quiz.over.text', { score: v.score, count: v.questions }));
  setText('#over-rule', t('picture-quiz.over.rule', { right, wrong: v.questions - right }));
  $('#missed-block').hidden = missed.length === 0;
  $('#missed').replaceChildren(...missed.map((m) => el('li', {},
    picture(m.answerId, m.answerName),
    el('span', { text: t('picture-quiz.missed.item', { number: m.questionNumber, answer: m.answerName, chosen: m.chosenName }) }))));
  $('#play').hidden = true;
  const over = $('#over');
  const first = over.hidden;
  over.hidden = false;
  celebrate(over, overLines(session.reply), endedNow);
  if (first) $('#again').focus();
}

// Every question right is a perfect round; and a new best in the deck or over every deck.
function overLines(reply) {
  const s = reply.summary || {};
  const perfect = s.questions > 0 && s.correct === s.questions ? [t('picture-quiz.cheer.perfect', { count: s.questions })] : [];
  return [...perfect, ...bestLines(reply, deck && deck.title)];
}

function choose(index) {
  const v = session.view;
  if (!v || v.phase !== 'question') return;
  for (const b of document.querySelectorAll('#pictures button')) b.disabled = true;
  session.act({ type: 'choose', choice: index }).then((reply) => {
    if (!reply && session.view && session.view.phase === 'question') {
      for (const b of document.querySelectorAll('#pictures button')) b.disabled = false;
    }
  });
}

async function next() {
  closeDialog($('#answer'));
  await session.act({ type: 'next' });
  const first = $('#pictures button');
  if (first) first.focus();
}

async function start(d, previous) {
  deck = d;
  applyTheme(d);
  shownQuestion = null;
  try {
    const settings = readSettings($('#settings'));
    // "Play again" repeats the last game's size.
    if (previous) Object.assign(settings, { questions: previous.questions, choices: previous.choices.length });
    await session.start({ deck: d.id, settings });
    say('');
    const first = $('#pictures button');
    if (first) first.focus();
  } catch (e) {
    say(e.message, 'error');
  }
}

// Every deck, asked afresh: an import shows up without a restart.
async function loadDecks() {
  decks = await api('GET', '/api/decks');
  return decks;
}

function size(d) {
  const n = d.pictures;
  const photos = d.kind === 'photos';
  if (n < d.items) return t(photos ? 'picture-quiz.deck.somePhotos' : 'picture-quiz.deck.somePictures', { number: n, count: d.items });
  return t(photos ? 'picture-quiz.deck.photos' : 'picture-quiz.deck.pictures', { count: n });
}

// A deck's card, its Play button: its title, size and colours.
function deckCard(d) {
  const swatch = el('span', { class: 'swatch', 'aria-hidden': 'true' });
  swatch.style.background = `linear-gradient(90deg, ${themeOf(d).join(', ')})`;
  return el('button', { type: 'button', class: 'deck-card', 'data-id': d.id, on: { click: () => start(d) } },
    swatch, el('strong', { text: d.title }), el('span', { class: 'size', text: size(d) }),
    el('span', { class: 'play', 'aria-hidden': 'true', text: t('picture-quiz.deck.play') }));
}

async function showSetup() {
  $('#over').hidden = true;
  closeDialog($('#answer'));
  setGameIdInURL(null);
  deck = null;
  applyTheme(null);
  $('#play').hidden = true;
  $('#setup').hidden = false;
  try {
    await loadDecks();
  } catch (e) {
    say(e.message, 'error');
  }
  if ($('#setup').hidden) return; // a game started meanwhile
  // A deck that cannot be played (a roster whose photos are not installed) is not offered: how
  // to install them is for whoever runs the server (the deck list's needsPhotos, the README).
  $('#decks').replaceChildren(...decks.filter((d) => d.playable).map(deckCard));
  const first = $('#decks button');
  if (first) first.focus();
}

async function main() {
  await boot();
  await ready;
  await loadDecks();
  settingsForm(await gameEntry('picture-quiz'), $('#settings'), { prefix: 'set-' });
  $('#continue').addEventListener('click', next);
  $('#answer').addEventListener('cancel', (e) => { e.preventDefault(); next(); });
  $('#again').addEventListener('click', () => { if (deck) start(deck, session.view); else showSetup(); });
  $('#other-deck').addEventListener('click', showSetup);
  await resumeOrSetup(session, showSetup);
}


// ---- In a room ----
// Picture Quiz in a party room (js/room.js says what `room` holds): the host picks a deck; each
// phone taps one of the question's pictures, which the shared screen shows too, in the deck's
// colours; the reveal names the right one and shows it.
import { markup, decks as deckList } from '../room-parts.js';

// The decks, asked once (room.load): a question reads as its deck words it ("Tap the …" without).
let roomDecks = [];
const roomDeck = (view) => roomDecks.find((d) => d.id === (view && view.game && view.game.variant)) || null;

// The right picture of a question, when the view says which it was.
function rightPicture(rv) {
  if (rv.answer && rv.answer.rightId) return rv.answer.rightId;
  const index = rv.answer && typeof rv.answer.rightChoice === 'number' ? rv.answer.rightChoice : rv.rightChoice;
  return typeof index === 'number' && rv.choices ? rv.choices[index] : null;
}

export const room = {
  settings: ['questions', 'choices'],

  async load() {
    try {
      roomDecks = await deckList();
    } catch { /* the questions then read "Tap the …" */ }
  },

  hostSetup(box) {
    box.replaceChildren(markup(`
      <div class="field">
        <label for="host-deck" data-i18n="room.host.deck">Deck</label>
        <select id="host-deck"></select>
      </div>`));
    const select = $('#host-deck', box);
    select.replaceChildren(...roomDecks.filter((d) => d.playable).map((d) => el('option', { value: d.id, text: d.title })));
    return {
      set(game) { if (game.variant) select.value = game.variant; },
      read: () => ({ deck: select.value }),
    };
  },

  phone(area, ctx) {
    area.replaceChildren(markup(`
      <div id="pq" class="game-area">
        <p class="question" id="pq-question"></p>
        <div class="pictures" id="pq-pictures" role="group" aria-labelledby="pq-question"></div>
      </div>`));
    const pictures = $('#pq-pictures', area);
    let chosen = null;
    const choose = async (index) => {
      if (chosen !== null) return;
      chosen = index;
      ctx.redraw();
      if (!(await ctx.send({ type: 'choose', choice: index }))) {
        chosen = null;
        ctx.redraw();
      }
    };
    return {
      draw(rv, { answered }) {
        setText($('#pq-question', area), rv.answerName ? questionText(roomDeck(ctx.view()), rv.answerName) : '');
        const choices = rv.choices || [];
        if (choices.length && pictures.children.length !== choices.length) {
          pictures.dataset.count = String(choices.length);
          pictures.replaceChildren(...choices.map((id, i) => el('button', {
            type: 'button', class: 'picture', 'data-choice': i,
            'aria-label': t('picture-quiz.picture', { number: i + 1, count: choices.length }),
            on: { click: () => choose(i) },
          }, picture(id))));
        }
        const mark = rv.answer && typeof rv.answer.choice === 'number' ? rv.answer.choice : chosen;
        const closed = answered || (rv.phase && rv.phase !== 'question') || chosen !== null;
        [...pictures.children].forEach((b, i) => {
          b.disabled = closed;
          b.classList.toggle('chosen', i === mark);
          b.classList.toggle('fade', closed && mark !== null && i !== mark);
        });
      },
    };
  },

  screen(area, ctx) {
    area.replaceChildren(markup('<div class="screen-pictures" id="s-pictures" aria-hidden="true"></div>'));
    let shown = null;
    return {
      draw(rv) {
        const choices = rv.choices || [];
        if (shown !== choices.join(',')) {
          shown = choices.join(',');
          $('#s-pictures', area).replaceChildren(...choices.map((id) => el('span', { class: 'screen-picture' }, picture(id))));
        }
        return rv.answerName ? questionText(roomDeck(ctx.view()), rv.answerName) : null;
      },
    };
  },

  reveal(rv) {
    if (!rv.answerName) return {};
    const right = rightPicture(rv);
    return { answer: t('room.reveal.answer', { answer: rv.answerName }), picture: right ? picture(right, rv.answerName) : null };
  },

  // The deck's colours while its questions are on.
  paint(view) {
    const deck = roomDeck(view);
    if (deck) paintDeckColours(deck);
  },
};
