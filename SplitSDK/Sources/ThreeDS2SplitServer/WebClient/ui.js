// The frame's view: draws every screen from the `present` step's form (docs/split-sdk.md, "The form"): entry boxes,
// options, consent questions, buttons, sections, and an HTML page (UI 05, 06) in a sandboxed frame of its own (no
// script, no form submission, no network) whose form data the view reads when the cardholder submits; the processing
// view, the outcome and error views, with the UI customization the server resolved and the texts of the session's
// language (right to left through `dir`; the ACS's texts with `dir="auto"`, each in its own direction). Text only
// through textContent, style only through the CSSOM (the frame's script writes no markup). Keyboard: Enter submits (a
// real form), Escape cancels, the focus follows the form's order and starts where the form says. Every control has a
// label for screen readers; notes and status changes are announced (aria-live).

/** The texts shown before the server has sent the session's (a refusal to start), in English. */
export const FALLBACK_TEXTS = Object.freeze({
  secureCheckout: 'Secure checkout', cancel: 'Cancel', processing: 'Processing…',
  genericError: 'Something went wrong. Please try again.',
  unavailable: 'This browser cannot protect your answers on this page (it needs WebCrypto on a secure connection), so the authentication cannot start.',
  timedOut: 'The time for this authentication has run out.', cancelled: 'The authentication was cancelled.',
  completed: 'Authentication complete.', outcomeNotAuthenticated: 'The authentication was not successful.',
  outcomeBankError: 'Your bank could not complete the authentication.', outcomeConnectionFailed: 'The connection failed.',
  noteCannotSend: 'This answer cannot be sent.', showMore: 'Show more', showLess: 'Show less', warning: 'Warning', codeField: 'Code',
});

/**
 * A form's data as its submission with `submitter` encodes it (`application/x-www-form-urlencoded`): the entries in
 * tree order, the submitter's own name and value among them, line breaks as CRLF. The submitter goes in as a hidden
 * field beside it for the moment the entries are read, so engines without `new FormData(form, submitter)` (WebKit
 * before 16.4) give the same data.
 * @param {HTMLFormElement} form
 * @param {HTMLElement} [submitter]
 * @returns {string}
 */
export function htmlFormData(form, submitter) {
  let stand;
  if (submitter?.name && submitter.type !== 'image') {
    stand = form.ownerDocument.createElement('input');
    stand.type = 'hidden';
    stand.name = submitter.name;
    stand.value = submitter.value;
    submitter.after(stand);
  }
  try {
    const pairs = [];
    for (const [name, value] of new FormData(form)) {
      if (typeof value !== 'string') continue; // a file input: nothing a challenge sends
      pairs.push([name, value.replace(/\r\n|\r|\n/g, '\r\n')]);
    }
    return new URLSearchParams(pairs).toString();
  } finally {
    stand?.remove();
  }
}

/**
 * Which text an outcome of `finished` is drawn with.
 * @param {{kind: string, transStatus?: string}} outcome
 * @returns {string} A key of the texts.
 */
export function outcomeTextKey(outcome) {
  switch (outcome?.kind) {
    case 'completed': return outcome.transStatus === 'Y' ? 'completed' : 'outcomeNotAuthenticated';
    case 'cancelled': return 'cancelled';
    case 'timedOut': return 'timedOut';
    case 'protocolError': return 'outcomeBankError';
    default: return 'genericError';
  }
}

/**
 * A colour of the resolved style (`#RRGGBB` or `#AARRGGBB`) as CSS, or undefined for anything else.
 * @param {unknown} value
 * @returns {string | undefined}
 */
export function cssColor(value) {
  if (typeof value !== 'string') return undefined;
  if (/^#[0-9A-Fa-f]{6}$/.test(value)) return value;
  const argb = /^#([0-9A-Fa-f]{2})([0-9A-Fa-f]{6})$/.exec(value);
  if (!argb) return undefined;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(argb[2].slice(i, i + 2), 16));
  return `rgba(${r}, ${g}, ${b}, ${(parseInt(argb[1], 16) / 255).toFixed(3)})`;
}

