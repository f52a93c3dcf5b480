import Foundation
import ThreeDS2ACSKit
import ThreeDS2JOSE
public import ThreeDS2Messages
public import X509

extension TestLab {
    /// The Split-SDK Server ID the lab's DS assigned to the lab's own Split-SDK Server identity
    /// (``LabPKI/splitSDKServer``); registered by default.
    public static let splitSDKServerID = SplitSDKServerID("TESTLAB-SPLIT-01")!

    /// The certificate the lab's DS registered for a Split-SDK Server ID: the options' servers, then the lab's own.
    ///
    /// - Parameter id: The ID in the signed content.
    /// - Returns: The certificate, or `nil` for a server the DS does not know.
    public func registeredSplitSDKServer(_ id: SplitSDKServerID) -> Certificate? {
        options.splitSDKServers[id] ?? (id == Self.splitSDKServerID ? pki.splitSDKServer.certificate : nil)
    }

    /// The DS's checks of a 2.3.1 Split-SDK AReq (`sdkType` `02`), after the 3DS Server's (``checkSDKType(_:version:)``
    /// has checked `splitSdkType` and that the signed content is a string): the SDK Server Signed Content verifies
    /// with the certificate registered for the server it names, its body names this AReq's `sdkReferenceNumber` and
    /// `sdkTransID`, its timestamp is within ``TestLabOptions/splitSignatureWindow`` of the wall clock and equals the
    /// AReq's `sdkSignatureTimestamp` when that is sent. A fault profile (`split-bad-signature`,
    /// `split-unknown-server`) makes the DS act as if the signature failed or the server were unknown.
    ///
    /// - Parameters:
    ///   - request: The AReq.
    ///   - checked: What the 3DS Server took from it.
    ///   - fault: The card's Split-SDK fault, if any.
    /// - Throws: ``DirectoryServerRefusal`` with code 308 naming what failed.
    func verifySplitSDK(_ request: JSONObject, _ checked: CheckedRequest, fault: SplitSDKFault?)
        throws(DirectoryServerRefusal)
    {
        guard request["sdkType"]?.stringValue.map(SDKType.init(rawValue:)) == .splitSDK,
            let compact = request["sdkServerSignedContent"]?.stringValue
        else { return }
        let content: SDKServerSignedContent
        do {
            content = try SDKServerSignedContent.verify(compact) { id in
                fault == .unknownServer ? nil : registeredSplitSDKServer(id)
            }
        } catch {
            throw DirectoryServerRefusal(detail: "sdkServerSignedContent", explanation: error.message)
        }
        if fault == .badSignature {
            throw DirectoryServerRefusal(
                detail: "sdkServerSignedContent", explanation: "the signature does not verify (fault profile)")
        }
        try Self.checkSplitBody(content, request, checked, window: options.splitSignatureWindow, now: Date())
    }

    static func checkSplitBody(
        _ content: SDKServerSignedContent, _ request: JSONObject, _ checked: CheckedRequest, window: Duration,
        now: Date
    ) throws(DirectoryServerRefusal) {
        guard content.sdkReferenceNumber == checked.sdkReferenceNumber else {
            throw DirectoryServerRefusal(
                detail: "sdkServerSignedContent", explanation: "the signed sdkReferenceNumber is not the AReq's")
        }
        guard content.sdkTransactionID == checked.sdkTransID else {
            throw DirectoryServerRefusal(
                detail: "sdkServerSignedContent", explanation: "the signed sdkTransID is not the AReq's")
        }
        let seconds = Double(window.components.seconds)
        guard abs(content.signatureTimestamp.date.timeIntervalSince(now)) <= seconds else {
            throw DirectoryServerRefusal(
                detail: "sdkServerSignedContent",
                explanation: "the signature timestamp \(content.signatureTimestamp) is more than \(window) away")
        }
        if let sent = request["sdkSignatureTimestamp"] {
            guard sent.stringValue == content.signatureTimestamp.text else {
                throw DirectoryServerRefusal(
                    detail: "sdkSignatureTimestamp", explanation: "sdkSignatureTimestamp is not the signed timestamp")
            }
        }
    }

    /// `splitSdkType` and the signed content's presence when `sdkType` is `02` (2.3.1): the 3DS Server's shape checks
    /// before the DS verifies anything.
    ///
    /// - Parameter request: The AReq.
    /// - Throws: ``TestLabError`` with code `invalidRequest`.
    static func checkSplitShape(_ request: JSONObject) throws(TestLabError) {
        guard SplitSDKType(request["splitSdkType"]) != nil else {
            throw TestLabError(
                .invalidRequest,
                "splitSdkType must be an object with a two-digit sdkVariant and limitedInd Y or N when sdkType is 02")
        }
        guard request["defaultSdkType"] == nil else {
            throw TestLabError(.invalidRequest, "defaultSdkType goes with sdkType 01, not with a Split-SDK's 02")
        }
        guard let compact = request["sdkServerSignedContent"]?.stringValue, !compact.isEmpty else {
            throw TestLabError(.invalidRequest, "sdkServerSignedContent is required when sdkType is 02")
        }
        if let stamp = request["sdkSignatureTimestamp"] {
            guard stamp.stringValue.flatMap(SDKSignatureTimestamp.init(text:)) != nil else {
                throw TestLabError(.invalidRequest, "sdkSignatureTimestamp must be YYYYMMDDHHMMSS")
            }
        }
    }
}

/// What the lab's DS refuses a Split-SDK AReq with: Erro 308, "Split-SDK Server Signed Content could not be
/// verified", from the DS (`errorComponent` `D`), answered to the 3DS Server's caller as the lab answers a refused
/// request (HTTP 400 with `error`), the Erro itself under `erro`.
struct DirectoryServerRefusal: Error {
    /// The error code: 308.
    static let code = ProtocolErrorCode.splitSDKSignedContentNotVerified
    /// The data element concerned.
    let detail: String
    /// Why, for the person reading the answer.
    let explanation: String
    /// The AReq's `sdkTransID`, once known.
    var sdkTransID: String? = nil

    /// The Erro the DS sends.
    func erro(version: MessageVersion) -> ErrorMessage {
        ErrorMessage(
            errorCode: Self.code, errorComponent: .directoryServer,
            errorDescription: "Split-SDK Server Signed Content could not be verified", errorDetail: detail,
            errorMessageType: .authenticationRequest, messageVersion: version.rawValue,
            threeDSServerTransID: nil, acsTransID: nil, sdkTransID: sdkTransID)
    }
}

/// The lab's DS-side faults for Split-SDK AReqs, selected by a fault profile's card.
public enum SplitSDKFault: String, Sendable, Hashable {
    /// The DS acts as if the signature did not verify.
    case badSignature = "bad-signature"
    /// The DS acts as if the Split-SDK Server were not registered.
    case unknownServer = "unknown-server"
}
