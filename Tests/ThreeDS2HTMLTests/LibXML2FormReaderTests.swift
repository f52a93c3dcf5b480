import Foundation
import Testing
import ThreeDS2HTML
import ThreeDS2SDK

@Suite("HTML forms")
struct HTMLFormTests {
    let page = """
        <html><head><script>alert(1)</script></head><body><p>Hello <b>there</b></p>
        <form method="POST" action="https://emv3ds/challenge">
        <input type="hidden" name="h" value="a b&c">
        <input name="otp" value="">
        <input type="checkbox" name="c" value="on1" checked>
        <input type="radio" name="r" value="1"><input type="radio" name="r" value="2" checked>
        <select name="s"><option value="x">X</option><option value="y" selected>Y</option></select>
        <textarea name="t">line1
        line2</textarea>
        <input type="text" name="d" value="disabled" disabled>
        <input type="submit" name="go" value="Go"><button name="act" value="no">Stop</button><input type="button" name="b" value="B">
        </form><a href="https://emv3ds/challenge?x=1&y=%20">Help</a><a href="https://example.com/">Elsewhere</a></body></html>
        """

    @Test("controls in document order; successful ones only; only the pressed button")
    func submission() throws {
        let form = LibXML2FormReader().form(fromHTML: page)
        #expect(form.method == "post")
        #expect(form.text.contains("Hello") && !form.text.contains("alert"))
        #expect(
            try form.submission(fields: ["otp": "12 34"], button: "Go")
                == "h=a+b%26c&otp=12+34&c=on1&r=2&s=y&t=line1%0D%0Aline2&go=Go")
        #expect(try form.submission(button: "Stop") == "h=a+b%26c&otp=&c=on1&r=2&s=y&t=line1%0D%0Aline2&act=no")
        #expect(
            try form.submission(fields: ["r": "1", "c": "", "s": "x"])
                == "h=a+b%26c&otp=&r=1&s=x&t=line1%0D%0Aline2&go=Go")
    }

    @Test("each control's kind is a type: element and type, an unknown input type kept and taking text")
    func kinds() {
        let form = LibXML2FormReader().form(fromHTML: page)
        #expect(
            form.controls.map(\.kind) == [
                .hidden, .text, .checkbox, .radio, .radio, .select, .textarea, .text, .submitInput, .submitButton,
                .buttonInput,
            ])
        #expect(form.controls.filter(\.isSubmitButton).map(\.kind) == [.submitInput, .submitButton])
        let odd = LibXML2FormReader().form(
            fromHTML: #"<form><input type="Week" name="w"><select name="m" multiple></select></form>"#)
        #expect(odd.controls.map(\.kind) == [.input("week"), .multipleSelect])
        #expect(odd.controls[0].kind.rawValue == "input/week" && odd.controls[0].isTextLike)
    }

    @Test("a link to https://emv3ds/challenge submits its query; other links are ignored")
    func links() throws {
        let form = LibXML2FormReader().form(fromHTML: page)
        #expect(form.links == [HTMLForm.SubmissionLink(label: "Help", query: "x=1&y=%20")])
        #expect(try form.submission(button: "Help") == "x=1&y=%20")
    }

    @Test("unknown fields and buttons are errors")
    func errors() {
        let form = LibXML2FormReader().form(fromHTML: page)
        #expect(throws: HTMLForm.SubmissionError(.unknownField, "")) { try form.submission(fields: ["nope": "1"]) }
        #expect(throws: HTMLForm.SubmissionError(.unknownButton, "")) { try form.submission(button: "Elsewhere") }
        #expect(throws: HTMLForm.SubmissionError(.unknownField, "")) { try form.submission(fields: ["r": "9"]) }
    }

    @Test("broken HTML parses without crashing")
    func broken() throws {
        let form = LibXML2FormReader().form(fromHTML: "<form><input name=a value=1><p><<<>>&&&")
        #expect(try form.submission() == "a=1")
        #expect(LibXML2FormReader().form(fromHTML: "").controls.isEmpty)
    }
}

@Suite("HTML pages with several forms")
struct SeveralFormsTests {
    let page = """
        <p>Choose</p>
        <form action="https://emv3ds/challenge" method="post"><input name="otp" value="1"><input type=submit name=a value=Verify></form>
        <form action="https://emv3ds/challenge"><input type=hidden name=action value=resend><button>Send a new code</button></form>
        <form action="https://emv3ds/challenge"><button name="cancel" value="1">Cancel</button></form>
        <form action="https://emv3ds/challenge"><button>Continue</button></form>
        """

    @Test("every form is read, in document order, each control knowing its form")
    func read() {
        let form = LibXML2FormReader().form(fromHTML: page)
        #expect(form.formCount == 4 && form.method == "post")
        #expect(form.controls.map(\.form) == [0, 0, 1, 1, 2, 3])
    }

