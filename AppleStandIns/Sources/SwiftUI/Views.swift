// Stand-in: the SwiftUI views, modifiers and property wrappers ChallengeView uses. Not Apple's code. Read:
// developer.apple.com/documentation/swiftui (iOS 13 unless marked) and the iOS 18.0 SDK's SwiftUI and SwiftUICore
// `.swiftinterface` files: `View` is `@MainActor @preconcurrency`; its modifiers (the `View` extensions) are
// `nonisolated`, as are the initializers of the leaf views that take an action (`Button`'s are `@preconcurrency
// nonisolated`, the action `@MainActor`).
public import Combine
public import CoreGraphics

/// Read: …/swiftui/viewbuilder (iOS 13); `@MainActor` here (unverified).
@MainActor @resultBuilder
public enum ViewBuilder {
    /// No view.
    public static func buildBlock() -> EmptyView { EmptyView() }
    /// Several views.
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<
        (repeat each Content)
    > { TupleView() }
    /// An `if` without `else`.
    public static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }
    /// An `if`/`switch` branch.
    public static func buildEither<First: View, Second: View>(first: First) -> ConditionalView<First, Second> {
        ConditionalView()
    }
    /// An `else`/`switch` branch.
    public static func buildEither<First: View, Second: View>(second: Second) -> ConditionalView<First, Second> {
        ConditionalView()
    }
    /// An `if #available` branch.
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView() }
}

/// What the builder makes of several views.
public struct TupleView<T>: View {
    /// The content.
    public var body: Never { return fatalError() }
}

/// What the builder makes of branches.
public struct ConditionalView<First: View, Second: View>: View {
    /// The content.
    public var body: Never { return fatalError() }
}

/// Read: …/swiftui/anyview.
public struct AnyView: View {
    /// The content.
    public var body: Never { return fatalError() }
}

extension Optional: View where Wrapped: View {
    /// The content.
    public var body: Never { return fatalError() }
}

/// A view with a modifier applied: every modifier below returns one.
public struct ModifiedView<Content: View>: View {
    /// Made by the (nonisolated) modifiers.
    nonisolated public init() {}
    /// The content.
    public var body: Never { return fatalError() }
}

/// A view that draws nothing of itself (the stand-ins of the leaf views).
public protocol LeafView: View where Body == Never {}

extension LeafView {
    /// Never called.
    public var body: Never { return fatalError() }
}

/// Read: …/swiftui/emptyview.
public struct EmptyView: LeafView {
    /// Creates it.
    public init() {}
}

/// Read: …/swiftui/spacer.
public struct Spacer: LeafView {
    /// Creates it.
    public init() {}
}

/// Read: …/swiftui/group.
public struct Group<Content: View>: LeafView {
    /// Groups the content.
    public init(@ViewBuilder content: () -> Content) {}
}

/// Read: …/swiftui/vstack.
public struct VStack<Content: View>: LeafView {
    /// Stacks the content.
    public init(
        alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content
    ) {}
}

/// Read: …/swiftui/hstack.
public struct HStack<Content: View>: LeafView {
    /// Stacks the content.
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
}

/// Read: …/swiftui/scrollview.
public struct ScrollView<Content: View>: LeafView {
    /// Scrolls the content.
    public init(@ViewBuilder content: () -> Content) {}
}

/// Read: …/swiftui/foreach.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: LeafView {
    /// One view per element.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)
    {}
}

/// Read: …/swiftui/text.
public struct Text: LeafView, Equatable {
    /// Read: …/text/init(_:) with a `StringProtocol` value (not localized); `@_disfavoredOverload` in the SDK, so a
    /// literal picks the `LocalizedStringKey` initializer.
    @_disfavoredOverload
    nonisolated public init(_ content: some StringProtocol) {}
    /// Read: …/text/init(_:tablename:bundle:comment:) (a localized key, string interpolation included).
    nonisolated public init(
        _ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil
    ) {}
    /// Read: …/text/init(verbatim:).
    nonisolated public init(verbatim content: String) {}
    /// Read: …/text/bold().
    nonisolated public func bold() -> Text { self }
    /// Read: …/text/+(_:_:) — deprecated in iOS 26 and macOS 26 (use string interpolation: `Text("\(a)\(b)")`).
    /// Unconditionally deprecated here, so a use fails the type-check whatever the deployment target.
    @available(*, deprecated, message: "deprecated in iOS 26 / macOS 26: interpolate Text in Text instead")
    nonisolated public static func + (lhs: Text, rhs: Text) -> Text { lhs }
}

