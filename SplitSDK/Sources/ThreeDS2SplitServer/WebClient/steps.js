// The client's side of the Split-SDK Server's client interface (docs/split-sdk.md): start, then one step after
// another until `finished`. No DOM here: the view draws, this module holds the keys and the entries. The token goes
// in the Authorization header only; an entry value leaves the frame only inside the CReq's JWE.

import { ChannelError, deriveChannel, generateEphemeralKeyPair, requireWebCrypto } from './channel.js';
import { parseStrictJSON, utf8 } from './encoding.js';
import { checkEntry } from './rules.js';

/** How long the client waits for any answer of the server before it gives up (the server long-polls for 25 s). */
export const SERVER_TIMEOUT_MS = 30_000;
/** The largest answer of the server read, in bytes. */
export const MAX_ANSWER_BYTES = 1 << 20;
/** The most steps one challenge may take (a server that answers `wait` at once forever is stopped). */
export const MAX_STEPS = 2_000;

/** A browser's host: it opens no app. */
export const BROWSER_HOST = Object.freeze({ open: async () => 'failed' });

/** The answer action of each result of opening the bank's app. */
const APP_RESULT_ACTIONS = Object.freeze({ returned: 'appReturned', opened: 'appOpened', failed: 'appOpenFailed' });

/** The counter of an `encrypt` step (`"001"`, or 1) as a number 0…255, or null. */
function counterValue(counter) {
  if (typeof counter === 'string' && /^[0-9]{3}$/.test(counter)) return Number(counter) <= 255 ? Number(counter) : null;
  return Number.isInteger(counter) && counter >= 0 && counter <= 255 ? counter : null;
}

/** A failure that ends the session: the view shows an error and the merchant's page gets `failed` with `reason`. */
export class SessionError extends Error {
  /**
   * @param {string} reason A short code: `unavailable`, `timeout`, `server`, `protocol`.
   * @param {string} message
   */
  constructor(reason, message) {
    super(message);
    this.name = 'SessionError';
    this.reason = reason;
  }
}

/**
 * One challenge of the web client.
 *
 * The view is an object with `showProgress()`, `present(screen, form, note)` (resolves with the cardholder's
 * `{action, values}`, `values` by form element id, and clears its own inputs), `showFinished(outcome)` and
 * `showError(reason)`.
 */
export class SplitSession {
  /**
   * @param {object} options
   * @param {object} options.view The view (ui.js's ChallengeView, or a test's).
   * @param {(event: object) => void} options.emit Posts an event to the merchant's page.
   * @param {string} [options.baseURL] The client interface, `/client/v1/` of the frame's origin by default.
   * @param {typeof fetch} [options.fetch]
   * @param {{setTimeout: Function, clearTimeout: Function}} [options.clock] Timers (a test clock in tests).
   * @param {object} [options.env] The frame's window, for the secure context and WebCrypto check.
   * @param {{open: (url: string) => Promise<string>}} [options.host] What hosts the frame: in an app's web view (the
   *   Shell variant) it opens the bank's app and resolves with `returned`, `opened` or `failed`; a browser opens
   *   none (`failed`, and the server never offers it one).
   */
  constructor({ view, emit, baseURL = '/client/v1/', fetch = globalThis.fetch.bind(globalThis), clock = globalThis, env = globalThis,
    host = BROWSER_HOST }) {
    Object.assign(this, { view, emit, baseURL, fetch, clock, env, host });
    this.token = undefined;
    this.channel = undefined;
    this.held = new Map();
    this.lastPresent = undefined;
    this.shown = false;
  }

  /**
   * Runs the challenge: refuses to start without WebCrypto in a secure context, makes the SDK ephemeral key pair,
   * exchanges the merchant's token at `start`, then follows the steps. Never throws: a failure is shown and emitted.
   * @param {string} merchantToken The `clientToken` the merchant's page handed over.
   * @param {object} deviceInfo The browser's device data (device.js).
   * @returns {Promise<object | null>} The outcome of `finished`, or null after a failure.
   */
  async run(merchantToken, deviceInfo) {
    try {
      try {
        requireWebCrypto(this.env);
      } catch (error) {
        throw new SessionError('unavailable', error.message);
      }
      const { privateKey, publicJwk } = await generateEphemeralKeyPair();
      this.privateKey = privateKey;
      this.token = merchantToken;
      const started = await this.post('start', { sdkEphemPubKey: publicJwk, deviceInfo });
      if (typeof started.clientToken !== 'string' || started.clientToken.length === 0) {
        throw new SessionError('protocol', 'start answered without a client token');
      }
      this.token = started.clientToken;
      this.view.useTexts?.(started.texts);
      this.emit({ event: 'started' });
      return await this.follow(started.step);
    } catch (error) {
      const reason = error instanceof SessionError ? error.reason : 'protocol';
      this.forgetKeys();
      this.view.showError(reason);
      this.emit({ event: 'failed', reason: `${reason}: ${error.message}` });
      return null;
    }
  }

