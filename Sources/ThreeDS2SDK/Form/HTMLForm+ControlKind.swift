extension HTMLForm.Control {
    /// What a control is: its element and, for `input` and `button`, its `type` (`input/text`, `button/submit`,
    /// `select/multiple`, `textarea`, …).
    ///
    /// A struct over that text, not an enum: a page may give an `input` any `type`, and the control keeps it (an
    /// unknown `type` takes text, as a browser treats it). The static members are the kinds the SDK acts on.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The element and type, as `element/type` (`input/text`), or the element alone (`select`, `textarea`).
        public let rawValue: String

        /// A kind from its text.
        ///
        /// - Parameter rawValue: `element/type` or the element alone.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The text.
        public var description: String { rawValue }

        /// An `input` of a `type` (lower case), known or not.
        ///
        /// - Parameter type: The `type` attribute, lower case.
        /// - Returns: `input/type`.
        public static func input(_ type: String) -> Kind { Kind(rawValue: "input/\(type)") }

        /// A `button` of a `type` (lower case).
        ///
        /// - Parameter type: The `type` attribute, lower case.
        /// - Returns: `button/type`.
        public static func button(_ type: String) -> Kind { Kind(rawValue: "button/\(type)") }

        /// `input/text`.
        public static let text = input("text")
        /// `input/password`.
        public static let password = input("password")
        /// `input/hidden`.
        public static let hidden = input("hidden")
        /// `input/checkbox`.
        public static let checkbox = input("checkbox")
        /// `input/radio`.
        public static let radio = input("radio")
        /// `input/submit`.
        public static let submitInput = input("submit")
        /// `input/image`: submits, with the click position.
        public static let imageInput = input("image")
        /// `input/button`: a button that does not submit.
        public static let buttonInput = input("button")
        /// `input/reset`.
        public static let resetInput = input("reset")
        /// `input/file`.
        public static let fileInput = input("file")
        /// `button/submit`, a `button` without a `type` too.
        public static let submitButton = button("submit")
        /// `button/button`: a button that does not submit.
        public static let plainButton = button("button")
        /// `button/reset`.
        public static let resetButton = button("reset")
        /// `textarea`.
        public static let textarea = Kind(rawValue: "textarea")
        /// `select` with one choice.
        public static let select = Kind(rawValue: "select")
        /// `select/multiple`: a `select` with the `multiple` attribute.
        public static let multipleSelect = Kind(rawValue: "select/multiple")

        /// Whether the control is an `input` element.
        public var isInput: Bool { rawValue.hasPrefix("input/") }
        /// Whether the control is a `button` element.
        public var isButtonElement: Bool { rawValue.hasPrefix("button/") }
        /// Whether the control submits its form (`input/submit`, `input/image`, `button/submit`).
        public var submits: Bool { self == .submitInput || self == .imageInput || self == .submitButton }
        /// Whether the control is a list (`select`, `select/multiple`).
        public var isSelect: Bool { self == .select || self == .multipleSelect }
    }
}
