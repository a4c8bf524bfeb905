// Picture Quiz: a deck's question with its pictures as big buttons. The server knows which
// picture is right; this page animates the tap and shows the dialogs the view describes.
import { GameSession, boot, resumeOrSetup, catalog, el, $, setText, say, reducedMotion, openDialog, closeDialog, setGameIdInURL } from '../api.js';

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
  const colours = (d && d.theme && d.theme.length ? d.theme : ['#047857', '#0e7490', '#1e3a8a']);
  document.body.style.background = `linear-gradient(160deg, ${colours.join(', ')})`;
  document.body.style.backgroundAttachment = 'fixed';
  setText('#deck-title', d ? d.title : 'Picture Quiz');
  document.title = `${d ? d.title : 'Picture Quiz'} · Guesswork`;
  setText('#credit', d ? d.credit : '');
}

function questionText(v) {
  const template = (deck && deck.question) || 'Tap the {answer}';
  return template.split('{answer}').join(v.answerName);
}

// A picture: for emoji decks the item id is the emoji itself.
function picture(id) {
  return el('span', { 'aria-hidden': 'true', text: id });
}

function render(reply) {
  const v = reply.view;
  adoptDeck(reply);
  $('#setup').hidden = true;
  $('#play').hidden = false;
  setText('#progress', `Question ${v.questionNumber} of ${v.questions}`);
  setText('#score', `Score: ${v.score}`);
  setText('#question', questionText(v));
  const key = `${reply.id}:${v.questionNumber}`;
  if (shownQuestion !== key) {
    shownQuestion = key;
    $('#pictures').replaceChildren(...v.choices.map((id, i) => el('button', {
      type: 'button', class: 'picture', 'aria-label': `Picture ${i + 1} of ${v.choices.length}`,
      on: { click: () => choose(i) },
    }, picture(id))));
  }
  const buttons = [...document.querySelectorAll('#pictures button')];
  for (const b of buttons) b.disabled = v.phase !== 'question';
  if (v.phase === 'question') {
    closeDialog($('#answer'));
    closeDialog($('#over'));
    for (const b of buttons) b.classList.remove('spin', 'fade');
    return;
  }
  const fresh = reply.events && reply.events.some((e) => e.type === 'answered');
  if (v.answer) {
    buttons.forEach((b, i) => {
      b.classList.toggle('spin', i === v.answer.choice && fresh && !reducedMotion());
      b.classList.toggle('fade', i !== v.answer.choice);
    });
  }
  const delay = fresh && !reducedMotion() ? 850 : 0;
  setTimeout(() => (v.isOver ? showOver(v) : showAnswer(v)), delay);
}

// The server's title ("Correct" / "Wrong! That's <name>."), with the deck's noun put before the
// name when the server left it out.
function answerTitle(a) {
  const title = a.title || (a.correct ? 'Correct' : `Wrong! That's ${a.chosenName}.`);
  const noun = deck && deck.noun;
  if (a.correct || !noun) return title;
  const bare = `Wrong! That's ${a.chosenName}.`;
  return title === bare ? `Wrong! That's ${noun} ${a.chosenName}.` : title;
}

function showAnswer(v) {
  if (session.view !== v) return;
  setText('#answer-title', answerTitle(v.answer));
  setText('#answer-text', v.message || '');
  openDialog($('#answer'));
}

function showOver(v) {
  if (session.view !== v) return;
  closeDialog($('#answer'));
  setText('#over-title', v.answer ? `${answerTitle(v.answer)} Game over!` : 'Game over!');
  setText('#over-text', v.message || `Your final score was ${v.score}.`);
  const missed = v.missed || [];
  $('#missed-block').hidden = missed.length === 0;
  $('#missed').replaceChildren(...missed.map((m) => el('li', {},
    el('span', { class: 'pic', role: 'img', 'aria-label': m.answerName, text: m.answerId }),
    el('span', { text: `Q${m.questionNumber}: ${m.answerName} (you tapped ${m.chosenName})` }))));
  openDialog($('#over'));
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
    await session.start({ deck: d.id, settings: previous
      ? { questions: previous.questions, choices: previous.choices.length }
      : { questions: Number($('#set-questions').value), choices: Number($('#set-choices').value) } });
    say('');
    const first = $('#pictures button');
    if (first) first.focus();
  } catch (e) {
    say(e.message, 'error');
  }
}

function showSetup() {
  closeDialog($('#over'));
  closeDialog($('#answer'));
  setGameIdInURL(null);
  deck = null;
  applyTheme(null);
  $('#play').hidden = true;
  $('#setup').hidden = false;
  $('#decks').replaceChildren(...decks.map((d) => {
    const button = el('button', { type: 'button', disabled: !d.playable, on: { click: () => start(d) } },
      el('strong', { text: d.title }),
      el('span', { text: d.playable ? `${d.items} pictures` : 'needs photos (import them with guesswork decks import)' }));
    button.style.background = `linear-gradient(135deg, ${(d.theme.length ? d.theme : ['#047857', '#0e7490']).slice(0, 2).join(', ')})`;
    return button;
  }));
  const first = $('#decks button:not([disabled])');
  if (first) first.focus();
}

async function main() {
  await boot();
  decks = (await catalog()).decks;
  const q = $('#set-questions');
  for (let n = 2; n <= 20; n += 1) q.append(el('option', { value: String(n), text: String(n), selected: n === 8 }));
  const c = $('#set-choices');
  for (let n = 2; n <= 6; n += 1) c.append(el('option', { value: String(n), text: String(n), selected: n === 3 }));
  $('#continue').addEventListener('click', next);
  $('#answer').addEventListener('cancel', (e) => { e.preventDefault(); next(); });
  $('#over').addEventListener('cancel', (e) => { e.preventDefault(); closeDialog($('#over')); showSetup(); });
  $('#again').addEventListener('click', () => { closeDialog($('#over')); if (deck) start(deck, session.view); else showSetup(); });
  $('#other-deck').addEventListener('click', showSetup);
  await resumeOrSetup(session, showSetup);
}

main().catch((e) => say(e.message, 'error'));