/// Read: …/swiftui/localizedstringkey (iOS 13): a literal or an interpolation, `Text` values included (iOS 14).
public struct LocalizedStringKey: Equatable, Sendable, ExpressibleByStringInterpolation {
    /// A key from a literal.
    public init(stringLiteral value: String) {}
    /// A key from an interpolation.
    public init(stringInterpolation: StringInterpolation) {}

    /// Read: …/localizedstringkey/stringinterpolation.
    public struct StringInterpolation: StringInterpolationProtocol {
        /// Starts an interpolation.
        public init(literalCapacity: Int, interpolationCount: Int) {}
        /// A literal part.
        public mutating func appendLiteral(_ literal: String) {}
        /// Read: …/stringinterpolation/appendinterpolation(_:)-(Text) (iOS 14).
        public mutating func appendInterpolation(_ text: Text) {}
        /// Read: …/stringinterpolation/appendinterpolation(_:)-(String).
        public mutating func appendInterpolation(_ string: String) {}
    }
}

/// Read: …/swiftui/image.
public struct Image: LeafView {
    /// An SF Symbol.
    public init(systemName: String) {}
    /// Read: …/swiftui/image/init(_:bundle:): an image of the app's asset catalogue.
    public init(_ name: String, bundle: Bundle? = nil) {}
    /// A decorative bitmap.
    public init(decorative image: CGImage, scale: CGFloat) {}
    /// Resizable.
    public func resizable() -> Image { self }
}

/// Read: …/swiftui/label.
public struct Label: LeafView {
    /// A title and a symbol.
    public init(_ title: some StringProtocol, systemImage: String) {}
}

/// Read: …/swiftui/button; the iOS 18 SDK: `@preconcurrency nonisolated` initializers, the action `@MainActor`.
public struct Button<Label: View>: LeafView {
    /// Read: …/button/init(action:label:).
    @preconcurrency nonisolated public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
}

extension Button where Label == Text {
    /// Read: …/button/init(_:action:) with a `StringProtocol` title.
    @_disfavoredOverload
    @preconcurrency nonisolated public init(_ title: some StringProtocol, action: @escaping @MainActor () -> Void) {}
    /// Read: …/button/init(_:action:) with a localized key.
    @preconcurrency nonisolated public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {}
}

/// Read: …/swiftui/toggle.
public struct Toggle<Label: View>: LeafView {
    /// A switch.
    public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) {}
}

/// Read: …/swiftui/disclosuregroup (iOS 14).
public struct DisclosureGroup<Label: View, Content: View>: LeafView {
    /// Content shown on demand.
    public init(@ViewBuilder content: @escaping () -> Content, @ViewBuilder label: () -> Label) {}
}

/// Read: …/swiftui/textfield.
public struct TextField: LeafView {
    /// A text field.
    public init(_ title: some StringProtocol, text: Binding<String>) {}
}

/// Read: …/swiftui/securefield.
public struct SecureField: LeafView {
    /// A secure field.
    public init(_ title: some StringProtocol, text: Binding<String>) {}
}

/// Read: …/swiftui/progressview (iOS 14).
public struct ProgressView: LeafView {
    /// An indeterminate indicator.
    public init() {}
}

/// Read: …/swiftui/roundedrectangle.
public struct RoundedRectangle: LeafView, Shape {
    /// A shape.
    public init(cornerRadius: CGFloat) {}
}

/// Read: …/swiftui/shape.
public protocol Shape: View {}

extension Shape {
    /// The outline.
    nonisolated public func stroke(_ content: some ShapeStyle, lineWidth: CGFloat = 1) -> ModifiedView<Self> {
        ModifiedView()
    }
}

/// Read: …/swiftui/shapestyle.
public protocol ShapeStyle {}

