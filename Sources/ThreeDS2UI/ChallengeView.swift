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
                case .processing(let name):
                    VStack(spacing: 12) {
                        ProgressView()
                        Text(model.strings[.processing])
                        if let name { Text(name).font(.footnote).foregroundStyle(.secondary) }
                    }
                    .accessibilityElement(children: .combine)
                case .idle, .finished:
                    EmptyView()
                }
            }
            .onNewValue(of: scenePhase) { phase in
                if phase == .active { model.returnedToForeground() }
            }
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
        }
    }

    /// One layout element.
    struct ElementView: View {
        let model: ChallengeViewModel
        let form: ChallengeFormState
        let index: Int
        let element: LayoutElement

        var body: some View {
            let ui = form.layout.customization
            switch element {
            case .toolbar(let title, let cancelLabel):
                HStack {
                    Text(title).font(.headline).styled(ui.toolbar.text)
                    Spacer()
                    Button(cancelLabel) { model.perform(.cancel) }.styled(ui.toolbar.text)
                }
                .padding(8)
                .background(ui.toolbar.backgroundColor.map(Color.init(hex:)) ?? Color.clear)
            case .images(let issuer, let paymentSystem):
                HStack {
                    if let issuer { BoundedImage(reference: issuer) }
                    Spacer()
                    if let paymentSystem { BoundedImage(reference: paymentSystem) }
                }
            case .heading(let text):
                Text(text).font(.title2.bold()).styled(ui.label.textStyle(for: .infoHeader))
                    .accessibilityAddTraits(.isHeader)
            case .text(let text, let warning):
                HStack(alignment: .top) {
                    if warning { Image(systemName: "exclamationmark.triangle.fill").foregroundStyle(.orange) }
                    styledText(text).styled(ui.label.textStyle(for: .infoText))
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
                            : (chosen ? "largecircle.fill.circle" : "circle"))
                }
                .accessibilityAddTraits(chosen ? .isSelected : [])
            case .button(let type, let label):
                let look = ui.buttonCustomization(for: type)
                Button {
                    model.perform(.focus(index))
                    model.perform(.activate)
                } label: {
                    Text(label).styled(look.text).frame(maxWidth: .infinity).padding(10)
                }
                .background(look.backgroundColor.map(Color.init(hex:)) ?? Color.accentColor.opacity(0.15))
                .clipShape(RoundedRectangle(cornerRadius: CGFloat(look.cornerRadius ?? 8)))
            case .consent(let kind, let question):
                Toggle(
                    question,
                    isOn: Binding(
                        get: { form.consent(kind) ?? false },
                        set: { model.perform(kind == .trust ? .setTrust($0) : .setDeviceBinding($0)) }))
            case .section(let label, let text):
                DisclosureGroup(label) { styledText(text) }
            case .htmlText, .htmlControl, .htmlLink:
                // A web view shows the page itself; these elements exist only with a native form reader.
                EmptyView()
            }
        }

        /// `**bold**` runs as bold text.
        private func styledText(_ text: StyledText) -> Text {
            text.runs.reduce(Text("")) { result, run in
                result + (run.isBold ? Text(run.text).bold() : Text(run.text))
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
                set: { model.perform(.setEntry($0, box: box)) })
            let style = form.layout.customization.label.textStyle(for: box == 0 ? .dataEntryLabel : .dataEntryLabel2)
            let customization = form.layout.customization
            let textBox = box == 0 ? customization.textBox : (customization.textBoxTwo ?? customization.textBox)
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
                        .textContentType(settings.autofill == .password ? .password : .oneTimeCode)
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
            .task(id: reference.url) {
                let loader = ChallengeImageLoader(transport: URLSessionTransport())
                guard let bytes = await loader.image(for: reference),
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

        /// Applies a customization text style: font by name and size (scaled with Dynamic Type), colour.
        func styled(_ style: TextStyle) -> some View {
            self
                .font(style.fontName.map { Font.custom($0, size: CGFloat(style.fontSize ?? 17), relativeTo: .body) })
                .foregroundStyle(style.color.map(Color.init(hex:)) ?? Color.primary)
        }
    }
#endif
