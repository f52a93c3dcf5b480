// The answer rules the server sends with each entry box of a screen and with each CReq member to fill (the core's
// form state, docs/split-sdk.md): for a code, `maxLength` characters, `maxBytes` UTF-8 bytes and the note
// `tooLongNote`; for the chosen options of a select screen, `choose` (`one` or `some`) among `keys`; for an answer to
// a consent question, `yesNo`; for an HTML page's form data, `htmlForm` with `allowEmpty`. They are checked in the
// frame on values the server never sees. An empty code is never filled in (the answer is then `submitEmpty`). An
// unknown rule is refused rather than ignored: the client checks what the server asks, or stops.

/** The longest entry the SDK sends, in UTF-8 bytes (ChallengeFormState.maxEntryLength, `challengeDataEntry` 45). */
export const MAX_ENTRY_BYTES = 45;
/** The longest HTML form data the SDK sends, in UTF-8 bytes (`challengeHTMLDataEntry`, 256). */
export const MAX_HTML_BYTES = 256;

const KNOWN_RULES = new Set(['maxLength', 'maxBytes', 'tooLongNote', 'choose', 'keys', 'chooseNote', 'yesNo', 'allowEmpty', 'htmlForm', 'omitIfEmpty']);
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
  if (rules.yesNo === true) return value === 'Y' || value === 'N' ? null : { rule: 'yesNo' };
  if (rules.choose !== undefined) return checkChoice(value, rules);
  if (value.length === 0) return allowEmpty || rules.allowEmpty === true || rules.omitIfEmpty === true ? null : { rule: 'empty' };
  const cap = rules.htmlForm === true ? MAX_HTML_BYTES : MAX_ENTRY_BYTES;
  const maxBytes = Math.min(Number.isInteger(rules.maxBytes) ? rules.maxBytes : cap, cap);
  if (new TextEncoder().encode(value).length > maxBytes) return { rule: 'maxBytes', limit: maxBytes };
  if (Number.isInteger(rules.maxLength) && characterCount(value) > rules.maxLength) {
    return { rule: 'maxLength', limit: rules.maxLength };
  }
  return null;
}

/**
 * Checks the chosen options of a select screen: keys of the screen (`keys`) joined by commas in the screen's order,
 * none twice, exactly one for `choose: 'one'`, at least one for `choose: 'some'`, at most `maxBytes` joined.
 * @param {string} value The chosen keys, comma-separated.
 * @param {{choose: string, keys: string[], maxBytes?: number}} rules
 * @returns {{rule: string, limit?: number, name?: string} | null}
 */
export function checkChoice(value, rules) {
  if (!['one', 'some'].includes(rules.choose) || !Array.isArray(rules.keys) || !rules.keys.every((key) => typeof key === 'string' && key.length > 0 && !key.includes(','))) {
    return { rule: 'unknownRule', name: 'choose' };
  }
  const chosen = value.length === 0 ? [] : value.split(',');
  if (chosen.length === 0) return { rule: 'choose' };
  if (rules.choose === 'one' && chosen.length !== 1) return { rule: 'choose' };
  let last = -1;
  for (const key of chosen) {
    const index = rules.keys.indexOf(key);
    if (index <= last) return { rule: 'choose' }; // unknown, twice, or out of the screen's order
    last = index;
  }
  const maxBytes = Math.min(Number.isInteger(rules.maxBytes) ? rules.maxBytes : MAX_ENTRY_BYTES, MAX_ENTRY_BYTES);
  if (new TextEncoder().encode(value).length > maxBytes) return { rule: 'maxBytes', limit: maxBytes };
  return null;
}
