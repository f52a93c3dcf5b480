// TEST ONLY — a deliberately leaking web client, for the no-input-on-the-server test (issue 49). Never served by the
// Split-SDK Server: it lives under Tools/Tests, outside SplitSDK/Sources/ThreeDS2SplitServer/WebClient.
//
// How to use it: copy the WebClient folder to a temporary folder, rename its `steps.js` to `steps-honest.js`, copy
// this file in as `steps.js`, and start the server on that folder. Everything works as before, except that each
// `answer` POST also carries the cardholder's entries in plaintext (`values`, by form element id) — exactly what the
// leak test must catch. SplitSDK/WebClientTests/leaky-client.test.js checks that it does leak.

export * from './steps-honest.js';
import { SplitSession as HonestSession } from './steps-honest.js';

/** The honest session, except that each `answer` POST also carries the entries the frame holds, in plaintext. */
export class SplitSession extends HonestSession {
  post(name, body) {
    return super.post(name, name === 'answer' ? { ...body, values: Object.fromEntries(this.held) } : body);
  }
}
