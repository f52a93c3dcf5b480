// The frame's entry (frame.html loads it): the postMessage handshake with the merchant's page, then the session.
//
// The frame accepts one start message, from its parent window and the merchant's origin only, and posts its events
// to that origin only. The merchant's origin is the one the server configured: the frame's
// <meta name="threeds-merchant-origin"> when the server fills it in, else the frame's embedding origin
// (location.ancestorOrigins), which the frame's CSP `frame-ancestors` already limits to the configured origin.

import { browserDeviceData } from './device.js';
import { SplitSession } from './steps.js';
import { ChallengeView } from './ui.js';

/** The message types of the handshake (merchant.js sends START_TYPE and APP_TYPE, receives EVENT_TYPE). */
export const START_TYPE = 'threeds-split-start';
export const EVENT_TYPE = 'threeds-split-event';
/** What the merchant's page posts when its host (an app's web view) has tried to open the bank's app. */
export const APP_TYPE = 'threeds-split-app';
const APP_RESULTS = new Set(['returned', 'opened', 'failed']);

/**
 * The merchant's origin this frame talks to, or null when none is known or it is not a bare HTTP(S) origin.
 * @param {{document: Document, location: Location}} win The frame's window.
 * @returns {string | null}
 */
export function merchantOrigin(win) {
  const configured = win.document.querySelector('meta[name="threeds-merchant-origin"]')?.getAttribute('content');
  const candidate = configured || win.location.ancestorOrigins?.[0];
  if (typeof candidate !== 'string') return null;
  try {
    const url = new URL(candidate);
    return ['https:', 'http:'].includes(url.protocol) && url.origin === candidate.replace(/\/$/, '') ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * Wires the frame: says `ready` to the merchant's page, waits for its start message with the client token, then runs
 * the challenge.
 * @param {Window} win The frame's window.
 * @param {{view?: object}} [options] The view (ui.js's ChallengeView on `#challenge` unless given: tests).
 */
export function startFrame(win, { view = new ChallengeView(win.document.getElementById('challenge')) } = {}) {
  const origin = merchantOrigin(win);
  const parent = win.parent;
  if (!origin || !parent || parent === win) {
    view.showError('protocol');
    return;
  }
  const emit = (event) => parent.postMessage({ type: EVENT_TYPE, ...event }, origin);
  let started = false;
  // The host's answer to an `openApp` event: one result per request, from the merchant's page only.
  let appResult = null;
  const host = {
    open: () => new Promise((resolve) => { appResult = resolve; }),
  };
  win.addEventListener('message', (message) => {
    const data = message.data;
    if (message.origin !== origin || message.source !== parent) return;
    if (data === null || typeof data !== 'object') return;
    if (data.type === APP_TYPE && appResult && APP_RESULTS.has(data.result)) {
      const resolve = appResult;
      appResult = null;
      resolve(data.result);
      return;
    }
    if (started || data.type !== START_TYPE) return;
    if (typeof data.clientToken !== 'string' || data.clientToken.length === 0 || data.clientToken.length > 512) return;
    started = true;
    view.showProgress();
    new SplitSession({ view, emit, env: win, host }).run(data.clientToken, browserDeviceData(win));
  });
  emit({ event: 'ready' });
}

if (typeof window !== 'undefined' && window.document?.getElementById('challenge')) startFrame(window);
