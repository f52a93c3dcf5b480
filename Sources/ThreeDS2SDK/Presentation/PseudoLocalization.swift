extension SDKStrings {
    /// The texts pseudo-localized (``pseudoLocalized(_:growth:)``): every text accented and lengthened, its
    /// placeholders kept, for checking a screen's layout with longer texts than English before translations exist.
    ///
    /// - Parameter growth: How much longer each text gets: 0.4 (the default) is 40 %, what German and Finnish often
    ///   need over English.
    /// - Returns: The texts, in the same language.
    @_spi(ThreeDS2Tools) public func pseudoLocalized(growth: Double = 0.4) -> SDKStrings {
        var texts: [Key: String] = [:]
        for key in Key.allCases { texts[key] = Self.pseudoLocalized(self[key], growth: growth) }
        return overriding(texts)
    }

    /// A text pseudo-localized: each ASCII letter replaced by an accented one of the same shape (`Cancel` →
    /// `Çåñçéļ`), placeholders (`%@`, `%d`, `%1$@`, `%%`) kept as they are, and `~` added at the end until the text
    /// is `growth` longer (rounded up), between `⟦` and `⟧` so that a cut end shows.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - growth: How much longer it gets (0.4 for 40 %).
    /// - Returns: The pseudo-localized text.
    @_spi(ThreeDS2Tools) public static func pseudoLocalized(_ text: String, growth: Double = 0.4) -> String {
        let accents = Array("åƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var out = ""
        var rest = Substring(text)
        while let character = rest.first {
            rest = rest.dropFirst()
            if character == "%" {
                // A placeholder is copied whole: digits, `$`, then its kind (or a second `%`).
                var spec = "%"
                while let next = rest.first, next.isNumber || next == "$" {
                    spec.append(next)
                    rest = rest.dropFirst()
                }
                if let kind = rest.first, "@d%".contains(kind) {
                    spec.append(kind)
                    rest = rest.dropFirst()
                }
                out += spec
            } else if let index = letters.firstIndex(of: character) {
                out.append(accents[index])
            } else {
                out.append(character)
            }
        }
        let target = Int((Double(text.count) * (1 + growth)).rounded(.up))
        let padding = String(repeating: "~", count: max(0, target - text.count - 2))
        return "⟦" + out + padding + "⟧"
    }
}
