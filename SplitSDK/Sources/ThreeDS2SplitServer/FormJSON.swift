public import ThreeDS2JOSE
public import ThreeDS2Messages
public import ThreeDS2SDK

/// The SDK's form state as the JSON of a `present` step (docs/split-sdk.md, "The form"): the screen laid out by the
/// core (``ChallengeLayout``), its texts already in the session's language (``SDKStrings``), the text direction, the
/// entry boxes with their rules, the buttons with the action each sends, and the UI customization resolved to
/// concrete colours and font sizes (``ResolvedStyle``). The client draws exactly this; it decides nothing the core
/// decides.
public enum FormJSON {
    /// The version of the form's JSON, sent in every form (`formVersion`).
    public static let version = 1

    /// A screen's form.
    ///
    /// - Parameters:
    ///   - form: The form state the core built for the screen.
    ///   - opensApps: Whether the client's host opens the bank's app (the Shell variant): the open-app button then
    ///     sends `openApp`; in a browser it sends nothing and is not drawn.
    ///   - htmlPage: Where the client loads the screen's HTML page (UI 05, 06), relative to the client interface
    ///     (`pages/<session>/<id>`, ``htmlDocument(_:)``); `nil` on other screens.
    /// - Returns: The `form` member of a `present` step.
    public static func form(_ form: ChallengeFormState, opensApps: Bool = false, htmlPage: String? = nil)
        -> JSONObject
    {
        let layout = form.layout
        var object: JSONObject = [
            "formVersion": .number("\(version)"),
            "uiType": .string(form.screen.uiType.rawValue),
            "messageVersion": .string(form.screen.messageVersion.rawValue),
            "language": .string(layout.strings.language),
            "direction": .string(layout.strings.isRightToLeft ? "rtl" : "ltr"),
            "elements": .array(
                layout.elements.enumerated().map { element($1, index: $0, in: form, opensApps: opensApps) }),
            "focus": .number("\(form.focus)"),
            // Why the client's last action was not sent (the core's note, in the session's language), if it was not.
            "note": form.note.map(JSONValue.string) ?? .null,
            "style": .object(style(layout.style)),
        ]
        if let htmlPage, form.screen.uiType.isHTML {
            // The page, served once at its own address with its own policy (``htmlDocument(_:)``), drawn by the client
            // in a sandboxed frame; its form data never comes back here.
            object["html"] = .object([
                "id": .string(htmlID), "url": .string(htmlPage),
                "title": .string(form.screen.header ?? layout.strings[.secureCheckout]),
            ])
        }
        return object
    }

    /// The HTML page of a screen as the server serves it: the SDK's locked-down document (no script, no network,
    /// forms to the reserved URL: ``WebViewPolicy/lockedDownDocument(_:)``), served with ``htmlPagePolicy(merchantOrigin:)``.
    ///
    /// - Parameter screen: The HTML screen.
    /// - Returns: The document.
    public static func htmlDocument(_ screen: ChallengeScreen) -> String {
        WebViewPolicy.lockedDownDocument(screen.html ?? "")
    }

    /// The content security policy of a served HTML page: nothing loads but `data:` images, no script runs (`sandbox`
    /// without scripts, as the frame's `<iframe sandbox>` says too), no form submits, no frame; only the client's frame
    /// may embed it (`frame-ancestors` names every ancestor: the frame's origin and the merchant's page around it);
    /// inline styles allowed, for the ACS's page only.
    ///
    /// - Parameter merchantOrigin: The merchant page's origin (checked by the configuration).
    /// - Returns: The policy.
    public static func htmlPagePolicy(merchantOrigin: String) -> String {
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; form-action 'none'; frame-src 'none'; "
            + "base-uri 'none'; frame-ancestors 'self' \(merchantOrigin); sandbox allow-same-origin"
    }

    /// The name `fill.from` gives the chosen options of a select screen (the keys, comma-separated in the form's
    /// order).
    public static let optionsID = "options"
    /// The name `fill.from` gives the HTML page's form data.
    public static let htmlID = "html"

    /// The rules of the chosen options: one key exactly (single select) or at least one (multi select), each a key of
    /// the screen's, none twice, in the screen's order, at most the entry's bytes joined; the note when none is chosen.
    static func choiceRules(_ screen: ChallengeScreen, strings: SDKStrings) -> JSONObject {
        [
            "choose": .string(screen.uiType == .singleSelect ? "one" : "some"),
            "keys": .array(screen.options.map { .string($0.key) }),
            "maxBytes": .number("\(ChallengeFormState.maxEntryLength)"),
            "chooseNote": .string(strings[.chooseOption]),
        ]
    }

    /// The rules of an HTML page's form data: at most `challengeHTMLDataEntry`'s bytes, empty allowed (a page may
    /// submit no field).
    static func htmlRules(strings: SDKStrings) -> JSONObject {
        [
            "maxBytes": .number("\(ChallengeFormState.maxHTMLDataLength)"), "allowEmpty": .bool(true),
            "htmlForm": .bool(true),
            "tooLongNote": .string(strings.format(.noteTooLong, ChallengeFormState.maxHTMLDataLength)),
        ]
    }