  async follow(first) {
    let step = first;
    for (let count = 0; count < MAX_STEPS; count += 1) {
      if (step === null || typeof step !== 'object' || typeof step.step !== 'string') {
        throw new SessionError('protocol', 'the server answered without a step');
      }
      if (step.step === 'finished') return this.finish(step);
      step = await this.handle(step);
    }
    throw new SessionError('protocol', `no end after ${MAX_STEPS} steps`);
  }

  /**
   * Does one step and returns the server's next.
   * @param {object} step
   * @returns {Promise<object>}
   */
  async handle(step) {
    switch (step.step) {
      case 'wait':
        return this.post('next', {});
      case 'progress':
        this.view.showProgress();
        return this.post('next', {});
      case 'keys':
        await this.deriveKeys(step);
        return this.post('next', {});
      case 'present':
        return this.present(step);
      case 'encrypt':
        return this.encrypt(step);
      case 'decrypt':
        return this.decrypt(step);
      case 'openApp':
        return this.openApp(step);
      default:
        throw new SessionError('protocol', `unknown step "${step.step}"`);
    }
  }

  async deriveKeys(step) {
    try {
      this.channel = await deriveChannel({
        privateKey: this.privateKey, acsPublicJwk: step.acsEphemPubKey,
        sdkReferenceNumber: step.sdkReferenceNumber, acsTransID: step.acsTransID,
      });
    } catch (error) {
      throw new SessionError('protocol', `the channel keys: ${error.message}`);
    }
  }

  /**
   * Draws a screen and posts the cardholder's action (never an entry, a choice or a consent answer: those are held
   * for the CReq's `fill`). A submit whose entries break their box's rules is not posted: the screen is drawn again
   * with the note.
   */
  async present(step) {
    this.lastPresent = step;
    if (!this.shown) {
      this.shown = true;
      this.emit({ event: 'challengeShown' });
    }
    let note = null;
    const watcher = this.watchEnd();
    try {
      for (;;) {
        const raced = await Promise.race([
          this.view.present(step.screen, step.form, note).then((answer) => ({ answer })),
          watcher.ended.then(() => ({ ended: true })),
        ]);
        // The server ended the challenge while the screen was up (its overall timer): take its `finished` step.
        if (raced.ended) return this.post('next', {});
        const { answer } = raced;
        this.hold(answer.values);
        note = answer.action === 'submit' ? this.checkScreen(step.form) : null;
        if (!note) {
          watcher.stop();
          return this.post('answer', { screen: step.screen, action: answer.action });
        }
        this.clearEntries();
      }
    } finally {
      watcher.stop();
    }
  }

  /**
   * While a screen is up, asks the server (`status`, a long-poll that hands out no step) whether the challenge has
   * ended, so that an end the cardholder did not cause (the overall timer on the server) is shown at once. `ended`
   * resolves when the server says so; it never resolves once stopped or when the server cannot be asked (the next
   * action then learns of the end).
   * @returns {{ended: Promise<void>, stop: () => void}}
   */
  watchEnd() {
    let stopped = false;
    const never = new Promise(() => {});
    const ended = (async () => {
      while (!stopped) {
        let answer;
        try {
          answer = await this.post('status', {});
        } catch (error) {
          // The client's own bound on a long-poll is no failure: ask again; anything else ends the watch.
          if (error instanceof SessionError && error.reason === 'timeout') continue;
          return never;
        }
        if (stopped) return never;
        if (answer?.ended === true) return undefined;
      }
      return never;
    })();
    return { ended, stop: () => { stopped = true; } };
  }

