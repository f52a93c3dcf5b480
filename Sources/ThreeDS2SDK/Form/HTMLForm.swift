import Foundation
public import ThreeDS2JOSE
import ThreeDS2Messages

/// The forms of an ACS HTML challenge page, as an ``HTMLFormReader`` found them, submitted the way a browser submits
/// a form: the successful controls of the pressed button's form in document order (hidden inputs included, only the
/// pressed submit button), encoded as `application/x-www-form-urlencoded`. Every `<form>` of the page is usable; a
/// form with no fields still submits. A link to `https://emv3ds/challenge?…` also counts as a submission; its query
/// is the data. Nothing is fetched and no script runs.
public struct HTMLForm: Sendable, Hashable {
    /// One form control, in document order.
    public struct Control: Sendable, Hashable {
        /// The element and type, for example ``Kind-swift.struct/text`` (`input/text`), `select`, `button/submit`.
        public var kind: Kind
        /// The `name`.
        public var name: String?
        /// The current value.
        public var value: String
        /// For checkboxes and radios: whether checked.
        public var checked: Bool
        /// For selects: the options as (value, label, selected).
        public var options: [Option]
        /// Whether the control is disabled.
        public var disabled: Bool
        /// The visible label of a button.
        public var label: String
        /// Which `<form>` of the page the control belongs to, counted from 0 in document order.
        public var form: Int

        /// Creates a control.
        ///
        /// - Parameters:
        ///   - kind: The element and type (`input/text`, `select`, `button/submit`, …).
        ///   - name: The `name`.
        ///   - value: The current value.
        ///   - checked: Whether a checkbox or radio is checked.
        ///   - options: A select's options.
        ///   - disabled: Whether it is disabled.
        ///   - label: A button's visible label, or the field's label.
        ///   - form: Which `<form>` of the page it belongs to (0 for the first).
        public init(
            kind: Kind, name: String?, value: String, checked: Bool = false, options: [Option] = [],
            disabled: Bool = false, label: String = "", form: Int = 0
        ) {
            self.form = form
            self.kind = kind
            self.name = name
            self.value = value
            self.checked = checked
            self.options = options
            self.disabled = disabled
            self.label = label
        }

        /// Whether this control submits the form.
        public var isSubmitButton: Bool { kind.submits }
    }

    /// One option of a select.
    public struct Option: Sendable, Hashable {
        /// The submitted value.
        public var value: String
        /// The visible text.
        public var label: String
        /// Whether selected.
        public var selected: Bool

        /// Creates an option.
        ///
        /// - Parameters:
        ///   - value: The submitted value.
        ///   - label: The visible text.
        ///   - selected: Whether selected.
        public init(value: String, label: String, selected: Bool) {
            self.value = value
            self.label = label
            self.selected = selected
        }
    }

    /// A link that submits (to `https://emv3ds/challenge`).
    public struct SubmissionLink: Sendable, Hashable {
        /// The visible text.
        public var label: String
        /// The query of the URL: the submission data.
        public var query: String

        /// Creates a link.
        ///
        /// - Parameters:
        ///   - label: The visible text.
        ///   - query: The submission data.
        public init(label: String, query: String) {
            self.label = label
            self.query = query
        }
    }

    /// The controls of every form, in document order; each knows its form.
    public var controls: [Control]
    /// The first form's `method` (lower case; `get` when absent).
    public let method: String
    /// The first form's `action`.
    public let action: String?
    /// How many `<form>` elements the page has.
    public let formCount: Int
    /// Links that submit.
    public let links: [SubmissionLink]
    /// The visible text of the page, one paragraph per line (`\n` between them), whitespace within a paragraph
    /// collapsed. Scripts and styles are left out, and so is text a control shows itself: a form's labels, buttons,
    /// options, text areas and the links that submit.
    public let text: String
    /// Why the page cannot be used, when it cannot (for example, nested deeper than the reader reads): such a page
    /// offers no controls, and presenters show the reason instead of a partial form.
    public let invalidReason: String?

    /// What went wrong with a submission, in the package's one error shape (`CodedError`). Two errors
    /// are equal when their codes are.
    public struct SubmissionError: DetailedCodedError, Sendable {
        /// The kind of mistake. New codes may be added; do not rely on the list being complete.
        public struct Code: Hashable, Sendable, CustomStringConvertible {
            private enum Name: Hashable, Sendable {
                case unknownField, unknownButton
            }

            private let name: Name

            private init(_ name: Name) { self.name = name }

            /// The name of the code, for messages.
            public var description: String { "\(name)" }

