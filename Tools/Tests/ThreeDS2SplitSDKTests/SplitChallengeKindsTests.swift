import Foundation
import NIOHTTP1
import Testing
import ThreeDS2JOSE
import ThreeDS2SplitServer
import ThreeDS2TestLab

/// Every TestLab challenge kind through the Split-SDK Server (2.3.1), the client role played by ``SwiftSplitClient``:
/// the server lays out each screen and names what the client fills; what the cardholder chose, consented to or typed
/// into an HTML page reaches the ACS inside the client's JWE and never the server.
@Suite("Split-SDK: every challenge kind", .serialized)
struct SplitChallengeKindsTests {
    /// A challenge at its first screen: the fixture, the client, the form and the ACS transaction ID.
    struct Started {
        let fixture: SplitFixture
        let client: SwiftSplitClient
        let form: JSONObject
        let acsTransID: String
    }

    static func firstScreen(_ scenario: Scenario) async throws -> Started {
        let (fixture, client, _) = try await SplitChallengeTests.challenge(scenario)
        let present = try await client.run()
        let keys = try #require(await client.steps.first { $0["step"]?.stringValue == "keys" })
        return Started(
            fixture: fixture, client: client, form: try #require(object(present["form"])),
            acsTransID: try #require(keys["acsTransID"]?.stringValue))
    }

    static func elements(_ form: JSONObject, _ kind: String) -> [JSONObject] {
        objects(form["elements"]).filter { $0["kind"] == .string(kind) }
    }

    /// The last `encrypt` step the client was given.
    static func lastEncrypt(_ client: SwiftSplitClient) async throws -> JSONObject {
        try #require(await client.steps.last { $0["step"]?.stringValue == "encrypt" })
    }

    /// The CReqs the lab's ACS received (decrypted there).
    static func received(_ started: Started) async throws -> [JSONObject] {
        try #require(await started.fixture.lab.acsRecord(acsTransID: started.acsTransID)).requests
    }

    static func transStatus(_ step: JSONObject) -> String? {
        SplitChallengeTests.outcome(step)?["transStatus"]?.stringValue
    }

    @Test("single select: the chosen key is filled by the client from `options` (choose one), never in the CReq sent")
    func singleSelect() async throws {
        let started = try await Self.firstScreen(.singleSelect)
        defer { Task { await started.fixture.stop() } }
        #expect(started.form["uiType"]?.stringValue == "02")
        #expect(Self.elements(started.form, "option").compactMap { $0["key"]?.stringValue } == ["sms", "mail"])
        await started.client.give("mail", for: "options")
        #expect(Self.transStatus(try await started.client.answer("submit")) == "Y")
        let encrypt = try await Self.lastEncrypt(started.client)
        #expect(object(encrypt["creq"])?["challengeDataEntry"] == nil)
        let fill = try #require(objects(encrypt["fill"]).first)
        #expect(fill["from"]?.stringValue == "options")
        #expect(object(fill["rules"])?["choose"]?.stringValue == "one")
        #expect(object(fill["rules"])?["keys"] == .array([.string("sms"), .string("mail")]))
        #expect(try await Self.received(started).last?["challengeDataEntry"]?.stringValue == "mail")
    }

    @Test("multi select: q1 and q3 chosen in the client → Y")
    func multiSelect() async throws {
        let started = try await Self.firstScreen(.multiSelect)
        defer { Task { await started.fixture.stop() } }
        #expect(started.form["uiType"]?.stringValue == "03")
        await started.client.give("q1,q3", for: "options")
        #expect(Self.transStatus(try await started.client.answer("submit")) == "Y")
        let fill = try #require(objects(try await Self.lastEncrypt(started.client)["fill"]).first)
        #expect(object(fill["rules"])?["choose"]?.stringValue == "some")
        #expect(try await Self.received(started).last?["challengeDataEntry"]?.stringValue == "q1,q3")
    }

    @Test("out of band: no app link for a client that cannot open apps (oobAppURLInd 02); continue → Y")
    func outOfBand() async throws {
        let started = try await Self.firstScreen(.outOfBand)
        defer { Task { await started.fixture.stop() } }
        #expect(started.form["uiType"]?.stringValue == "04")
        let buttons = Self.elements(started.form, "button")
        #expect(buttons.contains { $0["action"]?.stringValue == "continue" })
        #expect(!buttons.contains { $0["type"]?.stringValue == "OPEN_OOB_APP" })
        #expect(Self.transStatus(try await started.client.answer("continue")) == "Y")
        let requests = try await Self.received(started)
        #expect(requests.first?["oobAppURLInd"]?.stringValue == "02")
        #expect(requests.last?["oobContinue"] != nil)
    }

    @Test("HTML: the locked-down page goes to the client; its form data, filled from `html`, reaches the ACS only")
    func html() async throws {
        let started = try await Self.firstScreen(.html)
        defer { Task { await started.fixture.stop() } }
        #expect(started.form["uiType"]?.stringValue == "05")
        let document = try await Self.page(started, form: started.form)
        #expect(document.hasPrefix("<meta http-equiv=\"Content-Security-Policy\""))
        #expect(document.contains("script-src 'none'") && document.contains("name=\"otp\""))
        await started.client.give("action=resend", for: "html")
        let resent = try await started.client.answer("submit")
        #expect(try await Self.page(started, form: try #require(object(resent["form"]))).contains("A new code"))
        let data = "txid=\(started.acsTransID)&otp=123456&remember=yes&action=verify"
        await started.client.give(data, for: "html")
        #expect(Self.transStatus(try await started.client.answer("submit")) == "Y")
        let encrypt = try await Self.lastEncrypt(started.client)
        #expect(object(encrypt["creq"])?["challengeHTMLDataEntry"] == nil)
        let fill = try #require(objects(encrypt["fill"]).first)
        #expect(fill["from"]?.stringValue == "html")
        #expect(object(fill["rules"])?["maxBytes"] == .number("256"))
        #expect(try await Self.received(started).last?["challengeHTMLDataEntry"]?.stringValue == data)
        #expect(!(await started.fixture.server.storedState()).contains("123456"))
    }

    /// The HTML page a form names, loaded as the client's frame loads it: once, with the page's own policy.
    static func page(_ started: Started, form: JSONObject) async throws -> String {
        let path = try #require(object(form["html"])?["url"]?.stringValue)
        #expect(path.hasPrefix("pages/") && path.contains("/pg_"))
        let url = started.fixture.url("client/v1/" + path)
        let first = try await HTTP.send(.GET, url)
        #expect(first.status == 200)
        let policy = first.headers.first(name: "Content-Security-Policy") ?? ""
        #expect(policy.contains("sandbox allow-same-origin") && policy.contains("default-src 'none'"))
        #expect(try await HTTP.send(.GET, url).status == 404, "the page was served twice")
        return String(decoding: first.bytes, as: UTF8.self)
    }

    @Test("HTML out of band (UI 06): the page's approve button's data with oobContinue → Y")
    func htmlOutOfBand() async throws {
        let started = try await Self.firstScreen(.htmlOutOfBand)
        defer { Task { await started.fixture.stop() } }
        #expect(started.form["uiType"]?.stringValue == "06")
        let data = "txid=\(started.acsTransID)&action=approved"
        await started.client.give(data, for: "html")
        #expect(Self.transStatus(try await started.client.answer("submit")) == "Y")
        let last = try #require(try await Self.received(started).last)
        #expect(last["challengeHTMLDataEntry"]?.stringValue == data)
        #expect(last["oobContinue"] != nil)
    }

    @Test("information (UI 07): continue, then the code screen; the right code → Y")
    func information() async throws {
        let started = try await Self.firstScreen(.information)
        defer { Task { await started.fixture.stop() } }
        #expect(started.form["uiType"]?.stringValue == "07")
        let next = try await started.client.answer("continue")
        #expect(object(next["form"])?["uiType"]?.stringValue == "01")
        #expect(try await Self.received(started).last?["infoContinueIndicator"] == .bool(true))
        await started.client.type("123456")
        #expect(Self.transStatus(try await started.client.answer("submit")) == "Y")
    }

    @Test("two entry boxes: each filled from its own box, with its own rules → Y")
    func twoEntryBoxes() async throws {
        let started = try await Self.firstScreen(.twoEntryBoxes)
        defer { Task { await started.fixture.stop() } }
        #expect(Self.elements(started.form, "entry").count == 2)
        await started.client.type("123456")
        await started.client.type("1990", box: 1)
        #expect(Self.transStatus(try await started.client.answer("submit")) == "Y")
        // Then the lab's trust-list question, left unanswered: N.
        let fill = objects(try await Self.lastEncrypt(started.client)["fill"])
        #expect(
            fill.map { $0["member"]?.stringValue } == [
                "challengeDataEntry", "challengeDataEntryTwo", "trustListDataEntry",
            ])
        #expect(Set(fill.compactMap { $0["from"]?.stringValue }).count == 3)
    }

