// What the server serves: the frame page keeps to its CSP (no inline script, no inline style, no event-handler
// attribute), the modules write no HTML and no inline style, and the leaking build is not among the files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

const folder = new URL('../Sources/ThreeDS2SplitServer/WebClient/', import.meta.url);
const files = readdirSync(folder);
const read = (name) => readFileSync(new URL(name, folder), 'utf8');

test('frame.html has no inline script or style and loads only its own files', () => {
  const html = read('frame.html');
  for (const script of html.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? []) {
    assert.match(script, /^<script type="module" src="[\w.-]+\.js"><\/script>$/, script);
  }
  assert.doesNotMatch(html, /<style|\sstyle=|\son\w+=|javascript:/i);
  for (const [, url] of html.matchAll(/(?:src|href)="([^"]+)"/g)) assert.match(url, /^[\w.-]+\.(js|css)$/);
});

test('the modules build the DOM without HTML strings or inline style attributes; the leaking build is not served', () => {
  for (const name of files.filter((file) => file.endsWith('.js'))) {
    const source = read(name);
    assert.doesNotMatch(source, /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function|setAttribute\('style'/, name);
    assert.doesNotMatch(source, /values:\s*Object\.fromEntries\(this\.held\)/, `${name} looks like the leaking build`);
  }
  assert.deepEqual(files.filter((file) => /leak/i.test(file)), []);
  assert.deepEqual(files.sort(), ['channel.js', 'client.js', 'device.js', 'encoding.js', 'frame.css', 'frame.html', 'merchant.js', 'rules.js', 'steps.js', 'ui.js']);
});