    @Test("a button submits its own form's fields only; a form with no fields still submits")
    func submitsItsForm() throws {
        let form = LibXML2FormReader().form(fromHTML: page)
        #expect(try form.submission(button: "Verify") == "otp=1&a=Verify")
        #expect(try form.submission(button: "Send a new code") == "action=resend")
        #expect(try form.submission(button: "Cancel") == "cancel=1")
        #expect(try form.submission(button: "Continue") == "")
        #expect(try form.submission() == "otp=1&a=Verify", "nothing pressed: the first form's first button")
    }
}

@Suite("HTML page text")
struct HTMLPageTextTests {
    @Test("the page's text keeps its paragraphs and leaves out what the controls show: labels, buttons, options, links")
    func paragraphs() {
        let page = """
            <html><head><title>Verify</title><style>p{}</style></head><body>
            <h1>Confirm   your
            payment</h1><p class="error">The code was not correct.</p>
            <p>Enter the <b>one-time</b> code<br>we sent to your phone.</p>
            <form method="post" action="HTTPS://EMV3DS/challenge">
            <input type="hidden" name="txid" value="1">
            <label for="otp">Code</label> <input type="text" id="otp" name="otp">
            <label><input type="checkbox" name="remember" value="yes"> Remember this device</label>
            <select name="s"><option value="1">First</option></select><textarea name="t">typed</textarea>
            <button type="submit" name="action" value="verify">Verify</button>
            </form>
            <ul><li>One</li><li>Two</li></ul>
            <p><a href="https://emv3ds/challenge?action=resend">Send a new code</a></p>
            <p>Help: <a href="https://bank.example/help">call us</a></p>
            <label>Outside any form</label>
            </body></html>
            """
        let form = LibXML2FormReader().form(fromHTML: page)
        #expect(
            form.text.split(separator: "\n") == [
                "Confirm your payment", "The code was not correct.", "Enter the one-time code",
                "we sent to your phone.", "One", "Two", "Help: call us", "Outside any form",
            ], "\(form.text)")
        // The controls still carry what was left out of the text.
        #expect(form.controls.map(\.label).contains("Code"))
        #expect(form.controls.map(\.label).contains("Remember this device"))
        #expect(form.controls.map(\.label).contains("Verify"))
        #expect(form.links.map(\.label) == ["Send a new code"])
    }

    @Test("line breaks between paragraphs stay; control and bidirectional characters inside one become spaces")
    func neutralisedPerParagraph() {
        let form = LibXML2FormReader().form(fromHTML: "<p>a\u{202E}b</p><div>next</div>")
        #expect(form.text == "a b\nnext")
        // libxml2 drops C0 controls itself; a reader that does not still has them neutralised, line by line.
        #expect(HTMLForm(controls: [], text: "x\u{7}y\u{1B}[2J\nz").text == "x y [2J\nz")
    }
}

/// Issue 33: the page a web view loads submits every form with GET; an HTML parser (libxml2's, like WebKit's, keeps
/// the first of two attributes with the same name) reads the rewritten form as GET, and its data, sent as the query
/// of the reserved URL, is what the policy submits.
@Suite("HTML forms rewritten for the web view")
struct RewrittenFormTests {
    @Test("a POST page parses as GET after the rewrite, and its submission reaches the policy with its data")
    func postBecomesGet() throws {
        let page = """
            <html><body><form method="post" action="HTTPS://EMV3DS/challenge">
            <input type="hidden" name="txid" value="8a1f"><input name="otp" value="">
            <button type="submit" name="action" value="verify">Verify</button>
            <button type="submit" name="action" value="cancel">Cancel</button></form></body></html>
            """
        #expect(LibXML2FormReader().form(fromHTML: page).method == "post")
        let form = LibXML2FormReader().form(fromHTML: WebViewPolicy.formsSubmittingWithGET(page))
        #expect(form.method == "get")
        #expect(form.action == "HTTPS://EMV3DS/challenge")
        for (button, data) in [
            ("Verify", "txid=8a1f&otp=1234&action=verify"), ("Cancel", "txid=8a1f&otp=1234&action=cancel"),
        ] {
            let query = try form.submission(fields: ["otp": "1234"], button: button)
            #expect(query == data)
            let url = URL(string: (form.action ?? "") + "?" + query)
            #expect(WebViewPolicy.decide(url: url, method: form.method, isInitialLoad: false) == .submit(data))
        }
    }

    @Test("GET, no method and upper-case POST forms all parse as GET after the rewrite")
    func shapes() {
        for html in [
            #"<form method="get" action="https://emv3ds/challenge"><input name=a></form>"#,
            #"<form action="https://emv3ds/challenge"><input name=a></form>"#,
            #"<FORM METHOD=POST ACTION=https://emv3ds/challenge><INPUT NAME=a></FORM>"#,
        ] {
            let form = LibXML2FormReader().form(fromHTML: WebViewPolicy.formsSubmittingWithGET(html))
            #expect(form.method == "get", "\(html)")
            #expect(form.controls.map(\.name) == ["a"], "\(html)")
        }
    }
}
