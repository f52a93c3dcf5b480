import Foundation
import ThreeDS2JOSE

extension ChallengeResponseValidator {
    /// An entry-box object (Table A.26); `nil` when absent, or when it has no readable label.
    static func entryBox(_ reader: FieldReader, _ name: String) throws(ProtocolViolation) -> EntryBox? {
        guard let value = reader.object[name], value != .null else { return nil }
        guard case .object(let object) = value else {
            try reader.recorder.invalid(.entryBoxNotObject, name, "is not an object", seen: value)
            return nil
        }
        let box = EntryBoxReader(name: name, object: object, recorder: reader.recorder)
        let label = try FieldReader(object: object, recorder: reader.recorder).text(
            "challengeDataEntryLabel", max: 45, reportedAs: box.field("challengeDataEntryLabel"))
        if label == nil { try box.missing(.entryBoxLabelMissing, "challengeDataEntryLabel") }
        let keyboard = try box.code(
            "challengeDataEntryKeyboardType", EntryBox.Keyboard.init, reserved: .keyboardTypeReserved,
            invalid: .keyboardTypeValue)
        var autofill: EntryBox.Autofill?
        if let enabled = try box.string("challengeDataEntryAutofill") {
            if YesNoIndicator(rawValue: enabled) != .yes {
                try box.invalid(.autofillValue, "challengeDataEntryAutofill", "was \(enabled), expected Y", enabled)
            } else if box.object["challengeDataEntryAutofillType"] == nil
                || box.object["challengeDataEntryAutofillType"] == .null
            {
                try box.missing(.autofillTypeMissing, "challengeDataEntryAutofillType")
            } else {
                autofill = try box.code(
                    "challengeDataEntryAutofillType", EntryBox.Autofill.init, reserved: .autofillTypeReserved,
                    invalid: .autofillTypeValue)
            }
        }
        let maxLength = try box.lengthMax()
        let masked = try box.yesNo("challengeDataEntryMasking", rule: .maskingValue) ?? false
        let toggle = try box.yesNo("challengeDataEntryToggle", rule: .toggleValue)
        if toggle == nil, masked, !box.recorder.hasFinding(for: box.field("challengeDataEntryToggle")) {
            try box.missing(.toggleMissing, "challengeDataEntryToggle")
        }
        guard let label else { return nil }
        return EntryBox(
            label: label, keyboard: keyboard, autofill: autofill, maxLength: maxLength, isMasked: masked,
            offersRevealToggle: masked && (toggle ?? false))
    }

    /// Whether a value is two ASCII digits from `lower` to 99: the shape of a reserved code.
    static func isTwoDigits(_ value: String, from lower: Int) -> Bool {
        value.utf8.count == 2 && value.allSatisfy(\.isASCIIDigit) && (Int(value) ?? 0) >= lower
    }

    static func selectOptions(_ reader: FieldReader, version: MessageVersion) throws(ProtocolViolation)
        -> [SelectOption]
    {
        let recorder = reader.recorder
        let field = "challengeSelectInfo"
        guard let value = reader.object[field] else { return [] }
        guard case .array(let entries) = value else {
            try recorder.invalid(.selectInfoNotArray, field, "is not an array", seen: value)
            return []
        }
        var options: [SelectOption] = []
        for entry in entries {
            guard case .object(let pair) = entry, pair.count == 1, let member = pair.members.first,
                case .string(let label) = member.value, !member.name.isEmpty, PeerText.fits(member.name, max: 45),
                !label.isEmpty, PeerText.fits(label, max: 45)
            else {
                try recorder.invalid(
                    .selectInfoEntry, field, "has an entry that is not one name/value pair of 1–45 characters each",
                    seen: entry)
                continue
            }
            guard !member.name.contains(",") else {
                try recorder.invalid(.selectInfoComma, field, "has a key containing a comma", seen: entry)
                continue
            }
            guard try reader.isDisplayable(member.name, field: field), try reader.isDisplayable(label, field: field)
            else { continue }
            options.append(SelectOption(key: member.name, label: label))
        }
        if Set(options.map(\.key)).count != options.count {
            // 2.3.1 files a repeated array entry under 204 (Table A.4); earlier versions under 203.
            let rule: ConformanceRule =
                version.reportsDuplicateEntries ? .selectInfoDuplicateKey : .selectInfoRepeatedKey
            try recorder.invalid(rule, field, "repeats a key", seen: value)
        }
        // Last: the limits are tolerated (reported only by a strict audit), and a field is reported once, so an
        // enforced finding on the same list (an entry, a comma, a repeated key) must be recorded first.
        try checkSelectLimits(entries, recorder, version: version)
        return options
    }

    static func decodeHTML(_ encoded: String, field: String, limit: Int, _ recorder: CResRecorder)
        throws(ProtocolViolation) -> String?
    {
        guard encoded.utf8.count <= limit else {
            try recorder.invalid(
                .htmlTooLong, field, "is longer than \(limit) characters", seen: .string(encoded),
                requirement: "at most \(limit) characters")
            return nil
        }
        let bytes: [UInt8]
        do {
            bytes = try Base64.urlDecode(encoded, what: field)
        } catch {
            try recorder.invalid(
                .htmlNotBase64URL, field, "is not strict base64url (\(error.message))", seen: .string(encoded))
            return nil
        }
        guard let html = String(utf8Validating: bytes) else {
            try recorder.invalid(.htmlNotUTF8, field, "does not decode to UTF-8", seen: .string(encoded))
            return nil
        }
        return html
    }

