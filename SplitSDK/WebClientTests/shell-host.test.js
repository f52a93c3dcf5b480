// The Shell variant's app switch: the server's `openApp` step goes to the merchant's page as an event with the link,
// the page's host (an app's web view) opens the bank's app, and its result comes back as the screen's answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openChallengeFrame, postToAppHost } from '../Sources/ThreeDS2SplitServer/WebClient/merchant.js';
import { SplitSession } from '../Sources/ThreeDS2SplitServer/WebClient/steps.js';
import { TestClock, fakeServer, scriptedView, secureEnv } from './support.js';

const BASE = 'https://sdk-server.example/client/v1/';
const BANK_APP = 'https://bank.example/approve?tx=1';

function shellServer(url = BANK_APP) {
  const answers = [];
  const server = fakeServer(async (path, body) => {
    switch (path) {
      case '/client/v1/start': return { clientToken: 'client-token-4', step: { step: 'present', screen: 1, form: { elements: [] } } };
      case '/client/v1/answer':
        answers.push(body);
        if (body.action === 'openApp') return { step: 'openApp', screen: 1, url };
        return { step: 'finished', outcome: { kind: 'completed', transStatus: 'Y' } };
      case '/client/v1/status': return new Promise(() => {}); // never ends while the host decides
      default: return { status: 404 };
    }
  });
  return { server, answers };
}

for (const [result, action] of [['returned', 'appReturned'], ['opened', 'appOpened'], ['failed', 'appOpenFailed'], ['nonsense', 'appOpenFailed']]) {
  test(`the host says ${result}: the screen is answered ${action}, and the page got the link`, async () => {
    const { server, answers } = shellServer();
    const events = [];
    const opened = [];
    const host = { open: async (url) => { opened.push(url); return result; } };
    const view = scriptedView([{ action: 'openApp', values: {} }]);
    const session = new SplitSession({ view, emit: (e) => events.push(e), baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv, host });
    assert.deepEqual(await session.run('merchant-token', {}), { kind: 'completed', transStatus: 'Y' });
    assert.deepEqual(opened, [BANK_APP]);
    assert.deepEqual(events.find((e) => e.event === 'openApp'), { event: 'openApp', url: BANK_APP });
    assert.deepEqual(answers, [{ screen: 1, action: 'openApp' }, { screen: 1, action }]);
  });
}

test('a browser (the default host) opens nothing; an openApp step with a link that is not https ends the session', async () => {
  const { server, answers } = shellServer();
  const view = scriptedView([{ action: 'openApp', values: {} }]);
  const session = new SplitSession({ view, emit: () => {}, baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv });
  await session.run('merchant-token', {});
  assert.deepEqual(answers.at(-1), { screen: 1, action: 'appOpenFailed' });
  const plain = shellServer('http://bank.example/approve');
  const events = [];
  const failing = new SplitSession({ view: scriptedView([{ action: 'openApp', values: {} }]), emit: (e) => events.push(e), baseURL: BASE,
    fetch: plain.server.fetch, clock: new TestClock(), env: secureEnv, host: { open: async () => 'returned' } });
  assert.equal(await failing.run('merchant-token', {}), null);
  assert.equal(events.at(-1).event, 'failed');
  assert.ok(!events.some((e) => e.event === 'openApp'), 'a plain http link reached the page');
});

test('merchant.js: the openApp event carries its https link; appResult posts the result to the frame\'s origin only', () => {
  const contentWindow = { posted: [], postMessage(message, origin) { this.posted.push([message, origin]); } };
  const frame = { style: {}, contentWindow, setAttribute() {}, remove() {} };
  const listeners = [];
  const page = { location: { href: 'https://shop.example/checkout' }, document: { createElement: () => frame },
    addEventListener: (type, listener) => listeners.push(listener), removeEventListener() {} };
  const events = [];
  const challenge = openChallengeFrame({ container: { appendChild() {} }, clientURL: 'https://sdk-server.example/client/v1/frame.html',
    clientToken: 't', onEvent: (e) => events.push(e), window: page });
  const deliver = (data) => listeners.forEach((listener) => listener({ origin: 'https://sdk-server.example', source: contentWindow, data }));
  deliver({ type: 'threeds-split-event', event: 'openApp', url: BANK_APP });
  deliver({ type: 'threeds-split-event', event: 'openApp', url: 'javascript:alert(1)' });
  assert.deepEqual(events, [{ event: 'openApp', url: BANK_APP }, { event: 'openApp' }]);
  challenge.appResult('returned');
  challenge.appResult('something else');
  assert.deepEqual(contentWindow.posted, [[{ type: 'threeds-split-app', result: 'returned' }, 'https://sdk-server.example']]);
});

test('merchant.js with appHost: every event goes to the app as JSON text, and window.threedsHost answers an openApp', () => {
  const contentWindow = { posted: [], postMessage(message, origin) { this.posted.push([message, origin]); } };
  const frame = { style: {}, contentWindow, setAttribute() {}, remove() {} };
  const listeners = [];
  const toApp = [];
  const page = { location: { href: 'https://shop.example/host' }, document: { createElement: () => frame },
    addEventListener: (type, listener) => listeners.push(listener), removeEventListener() {},
    webkit: { messageHandlers: { threedsHost: { postMessage: (text) => toApp.push(text) } } } };
  openChallengeFrame({ container: { appendChild() {} }, clientURL: 'https://sdk-server.example/client/v1/frame.html',
    clientToken: 't', appHost: true, window: page });
  listeners.forEach((listener) => listener({ origin: 'https://sdk-server.example', source: contentWindow,
    data: { type: 'threeds-split-event', event: 'openApp', url: BANK_APP } }));
  assert.deepEqual(toApp.map((text) => JSON.parse(text)), [{ event: 'openApp', url: BANK_APP }]);
  page.threedsHost.appResult('returned');
  assert.deepEqual(contentWindow.posted.at(-1), [{ type: 'threeds-split-app', result: 'returned' }, 'https://sdk-server.example']);
  const android = [];
  assert.equal(postToAppHost({ event: 'ready' }, { ThreeDSHost: { postMessage: (text) => android.push(text) } }), true);
  assert.deepEqual(android, ['{"event":"ready"}']);
  assert.equal(postToAppHost({ event: 'ready' }, {}), false);
});

test('the screen stays live while the host opens the app: a cancel then answers the screen, the host never did', async () => {
  const { server, answers } = shellServer();
  const view = scriptedView([{ action: 'openApp', values: {} }, { action: 'cancel', values: {} }]);
  const host = { open: () => new Promise(() => {}) }; // a host that never answers
  const session = new SplitSession({ view, emit: () => {}, baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv, host });
  await session.run('merchant-token', {});
  assert.deepEqual(answers, [{ screen: 1, action: 'openApp' }, { screen: 1, action: 'cancel' }]);
});
