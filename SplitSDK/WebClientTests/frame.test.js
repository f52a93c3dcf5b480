// The handshake between the merchant's page (merchant.js) and the frame (client.js), and the view's pure parts
// (ui.js), with stand-in windows: who may start the frame, where the token and the events go.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openChallengeFrame } from '../Sources/ThreeDS2SplitServer/WebClient/merchant.js';
import { merchantOrigin, startFrame } from '../Sources/ThreeDS2SplitServer/WebClient/client.js';
import { cssColor, outcomeTextKey, submitAction } from '../Sources/ThreeDS2SplitServer/WebClient/ui.js';
import { scriptedView } from './support.js';

const FRAME = 'https://sdk-server.example';
const SHOP = 'https://shop.example';

function fakeWindow(extra = {}) {
  const listeners = [];
  return {
    listeners, posted: [],
    addEventListener: (type, listener) => listeners.push(listener),
    removeEventListener: (type, listener) => listeners.splice(listeners.indexOf(listener), 1),
    deliver(message) { for (const listener of [...listeners]) listener(message); },
    ...extra,
  };
}

test('merchant.js: the token goes to the frame\'s origin only, once, after the frame\'s ready; other senders are ignored', () => {
  const contentWindow = { posted: [], postMessage(message, origin) { this.posted.push([message, origin]); } };
  const frame = { style: {}, attributes: {}, contentWindow, setAttribute(n, v) { this.attributes[n] = v; }, remove() { this.removed = true; } };
  const page = fakeWindow({ location: { href: `${SHOP}/checkout` }, document: { createElement: () => frame } });
  const events = [];
  const appended = [];
  const challenge = openChallengeFrame({ container: { appendChild: (node) => appended.push(node) }, clientURL: `${FRAME}/client/v1/frame.html`,
    clientToken: 'mct_secret', locale: 'de-DE', onEvent: (e) => events.push(e), window: page });
  assert.equal(frame.src, `${FRAME}/client/v1/frame.html`);
  assert.ok(!frame.src.includes('mct_secret'));
  assert.deepEqual(appended, [frame]);
  const ready = { type: 'threeds-split-event', event: 'ready' };
  page.deliver({ origin: 'https://evil.example', source: contentWindow, data: ready });
  page.deliver({ origin: FRAME, source: {}, data: ready });
  assert.equal(contentWindow.posted.length, 0);
  page.deliver({ origin: FRAME, source: contentWindow, data: ready });
  page.deliver({ origin: FRAME, source: contentWindow, data: ready });
  assert.deepEqual(contentWindow.posted, [[{ type: 'threeds-split-start', clientToken: 'mct_secret', locale: 'de-DE' }, FRAME]]);
  page.deliver({ origin: FRAME, source: contentWindow, data: { type: 'threeds-split-event', event: 'finished', outcome: { kind: 'cancelled' } } });
  assert.deepEqual(events, [{ event: 'ready' }, { event: 'ready' }, { event: 'finished', outcome: { kind: 'cancelled' } }]);
  challenge.close();
  assert.equal(page.listeners.length, 0);
  assert.ok(frame.removed);
});

test('client.js: the merchant origin is the configured one, else the embedding origin; nothing else', () => {
  const win = (meta, ancestors) => ({ document: { querySelector: () => (meta === undefined ? null : { getAttribute: () => meta }) }, location: { ancestorOrigins: ancestors } });
  assert.equal(merchantOrigin(win(SHOP, ['https://other.example'])), SHOP);
  assert.equal(merchantOrigin(win('', [SHOP])), SHOP);
  assert.equal(merchantOrigin(win(undefined, undefined)), null);
  assert.equal(merchantOrigin(win(`${SHOP}/path`, undefined)), null);
  assert.equal(merchantOrigin(win('javascript:alert(1)', undefined)), null);
});

test('client.js: only its parent at the merchant origin may start the frame, once; a frame without WebCrypto says why', async () => {
  const parent = { posted: [], postMessage(message, origin) { this.posted.push([message, origin]); } };
  const win = fakeWindow({ parent, isSecureContext: false, crypto: globalThis.crypto, navigator: { language: 'en' },
    document: { querySelector: () => ({ getAttribute: () => SHOP }) }, location: {} });
  const view = scriptedView([]);
  startFrame(win, { view });
  assert.deepEqual(parent.posted, [[{ type: 'threeds-split-event', event: 'ready' }, SHOP]]);
  const start = { type: 'threeds-split-start', clientToken: 'mct_1' };
  win.deliver({ origin: 'https://evil.example', source: parent, data: start });
  win.deliver({ origin: SHOP, source: {}, data: start });
  win.deliver({ origin: SHOP, source: parent, data: { ...start, clientToken: 'x'.repeat(513) } });
  assert.equal(view.calls.length, 0);
  win.deliver({ origin: SHOP, source: parent, data: start });
  win.deliver({ origin: SHOP, source: parent, data: start });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(view.calls, [['progress'], ['error', 'unavailable']]);
  const [failed, origin] = parent.posted.at(-1);
  assert.equal(origin, SHOP);
  assert.equal(failed.event, 'failed');
  assert.match(failed.reason, /secure context/);
  assert.equal(parent.posted.length, 2);
});

test('ui.js: outcome texts, colours, and the submit action', () => {
  assert.equal(outcomeTextKey({ kind: 'completed', transStatus: 'Y' }), 'completed');
  assert.equal(outcomeTextKey({ kind: 'completed', transStatus: 'N' }), 'outcomeNotAuthenticated');
  assert.equal(outcomeTextKey({ kind: 'timedOut' }), 'timedOut');
  assert.equal(outcomeTextKey({ kind: 'cancelled' }), 'cancelled');
  assert.equal(outcomeTextKey({ kind: 'protocolError', errorCode: '203' }), 'outcomeBankError');
  assert.equal(outcomeTextKey({ kind: 'runtimeError' }), 'genericError');
  assert.equal(cssColor('#12AB34'), '#12AB34');
  assert.equal(cssColor('#80FF0000'), 'rgba(255, 0, 0, 0.502)');
  assert.equal(cssColor('red; background: url(x)'), undefined);
  assert.equal(submitAction({ e4: '', e6: '' }), 'submitEmpty');
  assert.equal(submitAction({ e4: '1' }), 'submit');
});
