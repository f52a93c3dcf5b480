public import Foundation

/// The SDK's own texts (not the ACS's, which are shown as sent), in English, German, French, Spanish, Italian,
/// Dutch, Portuguese and Japanese, chosen by the `locale` the app passed at initialize.
public struct SDKStrings: Sendable, Hashable {
    /// The language used, for example `de`.
    public let language: String
    private let table: [Key: String]

    /// The texts the SDK shows itself.
    public enum Key: String, Sendable, Hashable, CaseIterable {
        case cancel, processing, continueButton, submit, resend, secureCheckout, warning, showMore, showLess, openApp
        case trustQuestion, yes, no, selected, notSelected, chooseOption, image, codeField, timedOut, genericError,
            cancelled,
            completed
        case appOpenFailed, finishInApp
    }

    /// The English texts.
    public static let english = SDKStrings(locale: Locale(identifier: "en"))

    /// The languages with a full table.
    public static let languages = ["en", "de", "fr", "es", "it", "nl", "pt", "ja"]

    /// The texts for a locale; English when its language has no table.
    ///
    /// - Parameter locale: The locale.
    public init(locale: Locale) {
        let code = locale.language.languageCode?.identifier ?? "en"
        language = Self.tables[code] == nil ? "en" : code
        table = Self.tables[language] ?? [:]
    }

    /// The text for a key.
    public subscript(key: Key) -> String { table[key] ?? Self.tables["en"]?[key] ?? key.rawValue }

