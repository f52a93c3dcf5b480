/// libFuzzer's driver, called from each target's entry point. SwiftPM links an executable's `main` to
/// `<target>_main`, so each target defines that symbol and hands over to libFuzzer from there (libFuzzer's own `main`
/// is then never pulled from its archive).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer over `body`.
///
/// - Parameters:
///   - argc: The process's argument count.
///   - argv: The process's arguments (libFuzzer options, corpus directories).
///   - body: The target: it must not crash, leak or hang on any input.
/// - Returns: libFuzzer's exit status.
public func runFuzzer(
    argc: CInt, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    _ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments, body)
}

/// The input as bytes.
///
/// - Parameters:
///   - data: libFuzzer's buffer.
///   - size: Its length.
/// - Returns: A copy of the bytes.
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}