/// Read: …/swiftui/color.
public struct Color: LeafView, ShapeStyle, Hashable {
    /// Read: …/swiftui/color/rgbcolorspace.
    public enum RGBColorSpace: Sendable { case sRGB, sRGBLinear, displayP3 }
    /// A colour from components (nonisolated, as Apple's `Color` is usable off the main actor).
    nonisolated public init(
        _ colorSpace: RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1
    ) {}
    /// Changed opacity.
    nonisolated public func opacity(_ opacity: Double) -> Color { self }
    /// Transparent.
    nonisolated public static let clear = Color(red: 0, green: 0, blue: 0, opacity: 0)
    /// The accent colour.
    nonisolated public static let accentColor = Color(red: 0, green: 0, blue: 1)
    /// Primary text.
    nonisolated public static let primary = Color(red: 0, green: 0, blue: 0)
}

extension ShapeStyle where Self == Color {
    /// Red.
    public static var red: Color { Color(red: 1, green: 0, blue: 0) }
    /// Orange.
    public static var orange: Color { Color(red: 1, green: 0.6, blue: 0) }
    /// Secondary (a hierarchical style in SwiftUI; a colour here).
    public static var secondary: Color { Color(red: 0.5, green: 0.5, blue: 0.5) }
}

/// Read: …/swiftui/font.
public struct Font: Hashable, Sendable {
    /// Read: …/swiftui/font/textstyle.
    public enum TextStyle: Sendable { case body, headline, title2, caption, footnote }
    /// Read: …/swiftui/font/weight.
    public struct Weight: Hashable, Sendable {
        /// Bold.
        public static let bold = Weight()
    }
    /// A custom font scaled like a text style (iOS 14).
    public static func custom(_ name: String, size: CGFloat, relativeTo textStyle: TextStyle) -> Font { Font() }
    /// Bold.
    public func bold() -> Font { self }
    /// The headline style.
    public static let headline = Font()
    /// The title 2 style.
    public static let title2 = Font()
    /// The caption style.
    public static let caption = Font()
    /// The footnote style.
    public static let footnote = Font()
}

/// Read: …/swiftui/edgeinsets.
public struct EdgeInsets: Hashable, Sendable {
    /// Insets.
    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {}
}

/// Read: …/swiftui/alignment.
public struct Alignment: Hashable, Sendable {
    /// Leading.
    public static let leading = Alignment()
    /// Centre.
    public static let center = Alignment()
    /// Trailing.
    public static let trailing = Alignment()
}

/// Read: …/swiftui/horizontalalignment.
public struct HorizontalAlignment: Hashable, Sendable {
    /// Leading.
    public static let leading = HorizontalAlignment()
    /// Centre.
    public static let center = HorizontalAlignment()
}

/// Read: …/swiftui/verticalalignment.
public struct VerticalAlignment: Hashable, Sendable {
    /// Top.
    public static let top = VerticalAlignment()
    /// Centre.
    public static let center = VerticalAlignment()
}

/// Read: …/swiftui/textalignment.
public enum TextAlignment: Hashable, Sendable { case leading, center, trailing }

/// Read: …/swiftui/accessibilitytraits.
public struct AccessibilityTraits: OptionSet, Sendable {
    /// The bits.
    public let rawValue: Int
    /// Traits from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// A heading.
    public static let isHeader = AccessibilityTraits(rawValue: 1)
    /// Selected.
    public static let isSelected = AccessibilityTraits(rawValue: 2)
    /// Changes often.
    public static let updatesFrequently = AccessibilityTraits(rawValue: 4)
}

/// Read: …/swiftui/accessibilitychildbehavior.
public struct AccessibilityChildBehavior: Hashable, Sendable {
    /// The children as one element.
    public static let combine = AccessibilityChildBehavior()
}

/// Read: …/swiftui/roundedbordertextfieldstyle.
public struct RoundedBorderTextFieldStyle: Sendable {}

extension RoundedBorderTextFieldStyle {
    /// The style.
    public static var roundedBorder: RoundedBorderTextFieldStyle { RoundedBorderTextFieldStyle() }
}

