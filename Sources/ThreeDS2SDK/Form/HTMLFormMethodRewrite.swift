/// Makes every form of an HTML challenge page submit with GET, before the page is loaded into a web view.
///
/// A web view's navigation delegate sees a form submission as a request, but WebKit leaves a POST request's body
/// empty there (`WKNavigationAction.request.httpBody`), so a `method="post"` form would reach ``WebViewPolicy``
/// without its data. Submitted with GET, the same data arrives as the query of the reserved URL, which the policy
/// turns into `challengeHTMLDataEntry` unchanged (`application/x-www-form-urlencoded` either way).
///
/// The rewrite adds an attribute at the start of each `form` tag (`method="get" target="_self"`) and of each
/// `button` and `input` tag (`formmethod="get" formtarget="_self"`). The HTML parsing algorithm keeps the first of
/// two attributes with the same name and drops the later one (WHATWG HTML §13.2.5.33, "duplicate-attribute"), so
/// the page's own `method="post"`, `formmethod="post"` or `target="_blank"` no longer apply, and nothing of the page
/// is removed or reordered. Comments, declarations, attribute values and the raw-text elements (`script`, `style`,
/// `textarea`, `title`, `xmp`) are copied unchanged.
enum HTMLFormMethodRewrite {
    /// The attribute text added after each tag name.
    static let injected: [String: String] = [
        "form": " method=\"get\" target=\"_self\"",
        "button": " formmethod=\"get\" formtarget=\"_self\"",
        "input": " formmethod=\"get\" formtarget=\"_self\"",
    ]

    /// Elements whose content is text up to their end tag, shown or run as it is: nothing inside is a tag, and it is
    /// copied unchanged. (`noscript` is not among them: with scripts off, as the web view has them, its content is
    /// parsed as markup, and a form in it is rewritten like any other.)
    static let rawTextElements: Set<String> = ["script", "style", "textarea", "title", "xmp"]

    /// The page with every form submitting with GET in the same browsing context.
    ///
    /// - Parameter html: The page.
    /// - Returns: The rewritten page.
    static func rewrite(_ html: String) -> String {
        let input = Array(html.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(input.count + 256)
        var index = 0
        while index < input.count {
            let byte = input[index]
            guard byte == UInt8(ascii: "<"), index + 1 < input.count else {
                output.append(byte)
                index += 1
                continue
            }
            let next = input[index + 1]
            if starts(input, at: index, with: "<!--") {
                let end = find(input, "-->", from: index + 4).map { $0 + 3 } ?? input.count
                output += input[index..<end]
                index = end
            } else if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") || next == UInt8(ascii: "/") {
                let end = (input[index...].firstIndex(of: UInt8(ascii: ">")) ?? input.count - 1) + 1
                output += input[index..<end]
                index = end
            } else if isASCIILetter(next) {
                index = copyStartTag(input, from: index, into: &output)
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Copies the start tag at `start` (its `<` is there), adding the attribute for a form, button or input, and
    /// the content of a raw-text element after it. Returns the index after what was copied.
    private static func copyStartTag(_ input: [UInt8], from start: Int, into output: inout [UInt8]) -> Int {
        var index = start + 1
        while index < input.count, !isTagNameEnd(input[index]) { index += 1 }
        let name = String(decoding: input[(start + 1)..<index], as: UTF8.self).lowercased()
        output += input[start..<index]
        if let attribute = injected[name] { output += Array(attribute.utf8) }
        // The rest of the tag: attribute values in quotes may hold `>`.
        while index < input.count {
            let byte = input[index]
            output.append(byte)
            index += 1
            if byte == UInt8(ascii: ">") { break }
            if byte == UInt8(ascii: "=") {
                while index < input.count, isSpace(input[index]) {
                    output.append(input[index])
                    index += 1
                }
                if index < input.count, input[index] == UInt8(ascii: "\"") || input[index] == UInt8(ascii: "'") {
                    let quote = input[index]
                    let end = (input[(index + 1)...].firstIndex(of: quote) ?? input.count - 1) + 1
                    output += input[index..<end]
                    index = end
                }
            }
        }
        guard rawTextElements.contains(name) else { return index }
        let end = findEndTag(input, name, from: index) ?? input.count
        output += input[index..<end]
        return end
    }

    /// Where `</name` (any case) starts at or after `from`.
    private static func findEndTag(_ input: [UInt8], _ name: String, from: Int) -> Int? {
        let closing = Array(("</" + name).utf8)
        var index = from
        while let found = find(input, "</", from: index) {
            let candidate = input[found..<min(found + closing.count, input.count)].map(lowercased)
            if candidate.elementsEqual(closing) { return found }
            index = found + 2
        }
        return nil
    }

    private static func find(_ input: [UInt8], _ text: String, from: Int) -> Int? {
        var index = from
        while index < input.count {
            if starts(input, at: index, with: text) { return index }
            index += 1
        }
        return nil
    }

    private static func starts(_ input: [UInt8], at index: Int, with text: String) -> Bool {
        let bytes = text.utf8
        return index + bytes.count <= input.count && input[index..<(index + bytes.count)].elementsEqual(bytes)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lowercased(byte))
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    private static func isTagNameEnd(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }
}
