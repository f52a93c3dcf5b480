import ThreeDS2JOSE
import ThreeDS2Messages

extension ResultsRequestValidator {
    /// One pass over an RReq of a known version, collecting findings.
    struct Reader {
        let request: JSONObject
        let version: MessageVersion
        let transaction: Transaction?
        var findings: [ResultsFinding] = []

        init(request: JSONObject, version: MessageVersion, transaction: Transaction?) {
            self.request = request
            self.version = version
            self.transaction = transaction
        }

        var status: TransactionStatus? { request["transStatus"]?.stringValue.map(TransactionStatus.init(rawValue:)) }
        var isPayment: Bool { request["messageCategory"] != .string("02") }
        /// Decoupled: the ARes said `D`, or the RReq says decoupled (type `04`, method `12`, cancel `03`).
        var isDecoupled: Bool {
            transaction?.authenticationStatus == .decoupled || request["authenticationType"] == .string("04")
                || request["authenticationMethod"] == .array([.string("12")])
                || request["challengeCancel"] == .string("03")
        }

        mutating func add(_ code: ProtocolErrorCode, _ field: String, _ explanation: String) {
            findings.append(ResultsFinding(code, field, explanation))
        }

        /// The text of a field, when present and a string; a finding when present and not a string.
        mutating func text(_ field: String) -> String? {
            guard let value = request[field] else { return nil }
            guard let text = value.stringValue else {
                add(.invalidFormat, field, "must be a string")
                return nil
            }
            return text
        }

        /// A field the version or condition does not allow: 203.
        mutating func forbid(_ field: String, _ why: String) {
            if request[field] != nil { add(.invalidFormat, field, why) }
        }

        /// The identifiers, the transaction they name, duplicates (312/301) and frictionless transactions (313).
        mutating func checkTransaction() {
            var names = ["threeDSServerTransID", "acsTransID", "dsTransID"]
            if version.resultsAreFrom2_2 { names.append("sdkTransID") } else { forbid("sdkTransID", "not in 2.1.0") }
            for name in names {
                guard let value = text(name) else {
                    if request[name] == nil { add(.requiredElementMissing, name, "required") }
                    continue
                }
                if !TransactionIdentifiers.hasUUIDShape(value) { add(.invalidFormat, name, "not a UUID") }
            }
            guard findings.isEmpty else { return }
            guard let transaction else {
                return add(.transactionIDNotRecognised, "threeDSServerTransID", "no such transaction")
            }
            let expected = [
                "threeDSServerTransID": transaction.identifiers.threeDSServerTransID,
                "acsTransID": transaction.identifiers.acsTransID, "dsTransID": transaction.dsTransID,
                "sdkTransID": transaction.identifiers.sdkTransID,
            ]
            for name in names where request[name]?.stringValue != expected[name] {
                add(.transactionIDNotRecognised, name, "not this transaction's")
            }
            if version != transaction.messageVersion {
                add(.invalidFormat, "messageVersion", "not the transaction's version \(transaction.messageVersion)")
            }
            guard findings.isEmpty else { return }
            let challenged = [TransactionStatus.challengeRequired, .decoupled, TransactionStatus(rawValue: "S")]
            if version.resultsUseAuthenticationMethod, !challenged.contains(transaction.authenticationStatus) {
                add(.inconsistentResultsRequest, "transStatus", "the ARes was \(transaction.authenticationStatus)")
            } else if transaction.hasResult {
                let code: ProtocolErrorCode =
                    version.resultsUseAuthenticationMethod ? .duplicateMessage : .transactionIDNotRecognised
                add(code, "threeDSServerTransID", "a result was already received")
            }
        }

        /// `messageCategory`, `transStatus`, `transStatusReason`, `authenticationValue`, `eci`.
        mutating func checkOutcome() {
            if let category = text("messageCategory") {
                let number = twoDigits(category) ?? 0
                if !(1...2).contains(number), !(80...99).contains(number) {
                    add(.invalidFormat, "messageCategory", "not 01, 02 or a DS code")
                }
            } else if request["messageCategory"] == nil {
                add(.requiredElementMissing, "messageCategory", "required")
            }
            let allowed: [TransactionStatus] = [
                .authenticated, .notAuthenticated, .unableToAuthenticate, .attempted, .rejected,
            ]
            if let status = text("transStatus"), !allowed.contains(TransactionStatus(rawValue: status)) {
                add(.invalidFormat, "transStatus", "an RReq carries Y, N, U, A or R")
            } else if request["transStatus"] == nil, isPayment {
                add(.requiredElementMissing, "transStatus", "required for a payment")
            }
            checkReason()
            let needsValue = status == .authenticated || status == .attempted
            if let value = text("authenticationValue") {
                let fits =
                    version.resultsUseAuthenticationMethod
                    ? (1...4000).contains(value.utf8.count) : value.utf8.count == 28
                if !fits { add(.invalidFormat, "authenticationValue", "wrong length") }
            } else if needsValue, isPayment, request["authenticationValue"] == nil {
                add(
                    .requiredElementMissing, "authenticationValue",
                    "required with transStatus \(status?.rawValue ?? "")")
            }
            if let eci = text("eci"), !(1...2).contains(eci.utf8.count) {
                add(.invalidFormat, "eci", "at most 2 characters")
            }
        }

        mutating func checkReason() {
            let needsReason = [TransactionStatus.notAuthenticated, .unableToAuthenticate, .rejected].contains(status)
            guard let reason = text("transStatusReason") else {
                if needsReason, isPayment, request["transStatusReason"] == nil {
                    add(
                        .requiredElementMissing, "transStatusReason",
                        "required with transStatus \(status?.rawValue ?? "")")
                }
                return
            }
            if !TransStatusReason(rawValue: reason).isDefined(in: version) {
                let reserved = version.resultsUseAuthenticationMethod && twoDigits(reason) != nil
                add(
                    reserved ? .reservedValueNotRecognised : .invalidFormat, "transStatusReason",
                    "\(reason) is not a \(version) reason")
            }
        }
    }
}