  /** Keeps the entries of one answer (by form element id), replacing the previous ones. */
  hold(values) {
    this.clearEntries();
    for (const [id, value] of Object.entries(values ?? {})) if (typeof value === 'string') this.held.set(id, value);
  }

  /** The first entry box of `form` whose value breaks its rules, as a note for the view; null when none does. */
  checkScreen(form) {
    for (const element of Array.isArray(form?.elements) ? form.elements : []) {
      if (element?.kind !== 'entry') continue;
      const broken = checkEntry(this.held.get(element.id) ?? '', element.rules ?? {}, { allowEmpty: true });
      if (broken?.rule === 'unknownRule') throw new SessionError('protocol', `unknown answer rule "${broken.name}"`);
      if (broken) return { ...broken, element: element.id, text: element.rules?.tooLongNote };
    }
    return null;
  }

  /** The first `fill` entry whose held value breaks its rules, as a note; null when all keep them. */
  checkFill(fill) {
    for (const { member, from, rules } of fill) {
      if (typeof member !== 'string' || typeof from !== 'string') throw new SessionError('protocol', 'a fill entry without member or from');
      const broken = checkEntry(this.held.get(from) ?? '', rules ?? {});
      if (broken?.rule === 'unknownRule') throw new SessionError('protocol', `unknown answer rule "${broken.name}"`);
      if (broken) return { ...broken, element: from, text: broken.rule === 'choose' ? rules?.chooseNote : rules?.tooLongNote };
    }
    return null;
  }

  /**
   * Fills the CReq with the held entries (each checked against its rules), encrypts it under the counter IV and
   * posts the JWE; the entries are cleared whatever happens. A value that breaks a rule is not sent: the screen is
   * drawn again with the note, and the next submit fills this same CReq (another action is posted as the answer).
   */
  async encrypt(step) {
    if (!this.channel) throw new SessionError('protocol', 'encrypt before keys');
    const { creq, fill } = step;
    if (creq === null || typeof creq !== 'object' || Array.isArray(creq) || !Array.isArray(fill)) {
      throw new SessionError('protocol', 'encrypt without a CReq or its fill list');
    }
    const counter = counterValue(step.counter);
    if (counter === null || creq.sdkCounterStoA !== String(counter).padStart(3, '0')) {
      throw new SessionError('protocol', `the CReq's sdkCounterStoA is not the step's counter ${step.counter}`);
    }
    for (let note = this.checkFill(fill); note; note = this.checkFill(fill)) {
      if (!this.lastPresent) throw new SessionError('protocol', `an entry to fill breaks the rule ${note.rule}`);
      const answer = await this.view.present(this.lastPresent.screen, this.lastPresent.form, note);
      this.hold(answer.values);
      if (answer.action !== 'submit') return this.post('answer', { screen: this.lastPresent.screen, action: answer.action });
    }
    let plaintext;
    try {
      for (const { member, from, rules } of fill) {
        if (member in creq) throw new SessionError('protocol', `cannot fill "${member}": the CReq has it`);
        const value = this.held.get(from) ?? '';
        // One of two boxes left empty: the CReq leaves it out, as the Default-SDK's does.
        if (value.length === 0 && rules?.omitIfEmpty === true) continue;
        creq[member] = value;
      }
      plaintext = utf8(JSON.stringify(creq));
      const jwe = await this.channel.encrypt(plaintext, counter, step.encryption);
      return await this.post('creq', { exchange: step.exchange, jwe });
    } catch (error) {
      if (error instanceof ChannelError) throw new SessionError('protocol', error.message);
      throw error;
    } finally {
      plaintext?.fill(0);
      for (const { member } of fill) delete creq[member];
      this.clearEntries();
    }
  }

