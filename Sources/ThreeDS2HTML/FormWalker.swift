import ThreeDS2SDK

#if canImport(CLibXML2)
    import CLibXML2
#else
    import libxml2
#endif

/// One walk over a parsed page, in document order: what ``LibXML2FormReader`` collects (every form's controls, the
/// submitting links, the page's text as paragraphs, and the labels to give the fields afterwards), with the state the
/// walk is in (inside a form, inside a label).
struct FormWalker {
    typealias Node = UnsafeMutablePointer<xmlNode>
    private typealias Reader = LibXML2FormReader

    /// What entering an element changed, undone when the walk leaves it.
    private struct Entered {
        var form = false
        var formLabel = false
        /// The enclosing label before this element's, when this element is a label that encloses its control.
        var label: String??
    }

    private var controls: [HTMLForm.Control] = []
    private var links: [HTMLForm.SubmissionLink] = []
    private var method = "get"
    private var action: String?
    private var formCount = 0
    private var inForm = false
    /// The page's text as paragraphs: a block element (p, div, h1, li, br, …) ends one. Text a control shows itself
    /// (its label, a button's or option's text, a submitting link's label) is not repeated here.
    private var paragraphs: [String] = []
    private var textParts: [String] = []
    private var inFormLabel = 0
    // Labels: <label for=id> by the id, and an enclosing <label> for the controls inside it.
    private var labelsByID: [String: String] = [:]
    private var controlIDs: [Int: String] = [:]
    private var enclosingLabels: [Int: String] = [:]
    private var enclosingLabel: String?
    private var tooDeep = false

    /// Walks `node` and its following siblings, and their subtrees.
    mutating func walk(_ node: Node?, depth: Int) {
        guard depth <= Reader.maxDepth else {
            tooDeep = true
            return
        }
        var current = node
        while let element = current, !tooDeep {
            defer { current = element.pointee.next }
            if element.pointee.type == XML_TEXT_NODE {
                readText(element)
            } else if element.pointee.type == XML_ELEMENT_NODE {
                visit(element, depth: depth)
            }
        }
    }

    /// Ends the paragraph being collected.
    mutating func endParagraph() {
        if !textParts.isEmpty { paragraphs.append(textParts.joined(separator: " ")) }
        textParts = []
    }

    /// The form read: an invalid one when the page nests too deep; otherwise every field labelled as the page
    /// labels it (buttons keep their own text).
    var form: HTMLForm {
        if tooDeep {
            return HTMLForm(
                controls: [], formCount: 0,
                invalidReason: "the page nests elements deeper than \(Reader.maxDepth) levels")
        }
        var controls = controls
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

    private mutating func readText(_ node: Node) {
        guard inFormLabel == 0 else { return }
        let content = Reader.collapsingWhitespace(Reader.content(node))
        if !content.isEmpty { textParts.append(content) }
    }

    /// One element: what it adds, its subtree (unless its text is a control's or a link's), then leaving it.
    private mutating func visit(_ element: Node, depth: Int) {
        let name = Reader.name(element)
        if name == "script" || name == "style" || name == "head" { return }
        let isBlock = Reader.blockElements.contains(name)
        if isBlock { endParagraph() }
        let linksBefore = links.count
        if ["input", "textarea", "select"].contains(name), inForm {
            if let id = Reader.attribute(element, "id") { controlIDs[controls.count] = id }
            if let enclosingLabel { enclosingLabels[controls.count] = enclosingLabel }
        }
        let entered = enter(element, name: name)
        // A select's, textarea's or button's text is the control's; a submitting link's is the link's.
        let submittingLink = name == "a" && links.count > linksBefore
        if !["select", "textarea", "button"].contains(name), !submittingLink {
            walk(element.pointee.children, depth: depth + 1)
        }
        if isBlock { endParagraph() }
        if entered.formLabel { inFormLabel -= 1 }
        if entered.form { inForm = false }
        if let previous = entered.label { enclosingLabel = previous }
    }

    private mutating func enter(_ element: Node, name: String) -> Entered {
        var entered = Entered()
        switch name {
        case "label": entered = enterLabel(element)
        case "form" where !inForm:
            if formCount == 0 {
                method = (Reader.attribute(element, "method") ?? "get").lowercased()
                action = Reader.attribute(element, "action")
            }
            formCount += 1
            inForm = true
            entered.form = true
        case "input" where inForm: controls.append(input(element))
        case "button" where inForm: controls.append(button(element))
        case "textarea" where inForm:
            controls.append(
                HTMLForm.Control(
                    kind: .textarea, name: Reader.attribute(element, "name"), value: Reader.content(element),
                    checked: false, options: [], disabled: Reader.attribute(element, "disabled") != nil, label: "",
                    form: formCount - 1))
        case "select" where inForm: controls.append(select(element))
        case "a":
            if let href = Reader.attribute(element, "href"), let query = HTMLForm.challengeQuery(href) {
                links.append(HTMLForm.SubmissionLink(label: Reader.labelText(element), query: query))
            }
        default: break
        }
        return entered
    }

    /// A label is shown beside its control: inside a form its text is the control's, not the page's.
    private mutating func enterLabel(_ element: Node) -> Entered {
        var entered = Entered()
        if inForm {
            inFormLabel += 1
            entered.formLabel = true
        }
        let text = Reader.labelText(element)
        if let target = Reader.attribute(element, "for") {
            labelsByID[target] = text
        } else if !text.isEmpty {
            entered.label = .some(enclosingLabel)
            enclosingLabel = text
        }
        return entered
    }

    private func input(_ element: Node) -> HTMLForm.Control {
        let type = (Reader.attribute(element, "type") ?? "text").lowercased()
        let defaultValue = type == "checkbox" || type == "radio" ? "on" : ""
        return HTMLForm.Control(
            kind: .input(type), name: Reader.attribute(element, "name"),
            value: Reader.attribute(element, "value") ?? defaultValue,
            checked: Reader.attribute(element, "checked") != nil, options: [],
            disabled: Reader.attribute(element, "disabled") != nil,
            label: Reader.attribute(element, "value") ?? Reader.attribute(element, "alt") ?? "", form: formCount - 1)
    }

    private func button(_ element: Node) -> HTMLForm.Control {
        let type = (Reader.attribute(element, "type") ?? "submit").lowercased()
        return HTMLForm.Control(
            kind: .button(type), name: Reader.attribute(element, "name"),
            value: Reader.attribute(element, "value") ?? "", checked: false, options: [],
            disabled: Reader.attribute(element, "disabled") != nil, label: Reader.labelText(element),
            form: formCount - 1)
    }

    private func select(_ element: Node) -> HTMLForm.Control {
        var options: [HTMLForm.Option] = []
        var child = element.pointee.children
        while let option = child {
            defer { child = option.pointee.next }
            guard option.pointee.type == XML_ELEMENT_NODE, Reader.name(option) == "option" else { continue }
            let label = Reader.labelText(option)
            options.append(
                HTMLForm.Option(
                    value: Reader.attribute(option, "value") ?? label, label: label,
                    selected: Reader.attribute(option, "selected") != nil))
        }
        return HTMLForm.Control(
            kind: Reader.attribute(element, "multiple") != nil ? .multipleSelect : .select,
            name: Reader.attribute(element, "name"), value: "", checked: false, options: options,
            disabled: Reader.attribute(element, "disabled") != nil, label: "", form: formCount - 1)
    }
}
