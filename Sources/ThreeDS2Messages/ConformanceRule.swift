/// A rule of the protocol that the SDK checks in what an ACS sends: the stable identifier a conformance audit reports
/// a violation under (``ConformanceFinding``).
///
/// The raw value is the identifier, `message.field.problem` (for example `cres.acsCounterAtoS.mismatch`); it never
/// changes once released, so reports and CI baselines can key on it. Every rule is listed, with its field, the
/// requirement in our own words, the Erro code and the specification reference, in `docs/conformance-rules.md`; a test
/// holds that table equal to `allCases`.
public enum ConformanceRule: String, CaseIterable, Sendable, Hashable, Codable, CustomStringConvertible {
    // CRes envelope (every CRes).
    /// A field every CRes carries is missing, empty or null.
    case requiredFieldMissing = "cres.required.missing"
    /// `messageType` is neither `CRes` nor `Erro`.
    case messageTypeNotCRes = "cres.messageType.notCRes"
    /// A field the SDK reads as a string has another JSON type.
    case fieldNotString = "cres.field.notString"
    /// A transaction ID is not a 36-character UUID.
    case transactionIDNotUUID = "cres.transID.notUUID"
    /// A transaction ID differs from the one the SDK sent.
    case transactionIDMismatch = "cres.transID.mismatch"
    /// `messageVersion` differs from the transaction's.
    case messageVersionMismatch = "cres.messageVersion.mismatch"
    /// `acsCounterAtoS` is not three digits up to 255.
    case counterFormat = "cres.acsCounterAtoS.format"
    /// `acsCounterAtoS` is not the counter the SDK expects.
    case counterMismatch = "cres.acsCounterAtoS.mismatch"
    /// `challengeCompletionInd` is not `Y` or `N`.
    case completionIndicatorValue = "cres.challengeCompletionInd.value"
    /// `messageExtension` is not an array.
    case extensionNotArray = "cres.messageExtension.notArray"
    /// `messageExtension` has more entries than the version allows.
    case extensionTooMany = "cres.messageExtension.tooMany"
    /// `messageExtension` is longer than 81,920 characters.
    case extensionTooLong = "cres.messageExtension.tooLong"
    /// A `messageExtension` entry lacks a valid name, id, criticality indicator or data.
    case extensionEntryMalformed = "cres.messageExtension.entry"
    /// A critical message extension the SDK does not recognise.
    case extensionCriticalUnrecognised = "cres.messageExtension.criticalUnrecognised"
    /// A final CRes without `transStatus`.
    case transStatusMissing = "cres.transStatus.missing"
    /// A final CRes's `transStatus` is not one the version allows there.
    case transStatusValue = "cres.transStatus.value"

    // CRes screens.
    /// A screen CRes without `acsUiType`.
    case uiTypeMissing = "cres.acsUiType.missing"
    /// `acsUiType` is a reserved value (2.3.1).
    case uiTypeReserved = "cres.acsUiType.reserved"
    /// `acsUiType` is not a UI type of the version.
    case uiTypeUnknown = "cres.acsUiType.unknown"
    /// A display text is longer than its field allows.
    case textTooLong = "cres.text.tooLong"
    /// A display text carries a control or bidirectional control character.
    case textControlCharacter = "cres.text.controlCharacter"
    /// `challengeInfoTextIndicator` is not `Y` or `N`.
    case infoTextIndicatorValue = "cres.challengeInfoTextIndicator.value"
    /// `resendInformationLabel` is an empty string.
    case resendLabelEmpty = "cres.resendInformationLabel.empty"
    /// `togglePositionInd` is a reserved value.
    case togglePositionReserved = "cres.togglePositionInd.reserved"
    /// `togglePositionInd` is not `01`.
    case togglePositionValue = "cres.togglePositionInd.value"
    /// A field the screen's UI type requires in the version is missing.
    case screenFieldMissing = "cres.screen.missing"
    /// `challengeSelectInfo` is not an array.
    case selectInfoNotArray = "cres.challengeSelectInfo.notArray"
    /// A `challengeSelectInfo` entry is not one name/value pair of 1–45 characters each.
    case selectInfoEntry = "cres.challengeSelectInfo.entry"
    /// A `challengeSelectInfo` key contains a comma.
    case selectInfoComma = "cres.challengeSelectInfo.comma"
    /// A `challengeSelectInfo` key repeats (2.1.0, 2.2.0: a format error).
    case selectInfoRepeatedKey = "cres.challengeSelectInfo.repeatedKey"
    /// A `challengeSelectInfo` key repeats (2.3.1: a duplicate data element).
    case selectInfoDuplicateKey = "cres.challengeSelectInfo.duplicateKey"
    /// `acsHTML` or `acsHTMLRefresh` is longer than the version allows.
    case htmlTooLong = "cres.acsHTML.tooLong"
    /// `acsHTML` or `acsHTMLRefresh` is not strict base64url.
    case htmlNotBase64URL = "cres.acsHTML.notBase64url"
    /// `acsHTML` or `acsHTMLRefresh` does not decode to UTF-8.
    case htmlNotUTF8 = "cres.acsHTML.notUTF8"
    /// `oobAppURL` or `oobAppLabel` sent although the CReq did not say the SDK can open the bank's app.
    case oobAppNotOffered = "cres.oobApp.notOffered"
    /// `oobAppLabel` without `oobAppURL`.
    case oobAppURLMissing = "cres.oobAppURL.missing"
    /// `oobAppURL` is not an https URL with a host.
    case oobAppURLNotHTTPS = "cres.oobAppURL.notHTTPS"
    /// `oobAppURL` on an out-of-band screen without `oobAppLabel`.
    case oobAppLabelMissing = "cres.oobAppLabel.missing"
    /// An image URL is not an https URL with a host of at most 2,048 characters.
    case imageNotHTTPS = "cres.image.notHTTPS"
    /// An image object is longer than 6,144 characters.
    case imageTooLong = "cres.image.tooLong"
    /// An image object names no image URL.
    case imageEmpty = "cres.image.empty"
    /// An image is neither a URL nor an object of URLs.
    case imageNotObject = "cres.image.notObject"
    /// `challengeSelectInfo` has more options than 2.3.1.1 allows (8).
    case selectInfoTooMany = "cres.challengeSelectInfo.tooMany"
    /// A `challengeSelectInfo` key is longer than 2.3.1.1 allows (4 characters).
    case selectInfoKeyTooLong = "cres.challengeSelectInfo.keyTooLong"
    /// A field the message's version does not define (a 2.3.1 field in 2.2.0, `whitelistingInfoText` in 2.3.1).
    case fieldNotInVersion = "cres.field.notInVersion"
    /// A field the screen's UI type marks "not present" in the version (a resend label on a select screen).
    case screenFieldNotAllowed = "cres.screen.notAllowed"
    /// A screen field in a final CRes.
    case finalScreenField = "cres.final.screenField"
    /// The Bridging extension's app link is not an https URL with a host.
    case bridgingAppURLNotHTTPS = "cres.bridging.oobAppURL.notHTTPS"