    private static let tables: [String: [Key: String]] = [
        "en": [
            .cancel: "Cancel", .processing: "Processing…", .continueButton: "Continue", .submit: "Submit",
            .resend: "Resend code",
            .secureCheckout: "Secure checkout", .warning: "Warning", .showMore: "Show", .showLess: "Hide",
            .openApp: "Open app",
            .trustQuestion: "Trust this merchant?", .yes: "Yes", .no: "No", .selected: "selected",
            .notSelected: "not selected", .chooseOption: "Choose an option",
            .image: "Image", .codeField: "Code entry", .timedOut: "The authentication timed out.",
            .genericError: "The authentication could not be completed.",
            .cancelled: "Authentication cancelled.", .completed: "Authentication finished.",
            .appOpenFailed: "The bank's app could not be opened. Approve the payment another way, then continue.",
            .finishInApp: "Approve the payment in your bank's app, then come back and continue.",
        ],
        "de": [
            .cancel: "Abbrechen", .processing: "Wird verarbeitet…", .continueButton: "Weiter", .submit: "Senden",
            .resend: "Code erneut senden",
            .secureCheckout: "Sicherer Bezahlvorgang", .warning: "Warnung", .showMore: "Anzeigen",
            .showLess: "Ausblenden", .openApp: "App öffnen",
            .trustQuestion: "Diesem Händler vertrauen?", .yes: "Ja", .no: "Nein", .selected: "ausgewählt",
            .notSelected: "nicht ausgewählt", .chooseOption: "Bitte eine Option wählen",
            .image: "Bild", .codeField: "Codeeingabe", .timedOut: "Die Authentifizierung ist abgelaufen.",
            .genericError: "Die Authentifizierung konnte nicht abgeschlossen werden.",
            .cancelled: "Authentifizierung abgebrochen.", .completed: "Authentifizierung beendet.",
            .appOpenFailed: "Die App der Bank ließ sich nicht öffnen. Bitte anders bestätigen und dann fortfahren.",
            .finishInApp: "Bitte die Zahlung in der App der Bank bestätigen, dann zurückkehren und fortfahren.",
        ],
        "fr": [
            .cancel: "Annuler", .processing: "Traitement en cours…", .continueButton: "Continuer", .submit: "Valider",
            .resend: "Renvoyer le code",
            .secureCheckout: "Paiement sécurisé", .warning: "Avertissement", .showMore: "Afficher",
            .showLess: "Masquer", .openApp: "Ouvrir l’application",
            .trustQuestion: "Faire confiance à ce marchand ?", .yes: "Oui", .no: "Non", .selected: "sélectionné",
            .notSelected: "non sélectionné", .chooseOption: "Choisissez une option",
            .image: "Image", .codeField: "Saisie du code", .timedOut: "L’authentification a expiré.",
            .genericError: "L’authentification n’a pas pu aboutir.",
            .cancelled: "Authentification annulée.", .completed: "Authentification terminée.",
            .appOpenFailed: "L’app de la banque n’a pas pu s’ouvrir. Confirmez autrement, puis continuez.",
            .finishInApp: "Confirmez le paiement dans l’app de votre banque, puis revenez et continuez.",
        ],
        "es": [
            .cancel: "Cancelar", .processing: "Procesando…", .continueButton: "Continuar", .submit: "Enviar",
            .resend: "Reenviar código",
            .secureCheckout: "Pago seguro", .warning: "Advertencia", .showMore: "Mostrar", .showLess: "Ocultar",
            .openApp: "Abrir la aplicación",
            .trustQuestion: "¿Confiar en este comercio?", .yes: "Sí", .no: "No", .selected: "seleccionado",
            .notSelected: "no seleccionado", .chooseOption: "Elija una opción",
            .image: "Imagen", .codeField: "Introducción del código", .timedOut: "La autenticación ha caducado.",
            .genericError: "No se pudo completar la autenticación.",
            .cancelled: "Autenticación cancelada.", .completed: "Autenticación finalizada.",
            .appOpenFailed: "No se pudo abrir la app del banco. Confirme de otra forma y continúe.",
            .finishInApp: "Confirme el pago en la app de su banco, vuelva y continúe.",
        ],
        "it": [
            .cancel: "Annulla", .processing: "Elaborazione…", .continueButton: "Continua", .submit: "Invia",
            .resend: "Invia di nuovo il codice",
            .secureCheckout: "Pagamento sicuro", .warning: "Avviso", .showMore: "Mostra", .showLess: "Nascondi",
            .openApp: "Apri l’app",
            .trustQuestion: "Considerare affidabile questo esercente?", .yes: "Sì", .no: "No", .selected: "selezionato",
            .notSelected: "non selezionato", .chooseOption: "Scegli un’opzione",
            .image: "Immagine", .codeField: "Inserimento del codice", .timedOut: "L’autenticazione è scaduta.",
            .genericError: "Impossibile completare l’autenticazione.",
            .cancelled: "Autenticazione annullata.", .completed: "Autenticazione terminata.",
            .appOpenFailed: "Impossibile aprire l’app della banca. Conferma in altro modo, poi continua.",
            .finishInApp: "Conferma il pagamento nell’app della banca, poi torna e continua.",
        ],
        "nl": [
            .cancel: "Annuleren", .processing: "Bezig met verwerken…", .continueButton: "Doorgaan",
            .submit: "Versturen", .resend: "Code opnieuw sturen",
            .secureCheckout: "Veilig afrekenen", .warning: "Waarschuwing", .showMore: "Tonen", .showLess: "Verbergen",
            .openApp: "App openen",
            .trustQuestion: "Deze winkelier vertrouwen?", .yes: "Ja", .no: "Nee", .selected: "geselecteerd",
            .notSelected: "niet geselecteerd", .chooseOption: "Kies een optie",
            .image: "Afbeelding", .codeField: "Code invoeren", .timedOut: "De authenticatie is verlopen.",
            .genericError: "De authenticatie kon niet worden voltooid.",
            .cancelled: "Authenticatie geannuleerd.", .completed: "Authenticatie afgerond.",
            .appOpenFailed: "De app van de bank kon niet worden geopend. Bevestig op een andere manier en ga verder.",
            .finishInApp: "Bevestig de betaling in de app van uw bank, kom terug en ga verder.",
        ],
        "pt": [
            .cancel: "Cancelar", .processing: "A processar…", .continueButton: "Continuar", .submit: "Enviar",
            .resend: "Reenviar código",
            .secureCheckout: "Pagamento seguro", .warning: "Aviso", .showMore: "Mostrar", .showLess: "Ocultar",
            .openApp: "Abrir aplicação",
            .trustQuestion: "Confiar neste comerciante?", .yes: "Sim", .no: "Não", .selected: "selecionado",
            .notSelected: "não selecionado", .chooseOption: "Escolha uma opção",
            .image: "Imagem", .codeField: "Introdução do código", .timedOut: "A autenticação expirou.",
            .genericError: "Não foi possível concluir a autenticação.",
            .cancelled: "Autenticação cancelada.", .completed: "Autenticação concluída.",
            .appOpenFailed: "Não foi possível abrir a app do banco. Confirme de outra forma e continue.",
            .finishInApp: "Confirme o pagamento na app do seu banco, volte e continue.",
        ],
        "ja": [
            .cancel: "キャンセル", .processing: "処理中…", .continueButton: "続行", .submit: "送信", .resend: "コードを再送信",
            .secureCheckout: "安全なお支払い", .warning: "警告", .showMore: "表示", .showLess: "非表示", .openApp: "アプリを開く",
            .trustQuestion: "この加盟店を信頼しますか？", .yes: "はい", .no: "いいえ", .selected: "選択済み", .notSelected: "未選択",
            .chooseOption: "選択してください",
            .image: "画像", .codeField: "コード入力", .timedOut: "認証がタイムアウトしました。", .genericError: "認証を完了できませんでした。",
            .cancelled: "認証がキャンセルされました。", .completed: "認証が完了しました。",
            .appOpenFailed: "銀行アプリを開けませんでした。別の方法で承認してから続行してください。",
            .finishInApp: "銀行アプリで支払いを承認し、戻って続行してください。",
        ],
    ]
}
