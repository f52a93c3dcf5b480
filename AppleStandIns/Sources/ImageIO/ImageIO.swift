// Stand-in: the ImageIO calls the challenge view decodes images with. Not Apple's code.
public import CoreGraphics

/// An image source. Read: developer.apple.com/documentation/imageio/cgimagesource (iOS 4).
public final class CGImageSource {}

/// Linux has no toll-free bridged CFData: a `Data` stands in, so `data as CFData` type-checks as on Apple platforms.
public typealias CFData = Data
/// Options are always `nil` in the SDK.
public typealias CFDictionary = [String: Any]

/// Read: developer.apple.com/documentation/imageio/cgimagesourcecreatewithdata(_:_:) (iOS 4).
public func CGImageSourceCreateWithData(_ data: CFData, _ options: CFDictionary?) -> CGImageSource? { nil }

/// Read: developer.apple.com/documentation/imageio/cgimagesourcecreateimageatindex(_:_:_:) (iOS 4).
public func CGImageSourceCreateImageAtIndex(_ source: CGImageSource, _ index: Int, _ options: CFDictionary?)
    -> CGImage?
{ nil }
