import Crypto
public import Foundation
import ThreeDS2HTML
public import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
public import ThreeDS2SDKTesting

/// A failure of ``SplitClient``: a step it cannot carry out, or a call the server refused.
public struct SplitClientError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// A failure that says what went wrong.
    public init(_ description: String) { self.description = description }
}

/// The Split-SDK client's role in Swift, for the tools (the tests, the benchmarks): a second, real implementation of
/// the client protocol of docs/split-sdk.md beside the web client (not a mock). It makes the ephemeral P-256 key,
/// derives the channel keys with `ChannelKeys` when told the ACS's key, fills the values it holds into each CReq,
/// encrypts each CReq and decrypts each CRes with ThreeDS2JOSE, and posts what the steps ask. The values never leave
/// it but inside a JWE.
public actor SplitClient {
    /// The Split-SDK Server's addresses: one, or several instances each call goes to in turn, as a round-robin load
    /// balancer sends them.
    public private(set) var serverURLs: [URL]
    private var turn = 0
    /// The first address.
    public nonisolated let serverURL: URL
    private let key = P256.KeyAgreement.PrivateKey()
    /// The token the calls carry (the merchant's until `start`, then the client's).
    public private(set) var token = ""
    /// The session's texts, from `start`.
    public private(set) var texts: JSONObject = [:]
    private var keys: ChannelKeys?
    private var acsTransID = ""
    /// The values the cardholder typed, by entry box.
    private var entries: [Int: String] = [:]
    /// The other values the cardholder gave, by the name `fill.from` uses (`options`, `html`, a consent's id).
    private var values: [String: String] = [:]
    /// Every step received, in order.
    public private(set) var steps: [JSONObject] = []

    /// A client of the Split-SDK Server at `serverURL`.
    public init(serverURL: URL) {
        self.serverURL = serverURL
        serverURLs = [serverURL]
    }

    /// A client whose calls go to each of `servers` in turn (instances of one server sharing a store).
    ///
    /// - Parameter servers: At least one address.
    public init(rotatingOver servers: [URL]) {
        serverURL = servers[0]
        serverURLs = servers
    }

    /// From now on the calls go to `servers` in turn (a load balancer that stopped sending calls to an instance).
    public func route(to servers: [URL]) {
        guard !servers.isEmpty else { return }
        serverURLs = servers
        turn = 0
    }

    /// The address of the next call.
    private func nextServer() -> URL {
        defer { turn += 1 }
        return serverURLs[turn % serverURLs.count]
    }

    /// The client's ephemeral public key, as the AReq should carry it.
    public var publicKey: P256PublicJWK { P256PublicJWK(key.publicKey) }

    /// Types into an entry box (0, or 1 for the second box).
    public func type(_ value: String, box: Int = 0) { entries[box] = value }

    /// Chooses options, answers a consent question or submits an HTML page's data: the value `fill` takes from `id`.
    public func give(_ value: String, for id: String) { values[id] = value }

    /// An answer of the server: its status and its body as a JSON object (empty when it is not one).
    public typealias Answer = SplitHTTP.Answer

    /// `start` with the merchant's one-time token; returns the HTTP answer.
    public func start(merchantToken: String) async throws -> Answer {
        let answer = try await Self.send(
            nextServer().appendingPathComponent("client/v1/start"), token: merchantToken,
            body: [
                "sdkEphemPubKey": .object(P256PublicJWK(key.publicKey).jsonObject),
                "deviceInfo": .object(["C001": .string("Browser"), "C017": .string("en-GB")]),
            ])
        if answer.status == 200 {
            token = answer.json["clientToken"]?.stringValue ?? ""
            if case .object(let texts)? = answer.json["texts"] { self.texts = texts }
        }
        return answer
    }

    /// Polls `next` and follows the steps until one needs the cardholder (`present`) or ends (`finished`).
    public func run() async throws -> JSONObject {
        try await follow(try await post("client/v1/next", [:]))
    }

    /// Answers the screen on show with an action (never an entry), then follows the steps.
    public func answer(_ action: String) async throws -> JSONObject {
        guard let screen = steps.last?["screen"] else { throw SplitClientError("no screen on show") }
        return try await follow(try await post("client/v1/answer", ["screen": screen, "action": .string(action)]))
    }

    /// A call with the client token; the step it answered. As the web client does, a call whose instance was lost
    /// during it, a `409` to `answer`, `creq` or `cres` (the session was taken over: that step is no longer
    /// pending), or a `502` or `503`, asks `next` once for the step the session is at now.
    public func post(_ path: String, _ body: JSONObject) async throws -> JSONObject {
        try await post(path, body, retried: false)
    }

    private func post(_ path: String, _ body: JSONObject, retried: Bool) async throws -> JSONObject {
        let answer: Answer
        do {
            answer = try await Self.send(nextServer().appendingPathComponent(path), token: token, body: body)
        } catch {
            guard !retried, !Task.isCancelled else { throw error }
            return try await post("client/v1/next", [:], retried: true)
        }
        let superseded =
            answer.status == 409 && ["client/v1/answer", "client/v1/creq", "client/v1/cres"].contains(path)
        if superseded || [502, 503].contains(answer.status), !retried, path != "client/v1/start" {
            return try await post("client/v1/next", [:], retried: true)
        }
        guard answer.status == 200 else { throw SplitClientError("\(path) answered \(answer.status): \(answer.json)") }
        return answer.json
    }

    /// One POST with a bearer token and a JSON body.
    static func send(_ url: URL, token: String, body: JSONObject) async throws -> Answer {
        try await SplitHTTP.send("POST", url, token: token, body: body)
    }

    /// Carries out the steps the client does alone (keys, encrypt, decrypt, wait).
    public func follow(_ first: JSONObject) async throws -> JSONObject {
        var step = first
        while true {
            steps.append(step)
            switch step["step"]?.stringValue {
            case "keys":
                try derive(step)
                step = try await post("client/v1/next", [:])
            case "encrypt": step = try await post("client/v1/creq", try encrypt(step))
            case "decrypt": step = try await post("client/v1/cres", try decrypt(step))
            case "wait", "progress": step = try await post("client/v1/next", [:])
            default: return step
            }
        }
    }

    /// ECDH with the ACS's key and the Concat KDF (PartyVInfo the SDK reference number), as `ChannelKeys`.
    private func derive(_ step: JSONObject) throws {
        guard case .object(let jwk)? = step["acsEphemPubKey"],
            let reference = step["sdkReferenceNumber"]?.stringValue, let acs = step["acsTransID"]?.stringValue
        else { throw SplitClientError("a keys step without its members") }
        let acsKey = try P256PublicJWK(jsonObject: jwk)
        var secret = try key.sharedSecretFromKeyAgreement(with: acsKey.keyAgreementKey).withUnsafeBytes { Array($0) }
        keys = ChannelKeys(sharedSecret: secret, sdkReferenceNumber: reference)
        secret = Array(repeating: 0, count: secret.count)
        acsTransID = acs
    }

    /// Fills the CReq with the entries it holds (checked against the rules) and encrypts it with the counter's IV.
    private func encrypt(_ step: JSONObject) throws -> JSONObject {
        guard let keys, case .object(var creq)? = step["creq"], let counterText = step["counter"]?.stringValue,
            let counter = Int(counterText), case .array(let fill)? = step["fill"]
        else { throw SplitClientError("an encrypt step without its members") }
        for case .object(let item) in fill {
            guard let member = item["member"]?.stringValue else { throw SplitClientError("a fill without member") }
            guard let value = value(for: item) else {
                // One of two boxes left empty: the CReq leaves it out.
                if case .object(let rules)? = item["rules"], rules["omitIfEmpty"] == .bool(true) { continue }
                throw SplitClientError("nothing to fill for \(item.serialized)")
            }
            if case .object(let rules)? = item["rules"], case .number(let max)? = rules["maxLength"],
                value.count > Int(max) ?? 0
            {
                throw SplitClientError("the entry breaks the rules")
            }
            creq[member] = .string(value)
        }
        let encrypter = try JWE.DirectEncrypter(
            key: keys.sdkToACS(.a128cbcHS256), encryption: .a128cbcHS256, keyID: acsTransID)
        let jwe = try encrypter.encrypt(
            creq.serializedBytes, iv: ChannelKeys.counterIV(counter, encryption: .a128cbcHS256, fromSDK: true))
        return ["exchange": step["exchange"] ?? .null, "jwe": .string(jwe)]
    }

    /// The value a `fill` item takes: what was given for its `from`, `N` for a consent question left unanswered (as a
    /// checkbox left unticked), else the text of its entry box.
    private func value(for item: JSONObject) -> String? {
        if let from = item["from"]?.stringValue, let value = values[from] { return value }
        if case .object(let rules)? = item["rules"], rules["yesNo"] == .bool(true) { return "N" }
        guard case .number(let boxText)? = item["box"], let box = Int(boxText), let value = entries[box], !value.isEmpty
        else { return nil }
        return value
    }

    /// Decrypts the ACS's answer with the ACS→SDK key (kid held to acsTransID) and forwards the JSON object.
    private func decrypt(_ step: JSONObject) throws -> JSONObject {
        guard let keys, let jwe = step["jwe"]?.stringValue else { throw SplitClientError("a decrypt step without jwe") }
        let exchange = step["exchange"] ?? .null
        let plaintext: [UInt8]
        do {
            plaintext = try keys.decrypt(jwe, fromSDK: false, acsTransID: acsTransID).plaintext
        } catch {
            return ["exchange": exchange, "error": .object(["kind": .string("decryption"), "detail": .string("")])]
        }
        guard case .object(let cres)? = try? JSONParser().parse(plaintext) else {
            return ["exchange": exchange, "error": .object(["kind": .string("json"), "detail": .string("")])]
        }
        return ["exchange": exchange, "cres": .object(cres)]
    }
}

