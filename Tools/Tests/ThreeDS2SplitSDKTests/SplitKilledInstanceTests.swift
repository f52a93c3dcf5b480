import Crypto
import Foundation
import Testing
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2SplitServer
import ThreeDS2TestLab

#if canImport(Glibc)
    import Glibc
#endif

/// Two Split-SDK Server instances as processes of their own (`split-instance`, built beside the tests), sharing the
/// tests' PostgreSQL, in front of one TestLab whose PKI folder registers them: one is killed with SIGKILL in each
/// state of a challenge, and the other ends the challenge as it should.
@Suite("Split-SDK: an instance killed with SIGKILL", .serialized)
struct SplitKilledInstanceTests {
    /// The two processes and what the test gives them.
    struct Processes {
        let lab: TestLab
        let first: (process: Process, url: URL)
        let second: (process: Process, url: URL)
        let merchant: (SplitMerchant, SplitMerchant)
        let folder: URL

        static func start() async throws -> Processes {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "threeds-split-killed-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // The ACS holds its first answer to the slow card for 30 s: long enough to kill an instance meanwhile.
            let lab = try await TestLab.start(
                options: TestLabOptions(
                    slowResponseDelay: .seconds(30), pkiDirectory: folder.appendingPathComponent("pki")))
            let keyFile = folder.appendingPathComponent("api-key")
            let sealingFile = folder.appendingPathComponent("sealing-key")
            try Data((SplitFixture.apiKey + "\n").utf8).write(to: keyFile)
            try Data(SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString().utf8).write(
                to: sealingFile)
            let arguments = [
                folder.appendingPathComponent("pki").path, keyFile.path, sealingFile.path,
                ProcessInfo.processInfo.environment["THREEDS_TEST_POSTGRES_PORT"] ?? "5432",
            ]
            let first = try await Self.launch(arguments)
            let second = try await Self.launch(arguments)
            return Processes(
                lab: lab, first: first, second: second,
                merchant: (
                    SplitMerchant(serverURL: first.url, apiKey: SplitFixture.apiKey),
                    SplitMerchant(serverURL: second.url, apiKey: SplitFixture.apiKey)
                ), folder: folder)
        }

        /// Starts one instance and waits (at most two minutes) for the address it prints.
        static func launch(_ arguments: [String]) async throws -> (process: Process, url: URL) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("split-instance")
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let line = try await Task.detached { () throws -> String in
                var text = ""
                let handle = output.fileHandleForReading
                while !text.contains("\n") {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    text += String(decoding: data, as: UTF8.self)
                }
                return text
            }.value
            guard line.hasPrefix("listening on "),
                let url = URL(
                    string: String(line.dropFirst("listening on ".count)).trimmingCharacters(
                        in: .whitespacesAndNewlines))
            else {
                process.terminate()
                throw SplitTestError("split-instance did not start: \(line)")
            }
            return (process, url)
        }

        /// Kills the first instance (SIGKILL: no code of it runs again) and waits for its end.
        func killTheFirst() {
            kill(first.process.processIdentifier, SIGKILL)
            first.process.waitUntilExit()
        }

        func stop() async {
            for process in [first.process, second.process] where process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            await lab.stop()
            try? FileManager.default.removeItem(at: folder)
        }

        /// A session of `scenario` created and handed over on the first instance; its client calls the first.
        func challenge(_ scenario: Scenario) async throws -> (SplitClient, SplitMerchant.Session) {
            let client = SplitClient(serverURL: first.url)
            let session = try await merchant.0.createSession(
                messageVersion: .v2_3_1, directoryServerID: TestLab.rsaDirectoryServerID.rawValue)
            #expect(try await client.start(merchantToken: session.clientToken).status == 200)
            var areq = try await merchant.0.authenticationRequestParameters(of: session.id)
            for member in Purchase(cardNumber: scenario.cardNumber, amount: "1999", currency: "978").fields.members {
                areq[member.name] = member.value
            }
            let transport = try lab.makeTransport()
            defer { Task { try? await transport.shutdown() } }
            let response = try await ThreeDSServerClient(serverURL: lab.baseURL, transport: transport).authenticate(
                body: areq, messageVersion: .v2_3_1)
            try await merchant.0.challenge(session.id, with: try #require(response.challengeParameters))
            return (client, session)
        }
    }

    @Test("killed at the screen: the other instance shows it again; the code answered there completes with Y")
    func killedAtTheScreen() async throws {
        let processes = try await Processes.start()
        defer { Task { await processes.stop() } }
        let (client, session) = try await processes.challenge(.text)
        let present = try await client.run()
        #expect(present["step"]?.stringValue == "present", "\(present.serialized)")
        processes.killTheFirst()
        await client.route(to: [processes.second.url])
        await client.type("123456")
        let finished = try await client.answer("submit")
        #expect(SplitChallengeTests.outcome(finished)?["transStatus"]?.stringValue == "Y", "\(finished.serialized)")
        #expect(try await processes.merchant.1.status(of: session.id)["state"]?.stringValue == "finished")
        let acsTransID = try await SplitSharedStoreTests.acsTransID(client)
        let acs = try #require(await processes.lab.acsRecord(acsTransID: acsTransID))
        #expect(acs.requests.map { $0["sdkCounterStoA"]?.stringValue } == ["000", "001"], "a counter twice")
    }

    @Test("killed with a CReq at the ACS: the other instance sends Erro 402, timed out; the CReq is never sent again")
    func killedWithACReqInFlight() async throws {
        let processes = try await Processes.start()
        defer { Task { await processes.stop() } }
        let (client, session) = try await processes.challenge(.faultSlow)
        let following = Task { try await client.run() }
        let acsTransID = try await SplitSharedStoreTests.waitForKeys(client)
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while (await processes.lab.acsRecord(acsTransID: acsTransID))?.requests.isEmpty ?? true,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        processes.killTheFirst()
        following.cancel()
        _ = await following.result
        await client.route(to: [processes.second.url])
        let finished = try await client.run()
        #expect(SplitChallengeTests.outcome(finished)?["kind"]?.stringValue == "timedOut", "\(finished.serialized)")
        #expect(
            try await processes.merchant.1.status(of: session.id)["outcome"]?.objectValue?["kind"]?.stringValue
                == "timedOut")
        let acs = try #require(await processes.lab.acsRecord(acsTransID: acsTransID))
        #expect(acs.requests.count == 1, "the CReq was sent again")
        #expect(acs.errors.compactMap { $0["errorCode"]?.stringValue } == ["402"])
    }
}
