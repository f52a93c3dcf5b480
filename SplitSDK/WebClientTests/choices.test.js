// The second part's screens in the step loop and the rules: chosen options, consent answers and an HTML page's form
// data are held in the frame and written into the CReq by `fill`, never posted; the rules refuse what the core would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkChoice, checkEntry } from '../Sources/ThreeDS2SplitServer/WebClient/rules.js';
import { SplitSession } from '../Sources/ThreeDS2SplitServer/WebClient/steps.js';
import { reservedLinkData, reservedURL, submitAction } from '../Sources/ThreeDS2SplitServer/WebClient/ui.js';
import { TestClock, acsEnd, fakeServer, scriptedView, secureEnv } from './support.js';

const BASE = 'https://sdk-server.example/client/v1/';
const ACS_TRANS_ID = '0b7c6f4e-9d3a-4f2b-8e1c-5a6b7c8d9e0f';
const SDK_REF = '3DS_LOA_SDK_SPLIT_TEST_0002';
const CHOICE = { choose: 'some', keys: ['q1', 'q2', 'q3'], maxBytes: 45, chooseNote: 'Choose an option' };

test('the choice rule: keys of the screen, in its order, none twice; one exactly for a single select', () => {
  assert.equal(checkChoice('q1,q3', CHOICE), null);
  assert.equal(checkEntry('q2', CHOICE), null);
  assert.deepEqual(checkChoice('', CHOICE), { rule: 'choose' });
  assert.deepEqual(checkChoice('q3,q1', CHOICE), { rule: 'choose' }, 'out of order');
  assert.deepEqual(checkChoice('q1,q1', CHOICE), { rule: 'choose' }, 'twice');
  assert.deepEqual(checkChoice('q4', CHOICE), { rule: 'choose' }, 'not a key of the screen');
  assert.deepEqual(checkChoice('q1,q2', { ...CHOICE, choose: 'one' }), { rule: 'choose' });
  assert.equal(checkChoice('q2', { ...CHOICE, choose: 'one' }), null);
  assert.deepEqual(checkChoice('q1', { ...CHOICE, choose: 'all' }), { rule: 'unknownRule', name: 'choose' });
  assert.deepEqual(checkChoice('a,b', { choose: 'some', keys: ['a,b'] }), { rule: 'unknownRule', name: 'choose' });
  assert.deepEqual(checkChoice('q1,q2', { ...CHOICE, maxBytes: 3 }), { rule: 'maxBytes', limit: 3 });
});

test('the consent rule takes Y or N only; the HTML rule allows empty data and 256 bytes, no more', () => {
  assert.equal(checkEntry('Y', { yesNo: true }), null);
  assert.equal(checkEntry('N', { yesNo: true }), null);
  assert.deepEqual(checkEntry('', { yesNo: true }), { rule: 'yesNo' });
  assert.deepEqual(checkEntry('yes', { yesNo: true }), { rule: 'yesNo' });
  const html = { maxBytes: 256, allowEmpty: true, htmlForm: true, tooLongNote: 'n' };
  assert.equal(checkEntry('', html), null);
  assert.equal(checkEntry('otp=1&action=verify'.padEnd(256, 'x'), html), null);
  assert.deepEqual(checkEntry('x'.repeat(257), html), { rule: 'maxBytes', limit: 256 });
  assert.deepEqual(checkEntry('x'.repeat(46), { maxBytes: 256 }), { rule: 'maxBytes', limit: 45 }, 'a code stays at 45');
});

test('submit or submitEmpty: entries and options answer, consents do not; an HTML page always submits', () => {
  assert.equal(submitAction({ options: '', e9: 'Y' }, ['options']), 'submitEmpty');
  assert.equal(submitAction({ options: 'q1', e9: 'N' }, ['options']), 'submit');
  assert.equal(submitAction({ e4: '', e5: '7' }, ['e4', 'e5']), 'submit');
  assert.equal(submitAction({ html: '' }, ['html']), 'submit');
});

test('the reserved URL of an HTML page: its challenge links submit their query, nothing else does', () => {
  assert.equal(reservedLinkData('https://emv3ds/challenge?action=resend'), 'action=resend');
  assert.equal(reservedLinkData('HTTPS://EMV3DS/Challenge?a=1%202'), 'a=1%202');
  assert.equal(reservedLinkData('https://emv3ds/challenge'), '');
  assert.equal(reservedLinkData('https://emv3ds/openoobApp'), null);
  assert.equal(reservedLinkData('https://emv3ds.example/challenge?a=1'), null);
  assert.equal(reservedLinkData('https://emv3ds:444/challenge?a=1'), null);
  assert.equal(reservedLinkData('javascript:alert(1)'), null);
  assert.equal(reservedLinkData('/challenge?a=1'), null);
  assert.equal(reservedURL(null), null);
});

