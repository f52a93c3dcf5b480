/// The payment system the processing indicator stands for: its directory server (as a type, so a presenter picks
/// a mark by ID, never by comparing display texts), the name to show, and the logo the app configured for it, so
/// the indicator can show the scheme's mark as the EMVCo guidance shows it on the progress view.
public struct ProcessingScheme: Sendable, Hashable {
    /// The directory server of the transaction.
    public var directoryServerID: DirectoryServerID
    /// The name to show: the directory server's display name, else the registered scheme's, else its ID.
    public var name: String
    /// The scheme's logo as the app configured it (``DirectoryServer/logo``), or `nil`: the SDK ships no marks.
    public var logo: SchemeLogo?

    /// What assistive technologies read for the logo: its own ``SchemeLogo/accessibilityLabel`` when that differs
    /// from ``name``, which is shown (and read) beside it; `nil` otherwise, and then the logo is hidden from them, so
    /// the name is not read twice. `nil` without a logo.
    public var logoAccessibilityLabel: String? {
        guard let label = logo?.accessibilityLabel, label != name else { return nil }
        return label
    }

    /// Creates the description.
    ///
    /// - Parameters:
    ///   - directoryServerID: The directory server.
    ///   - name: The name to show.
    ///   - logo: The scheme's logo, if the app configured one.
    public init(directoryServerID: DirectoryServerID, name: String, logo: SchemeLogo? = nil) {
        self.directoryServerID = directoryServerID
        self.name = name
        self.logo = logo
    }
}

/// A payment system's logo for the processing indicator: the name of an image the app ships (an asset catalogue
/// name on Apple platforms, a file name elsewhere). The SDK only carries it to the presenter; payment systems license
/// their marks to the app, so none comes with the SDK.
public struct SchemeLogo: Sendable, Hashable {
    /// The image's name in the app's resources.
    public var imageName: String
    /// A text alternative for assistive technologies (for example "Visa"); when `nil`, the logo is hidden from them
    /// and the scheme's name shown beside it is read (``ProcessingScheme/logoAccessibilityLabel``).
    public var accessibilityLabel: String?

    /// Creates a logo reference.
    ///
    /// - Parameters:
    ///   - imageName: The image's name in the app's resources.
    ///   - accessibilityLabel: A text alternative; when `nil`, the scheme's name shown beside the logo is read.
    public init(imageName: String, accessibilityLabel: String? = nil) {
        self.imageName = imageName
        self.accessibilityLabel = accessibilityLabel
    }
}
