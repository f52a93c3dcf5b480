import Testing
import ThreeDS2ACSKit
import ThreeDS2JOSE
import ThreeDS2Messages

/// The DS transaction ID of the tests' transaction.
private let dsTransID = "3f6f4c2e-8d8e-4a47-9a9e-2f1f7b1d5c11"
private let value28 = "AAACBllleHchZTBWIGV4MAAAAAA="

private func transaction(
    _ version: MessageVersion, ares: TransactionStatus = .challengeRequired, hasResult: Bool = false
)
    -> ResultsRequestValidator.Transaction
{
    ResultsRequestValidator.Transaction(
        messageVersion: version, identifiers: ids, dsTransID: dsTransID, authenticationStatus: ares,
        hasResult: hasResult)
}

/// A challenge's RReq as the lab's ACS builds it for a `Y`.
private func authenticated(_ version: MessageVersion) -> ResultsRequestBuilder {
    var builder = ResultsRequestBuilder(
        messageVersion: version, identifiers: ids, dsTransID: dsTransID, transStatus: .authenticated)
    builder.authenticationValue = value28
    builder.eci = "05"
    builder.method = .smsOTP
    builder.renderingType = .init(interface: .native, template: .text)
    builder.interactionCounter = 1
    return builder
}

private func codes(_ object: JSONObject, _ transaction: ResultsRequestValidator.Transaction?) -> [String] {
    ResultsRequestValidator(transaction: transaction).findings(in: object).map { "\($0.code) \($0.field)" }
}

@Suite("RReq builder and validator: each version's fields and conditions")
struct ResultsRequestTests {
    @Test(
        "a Y per version: sdkTransID from 2.2.0, authenticationType before 2.3.1, an authenticationMethod array in 2.3.1"
    )
    func authenticatedPerVersion() {
        let v210 = authenticated(.v2_1_0).json
        #expect(v210["sdkTransID"] == nil && v210["authenticationType"] == .string("02"))
        #expect(v210["authenticationMethod"] == nil && v210["messageType"] == .string("RReq"))
        let v220 = authenticated(.v2_2_0).json
        #expect(v220["sdkTransID"] == .string(ids.sdkTransID) && v220["authenticationType"] == .string("02"))
        let v231 = authenticated(.v2_3_1).json
        #expect(v231["authenticationMethod"] == .array([.string("02")]) && v231["authenticationType"] == nil)
        for (version, object) in [(MessageVersion.v2_1_0, v210), (.v2_2_0, v220), (.v2_3_1, v231)] {
            #expect(object["authenticationValue"] == .string(value28) && object["eci"] == .string("05"))
            #expect(object["interactionCounter"] == .string("01") && object["acsRenderingType"] != nil)
            #expect(object["transStatusReason"] == nil)
            #expect(codes(object, transaction(version)).isEmpty)
        }
    }

    @Test("decoupled: no interactionCounter, no acsRenderingType; type 04 (2.2.0), method 12 (2.3.1)")
    func decoupled() {
        for version in [MessageVersion.v2_2_0, .v2_3_1] {
            var builder = authenticated(version)
            builder.isDecoupled = true
            builder.method = .decoupled
            let object = builder.json
            #expect(object["interactionCounter"] == nil && object["acsRenderingType"] == nil)
            #expect(codes(object, transaction(version, ares: .decoupled)).isEmpty)
        }
        #expect(authenticated(.v2_2_0).with { $0.method = .decoupled }.json["authenticationType"] == .string("04"))
    }