  /**
   * Asks the host to open the bank's app (an https link from the ACS's validated CRes) and answers the screen with
   * what became of it. The screen stays live meanwhile (the cardholder may cancel or continue instead), and an end on
   * the server (its overall timer) is taken at once; a host that never answers leaves the screen to the cardholder.
   */
  async openApp(step) {
    let url;
    try {
      url = new URL(step.url);
    } catch {
      throw new SessionError('protocol', 'openApp without a link');
    }
    if (url.protocol !== 'https:') throw new SessionError('protocol', 'openApp with a link that is not https');
    this.emit({ event: 'openApp', url: url.href });
    const watcher = this.watchEnd();
    const shown = this.lastPresent
      ? this.view.present(this.lastPresent.screen, this.lastPresent.form, null).then((answer) => ({ answer }))
      : new Promise(() => {});
    try {
      const raced = await Promise.race([
        Promise.resolve(this.host.open(url.href)).then((result) => ({ result }), () => ({ result: 'failed' })),
        watcher.ended.then(() => ({ ended: true })),
        shown,
      ]);
      if (raced.ended) return this.post('next', {});
      if (raced.answer) {
        this.hold(raced.answer.values);
        return this.post('answer', { screen: step.screen, action: raced.answer.action });
      }
      const action = APP_RESULT_ACTIONS[raced.result] ?? APP_RESULT_ACTIONS.failed;
      return this.post('answer', { screen: step.screen, action });
    } finally {
      watcher.stop();
    }
  }

  async decrypt(step) {
    if (!this.channel) throw new SessionError('protocol', 'decrypt before keys');
    let body;
    try {
      body = { exchange: step.exchange, cres: await this.channel.decryptJSON(step.jwe) };
    } catch (error) {
      if (!(error instanceof ChannelError)) throw error;
      body = { exchange: step.exchange, error: { kind: error.code === 'json' ? 'json' : 'decryption', detail: error.message } };
    }
    return this.post('cres', body);
  }

  finish(step) {
    this.forgetKeys();
    this.view.showFinished(step.outcome);
    this.emit({ event: 'finished', outcome: step.outcome });
    return step.outcome;
  }

  clearEntries() {
    this.held.clear();
  }

  /** Drops the entries and every key of the session (the challenge is over). */
  forgetKeys() {
    this.clearEntries();
    this.channel = undefined;
    this.privateKey = undefined;
  }

  /**
   * POSTs JSON to the client interface with the token in the Authorization header, within SERVER_TIMEOUT_MS.
   * `start` answers {clientToken, step}; every other call answers the step itself ({step: kind, …}).
   *
   * Behind a load balancer the server is several instances sharing the session (docs/split-sdk.md, "More than one
   * server"): when the instance a call reached is lost during it (a network error), the session was taken over so
   * that the step this call answers is no longer pending (409 to `answer`, `creq` or `cres`), or the instance could
   * not reach the one that runs the session (502, 503), the client asks `next` once for the step the session is at.
   * @param {string} name `start`, `next`, `answer`, `creq` or `cres`.
   * @param {object} body
   * @param {boolean} [retried] Whether this is that one `next`.
   * @returns {Promise<object>}
   */
  async post(name, body, retried = false) {
    const abort = new AbortController();
    let timedOut = false;
    const timer = this.clock.setTimeout(() => { timedOut = true; abort.abort(); }, SERVER_TIMEOUT_MS);
    let text;
    let status;
    try {
      const response = await this.fetch(new URL(name, new URL(this.baseURL, this.env.location?.href ?? 'https://invalid/')).href, {
        method: 'POST', body: JSON.stringify(body), signal: abort.signal, credentials: 'omit', cache: 'no-store',
        redirect: 'error', referrerPolicy: 'no-referrer',
        headers: { 'Authorization': `Bearer ${this.token}`, 'Content-Type': 'application/json' },
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (timedOut) throw new SessionError('timeout', `the server did not answer ${name} within ${SERVER_TIMEOUT_MS / 1000} s`);
      if (!retried && name !== 'start') {
        this.clock.clearTimeout(timer);
        return this.post('next', {}, true);
      }
      throw new SessionError('server', `${name} failed: ${error.message}`);
    } finally {
      this.clock.clearTimeout(timer);
    }
    const superseded = status === 409 && ['answer', 'creq', 'cres'].includes(name);
    // 502, 503: the instance could not reach the one that runs the session, or its store, this once.
    if ((superseded || status === 502 || status === 503) && !retried && name !== 'start') return this.post('next', {}, true);
    if (status < 200 || status > 299) throw new SessionError('server', `${name} answered HTTP ${status}`);
    let answer;
    try {
      answer = parseStrictJSON(text, { maxBytes: MAX_ANSWER_BYTES, what: `the answer to ${name}` });
    } catch (error) {
      throw new SessionError('protocol', error.message);
    }
    return answer;
  }
}
