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
        var walker = FormWalker()
        if let document {
            defer { xmlFreeDoc(document) }
            walker.walk(xmlDocGetRootElement(document), depth: 1)
            walker.endParagraph()
        }
        return walker.form
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

    static func name(_ node: UnsafeMutablePointer<xmlNode>) -> String {
        node.pointee.name.map { String(cString: $0) }?.lowercased() ?? ""
    }

    static func attribute(_ node: UnsafeMutablePointer<xmlNode>, _ name: String) -> String? {
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

    static func content(_ node: UnsafeMutablePointer<xmlNode>) -> String {
        guard let value = xmlNodeGetContent(node) else { return "" }
        defer { free(value) }
        return String(cString: value)
    }
}
