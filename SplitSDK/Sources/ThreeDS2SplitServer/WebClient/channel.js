// The SDK's end of the SDK–ACS channel, in the browser: the SDK ephemeral key pair, ECDH P-256 with the ACS
// ephemeral key, the EMVCo Concat KDF, and `dir` JWEs with A128CBC-HS256 (CReq and CRes) or A128GCM (CRes).
// WebCrypto only. It does what Sources/ThreeDS2Messages/ChannelKeys.swift, Sources/ThreeDS2JOSE (ConcatKDF.swift,
// JWE.swift, JWE+Direct.swift) and the SDK's SecureChannel.swift do, and writes the same protected header bytes.
//
// Every key is a non-extractable CryptoKey; the ECDH secret and the derived key bytes are zeroed once imported.

import {
  EncodingError,
  base64urlDecode,
  base64urlEncode,
  decodeUTF8,
  parseStrictJSON,
  serializeStringMembers,
  utf8,
} from './encoding.js';

/** A channel failure. `code` is one of the codes below; `message` names the part or member at fault. */
export class ChannelError extends Error {
  /**
   * @param {string} code `insecureContext`, `noWebCrypto`, `invalidKey`, `invalidCounter`, `tooLarge`, `malformed`,
   *   `header`, `algorithm`, `encryption`, `keyID`, `iv`, `authentication`, `json`.
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.name = 'ChannelError';
    this.code = code;
  }
}

/** The content encryptions this channel knows. */
export const A128CBC_HS256 = 'A128CBC-HS256';
export const A128GCM = 'A128GCM';

/** The largest compact JWE accepted, in bytes (the SDK's ChallengeStateMachine.maxResponseBytes). */
export const MAX_COMPACT_BYTES = 512 * 1024;
/** The largest protected header accepted, in bytes of JSON (JWE.maxHeaderBytes). */
export const MAX_HEADER_BYTES = 8 * 1024;
/** The deepest nesting of a decrypted CRes (SecureChannel.swift). */
export const MAX_CRES_DEPTH = 16;

const IV_BYTES = { [A128CBC_HS256]: [16], [A128GCM]: [12, 16] };
const TAG_BYTES = 16;

/**
 * The WebCrypto this client may use, or a refusal naming why: the page must be a secure context and have
 * `crypto.subtle`. Nothing falls back (the client never declares itself Limited).
 * @param {{isSecureContext?: boolean, crypto?: Crypto}} [env] The global scope (`window` in the frame).
 * @returns {SubtleCrypto}
 * @throws {ChannelError} `insecureContext` or `noWebCrypto`.
 */
export function requireWebCrypto(env = globalThis) {
  if (env.isSecureContext !== true) {
    throw new ChannelError(
      'insecureContext',
      'the frame is not a secure context (HTTPS or localhost), so WebCrypto is not available to encrypt the cardholder\'s input',
    );
  }
  if (!env.crypto || !env.crypto.subtle) {
    throw new ChannelError('noWebCrypto', 'this browser has no WebCrypto (crypto.subtle), which encrypts the cardholder\'s input');
  }
  return env.crypto.subtle;
}

const subtle = () => globalThis.crypto.subtle;
const zero = (bytes) => bytes.fill(0);

/**
 * Makes the SDK ephemeral key pair: P-256, the private key not extractable.
 * @returns {Promise<{privateKey: CryptoKey, publicJwk: {kty: string, crv: string, x: string, y: string}}>}
 */
export async function generateEphemeralKeyPair() {
  const pair = await subtle().generateKey({ name: 'ECDH', namedCurve: 'P-256' }, false, ['deriveBits']);
  const { kty, crv, x, y } = await subtle().exportKey('jwk', pair.publicKey);
  return { privateKey: pair.privateKey, publicJwk: { kty, crv, x, y } };
}

/**
 * Imports a P-256 public JWK ({kty EC, crv P-256, x, y}, 32-byte coordinates, no `d`); WebCrypto checks the point.
 * @param {any} jwk
 * @returns {Promise<CryptoKey>}
 * @throws {ChannelError} `invalidKey`.
 */
export async function importPublicJwk(jwk) {
  if (jwk === null || typeof jwk !== 'object' || jwk.kty !== 'EC' || jwk.crv !== 'P-256' || 'd' in jwk) {
    throw new ChannelError('invalidKey', 'the ACS ephemeral key is not a P-256 public JWK');
  }
  for (const name of ['x', 'y']) {
    let coordinate;
    try {
      coordinate = base64urlDecode(jwk[name], `the ACS ephemeral key's "${name}"`);
    } catch (error) {
      throw new ChannelError('invalidKey', error.message);
    }
    if (coordinate.length !== 32) throw new ChannelError('invalidKey', `the ACS ephemeral key's "${name}" is not 32 bytes`);
  }
  try {
    return await subtle().importKey('jwk', { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y },
      { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  } catch {
    throw new ChannelError('invalidKey', 'the ACS ephemeral key is not a point of P-256');
  }
}

/**
 * ECDH P-256: the shared secret Z (32 bytes). The caller zeroes it when done.
 * @param {CryptoKey} privateKey
 * @param {CryptoKey} publicKey
 * @returns {Promise<Uint8Array>}
 */
export async function sharedSecret(privateKey, publicKey) {
  return new Uint8Array(await subtle().deriveBits({ name: 'ECDH', public: publicKey }, privateKey, 256));
}

/**
 * The Concat KDF of NIST SP 800-56A §5.8.1 with SHA-256 as RFC 7518 §4.6.2 uses it (ConcatKDF.swift):
 * H(counter ‖ Z ‖ OtherInfo) … truncated, OtherInfo = len‖AlgorithmID ‖ len‖PartyUInfo ‖ len‖PartyVInfo ‖
 * keydatalen, lengths 32-bit big-endian. Intermediate buffers are zeroed.
 * @param {Uint8Array} z The shared secret.
 * @param {{keyLengthBits?: number, algorithmID?: Uint8Array, partyUInfo?: Uint8Array, partyVInfo?: Uint8Array}} info
 * @returns {Promise<Uint8Array>} The derived key; the caller zeroes it when done.
 */
export async function concatKDF(z, { keyLengthBits = 256, algorithmID = new Uint8Array(), partyUInfo = new Uint8Array(),
  partyVInfo = new Uint8Array() } = {}) {
  if (!Number.isInteger(keyLengthBits) || keyLengthBits <= 0 || keyLengthBits % 8 !== 0 || keyLengthBits > 8192) {
    throw new ChannelError('invalidKey', `Concat KDF key length ${keyLengthBits} bits is not a positive multiple of 8`);
  }
  const parts = [algorithmID, partyUInfo, partyVInfo];
  const infoLength = parts.reduce((sum, part) => sum + 4 + part.length, 4);
  const input = new Uint8Array(4 + z.length + infoLength);
  const view = new DataView(input.buffer);
  input.set(z, 4);
  let at = 4 + z.length;
  for (const part of parts) {
    view.setUint32(at, part.length);
    input.set(part, at + 4);
    at += 4 + part.length;
  }
  view.setUint32(at, keyLengthBits);
  const keyLength = keyLengthBits / 8;
  const output = new Uint8Array(Math.ceil(keyLength / 32) * 32);
  for (let counter = 1; (counter - 1) * 32 < keyLength; counter += 1) {
    view.setUint32(0, counter);
    const digest = new Uint8Array(await subtle().digest('SHA-256', input));
    output.set(digest, (counter - 1) * 32);
    zero(digest);
  }
  zero(input);
  const key = output.slice(0, keyLength);
  zero(output);
  return key;
}

/**
 * Imports content-encryption key bytes as non-extractable CryptoKeys and zeroes the bytes. A128CBC-HS256 takes 32
 * bytes (MAC key the first 16, AES key the last 16, RFC 7518 §5.2.2.1); A128GCM takes 16.
 * @param {Uint8Array} bytes
 * @param {string} encryption `A128CBC-HS256` or `A128GCM`.
 * @returns {Promise<{encryption: string, mac?: CryptoKey, aes: CryptoKey}>}
 */
export async function importContentKey(bytes, encryption) {
  try {
    if (encryption === A128CBC_HS256 && bytes.length === 32) {
      const mac = await subtle().importKey('raw', bytes.subarray(0, 16), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
      const aes = await subtle().importKey('raw', bytes.subarray(16, 32), 'AES-CBC', false, ['encrypt', 'decrypt']);
      return { encryption, mac, aes };
    }
    if (encryption === A128GCM && bytes.length === 16) {
      return { encryption, aes: await subtle().importKey('raw', bytes, 'AES-GCM', false, ['encrypt', 'decrypt']) };
    }
    throw new ChannelError('invalidKey', `${encryption} does not take a ${bytes.length}-byte key`);
  } finally {
    zero(bytes);
  }
}

async function cbcTag(key, iv, aad, ciphertext) {
  const input = new Uint8Array(aad.length + iv.length + ciphertext.length + 8);
  input.set(aad, 0);
  input.set(iv, aad.length);
  input.set(ciphertext, aad.length + iv.length);
  new DataView(input.buffer).setBigUint64(input.length - 8, BigInt(aad.length) * 8n);
  return new Uint8Array(await subtle().sign('HMAC', key.mac, input)).slice(0, TAG_BYTES);
}

/**
 * Content encryption (RFC 7518 §5.2.2.1 for A128CBC-HS256, §5.3 for A128GCM).
 * @param {{encryption: string, mac?: CryptoKey, aes: CryptoKey}} key From importContentKey.
 * @param {Uint8Array} iv
 * @param {Uint8Array} aad The ASCII of the encoded protected header.
 * @param {Uint8Array} plaintext
 * @returns {Promise<{ciphertext: Uint8Array, tag: Uint8Array}>}
 */
export async function sealContent(key, iv, aad, plaintext) {
  if (key.encryption === A128GCM) {
    const sealed = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv, additionalData: aad, tagLength: 128 },
      key.aes, plaintext));
    return { ciphertext: sealed.slice(0, -TAG_BYTES), tag: sealed.slice(-TAG_BYTES) };
  }
  const ciphertext = new Uint8Array(await subtle().encrypt({ name: 'AES-CBC', iv }, key.aes, plaintext));
  return { ciphertext, tag: await cbcTag(key, iv, aad, ciphertext) };
}

// One random key per page to compare tags through WebCrypto's constant-time HMAC verify (compare HMAC(k, expected)
// with HMAC(k, received)): no early exit on the first differing byte of the tag.
let comparisonKey;
async function tagsEqual(expected, received) {
  comparisonKey ??= await subtle().generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  const mac = await subtle().sign('HMAC', comparisonKey, expected);
  return subtle().verify('HMAC', comparisonKey, mac, received);
}

/**
 * Checks the tag, then decrypts (constant-time tag comparison for CBC; the AEAD's own for GCM).
 * @param {{encryption: string, mac?: CryptoKey, aes: CryptoKey}} key
 * @param {Uint8Array} iv
 * @param {Uint8Array} aad
 * @param {Uint8Array} ciphertext
 * @param {Uint8Array} tag
 * @returns {Promise<Uint8Array>}
 * @throws {ChannelError} `authentication` when the tag does not match or the padding is wrong.
 */
export async function openContent(key, iv, aad, ciphertext, tag) {
  if (tag.length !== TAG_BYTES) throw new ChannelError('authentication', `${key.encryption} tag is ${tag.length} bytes, expected 16`);
  try {
    if (key.encryption === A128GCM) {
      const combined = new Uint8Array(ciphertext.length + TAG_BYTES);
      combined.set(ciphertext);
      combined.set(tag, ciphertext.length);
      return new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv, additionalData: aad, tagLength: 128 },
        key.aes, combined));
    }
    if (!(await tagsEqual(await cbcTag(key, iv, aad, ciphertext), tag))) throw new Error('tag');
    return new Uint8Array(await subtle().decrypt({ name: 'AES-CBC', iv }, key.aes, ciphertext));
  } catch {
    throw new ChannelError('authentication', `${key.encryption} authentication failed`);
  }
}

