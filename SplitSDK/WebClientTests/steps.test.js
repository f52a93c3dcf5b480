// The step loop with a scripted server and view: what goes over the wire, the entry rules, the failures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SplitSession } from '../Sources/ThreeDS2SplitServer/WebClient/steps.js';
import { TestClock, acsEnd, fakeServer, scriptedView, secureEnv } from './support.js';

const BASE = 'https://sdk-server.example/client/v1/';
const ACS_TRANS_ID = 'f3a1c8e2-2b4d-4c6e-9f10-1a2b3c4d5e6f';
const SDK_REF = '3DS_LOA_SDK_SPLIT_TEST_0001';
const CODE = '987123';
const RULES = { maxLength: 6, maxBytes: 45, tooLongNote: 'At most 6 characters' };
const form = { formVersion: 1, uiType: '01', elements: [{ kind: 'entry', id: 'e4', box: 0, label: 'Code', rules: RULES },
  { kind: 'button', id: 'e5', type: 'SUBMIT', label: 'Submit', action: 'submit' }] };

// A text challenge as the server drives it: keys, a screen, the CReq to encrypt, the CRes to decrypt, finished.
async function textChallenge({ finalCRes, cresJWE, fillRules = RULES } = {}) {
  const acs = await acsEnd(SDK_REF, ACS_TRANS_ID);
  let acsChannel;
  const seen = { creqs: [], cres: [] };
  let counter = 0;
  const server = fakeServer(async (path, body) => {
    switch (path) {
      case '/client/v1/start':
        acsChannel = await acs.channel(body.sdkEphemPubKey);
        return { clientToken: 'client-token-2', step: { step: 'progress' } };
      case '/client/v1/next':
        if (seen.keyed) return { step: 'present', screen: 1, form };
        seen.keyed = true;
        return { step: 'keys', acsEphemPubKey: acs.publicJwk, sdkReferenceNumber: SDK_REF, acsTransID: ACS_TRANS_ID };
      case '/client/v1/answer': {
        const fill = body.action === 'submit' ? [{ member: 'challengeDataEntry', from: 'e4', box: 0, rules: fillRules }] : [];
        const creq = { messageType: 'CReq', acsTransID: ACS_TRANS_ID, sdkCounterStoA: String(counter).padStart(3, '0') };
        if (body.action === 'cancel') creq.challengeCancel = '01';
        return { step: 'encrypt', exchange: counter, counter: String(counter).padStart(3, '0'), creq, fill, encryption: 'A128CBC-HS256' };
      }
      case '/client/v1/creq': {
        const { plaintext } = await acsChannel.decrypt(body.jwe);
        seen.creqs.push(JSON.parse(new TextDecoder().decode(plaintext)));
        counter += 1;
        const cres = finalCRes ?? { messageType: 'CRes', acsTransID: ACS_TRANS_ID, acsCounterAtoS: '000', transStatus: 'Y', challengeCompletionInd: 'Y' };
        const jwe = cresJWE ?? await acsChannel.encrypt(new TextEncoder().encode(JSON.stringify(cres)), 0);
        return { step: 'decrypt', exchange: body.exchange, jwe };
      }
      case '/client/v1/cres':
        seen.cres.push(body);
        return { step: 'finished', outcome: { kind: 'completed', transStatus: 'Y' } };
      default:
        return { status: 404 };
    }
  });
  return { server, seen };
}

test('a text challenge: the code leaves the frame only inside the JWE, the token only in the header', async () => {
  const { server, seen } = await textChallenge();
  const view = scriptedView([{ action: 'submit', values: { e4: CODE } }]);
  const events = [];
  const session = new SplitSession({ view, emit: (e) => events.push(e), baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv });
  const outcome = await session.run('merchant-token-1', { C005: 'en-GB' });
  assert.deepEqual(outcome, { kind: 'completed', transStatus: 'Y' });
  assert.deepEqual(events.map((e) => e.event), ['started', 'challengeShown', 'finished']);
  assert.equal(seen.creqs[0].challengeDataEntry, CODE);
  assert.equal(seen.cres[0].cres.transStatus, 'Y');
  for (const request of server.requests) {
    assert.ok(!`${request.url} ${request.body} ${JSON.stringify(request.headers)}`.includes(CODE), `the code went out in ${request.path}`);
    assert.ok(!request.url.includes('token'), 'no token in a URL');
    assert.equal(request.init.credentials, 'omit');
  }
  assert.deepEqual(server.requests.map((r) => r.headers.Authorization),
    ['Bearer merchant-token-1', ...Array(server.requests.length - 1).fill('Bearer client-token-2')]);
  assert.deepEqual(JSON.parse(server.requests.find((r) => r.path === '/client/v1/answer').body), { screen: 1, action: 'submit' });
  assert.equal(session.held.size, 0, 'entries cleared');
  assert.equal(session.channel, undefined, 'channel keys dropped');
  assert.equal(session.privateKey, undefined, 'private key dropped');
  assert.deepEqual(view.calls.at(-1), ['finished', { kind: 'completed', transStatus: 'Y' }]);
});

