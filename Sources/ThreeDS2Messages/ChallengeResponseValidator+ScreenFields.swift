import Foundation
import ThreeDS2JOSE

extension ChallengeResponseValidator {
    /// An entry-box object (Table A.26); `nil` when absent.
    static func entryBox(_ reader: FieldReader, _ name: String) throws(ProtocolViolation) -> EntryBox? {
        guard let value = reader.object[name], value != .null else { return nil }
        guard case .object(let object) = value else { throw .invalid(name, "is not an object") }
        let box = FieldReader(object: object)
        func field(_ key: String) -> String { "\(name).\(key)" }
        func string(_ key: String) throws(ProtocolViolation) -> String? {
            guard let item = object[key], item != .null else { return nil }
            guard case .string(let text) = item else {
                throw .invalid(field(key), "is a \(item.typeName), expected a string")
            }
            guard !text.isEmpty else { throw .invalid(field(key), "is empty") }
            return text
        }
        guard let label = try box.text("challengeDataEntryLabel", max: 45, reportedAs: field("challengeDataEntryLabel"))
        else { throw .missing(field("challengeDataEntryLabel")) }
        var keyboard: EntryBox.Keyboard?
        if let raw = try string("challengeDataEntryKeyboardType") {
            keyboard = EntryBox.Keyboard(rawValue: raw)
            if keyboard == nil {
                if isTwoDigits(raw, from: 3) { throw .reserved(field("challengeDataEntryKeyboardType"), raw) }
                throw .invalid(field("challengeDataEntryKeyboardType"), "was \(raw), expected 01 or 02")
            }
        }
        var autofill: EntryBox.Autofill?
        if let enabled = try string("challengeDataEntryAutofill") {
            guard enabled == "Y" else {
                throw .invalid(field("challengeDataEntryAutofill"), "was \(enabled), expected Y")
            }
            guard let raw = try string("challengeDataEntryAutofillType") else {
                throw .missing(field("challengeDataEntryAutofillType"))
            }
            autofill = EntryBox.Autofill(rawValue: raw)
            if autofill == nil {
                if isTwoDigits(raw, from: 3) { throw .reserved(field("challengeDataEntryAutofillType"), raw) }
                throw .invalid(field("challengeDataEntryAutofillType"), "was \(raw), expected 01 or 02")
            }
        }
        var maxLength = 45
        if let raw = try string("challengeDataEntryLengthMax") {
            guard raw.utf8.count == 2, raw.allSatisfy(\.isASCIIDigit), let value = Int(raw), (1...45).contains(value)
            else {
                throw .invalid(field("challengeDataEntryLengthMax"), "was \(raw), expected two digits 01–45")
            }
            maxLength = value
        }
        var masked = false
        if let raw = try string("challengeDataEntryMasking") {
            guard raw == "Y" || raw == "N" else {
                throw .invalid(field("challengeDataEntryMasking"), "was \(raw), expected Y or N")
            }
            masked = raw == "Y"
        }
        var toggle = false
        if let raw = try string("challengeDataEntryToggle") {
            guard raw == "Y" || raw == "N" else {
                throw .invalid(field("challengeDataEntryToggle"), "was \(raw), expected Y or N")
            }
            toggle = raw == "Y"
        } else if masked {
            throw .missing(field("challengeDataEntryToggle"))
        }
        return EntryBox(
            label: label, keyboard: keyboard, autofill: autofill, maxLength: maxLength, isMasked: masked,
            offersRevealToggle: masked && toggle)
    }

    /// Whether a value is two ASCII digits from `lower` to 99: the shape of a reserved code.
    static func isTwoDigits(_ value: String, from lower: Int) -> Bool {
        value.utf8.count == 2 && value.allSatisfy(\.isASCIIDigit) && (Int(value) ?? 0) >= lower
    }

    static func selectOptions(_ reader: FieldReader, version: MessageVersion) throws(ProtocolViolation)
        -> [SelectOption]
    {
        guard let value = reader.object["challengeSelectInfo"] else { return [] }
        guard case .array(let entries) = value else { throw .invalid("challengeSelectInfo", "is not an array") }
        var options: [SelectOption] = []
        for entry in entries {
            guard case .object(let pair) = entry, pair.count == 1, let member = pair.members.first,
                case .string(let label) = member.value, !member.name.isEmpty, PeerText.fits(member.name, max: 45),
                !label.isEmpty, PeerText.fits(label, max: 45)
            else {
                throw .invalid(
                    "challengeSelectInfo", "has an entry that is not one name/value pair of 1–45 characters each")
            }
            guard !member.name.contains(",") else {
                throw .invalid("challengeSelectInfo", "has a key containing a comma")
            }
            try FieldReader.checkDisplayable(member.name, field: "challengeSelectInfo")
            try FieldReader.checkDisplayable(label, field: "challengeSelectInfo")
            options.append(SelectOption(key: member.name, label: label))
        }
        guard Set(options.map(\.key)).count == options.count else {
            // 2.3.1 files a repeated array entry under 204 (Table A.4); earlier versions under 203.
            if version.reportsDuplicateEntries { throw .duplicate("challengeSelectInfo", "repeats a key") }
            throw .invalid("challengeSelectInfo", "repeats a key")
        }
        return options
    }

    static func decodeHTML(_ encoded: String, field: String, limit: Int) throws(ProtocolViolation) -> String {
        guard encoded.utf8.count <= limit else { throw .invalid(field, "is longer than \(limit) characters") }
        let bytes: [UInt8]
        do {
            bytes = try Base64.urlDecode(encoded, what: field)
        } catch {
            throw .invalid(field, "is not strict base64url (\(error.message))")
        }
        guard let html = String(utf8Validating: bytes) else {
            throw .invalid(field, "does not decode to UTF-8")
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
        guard let value = reader.object[name], value != .null else { return nil }
        switch value {
        case .string(let url):
            guard PeerText.fits(url, max: 2048), isHTTPSURL(url) else { throw .invalid(name, "is not an https URL") }
            return ChallengeImage(medium: url, high: url, extraHigh: url, defaultAppearance: url)
        case .object(let object):
            guard PeerText.fits(JSONValue.object(object).serialized, max: 6144) else {
                throw .invalid(name, "is longer than 6144 characters")
            }
            var urls: [String: String] = [:]
            for key in ["medium", "high", "extraHigh", "default", "dark", "monochrome"] {
                guard let entry = object[key], entry != .null else { continue }
                guard case .string(let url) = entry, PeerText.fits(url, max: 2048), isHTTPSURL(url) else {
                    throw .invalid("\(name).\(key)", "is not an https URL")
                }
                urls[key] = url
            }
            guard !urls.isEmpty else { throw .invalid(name, "has no image URL") }
            return ChallengeImage(
                medium: urls["medium"], high: urls["high"], extraHigh: urls["extraHigh"],
                defaultAppearance: urls["default"], dark: urls["dark"], monochrome: urls["monochrome"])
        default:
            throw .invalid(name, "is not an object of image URLs")
        }
    }
}