/**
 * The counter IV of a CReq (SDK→ACS): 0x00 fill, the counter in the last byte (ChannelKeys.counterIV).
 * @param {number} counter sdkCounterStoA, 0…255.
 * @param {string} encryption
 * @returns {Uint8Array}
 */
export function requestIV(counter, encryption) {
  if (!Number.isInteger(counter) || counter < 0 || counter > 255) {
    throw new ChannelError('invalidCounter', `sdkCounterStoA ${counter} is not 0…255`);
  }
  const iv = new Uint8Array(IV_BYTES[encryption][0]);
  iv[iv.length - 1] = counter;
  return iv;
}

function readHeader(part, acceptedEncryptions, keyID) {
  if (part.length === 0) throw new ChannelError('malformed', 'JWE part 1 (protected header) is empty');
  let header;
  try {
    const json = base64urlDecode(part, 'JWE part 1 (protected header)');
    if (json.length > MAX_HEADER_BYTES) throw new ChannelError('tooLarge', `JWE protected header exceeds ${MAX_HEADER_BYTES} bytes`);
    header = parseStrictJSON(decodeUTF8(json, 'JWE protected header'), { maxDepth: 8, what: 'JWE protected header' });
  } catch (error) {
    if (error instanceof EncodingError) throw new ChannelError('header', error.message);
    throw error;
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) {
    throw new ChannelError('header', 'JWE protected header must be a JSON object');
  }
  for (const name of ['crit', 'zip']) {
    if (name in header) throw new ChannelError('header', `JWE header "${name}" is not supported`);
  }
  for (const name of ['alg', 'enc', 'kid']) {
    if (name in header && typeof header[name] !== 'string') throw new ChannelError('header', `header "${name}" must be a string`);
  }
  if (header.alg === undefined || header.enc === undefined) throw new ChannelError('header', 'JWE header "alg" or "enc" is missing');
  if (header.alg !== 'dir') throw new ChannelError('algorithm', `JWE header "alg" is "${header.alg}", expected "dir"`);
  if (!acceptedEncryptions.includes(header.enc)) throw new ChannelError('encryption', `JWE header "enc" "${header.enc}" is not accepted`);
  if (header.kid !== keyID) {
    throw new ChannelError('keyID', `JWE header "kid" is ${header.kid === undefined ? 'missing' : `"${header.kid}"`}, expected "${keyID}"`);
  }
  return header;
}