    @Test("the trust answer: whiteListStatus in 2.2.0, trustListStatus in 2.3.1, each with its source; none in 2.1.0")
    func trustList() {
        let answer = (TrustListStatus.listed, TrustListStatusSource.acs)
        let v220 = authenticated(.v2_2_0).with { $0.trustList = answer }.json
        #expect(v220["whiteListStatus"] == .string("Y") && v220["whiteListStatusSource"] == .string("03"))
        let v231 = authenticated(.v2_3_1).with { $0.trustList = answer }.json
        #expect(v231["trustListStatus"] == .string("Y") && v231["trustListStatusSource"] == .string("03"))
        #expect(v231["whiteListStatus"] == nil)
        #expect(authenticated(.v2_1_0).with { $0.trustList = answer }.json["whiteListStatus"] == nil)
        var missingSource = v231
        missingSource["trustListStatusSource"] = nil
        #expect(codes(missingSource, transaction(.v2_3_1)) == ["201 trustListStatusSource"])
        #expect(codes(v220.setting("trustListStatus", .string("Y")), transaction(.v2_2_0)) == ["203 trustListStatus"])
    }

    @Test("N, U and R carry transStatusReason; no authenticationValue; 2.3.1 reports an Erro with 09/10")
    func failures() {
        var failed = authenticated(.v2_3_1)
        failed.transStatus = .unableToAuthenticate
        failed.transStatusReason = .acsTechnicalProblem
        failed.challengeCancel = .errorToRequest
        failed.challengeError = ErrorMessage(
            errorCode: .transactionDataNotValid, errorComponent: .acs, errorDescription: "x", errorDetail: "card",
            errorMessageType: .challengeRequest, messageVersion: "2.3.1",
            threeDSServerTransID: ids.threeDSServerTransID,
            acsTransID: ids.acsTransID, sdkTransID: ids.sdkTransID)
        let object = failed.json
        #expect(object["transStatusReason"] == .string("22") && object["authenticationValue"] == nil)
        #expect(object["authenticationMethod"] == nil && object["challengeCancel"] == .string("10"))
        #expect(object["challengeErrorReporting"]?.objectValue?["errorCode"] == .string("305"))
        #expect(codes(object, transaction(.v2_3_1)).isEmpty)
        var older = failed
        older.messageVersion = .v2_2_0
        older.challengeCancel = .transactionError
        #expect(older.json["challengeErrorReporting"] == nil)
        #expect(codes(older.json, transaction(.v2_2_0)).isEmpty)
    }

    @Test(
        "each required element's absence is a 201 naming it",
        arguments: [
            ("authenticationValue", MessageVersion.v2_1_0), ("authenticationType", .v2_2_0),
            ("authenticationMethod", .v2_3_1), ("interactionCounter", .v2_1_0), ("acsRenderingType", .v2_2_0),
            ("sdkTransID", .v2_2_0), ("dsTransID", .v2_3_1), ("messageCategory", .v2_3_1), ("transStatus", .v2_2_0),
        ])
    func requiredElements(field: String, version: MessageVersion) {
        var object = authenticated(version).json
        object[field] = nil
        #expect(codes(object, transaction(version)).first == "201 \(field)")
    }

    @Test("transStatusReason is required with N, U and R; challengeErrorReporting with 09 and 10")
    func conditionalElements() {
        for status in ["N", "U", "R"] {
            let object = authenticated(.v2_2_0).json.setting("transStatus", .string(status))
                .setting("authenticationValue", nil)
            #expect(codes(object, transaction(.v2_2_0)).contains("201 transStatusReason"))
        }
        let cancelled = authenticated(.v2_3_1).json.setting("challengeCancel", .string("09"))
        #expect(codes(cancelled, transaction(.v2_3_1)) == ["201 challengeErrorReporting"])
    }

