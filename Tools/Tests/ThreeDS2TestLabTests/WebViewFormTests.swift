import Foundation
import Testing
import ThreeDS2HTML
import ThreeDS2SDK

@testable import ThreeDS2TestLab

/// Issue 33: the TestLab's HTML pages use `method="post"`, which WebKit submits to a navigation delegate without its
/// body. Rewritten as the web view loads them (`WebViewPolicy.lockedDownDocument(_:)`), they submit with GET, and
/// the data the policy hands the SDK is what the lab's ACS reads.
@Suite("The TestLab's HTML pages submit in a web view")
struct WebViewFormTests {
    @Test("UI 05: each button's submission reaches the policy and the lab reads it", arguments: ["Verify", "Cancel"])
    func htmlPage(button: String) throws {
        let page = ScenarioScript.htmlPage(txid: "8a1f", error: false)
        #expect(LibXML2FormReader().form(fromHTML: page).method == "post", "the lab's page is a POST form")
        let form = LibXML2FormReader().form(fromHTML: WebViewPolicy.formsSubmittingWithGET(page))
        #expect(form.method == "get")
        let query = try form.submission(fields: ["otp": "123456"], button: button)
        let action = try #require(form.action)
        let url = try #require(URL(string: action + "?" + query))
        guard case .submit(let data) = WebViewPolicy.decide(url: url, method: form.method, isInitialLoad: false) else {
            Issue.record("the policy did not submit \(url)")
            return
        }
        let pairs = ScenarioScript.formPairs(data)
        #expect(pairs["txid"] == "8a1f")
        #expect(pairs["otp"] == "123456")
        #expect(pairs["action"] == button.lowercased())
    }

    @Test("the whole document the web view loads keeps the page's text and links")
    func lockedDown() {
        let page = ScenarioScript.htmlPage(txid: "8a1f", error: true, resent: true)
        let document = WebViewPolicy.lockedDownDocument(page)
        #expect(document.contains("The code was not correct.") && document.contains("A new code was sent"))
        #expect(document.contains(#"<a href="https://emv3ds/challenge?action=resend">"#))
        #expect(LibXML2FormReader().form(fromHTML: document).method == "get")
    }
}
