import ThreeDS2JOSE
import ThreeDS2Messages

extension ResultsRequestValidator.Reader {
    /// `authenticationType` (2.1.0/2.2.0) or `authenticationMethod` (2.3.1): required with `Y` and `N`.
    mutating func checkMethod() {
        let needed = status == .authenticated || status == .notAuthenticated
        if version.resultsUseAuthenticationMethod {
            forbid("authenticationType", "2.3.1 writes authenticationMethod")
            guard let value = request["authenticationMethod"] else {
                if needed { add(.requiredElementMissing, "authenticationMethod", "required with Y and N") }
                return
            }
            guard case .array(let entries) = value, !entries.isEmpty else {
                return add(.invalidFormat, "authenticationMethod", "must be a non-empty array")
            }
            let codes = entries.compactMap(\.stringValue)
            if codes.count != entries.count || !codes.allSatisfy({ AuthenticationMethod(rawValue: $0).isDefined }) {
                add(.invalidFormat, "authenticationMethod", "holds a code 2.3.1 does not define")
            } else if Set(codes).count != codes.count {
                add(.duplicateElement, "authenticationMethod", "a code repeated")
            }
            return
        }
        guard let type = text("authenticationType") else {
            if needed, request["authenticationType"] == nil {
                add(.requiredElementMissing, "authenticationType", "required with Y and N")
            }
            return
        }
        if !AuthenticationType(rawValue: type).isDefined(in: version) {
            add(.invalidFormat, "authenticationType", "\(type) is not a \(version) type")
        }
    }

    /// `interactionCounter` and `acsRenderingType`: required unless decoupled (2.1.0: always).
    mutating func checkChallenge() {
        let needed = !version.resultsAreFrom2_2 || !isDecoupled
        if let counter = text("interactionCounter") {
            if twoDigits(counter) == nil { add(.invalidFormat, "interactionCounter", "must be two digits") }
        } else if needed, request["interactionCounter"] == nil {
            add(.requiredElementMissing, "interactionCounter", "required unless decoupled")
        }
        guard let value = request["acsRenderingType"] else {
            if needed {
                add(.requiredElementMissing, "acsRenderingType", "required on the app channel unless decoupled")
            }
            return
        }
        guard case .object(let rendering) = value,
            let interface = rendering["acsInterface"]?.stringValue, ACSInterface(rawValue: interface) != nil,
            let template = rendering["acsUiTemplate"]?.stringValue.flatMap(UIType.init(rawValue:)),
            version.defines(template)
        else {
            return add(.invalidFormat, "acsRenderingType", "needs acsInterface 01/02 and a \(version) acsUiTemplate")
        }
    }

    /// `whiteListStatus` (2.2.0) or `trustListStatus` (2.3.1), each with its source.
    mutating func checkTrustList() {
        let prefix = version.resultsUseAuthenticationMethod ? "trustList" : "whiteList"
        for other in ["whiteList", "trustList"] where other != prefix || !version.resultsAreFrom2_2 {
            forbid(other + "Status", "not a \(version) field")
            forbid(other + "StatusSource", "not a \(version) field")
        }
        guard version.resultsAreFrom2_2 else { return }
        if let status = text(prefix + "Status"), TrustListStatus(rawValue: status) == nil {
            add(.invalidFormat, prefix + "Status", "not Y, N, E, P, R or U")
        }
        if let source = text(prefix + "StatusSource") {
            let number = twoDigits(source) ?? 0
            if !(1...3).contains(number), !(80...99).contains(number) {
                add(.invalidFormat, prefix + "StatusSource", "not 01, 02, 03 or a DS code")
            }
        } else if request[prefix + "Status"] != nil, request[prefix + "StatusSource"] == nil {
            add(.requiredElementMissing, prefix + "StatusSource", "required with \(prefix)Status")
        }
    }

    /// `challengeCancel` in the version's list; `challengeErrorReporting` with `09`/`10` (2.3.1).
    mutating func checkCancel() {
        let cancel = text("challengeCancel").map(ChallengeCancelIndicator.init(rawValue:))
        if let cancel, !cancel.isDefined(inResultsOf: version) {
            let reserved = version.resultsUseAuthenticationMethod && twoDigits(cancel.rawValue) != nil
            add(
                reserved ? .reservedValueNotRecognised : .invalidFormat, "challengeCancel",
                "\(cancel) is not a \(version) code")
        }
        guard version.resultsUseAuthenticationMethod else {
            return forbid("challengeErrorReporting", "a 2.3.1 field")
        }
        let reports = cancel?.reportsError ?? false
        switch request["challengeErrorReporting"] {
        case nil where reports:
            add(
                .requiredElementMissing, "challengeErrorReporting",
                "required with challengeCancel \(cancel?.rawValue ?? "")")
        case .object(let erro)?:
            if !reports { add(.invalidFormat, "challengeErrorReporting", "only with challengeCancel 09 or 10") }
            if erro["messageType"] != .string(MessageType.error.rawValue) || erro["errorCode"]?.stringValue == nil {
                add(.invalidFormat, "challengeErrorReporting", "must be an Erro")
            }
        case nil: break
        case .some: add(.invalidFormat, "challengeErrorReporting", "must be an object")
        }
    }
}
