import ThreeDS2JOSE
import ThreeDS2Messages
@_spi(ThreeDS2SplitServer) import ThreeDS2SDK

/// The client as the core's presenter: each form state the core builds goes to the client as a `present` step;
/// the client's action (never an entry) goes through the same form state, so the core decides what it means
/// (``ChallengeFormState/perform(_:)``), and a refused action comes back as the same screen with the core's note.
struct RemotePresenter: ChallengePresenter {
    let link: ClientLink

    /// The actions a client may send.
    static let actions: Set<String> = ["submit", "submitEmpty", "resend", "cancel", "continue", "additionalCode"]

    func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        var form = form
        var screen = await link.present(form)
        while true {
            guard case .answer(_, let action)? = await link.input(.answer(screen: screen)) else {
                // The timers ended the screen; the core ignores this answer.
                return ChallengeAnswer(.cancel)
            }
            if case .send(let answer)? = Self.perform(action, on: &form) { return answer }
            screen = await link.present(form)
        }
    }

    /// The client's action on the form state. `submit` fills each entry box with a stand-in the core's checks
    /// accept: the CReq leaves the core without it (``RemoteFill``) and the client writes the cardholder's value.
    static func perform(_ action: String, on form: inout ChallengeFormState) -> FormEffect? {
        switch action {
        case "submit":
            for box in 0..<max(1, form.screen.entryBoxes.count) { _ = form.perform(.setEntry("0", box: box)) }
            return form.perform(.submit())
        case "submitEmpty": return form.perform(.submit())
        case "resend": return form.perform(.resend)
        case "cancel": return form.perform(.cancel)
        case "continue": return form.perform(.continueChallenge)
        case "additionalCode": return form.perform(.additionalCode)
        default: return nil
        }
    }

    /// What the web client draws: native screens, text (UI 01) in this first part.
    func renderOptions(for version: MessageVersion) -> DeviceRenderOptions {
        DeviceRenderOptions(interface: .native, uiTypes: [.text])
    }
}

/// The client as the core's remote channel end: it fills and encrypts each CReq and decrypts each answer.
struct RemoteClient: RemoteChallengeChannel {
    let link: ClientLink

    func encrypt(_ request: RemoteChallengeRequest) async -> [UInt8] {
        let exchange = await link.nextExchange()
        let fill = await Self.fill(request.fill, form: link.form)
        await link.publish([
            "step": .string("encrypt"), "exchange": .number("\(exchange)"),
            "counter": .string(ChallengeRequestBuilder.counterText(request.counter)), "creq": .object(request.request),
            "fill": .array(fill), "encryption": .string("A128CBC-HS256"),
        ])
        guard case .creq(_, let jwe)? = await link.input(.creq(exchange: exchange)) else { return [] }
        return jwe
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

    /// The `fill` list: each member with the form element it takes its value from and that element's rules.
    static func fill(_ fill: [RemoteFill], form: ChallengeFormState?) -> [JSONValue] {
        fill.map { item in
            var object: JSONObject = ["member": .string(item.member), "box": .number("\(item.box)")]
            let elements = form?.layout.elements ?? []
            for (index, element) in elements.enumerated() {
                guard case .textField(let box, let entry) = element, box == item.box else { continue }
                object["from"] = .string(FormJSON.elementID(index))
                object["rules"] = .object(EntryRules(entry).json(strings: form?.layout.strings ?? .english))
            }
            return .object(object)
        }
    }
}
