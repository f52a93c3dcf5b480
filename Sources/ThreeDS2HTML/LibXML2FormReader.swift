import Foundation
public import ThreeDS2SDK

#if canImport(CLibXML2)
    import CLibXML2
#else
    import libxml2
#endif

/// The libxml2 HTML form reader: every form's controls in document order (hidden inputs included), the links
/// that submit to the SDK's reserved URL, and the page's visible text (scripts and styles left out). On Linux it
/// links the system's libxml2 through the `CLibXML2` module; on Apple platforms it uses the SDK's `libxml2` module.
public struct LibXML2FormReader: HTMLFormReader {
    /// Creates the reader.
    public init() {}

    /// Reads a page with libxml2's HTML parser; network access and error output are switched off.
    ///
    /// - Parameter html: The page.
    /// - Returns: Every form's controls (each knowing its form), the submitting links and the visible text.
    public func form(fromHTML html: String) -> HTMLForm {
        var controls: [HTMLForm.Control] = []
        var links: [HTMLForm.SubmissionLink] = []
        var method = "get"
        var formCount = 0
        var action: String?
        var textParts: [String] = []
        // Labels: <label for=id> by the id, and an enclosing <label> for the controls inside it.
        var labelsByID: [String: String] = [:]
        var controlIDs: [Int: String] = [:]
        var enclosingLabels: [Int: String] = [:]
        var enclosingLabel: String?
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
                    var enteredLabel: String??
                    if ["input", "textarea", "select"].contains(name), inForm {
                        if let id = Self.attribute(element, "id") { controlIDs[controls.count] = id }
                        if let enclosingLabel { enclosingLabels[controls.count] = enclosingLabel }
                    }
                    switch name {
                    case "label":
                        let text = Self.content(element).trimmingCharacters(in: .whitespacesAndNewlines)
                        if let target = Self.attribute(element, "for") {
                            labelsByID[target] = text
                        } else if !text.isEmpty {
                            enteredLabel = .some(enclosingLabel)
                            enclosingLabel = text
                        }
                    case "form" where !inForm:
                        if formCount == 0 {
                            method = (Self.attribute(element, "method") ?? "get").lowercased()
                            action = Self.attribute(element, "action")
                        }
                        formCount += 1
                        inForm = true
                        enteredForm = true
                    case "input" where inForm:
                        let type = (Self.attribute(element, "type") ?? "text").lowercased()
                        let defaultValue = type == "checkbox" || type == "radio" ? "on" : ""
                        controls.append(
                            HTMLForm.Control(
                                kind: "input/\(type)", name: Self.attribute(element, "name"),
                                value: Self.attribute(element, "value") ?? defaultValue,
                                checked: Self.attribute(element, "checked") != nil, options: [],
                                disabled: Self.attribute(element, "disabled") != nil,
                                label: Self.attribute(element, "value") ?? Self.attribute(element, "alt") ?? "",
                                form: formCount - 1))
                    case "button" where inForm:
                        let type = (Self.attribute(element, "type") ?? "submit").lowercased()
                        let label = Self.content(element).trimmingCharacters(in: .whitespacesAndNewlines)
                        controls.append(
                            HTMLForm.Control(
                                kind: "button/\(type)", name: Self.attribute(element, "name"),
                                value: Self.attribute(element, "value") ?? "",
                                checked: false, options: [], disabled: Self.attribute(element, "disabled") != nil,
                                label: label, form: formCount - 1))
                    case "textarea" where inForm:
                        controls.append(
                            HTMLForm.Control(
                                kind: "textarea", name: Self.attribute(element, "name"), value: Self.content(element),
                                checked: false, options: [],
                                disabled: Self.attribute(element, "disabled") != nil, label: "", form: formCount - 1))
                    case "select" where inForm:
                        var options: [HTMLForm.Option] = []
                        var child = element.pointee.children
                        while let option = child {
                            defer { child = option.pointee.next }
                            guard option.pointee.type == XML_ELEMENT_NODE, Self.name(option) == "option" else {
                                continue
                            }
                            let label = Self.content(option).trimmingCharacters(in: .whitespacesAndNewlines)
                            options.append(
                                HTMLForm.Option(
                                    value: Self.attribute(option, "value") ?? label, label: label,
                                    selected: Self.attribute(option, "selected") != nil))
                        }
                        controls.append(
                            HTMLForm.Control(
                                kind: Self.attribute(element, "multiple") != nil ? "select/multiple" : "select",
                                name: Self.attribute(element, "name"),
                                value: "", checked: false, options: options,
                                disabled: Self.attribute(element, "disabled") != nil, label: "", form: formCount - 1))
                    case "a":
                        if let href = Self.attribute(element, "href"), let query = HTMLForm.challengeQuery(href) {
                            links.append(
                                HTMLForm.SubmissionLink(
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
                    if let previous = enteredLabel { enclosingLabel = previous }
                }
            }
            walk(xmlDocGetRootElement(document))
        }
        // A field's label is the page's label for it; buttons keep their own text.
        for index in controls.indices where !controls[index].kind.hasPrefix("button/") {
            guard
                !["input/submit", "input/image", "input/button", "input/reset", "input/hidden"].contains(
                    controls[index].kind)
            else { continue }
            if let label = controlIDs[index].flatMap({ labelsByID[$0] }) ?? enclosingLabels[index], !label.isEmpty {
                controls[index].label = label
            }
        }
        return HTMLForm(
            controls: controls, method: method, action: action, formCount: formCount, links: links,
            text: textParts.joined(separator: " "))
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
