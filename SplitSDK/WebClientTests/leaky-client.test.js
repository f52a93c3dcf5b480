// The test-only leaking build (Tools/Tests/ThreeDS2SplitBrowserTests/Fixtures/leaky-client.js), set up as its header
// says, does send the entry in plaintext: so a leak test that passes on the honest client and fails on this one
// tests something.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TestClock, acsEnd, fakeServer, scriptedView, secureEnv } from './support.js';

const webClient = fileURLToPath(new URL('../Sources/ThreeDS2SplitServer/WebClient/', import.meta.url));
const leaky = fileURLToPath(new URL('../../Tools/Tests/ThreeDS2SplitBrowserTests/Fixtures/leaky-client.js', import.meta.url));

test('the leaking build sends the entry in the answer POST, in plaintext', async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'leaky-client-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  cpSync(webClient, folder, { recursive: true });
  renameSync(join(folder, 'steps.js'), join(folder, 'steps-honest.js'));
  cpSync(leaky, join(folder, 'steps.js'));
  const { SplitSession } = await import(pathToFileURL(join(folder, 'steps.js')).href);

  const acs = await acsEnd('REF', 'acs-1');
  const steps = [{ step: 'keys', acsEphemPubKey: acs.publicJwk, sdkReferenceNumber: 'REF', acsTransID: 'acs-1' },
    { step: 'present', screen: 1, form: {} }, { step: 'finished', outcome: { kind: 'cancelled' } }];
  const server = fakeServer((path) => (path.endsWith('/status') ? { status: 404 }
    : path.endsWith('/start') ? { clientToken: 't', step: steps.shift() } : steps.shift()));
  const view = scriptedView([{ action: 'submit', values: { e4: 'LEAK-314159' } }]);
  await new SplitSession({ view, emit: () => {}, baseURL: 'https://s.example/client/v1/', fetch: server.fetch, clock: new TestClock(), env: secureEnv })
    .run('m', {});
  const answer = server.requests.find((r) => r.path.endsWith('/answer'));
  assert.ok(answer.body.includes('LEAK-314159'));
});