extension SplitClient {
    /// What a scripted answer (the `--answers` file's, ``ScriptedAnswer``) does on the screen on show: the values it
    /// gives the client (entries, chosen options, an HTML page's form data, consents), then the action the client
    /// answers the screen with (never a value).
    ///
    /// - Parameter scripted: The answer.
    /// - Returns: The step the answer led to (the next screen, or `finished`).
    /// - Throws: ``SplitClientError`` when no screen is on show or a call fails.
    public func answer(scripted: ScriptedAnswer) async throws -> JSONObject {
        switch scripted {
        case .text(let text, let second, let whitelist, let binding):
            type(text)
            if let second { type(second, box: 1) }
            consent(whitelist: whitelist, deviceBinding: binding)
            return try await answer(text.isEmpty && (second ?? "").isEmpty ? "submitEmpty" : "submit")
        case .select(let keys, let whitelist, let binding):
            give(keys.joined(separator: ","), for: "options")
            consent(whitelist: whitelist, deviceBinding: binding)
            return try await answer("submit")
        case .html(let fields, let button, let whitelist, let binding):
            give(try await htmlFormData(fields: fields, button: button), for: "html")
            consent(whitelist: whitelist, deviceBinding: binding)
            return try await answer("submit")
        case .continue(let whitelist, let binding):
            consent(whitelist: whitelist, deviceBinding: binding)
            return try await answer("continue")
        case .additional(let whitelist, let binding):
            consent(whitelist: whitelist, deviceBinding: binding)
            return try await answer("additionalCode")
        case .openApp(let result):
            let opened = try await answer("openApp")
            guard opened["step"]?.stringValue == "openApp" else { return opened }
            let reported =
                switch result {
                case .returned: "appReturned"
                case .opened: "appOpened"
                case .failed: "appOpenFailed"
                }
            return try await answer(reported)
        case .resend: return try await answer("resend")
        case .cancel: return try await answer("cancel")
        }
    }

