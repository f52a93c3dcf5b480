extension HTMLForm.Control {
    /// Whether the control takes typed text.
    public var isTextLike: Bool {
        (kind.isInput || kind == .textarea)
            && ![.checkbox, .radio, .submitInput, .imageInput, .buttonInput, .resetInput].contains(kind)
    }
}

extension HTMLForm {
    /// Toggles a checkbox, checks a radio (unchecking its group), or steps a select to its next option.
    mutating func toggle(index: Int) {
        guard controls.indices.contains(index) else { return }
        let control = controls[index]
        switch control.kind {
        case .checkbox:
            controls[index].checked.toggle()
        case .radio:
            for other in controls.indices
            where controls[other].kind == .radio && controls[other].name == control.name {
                controls[other].checked = false
            }
            controls[index].checked = true
        case .select, .multipleSelect:
            guard !control.options.isEmpty else { return }
            let current = control.options.firstIndex(where: \.selected) ?? -1
            for option in controls[index].options.indices {
                controls[index].options[option].selected = option == (current + 1) % control.options.count
            }
        default:
            return
        }
    }
}
