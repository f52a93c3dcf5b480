// The answer rules the server sends with each entry box of a screen and with each CReq member to fill (the core's
// form state, docs/split-sdk.md: `maxLength` characters, `maxBytes` UTF-8 bytes, the note `tooLongNote`), checked
// in the frame on values the server never sees. An empty value is never filled in (the answer is then `submitEmpty`).
// An unknown rule is refused rather than ignored: the client checks what the server asks, or stops.

/** The longest entry the SDK sends, in UTF-8 bytes (ChallengeFormState.maxEntryLength, `challengeDataEntry` 45). */
export const MAX_ENTRY_BYTES = 45;

const KNOWN_RULES = new Set(['maxLength', 'maxBytes', 'tooLongNote']);
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
 * @param {{maxLength?: number, maxBytes?: number, tooLongNote?: string}} rules
 * @param {{allowEmpty?: boolean}} [options] `allowEmpty` when checking a screen's boxes before the answer (an empty
 *   box is the form's business there); a value to fill is never empty.
 * @returns {{rule: string, limit?: number, name?: string} | null} The first rule the value breaks (`empty`,
 *   `maxBytes`, `maxLength`, or `unknownRule` with its `name`), or null when it keeps them all.
 */
export function checkEntry(value, rules, { allowEmpty = false } = {}) {
  if (typeof value !== 'string') return { rule: 'notText' };
  if (rules === null || typeof rules !== 'object') return { rule: 'unknownRule', name: String(rules) };
  const unknown = Object.keys(rules).find((name) => !KNOWN_RULES.has(name));
  if (unknown !== undefined) return { rule: 'unknownRule', name: unknown };
  if (value.length === 0) return allowEmpty ? null : { rule: 'empty' };
  const maxBytes = Math.min(Number.isInteger(rules.maxBytes) ? rules.maxBytes : MAX_ENTRY_BYTES, MAX_ENTRY_BYTES);
  if (new TextEncoder().encode(value).length > maxBytes) return { rule: 'maxBytes', limit: maxBytes };
  if (Number.isInteger(rules.maxLength) && characterCount(value) > rules.maxLength) {
    return { rule: 'maxLength', limit: rules.maxLength };
  }
  return null;
}
