// The answer rules (rules.js) and the browser's device data (device.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { characterCount, checkEntry } from '../Sources/ThreeDS2SplitServer/WebClient/rules.js';
import { browserDeviceData, localeTag, screenResolution, timeZoneOffset } from '../Sources/ThreeDS2SplitServer/WebClient/device.js';

test('entry rules: length in characters as Swift counts them, UTF-8 bytes within 45, never empty, nothing unknown', () => {
  assert.equal(characterCount('e\u0301👍🏽'), 2);
  assert.equal(checkEntry('123456', { maxLength: 6, maxBytes: 45, tooLongNote: 'n' }), null);
  assert.deepEqual(checkEntry('1234567', { maxLength: 6 }), { rule: 'maxLength', limit: 6 });
  assert.equal(checkEntry('e\u0301e\u0301', { maxLength: 2 }), null);
  assert.deepEqual(checkEntry('', {}), { rule: 'empty' });
  assert.equal(checkEntry('', {}, { allowEmpty: true }), null);
  assert.deepEqual(checkEntry('é'.repeat(23), {}), { rule: 'maxBytes', limit: 45 });
  assert.deepEqual(checkEntry('a'.repeat(46), { maxBytes: 100 }), { rule: 'maxBytes', limit: 45 });
  assert.deepEqual(checkEntry('abc', { maxBytes: 2 }), { rule: 'maxBytes', limit: 2 });
  assert.deepEqual(checkEntry('1', { digitsOnly: true }), { rule: 'unknownRule', name: 'digitsOnly' });
  assert.deepEqual(checkEntry(7, {}), { rule: 'notText' });
});

test('device data: C005 lang-COUNTRY, C006 minutes east of UTC, C008 device pixels; nothing else', () => {
  assert.equal(localeTag('en-GB'), 'en-GB');
  assert.equal(localeTag('ar-001'), 'ar');
  assert.equal(localeTag('zh-Hant-TW'), 'zh-TW');
  assert.equal(localeTag('not a tag!'), undefined);
  const cet = { getTimezoneOffset: () => -60 };
  assert.equal(timeZoneOffset(cet), '60');
  assert.equal(timeZoneOffset({ getTimezoneOffset: () => 300 }), '-300');
  assert.equal(timeZoneOffset({ getTimezoneOffset: () => 0 }), '0');
  assert.equal(screenResolution({ width: 390, height: 844 }, 3), '1170x2532');
  assert.equal(screenResolution(undefined, 2), undefined);
  const env = { navigator: { language: 'fr-FR', userAgent: 'X', hardwareConcurrency: 8 }, screen: { width: 1280, height: 800 }, devicePixelRatio: 1 };
  assert.deepEqual(browserDeviceData(env, cet), { C005: 'fr-FR', C006: '60', C008: '1280x800' });
});
