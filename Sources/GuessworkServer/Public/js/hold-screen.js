// Holding the screen while a round runs, for a game played with the phone held up (Guess or
// Pass to the forehead): fullscreen (asked from the tap that starts the round) and awake (the
// screen must not dim), until it ends. A refusal changes nothing else.

let holding = false;
let wakeLock = null;
let askingForWakeLock = false;
let watching = false;

/** Whether the screen is held (a round this page started, or took up after a reload). */
export const holdingScreen = () => holding;

/** Holds the screen awake, and fullscreen when `fullscreen` (only from a tap). */
export function holdScreen(fullscreen) {
  holding = true;
  const root = document.documentElement;
  if (fullscreen && !document.fullscreenElement && root.requestFullscreen) root.requestFullscreen().catch(() => {});
  if (!watching) {
    watching = true;
    document.addEventListener('visibilitychange', keepAwake);
  }
  keepAwake();
}

// The browser lets a wake lock go when the page is hidden: take it again on coming back.
// One request at a time, so that no second lock is left held.
async function keepAwake() {
  if (!holding || wakeLock || askingForWakeLock || !navigator.wakeLock || document.visibilityState !== 'visible') return;
  askingForWakeLock = true;
  try {
    const lock = await navigator.wakeLock.request('screen');
    if (!holding) { lock.release().catch(() => {}); return; }
    wakeLock = lock;
    lock.addEventListener('release', () => { if (wakeLock === lock) wakeLock = null; });
  } catch {
    // Refused (battery saver, say): the screen may dim.
  } finally {
    askingForWakeLock = false;
  }
}

/** Lets the screen go: no wake lock, no fullscreen. */
export function releaseScreen() {
  holding = false;
  if (wakeLock) { wakeLock.release().catch(() => {}); wakeLock = null; }
  if (document.fullscreenElement && document.exitFullscreen) document.exitFullscreen().catch(() => {});
}
