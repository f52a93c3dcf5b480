// Apple-only: compiled and run by `.github/workflows/apple.yml` (`xcodebuild test` on an iOS Simulator).
#if os(iOS)
    import Foundation
    import Security
    import Testing
    import ThreeDS2SDKTesting

    @_spi(ThreeDS2Tools) @testable import ThreeDS2SDK

    /// A protection space carrying a server trust built by the test (the system sets it only for real connections).
    /// `NSURLProtectionSpace` is `NS_SWIFT_SENDABLE` (`NSURLProtectionSpace.h`), so a subclass restates its sendability;
    /// unchecked because its one stored property, the immutable `SecTrust`, is not declared `Sendable`.
    private final class TrustSpace: URLProtectionSpace, @unchecked Sendable {
        let trust: SecTrust
        init(host: String, trust: SecTrust) {
            self.trust = trust
            super.init(
                host: host, port: 443, protocol: NSURLProtectionSpaceHTTPS, realm: nil,
                authenticationMethod: NSURLAuthenticationMethodServerTrust)
        }
        required init?(coder: NSCoder) { nil }
        override var serverTrust: SecTrust? { trust }
    }

    /// The sender a challenge needs; the delegate answers through its completion handler instead.
    private final class IgnoringSender: NSObject, URLAuthenticationChallengeSender {
        func use(_ credential: URLCredential, for challenge: URLAuthenticationChallenge) {}
        func continueWithoutCredential(for challenge: URLAuthenticationChallenge) {}
        func cancel(_ challenge: URLAuthenticationChallenge) {}
    }

    /// URLSessionTransport's TLS rule on Apple platforms: after the system's trust evaluation, the leaf must name the
    /// host (RFC 9525), as every other transport requires.
    @Suite("URLSessionTransport's TLS host rule on iOS")
    struct URLSessionTransportAppleTests {
        private func disposition(leafFor names: [String], host: String) throws
            -> URLSession.AuthChallengeDisposition
        {
            let root = try CertificateAuthority.makeRoot(commonName: "Lab Root", key: .makeP256())
            let leaf = try CertificateAuthority.issue(
                commonName: names.first ?? "none", key: .makeP256(), role: .tlsServer(ipAddresses: [], dnsNames: names),
                issuer: root)
            let certificate = try #require(SecCertificateCreateWithData(nil, Data(leaf.certificateDER) as CFData))
            var trust: SecTrust?
            #expect(SecTrustCreateWithCertificates(certificate, SecPolicyCreateBasicX509(), &trust) == errSecSuccess)
            let challenge = URLAuthenticationChallenge(
                protectionSpace: TrustSpace(host: host, trust: try #require(trust)), proposedCredential: nil,
                previousFailureCount: 0, failureResponse: nil, error: nil, sender: IgnoringSender())
            // If URLAuthenticationChallenge copied the space into a plain one, the test's trust is gone: say so.
            try #require(challenge.protectionSpace.serverTrust != nil, "the challenge kept the test's protection space")
            let answer = Locked<URLSession.AuthChallengeDisposition?>(nil)
            let session = URLSession(configuration: .ephemeral)
            let task = session.dataTask(with: URL(string: "https://\(host)/")!)
            SessionDelegate().urlSession(session, task: task, didReceive: challenge) { disposition, _ in
                answer.withLock { $0 = disposition }
            }
            return try #require(answer.withLock { $0 })
        }

        @Test("a leaf naming the host goes on to the system's evaluation; any other is cancelled")
        func hostRule() throws {
            #expect(try disposition(leafFor: ["acs.example"], host: "acs.example") == .performDefaultHandling)
            #expect(try disposition(leafFor: ["acs.example"], host: "evil.example") == .cancelAuthenticationChallenge)
            #expect(try disposition(leafFor: ["other.example"], host: "acs.example") == .cancelAuthenticationChallenge)
        }
    }
#endif