/**
 * Decrypts a compact `dir` JWE with the checks of the Swift decrypter, in its order: size; five parts; header
 * (strict base64url and JSON, no `crit` or `zip`, `alg` `dir`, `enc` one held here, `kid` exactly `keyID`);
 * strict base64url parts; empty encrypted key; IV length; tag (constant time); only then decryption.
 * @param {string} compact
 * @param {{keys: Object<string, object>, keyID: string, maxBytes?: number}} options One imported key per accepted `enc`.
 * @returns {Promise<{header: object, encryption: string, plaintext: Uint8Array}>}
 * @throws {ChannelError}
 */
export async function decryptDirect(compact, { keys, keyID, maxBytes = MAX_COMPACT_BYTES }) {
  if (typeof compact !== 'string' || compact.length > maxBytes) throw new ChannelError('tooLarge', `JWE exceeds ${maxBytes} bytes`);
  const parts = compact.split('.');
  if (parts.length !== 5) throw new ChannelError('malformed', `JWE has ${parts.length} parts, expected 5`);
  const header = readHeader(parts[0], Object.keys(keys), keyID);
  const names = ['encrypted key', 'IV', 'ciphertext', 'tag'];
  let decoded;
  try {
    decoded = parts.slice(1).map((part, i) => base64urlDecode(part, `JWE part ${i + 2} (${names[i]})`));
  } catch (error) {
    throw new ChannelError('malformed', error.message);
  }
  const [encryptedKey, iv, ciphertext, tag] = decoded;
  if (encryptedKey.length !== 0) throw new ChannelError('malformed', 'JWE part 2 (encrypted key) must be empty for "dir"');
  if (!IV_BYTES[header.enc].includes(iv.length)) throw new ChannelError('iv', `JWE part 3 (IV) is ${iv.length} bytes; ${header.enc} takes ${IV_BYTES[header.enc].join(' or ')}`);
  const plaintext = await openContent(keys[header.enc], iv, utf8(parts[0]), ciphertext, tag);
  return { header, encryption: header.enc, plaintext };
}

