// The TestLab's PKI is built from the testing library's certificate authority, and its scripted presenter opens apps
// with the library's fixed opener; the TestLab re-exports the library so code that imports only the TestLab keeps
// naming those types.
@_exported public import ThreeDS2SDKTesting
