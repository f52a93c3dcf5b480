import Foundation
import ThreeDS2NIOTransport
import ThreeDS2SDK
import ThreeDS2SDKTesting
import ThreeDS2TestLab
import ThreeDS2TestSupport

// One transport exchange against the hostile server, in a process of its own so that the peak memory it reports is
// this exchange's alone (tests in the test process run in parallel and would add theirs).
//
// Usage: hostile-transport-probe urlSession|asyncHTTPClient|imageLoader-urlSession|imageLoader-asyncHTTPClient PATH BOUND
// Prints one line: `code=<TransportError code or status> growth=<bytes> elapsed=<milliseconds>`.

let arguments = CommandLine.arguments
guard arguments.count == 4, let bound = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: hostile-transport-probe KIND PATH BOUND\n".utf8))
    exit(2)
}
let kind = arguments[1]
let path = arguments[2]
let useTLS = kind.hasSuffix("asyncHTTPClient")
// The bomb is made before the measurement starts: it is the server's, not the client's.
_ = HostileServer.gzipBomb.count
let server = try await HostileServer.start(useTLS: useTLS)
let transport: any ChallengeTransport =
    useTLS ? try HTTPClientTransport(additionalTrustRootsPEM: [server.rootPEM ?? ""]) : URLSessionTransport()
let base = PeakMemory.reset()
let clock = ContinuousClock()
let started = clock.now
let code: String
if kind.hasPrefix("imageLoader") {
    let url = server.url(path, host: "127.0.0.1")
    if useTLS {
        let image = await ChallengeImageLoader(transport: transport).image(
            for: ImageReference(url: url.absoluteString, alternativeText: "logo"))
        code = image == nil ? "refused" : "accepted"
    } else {
        // The loader takes https only; Linux URLSession reaches the server over plain HTTP, so its transport is
        // driven with the loader's own request.
        do throws(TransportError) {
            _ = try await transport.send(
                TransportRequest(
                    method: .get, url: url, timeout: ChallengeImageLoader.timeout,
                    maxResponseBytes: ChallengeImageLoader.maxBytes))
            code = "accepted"
        } catch {
            code = error.code == .responseTooLarge ? "refused" : error.code.description
        }
    }
} else {
    do throws(TransportError) {
        let response = try await transport.send(
            TransportRequest(method: .get, url: server.url(path), timeout: .seconds(60), maxResponseBytes: bound))
        code = "status-\(response.status)"
    } catch {
        code = error.code.description
    }
}
let elapsed = started.duration(to: clock.now)
let growth = PeakMemory.peak - base
print(
    "code=\(code) growth=\(growth) elapsed=\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)"
)
if let nio = transport as? HTTPClientTransport { try? await nio.shutdown() }
await server.stop()