/**
 * One challenge's channel: CReqs encrypted under the counter IV with `kid` = acsTransID, CRes decrypted with the
 * `kid` held to acsTransID (their IVs are whatever the ACS chose and are never judged).
 */
export class Channel {
  /**
   * Use deriveChannel (or importChannel for a known key); the constructor takes imported keys.
   * @param {string} acsTransID
   * @param {{cbc: object, gcmToACS: object, gcmToSDK: object}} keys
   */
  constructor(acsTransID, keys) {
    this.acsTransID = acsTransID;
    this.keys = keys;
    Object.freeze(this);
  }

  /**
   * Encrypts CReq bytes: `{"alg":"dir","enc":…,"kid":acsTransID}` (the Swift SDK's header bytes), counter IV.
   * @param {Uint8Array} plaintext
   * @param {number} counter sdkCounterStoA.
   * @param {string} [encryption] A128CBC-HS256 (whole key) or A128GCM (first half).
   * @returns {Promise<string>} The compact JWE.
   */
  async encrypt(plaintext, counter, encryption = A128CBC_HS256) {
    const key = encryption === A128CBC_HS256 ? this.keys.cbc : encryption === A128GCM ? this.keys.gcmToACS : undefined;
    if (!key) throw new ChannelError('encryption', `a CReq cannot be encrypted with "${encryption}"`);
    if (plaintext.length > MAX_COMPACT_BYTES / 2) throw new ChannelError('tooLarge', 'the CReq is too large');
    const header = base64urlEncode(utf8(serializeStringMembers([['alg', 'dir'], ['enc', encryption], ['kid', this.acsTransID]])));
    const iv = requestIV(counter, encryption);
    const { ciphertext, tag } = await sealContent(key, iv, utf8(header), plaintext);
    return [header, '', base64urlEncode(iv), base64urlEncode(ciphertext), base64urlEncode(tag)].join('.');
  }

