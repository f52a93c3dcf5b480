// The TestLab's PKI is built from the testing library's certificate authority, and the scripted presenter it plays
// answer files with is the library's; the TestLab re-exports the library so code that imports only the TestLab keeps
// naming those types. It re-exports the libxml2 form reader too: scripted HTML answers fill the page's form only when
// the presenter is given it (`ScriptedPresenter(answers:opensApps:htmlReader:)`).
@_exported public import ThreeDS2HTML
@_exported public import ThreeDS2SDKTesting
