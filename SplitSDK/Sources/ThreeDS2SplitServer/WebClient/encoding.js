// Encodings the channel needs, held to the same strictness as the Swift SDK's ThreeDS2JOSE (Base64.swift,
// JSONParser.swift, JSONValue+Serialization.swift): one encoded text maps to one value, or it is refused.

/** An encoding failure; `message` names what was wrong and where. */
export class EncodingError extends Error {
  /**
   * @param {string} code A short code: `base64`, `utf8`, `json`, `tooLarge`.
   * @param {string} message What was wrong.
   */
  constructor(code, message) {
    super(message);
    this.name = 'EncodingError';
    this.code = code;
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUES = new Map([...ALPHABET].map((c, i) => [c, i]));

/**
 * Encodes bytes as base64url without padding (RFC 4648 §5, as JOSE uses it).
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function base64urlEncode(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let j = 0; j < chars; j += 1) out += ALPHABET[(n >> (18 - 6 * j)) & 63];
  }
  return out;
}

/**
 * Decodes canonical base64url: no padding, no `+` `/` or whitespace, length mod 4 ≠ 1, unused bits zero.
 * @param {string} text
 * @param {string} what What the text is, for the error message.
 * @returns {Uint8Array}
 * @throws {EncodingError} `base64` naming `what` when the text is not canonical base64url.
 */
export function base64urlDecode(text, what) {
  if (typeof text !== 'string' || text.length % 4 === 1) {
    throw new EncodingError('base64', `${what} has an impossible base64url length`);
  }
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let buffer = 0;
  let bits = 0;
  let at = 0;
  for (let i = 0; i < text.length; i += 1) {
    const value = VALUES.get(text[i]);
    if (value === undefined) throw new EncodingError('base64', `${what} has a character outside base64url at ${i}`);
    buffer = ((buffer << 6) | value) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at] = (buffer >> bits) & 0xff;
      at += 1;
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0) throw new EncodingError('base64', `${what} has non-zero unused bits`);
  return out;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/**
 * UTF-8 bytes of a string.
 * @param {string} text
 * @returns {Uint8Array}
 */
export function utf8(text) {
  return encoder.encode(text);
}

/**
 * Decodes UTF-8, refusing invalid sequences (never replacing them).
 * @param {Uint8Array} bytes
 * @param {string} what
 * @returns {string}
 * @throws {EncodingError} `utf8`.
 */
export function decodeUTF8(bytes, what) {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    throw new EncodingError('utf8', `${what} is not valid UTF-8`);
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Parses one JSON text strictly (RFC 8259 as JSONParser.swift reads it): no member named twice in an object, no
 * unpaired surrogate, no nesting deeper than `maxDepth`, nothing after the value, at most `maxBytes` of UTF-8.
 * @param {string} text
 * @param {{maxDepth?: number, maxBytes?: number, what?: string}} [limits]
 * @returns {any}
 * @throws {EncodingError} `json` or `tooLarge`, with the offset for a duplicate member.
 */
export function parseStrictJSON(text, { maxDepth = 32, maxBytes = 1 << 20, what = 'JSON text' } = {}) {
  if (text.length > maxBytes || utf8(text).length > maxBytes) {
    throw new EncodingError('tooLarge', `${what} exceeds ${maxBytes} bytes`);
  }
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new EncodingError('json', `${what} is not JSON: ${error.message}`);
  }
  scanMembers(text, maxDepth, what);
  return value;
}

// Walks a text JSON.parse accepted: each object's member names must be distinct, strings well formed, depth bounded.
function scanMembers(text, maxDepth, what) {
  const stack = []; // a Set of names per open object, null per open array
  let expectName = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '{' || c === '[') {
      stack.push(c === '{' ? new Set() : null);
      if (stack.length > maxDepth) throw new EncodingError('json', `${what} nests deeper than ${maxDepth}`);
      expectName = c === '{';
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectName = false;
    } else if (c === ',') {
      expectName = stack.at(-1) instanceof Set;
    } else if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const string = JSON.parse(text.slice(i, end + 1));
      if (LONE_SURROGATE.test(string)) throw new EncodingError('json', `${what} has an unpaired surrogate at ${i}`);
      if (expectName) {
        const names = stack.at(-1);
        if (names.has(string)) throw new EncodingError('json', `${what} names member "${string}" twice (at ${i})`);
        names.add(string);
        expectName = false;
      }
      i = end;
    }
  }
}

/**
 * Serializes a flat object of string members exactly as the Swift SDK does (JSONValue+Serialization.swift): no
 * whitespace, members in the given order, only `"` `\` and control characters escaped (`\n` `\r` `\t`, others
 * `\u00xx`), `/` and non-ASCII written as they are. Used for the JWE protected header, whose bytes are the AAD.
 * @param {Array<[string, string]>} members
 * @returns {string}
 */
export function serializeStringMembers(members) {
  const quote = (s) =>
    `"${s.replace(/["\\\u0000-\u001f]/g, (c) => {
      if (c === '"' || c === '\\') return `\\${c}`;
      if (c === '\n') return '\\n';
      if (c === '\r') return '\\r';
      if (c === '\t') return '\\t';
      return `\\u00${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
    })}"`;
  return `{${members.map(([name, value]) => `${quote(name)}:${quote(value)}`).join(',')}}`;
}
