import CLibXML2
import Foundation

/// An ACS HTML challenge page, parsed with libxml2's HTML parser, and submitted the way a browser submits a form:
/// the successful controls in document order (hidden inputs included, only the pressed submit button), encoded as
/// `application/x-www-form-urlencoded`. A link to `https://emv3ds/challenge?…` also counts as a submission; its
/// query is the data. Nothing is fetched and no script runs.
public struct HTMLForm: Sendable, Hashable {
    /// One form control, in document order.
    public struct Control: Sendable, Hashable {
        /// The element and type, for example `input/text`, `input/hidden`, `select`, `textarea`, `button/submit`.
        public var kind: String
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

        /// Whether this control submits the form.
        public var isSubmitButton: Bool { kind == "input/submit" || kind == "input/image" || kind == "button/submit" }
    }

    /// One option of a select.
    public struct Option: Sendable, Hashable {
        /// The submitted value.
        public var value: String
        /// The visible text.
        public var label: String
        /// Whether selected.
        public var selected: Bool
    }

    /// A link that submits (to `https://emv3ds/challenge`).
    public struct SubmissionLink: Sendable, Hashable {
        /// The visible text.
        public var label: String
        /// The query of the URL: the submission data.
        public var query: String
    }

    /// The controls of the first form, in document order.
    public private(set) var controls: [Control]
    /// The form's `method` (lower case; `get` when absent).
    public let method: String
    /// The form's `action`.
    public let action: String?
    /// Links that submit.
    public let links: [SubmissionLink]
    /// The visible text of the page (scripts and styles excluded), whitespace collapsed.
    public let text: String

    /// What went wrong with a submission.
    public struct SubmissionError: Error, Sendable, CustomStringConvertible {
        /// The explanation.
        public let description: String
    }

