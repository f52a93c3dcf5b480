/// The underlying error of a `tlsFailure` whose server answered the TLS handshake in plain HTTP: an `https://` URL
/// for a server that speaks `http://` (a TestLab started with `--allow-http`, a port without TLS). A caller tells it
/// from a certificate that did not validate by its type, and names the cause.
public struct PlainHTTPAnswer: Error, CustomStringConvertible {
    /// The TLS library's error.
    public let tlsError: any Error

    /// Wraps the TLS library's error.
    ///
    /// - Parameter tlsError: The error.
    public init(_ tlsError: any Error) { self.tlsError = tlsError }

    /// What happened, with the TLS library's own words.
    public var description: String { "the server answered in plain HTTP, not TLS (\(tlsError))" }

    /// Whether a TLS library error is the one a plain-HTTP answer to a ClientHello gives. BoringSSL reads the answer's
    /// first bytes ("HTTP/1.1 400") as a TLS record of an unknown version and says `WRONG_VERSION_NUMBER`; it gives
    /// that reason in its error string only (swift-nio-ssl exposes no code), so the string is where it is read, here
    /// and nowhere else.
    static func isPlainHTTPAnswer(_ error: any Error) -> Bool {
        String(describing: error).contains("WRONG_VERSION_NUMBER")
    }
}
