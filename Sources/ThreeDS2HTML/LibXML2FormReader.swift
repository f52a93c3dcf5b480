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
///
/// Costs are bounded: a label's, button's, option's or link's text is read once, at most
/// ``maxLabelCharacters`` characters and ``maxLabelNodes`` nodes of its subtree, so nested labels cannot make one
/// page cost quadratic time; and a page nested deeper than ``maxDepth`` elements is an invalid page
/// (`HTMLForm.invalidReason`), never a page whose deeper part (libxml2 stops at 256 levels) silently vanishes.
public struct LibXML2FormReader: HTMLFormReader {
    /// The most characters (Unicode scalars) of a label's text that are read.
    public static let maxLabelCharacters = 256
    /// The most nodes of a label's subtree that are visited for its text.
    public static let maxLabelNodes = 1024
    /// The deepest element nesting a readable page may have (below libxml2's own cap of 256).
    public static let maxDepth = 200

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
        // The page's text as paragraphs: a block element (p, div, h1, li, br, …) ends one. Text a control shows
        // itself (its label, a button's or option's text, a submitting link's label) is not repeated here.
        var paragraphs: [String] = []
        var textParts: [String] = []
        func endParagraph() {
            if !textParts.isEmpty { paragraphs.append(textParts.joined(separator: " ")) }
            textParts = []
        }
        var inFormLabel = 0
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
        var tooDeep = false
        if let document {
            defer { xmlFreeDoc(document) }
            var inForm = false
            func walk(_ node: UnsafeMutablePointer<xmlNode>?, depth: Int) {
                guard depth <= Self.maxDepth else {
                    tooDeep = true
                    return
                }
                var current = node
                while let element = current, !tooDeep {
                    defer { current = element.pointee.next }
                    if element.pointee.type == XML_TEXT_NODE {
                        guard inFormLabel == 0 else { continue }
                        let content = Self.collapsingWhitespace(Self.content(element))
                        if !content.isEmpty { textParts.append(content) }
                        continue
                    }
                    guard element.pointee.type == XML_ELEMENT_NODE else { continue }
                    let name = Self.name(element)
                    if name == "script" || name == "style" || name == "head" { continue }
                    var enteredForm = false
                    var enteredLabel: String??
                    var enteredFormLabel = false
                    let isBlock = Self.blockElements.contains(name)
                    if isBlock { endParagraph() }
                    let linksBefore = links.count
                    if ["input", "textarea", "select"].contains(name), inForm {
                        if let id = Self.attribute(element, "id") { controlIDs[controls.count] = id }
                        if let enclosingLabel { enclosingLabels[controls.count] = enclosingLabel }
                    }
                    switch name {
                    case "label":
                        // Shown beside its control: inside a form its text is the control's, not the page's.
                        if inForm {
                            inFormLabel += 1
                            enteredFormLabel = true
                        }
                        let text = Self.labelText(element)
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
                                kind: .input(type), name: Self.attribute(element, "name"),
                                value: Self.attribute(element, "value") ?? defaultValue,
                                checked: Self.attribute(element, "checked") != nil, options: [],
                                disabled: Self.attribute(element, "disabled") != nil,
                                label: Self.attribute(element, "value") ?? Self.attribute(element, "alt") ?? "",
                                form: formCount - 1))
                    case "button" where inForm:
                        let type = (Self.attribute(element, "type") ?? "submit").lowercased()
                        let label = Self.labelText(element)
                        controls.append(
                            HTMLForm.Control(
                                kind: .button(type), name: Self.attribute(element, "name"),
                                value: Self.attribute(element, "value") ?? "",
                                checked: false, options: [], disabled: Self.attribute(element, "disabled") != nil,
                                label: label, form: formCount - 1))
                    case "textarea" where inForm:
                        controls.append(
                            HTMLForm.Control(
                                kind: .textarea, name: Self.attribute(element, "name"), value: Self.content(element),
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
                            let label = Self.labelText(option)
                            options.append(
                                HTMLForm.Option(
                                    value: Self.attribute(option, "value") ?? label, label: label,
                                    selected: Self.attribute(option, "selected") != nil))
                        }
                        controls.append(
                            HTMLForm.Control(
                                kind: Self.attribute(element, "multiple") != nil ? .multipleSelect : .select,
                                name: Self.attribute(element, "name"),
                                value: "", checked: false, options: options,
                                disabled: Self.attribute(element, "disabled") != nil, label: "", form: formCount - 1))
                    case "a":
                        if let href = Self.attribute(element, "href"), let query = HTMLForm.challengeQuery(href) {
                            links.append(
                                HTMLForm.SubmissionLink(
                                    label: Self.labelText(element),
                                    query: query))
                        }
                    default:
                        break
                    }
                    // A select's, textarea's or button's text is the control's; a submitting link's is the link's.
                    let submittingLink = name == "a" && links.count > linksBefore
                    if !["select", "textarea", "button"].contains(name), !submittingLink {
                        walk(element.pointee.children, depth: depth + 1)
                    }
                    if isBlock { endParagraph() }
                    if enteredFormLabel { inFormLabel -= 1 }
                    if enteredForm { inForm = false }
                    if let previous = enteredLabel { enclosingLabel = previous }
                }
            }
            walk(xmlDocGetRootElement(document), depth: 1)
            endParagraph()
        }
        if tooDeep {
            return HTMLForm(
                controls: [], formCount: 0,
                invalidReason: "the page nests elements deeper than \(Self.maxDepth) levels")
        }
        // A field's label is the page's label for it; buttons keep their own text.
        for index in controls.indices where !controls[index].kind.isButtonElement {
            guard ![.submitInput, .imageInput, .buttonInput, .resetInput, .hidden].contains(controls[index].kind)
            else { continue }
            if let label = controlIDs[index].flatMap({ labelsByID[$0] }) ?? enclosingLabels[index], !label.isEmpty {
                controls[index].label = label
            }
        }
        return HTMLForm(
            controls: controls, method: method, action: action, formCount: formCount, links: links,
            text: paragraphs.joined(separator: "\n"))
    }

    /// The elements that start and end a paragraph of the page's text (HTML's block-level elements, and `br`).
    static let blockElements: Set<String> = [
        "address", "article", "aside", "blockquote", "br", "dd", "details", "dialog", "div", "dl", "dt",
        "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
        "legend", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "td", "th", "tr", "ul",
    ]

    /// Text as HTML lays it out: every run of white space (line breaks included) is one space; none at the ends.
    static func collapsingWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    private static func name(_ node: UnsafeMutablePointer<xmlNode>) -> String {
        node.pointee.name.map { String(cString: $0) }?.lowercased() ?? ""
    }

    private static func attribute(_ node: UnsafeMutablePointer<xmlNode>, _ name: String) -> String? {
        guard let value = xmlGetProp(node, name) else { return nil }
        defer { free(value) }
        return String(cString: value)
    }

    /// The text of an element's subtree for a label: read once, at most ``maxLabelCharacters`` characters from at
    /// most ``maxLabelNodes`` nodes (scripts and styles left out), whitespace trimmed.
    static func labelText(_ node: UnsafeMutablePointer<xmlNode>) -> String {
        var scalars = String.UnicodeScalarView()
        var visited = 0
        // Each entry is the next sibling to visit at one level of the subtree.
        var stack: [UnsafeMutablePointer<xmlNode>?] = [node.pointee.children]
        while let top = stack.last, scalars.count < maxLabelCharacters, visited < maxLabelNodes {
            guard let current = top else {
                stack.removeLast()
                continue
            }
            stack[stack.count - 1] = current.pointee.next
            visited += 1
            if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
                let content = current.pointee.content
            {
                // Only as many bytes as the remaining characters can take (4 per character in UTF-8).
                let wanted = (maxLabelCharacters - scalars.count) * 4
                var length = 0
                while length < wanted, content[length] != 0 { length += 1 }
                let piece = String(decoding: UnsafeBufferPointer(start: content, count: length), as: UTF8.self)
                scalars.append(contentsOf: piece.unicodeScalars.prefix(maxLabelCharacters - scalars.count))
            } else if current.pointee.type == XML_ELEMENT_NODE, current.pointee.children != nil,
                !["script", "style"].contains(name(current))
            {
                stack.append(current.pointee.children)
            }
        }
        return String(scalars).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func content(_ node: UnsafeMutablePointer<xmlNode>) -> String {
        guard let value = xmlNodeGetContent(node) else { return "" }
        defer { free(value) }
        return String(cString: value)
    }
}
