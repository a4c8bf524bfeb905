// Answering with the body, for a game played with the phone held up (Guess or Pass): tilts,
// read from the device's orientation (with motion access asked from a tap where the browser
// wants it), and swipes across an element. Nothing here names a game: a game says when each
// counts, what a tilt or a swipe does, and words the reason tilting is off.

/** The angle of the screen from upright, in degrees, from the device orientation's beta and
    gamma: negative with the screen towards the floor, positive towards the ceiling. */
export function tiltFromOrientation(beta, gamma) {
  const rad = Math.PI / 180;
  const up = Math.cos(beta * rad) * Math.cos(gamma * rad);
  return Math.asin(Math.max(-1, Math.min(1, up))) / rad;
}

/**
 * Watches the phone's tilts while `enabled()`. Screen towards the floor by 60° or more (a nod
 * forward) calls `onTilt('forward')`; towards the ceiling, `onTilt('back')`. The next tilt counts
 * once the phone is back within 20° of upright. `off` is why tilting cannot work here, or null:
 * 'http' (phones allow motion only on a secure address), 'noApi', 'denied', 'noSensor' (events
 * without angles) or 'silent' (no event in the first seconds); `onChange()` is called when it
 * changes.
 */
export function watchTilts({ enabled, onTilt, onChange }) {
  let armed = true;
  let listening = false;
  let off = null;
  let wait = 0;

  function unavailable(reason) {
    clearTimeout(wait);
    if (off === reason) return;
    off = reason;
    onChange();
  }

  function works() {
    clearTimeout(wait);
    if (!off) return;
    off = null;
    onChange();
  }

  function onOrientation(event) {
    if (!enabled()) return;
    // Browsers without a sensor send one event with no angles.
    if (event.beta === null || event.gamma === null) { unavailable('noSensor'); return; }
    works();
    const tilt = tiltFromOrientation(event.beta, event.gamma);
    if (armed) {
      if (tilt <= -60) { armed = false; onTilt('forward'); }
      else if (tilt >= 60) { armed = false; onTilt('back'); }
    } else if (Math.abs(tilt) <= 20) {
      armed = true;
    }
  }

  // Listens for tilts; a sensor that says nothing in its first seconds counts as missing.
  function listen() {
    if (listening) return;
    listening = true;
    window.addEventListener('deviceorientation', onOrientation);
    clearTimeout(wait);
    wait = setTimeout(() => unavailable('silent'), 3000);
  }

  return {
    get off() { return off; },
    /** The next tilt counts whatever the phone's angle now (a new round). */
    arm() { armed = true; },
    /**
     * Asks for motion access where the browser wants it asked from a tap (iOS), and listens for
     * tilts. Call it from the tap itself: both requests go out before any await, while the tap
     * still counts. Resolves with 'on' (listening), 'off' (see `off`), 'tap' (asked outside a
     * tap: ask again from one) or null (not enabled).
     */
    async request() {
      if (!enabled()) return null;
      if (!window.isSecureContext) { unavailable('http'); return 'off'; }
      if (!('DeviceOrientationEvent' in window)) { unavailable('noApi'); return 'off'; }
      const asks = [window.DeviceMotionEvent, window.DeviceOrientationEvent]
        .filter((E) => E && typeof E.requestPermission === 'function')
        .map((E) => E.requestPermission());
      try {
        const answers = await Promise.all(asks);
        if (answers.some((a) => a !== 'granted')) { unavailable('denied'); return 'off'; }
      } catch {
        return 'tap';
      }
      listen();
      return 'on';
    },
  };
}

/** Calls `swiped(right)` for a swipe across `element` while `enabled()`: from pointer down to
    pointer up, 50 px or more sideways and more sideways than up or down. */
export function watchSwipes(element, { enabled, swiped }) {
  let start = null;
  element.addEventListener('pointerdown', (e) => {
    if (!enabled()) return;
    start = { x: e.clientX, y: e.clientY, id: e.pointerId };
    try { element.setPointerCapture(e.pointerId); } catch { /* synthetic pointer */ }
  });
  element.addEventListener('pointerup', (e) => {
    if (!start || e.pointerId !== start.id) return;
    const dx = e.clientX - start.x;
    const dy = e.clientY - start.y;
    start = null;
    if (Math.abs(dx) >= 50 && Math.abs(dx) > Math.abs(dy)) swiped(dx > 0);
  });
  element.addEventListener('pointercancel', () => { start = null; });
}