/**
 * The action a press of the submit button answers: `submitEmpty` when every entry box is empty and no option is
 * chosen (the core's form state then decides whether the screen allows it), else `submit`. An HTML page's form data
 * is always a `submit`, even when empty.
 * @param {Object<string, string>} values The values by element id (`options` for the chosen keys, `html` for a page's
 *   form data).
 * @param {string[]} [answering] The ids whose values answer the screen (entry boxes, `options`, `html`); every id of
 *   `values` when not given.
 * @returns {'submit' | 'submitEmpty'}
 */
export function submitAction(values, answering = Object.keys(values)) {
  if (answering.includes('html') && typeof values.html === 'string') return 'submit';
  return answering.some((id) => typeof values[id] === 'string' && values[id].length > 0) ? 'submit' : 'submitEmpty';
}

/**
 * The form data a link of an HTML page submits: the query of the SDK's reserved URL `https://emv3ds/challenge`, as
 * the SDK's web-view policy reads it; null for any other link (nothing else may load; opening the bank's app through
 * `https://emv3ds/openoobApp` is not offered by a browser).
 * @param {string | null} href
 * @returns {string | null}
 */
export function reservedLinkData(href) {
  const url = reservedURL(href);
  return url && url.pathname.toLowerCase() === '/challenge' ? url.search.slice(1) : null;
}

/**
 * The SDK's reserved URL (`https://emv3ds/…`, any case), or null.
 * @param {string | null} text
 * @returns {URL | null}
 */
export function reservedURL(text) {
  if (typeof text !== 'string') return null;
  try {
    const url = new URL(text.trim());
    return url.protocol === 'https:' && url.hostname === 'emv3ds' && url.port === '' && url.username === '' ? url : null;
  } catch {
    return null;
  }
}

const number = (value) => (Number.isFinite(value) && value >= 0 && value < 1000 ? value : undefined);

function applyText(node, text) {
  if (!text || typeof text !== 'object') return;
  const color = cssColor(text.color);
  if (color) node.style.color = color;
  if (number(text.fontSize) !== undefined) node.style.fontSize = `${text.fontSize}px`;
  if (typeof text.fontName === 'string' && /^[\w .-]{1,64}$/.test(text.fontName)) node.style.fontFamily = `"${text.fontName}", system-ui, sans-serif`;
  if (text.bold === true) node.style.fontWeight = '700';
  if (['left', 'center', 'right'].includes(text.alignment)) {
    node.style.textAlign = { left: 'start', center: 'center', right: 'end' }[text.alignment];
  }
}

function applyBox(node, box) {
  if (!box || typeof box !== 'object') return;
  applyText(node, box.text);
  const background = cssColor(box.backgroundColor);
  if (background) node.style.backgroundColor = background;
  const border = cssColor(box.borderColor);
  if (border) node.style.borderColor = border;
  if (number(box.borderWidth) !== undefined) node.style.borderWidth = `${box.borderWidth}px`;
  if (number(box.cornerRadius) !== undefined) node.style.borderRadius = `${box.cornerRadius}px`;
  if (number(box.height) !== undefined) node.style.minHeight = `${box.height}px`;
  const padding = box.padding;
  if (padding && typeof padding === 'object') {
    for (const [side, property] of [['start', 'paddingInlineStart'], ['end', 'paddingInlineEnd'], ['top', 'paddingTop'], ['bottom', 'paddingBottom']]) {
      if (number(padding[side]) !== undefined) node.style[property] = `${padding[side]}px`;
    }
  }
}