test('an entry that breaks its box\'s rules is not sent: the screen comes back with the note, no answer posted', async () => {
  const { server, seen } = await textChallenge();
  const view = scriptedView([{ action: 'submit', values: { e4: '1234567' } }, { action: 'submit', values: { e4: 'é'.repeat(23) } },
    { action: 'submit', values: { e4: CODE } }]);
  const session = new SplitSession({ view, emit: () => {}, baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv });
  await session.run('merchant-token-1', {});
  const notes = view.calls.filter((c) => c[0] === 'present').map((c) => c[2]);
  assert.deepEqual(notes, [null, { rule: 'maxLength', limit: 6, element: 'e4', text: 'At most 6 characters' },
    { rule: 'maxBytes', limit: 45, element: 'e4', text: 'At most 6 characters' }]);
  assert.equal(server.requests.filter((r) => r.path === '/client/v1/answer').length, 1);
  assert.equal(seen.creqs.length, 1);
  assert.equal(seen.creqs[0].challengeDataEntry, CODE);
  assert.ok(server.requests.every((r) => !r.body.includes('1234567')));
});

test('a value the CReq\'s own rules refuse is not encrypted: the screen is drawn again and the next submit fills the same CReq', async () => {
  const { server, seen } = await textChallenge({ fillRules: { maxLength: 4, maxBytes: 45, tooLongNote: 'At most 4' } });
  const view = scriptedView([{ action: 'submit', values: { e4: '12345' } }, { action: 'submit', values: { e4: '4321' } }]);
  const session = new SplitSession({ view, emit: () => {}, baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv });
  await session.run('merchant-token-1', {});
  assert.deepEqual(view.calls.filter((c) => c[0] === 'present').map((c) => c[2]), [null, { rule: 'maxLength', limit: 4, element: 'e4', text: 'At most 4' }]);
  assert.equal(server.requests.filter((r) => r.path === '/client/v1/answer').length, 1);
  assert.deepEqual(seen.creqs.map((c) => c.challengeDataEntry), ['4321']);
  assert.ok(server.requests.every((r) => !r.body.includes('12345')));
});

test('cancel sends the CReq the server built, with nothing filled', async () => {
  const { server, seen } = await textChallenge({ finalCRes: { messageType: 'CRes', transStatus: 'N' } });
  const view = scriptedView([{ action: 'cancel', values: { e4: '55' } }]);
  const session = new SplitSession({ view, emit: () => {}, baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv });
  await session.run('merchant-token-1', {});
  assert.deepEqual(seen.creqs[0], { messageType: 'CReq', acsTransID: ACS_TRANS_ID, sdkCounterStoA: '000', challengeCancel: '01' });
});

test('a CRes that does not decrypt is reported as a decryption error, never as content', async () => {
  const { server, seen } = await textChallenge({ cresJWE: 'eyJhbGciOiJkaXIifQ..AAAA.AAAA.AAAA' });
  const view = scriptedView([{ action: 'submit', values: { e4: CODE } }]);
  const session = new SplitSession({ view, emit: () => {}, baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv });
  await session.run('merchant-token-1', {});
  assert.equal(seen.cres[0].error.kind, 'decryption');
  assert.equal(seen.cres[0].cres, undefined);
});

