import Testing
import ThreeDS2SDK

// Only `import ThreeDS2SDK`: everything the SDK's public API hands out (screens, answers, Erro messages, versions,
// UI types, content encryptions) must be reachable through it. This file does not compile without the re-exports.

/// The presenter of the Challenge article, as an app writes it.
private struct ArticleCodePresenter: ChallengePresenter {
    let code: String
    func present(_ form: ChallengeFormState) async -> ChallengeAnswer {
        var form = form
        _ = form.perform(.type(code))
        return form.perform(.submit())?.answer ?? ChallengeAnswer(.cancel)
    }
}

@Suite("import ThreeDS2SDK alone")
struct ImportAloneTests {
    @Test("the types the public API hands out are reachable with import ThreeDS2SDK alone")
    func reachable() {
        let version: MessageVersion = .v2_2_0
        let types: [UIType] = version.uiTypes
        #expect(types.contains(.text) && !types.contains(.information))
        let answer = ChallengeAnswer(.cancel)
        #expect(answer == ChallengeAnswer(.cancel))
        let outcome: ChallengeOutcome = .cancelled
        if case .protocolError(let erro) = outcome {
            let _: ErrorMessage = erro
        }
        let encryption: ContentEncryption = .a128cbcHS256
        #expect(DirectoryServerEncryptionCheck.accepts(encryption))
        #expect(ArticleCodePresenter(code: "1").renderOptions(for: version) == .all(for: version))
    }
}

/// Uses `ContentEncryption` where a configuration would.
private enum DirectoryServerEncryptionCheck {
    static func accepts(_ encryption: ContentEncryption) -> Bool { ContentEncryption.allCases.contains(encryption) }
}
