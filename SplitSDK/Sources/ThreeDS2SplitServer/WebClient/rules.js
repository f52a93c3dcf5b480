// The answer rules the server sends with a screen and with each CReq to fill (the SDK's form state: entry length in
// characters and in UTF-8 bytes, the numeric keyboard, whether an empty answer may be sent), checked in the frame on
// values the server never sees. An unknown rule is refused rather than ignored: the client checks what the server
// asks, or stops.

/** The longest entry the SDK sends, in UTF-8 bytes (ChallengeFormState.maxEntryLength, `challengeDataEntry` 45). */
export const MAX_ENTRY_BYTES = 45;

const KNOWN_RULES = new Set(['maxLength', 'maxBytes', 'digitsOnly', 'required']);
const segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null;

/**
 * The length of a text in characters as the SDK counts them (Swift's `String.count`: grapheme clusters).
 * @param {string} text
 * @returns {number}
 */
export function characterCount(text) {
  if (segmenter) {
    let count = 0;
    for (const _ of segmenter.segment(text)) count += 1;
    return count;
  }
  return [...text].length;
}

/**
 * Checks one entry against its rules.
 * @param {string} value What the cardholder entered.
 * @param {{maxLength?: number, maxBytes?: number, digitsOnly?: boolean, required?: boolean}} rules
 * @returns {{rule: string, limit?: number} | null} The first rule the value breaks, or null when it keeps them all.
 *   `rule` is `unknownRule` (with `name`) for a rule this client does not know.
 */
export function checkEntry(value, rules) {
  if (typeof value !== 'string') return { rule: 'notText' };
  if (rules === null || typeof rules !== 'object') return { rule: 'unknownRule', name: String(rules) };
  const unknown = Object.keys(rules).find((name) => !KNOWN_RULES.has(name));
  if (unknown !== undefined) return { rule: 'unknownRule', name: unknown };
  const maxBytes = Math.min(rules.maxBytes ?? MAX_ENTRY_BYTES, MAX_ENTRY_BYTES);
  if (new TextEncoder().encode(value).length > maxBytes) return { rule: 'maxBytes', limit: maxBytes };
  if (Number.isInteger(rules.maxLength) && characterCount(value) > rules.maxLength) {
    return { rule: 'maxLength', limit: rules.maxLength };
  }
  if (rules.required === true && value.length === 0) return { rule: 'required' };
  if (rules.digitsOnly === true && !/^[0-9]*$/.test(value)) return { rule: 'digitsOnly' };
  return null;
}