  /**
   * Decrypts a CRes (A128CBC-HS256 with the whole key, A128GCM with the second half).
   * @param {string} compact
   * @returns {Promise<{header: object, encryption: string, plaintext: Uint8Array}>}
   */
  decrypt(compact) {
    return decryptDirect(compact, { keys: { [A128CBC_HS256]: this.keys.cbc, [A128GCM]: this.keys.gcmToSDK }, keyID: this.acsTransID });
  }

  /**
   * Decrypts a CRes and parses it as one JSON object, strictly (no member twice, depth ≤ 16).
   * @param {string} compact
   * @returns {Promise<object>}
   * @throws {ChannelError} `json` when the plaintext is not one JSON object; others from decrypt.
   */
  async decryptJSON(compact) {
    const { plaintext } = await this.decrypt(compact);
    let value;
    try {
      value = parseStrictJSON(decodeUTF8(plaintext, 'the CRes'), { maxDepth: MAX_CRES_DEPTH, maxBytes: MAX_COMPACT_BYTES, what: 'the CRes' });
    } catch (error) {
      throw new ChannelError('json', error.message);
    } finally {
      plaintext.fill(0);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ChannelError('json', 'the CRes is not a JSON object');
    return value;
  }
}

/**
 * A channel over known derived key bytes (32, the KDF's output); the bytes are zeroed.
 * @param {Uint8Array} derived
 * @param {string} acsTransID
 * @returns {Promise<Channel>}
 */
export async function importChannel(derived, acsTransID) {
  if (!(derived instanceof Uint8Array) || derived.length !== 32) throw new ChannelError('invalidKey', 'the channel key is not 32 bytes');
  try {
    return new Channel(acsTransID, {
      cbc: await importContentKey(derived.slice(), A128CBC_HS256),
      gcmToACS: await importContentKey(derived.slice(0, 16), A128GCM),
      gcmToSDK: await importContentKey(derived.slice(16, 32), A128GCM),
    });
  } finally {
    zero(derived);
  }
}

/**
 * Derives the channel (ChannelKeys.swift): Z = ECDH(SDK private key, ACS ephemeral public key), then the Concat KDF
 * with AlgorithmID and PartyUInfo empty, PartyVInfo = the SDK reference number (UTF-8), 256 bits. Z and the derived
 * bytes are zeroed once the keys are imported.
 * @param {{privateKey: CryptoKey, acsPublicJwk: object, sdkReferenceNumber: string, acsTransID: string}} parameters
 * @returns {Promise<Channel>}
 */
export async function deriveChannel({ privateKey, acsPublicJwk, sdkReferenceNumber, acsTransID }) {
  if (typeof sdkReferenceNumber !== 'string' || sdkReferenceNumber.length === 0 || sdkReferenceNumber.length > 64) {
    throw new ChannelError('invalidKey', 'the SDK reference number is missing or too long');
  }
  if (typeof acsTransID !== 'string' || acsTransID.length === 0 || acsTransID.length > 64) {
    throw new ChannelError('invalidKey', 'the acsTransID is missing or too long');
  }
  const z = await sharedSecret(privateKey, await importPublicJwk(acsPublicJwk));
  try {
    return await importChannel(await concatKDF(z, { partyVInfo: utf8(sdkReferenceNumber) }), acsTransID);
  } finally {
    zero(z);
  }
}