    static func section(_ reader: FieldReader, _ labelName: String, _ textName: String)
        throws(ProtocolViolation) -> InformationSection?
    {
        let label = try reader.text(labelName, max: 45)
        let text = try reader.text(textName, max: 256)
        return label == nil && text == nil ? nil : InformationSection(label: label, text: text)
    }

    /// `issuerImage` / `psImage`: an object of https URLs by density (2.1.0, 2.2.0) or by appearance (2.3.1,
    /// Table A.21/A.22). Either key set is read in any version, since ACSs mix them; a single URL string is taken for
    /// every variant.
    static func image(_ reader: FieldReader, _ name: String, version: MessageVersion)
        throws(ProtocolViolation) -> ChallengeImage?
    {
        let recorder = reader.recorder
        guard let value = reader.object[name], value != .null else { return nil }
        switch value {
        case .string(let url):
            guard PeerText.fits(url, max: 2048), isHTTPSURL(url) else {
                try recorder.invalid(.imageNotHTTPS, name, "is not an https URL", seen: value)
                return nil
            }
            return ChallengeImage(medium: url, high: url, extraHigh: url, defaultAppearance: url)
        case .object(let object):
            guard PeerText.fits(JSONValue.object(object).serialized, max: 6144) else {
                try recorder.invalid(.imageTooLong, name, "is longer than 6144 characters", seen: value)
                return nil
            }
            var urls: [String: String] = [:]
            for key in ["medium", "high", "extraHigh", "default", "dark", "monochrome"] {
                guard let entry = object[key], entry != .null else { continue }
                guard case .string(let url) = entry, PeerText.fits(url, max: 2048), isHTTPSURL(url) else {
                    try recorder.invalid(.imageNotHTTPS, "\(name).\(key)", "is not an https URL", seen: entry)
                    continue
                }
                urls[key] = url
            }
            guard !urls.isEmpty else {
                if !recorder.hasFinding(for: name) {
                    try recorder.invalid(.imageEmpty, name, "has no image URL", seen: value)
                }
                return nil
            }
            return ChallengeImage(
                medium: urls["medium"], high: urls["high"], extraHigh: urls["extraHigh"],
                defaultAppearance: urls["default"], dark: urls["dark"], monochrome: urls["monochrome"])
        default:
            try recorder.invalid(.imageNotObject, name, "is not an object of image URLs", seen: value)
            return nil
        }
    }
}

/// The keys of one entry-box object, each reported as `box.key`.
private struct EntryBoxReader {
    let name: String
    let object: JSONObject
    let recorder: CResRecorder

    func field(_ key: String) -> String { "\(name).\(key)" }

    /// A key's string value: another type, or an empty string, is 203.
    func string(_ key: String) throws(ProtocolViolation) -> String? {
        guard let item = object[key], item != .null else { return nil }
        guard case .string(let text) = item else {
            try recorder.invalid(.fieldNotString, field(key), "is a \(item.typeName), expected a string", seen: item)
            return nil
        }
        guard !text.isEmpty else {
            try recorder.invalid(.entryBoxEmptyValue, field(key), "is empty", seen: item)
            return nil
        }
        return text
    }

    func missing(_ rule: ConformanceRule, _ key: String, file: String = #fileID, line: UInt = #line)
        throws(ProtocolViolation)
    {
        try recorder.missing(rule, field(key), file: file, line: line)
    }

    func invalid(
        _ rule: ConformanceRule, _ key: String, _ why: String, _ value: String, file: String = #fileID,
        line: UInt = #line
    ) throws(ProtocolViolation) {
        try recorder.invalid(rule, field(key), why, seen: .string(value), file: file, line: line)
    }

    /// A two-digit code: known, reserved (03–99, 207) or invalid (203).
    func code<Code>(
        _ key: String, _ make: (String) -> Code?, reserved: ConformanceRule, invalid rule: ConformanceRule
    ) throws(ProtocolViolation) -> Code? {
        guard let raw = try string(key) else { return nil }
        if let code = make(raw) { return code }
        if ChallengeResponseValidator.isTwoDigits(raw, from: 3) {
            try recorder.reserved(reserved, field(key), raw)
        } else {
            try invalid(rule, key, "was \(raw), expected 01 or 02", raw)
        }
        return nil
    }

    func lengthMax() throws(ProtocolViolation) -> Int {
        let key = "challengeDataEntryLengthMax"
        guard let raw = try string(key) else { return 45 }
        guard raw.utf8.count == 2, raw.allSatisfy(\.isASCIIDigit), let value = Int(raw), (1...45).contains(value)
        else {
            try invalid(.lengthMaxValue, key, "was \(raw), expected two digits 01–45", raw)
            return 45
        }
        return value
    }

    func yesNo(_ key: String, rule: ConformanceRule) throws(ProtocolViolation) -> Bool? {
        guard let raw = try string(key) else { return nil }
        guard let indicator = YesNoIndicator(rawValue: raw) else {
            try invalid(rule, key, "was \(raw), expected Y or N", raw)
            return nil
        }
        return indicator.isYes
    }
}
