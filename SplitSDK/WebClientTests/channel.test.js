// The client's channel against the known-answer vectors (fixtures/jose-known-answers.json, copied from the project's
// shared vectors with their sources) and against an independent node:crypto JWE (reference-jwe.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  A128CBC_HS256, A128GCM, ChannelError, concatKDF, decryptDirect, deriveChannel, generateEphemeralKeyPair,
  importChannel, importContentKey, openContent, requireWebCrypto, sealContent, sharedSecret, importPublicJwk,
} from '../Sources/ThreeDS2SplitServer/WebClient/channel.js';
import { referenceDecrypt, referenceEncrypt } from './reference-jwe.js';

const vectors = JSON.parse(readFileSync(new URL('./fixtures/jose-known-answers.json', import.meta.url)));
const hex = (text) => new Uint8Array(Buffer.from(text, 'hex'));
const b64u = (text) => new Uint8Array(Buffer.from(text, 'base64url'));
const toHex = (bytes) => Buffer.from(bytes).toString('hex');
const utf8 = (text) => new TextEncoder().encode(text);
const emvco = vectors.emvco_sdk_acs_channel;
const ACS_TRANS_ID = '8a880dc0-d2d2-4067-bcb1-b08d1690b26e';

const importPrivate = (jwk) => crypto.subtle.importKey('jwk', jwk, { name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']);
const emvcoChannel = async () => deriveChannel({
  privateKey: await importPrivate(emvco.sdk_ephemeral_private_jwk), acsPublicJwk: emvco.acs_ephemeral_public_jwk,
  sdkReferenceNumber: emvco.sdk_reference_number, acsTransID: ACS_TRANS_ID,
});
const rejects = (promise, code) => assert.rejects(promise, (error) => error instanceof ChannelError && error.code === code);
const counterIV = (counter, length, fill) => { const iv = Buffer.alloc(length, fill); iv[length - 1] = counter; return iv; };

test('EMVCo SDK–ACS vector: ECDH gives the published Z and the Concat KDF the channel key', async () => {
  const z = await sharedSecret(await importPrivate(emvco.sdk_ephemeral_private_jwk), await importPublicJwk(emvco.acs_ephemeral_public_jwk));
  assert.equal(toHex(z), emvco.z_hex);
  assert.equal(toHex(await concatKDF(z, { partyVInfo: utf8(emvco.sdk_reference_number) })), emvco.cek_hex);
});

test('RFC 7518 appendix C: ECDH-ES Z and the Concat KDF with AlgorithmID, PartyUInfo, PartyVInfo, 128 bits', async () => {
  const c = vectors.rfc7518_appendix_c_ecdh_es;
  const { d, ...recipientPublic } = c.recipient_private_jwk;
  const z = await sharedSecret(await importPrivate(c.ephemeral_private_jwk), await importPublicJwk(recipientPublic));
  assert.equal(toHex(z), c.z_hex);
  const key = await concatKDF(z, {
    keyLengthBits: c.keydatalen_bits, algorithmID: utf8(c.algorithm_id), partyUInfo: utf8(c.party_u_info), partyVInfo: utf8(c.party_v_info),
  });
  assert.deepEqual(key, b64u(c.derived_key));
});

test('RFC 7516 A.3: A128CBC-HS256 content encryption and decryption, and a wrong tag refused', async () => {
  const v = vectors.rfc7516_a3_a128cbc_hs256_content;
  const key = await importContentKey(hex(v.cek_hex), A128CBC_HS256);
  const aad = utf8(v.protected);
  const sealed = await sealContent(key, b64u(v.iv), aad, utf8(v.plaintext_utf8));
  assert.deepEqual(sealed.ciphertext, b64u(v.ciphertext));
  assert.deepEqual(sealed.tag, b64u(v.tag));
  const opened = await openContent(key, b64u(v.iv), aad, b64u(v.ciphertext), b64u(v.tag));
  assert.equal(new TextDecoder().decode(opened), v.plaintext_utf8);
  const badTag = b64u(v.tag);
  badTag[15] ^= 1;
  await rejects(openContent(key, b64u(v.iv), aad, b64u(v.ciphertext), badTag), 'authentication');
});

test('RFC 7520 5.6: a dir A128GCM JWE decrypts with its kid, and is refused under another', async () => {
  const v = vectors.rfc7520_5_6_dir_a128gcm;
  const keys = { [A128GCM]: await importContentKey(b64u(v.key), A128GCM) };
  const { plaintext, encryption } = await decryptDirect(v.compact, { keys, keyID: '77c7e2b8-6e13-45cf-8672-617b5b45243a' });
  assert.equal(encryption, A128GCM);
  assert.equal(new TextDecoder().decode(plaintext), v.plaintext_utf8);
  await rejects(decryptDirect(v.compact, { keys, keyID: 'another' }), 'keyID');
});

test('a CReq is the Swift SDK\'s JWE: header bytes, counter IV (0x00 fill), whole key; GCM takes the first half', async () => {
  const channel = await emvcoChannel();
  const creq = { messageType: 'CReq', sdkCounterStoA: '007', challengeDataEntry: '123456' };
  const compact = await channel.encrypt(utf8(JSON.stringify(creq)), 7);
  const opened = referenceDecrypt(compact, Buffer.from(emvco.cek_hex, 'hex'));
  assert.equal(opened.headerText, `{"alg":"dir","enc":"A128CBC-HS256","kid":"${ACS_TRANS_ID}"}`);
  assert.deepEqual(opened.iv, counterIV(7, 16, 0x00));
  assert.deepEqual(JSON.parse(opened.plaintext), creq);
  const gcm = await channel.encrypt(utf8('{"a":1}'), 255, A128GCM);
  const openedGCM = referenceDecrypt(gcm, Buffer.from(emvco.a128gcm_sdk_to_acs_key_hex, 'hex'));
  assert.equal(openedGCM.headerText, `{"alg":"dir","enc":"A128GCM","kid":"${ACS_TRANS_ID}"}`);
  assert.deepEqual(openedGCM.iv, counterIV(255, 12, 0x00));
  await rejects(channel.encrypt(utf8('{}'), 256), 'invalidCounter');
  await rejects(channel.encrypt(utf8('{}'), 0, 'A256GCM'), 'encryption');
});

test('a CRes decrypts under the whole key (CBC) or the second half (GCM), whatever its IV', async () => {
  const channel = await emvcoChannel();
  const cres = { messageType: 'CRes', acsCounterAtoS: '000', challengeInfoText: 'مرحبا' };
  const plaintext = Buffer.from(JSON.stringify(cres));
  const cbc = referenceEncrypt({ header: { alg: 'dir', enc: A128CBC_HS256, kid: ACS_TRANS_ID }, key: Buffer.from(emvco.cek_hex, 'hex'), iv: Buffer.alloc(16, 0x5a), plaintext });
  assert.deepEqual(await channel.decryptJSON(cbc), cres);
  const gcmHeader = { kid: ACS_TRANS_ID, enc: A128GCM, alg: 'dir' };
  const gcm = referenceEncrypt({ header: gcmHeader, key: Buffer.from(emvco.a128gcm_acs_to_sdk_key_hex, 'hex'), iv: counterIV(0, 12, 0xff), plaintext });
  assert.deepEqual(await channel.decryptJSON(gcm), cres);
  const wrongHalf = referenceEncrypt({ header: gcmHeader, key: Buffer.from(emvco.a128gcm_sdk_to_acs_key_hex, 'hex'), iv: counterIV(0, 12, 0xff), plaintext });
  await rejects(channel.decrypt(wrongHalf), 'authentication');
});

test('the CRes header is held strictly: crit, zip, alg, enc, kid, a member twice, the parts', async () => {
  const channel = await emvcoChannel();
  const key = Buffer.from(emvco.cek_hex, 'hex');
  const make = (header, iv = Buffer.alloc(16)) => referenceEncrypt({ header, key, iv, plaintext: Buffer.from('{}') });
  const good = { alg: 'dir', enc: A128CBC_HS256, kid: ACS_TRANS_ID };
  await rejects(channel.decrypt(make({ ...good, crit: ['exp'] })), 'header');
  await rejects(channel.decrypt(make({ ...good, zip: 'DEF' })), 'header');
  await rejects(channel.decrypt(make({ ...good, alg: 'RSA-OAEP-256' })), 'algorithm');
  await rejects(channel.decrypt(make({ ...good, enc: 'A256GCM' })), 'encryption');
  await rejects(channel.decrypt(make({ ...good, kid: 'other' })), 'keyID');
  await rejects(channel.decrypt(make({ alg: 'dir', enc: A128CBC_HS256 })), 'keyID');
  await rejects(channel.decrypt(make({ ...good, kid: 7 })), 'header');
  const compact = make(good);
  const parts = compact.split('.');
  await rejects(channel.decrypt([...parts.slice(0, 2), Buffer.alloc(12).toString('base64url'), ...parts.slice(3)].join('.')), 'iv');
  const twice = Buffer.from(`{"alg":"dir","enc":"A128CBC-HS256","kid":"${ACS_TRANS_ID}","kid":"${ACS_TRANS_ID}"}`).toString('base64url');
  await rejects(channel.decrypt([twice, ...parts.slice(1)].join('.')), 'header');
  await rejects(channel.decrypt(parts.slice(0, 4).join('.')), 'malformed');
  await rejects(channel.decrypt([parts[0], 'AAAA', ...parts.slice(2)].join('.')), 'malformed');
  await rejects(channel.decrypt([...parts.slice(0, 4), `${parts[4]}=`].join('.')), 'malformed');
  await rejects(channel.decrypt([...parts.slice(0, 4), parts[4].slice(0, -2)].join('.')), 'authentication');
  await rejects(channel.decrypt(`${compact}${'A'.repeat(512 * 1024)}`), 'tooLarge');
});

test('a CRes plaintext that is not one JSON object, or names a member twice, is a json failure', async () => {
  const channel = await emvcoChannel();
  const key = Buffer.from(emvco.cek_hex, 'hex');
  const make = (text) => referenceEncrypt({ header: { alg: 'dir', enc: A128CBC_HS256, kid: ACS_TRANS_ID }, key, iv: Buffer.alloc(16), plaintext: Buffer.from(text) });
  await rejects(channel.decryptJSON(make('{"transStatus":"Y","transStatus":"N"}')), 'json');
  await rejects(channel.decryptJSON(make('[1]')), 'json');
  await rejects(channel.decryptJSON(make('{"a":"\\ud800"}')), 'json');
  await rejects(channel.decryptJSON(make('{"a":1} x')), 'json');
});

test('the SDK ephemeral private key and the channel keys are not extractable; the key bytes are zeroed', async () => {
  const pair = await generateEphemeralKeyPair();
  assert.equal(pair.privateKey.extractable, false);
  await assert.rejects(crypto.subtle.exportKey('jwk', pair.privateKey));
  assert.deepEqual(Object.keys(pair.publicJwk).sort(), ['crv', 'kty', 'x', 'y']);
  const derived = hex(emvco.cek_hex);
  const channel = await importChannel(derived, ACS_TRANS_ID);
  assert.ok(derived.every((byte) => byte === 0));
  for (const key of [channel.keys.cbc.mac, channel.keys.cbc.aes, channel.keys.gcmToACS.aes, channel.keys.gcmToSDK.aes]) {
    assert.equal(key.extractable, false);
  }
  await rejects(importPublicJwk({ ...emvco.acs_ephemeral_public_jwk, x: emvco.acs_ephemeral_public_jwk.y }), 'invalidKey');
  await rejects(importPublicJwk({ ...emvco.sdk_ephemeral_private_jwk }), 'invalidKey');
});

test('the client refuses to start without a secure context or WebCrypto, naming why', () => {
  assert.throws(() => requireWebCrypto({ isSecureContext: false, crypto: globalThis.crypto }),
    (error) => error.code === 'insecureContext' && /secure context/.test(error.message));
  assert.throws(() => requireWebCrypto({ isSecureContext: true, crypto: {} }),
    (error) => error.code === 'noWebCrypto' && /crypto\.subtle/.test(error.message));
  assert.equal(requireWebCrypto({ isSecureContext: true, crypto: globalThis.crypto }), globalThis.crypto.subtle);
});