    // The encrypted channel: what the SDK finds before it can read a CRes.
    /// The answer is a JSON object other than an Erro, sent unencrypted.
    case channelPlaintext = "cres.jwe.plaintext"
    /// The JWE is not a compact serialization of base64url parts with a JSON header within the SDK's bounds.
    case channelFormat = "cres.jwe.format"
    /// The JWE header's `alg` is not `dir`.
    case channelAlgorithm = "cres.jwe.alg"
    /// The JWE header's `enc` is not a content encryption of the channel.
    case channelEncryption = "cres.jwe.enc"
    /// The JWE header's `kid` is missing or is not the transaction's `acsTransID`.
    case channelKeyID = "cres.jwe.kid"
    /// The JWE header carries a member the SDK does not process, or one of the wrong type.
    case channelHeader = "cres.jwe.header"
    /// The JWE does not decrypt under the channel key: its authentication tag (or IV) does not check.
    case channelTag = "cres.jwe.tag"
    /// A JSON object of the JWE (its header) names a member twice.
    case channelDuplicateMember = "cres.jwe.duplicateMember"
    /// The decrypted CRes is not a JSON object.
    case payloadNotJSON = "cres.payload.notJSON"
    /// The decrypted CRes names a member twice.
    case payloadDuplicateMember = "cres.payload.duplicateMember"

    // 2.3.1 entry boxes.
    /// `challengeEntryBox` / `challengeEntryBoxTwo` is not an object.
    case entryBoxNotObject = "cres.entryBox.notObject"
    /// An entry-box key is an empty string.
    case entryBoxEmptyValue = "cres.entryBox.empty"
    /// An entry box without `challengeDataEntryLabel`.
    case entryBoxLabelMissing = "cres.entryBox.labelMissing"
    /// `challengeDataEntryKeyboardType` is a reserved value.
    case keyboardTypeReserved = "cres.entryBox.keyboardType.reserved"
    /// `challengeDataEntryKeyboardType` is not `01` or `02`.
    case keyboardTypeValue = "cres.entryBox.keyboardType.value"
    /// `challengeDataEntryAutofill` is not `Y`.
    case autofillValue = "cres.entryBox.autofill.value"
    /// `challengeDataEntryAutofill` without `challengeDataEntryAutofillType`.
    case autofillTypeMissing = "cres.entryBox.autofillType.missing"
    /// `challengeDataEntryAutofillType` is a reserved value.
    case autofillTypeReserved = "cres.entryBox.autofillType.reserved"
    /// `challengeDataEntryAutofillType` is not `01` or `02`.
    case autofillTypeValue = "cres.entryBox.autofillType.value"
    /// `challengeDataEntryLengthMax` is not two digits 01–45.
    case lengthMaxValue = "cres.entryBox.lengthMax.value"
    /// `challengeDataEntryMasking` is not `Y` or `N`.
    case maskingValue = "cres.entryBox.masking.value"
    /// `challengeDataEntryToggle` is not `Y` or `N`.
    case toggleValue = "cres.entryBox.toggle.value"
    /// A masked entry box without `challengeDataEntryToggle`.
    case toggleMissing = "cres.entryBox.toggle.missing"

