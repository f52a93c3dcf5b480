import Foundation
import ThreeDS2SplitServer
import ThreeDS2TestLab

/// The client role of these tests: the tools' Swift implementation of the client protocol (``SplitClient``).
typealias SwiftSplitClient = SplitClient

extension SplitClient {
    /// A client of the fixture's Split-SDK Server.
    init(fixture: SplitFixture) { self.init(serverURL: fixture.running.baseURL) }
}