            /// No field of the page takes the name and value given.
            public static let unknownField = Code(.unknownField)
            /// The page has no submit button or link of the name given.
            public static let unknownButton = Code(.unknownButton)
        }

        /// The code, message (the explanation, in English: the form state shows the cardholder ``subject`` in the
        /// SDK's text for ``code``, in the locale's language), cause and place.
        public let details: ErrorDetails<Code>
        /// The field or button the page does not have, as given.
        public let subject: String?

        /// Creates the error from its details, naming no subject.
        ///
        /// - Parameter details: The code, message, cause and place.
        public init(details: ErrorDetails<Code>) {
            self.details = details
            self.subject = nil
        }

        /// Creates an error.
        ///
        /// - Parameters:
        ///   - code: The kind of mistake.
        ///   - message: The explanation.
        ///   - subject: The field or button the page does not have.
        ///   - file: The file that raises the error (the caller's, by default).
        ///   - line: The line that raises the error (the caller's, by default).
        public init(
            _ code: Code, _ message: String, subject: String? = nil, file: String = #fileID, line: UInt = #line
        ) {
            self.details = ErrorDetails(
                code: code, message: message, underlying: nil, location: ErrorLocation(file: file, line: line))
            self.subject = subject
        }
    }

    /// Creates a form from what a reader found on a page.
    ///
    /// - Parameters:
    ///   - controls: The controls of every form, in document order.
    ///   - method: The first form's method, lower case.
    ///   - action: The first form's action.
    ///   - formCount: How many forms the page has (at least one more than the highest control's form).
    ///   - links: The links that submit.
    ///   - text: The page's visible text, paragraphs separated by `\n`.
    ///   - invalidReason: Why the page cannot be used, when it cannot.
    ///
    /// The page is peer text: every label, option label, link label and the page text are neutralised here, once
    /// (control and bidirectional characters become spaces, `PeerText`); submitted values are kept as written.
    public init(
        controls: [Control], method: String = "get", action: String? = nil, formCount: Int = 1,
        links: [SubmissionLink] = [], text: String = "", invalidReason: String? = nil
    ) {
        self.formCount = max(formCount, (controls.map(\.form).max() ?? -1) + 1)
        self.controls = controls.map { control in
            var control = control
            control.label = PeerText.neutralised(control.label)
            control.options = control.options.map {
                Option(value: $0.value, label: PeerText.neutralised($0.label), selected: $0.selected)
            }
            return control
        }
        self.method = method
        self.action = action
        self.links = links.map { SubmissionLink(label: PeerText.neutralised($0.label), query: $0.query) }
        // Line breaks separate the page's paragraphs: each line is neutralised on its own so they stay.
        self.text = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            PeerText.neutralised(String($0))
        }.joined(separator: "\n")
        self.invalidReason = invalidReason
    }

    /// The form with field values set by control name: text-like controls take the value; radios and checkboxes
    /// named here are checked when their value matches (a checkbox set to an empty string is unchecked); selects take
    /// the option with that value.
    ///
    /// - Parameter fields: Values by control name.
    /// - Returns: The filled form.
    /// - Throws: ``SubmissionError`` when a named field does not exist or cannot take the value.
    public func filling(_ fields: [String: String]) throws(SubmissionError) -> HTMLForm {
        var copy = self
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            var matched = false
            for index in copy.controls.indices where copy.controls[index].name == name {
                switch copy.controls[index].kind {
                case .radio:
                    copy.controls[index].checked = copy.controls[index].value == value
                    matched = matched || copy.controls[index].checked
                case .checkbox:
                    copy.controls[index].checked = !value.isEmpty && copy.controls[index].value == value
                    matched = true
                case .select, .multipleSelect:
                    for option in copy.controls[index].options.indices {
                        copy.controls[index].options[option].selected =
                            copy.controls[index].options[option].value == value
                        matched = matched || copy.controls[index].options[option].selected
                    }
                case let kind where kind.isButtonElement || copy.controls[index].isSubmitButton:
                    continue
                default:
                    copy.controls[index].value = value
                    matched = true
                }
            }
            guard matched else {
                throw SubmissionError(
                    .unknownField, "the page has no field \"\(name)\" that takes \"\(value)\"", subject: name)
            }
        }
        return copy
    }

    /// The submission data for the given field values and pressed button.
    ///
    /// - Parameters:
    ///   - fields: Values by control name, as ``filling(_:)`` sets them.
    ///   - button: The pressed submit button's value, name or label, or a submitting link's label; the first
    ///     submit button when `nil`.
    /// - Returns: The urlencoded form data, as sent in `challengeHTMLDataEntry`.
    /// - Throws: ``SubmissionError`` when a named field or the button does not exist.
    public func submission(fields: [String: String] = [:], button: String? = nil) throws(SubmissionError) -> String {
        if let button, let link = links.first(where: { $0.label == button }),
            !controls.contains(where: { $0.isSubmitButton && Self.matches($0, button) })
        {
            return link.query
        }
        let filled = try filling(fields)
        let submitters = filled.controls.indices.filter {
            filled.controls[$0].isSubmitButton && !filled.controls[$0].disabled
        }
        let pressed: Int?
        if let button {
            guard let index = submitters.first(where: { Self.matches(filled.controls[$0], button) }) else {
                throw SubmissionError(
                    .unknownButton, "the page has no submit button or link \"\(button)\"", subject: button)
            }
            pressed = index
        } else {
            pressed = submitters.first
        }
        return filled.submission(pressing: pressed)
    }

    /// The submission data when the control at `pressed` (an index in ``controls``) is pressed: that control's form
    /// only; the first form, with no button, when `pressed` is `nil`.
    ///
    /// - Parameter pressed: The pressed submit control's index.
    /// - Returns: The urlencoded form data.
    public func submission(pressing pressed: Int?) -> String {
        let pressed = pressed.flatMap { controls.indices.contains($0) && controls[$0].isSubmitButton ? $0 : nil }
        // Only the pressed button's form is submitted (the first form when nothing is pressed).
        let submitted = pressed.map { controls[$0].form } ?? controls.first?.form ?? 0
        var pairs: [(String, String)] = []
        for (index, control) in controls.enumerated() where control.form == submitted {
            guard let name = control.name, !name.isEmpty, !control.disabled else { continue }
            switch control.kind {
            case .checkbox, .radio:
                if control.checked { pairs.append((name, control.value)) }
            case .submitInput, .submitButton:
                if index == pressed { pairs.append((name, control.value)) }
            case .imageInput:
                if index == pressed { pairs += [(name + ".x", "0"), (name + ".y", "0")] }
            case .buttonInput, .resetInput, .fileInput, .plainButton, .resetButton:
                continue
            case .select:
                if let option = control.options.first(where: \.selected) ?? control.options.first {
                    pairs.append((name, option.value))
                }
            case .multipleSelect:
                for option in control.options where option.selected { pairs.append((name, option.value)) }
            case .textarea:
                pairs.append(
                    (
                        name,
                        control.value.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(
                            of: "\n", with: "\r\n")
                    ))
            default:
                pairs.append((name, control.value))
            }
        }
        return pairs.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&")
    }

    private static func matches(_ control: Control, _ button: String) -> Bool {
        control.value == button || control.name == button || control.label == button
    }

    /// `application/x-www-form-urlencoded` byte serialisation (WHATWG URL §5.2).
    static func encode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "): output.append("+")
            case UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "a")...UInt8(ascii: "z"):
                output.append(Character(Unicode.Scalar(byte)))
            default:
                output.append(String(format: "%%%02X", byte))
            }
        }
        return output
    }

    /// The submission data of a link or form action aimed at the SDK's reserved URL `https://emv3ds/challenge`:
    /// its query, exactly as written (empty when it has none); `nil` for any other URL.
    ///
    /// - Parameter href: The link or action URL.
    /// - Returns: The `challengeHTMLDataEntry` value, or `nil`.
    public static func challengeQuery(_ href: String) -> String? {
        guard let components = reservedURL(href), components.path.lowercased() == "/challenge" else { return nil }
        return components.percentEncodedQuery ?? ""
    }

    /// A URL on the SDK's reserved host `https://emv3ds` (any case), parsed; `nil` for any other URL.
    static func reservedURL(_ href: String) -> URLComponents? {
        guard let components = URLComponents(string: href), components.url?.isHTTPSWithHost == true,
            components.host?.lowercased() == "emv3ds"
        else { return nil }
        return components
    }
}

/// Reads the form of an HTML challenge page, for presenters that show HTML challenges as native controls (a
/// terminal, a script). Presenters that show HTML in a web view do not need one. The `ThreeDS2HTML` module provides
/// one on libxml2.
public protocol HTMLFormReader: Sendable {
    /// Reads a page. Nothing is fetched and no script runs; a page without a form gives a form without controls.
    ///
    /// - Parameter html: The decoded `acsHTML`.
    /// - Returns: The form.
    func form(fromHTML html: String) -> HTMLForm
}
