// The client's channel against the Swift ACS channel (ThreeDS2ACSKit's ACSChannel), in both directions, through
// `jose-interop web-channel` (Tools/Interop/JOSEInteropTool/WebChannel.swift). scripts/test-web-client.sh builds the
// tool and passes its path in JOSE_INTEROP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { A128GCM, deriveChannel, generateEphemeralKeyPair } from '../Sources/ThreeDS2SplitServer/WebClient/channel.js';

const tool = process.env.JOSE_INTEROP;
const utf8 = (text) => new TextEncoder().encode(text);

function startACS() {
  assert.ok(tool, 'JOSE_INTEROP must name the jose-interop binary (scripts/test-web-client.sh builds it and sets it)');
  const child = spawn(tool, ['web-channel'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async ask(line) {
      child.stdin.write(`${line}\n`);
      const { value, done } = await lines.next();
      assert.ok(!done, 'jose-interop web-channel ended early');
      return JSON.parse(value);
    },
    end: () => new Promise((resolve) => { child.on('close', resolve); child.stdin.end(); }),
  };
}

test('a CRes the Swift ACS channel encrypts is decrypted by the client; a CReq the client encrypts, by the ACS', { timeout: 60_000 }, async () => {
  const acs = startACS();
  const acsTransID = 'd7c1ee99-9478-44a6-b1f2-391e29c6b340';
  const sdkReferenceNumber = '3DS_LOA_SDK_SPLIT_TEST_0001';
  const { privateKey, publicJwk } = await generateEphemeralKeyPair();
  const opening = await acs.ask(JSON.stringify({ sdkEphemPubKey: publicJwk, sdkReferenceNumber, acsTransID }));
  const channel = await deriveChannel({ privateKey, acsPublicJwk: opening.acsEphemPubKey, sdkReferenceNumber, acsTransID });

  assert.deepEqual(opening.cres.map((cres) => cres.enc), ['A128CBC-HS256', 'A128GCM']);
  for (const cres of opening.cres) {
    const decrypted = await channel.decrypt(cres.compact);
    assert.equal(decrypted.encryption, cres.enc);
    assert.equal(new TextDecoder().decode(decrypted.plaintext), cres.plaintext);
  }

  const creq = { messageType: 'CReq', messageVersion: '2.3.1', acsTransID, sdkCounterStoA: '000', challengeDataEntry: '123456' };
  const answer = await acs.ask(await channel.encrypt(utf8(JSON.stringify(creq)), 0));
  assert.equal(answer.error, undefined);
  assert.equal(answer.header, `{"alg":"dir","enc":"A128CBC-HS256","kid":"${acsTransID}"}`);
  assert.deepEqual(answer.message, creq);

  const second = { ...creq, sdkCounterStoA: '001', challengeCancel: '01' };
  const gcm = await acs.ask(await channel.encrypt(utf8(JSON.stringify(second)), 1, A128GCM));
  assert.equal(gcm.encryption, 'A128GCM');
  assert.deepEqual(gcm.message, second);

  const replayed = await acs.ask(await channel.encrypt(utf8(JSON.stringify(second)), 1));
  assert.match(replayed.error, /sdkCounterStoA/);
  const tampered = (await channel.encrypt(utf8(JSON.stringify({ ...creq, sdkCounterStoA: '002' })), 2)).replace(/.$/, (c) => (c === 'A' ? 'Q' : 'A'));
  assert.ok((await acs.ask(tampered)).error);
  await acs.end();
});