    /// Parses an HTML page. Network access and error output are switched off in the parser.
    ///
    /// - Parameter html: The page.
    public init(html: String) {
        var controls: [Control] = []
        var links: [SubmissionLink] = []
        var method = "get"
        var action: String?
        var textParts: [String] = []
        let bytes = Array(html.utf8)
        let options = Int32(
            HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue
                | HTML_PARSE_RECOVER.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    htmlReadMemory($0, Int32(buffer.count), "about:blank", "UTF-8", options)
                }
            } ?? nil
        }
        if let document {
            defer { xmlFreeDoc(document) }
            var inForm = false
            var formSeen = false
            func walk(_ node: UnsafeMutablePointer<xmlNode>?) {
                var current = node
                while let element = current {
                    defer { current = element.pointee.next }
                    if element.pointee.type == XML_TEXT_NODE {
                        let content = Self.content(element).trimmingCharacters(in: .whitespacesAndNewlines)
                        if !content.isEmpty { textParts.append(content) }
                        continue
                    }
                    guard element.pointee.type == XML_ELEMENT_NODE else { continue }
                    let name = Self.name(element)
                    if name == "script" || name == "style" || name == "head" { continue }
                    var enteredForm = false
                    switch name {
                    case "form" where !formSeen:
                        formSeen = true
                        inForm = true
                        enteredForm = true
                        method = (Self.attribute(element, "method") ?? "get").lowercased()
                        action = Self.attribute(element, "action")
                    case "input" where inForm:
                        let type = (Self.attribute(element, "type") ?? "text").lowercased()
                        let defaultValue = type == "checkbox" || type == "radio" ? "on" : ""
                        controls.append(
                            Control(
                                kind: "input/\(type)", name: Self.attribute(element, "name"),
                                value: Self.attribute(element, "value") ?? defaultValue,
                                checked: Self.attribute(element, "checked") != nil, options: [],
                                disabled: Self.attribute(element, "disabled") != nil,
                                label: Self.attribute(element, "value") ?? Self.attribute(element, "alt") ?? ""))
                    case "button" where inForm:
                        let type = (Self.attribute(element, "type") ?? "submit").lowercased()
                        let label = Self.content(element).trimmingCharacters(in: .whitespacesAndNewlines)
                        controls.append(
                            Control(
                                kind: "button/\(type)", name: Self.attribute(element, "name"),
                                value: Self.attribute(element, "value") ?? "",
                                checked: false, options: [], disabled: Self.attribute(element, "disabled") != nil,
                                label: label))
                    case "textarea" where inForm:
                        controls.append(
                            Control(
                                kind: "textarea", name: Self.attribute(element, "name"), value: Self.content(element),
                                checked: false, options: [],
                                disabled: Self.attribute(element, "disabled") != nil, label: ""))
                    case "select" where inForm:
                        var options: [Option] = []
                        var child = element.pointee.children
                        while let option = child {
                            defer { child = option.pointee.next }
                            guard option.pointee.type == XML_ELEMENT_NODE, Self.name(option) == "option" else {
                                continue
                            }
                            let label = Self.content(option).trimmingCharacters(in: .whitespacesAndNewlines)
                            options.append(
                                Option(
                                    value: Self.attribute(option, "value") ?? label, label: label,
                                    selected: Self.attribute(option, "selected") != nil))
                        }
                        controls.append(
                            Control(
                                kind: Self.attribute(element, "multiple") != nil ? "select/multiple" : "select",
                                name: Self.attribute(element, "name"),
                                value: "", checked: false, options: options,
                                disabled: Self.attribute(element, "disabled") != nil, label: ""))
                    case "a":
                        if let href = Self.attribute(element, "href"), let query = Self.challengeQuery(href) {
                            links.append(
                                SubmissionLink(
                                    label: Self.content(element).trimmingCharacters(in: .whitespacesAndNewlines),
                                    query: query))
                        }
                    default:
                        break
                    }
                    if name != "select", name != "textarea", name != "button" {
                        walk(element.pointee.children)
                    } else if name == "button" {
                        let label = Self.content(element).trimmingCharacters(in: .whitespacesAndNewlines)
                        if !label.isEmpty { textParts.append(label) }
                    }
                    if enteredForm { inForm = false }
                }
            }
            walk(xmlDocGetRootElement(document))
        }
        self.controls = controls
        self.method = method
        self.action = action
        self.links = links
        self.text = textParts.joined(separator: " ")
    }

    /// The same page with its controls replaced (a UI keeps what the cardholder entered this way).
    ///
    /// - Parameter controls: The controls, same count and order as ``controls``.
    /// - Returns: The updated form.
    public func replacing(controls: [Control]) -> HTMLForm {
        var copy = self
        if controls.count == copy.controls.count { copy.controls = controls }
        return copy
    }

    /// The submission data for the given field values and pressed button.
    ///
    /// - Parameters:
    ///   - fields: Values by control name: text-like controls take the value; radios and checkboxes named here are
    ///     checked when their value matches (a checkbox set to an empty string is unchecked); selects take the
    ///     option with that value.
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
        var controls = self.controls
        for (name, value) in fields {
            var matched = false
            for index in controls.indices where controls[index].name == name {
                switch controls[index].kind {
                case "input/radio":
                    controls[index].checked = controls[index].value == value
                    matched = matched || controls[index].checked
                case "input/checkbox":
                    controls[index].checked = !value.isEmpty && controls[index].value == value
                    matched = true
                case "select", "select/multiple":
                    for option in controls[index].options.indices {
                        controls[index].options[option].selected = controls[index].options[option].value == value
                        matched = matched || controls[index].options[option].selected
                    }
                case let kind where kind.hasPrefix("button/") || controls[index].isSubmitButton:
                    continue
                default:
                    controls[index].value = value
                    matched = true
                }
            }
            guard matched else {
                throw SubmissionError(description: "the page has no field \"\(name)\" that takes \"\(value)\"")
            }
        }
        let submitters = controls.indices.filter { controls[$0].isSubmitButton && !controls[$0].disabled }
        let pressed: Int?
        if let button {
            guard let index = submitters.first(where: { Self.matches(controls[$0], button) }) else {
                throw SubmissionError(description: "the page has no submit button or link \"\(button)\"")
            }
            pressed = index
        } else {
            pressed = submitters.first
        }
        var pairs: [(String, String)] = []
        for (index, control) in controls.enumerated() {
            guard let name = control.name, !name.isEmpty, !control.disabled else { continue }
            switch control.kind {
            case "input/checkbox", "input/radio":
                if control.checked { pairs.append((name, control.value)) }
            case "input/submit", "button/submit":
                if index == pressed { pairs.append((name, control.value)) }
            case "input/image":
                if index == pressed { pairs += [(name + ".x", "0"), (name + ".y", "0")] }
            case "input/button", "input/reset", "input/file", "button/button", "button/reset":
                continue
            case "select":
                if let option = control.options.first(where: \.selected) ?? control.options.first {
                    pairs.append((name, option.value))
                }
            case "select/multiple":
                for option in control.options where option.selected { pairs.append((name, option.value)) }
            case "textarea":
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

    static func challengeQuery(_ href: String) -> String? {
        guard let components = URLComponents(string: href), components.scheme?.lowercased() == "https",
            components.host?.lowercased() == "emv3ds", components.path.lowercased() == "/challenge"
        else { return nil }
        return components.percentEncodedQuery ?? ""
    }

    private static func name(_ node: UnsafeMutablePointer<xmlNode>) -> String {
        node.pointee.name.map { String(cString: $0) }?.lowercased() ?? ""
    }

    private static func attribute(_ node: UnsafeMutablePointer<xmlNode>, _ name: String) -> String? {
        guard let value = xmlGetProp(node, name) else { return nil }
        defer { free(value) }
        return String(cString: value)
    }

    private static func content(_ node: UnsafeMutablePointer<xmlNode>) -> String {
        guard let value = xmlNodeGetContent(node) else { return "" }
        defer { free(value) }
        return String(cString: value)
    }
}