    /// Answers the consent questions of the screen on show (`Y` or `N`, by the question's element ID); a question
    /// the answer leaves out stays unanswered (`N`, as an unticked box).
    private func consent(whitelist: Bool?, deviceBinding: Bool?) {
        guard case .object(let form)? = steps.last?["form"], case .array(let elements)? = form["elements"] else {
            return
        }
        for case .object(let element) in elements where element["kind"]?.stringValue == "consent" {
            guard let id = element["id"]?.stringValue else { continue }
            let answer = element["consent"]?.stringValue == "trust" ? whitelist : deviceBinding
            if let answer { give(answer ? "Y" : "N", for: id) }
        }
    }

    /// The form data of the HTML page on show as the page's form submits it, read as the Default-SDK reads it
    /// (`LibXML2FormReader`, ``HTMLForm/submission(fields:button:)``): the page loaded once from the server, as the web
    /// client's frame loads it.
    private func htmlFormData(fields: [String: String], button: String?) async throws -> String {
        guard case .object(let form)? = steps.last?["form"], case .object(let html)? = form["html"],
            let path = html["url"]?.stringValue
        else { throw SplitClientError("the screen on show has no HTML page") }
        let page = try await SplitHTTP.text(nextServer().appendingPathComponent("client/v1/" + path))
        guard page.status == 200 else { throw SplitClientError("the HTML page answered HTTP \(page.status)") }
        do {
            return try LibXML2FormReader().form(fromHTML: page.text).submission(fields: fields, button: button)
        } catch {
            throw SplitClientError("the answer does not fit the HTML page: \(error.message)")
        }
    }
}
