import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2SplitServer) import ThreeDS2SDK

/// The client as the core's presenter: each form state the core builds goes to the client as a `present` step;
/// the client's action (never an entry) goes through the same form state, so the core decides what it means
/// (``ChallengeFormState/perform(_:)``), and a refused action comes back as the same screen with the core's note.
struct RemotePresenter: ChallengePresenter {
    let link: ClientLink
    /// Whether the client's host opens the bank's app (the Shell variant).
    let opensApps: Bool

    func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        var form = form
        var screen = await link.present(form)
        while true {
            guard case .answer(_, let action)? = await link.input(.answer(screen: screen)) else {
                // The timers ended the screen; the core ignores this answer.
                return ChallengeAnswer(.cancel)
            }
            switch Self.perform(action, on: &form, opensApps: opensApps) {
            case .send(let answer)?: return answer
            case .openApp(let url)?:
                // The host opens the bank's app; the client answers this same screen with what became of it.
                await link.openApp(url)
            case .showNote?, nil: screen = await link.present(form)
            }
        }
    }

    /// The client's action on the form state. `submit` first gives the form state stand-ins its checks accept for
    /// what the cardholder entered or chose (``standIns(on:)``): the CReq leaves the core without them (``RemoteFill``)
    /// and the client writes the cardholder's own values.
    static func perform(_ action: ClientAction, on form: inout ChallengeFormState, opensApps: Bool) -> FormEffect? {
        if let result = action.appResult {
            return opensApps ? form.perform(.appOpenResult(result)) : nil
        }
        switch action {
        case .submit:
            // An HTML page's form data stays in the frame; the form state sees that a form was submitted.
            if form.screen.uiType.isHTML { return form.perform(.submitWebForm("")) }
            standIns(on: &form)
            return form.perform(.submit())
        case .submitEmpty: return form.perform(.submit())
        case .resend: return form.perform(.resend)
        case .cancel: return form.perform(.cancel)
        case .continue: return form.perform(.continueChallenge)
        case .additionalCode: return form.perform(.additionalCode)
        case .openApp where opensApps: return form.perform(.openApp)
        case .openApp, .appReturned, .appOpened, .appOpenFailed: return nil
        }
    }

    /// A submitted screen as the core's form state sees it: each entry box holds a character, a select screen has its
    /// first option chosen. None of it reaches the CReq: the client fills those members with the cardholder's values.
    /// The consent questions stay unanswered here; their members are filled by the client too.
    static func standIns(on form: inout ChallengeFormState) {
        switch form.screen.uiType {
        case .singleSelect, .multiSelect:
            if let first = form.screen.options.first { _ = form.perform(.select([first.key])) }
        default:
            for box in 0..<max(1, form.screen.entryBoxes.count) { _ = form.perform(.setEntry("0", box: box)) }
        }
    }

    /// What the web client draws: native screens of every UI type its message version defines, and the HTML ones in a
    /// sandboxed frame (`sdkInterface` 03).
    func renderOptions(for version: MessageVersion) -> DeviceRenderOptions {
        DeviceRenderOptions(interface: .both, uiTypes: version.uiTypes)
    }
}

/// The client as the core's remote channel end: it fills and encrypts each CReq and decrypts each answer.
struct RemoteClient: RemoteChallengeChannel {
    let link: ClientLink
    /// The session, which claims each CReq's counter in the store before the CReq is posted and keeps each screen's
    /// checkpoint.
    var session: SplitSession?

    func encrypt(_ request: RemoteChallengeRequest) async -> [UInt8] {
        let exchange = await link.nextExchange()
        let fill = await Self.fill(request.fill, form: link.form)
        await link.publish([
            "step": .string("encrypt"), "exchange": .number("\(exchange)"),
            "counter": .string(ChallengeRequestBuilder.counterText(request.counter)), "creq": .object(request.request),
            "fill": .array(fill), "encryption": .string("A128CBC-HS256"),
        ])
        guard case .creq(_, let jwe)? = await link.input(.creq(exchange: exchange)) else { return [] }
        // Never a CReq twice with one counter: the counter is claimed first, and an instance that no longer runs the
        // session posts nothing (the core posts no empty body).
        if let session, await !session.claim(request.counter) { return [] }
        return jwe
    }

    func checkpoint(_ checkpoint: RemoteChallenge.Checkpoint) async {
        await session?.keep(checkpoint)
    }

    func decrypt(_ body: [UInt8]) async -> RemoteOpening {
        let exchange = await link.exchange
        await link.publish([
            "step": .string("decrypt"), "exchange": .number("\(exchange)"),
            "jwe": .string(String(decoding: body, as: UTF8.self)),
        ])
        guard case .cres(_, let opening)? = await link.input(.cres(exchange: exchange)) else {
            return .undecryptable("the client did not answer")
        }
        return opening
    }

    /// The `fill` list: each member with the form element it takes its value from and that element's rules
    /// (docs/split-sdk.md, the `encrypt` step).
    static func fill(_ fill: [RemoteFill], form: ChallengeFormState?) -> [JSONValue] {
        fill.map { item in
            var object: JSONObject = ["member": .string(item.member)]
            if case .entryBox(let box) = item.source { object["box"] = .number("\(box)") }
            if let form, let (from, rules) = source(item.source, in: form) {
                object["from"] = .string(from)
                object["rules"] = .object(rules)
            }
            return .object(object)
        }
    }

    /// The id of the form element (or group) a member's value comes from, and its rules.
    static func source(_ source: RemoteFill.Source, in form: ChallengeFormState) -> (String, JSONObject)? {
        let strings = form.layout.strings
        switch source {
        case .chosenOptions:
            return (FormJSON.optionsID, FormJSON.choiceRules(form.screen, strings: strings))
        case .htmlForm:
            return (FormJSON.htmlID, FormJSON.htmlRules(strings: strings))
        case .entryBox(let wanted):
            for (index, element) in form.layout.elements.enumerated() {
                guard case .textField(let box, let entry) = element, box == wanted else { continue }
                var rules = EntryRules(entry).json(strings: strings)
                // With two boxes the CReq leaves an empty one out, as the Default-SDK's does; a submit has one filled.
                if form.screen.entryBoxes.count > 1 { rules["omitIfEmpty"] = .bool(true) }
                return (FormJSON.elementID(index), rules)
            }
        case .consent(let kind):
            for (index, element) in form.layout.elements.enumerated() {
                guard case .consent(let asked, _) = element, asked == kind else { continue }
                return (FormJSON.elementID(index), ["yesNo": .bool(true)])
            }
        }
        return nil
    }
}
