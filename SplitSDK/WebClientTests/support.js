// Test doubles for the step loop: a scripted server (fetch), a view that answers as a cardholder would, a test clock.
import { deriveChannel } from '../Sources/ThreeDS2SplitServer/WebClient/channel.js';

/** A clock whose timers run only when the test says so. */
export class TestClock {
  constructor() { this.timers = new Map(); this.next = 1; }
  setTimeout(callback) { const id = this.next++; this.timers.set(id, callback); return id; }
  clearTimeout(id) { this.timers.delete(id); }
  /** Runs every pending timer. */
  fire() { const pending = [...this.timers.values()]; this.timers.clear(); pending.forEach((callback) => callback()); }
}

/**
 * A server scripted as a function of (path, body, headers) → {status, body} or a step object; it records every request.
 * The ACS side of the channel is derived with the client's public key from `start`.
 */
export function fakeServer(script) {
  const requests = [];
  const fetch = async (url, init) => {
    const path = new URL(url).pathname;
    const body = JSON.parse(init.body);
    requests.push({ url, path, headers: init.headers, body: init.body, init });
    const answer = await script(path, body, init);
    if (answer && answer.status) return { status: answer.status, text: async () => JSON.stringify(answer.body ?? {}) };
    return { status: 200, text: async () => JSON.stringify(answer) };
  };
  return { fetch, requests };
}

/** The ACS's end: a fresh key pair and, once the client's key is known, the same channel from the other side. */
export async function acsEnd(sdkReferenceNumber, acsTransID) {
  const pair = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']);
  const { kty, crv, x, y } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  return {
    publicJwk: { kty, crv, x, y },
    channel: (sdkPublicJwk) => deriveChannel({ privateKey: pair.privateKey, acsPublicJwk: sdkPublicJwk, sdkReferenceNumber, acsTransID }),
  };
}

/** A view that records what it is asked and answers each `present` with the next scripted answer. */
export function scriptedView(answers) {
  const calls = [];
  return {
    calls,
    showProgress: () => calls.push(['progress']),
    // Once the script is spent, the screen waits as a real one does: for a cardholder who never acts.
    present: (screen, form, note) => { calls.push(['present', screen, note ?? null]); return answers.length ? Promise.resolve(answers.shift()) : new Promise(() => {}); },
    showFinished: (outcome) => calls.push(['finished', outcome]),
    showError: (reason) => calls.push(['error', reason]),
  };
}

export const secureEnv = { isSecureContext: true, crypto: globalThis.crypto };
