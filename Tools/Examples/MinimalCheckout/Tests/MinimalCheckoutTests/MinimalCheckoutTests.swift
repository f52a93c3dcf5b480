import Foundation
import MinimalCheckout
import Testing
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab

/// The example app against the TestLab on loopback: plain HTTP, because Linux `URLSession` cannot trust the lab's
/// private TLS root; the SDK allows that on loopback only when the configuration says so. The SDK's timers run on a
/// clock the test never moves: a payment on a busy machine waits for the lab as long as it takes, and a lost answer
/// is caught by the transport's own deadline, not by the wait for a CRes.
@Suite("Example app (core only, URLSession)")
struct MinimalCheckoutTests {
    static func checkout(_ lab: TestLab) throws -> MinimalCheckout<ManualClock> {
        var config = try lab.sdkConfiguration(
            dataDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("minimal-\(UUID())").path)
        config.allowsPlainHTTPLoopback = true
        return try MinimalCheckout(backend: lab.baseURL, configuration: config, clock: ManualClock())
    }

    @Test("a frictionless payment and a code challenge complete over URLSession")
    func payments() async throws {
        let lab = try await TestLab.start(options: TestLabOptions(useTLS: false))
        let checkout = try Self.checkout(lab)
        let frictionless = try await checkout.pay(
            cardNumber: Scenario.frictionlessY.cardNumber, amount: "1999", currency: "978",
            directoryServerID: TestLab.rsaDirectoryServerID, code: "123456")
        #expect(frictionless == .frictionless(transStatus: .authenticated))
        let challenged = try await checkout.pay(
            cardNumber: Scenario.text.cardNumber, amount: "1999", currency: "978",
            directoryServerID: TestLab.ecDirectoryServerID, code: "123456")
        #expect(challenged == .challenged(.completed(transStatus: .authenticated)))
        let wrong = try await checkout.pay(
            cardNumber: Scenario.singleSelect.cardNumber, amount: "1999", currency: "978",
            directoryServerID: TestLab.rsaDirectoryServerID, code: "123456")
        #expect(wrong == .challenged(.cancelled), "a screen the presenter does not handle is cancelled")
        await lab.stop()
    }
}
