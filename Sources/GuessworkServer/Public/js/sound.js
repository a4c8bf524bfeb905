// Sound cues made in the browser with the Web Audio API: a few oscillator notes, each shaped by
// a gain envelope (no audio files, nothing fetched). Every game plays its cues through here.
// Browsers block audio until the player taps or presses a key, so the audio context is made
// (or woken) by the first such gesture; it sleeps while the page is hidden or the sound is off.

// A cue is a list of notes: frequency in Hz, start and length in seconds, an optional glide
// to another frequency, the waveform and the loudness (0..1).
const CUES = {
  correct: [{ hz: 660, at: 0, len: 0.09 }, { hz: 990, at: 0.08, len: 0.16 }],
  wrong: [{ hz: 240, to: 150, at: 0, len: 0.28, wave: 'square', volume: 0.12 }],
  tick: [{ hz: 1000, at: 0, len: 0.05, volume: 0.15 }],
  // The final seconds: higher, longer and buzzier than an ordinary tick.
  'last-tick': [{ hz: 1480, at: 0, len: 0.14, wave: 'square', volume: 0.14 }],
  'time-up': [{ hz: 880, at: 0, len: 0.18 }, { hz: 660, at: 0.18, len: 0.18 }, { hz: 440, to: 330, at: 0.36, len: 0.5 }],
  win: [{ hz: 523.25, at: 0, len: 0.12 }, { hz: 659.25, at: 0.11, len: 0.12 }, { hz: 783.99, at: 0.22, len: 0.12 },
    { hz: 1046.5, at: 0.33, len: 0.45 }],
};

let context = null;
let on = true;

// Every cue started, newest last (a few dozen at most): what was heard, for the browser tests.
const played = [];
window.__sounds = played;

/** Whether cues are heard (the player's sound preference). */
export function soundOn() {
  return on;
}

/** Turns the sound on or off; off lets the audio context sleep. */
export function setSoundOn(value) {
  on = !!value;
  if (!context) return;
  if (on && !document.hidden) context.resume();
  else context.suspend();
}

// Made or woken from a gesture: the only moment every browser lets audio start.
function wake() {
  if (!on || document.hidden) return;
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    context = new Context();
  }
  if (context.state === 'suspended') context.resume();
}

document.addEventListener('pointerdown', wake, true);
document.addEventListener('keydown', wake, true);
document.addEventListener('visibilitychange', () => {
  if (!context) return;
  if (document.hidden) context.suspend();
  else if (on) context.resume();
});

/** Plays a cue by name (see CUES), `delay` seconds from now; silent when off or unseen. */
export function play(name, delay = 0) {
  const notes = CUES[name];
  if (!notes || !on || document.hidden || !context || context.state === 'closed') return;
  const start = context.currentTime + delay;
  for (const note of notes) playNote(note, start + note.at);
  played.push({ cue: name, at: Math.round(performance.now()) });
  if (played.length > 50) played.shift();
}

function playNote({ hz, to, len, wave = 'triangle', volume = 0.2 }, at) {
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.type = wave;
  osc.frequency.setValueAtTime(hz, at);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, at + len);
  // A quick rise and an exponential fall: no click at either end.
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.linearRampToValueAtTime(volume, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + len);
  osc.connect(gain).connect(context.destination);
  osc.start(at);
  osc.stop(at + len + 0.02);
}