/// Read: …/swiftui/scenephase (iOS 14); resilient, so `@unknown default` is needed.
public enum ScenePhase: Hashable, Sendable { case background, inactive, active }

/// Read: …/swiftui/colorscheme.
public enum ColorScheme: Hashable, Sendable { case light, dark }

/// Read: …/swiftui/layoutdirection.
public enum LayoutDirection: Hashable, Sendable { case leftToRight, rightToLeft }

/// Read: …/swiftui/environmentvalues.
public struct EnvironmentValues: Sendable {
    /// The layout direction.
    public var layoutDirection: LayoutDirection {
        get { .leftToRight }
        set {}
    }
    /// The scene's phase (iOS 14).
    public var scenePhase: ScenePhase { .active }
    /// The colour scheme.
    public var colorScheme: ColorScheme { .light }
}

/// Read: …/swiftui/environment.
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    /// A value from the environment.
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    /// The value.
    public var wrappedValue: Value { fatalError() }
}

/// Read: …/swiftui/state.
@propertyWrapper
public struct State<Value>: DynamicProperty {
    /// A state with its first value.
    public init(wrappedValue: Value) {}
    /// The value.
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set {}
    }
}

/// Read: …/swiftui/observedobject.
@propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty {
    /// Observes the object.
    public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }
    /// The object.
    public var wrappedValue: ObjectType
}

/// Read: …/swiftui/binding.
@propertyWrapper
public struct Binding<Value> {
    /// Read: …/binding/init(get:set:) as documented for the iOS 18 SDK: `@preconcurrency`, both closures
    /// `@isolated(any) @Sendable`. Not modelled: `@_inheritActorContext` (unconfirmed), which would make closures
    /// written in a view's body main-actor isolated; without it they are nonisolated unless marked, so the SDK's
    /// setters say `@MainActor in` and compile either way.
    @preconcurrency
    public init(
        get: @escaping @isolated(any) @Sendable () -> Value, set: @escaping @isolated(any) @Sendable (Value) -> Void
    ) {}
    /// The value.
    public var wrappedValue: Value { fatalError() }
}

/// Read: …/swiftui/dynamicproperty.
public protocol DynamicProperty {}

