// For the merchant's page: makes the challenge frame and talks to it by postMessage only, to and from the frame's
// origin. The page never sees what the cardholder types: the frame draws the challenge and encrypts the answers.
//
//   import { openChallengeFrame } from 'https://sdk-server.example/client/v1/merchant.js';
//   const challenge = openChallengeFrame({
//     container: document.getElementById('challenge'),
//     clientURL, clientToken,            // from the merchant backend's POST /merchant/v1/sessions
//     onEvent: (event) => { if (event.event === 'finished') challenge.close(); },
//   });
//
// In an app's web view (the Shell variant: a session created with `"host": "shell"`), the `openApp` event carries the
// bank's app link (`url`): the page hands it to the app (WebKit's script message handler, Android's JavaScript
// interface), which opens it and, once the cardholder is back, calls `challenge.appResult('returned')` (or `'opened'`,
// `'failed'`) through the page (docs/split-sdk.md, "Web-view hosts").

/** What the frame posts (`type`), and the events it names. */
export const EVENT_TYPE = 'threeds-split-event';
/** What the page posts to start the frame. */
export const START_TYPE = 'threeds-split-start';
/** What the page posts when its host has tried to open the bank's app (the Shell variant). */
export const APP_TYPE = 'threeds-split-app';

/**
 * Opens the challenge frame in `container` and starts it with the session's client token once it says `ready`.
 * Messages from any other origin or window are ignored; the token is posted to the frame's origin only, once.
 * @param {object} options
 * @param {HTMLElement} options.container Where the frame goes.
 * @param {string} options.clientURL The frame page (`clientURL` of the session; HTTPS, no token in it).
 * @param {string} options.clientToken The session's client token (sent by postMessage, never in a URL).
 * @param {string} [options.locale] The cardholder's language (BCP 47), when the page knows it.
 * @param {(event: {event: string, outcome?: object, reason?: string, url?: string}) => void} [options.onEvent] Called
 *   for each event of the frame: `ready`, `started`, `challengeShown`, `finished` (with `outcome`), `failed` (with
 *   `reason`), `openApp` (with `url`, the Shell variant).
 * @param {string} [options.title] The frame's accessible title.
 * @param {boolean} [options.appHost] Whether the page runs in an app's web view (the Shell variant): every event is
 *   also posted to the app, as JSON text (WebKit's `window.webkit.messageHandlers.threedsHost`, Android's
 *   `window.ThreeDSHost`), and the app answers an `openApp` event by calling `window.threedsHost.appResult(result)`.
 * @param {Window} [options.window] The page's window (tests).
 * @returns {{frame: HTMLIFrameElement, appResult: (result: string) => void, close: () => void}}
 */
export function openChallengeFrame({ container, clientURL, clientToken, locale, onEvent = () => {}, title = 'Payment authentication',
  appHost = false, window: page = globalThis }) {
  const url = new URL(clientURL, page.location?.href);
  const frameOrigin = url.origin;
  const frame = page.document.createElement('iframe');
  frame.src = url.href;
  frame.title = title;
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  frame.setAttribute('referrerpolicy', 'no-referrer');
  frame.style.border = '0';
  frame.style.width = '100%';
  frame.style.minHeight = '480px';
  let started = false;
  const listener = (message) => {
    if (message.origin !== frameOrigin || message.source !== frame.contentWindow) return;
    const data = message.data;
    if (data === null || typeof data !== 'object' || data.type !== EVENT_TYPE || typeof data.event !== 'string') return;
    if (data.event === 'ready' && !started) {
      started = true;
      const start = { type: START_TYPE, clientToken };
      if (locale) start.locale = locale;
      frame.contentWindow.postMessage(start, frameOrigin);
    }
    const event = { event: data.event };
    if (data.outcome !== undefined) event.outcome = data.outcome;
    if (typeof data.reason === 'string') event.reason = data.reason;
    if (data.event === 'openApp' && typeof data.url === 'string' && data.url.startsWith('https://')) event.url = data.url;
    onEvent(event);
    if (appHost) postToAppHost(event, page);
  };
  page.addEventListener('message', listener);
  container.appendChild(frame);
  const appResult = (result) => {
    if (['returned', 'opened', 'failed'].includes(result)) frame.contentWindow?.postMessage({ type: APP_TYPE, result }, frameOrigin);
  };
  if (appHost) page.threedsHost = Object.freeze({ appResult });
  return {
    frame,
    /**
     * Tells the frame what became of opening the bank's app after an `openApp` event (the Shell variant's host).
     * @param {'returned' | 'opened' | 'failed'} result
     */
    appResult,
    close() {
      page.removeEventListener('message', listener);
      frame.remove();
    },
  };
}

/**
 * Posts a frame event to the app whose web view shows this page, as JSON text: WebKit's script message handler
 * `threedsHost`, or Android's JavaScript interface `ThreeDSHost`.
 * @param {object} event The event as `onEvent` got it.
 * @param {Window} [page]
 * @returns {boolean} Whether an app took it.
 */
export function postToAppHost(event, page = globalThis) {
  const text = JSON.stringify(event);
  const webkit = page.webkit?.messageHandlers?.threedsHost;
  if (webkit && typeof webkit.postMessage === 'function') {
    webkit.postMessage(text);
    return true;
  }
  const android = page.ThreeDSHost;
  if (android && typeof android.postMessage === 'function') {
    android.postMessage(text);
    return true;
  }
  return false;
}