    /// One element, named by `kind`, with its index as its `id` where it takes focus.
    static func element(_ element: LayoutElement, index: Int, in form: ChallengeFormState, opensApps: Bool)
        -> JSONValue
    {
        var object: JSONObject
        switch element {
        case .toolbar(let title, let cancelLabel):
            object = ["kind": .string("toolbar"), "title": .string(title), "cancelLabel": .string(cancelLabel)]
        case .images(let issuer, let paymentSystem):
            object = ["kind": .string("images"), "issuer": image(issuer), "paymentSystem": image(paymentSystem)]
        case .heading(let text):
            object = ["kind": .string("heading"), "text": .string(text)]
        case .text(let styled, let warning):
            object = ["kind": .string("text"), "runs": runs(styled), "warning": .bool(warning)]
            if warning { object["warningLabel"] = .string(form.layout.strings[.warning]) }
        case .textField(let box, let entry):
            object = entryBox(entry, box: box, strings: form.layout.strings)
        case .option(let key, let label, let multiple):
            object = [
                "kind": .string("option"), "key": .string(key), "label": .string(label), "multiple": .bool(multiple),
            ]
        case .button(let type, let label):
            object = ["kind": .string("button"), "type": .string(type.rawValue), "label": .string(label)]
            object["action"] = action(for: type, opensApps: opensApps).map(JSONValue.string) ?? .null
        case .consent(let kind, let question):
            object = ["kind": .string("consent"), "consent": .string(kind == .trust ? "trust" : "deviceBinding")]
            object["question"] = .string(question)
        case .section(let label, let text):
            object = ["kind": .string("section"), "label": .string(label), "runs": runs(text)]
        case .htmlText(let text):
            object = ["kind": .string("htmlText"), "text": .string(text)]
        case .htmlControl(let control):
            object = ["kind": .string("htmlControl"), "control": .number("\(control)")]
        case .htmlLink(let link):
            object = ["kind": .string("htmlLink"), "link": .number("\(link)")]
        }
        object["id"] = .string(elementID(index))
        return .object(object)
    }

    /// The id of element `index`, as `fill` names it (`from`).
    public static func elementID(_ index: Int) -> String { "e\(index)" }

    /// The action a button sends in an `answer` (`nil`: not offered by this client).
    static func action(for type: ButtonType, opensApps: Bool) -> String? {
        switch type {
        case .submit: "submit"
        case .resend: "resend"
        case .cancel: "cancel"
        case .continue, .next: "continue"
        case .additional: "additionalCode"
        case .openOOBApp: opensApps ? "openApp" : nil
        }
    }

    /// An entry box with its rules (the same the core's form state applies: ``EntryRules``).
    static func entryBox(_ entry: EntryBox, box: Int, strings: SDKStrings) -> JSONObject {
        [
            "kind": .string("entry"), "box": .number("\(box)"), "label": .string(entry.label),
            "masked": .bool(entry.isMasked), "revealToggle": .bool(entry.offersRevealToggle),
            "keyboard": .string(entry.keyboard == .numeric ? "numeric" : "text"),
            "autofill": entry.autofill.map {
                JSONValue.string($0 == .smsOneTimeCode ? "one-time-code" : "current-password")
            }
                ?? .null,
            "rules": .object(EntryRules(entry).json(strings: strings)),
        ]
    }

    /// The texts the client shows outside a screen (the processing view, the outcomes, the errors), in the session's
    /// language, with the direction and the progress view's resolved look: sent once, in the `start` answer.
    ///
    /// - Parameters:
    ///   - strings: The session's texts.
    ///   - style: The customization resolved for the session's appearance.
    /// - Returns: The `texts` member of the `start` answer.
    public static func clientTexts(_ strings: SDKStrings, style: ResolvedStyle) -> JSONObject {
        let keys: [SDKStrings.Key] = [
            .secureCheckout, .cancel, .processing, .timedOut, .cancelled, .completed, .genericError,
            .outcomeNotAuthenticated, .outcomeConnectionFailed, .outcomeBankError, .outcomeUnavailable,
            .noteCannotSend, .showMore, .showLess, .warning, .codeField,
        ]
        var texts = JSONObject()
        for key in keys { texts[key.rawValue] = .string(strings[key]) }
        return [
            "language": .string(strings.language), "direction": .string(strings.isRightToLeft ? "rtl" : "ltr"),
            "texts": .object(texts), "style": .object(Self.style(style)),
        ]
    }

    static func image(_ reference: ImageReference?) -> JSONValue {
        guard let reference else { return .null }
        return .object(["url": .string(reference.url), "alt": .string(reference.alternativeText)])
    }

    static func runs(_ text: StyledText) -> JSONValue {
        .array(text.runs.map { .object(["text": .string($0.text), "bold": .bool($0.isBold)]) })
    }
}

/// The rules an entry must meet before the client puts it in a CReq: the ones the core's form state applies
/// (``ChallengeFormState``: at most the box's length in characters and ``ChallengeFormState/maxEntryLength`` UTF-8
/// bytes, `challengeDataEntry`'s bound) — the client refuses and re-presents when they fail. The keyboard the ACS
/// asked for is a hint (the entry's `keyboard`), not a rule: the core does not refuse letters in a numeric box either.
public struct EntryRules: Sendable, Hashable {
    /// The most characters.
    public let maxLength: Int
    /// The most UTF-8 bytes.
    public let maxBytes: Int

    /// The rules of an entry box.
    ///
    /// - Parameter box: The entry box.
    public init(_ box: EntryBox) {
        maxLength = min(box.maxLength, ChallengeFormState.maxEntryLength)
        maxBytes = ChallengeFormState.maxEntryLength
    }

    /// The rules as JSON, with the note the client shows when an entry is too long, in the session's language.
    ///
    /// - Parameter strings: The session's texts.
    /// - Returns: `{maxLength, maxBytes, tooLongNote}`.
    public func json(strings: SDKStrings) -> JSONObject {
        [
            "maxLength": .number("\(maxLength)"), "maxBytes": .number("\(maxBytes)"),
            "tooLongNote": .string(strings.format(.noteTooLong, maxLength)),
        ]
    }
}
