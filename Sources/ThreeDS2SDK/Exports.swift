// `import ThreeDS2SDK` is all an app writes: the SDK's public API hands out types of two lower modules (the screens,
// answers, Erro messages, versions and UI types of ThreeDS2Messages; the content encryptions and JOSE errors of
// ThreeDS2JOSE), so the SDK re-exports both. The modules stay separate products for tools that need only them.
@_exported public import ThreeDS2JOSE
@_exported public import ThreeDS2Messages