test('without a secure context the client does not start: nothing is sent, and the page is told why', async () => {
  const server = fakeServer(() => assert.fail('no request may be made'));
  const view = scriptedView([]);
  const events = [];
  const session = new SplitSession({ view, emit: (e) => events.push(e), baseURL: BASE, fetch: server.fetch, clock: new TestClock(),
    env: { isSecureContext: false, crypto: globalThis.crypto } });
  assert.equal(await session.run('merchant-token-1', {}), null);
  assert.equal(server.requests.length, 0);
  assert.deepEqual(view.calls, [['error', 'unavailable']]);
  assert.equal(events[0].event, 'failed');
  assert.match(events[0].reason, /^unavailable: .*secure context/);
});

test('a server that does not answer within 30 s ends the session with the timeout error', async () => {
  const clock = new TestClock();
  const fetch = (url, init) => new Promise((resolve, reject) => init.signal.addEventListener('abort', () => reject(new Error('aborted'))));
  const view = scriptedView([]);
  const events = [];
  const session = new SplitSession({ view, emit: (e) => events.push(e), baseURL: BASE, fetch, clock, env: secureEnv });
  const running = session.run('merchant-token-1', {});
  while (clock.timers.size === 0) await new Promise((resolve) => setImmediate(resolve));
  clock.fire();
  assert.equal(await running, null);
  assert.deepEqual(view.calls, [['error', 'timeout']]);
  assert.match(events.at(-1).reason, /^timeout: the server did not answer start within 30 s/);
});

