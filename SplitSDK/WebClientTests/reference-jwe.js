// An independent `dir` JWE for the tests, on node:crypto (OpenSSL) rather than WebCrypto, so that the client's
// channel is checked against a second implementation of RFC 7516/7518, not against itself.
import { createCipheriv, createDecipheriv, createHmac } from 'node:crypto';

const b64u = (bytes) => Buffer.from(bytes).toString('base64url');

/**
 * Encrypts `plaintext` as a compact `dir` JWE with the given header object, key and IV.
 * @param {{header: object, key: Buffer, iv: Buffer, plaintext: Buffer}} input
 * @returns {string}
 */
export function referenceEncrypt({ header, key, iv, plaintext }) {
  const encodedHeader = b64u(Buffer.from(JSON.stringify(header)));
  const aad = Buffer.from(encodedHeader, 'ascii');
  let ciphertext;
  let tag;
  if (header.enc === 'A128GCM') {
    const cipher = createCipheriv('aes-128-gcm', key, iv);
    cipher.setAAD(aad);
    ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    tag = cipher.getAuthTag();
  } else {
    const cipher = createCipheriv('aes-128-cbc', key.subarray(16, 32), iv);
    ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    tag = cbcTag(key, aad, iv, ciphertext);
  }
  return [encodedHeader, '', b64u(iv), b64u(ciphertext), b64u(tag)].join('.');
}

/**
 * Decrypts a compact `dir` JWE (no header checks: the tests look at the header themselves).
 * @param {string} compact
 * @param {Buffer} key
 * @returns {{header: object, headerText: string, iv: Buffer, plaintext: Buffer}}
 */
export function referenceDecrypt(compact, key) {
  const [encodedHeader, , ivPart, ciphertextPart, tagPart] = compact.split('.');
  const headerText = Buffer.from(encodedHeader, 'base64url').toString('utf8');
  const header = JSON.parse(headerText);
  const aad = Buffer.from(encodedHeader, 'ascii');
  const iv = Buffer.from(ivPart, 'base64url');
  const ciphertext = Buffer.from(ciphertextPart, 'base64url');
  const tag = Buffer.from(tagPart, 'base64url');
  let plaintext;
  if (header.enc === 'A128GCM') {
    const decipher = createDecipheriv('aes-128-gcm', key, iv);
    decipher.setAAD(aad);
    decipher.setAuthTag(tag);
    plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } else {
    if (!cbcTag(key, aad, iv, ciphertext).equals(tag)) throw new Error('reference: tag mismatch');
    const decipher = createDecipheriv('aes-128-cbc', key.subarray(16, 32), iv);
    plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  }
  return { header, headerText, iv, plaintext };
}

function cbcTag(key, aad, iv, ciphertext) {
  const length = Buffer.alloc(8);
  length.writeBigUInt64BE(BigInt(aad.length) * 8n);
  return createHmac('sha256', key.subarray(0, 16)).update(Buffer.concat([aad, iv, ciphertext, length])).digest().subarray(0, 16);
}