    @Test("two entry boxes, the second left empty: the CReq carries the first box only, as the Default-SDK's does")
    func twoEntryBoxesOneEmpty() async throws {
        let started = try await Self.firstScreen(.twoEntryBoxes)
        defer { Task { await started.fixture.stop() } }
        await started.client.type("123456")
        let next = try await started.client.answer("submit")
        // The lab asks for both: the same screen again.
        #expect(next["step"]?.stringValue == "present", "\(next.serialized)")
        let fill = objects(try await Self.lastEncrypt(started.client)["fill"])
        #expect(fill.filter { object($0["rules"])?["omitIfEmpty"] == .bool(true) }.count == 2)
        let last = try #require(try await Self.received(started).last)
        #expect(last["challengeDataEntry"]?.stringValue == "123456")
        #expect(last["challengeDataEntryTwo"] == nil)
    }

    @Test("additional code: the button's CReq, the out-of-band screen, continue → Y")
    func additionalCode() async throws {
        let started = try await Self.firstScreen(.additionalCode)
        defer { Task { await started.fixture.stop() } }
        #expect(Self.elements(started.form, "button").contains { $0["action"]?.stringValue == "additionalCode" })
        let oob = try await started.client.answer("additionalCode")
        #expect(object(oob["form"])?["uiType"]?.stringValue == "04")
        #expect(try await Self.received(started).last?["challengeAddCode"]?.stringValue == "Y")
        #expect(Self.transStatus(try await started.client.answer("continue")) == "Y")
    }

    @Test("consents: the trust-list and device-binding answers are filled by the client, never in the CReq sent")
    func consents() async throws {
        let started = try await Self.firstScreen(.consents)
        defer { Task { await started.fixture.stop() } }
        let consents = Self.elements(started.form, "consent")
        #expect(consents.compactMap { $0["consent"]?.stringValue } == ["trust", "deviceBinding"])
        await started.client.give("Y", for: try #require(consents.first?["id"]?.stringValue))
        await started.client.give("N", for: try #require(consents.last?["id"]?.stringValue))
        await started.client.type("123456")
        #expect(Self.transStatus(try await started.client.answer("submit")) == "Y")
        let encrypt = try await Self.lastEncrypt(started.client)
        let sent = try #require(object(encrypt["creq"]))
        #expect(sent["trustListDataEntry"] == nil && sent["deviceBindingDataEntry"] == nil)
        #expect(
            objects(encrypt["fill"]).map { $0["member"]?.stringValue }
                == ["challengeDataEntry", "trustListDataEntry", "deviceBindingDataEntry"])
        let last = try #require(try await Self.received(started).last)
        #expect(last["trustListDataEntry"]?.stringValue == "Y" && last["deviceBindingDataEntry"]?.stringValue == "N")
    }
}