/** The view of the frame: one instance drawn into one root element. */
export class ChallengeView {
  /**
   * @param {HTMLElement} root The element the view draws into (its contents are replaced).
   * @param {Document} [doc]
   */
  constructor(root, doc = root.ownerDocument) {
    this.root = root;
    this.doc = doc;
    this.texts = { ...FALLBACK_TEXTS };
    this.pending = null;
    doc.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.pending) {
        event.preventDefault();
        this.act('cancel');
      }
    });
  }

  /**
   * Takes the session's texts from `start` ({language, direction, texts, style}).
   * @param {{language?: string, direction?: string, texts?: Object<string, string>, style?: object}} texts
   */
  useTexts(texts) {
    if (!texts || typeof texts !== 'object') return;
    for (const [key, value] of Object.entries(texts.texts ?? {})) if (typeof value === 'string') this.texts[key] = value;
    this.language = typeof texts.language === 'string' ? texts.language : undefined;
    this.direction = texts.direction === 'rtl' ? 'rtl' : 'ltr';
    this.style = texts.style && typeof texts.style === 'object' ? texts.style : undefined;
  }

  el(tag, props = {}, ...children) {
    const node = this.doc.createElement(tag);
    for (const [name, value] of Object.entries(props)) {
      if (value === undefined || value === null) continue;
      if (name === 'text') node.textContent = value;
      else if (name === 'class') node.className = value;
      else node.setAttribute(name, value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  frame(language, direction, style, ...children) {
    this.root.replaceChildren(...children);
    if (language) this.root.lang = language;
    this.root.dir = direction === 'rtl' ? 'rtl' : 'ltr';
    const background = cssColor(style?.screenBackground);
    this.root.style.backgroundColor = background ?? '';
  }

  /** Draws the processing view (announced to screen readers). */
  showProgress() {
    this.answer(null);
    const progress = this.style?.progress;
    const spinner = this.el('div', { class: 'spinner', 'aria-hidden': 'true' });
    const indicator = cssColor(progress?.indicatorColor);
    if (indicator) spinner.style.borderTopColor = indicator;
    const label = this.el('p', { text: this.texts.processing });
    applyText(label, progress?.text);
    const view = this.el('div', { class: 'progress', role: 'status', 'aria-live': 'polite' }, spinner, label);
    applyBox(view, { backgroundColor: progress?.backgroundColor });
    this.frame(this.language, this.direction, this.style, view);
  }

  /**
   * Draws the outcome of `finished` (the timeout has its own text).
   * @param {{kind: string, transStatus?: string}} outcome
   */
  showFinished(outcome) {
    this.showMessage(this.texts[outcomeTextKey(outcome)] ?? this.texts.genericError, outcome?.kind === 'completed' && outcome.transStatus === 'Y' ? 'done' : 'ended');
  }

  /**
   * Draws an error that ended the session.
   * @param {string} reason `unavailable`, `timeout`, `server` or `protocol`.
   */
  showError(reason) {
    this.showMessage(reason === 'unavailable' ? this.texts.unavailable : this.texts.genericError, 'error');
  }

  showMessage(text, kind) {
    this.answer(null);
    const message = this.el('p', { class: `message ${kind}`, role: kind === 'error' ? 'alert' : 'status', tabindex: '-1', text });
    this.frame(this.language, this.direction, this.style, message);
    message.focus();
  }

  answer(action, values) {
    const pending = this.pending;
    this.pending = null;
    if (pending && action) pending({ action, values });
  }

  /**
   * Draws a screen and resolves with the cardholder's action and the values by element id (`options` for the chosen
   * keys, `html` for an HTML page's form data); the inputs are emptied as soon as they are read.
   * @param {number} screen
   * @param {object} form The `present` step's form.
   * @param {{rule: string, element?: string, text?: string} | null} [note] Why the last answer was not sent.
   * @returns {Promise<{action: string, values: Object<string, string>}>}
   */
  present(screen, form, note) {
    this.answer(null);
    const { node, fields, focusTarget } = this.drawForm(form, note);
    this.offersOpenApp = (form.elements ?? []).some((element) => element?.kind === 'button' && element.action === 'openApp');
    this.frame(form.language ?? this.language, form.direction ?? this.direction, form.style, node);
    const noted = note ? [...fields.entries, ...fields.options].find((input) => input.dataset.element === note.element) : undefined;
    (noted ?? focusTarget)?.focus();
    return new Promise((resolve) => {
      this.pending = resolve;
      this.answering = [...fields.entries.map((input) => input.dataset.element), ...(fields.options.length ? ['options'] : [])];
      this.collect = (action) => {
        const values = {};
        if (action === 'submit') {
          for (const input of fields.entries) values[input.dataset.element] = input.value;
          if (fields.options.length) values.options = fields.options.filter((input) => input.checked).map((input) => input.value).join(',');
        }
        // Every answer but a cancel carries the consent answers (the CReq says N for a question left unticked).
        if (action !== 'cancel') for (const box of fields.consents) values[box.dataset.element] = box.checked ? 'Y' : 'N';
        for (const input of fields.entries) input.value = '';
        return values;
      };
    });
  }

  /**
   * The cardholder's action: the values read from the screen, plus `extra` (an HTML page's form data).
   * @param {string} action
   * @param {Object<string, string>} [extra]
   */
  act(action, extra) {
    if (!this.pending) return;
    const values = { ...this.collect(action), ...(extra ?? {}) };
    const answering = [...this.answering, ...Object.keys(extra ?? {})];
    this.answer(action === 'submit' ? submitAction(values, answering) : action, values);
  }

  drawForm(form, note) {
    const style = form.style ?? {};
    const node = this.el('form', { class: 'screen', novalidate: '', 'data-ui-type': typeof form.uiType === 'string' ? form.uiType : undefined });
    node.addEventListener('submit', (event) => {
      event.preventDefault();
      this.act('submit');
    });
    const fields = { entries: [], options: [], consents: [] };
    let focusTarget;
    if (typeof form.note === 'string' && form.note.length > 0) {
      // The core's note on this screen (why the last action was not taken), announced.
      node.append(this.el('p', { class: 'note screen-note', role: 'alert', text: form.note }));
    }
    let group;
    const elements = Array.isArray(form.elements) ? form.elements : [];
    elements.forEach((element, index) => {
      const drawn = this.drawElement(element, style, fields, note);
      if (!drawn) return;
      if (element.kind === 'option') {
        // The options are one group, announced as such, with the note about the choice at its end.
        if (!group) group = this.drawOptionGroup(element, form, note, node);
        group.insertBefore(drawn.node, group.lastChild);
      } else {
        node.append(drawn.node);
      }
      if (index === form.focus || (!focusTarget && drawn.focusable)) focusTarget = drawn.focusable ?? focusTarget;
    });
    if (form.html && typeof form.html === 'object' && typeof form.html.url === 'string') {
      const page = this.drawHTML(form.html, note);
      node.append(page.node);
      focusTarget = page.focusable;
    }
    return { node, fields, focusTarget };
  }

  drawElement(element, style, fields, note) {
    switch (element?.kind) {
      case 'toolbar': return this.drawToolbar(element, style);
      case 'images': return this.drawImages(element);
      case 'heading': {
        const heading = this.el('h2', { text: element.text, dir: 'auto' });
        applyText(heading, style.labels?.INFO_HEADER);
        return { node: heading };
      }
      case 'text': return { node: this.drawText(element, style.labels?.INFO_TEXT) };
      case 'entry': return this.drawEntry(element, style, fields.entries, note);
      case 'option': return this.drawOption(element, style, fields.options);
      case 'consent': return this.drawConsent(element, style, fields.consents, note);
      case 'button': return this.drawButton(element, style);
      case 'section': return this.drawSection(element, style);
      default: return null; // htmlText, htmlControl, htmlLink: the page itself is drawn instead (form.html)
    }
  }

  drawOptionGroup(first, form, note, node) {
    const noteNode = this.el('p', { id: 'note-options', class: 'note', 'aria-live': 'assertive' });
    const group = this.el('div', { class: 'options', role: first.multiple ? 'group' : 'radiogroup', 'aria-describedby': 'note-options' }, noteNode);
    const label = [...(form.elements ?? [])].reverse().find((element) => element.kind === 'text');
    if (label) group.setAttribute('aria-label', (label.runs ?? []).map((run) => run.text).join(''));
    if (note && note.element === 'options') noteNode.textContent = note.text ?? this.texts.noteCannotSend;
    node.append(group);
    return group;
  }

  drawOption(element, style, options) {
    const id = `input-${element.id}`;
    const input = this.el('input', { id, name: 'options', type: element.multiple ? 'checkbox' : 'radio', value: String(element.key ?? '') });
    input.dataset.element = 'options';
    options.push(input);
    const label = this.el('label', { for: id, text: element.label, dir: 'auto' });
    applyText(label, style.labels?.SELECTION_LIST);
    return { node: this.el('div', { class: 'option' }, input, label), focusable: options.length === 1 ? input : undefined };
  }

  drawConsent(element, style, consents, note) {
    const id = `input-${element.id}`;
    const box = this.el('input', { id, type: 'checkbox' });
    box.dataset.element = element.id;
    consents.push(box);
    const label = this.el('label', { for: id, text: element.question, dir: 'auto' });
    applyText(label, style.labels?.WHITELIST);
    const noteNode = this.el('p', { id: `note-${element.id}`, class: 'note', 'aria-live': 'assertive' });
    if (note && note.element === element.id) noteNode.textContent = note.text ?? this.texts.noteCannotSend;
    box.setAttribute('aria-describedby', noteNode.id);
    return { node: this.el('div', { class: 'consent' }, box, label, noteNode) };
  }

  /**
   * An HTML page (UI 05, 06) in a frame of its own: sandboxed without scripts, form submission, popups or
   * navigation, loaded once from the page's one-time address on this origin, where the server serves the SDK's
   * locked-down document with a policy of its own (no script, no network). The view reads the page's form data when
   * the cardholder presses a submit button or a link to the reserved URL, and answers `submit` with it; the data
   * never leaves this frame but inside the CReq's JWE.
   */
  drawHTML(html, note) {
    const page = this.el('iframe', { class: 'html-page', sandbox: 'allow-same-origin', title: html.title ?? this.texts.secureCheckout, referrerpolicy: 'no-referrer' });
    const url = new URL(html.url, new URL('/client/v1/', this.doc.baseURI));
    // Only a page of this origin: the view reads its form, which another origin's page would not allow.
    if (url.origin !== new URL(this.doc.baseURI).origin) return { node: this.el('p', { class: 'note', text: this.texts.genericError }) };
    page.src = url.href;
    page.addEventListener('load', () => this.captureHTML(page));
    const noteNode = this.el('p', { id: 'note-html', class: 'note', 'aria-live': 'assertive' });
    if (note && note.element === 'html') noteNode.textContent = note.text ?? this.texts.noteCannotSend;
    return { node: this.el('div', { class: 'html' }, page, noteNode), focusable: page };
  }

  captureHTML(page) {
    const doc = page.contentDocument;
    if (!doc) return;
    doc.addEventListener('click', (event) => {
      const control = typeof event.target?.closest === 'function' ? event.target.closest('a[href], area[href], button, input') : null;
      if (!control) return;
      if (control.tagName === 'A' || control.tagName === 'AREA') {
        event.preventDefault();
        const href = control.getAttribute('href');
        const data = reservedLinkData(href);
        if (data !== null) this.act('submit', { html: data });
        // The Shell variant's host opens the bank's app; a browser cannot (the link then does nothing).
        else if (this.offersOpenApp && reservedURL(href)?.pathname.toLowerCase() === '/openoobapp') this.act('openApp');
        return;
      }
      const submits = control.tagName === 'BUTTON' ? control.type === 'submit' : ['submit', 'image'].includes(control.type);
      if (!submits || !control.form) return;
      event.preventDefault();
      const action = control.getAttribute('formaction') ?? control.form.getAttribute('action');
      if (reservedURL(action)?.pathname.toLowerCase() !== '/challenge') return;
      this.act('submit', { html: htmlFormData(control.form, control) });
    }, true);
    doc.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.pending) {
        event.preventDefault();
        this.act('cancel');
      }
    });
    page.dataset.ready = 'true';
  }

  drawToolbar(element, style) {
    const title = this.el('h1', { text: element.title ?? this.texts.secureCheckout });
    applyText(title, style.toolbar?.text);
    const cancel = this.el('button', { type: 'button', class: 'cancel', text: element.cancelLabel ?? this.texts.cancel });
    applyText(cancel, style.toolbar?.text);
    cancel.addEventListener('click', () => this.act('cancel'));
    const bar = this.el('header', { class: 'toolbar' }, title, cancel);
    const background = cssColor(style.toolbar?.backgroundColor);
    if (background) bar.style.backgroundColor = background;
    return { node: bar, focusable: cancel };
  }

  drawImages(element) {
    const row = this.el('div', { class: 'images' });
    for (const image of [element.issuer, element.paymentSystem]) {
      if (!image || typeof image.url !== 'string') continue;
      // The frame's CSP loads images from its own origin or data: only; another origin's logo is left out.
      const url = new URL(image.url, this.doc.baseURI);
      if (url.protocol !== 'data:' && url.origin !== new URL(this.doc.baseURI).origin) continue;
      row.append(this.el('img', { src: url.href, alt: image.alt ?? '' }));
    }
    return row.childElementCount ? { node: row } : null;
  }

  drawText(element, textStyle) {
    const paragraph = this.el('p', { class: 'info', dir: 'auto' });
    if (element.warning) {
      paragraph.append(this.el('span', { class: 'warning', role: 'img', 'aria-label': element.warningLabel ?? this.texts.warning, text: '⚠' }), ' ');
    }
    for (const run of Array.isArray(element.runs) ? element.runs : []) {
      const lines = String(run.text ?? '').split('\n');
      lines.forEach((line, i) => {
        if (i > 0) paragraph.append(this.el('br'));
        paragraph.append(run.bold ? this.el('strong', { text: line }) : this.doc.createTextNode(line));
      });
    }
    applyText(paragraph, textStyle);
    return paragraph;
  }

  drawEntry(element, style, entries, note) {
    const second = element.box === 1;
    const id = `input-${element.id}`;
    const label = this.el('label', { for: id, text: element.label ?? this.texts.codeField, dir: 'auto' });
    applyText(label, style.labels?.[second ? 'DATA_ENTRY_LABEL_2' : 'DATA_ENTRY_LABEL']);
    const noteID = `note-${element.id}`;
    const input = this.el('input', {
      id, name: id, type: element.masked ? 'password' : 'text', inputmode: element.keyboard === 'numeric' ? 'numeric' : 'text',
      autocomplete: element.autofill ?? 'off', autocapitalize: 'off', spellcheck: 'false', dir: 'auto',
      'aria-describedby': noteID,
    });
    input.dataset.element = element.id;
    applyBox(input, second ? style.textBoxTwo : style.textBox);
    entries.push(input);
    const noteNode = this.el('p', { id: noteID, class: 'note', 'aria-live': 'assertive' });
    if (note && note.element === element.id) {
      noteNode.textContent = note.text ?? this.texts.noteCannotSend;
      input.setAttribute('aria-invalid', 'true');
    }
    const field = this.el('div', { class: 'entry' }, label, input);
    if (element.revealToggle && element.masked) field.append(this.drawReveal(input, label.textContent));
    field.append(noteNode);
    return { node: field, focusable: input };
  }

  // The reveal toggle, as the SDK's SwiftUI presenter draws it: an eye, labelled with the code field's name, its
  // state in aria-pressed.
  drawReveal(input, label) {
    const toggle = this.el('button', { type: 'button', class: 'reveal', 'aria-pressed': 'false', 'aria-controls': input.id, 'aria-label': label, text: '👁' });
    toggle.addEventListener('click', () => {
      const shown = input.type === 'password';
      input.type = shown ? 'text' : 'password';
      toggle.setAttribute('aria-pressed', String(shown));
      input.focus();
    });
    return toggle;
  }

  drawButton(element, style) {
    if (typeof element.action !== 'string') return null; // an action this client does not offer
    const submit = element.action === 'submit';
    const button = this.el('button', { type: submit ? 'submit' : 'button', class: `action ${String(element.type).toLowerCase()}`, text: element.label });
    applyBox(button, style.buttons?.[element.type]);
    if (!submit) button.addEventListener('click', () => this.act(element.action));
    return { node: button, focusable: button };
  }

  drawSection(element, style) {
    const summary = this.el('summary', { text: element.label, dir: 'auto' });
    applyText(summary, style.labels?.EXPANDABLE_INFO);
    const body = this.drawText(element, style.labels?.EXPANDABLE_INFO_TEXT);
    return { node: this.el('details', { class: 'section' }, summary, body), focusable: summary };
  }
}