// A select screen with both consent questions, as the server drives it.
async function selectChallenge(choose) {
  const acs = await acsEnd(SDK_REF, ACS_TRANS_ID);
  let acsChannel;
  const seen = { creqs: [], answers: [] };
  const rules = { ...CHOICE, choose };
  const form = { formVersion: 1, uiType: choose === 'one' ? '02' : '03', elements: [
    { kind: 'option', id: 'e3', key: 'q1', label: 'One', multiple: choose !== 'one' },
    { kind: 'option', id: 'e4', key: 'q2', label: 'Two', multiple: choose !== 'one' },
    { kind: 'option', id: 'e5', key: 'q3', label: 'Three', multiple: choose !== 'one' },
    { kind: 'button', id: 'e6', type: 'SUBMIT', label: 'Submit', action: 'submit' },
    { kind: 'consent', id: 'e7', consent: 'trust', question: 'Trust?' },
    { kind: 'consent', id: 'e8', consent: 'deviceBinding', question: 'Bind?' }] };
  const server = fakeServer(async (path, body) => {
    switch (path) {
      case '/client/v1/start':
        acsChannel = await acs.channel(body.sdkEphemPubKey);
        return { clientToken: 'client-token-3', step: { step: 'wait' } };
      case '/client/v1/next':
        if (seen.keyed) return { step: 'present', screen: 1, form };
        seen.keyed = true;
        return { step: 'keys', acsEphemPubKey: acs.publicJwk, sdkReferenceNumber: SDK_REF, acsTransID: ACS_TRANS_ID };
      case '/client/v1/answer':
        seen.answers.push(body);
        return { step: 'encrypt', exchange: 1, counter: '001', creq: { messageType: 'CReq', sdkCounterStoA: '001' }, encryption: 'A128CBC-HS256',
          fill: [{ member: 'challengeDataEntry', from: 'options', rules },
            { member: 'trustListDataEntry', from: 'e7', rules: { yesNo: true } },
            { member: 'deviceBindingDataEntry', from: 'e8', rules: { yesNo: true } }] };
      case '/client/v1/creq': {
        const { plaintext } = await acsChannel.decrypt(body.jwe);
        seen.creqs.push(JSON.parse(new TextDecoder().decode(plaintext)));
        const cres = { messageType: 'CRes', transStatus: 'Y' };
        return { step: 'decrypt', exchange: 1, jwe: await acsChannel.encrypt(new TextEncoder().encode(JSON.stringify(cres)), 1) };
      }
      case '/client/v1/cres':
        return { step: 'finished', outcome: { kind: 'completed', transStatus: 'Y' } };
      default:
        return { status: 404 };
    }
  });
  return { server, seen };
}

test('a multi select: the chosen keys and both consent answers go into the CReq, the answer carries the action only', async () => {
  const { server, seen } = await selectChallenge('some');
  const view = scriptedView([{ action: 'submit', values: { options: 'q1,q3', e7: 'Y', e8: 'N' } }]);
  const session = new SplitSession({ view, emit: () => {}, baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv });
  assert.deepEqual(await session.run('merchant-token', {}), { kind: 'completed', transStatus: 'Y' });
  assert.deepEqual(seen.answers, [{ screen: 1, action: 'submit' }]);
  assert.deepEqual(seen.creqs, [{ messageType: 'CReq', sdkCounterStoA: '001', challengeDataEntry: 'q1,q3', trustListDataEntry: 'Y', deviceBindingDataEntry: 'N' }]);
  for (const request of server.requests.filter((r) => r.path !== '/client/v1/creq')) {
    assert.ok(!request.body.includes('q1,q3'), `the choice went out in ${request.path}`);
  }
  assert.equal(session.held.size, 0);
});

test('a single select with two options chosen is not encrypted: the screen comes back with the choice note', async () => {
  const { server, seen } = await selectChallenge('one');
  const view = scriptedView([{ action: 'submit', values: { options: 'q1,q2', e7: 'N', e8: 'N' } },
    { action: 'submit', values: { options: 'q2', e7: 'N', e8: 'Y' } }]);
  const session = new SplitSession({ view, emit: () => {}, baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv });
  await session.run('merchant-token', {});
  assert.deepEqual(view.calls.filter((c) => c[0] === 'present').map((c) => c[2]), [null, { rule: 'choose', element: 'options', text: 'Choose an option' }]);
  assert.deepEqual(seen.creqs.map((c) => [c.challengeDataEntry, c.deviceBindingDataEntry]), [['q2', 'Y']]);
});

test('two entry boxes, the second left empty: the CReq carries the first only, as the Default-SDK writes it', async () => {
  const acs = await acsEnd(SDK_REF, ACS_TRANS_ID);
  let acsChannel;
  const creqs = [];
  const rules = { maxLength: 8, maxBytes: 45, tooLongNote: 'n', omitIfEmpty: true };
  const form = { formVersion: 1, uiType: '01', elements: [{ kind: 'entry', id: 'e3', box: 0, rules }, { kind: 'entry', id: 'e4', box: 1, rules }] };
  const server = fakeServer(async (path, body) => {
    switch (path) {
      case '/client/v1/start':
        acsChannel = await acs.channel(body.sdkEphemPubKey);
        return { clientToken: 't2', step: { step: 'keys', acsEphemPubKey: acs.publicJwk, sdkReferenceNumber: SDK_REF, acsTransID: ACS_TRANS_ID } };
      case '/client/v1/next': return { step: 'present', screen: 1, form };
      case '/client/v1/answer':
        return { step: 'encrypt', exchange: 1, counter: '001', creq: { messageType: 'CReq', sdkCounterStoA: '001' }, encryption: 'A128CBC-HS256',
          fill: [{ member: 'challengeDataEntry', from: 'e3', box: 0, rules }, { member: 'challengeDataEntryTwo', from: 'e4', box: 1, rules }] };
      case '/client/v1/creq': {
        const { plaintext } = await acsChannel.decrypt(body.jwe);
        creqs.push(JSON.parse(new TextDecoder().decode(plaintext)));
        return { step: 'finished', outcome: { kind: 'completed', transStatus: 'Y' } };
      }
      default: return { status: 404 };
    }
  });
  const view = scriptedView([{ action: 'submit', values: { e3: '123456', e4: '' } }]);
  const session = new SplitSession({ view, emit: () => {}, baseURL: BASE, fetch: server.fetch, clock: new TestClock(), env: secureEnv });
  await session.run('merchant-token', {});
  assert.deepEqual(creqs, [{ messageType: 'CReq', sdkCounterStoA: '001', challengeDataEntry: '123456' }]);
});
