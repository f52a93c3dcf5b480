public import ThreeDS2SDK

/// An `HTMLFormReader` that reads every page as the same form, so the form state's handling of HTML screens is
/// tested without a parser (the `ThreeDS2HTML` module's reader is the live one).
public struct FixedFormReader: HTMLFormReader {
    /// The form every page reads as.
    public let form: HTMLForm

    /// Creates the reader.
    ///
    /// - Parameter form: The form every page reads as.
    public init(_ form: HTMLForm) {
        self.form = form
    }

    /// Returns the form the reader was made with, whatever the page.
    ///
    /// - Parameter html: The page (not read).
    /// - Returns: The form the reader was made with.
    public func form(fromHTML html: String) -> HTMLForm { form }
}