    @Test("values outside a version's list: 203; in a 2.3.1 reserved range: 207")
    func values() {
        let cases: [(MessageVersion, String, JSONValue, String)] = [
            (.v2_1_0, "transStatusReason", .string("22"), "203"), (.v2_3_1, "transStatusReason", .string("31"), "207"),
            (.v2_2_0, "challengeCancel", .string("09"), "203"), (.v2_3_1, "challengeCancel", .string("11"), "207"),
            (.v2_1_0, "authenticationType", .string("04"), "203"),
            (.v2_3_1, "authenticationType", .string("02"), "203"),
            (.v2_3_1, "authenticationMethod", .array([.string("17")]), "203"),
            (.v2_3_1, "authenticationMethod", .array([.string("02"), .string("02")]), "204"),
            (.v2_2_0, "authenticationValue", .string("short"), "203"), (.v2_2_0, "transStatus", .string("C"), "203"),
            (.v2_1_0, "sdkTransID", .string(ids.sdkTransID), "203"),
            (.v2_2_0, "interactionCounter", .string("1"), "203"),
            (.v2_3_1, "acsRenderingType", .object(["acsInterface": .string("03")]), "203"),
        ]
        for (version, field, value, code) in cases {
            var object = authenticated(version).json
            object[field] = value
            if field == "transStatusReason" { object["transStatus"] = .string("N") }
            #expect(codes(object, transaction(version)).contains("\(code) \(field)"), "\(version) \(field)")
        }
    }

    @Test("identifiers: not a UUID is 203; another transaction's, or none known, is 301")
    func identifiers() {
        let object = authenticated(.v2_2_0).json
        #expect(codes(object.setting("acsTransID", .string("x")), transaction(.v2_2_0)) == ["203 acsTransID"])
        let other = "00000000-0000-4000-8000-000000000000"
        #expect(codes(object.setting("dsTransID", .string(other)), transaction(.v2_2_0)) == ["301 dsTransID"])
        #expect(codes(object, nil) == ["301 threeDSServerTransID"])
        #expect(codes(object.setting("messageType", .string("ARes")), transaction(.v2_2_0)) == ["101 messageType"])
        #expect(
            codes(object.setting("messageVersion", .string("2.0.1")), transaction(.v2_2_0)) == ["102 messageVersion"])
        #expect(
            codes(object.setting("messageVersion", .string("2.1.0")).setting("sdkTransID", nil), transaction(.v2_2_0))
                == ["203 messageVersion"])
    }

    @Test("a second RReq: 312 in 2.3.1, 301 before; an RReq after a frictionless ARes: 313 in 2.3.1")
    func duplicateAndInconsistent() {
        #expect(
            codes(authenticated(.v2_3_1).json, transaction(.v2_3_1, hasResult: true)) == ["312 threeDSServerTransID"])
        #expect(
            codes(authenticated(.v2_2_0).json, transaction(.v2_2_0, hasResult: true)) == ["301 threeDSServerTransID"])
        #expect(codes(authenticated(.v2_3_1).json, transaction(.v2_3_1, ares: .authenticated)) == ["313 transStatus"])
        #expect(codes(authenticated(.v2_2_0).json, transaction(.v2_2_0, ares: .authenticated)).isEmpty)
    }

    @Test(
        "the Erro for a finding comes from the 3DS Server about an RReq; the RRes echoes the ids with resultsStatus 01")
    func answers() throws {
        let request = authenticated(.v2_2_0).json
        let erro = ResultsRequestValidator.error(for: ResultsFinding(.requiredElementMissing, "eci", "x"), in: request)
        #expect(erro.errorComponent == .threeDSServer && erro.errorMessageType == .resultsRequest)
        #expect(erro.errorDetail == "eci" && erro.dsTransID == dsTransID)
        let response = ResultsResponse(answering: request, version: .v2_2_0)
        let json = response.json
        #expect(json["messageType"] == .string("RRes") && json["resultsStatus"] == .string("01"))
        #expect(json["sdkTransID"] == .string(ids.sdkTransID) && json["dsTransID"] == .string(dsTransID))
        #expect(ResultsResponse(json: json) == response)
        #expect(ResultsResponse(json: erro.json) == nil)
    }
}

extension ResultsRequestBuilder {
    fileprivate func with(_ change: (inout ResultsRequestBuilder) -> Void) -> ResultsRequestBuilder {
        var copy = self
        change(&copy)
        return copy
    }
}

extension JSONObject {
    fileprivate func setting(_ name: String, _ value: JSONValue?) -> JSONObject {
        var copy = self
        copy[name] = value
        return copy
    }
}