test('an unknown step, an unknown rule, a refused token and a wrong counter each end the session', async () => {
  const cases = [
    [{ clientToken: 't', step: { step: 'teleport' } }, /unknown step "teleport"/],
    [{ status: 410 }, /HTTP 410/],
  ];
  for (const [answer, pattern] of cases) {
    const server = fakeServer(() => answer);
    const events = [];
    await new SplitSession({ view: scriptedView([]), emit: (e) => events.push(e), baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv }).run('m', {});
    assert.match(events.at(-1).reason, pattern);
  }
  for (const [encrypt, pattern] of [
    [{ counter: '000', creq: { sdkCounterStoA: '000' }, fill: [{ member: 'challengeDataEntry', from: 'e4', rules: { shape: 'x' } }] }, /unknown answer rule "shape"/],
    [{ counter: '001', creq: { sdkCounterStoA: '000' }, fill: [] }, /sdkCounterStoA is not the step's counter 001/],
    [{ counter: '000', creq: { sdkCounterStoA: '000', challengeDataEntry: 'x' }, fill: [{ member: 'challengeDataEntry', from: 'e4', rules: {} }] }, /the CReq has it/],
  ]) {
    const acs = await acsEnd(SDK_REF, ACS_TRANS_ID);
    const steps = [{ step: 'keys', acsEphemPubKey: acs.publicJwk, sdkReferenceNumber: SDK_REF, acsTransID: ACS_TRANS_ID },
      { step: 'present', screen: 1, form }, { step: 'encrypt', exchange: 0, encryption: 'A128CBC-HS256', ...encrypt }];
    // `status` (the end watch while the screen is up) hands out no step: this server cannot answer it.
    const server = fakeServer((path) => (path.endsWith('/status') ? { status: 404 }
      : path.endsWith('/start') ? { clientToken: 't', step: steps.shift() } : steps.shift()));
    const events = [];
    await new SplitSession({ view: scriptedView([{ action: 'submit', values: { e4: '1' } }]), emit: (e) => events.push(e), baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv }).run('m', {});
    assert.match(events.at(-1).reason, pattern);
    assert.ok(server.requests.every((r) => !r.path.endsWith('/creq')));
  }
});

test('an end on the server while the screen is up (its overall timer) is shown at once, without an answer', async () => {
  const acs = await acsEnd(SDK_REF, ACS_TRANS_ID);
  let ended = false;
  const server = fakeServer(async (path) => {
    switch (path) {
      case '/client/v1/start':
        return { clientToken: 'client-token-2', step: { step: 'wait' } };
      case '/client/v1/next':
        if (ended) return { step: 'finished', outcome: { kind: 'timedOut' } };
        return { step: 'present', screen: 1, form };
      case '/client/v1/status':
        ended = true;
        return { ended: true };
      default:
        return { status: 404 };
    }
  });
  void acs;
  const calls = [];
  const view = {
    calls,
    showProgress: () => calls.push(['progress']),
    // The cardholder never answers.
    present: (screen) => { calls.push(['present', screen]); return new Promise(() => {}); },
    showFinished: (outcome) => calls.push(['finished', outcome]),
    showError: (reason) => calls.push(['error', reason]),
  };
  const session = new SplitSession({ view, emit: () => {}, baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv });
  const outcome = await session.run('merchant-token-1', {});
  assert.deepEqual(outcome, { kind: 'timedOut' });
  assert.deepEqual(calls.at(-1), ['finished', { kind: 'timedOut' }]);
  assert.ok(!server.requests.some((r) => r.path === '/client/v1/answer'), 'no answer was posted');
});

test('a session taken over by another instance: a 409 to creq, or a lost call, asks next once and goes on from the screen', async () => {
  const { server: inner, seen } = await textChallenge();
  let refusedCreq = false;
  let lostAnswer = false;
  let presents = 0;
  const server = fakeServer(async (path, body, init) => {
    // The first CReq reaches an instance that took the session over at the screen: that step is no longer pending.
    if (path === '/client/v1/creq' && !refusedCreq) {
      refusedCreq = true;
      return { status: 409, body: { error: { code: 'conflict', detail: 'this input answers no pending step' } } };
    }
    // The second answer's instance is lost during the call.
    if (path === '/client/v1/answer' && refusedCreq && !lostAnswer) {
      lostAnswer = true;
      throw new TypeError('network error');
    }
    if (path === '/client/v1/next' && seen.keyed) presents += 1;
    const answer = await inner.fetch(`https://sdk-server.example${path}`, init);
    return JSON.parse(await answer.text());
  });
  const view = scriptedView([
    { action: 'submit', values: { e4: CODE } }, { action: 'submit', values: { e4: CODE } },
    { action: 'submit', values: { e4: CODE } },
  ]);
  const session = new SplitSession({ view, emit: () => {}, baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv });
  const outcome = await session.run('merchant-token-1', { C005: 'en-GB' });
  assert.deepEqual(outcome, { kind: 'completed', transStatus: 'Y' });
  // The screen was drawn three times: first, after the 409, after the lost call; one CReq reached the ACS.
  assert.equal(view.calls.filter((call) => call[0] === 'present').length, 3);
  assert.equal(presents, 3);
  assert.equal(seen.creqs.length, 1);
  assert.equal(seen.creqs[0].challengeDataEntry, CODE);
});

test('a lost next, asked once more, then ends the session with the server error', async () => {
  const server = fakeServer(async (path) => {
    if (path === '/client/v1/start') return { clientToken: 't', step: { step: 'progress' } };
    throw new TypeError('network error');
  });
  const view = scriptedView([]);
  const events = [];
  const session = new SplitSession({ view, emit: (e) => events.push(e), baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv });
  assert.equal(await session.run('merchant-token-1', {}), null);
  assert.deepEqual(view.calls.at(-1), ['error', 'server']);
  assert.match(events.at(-1).reason, /^server: next failed: network error/);
  assert.deepEqual(server.requests.map((request) => request.path), ['/client/v1/start', '/client/v1/next', '/client/v1/next']);
});

test('a 502 (the owner could not be reached this once) asks next once; a 502 to start ends the session', async () => {
  let failed = false;
  const server = fakeServer(async (path) => {
    if (path === '/client/v1/start') return { clientToken: 't', step: { step: 'progress' } };
    if (!failed) {
      failed = true;
      return { status: 502, body: { error: { code: 'owner' } } };
    }
    return { step: 'finished', outcome: { kind: 'cancelled' } };
  });
  const session = new SplitSession({ view: scriptedView([]), emit: () => {}, baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv });
  assert.deepEqual(await session.run('merchant-token-1', {}), { kind: 'cancelled' });
  assert.deepEqual(server.requests.map((request) => request.path), ['/client/v1/start', '/client/v1/next', '/client/v1/next']);
  const refusing = fakeServer(async () => ({ status: 502, body: {} }));
  const view = scriptedView([]);
  const refused = new SplitSession({ view, emit: () => {}, baseURL: BASE, fetch: refusing.fetch, clock: new TestClock(), env: secureEnv });
  assert.equal(await refused.run('merchant-token-1', {}), null);
  assert.deepEqual(refusing.requests.map((request) => request.path), ['/client/v1/start']);
});
