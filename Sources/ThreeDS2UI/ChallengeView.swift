#if canImport(SwiftUI)
    import CoreGraphics
    import Foundation
    import ImageIO
    public import SwiftUI
    import ThreeDS2Messages
    import ThreeDS2SDK

    /// The challenge UI: the processing indicator, then each screen drawn from the form state in the EMVCo zone order,
    /// with the app's customization, Dynamic Type, VoiceOver labels from the form state and right-to-left layout.
    /// Views only read the model and send it actions.
    public struct ChallengeView: View {
        @ObservedObject var model: ChallengeViewModel
        @Environment(\.scenePhase) private var scenePhase
        @Environment(\.colorScheme) private var colorScheme

        /// Creates the view.
        ///
        /// - Parameter model: The presenter's model (``SwiftUIChallengePresenter/model``), observed, not owned.
        public init(model: ChallengeViewModel) {
            _model = ObservedObject(wrappedValue: model)
        }

        /// The view.
        public var body: some View {
            Group {
                switch model.phase {
                case .screen:
                    if let form = model.form { ScreenView(model: model, form: form) }
                case .processing(let scheme):
                    let progress = model.style.progress
                    VStack(spacing: 12) {
                        ProgressView().tint(progress.indicatorColor.map(Color.init(hex:)))
                        Text(model.strings[.processing]).styled(progress.text)
                        if let logo = scheme?.logo {
                            Image(logo.imageName).resizable().scaledToFit().frame(maxHeight: 32)
                                .accessibilityLabel(scheme?.logoAccessibilityLabel ?? "")
                                .accessibilityHidden(scheme?.logoAccessibilityLabel == nil)
                        }
                        if let scheme { Text(scheme.name).font(.footnote).styled(progress.text) }
                    }
                    .padding()
                    .background(progress.backgroundColor.map(Color.init(hex:)) ?? Color.clear)
                    .accessibilityElement(children: .combine)
                case .idle, .finished:
                    EmptyView()
                }
            }
            // The SDK's texts are in the language of the locale the app gave `initialize`, not necessarily the
            // device's: Arabic and Hebrew lay the screen out right to left whatever the app's own direction.
            .environment(\.layoutDirection, model.strings.isRightToLeft ? .rightToLeft : .leftToRight)
            // Back from the background only: a system sheet (Control Center, Face ID) makes the app inactive, not
            // backgrounded, and is not a return from the bank's app.
            .onNewValue(of: scenePhase) { phase in
                if let phase = ChallengeScreenModel.AppPhase(phase) { model.appPhaseChanged(phase) }
            }
            // The system's dark mode picks the DARK customization and dark images unless the app pinned one.
            .onAppear { model.systemColorSchemeChanged(dark: colorScheme == .dark) }
            .onNewValue(of: colorScheme) { scheme in model.systemColorSchemeChanged(dark: scheme == .dark) }
        }
    }

    /// One screen.
    struct ScreenView: View {
        let model: ChallengeViewModel
        let form: ChallengeFormState

        var body: some View {
            ScrollView {
                VStack(alignment: .leading, spacing: 12) {
                    ForEach(Array(form.layout.elements.enumerated()), id: \.offset) { index, element in
                        ElementView(model: model, form: form, index: index, element: element)
                            .accessibilityLabel(form.accessibilityLabel(of: index))
                    }
                    if form.screen.uiType == .html || form.screen.uiType == .htmlOutOfBand, let html = form.screen.html
                    {
                        #if canImport(WebKit)
                            ChallengeWebView(html: html) { decision in
                                switch decision {
                                case .submit(let data): model.perform(.submitWebForm(data))
                                case .openApp: model.perform(.openApp)
                                case .allow, .refuse: break
                                }
                            }
                            .frame(minHeight: 360)
                        #endif
                    }
                    if let note = form.note {
                        Text(note).foregroundStyle(.red).accessibilityAddTraits(.updatesFrequently)
                    }
                }
                .padding()
            }
            .background(form.style.screenBackground.map(Color.init(hex:)) ?? Color.clear)
        }
    }

    /// One layout element.
    struct ElementView: View {
        let model: ChallengeViewModel
        let form: ChallengeFormState
        let index: Int
        let element: LayoutElement

        var body: some View {
            // The look resolved in the core for the appearance in use: one style per element.
            let style = form.style
            switch element {
            case .toolbar(let title, let cancelLabel):
                HStack {
                    Text(title).font(.headline).styled(style.toolbar.text)
                    Spacer()
                    Button(cancelLabel) { model.perform(.cancel) }.styled(style.toolbar.text)
                }
                .padding(8)
                .background(style.toolbar.backgroundColor.map(Color.init(hex:)) ?? Color.clear)
            case .images(let issuer, let paymentSystem):
                HStack {
                    if let issuer { BoundedImage(reference: issuer, loader: model.settings.imageLoader) }
                    Spacer()
                    if let paymentSystem { BoundedImage(reference: paymentSystem, loader: model.settings.imageLoader) }
                }
            case .heading(let text):
                Text(text).font(.title2.bold()).styled(style.label(.infoHeader))
                    .accessibilityAddTraits(.isHeader)
            case .text(let text, let warning):
                // challengeAddInfo replaces the text once the cardholder is back from the bank's app (the core decides).
                let shown = form.shownText(text, warning: warning)
                HStack(alignment: .top) {
                    if shown.warning { Image(systemName: "exclamationmark.triangle.fill").foregroundStyle(.orange) }
                    styledText(shown.text).styled(style.label(.infoText))
                }
            case .textField(let box, let settings):
                EntryBoxView(model: model, form: form, index: index, box: box, settings: settings)
            case .option(let key, let label, let multiple):
                let chosen = form.chosen.contains(key)
                Button {
                    model.perform(.focus(index))
                    model.perform(.toggle)
                } label: {
                    Label(
                        label,
                        systemImage: multiple
                            ? (chosen ? "checkmark.square.fill" : "square")
                            : (chosen ? "largecircle.fill.circle" : "circle")
                    )
                    .styled(style.label(.selectionList))
                }
                .accessibilityAddTraits(chosen ? .isSelected : [])
            case .button(let type, let label):
                let look = style.button(type)
                let shape = RoundedRectangle(cornerRadius: CGFloat(look.cornerRadius ?? 8))
                Button {
                    model.perform(.focus(index))
                    model.perform(.activate)
                } label: {
                    Text(label).styled(look.text)
                        .frame(maxWidth: .infinity, minHeight: look.height.map { CGFloat($0) })
                        .padding(
                            look.padding.map {
                                SwiftUI.EdgeInsets(
                                    top: CGFloat($0.top), leading: CGFloat($0.start), bottom: CGFloat($0.bottom),
                                    trailing: CGFloat($0.end))
                            } ?? SwiftUI.EdgeInsets(top: 10, leading: 10, bottom: 10, trailing: 10))
                }
                .background(look.backgroundColor.map(Color.init(hex:)) ?? Color.accentColor.opacity(0.15))
                .clipShape(shape)
                .overlay {
                    if let border = look.borderColor {
                        shape.stroke(Color(hex: border), lineWidth: CGFloat(look.borderWidth ?? 1))
                    }
                }
            case .consent(let kind, let question):
                Toggle(
                    // Binding's closures are `@isolated(any) @Sendable` in Apple's SDK: the setter says it runs on the
                    // main actor, so it compiles whether or not SwiftUI makes it inherit the view's isolation.
                    isOn: Binding(
                        get: { form.consent(kind) ?? false },
                        set: { @MainActor value in
                            model.perform(kind == .trust ? .setTrust(value) : .setDeviceBinding(value))
                        })
                ) {
                    Text(question).styled(style.label(.whitelist))
                }
            case .section(let label, let text):
                let why = form.screen.whyInfo.map { ($0.label ?? form.layout.strings[.showMore]) == label } ?? false
                DisclosureGroup {
                    styledText(text).styled(style.label(why ? .whyInfoText : .expandableInfoText))
                } label: {
                    Text(label).styled(style.label(why ? .whyInfo : .expandableInfo))
                }
            case .htmlText, .htmlControl, .htmlLink:
                // A web view shows the page itself; these elements exist only with a native form reader.
                EmptyView()
            }
        }

        /// `**bold**` runs as bold text, joined by interpolating each run's `Text` (`Text +` is deprecated from iOS 26
        /// and macOS 26; interpolating a `Text` is iOS 14 and macOS 11).
        private func styledText(_ text: StyledText) -> Text {
            text.runs.reduce(Text(verbatim: "")) { result, run in
                let piece = run.isBold ? Text(run.text).bold() : Text(run.text)
                return Text("\(result)\(piece)")
            }
        }
    }

    /// An entry box: secure entry when the ACS masks (no screenshots of the code), a reveal toggle where offered, the
    /// keyboard and autofill the ACS asked for.
    struct EntryBoxView: View {
        let model: ChallengeViewModel
        let form: ChallengeFormState
        let index: Int
        let box: Int
        let settings: EntryBox

        var body: some View {
            let text = Binding(
                get: { form.entries.indices.contains(box) ? form.entries[box] : "" },
                set: { @MainActor value in model.perform(.setEntry(value, box: box)) })
            let style = form.style.label(box == 0 ? .dataEntryLabel : .dataEntryLabel2)
            let textBox = form.style.textBox(box)
            VStack(alignment: .leading) {
                Text(settings.label).styled(style)
                HStack {
                    Group {
                        if form.isMasked(box: box) {
                            SecureField(settings.label, text: text)
                        } else {
                            TextField(settings.label, text: text)
                        }
                    }
                    .textFieldStyle(.roundedBorder)
                    .styled(textBox.text)
                    .overlay {
                        if let border = textBox.borderColor {
                            RoundedRectangle(cornerRadius: CGFloat(textBox.cornerRadius ?? 6))
                                .stroke(Color(hex: border), lineWidth: CGFloat(textBox.borderWidth ?? 1))
                        }
                    }
                    // Challenge data is never learnt by the keyboard (autocorrect keeps what it sees), masked or not.
                    .autocorrectionDisabled(true)
                    #if os(iOS)
                        // Only what the ACS enabled (2.3.1), a one-time code before (the form state decides).
                        .textContentType(form.autofill(box: box).map { $0 == .password ? .password : .oneTimeCode })
                        .keyboardType(settings.keyboard == .numeric ? .numberPad : .default)
                        .textInputAutocapitalization(.never)
                    #endif
                    if settings.offersRevealToggle {
                        Button {
                            model.perform(.focus(index))
                            model.perform(.toggleReveal)
                        } label: {
                            Image(systemName: form.isMasked(box: box) ? "eye" : "eye.slash")
                        }
                        .accessibilityLabel(form.layout.strings[.codeField])
                    }
                }
            }
        }
    }

    /// An issuer or payment-system image: https only, bounded in size and time (the core's image loader), its
    /// alternative text for VoiceOver and while it loads.
    struct BoundedImage: View {
        let reference: ImageReference
        /// The transaction's loader (its transport, its once-per-transaction cache); alternative text without one.
        let loader: ChallengeImageLoader?
        @State private var image: CGImage?

        var body: some View {
            Group {
                if let image {
                    Image(decorative: image, scale: 2).resizable().scaledToFit().frame(maxHeight: 40)
                } else {
                    Text(reference.alternativeText).font(.caption).foregroundStyle(.secondary)
                }
            }
            .accessibilityLabel(reference.alternativeText)
            // On the main actor said explicitly: `task`'s action is `@isolated(any)` in Apple's SDK, and whether it
            // inherits the view's isolation rests on an underscored attribute its documentation does not show.
            .task(id: reference.url) { @MainActor in
                guard let loader, let bytes = await loader.image(for: reference),
                    let source = CGImageSourceCreateWithData(Data(bytes) as CFData, nil)
                else { return }
                image = CGImageSourceCreateImageAtIndex(source, 0, nil)
            }
        }
    }

    extension Color {
        /// A colour of the UI customization.
        init(hex: HexColor) {
            self.init(
                .sRGB, red: Double(hex.red) / 255, green: Double(hex.green) / 255, blue: Double(hex.blue) / 255,
                opacity: Double(hex.alpha) / 255)
        }
    }

    extension ChallengeScreenModel.AppPhase {
        /// The core's phase of SwiftUI's scene phase (`nil` for a phase a later system adds).
        init?(_ phase: ScenePhase) {
            switch phase {
            case .active: self = .active
            case .background: self = .background
            case .inactive: self = .inactive
            @unknown default: return nil
            }
        }
    }

    extension View {
        /// Runs `action` with the new value each time `value` changes: through the two-value `onChange` where the
        /// system has it (iOS 17, macOS 14), before that through the one-value `onChange(of:perform:)` (iOS 14,
        /// macOS 11, deprecated from iOS 17 and macOS 14, where this branch never runs).
        @ViewBuilder
        func onNewValue<Value: Equatable>(of value: Value, perform action: @escaping (Value) -> Void) -> some View {
            if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) {
                onChange(of: value) { _, newValue in action(newValue) }
            } else {
                onChange(of: value, perform: action)
            }
        }

        /// Applies a resolved text style: font by name and size (scaled with Dynamic Type), colour, weight and
        /// alignment.
        func styled(_ style: ResolvedStyle.Text) -> some View {
            let alignment: (SwiftUI.TextAlignment, Alignment) =
                switch style.alignment {
                case .left: (.leading, .leading)
                case .center: (.center, .center)
                case .right: (.trailing, .trailing)
                }
            return
                self
                .font(style.fontName.map { Font.custom($0, size: CGFloat(style.fontSize ?? 17), relativeTo: .body) })
                .fontWeight(style.isBold ? .bold : nil)
                .foregroundStyle(style.color.map(Color.init(hex:)) ?? Color.primary)
                .multilineTextAlignment(alignment.0)
                .frame(maxWidth: style.alignment == .left ? nil : .infinity, alignment: alignment.1)
        }
    }
#endif
