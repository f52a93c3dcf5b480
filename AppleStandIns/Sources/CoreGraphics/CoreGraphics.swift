// Stand-in: the CoreGraphics type the challenge view draws. Not Apple's code.
@_exported public import Foundation

/// Read: developer.apple.com/documentation/coregraphics/cgimage (iOS 2).
public final class CGImage {}