    // The ACS signed content (the ARes's `acsSignedContent` JWS payload).
    /// The payload is not JSON within the SDK's bounds.
    case signedContentNotJSON = "acsSignedContent.payload.notJSON"
    /// The payload is not a JSON object.
    case signedContentNotObject = "acsSignedContent.payload.notObject"
    /// `acsURL` is missing, empty, not a string or longer than 2,048 characters.
    case signedContentACSURL = "acsSignedContent.acsURL.missing"
    /// `acsEphemPubKey` is missing.
    case signedContentACSKeyMissing = "acsSignedContent.acsEphemPubKey.missing"
    /// `acsEphemPubKey` is not a P-256 public JWK.
    case signedContentACSKeyInvalid = "acsSignedContent.acsEphemPubKey.invalid"
    /// `sdkEphemPubKey` is missing.
    case signedContentSDKKeyMissing = "acsSignedContent.sdkEphemPubKey.missing"
    /// `sdkEphemPubKey` is not a P-256 public JWK.
    case signedContentSDKKeyInvalid = "acsSignedContent.sdkEphemPubKey.invalid"
    /// `acsURL` is not an absolute URL with a host.
    case signedContentACSURLNotAbsolute = "acsSignedContent.acsURL.notAbsolute"
    /// `acsURL` is not https (plain http only on loopback, when the SDK's configuration allows it).
    case signedContentACSURLNotHTTPS = "acsSignedContent.acsURL.notHTTPS"
    /// `sdkEphemPubKey` is not the SDK's ephemeral key for the transaction.
    case signedContentSDKKeyMismatch = "acsSignedContent.sdkEphemPubKey.mismatch"

    // The ARes fields the SDK reads to start a challenge.
    /// `transStatus` is missing or not a string.
    case aresTransStatusMissing = "ares.transStatus.missing"
    /// `transStatus` is not a status an ARes of the version carries.
    case aresTransStatusInvalid = "ares.transStatus.invalid"
    /// `threeDSServerTransID`, `acsTransID`, `acsReferenceNumber` or `acsSignedContent` is missing or not a string.
    case aresFieldMissing = "ares.required.missing"
    /// `threeDSServerTransID` or `acsTransID` is not a 36-character UUID.
    case aresTransactionIDNotUUID = "ares.transID.notUUID"
    /// `acsReferenceNumber` is not 1–32 characters.
    case aresReferenceNumberLength = "ares.acsReferenceNumber.length"
    /// `acsSignedContent` is empty.
    case aresSignedContentEmpty = "ares.acsSignedContent.empty"

    /// The identifier.
    public var description: String { rawValue }

    /// The message the rule is about.
    public var message: AuditedMessage {
        if rawValue.hasPrefix("cres.") { return .challengeResponse }
        return rawValue.hasPrefix("ares.") ? .authenticationResponse : .acsSignedContent
    }

    /// The field or fields the rule is about, as the table writes them.
    public var field: String { definition.field }

    /// The Erro code the SDK sends for a violation of the rule; `nil` when it sends none (the ARes fields and the ACS
    /// signed content are refused before any CReq: the app gets an error, or the challenge ends with a runtime
    /// error).
    public var errorCode: ProtocolErrorCode? { definition.code }

    /// The requirement, in our own words (a finding states it for the version and field concerned).
    public var requirement: String { definition.requirement }

    /// Where the requirement comes from: a section of the protocol references or a public table, when there is one.
    public var reference: String { definition.reference }

    /// Where the SDK is deliberately more tolerant than the specification's letter, and why: `nil` when it applies
    /// the rule as written. The SDK accepts a message that breaks only tolerated rules, and an audit reports them
    /// only when strict (`threeds conform --strict`).
    public var tolerance: String? { definition.tolerance }

    /// Whether the code declares the rule's field, requirement, Erro code and reference (a test holds every rule to
    /// it; a rule without one reads as empty text).
    package var isDefined: Bool { ConformanceRuleDefinition.table[self] != nil }

    private var definition: ConformanceRuleDefinition {
        ConformanceRuleDefinition.table[self] ?? .undefined
    }
}

/// The message a ``ConformanceRule`` is about.
public enum AuditedMessage: String, Sendable, Hashable, Codable, CaseIterable {
    /// The challenge response (CRes).
    case challengeResponse = "CRes"
    /// The ACS signed content, the JWS payload an ARes carries for the SDK.
    case acsSignedContent = "ACS signed content"
    /// The ARes fields the SDK reads to start a challenge (its challenge parameters).
    case authenticationResponse = "ARes"
}
