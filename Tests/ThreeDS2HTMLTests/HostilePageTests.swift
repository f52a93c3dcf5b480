import Foundation
import Testing
import ThreeDS2HTML
import ThreeDS2JOSE
import ThreeDS2Messages
import ThreeDS2SDK

/// Hostile ACS pages: nested labels and pages nested past libxml2's depth cap.
@Suite("HTML reader against hostile pages")
struct HostilePageTests {
    /// `levels` labels each inside the previous one, each with `text` before the next, and a field in the middle.
    private func nestedLabels(_ levels: Int, text: String) -> String {
        var page = "<html><body><form action=\"https://emv3ds/challenge\">"
        for level in 0..<levels { page += "<label>\(text) \(level) " }
        page += "<input name=\"otp\">"
        page += String(repeating: "</label>", count: levels)
        return page + "<input type=\"submit\" value=\"Go\"></form></body></html>"
    }

    @Test("190 nested labels of 1.5 KB text each: every label read once and capped")
    func nestedLabelCost() {
        let page = nestedLabels(190, text: String(repeating: "x", count: 1500))
        let clock = ContinuousClock()
        let started = clock.now
        let form = LibXML2FormReader().form(fromHTML: page)
        let elapsed = clock.now - started
        let field = form.controls.first { $0.name == "otp" }
        #expect(field != nil)
        #expect(
            (field?.label.unicodeScalars.count ?? .max) <= LibXML2FormReader.maxLabelCharacters,
            "label of \(field?.label.unicodeScalars.count ?? -1) characters")
        #expect(field?.label.hasPrefix("xxx") == true)
        // The cap is what the two checks above prove (the label is the first 256 characters of its own text). The
        // clock is a backstop against a read that runs away (each of the 190 labels copying every nested label's
        // text, uncapped): it holds with both cores busy, and claims no speed.
        #expect(elapsed < .seconds(60), "read in \(elapsed)")
    }

    @Test("a page nested past the depth cap is an invalid page, not a page whose form silently vanished")
    func depthOverflow() {
        let deep =
            "<html><body>" + String(repeating: "<div>", count: 300)
            + "<form action=\"https://emv3ds/challenge\"><input name=\"otp\"><input type=\"submit\" value=\"Go\"></form>"
            + String(repeating: "</div>", count: 300) + "</body></html>"
        let form = LibXML2FormReader().form(fromHTML: deep)
        #expect(form.invalidReason != nil)
        #expect(form.controls.isEmpty)
        // Within the cap the same form reads.
        let shallow = deep.replacingOccurrences(of: String(repeating: "<div>", count: 300), with: "<div><div>")
            .replacingOccurrences(of: String(repeating: "</div>", count: 300), with: "</div></div>")
        let readable = LibXML2FormReader().form(fromHTML: shallow)
        #expect(readable.invalidReason == nil && readable.controls.contains { $0.name == "otp" })
    }

    @Test("the layout of an invalid page offers no controls, only the reason")
    func invalidPageLayout() throws {
        let deep =
            "<html><body>" + String(repeating: "<div>", count: 300)
            + "<form><input name=\"otp\"></form>" + String(repeating: "</div>", count: 300) + "</body></html>"
        let cres: JSONObject = [
            "threeDSServerTransID": .string("8a880dc0-d2d2-4067-bcb1-b08d1690b26e"),
            "acsTransID": .string("d7c1ee99-9478-44a6-b1f2-391e29c6b340"),
            "sdkTransID": .string("b2385523-a66c-4907-ac3c-91848e8c0067"), "acsCounterAtoS": .string("000"),
            "messageType": .string("CRes"), "messageVersion": .string("2.2.0"),
            "challengeCompletionInd": .string("N"), "acsUiType": .string("05"),
            "acsHTML": .string(Base64.urlEncode(Array(deep.utf8))),
        ]
        let response = try ChallengeResponseValidator.validate(
            cres,
            expecting: ChallengeResponseExpectation(
                identifiers: TransactionIdentifiers(
                    threeDSServerTransID: "8a880dc0-d2d2-4067-bcb1-b08d1690b26e",
                    acsTransID: "d7c1ee99-9478-44a6-b1f2-391e29c6b340",
                    sdkTransID: "b2385523-a66c-4907-ac3c-91848e8c0067"), messageVersion: .v2_2_0, acsCounter: 0))
        guard case .screen(let screen) = response else {
            Issue.record("not a screen")
            return
        }
        let layout = ChallengeLayout(
            screen: screen, customization: UiCustomization(), strings: SDKStrings(locale: Locale(identifier: "en")),
            htmlReader: LibXML2FormReader())
        #expect(!layout.elements.contains { if case .htmlControl = $0 { true } else { false } })
        #expect(
            layout.elements.contains {
                if case .htmlText(let text) = $0 { text.contains("deeper than 200") } else { false }
            })
    }
}
