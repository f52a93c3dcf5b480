import Foundation
import Testing
import ThreeDS2SDK

/// Issue 33: WebKit gives a navigation delegate no body for a POST, so a `method="post"` challenge page never
/// submitted in the web view. The page is loaded with every form submitting with GET.
@Suite("HTML challenge forms submit with GET in the web view")
struct FormMethodRewriteTests {
    /// The TestLab's UI 05 page (Tools/Sources/ThreeDS2TestLab/ACS/ScenarioScript.swift, `htmlPage`), as it serves it.
    static let testLabPage = """
        <!DOCTYPE html><html><head><title>Verify</title><style>body{font-family:sans-serif}</style>
        <script>document.title = 'scripts never run';</script></head><body>
        <h1>Confirm your payment</h1>
        <p>Enter the one-time code we sent to your phone.</p>
        <form method="post" action="HTTPS://EMV3DS/challenge">
        <input type="hidden" name="txid" value="8a1f">
        <label for="otp">Code</label> <input type="text" id="otp" name="otp" value="" maxlength="8">
        <label><input type="checkbox" name="remember" value="yes"> Remember this device</label>
        <button type="submit" name="action" value="verify">Verify</button>
        <button type="submit" name="action" value="cancel">Cancel</button>
        </form>
        <p><a href="https://emv3ds/challenge?action=resend">Send a new code</a></p>
        </body></html>
        """

    @Test("the TestLab's POST form: GET first in the form tag and in every control, the rest unchanged")
    func testLab() {
        let page = WebViewPolicy.formsSubmittingWithGET(Self.testLabPage)
        #expect(page.contains(#"<form method="get" target="_self" method="post" action="HTTPS://EMV3DS/challenge">"#))
        #expect(
            page.contains(
                #"<button formmethod="get" formtarget="_self" type="submit" name="action" value="verify">Verify</button>"#
            ))
        #expect(page.contains(#"<input formmethod="get" formtarget="_self" type="hidden" name="txid" value="8a1f">"#))
        // Nothing but the added attributes differs.
        let added = [#" method="get" target="_self""#, #" formmethod="get" formtarget="_self""#]
        var restored = page
        for text in added { restored = restored.replacingOccurrences(of: text, with: "") }
        #expect(restored == Self.testLabPage)
        #expect(page.contains("<title>Verify</title>") && page.contains("document.title = 'scripts never run';"))
    }

    @Test("the loaded document carries the rewrite after its Content-Security-Policy")
    func lockedDownDocument() {
        let document = WebViewPolicy.lockedDownDocument(Self.testLabPage)
        #expect(document.hasPrefix("<meta http-equiv=\"Content-Security-Policy\""))
        #expect(document.contains(#"<form method="get" target="_self" method="post""#))
    }

    @Test(
        "real-world form shapes",
        arguments: [
            // Upper-case tags and attributes, unquoted values.
            (#"<FORM METHOD=POST ACTION=https://emv3ds/challenge>"#, #"<FORM method="get" target="_self" METHOD=POST"#),
            // A GET form stays GET.
            (#"<form method="get" action="x">"#, #"<form method="get" target="_self" method="get""#),
            // No method at all.
            (#"<form action="x">"#, #"<form method="get" target="_self" action="x">"#),
            // A self-closing-looking tag and a bare one.
            (#"<form/>"#, #"<form method="get" target="_self"/>"#),
            (#"<form>"#, #"<form method="get" target="_self">"#),
            // A tag split over lines.
            ("<form\nmethod=\"post\">", "<form method=\"get\" target=\"_self\"\nmethod=\"post\">"),
            // A button that overrides the form's method and action (formaction keeps working: only the method).
            (
                #"<button formaction="https://emv3ds/challenge" formmethod="post" name="resend" value="1">"#,
                #"<button formmethod="get" formtarget="_self" formaction="https://emv3ds/challenge" formmethod="post""#
            ),
            (
                #"<input type=submit formmethod=POST formtarget=_blank value=Go>"#,
                #"<input formmethod="get" formtarget="_self" type=submit formmethod=POST formtarget=_blank value=Go>"#
            ),
            // With scripts off, a form in noscript is markup like any other.
            ("<noscript><form>", #"<noscript><form method="get" target="_self">"#),
            // A form that opens a new window submits in place.
            (#"<form target="_blank">"#, #"<form method="get" target="_self" target="_blank">"#),
        ])
    func shapes(html: String, expected: String) {
        let rewritten = WebViewPolicy.formsSubmittingWithGET(html)
        #expect(rewritten.hasPrefix(expected), "\(rewritten)")
    }

    @Test(
        "text that is not a tag is copied unchanged",
        arguments: [
            "<!-- <form method=post> -->", "<script>var f = '<form method=post>';</script>",
            "<textarea name=t><form method=post></textarea>", "<title><button></title>",
            "<style>form > input { color: red }</style>", #"<div title="<form method=post>">x</div>"#,
            #"<p data-x='a > <input>'>"#, "<formula>", "<inputs>", "<buttonx>", "a < b and c<d", "</form>",
            "<!DOCTYPE html>", "<?xml version=\"1.0\"?>", "<", "<form", "<form method=\"post",
            "<SCRIPT>'<form>'</SCRIPT >",
        ])
    func untouched(html: String) {
        let rewritten = WebViewPolicy.formsSubmittingWithGET(html)
        if html == "<form" || html == "<form method=\"post" {
            // Cut off inside the tag: the attribute is still added after the name, nothing is lost.
            #expect(
                rewritten.hasPrefix(#"<form method="get" target="_self""#) && rewritten.hasSuffix(html.dropFirst(5)))
        } else {
            #expect(rewritten == html)
        }
    }

    @Test("a form after a raw-text element and a comment is still rewritten; multi-byte text survives")
    func afterRawText() {
        let html = "<script>x = '</scr' + 'ipt>'</script><!-- c --><p>Code für Zahlung ✓</p><form method=post>"
        let rewritten = WebViewPolicy.formsSubmittingWithGET(html)
        #expect(rewritten.hasSuffix(#"<p>Code für Zahlung ✓</p><form method="get" target="_self" method=post>"#))
    }

    @Test("the policy turns the GET submission of the rewritten form into challengeHTMLDataEntry")
    func reachesThePolicy() {
        // What WebKit requests for the TestLab form submitted with GET: the action with the urlencoded data as query.
        let url = URL(string: "HTTPS://EMV3DS/challenge?txid=8a1f&otp=1234&remember=yes&action=verify")
        #expect(
            WebViewPolicy.decide(url: url, method: "GET", isInitialLoad: false)
                == .submit("txid=8a1f&otp=1234&remember=yes&action=verify"))
        // The POST WebKit used to report, without a body: refused, as before (nothing to submit).
        #expect(
            WebViewPolicy.decide(url: URL(string: "https://emv3ds/challenge"), method: "POST", isInitialLoad: false)
                == .refuse)
    }
}