extension View {
    /// Read: …/view/environment(_:_:).
    nonisolated public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V)
        -> ModifiedView<Self>
    {
        ModifiedView()
    }
    /// Read: …/view/padding(_:_:).
    nonisolated public func padding(_ length: CGFloat? = nil) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/padding(_:) with insets.
    nonisolated public func padding(_ insets: EdgeInsets) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/font(_:).
    nonisolated public func font(_ font: Font?) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/fontweight(_:) (iOS 16).
    @available(iOS 16.0, macOS 13.0, *)
    nonisolated public func fontWeight(_ weight: Font.Weight?) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/foregroundstyle(_:) (iOS 15).
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func foregroundStyle(_ style: some ShapeStyle) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/multilinetextalignment(_:).
    nonisolated public func multilineTextAlignment(_ alignment: TextAlignment) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/frame(width:height:alignment:).
    nonisolated public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center)
        -> ModifiedView<Self>
    { ModifiedView() }
    /// Read: …/view/frame(minwidth:idealwidth:maxwidth:minheight:idealheight:maxheight:alignment:).
    nonisolated public func frame(
        minWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil, maxHeight: CGFloat? = nil,
        alignment: Alignment = .center
    ) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/background(_:alignment:).
    nonisolated public func background(_ background: some View) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/overlay(alignment:content:) (iOS 15).
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func overlay<V: View>(@ViewBuilder content: () -> V) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/clipshape(_:style:).
    nonisolated public func clipShape(_ shape: some Shape) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/tint(_:) (iOS 15).
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func tint(_ tint: Color?) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/accessibilitylabel(_:) (iOS 14).
    nonisolated public func accessibilityLabel(_ label: some StringProtocol) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/accessibilityhidden(_:) (iOS 14).
    nonisolated public func accessibilityHidden(_ hidden: Bool) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/accessibilityaddtraits(_:) (iOS 14).
    nonisolated public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> ModifiedView<Self> {
        ModifiedView()
    }
    /// Read: …/view/accessibilityelement(children:) (iOS 14).
    nonisolated public func accessibilityElement(children: AccessibilityChildBehavior) -> ModifiedView<Self> {
        ModifiedView()
    }
    /// Read: …/view/textfieldstyle(_:).
    nonisolated public func textFieldStyle(_ style: RoundedBorderTextFieldStyle) -> ModifiedView<Self> {
        ModifiedView()
    }
    /// Read: …/view/autocorrectiondisabled(_:) (iOS 16).
    @available(iOS 16.0, macOS 13.0, *)
    nonisolated public func autocorrectionDisabled(_ disable: Bool = true) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/scaledtofit().
    nonisolated public func scaledToFit() -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/onappear(perform:): a plain optional closure (not `@MainActor`, not `@Sendable`).
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/task(id:priority:_:) (iOS 15): priority `.userInitiated` by default; the action
    /// `@isolated(any)`, documented as `sending` for the iOS 18 SDK, `@Sendable` before. Modelled `@Sendable` (the
    /// stricter: what passes here passes with `sending`; Swift 6.3 on Linux also stops on `sending @isolated(any)` with
    /// a `@MainActor` closure, "pattern that the region-based isolation checker does not understand"). Not modelled:
    /// `@_inheritActorContext` (underscored, not in the documentation; unconfirmed), so an action that needs the main
    /// actor says so.
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func task<T: Equatable>(
        id value: T, priority: TaskPriority = .userInitiated,
        _ action: @escaping @isolated(any) @Sendable () async -> Void
    ) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/task(priority:_:) (iOS 15), as `task(id:priority:_:)`.
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func task(
        priority: TaskPriority = .userInitiated, _ action: @escaping @isolated(any) @Sendable () async -> Void
    ) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/sheet(ispresented:ondismiss:content:).
    nonisolated public func sheet<Content: View>(
        isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content
    ) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/interactivedismissdisabled(_:) (iOS 15).
    @available(iOS 15.0, macOS 12.0, *)
    nonisolated public func interactiveDismissDisabled(_ isDisabled: Bool = true) -> ModifiedView<Self> {
        ModifiedView()
    }
    /// Read: …/view/previewdisplayname(_:).
    nonisolated public func previewDisplayName(_ value: String?) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/onchange(of:initial:_:) (iOS 17): `initial` false by default, the action given the old and the
    /// new value.
    @available(iOS 17.0, macOS 14.0, *)
    nonisolated public func onChange<V: Equatable>(
        of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
    ) -> ModifiedView<Self> { ModifiedView() }
    /// Read: …/view/onchange(of:perform:) (iOS 14; deprecated in iOS 17).
    @available(iOS, introduced: 14.0, deprecated: 17.0)
    @available(macOS, introduced: 11.0, deprecated: 14.0)
    nonisolated public func onChange<V: Equatable>(of value: V, perform action: @escaping (V) -> Void) -> ModifiedView<
        Self
    > {
        ModifiedView()
    }
}

#if canImport(UIKit)
    /// Read: …/swiftui/textinputautocapitalization (iOS 15; unavailable on macOS).
    @available(iOS 15.0, *)
    @available(macOS, unavailable)
    public struct TextInputAutocapitalization: Sendable {
        /// Read: …/textinputautocapitalization/never.
        public static var never: TextInputAutocapitalization { TextInputAutocapitalization() }
    }

    // The entry box's iOS-only modifiers: in SwiftUI on iOS, tvOS and visionOS only, never on macOS.
    @available(macOS, unavailable)
    extension View {
        /// Read: …/view/textcontenttype(_:)-(UITextContentType?) (iOS 13): `nil` asks for no autofill.
        nonisolated public func textContentType(_ textContentType: UITextContentType?) -> ModifiedView<Self> {
            ModifiedView()
        }
        /// Read: …/view/keyboardtype(_:) (iOS 13).
        nonisolated public func keyboardType(_ type: UIKeyboardType) -> ModifiedView<Self> { ModifiedView() }
        /// Read: …/view/textinputautocapitalization(_:) (iOS 15).
        @available(iOS 15.0, *)
        nonisolated public func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?)
            -> ModifiedView<Self>
        { ModifiedView() }
    }
#endif
