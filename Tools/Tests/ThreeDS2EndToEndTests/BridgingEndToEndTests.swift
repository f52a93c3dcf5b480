import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK
import ThreeDS2TestLab

/// The Bridging extension on 2.2.0 against the TestLab's Mastercard-like scenario, whose ACS refuses (with an Erro,
/// recorded as a refusal) any CReq whose Bridging breaks the bridging reference's rules.
@Suite("Bridging (2.2.0) end to end against the TestLab over HTTPS")
struct BridgingEndToEndTests {
    /// The extension entries of a CReq.
    func bridging(_ request: JSONObject) -> JSONObject? {
        request["messageExtension"]?.arrayValue?.compactMap(\.objectValue).first { $0["id"] == .string(Bridging.id) }
    }

    func challengeData(_ request: JSONObject) -> JSONObject? {
        bridging(request)?["data"]?.objectValue?["challengeData"]?.objectValue
    }

    func expectClean(_ run: Run) throws -> ACSRecord {
        let record = try #require(run.record)
        #expect(record.refusals.isEmpty, "the ACS refused a CReq: \(record.refusals)")
        #expect(record.errors.isEmpty)
        for request in record.requests { #expect(request["oobAppURLInd"] == nil && request["oobAppStatus"] == nil) }
        return record
    }

    @Test("open the app and come back: announced, linked, and continued with oobContinue true and Bridging 02")
    func returned() async throws {
        let run = try await ThreeDS2EndToEndTests.run(
            .bridging, version: "2.2.0", answers: [.openApp(result: .returned)])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        let record = try expectClean(run)
        #expect(record.requests.count == 2)
        let first = try #require(record.requests.first)
        #expect(bridging(first)?["criticalityIndicator"] == .bool(false))
        #expect(bridging(first)?["data"]?.objectValue?["version"] == .string("1.0"))
        #expect(challengeData(first) == ["oobAppURLInd": .string("01")])
        let screen = try #require(run.presenter.screens.first)
        #expect(screen.uiType == .outOfBand && screen.oobAppURL == "https://bank.testlab.example/approve")
        #expect(screen.oobAppLabel == "Open banking app")
        let last = try #require(record.requests.last)
        #expect(last["oobContinue"] == .bool(true))
        #expect(challengeData(last) == ["oobAppURLInd": .string("01"), "oobContinue": .string("02")])
    }

    @Test("a failed open keeps the screen; continue then carries oobContinue true and no Bridging")
    func failedOpen() async throws {
        let run = try await ThreeDS2EndToEndTests.run(
            .bridging, version: "2.2.0", answers: [.openApp(result: .failed), .continue()])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        let record = try expectClean(run)
        #expect(bridging(try #require(record.requests.first)) != nil)
        let last = try #require(record.requests.last)
        #expect(last["oobContinue"] == .bool(true) && last["messageExtension"] == nil)
    }

    @Test("no Bridging without a requestor app URL, without an opener, or when the app forbids opening apps")
    func notAnnounced() async throws {
        let runs = [
            try await ThreeDS2EndToEndTests.run(
                .bridging, version: "2.2.0", answers: [.continue()], requestorAppURL: nil),
            try await ThreeDS2EndToEndTests.run(.bridging, version: "2.2.0", answers: [.continue()], opensApps: false),
            try await ThreeDS2EndToEndTests.run(
                .bridging, version: "2.2.0", answers: [.continue()], appsAllowed: false),
        ]
        for run in runs {
            #expect(run.outcome == .completed(transStatus: .authenticated))
            let record = try expectClean(run)
            #expect(record.requests.allSatisfy { $0["messageExtension"] == nil })
            #expect(run.presenter.screens.first?.oobAppURL == nil)
        }
    }

    @Test("2.1.0 and 2.3.1 never carry Bridging; 2.3.1 links the app through its core fields as before")
    func otherVersions() async throws {
        let old = try await ThreeDS2EndToEndTests.run(.bridging, version: "2.1.0", answers: [.continue()])
        #expect(old.outcome == .completed(transStatus: .authenticated))
        #expect(try #require(old.record).requests.allSatisfy { $0["messageExtension"] == nil })
        #expect(old.presenter.screens.first?.oobAppURL == nil)
        let new = try await ThreeDS2EndToEndTests.run(.bridging, version: "2.3.1", answers: [.openApp()])
        #expect(new.outcome == .completed(transStatus: .authenticated))
        let record = try #require(new.record)
        #expect(record.refusals.isEmpty && record.requests.allSatisfy { $0["messageExtension"] == nil })
        #expect(record.requests.last?["oobContinue"] == .string("02"))
    }

    @Test("an ACS that does not answer with Bridging: no app link, a plain continue")
    func acsWithoutBridging() async throws {
        let run = try await ThreeDS2EndToEndTests.run(.outOfBand, version: "2.2.0", answers: [.continue()])
        #expect(run.outcome == .completed(transStatus: .authenticated))
        let record = try expectClean(run)
        #expect(bridging(try #require(record.requests.first)) != nil)
        #expect(run.presenter.screens.first?.oobAppURL == nil)
        #expect(record.requests.last?["messageExtension"] == nil)
    }
}
