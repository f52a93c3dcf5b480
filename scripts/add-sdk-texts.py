#!/usr/bin/env python3
"""Adds new SDK texts to every language's Localizable.strings (appended, each with its column budget and English
source), skipping a language that already has the key or has no translation here.

Usage: scripts/add-sdk-texts.py <Resources folder>

The translations below are the source for a new key until its translators edit the tables; re-run after adding a
language's table.
"""
import sys
from pathlib import Path

BUDGET = 80
KEYS = ["warningJailbroken", "warningTampered", "warningEmulator", "warningDebugger", "warningUnsupportedOS"]
# One row per language: the five security warnings (EMVCo SW01–SW05) in KEYS' order.
TEXTS = {
    "en": ["This device is rooted or jailbroken.", "The payment security software has been tampered with.",
           "The app is running in an emulator or a virtual machine.", "A debugger is attached to the app.",
           "This version of the operating system is not supported."],
    "ar": ["تم كسر حماية هذا الجهاز أو الحصول على صلاحيات الجذر فيه.", "تم العبث ببرنامج أمان الدفع.",
           "يعمل هذا التطبيق على محاكٍ أو جهاز افتراضي.", "يوجد مصحح أخطاء متصل بهذا التطبيق.",
           "إصدار نظام التشغيل هذا غير مدعوم."],
    "bg": ["Това устройство е с root достъп или jailbreak.", "Софтуерът за сигурност на плащанията е бил манипулиран.",
           "Приложението работи в емулатор или виртуална машина.", "Към приложението е прикачен дебъгер.",
           "Тази версия на операционната система не се поддържа."],
    "cs": ["Toto zařízení má root nebo jailbreak.", "Do bezpečnostního softwaru plateb bylo neoprávněně zasaženo.",
           "Aplikace běží v emulátoru nebo virtuálním počítači.", "K aplikaci je připojen ladicí program.",
           "Tato verze operačního systému není podporována."],
    "da": ["Denne enhed er rootet eller jailbreaket.", "Der er manipuleret med betalingens sikkerhedssoftware.",
           "Appen kører i en emulator eller en virtuel maskine.", "En debugger er koblet til appen.",
           "Denne version af styresystemet understøttes ikke."],
    "de": ["Dieses Gerät ist gerootet oder hat einen Jailbreak.", "Die Sicherheitssoftware für Zahlungen wurde manipuliert.",
           "Die App läuft in einem Emulator oder einer virtuellen Maschine.", "Ein Debugger ist mit der App verbunden.",
           "Diese Version des Betriebssystems wird nicht unterstützt."],
    "el": ["Αυτή η συσκευή έχει δικαιώματα root ή jailbreak.", "Το λογισμικό ασφάλειας πληρωμών έχει παραποιηθεί.",
           "Η εφαρμογή εκτελείται σε προσομοιωτή ή εικονική μηχανή.",
           "Ένα πρόγραμμα εντοπισμού σφαλμάτων είναι συνδεδεμένο στην εφαρμογή.",
           "Αυτή η έκδοση του λειτουργικού συστήματος δεν υποστηρίζεται."],
    "es": ["Este dispositivo está rooteado o tiene jailbreak.", "El software de seguridad de pagos ha sido manipulado.",
           "La aplicación se ejecuta en un emulador o una máquina virtual.", "Hay un depurador conectado a la aplicación.",
           "Esta versión del sistema operativo no es compatible."],
    "et": ["Sellel seadmel on root-õigused või jailbreak.", "Maksete turvatarkvara on rikutud.",
           "Rakendus töötab emulaatoris või virtuaalmasinas.", "Rakendusega on ühendatud silur.",
           "Seda operatsioonisüsteemi versiooni ei toetata."],
    "fi": ["Tämä laite on rootattu tai jailbreakattu.", "Maksujen tietoturvaohjelmistoa on peukaloitu.",
           "Sovellus toimii emulaattorissa tai virtuaalikoneessa.", "Sovellukseen on liitetty virheenjäljitin.",
           "Tätä käyttöjärjestelmän versiota ei tueta."],
    "fr": ["Cet appareil est rooté ou jailbreaké.", "Le logiciel de sécurité des paiements a été altéré.",
           "L’application s’exécute dans un émulateur ou une machine virtuelle.",
           "Un débogueur est attaché à l’application.",
           "Cette version du système d’exploitation n’est pas prise en charge."],
    "ga": ["Tá an gléas seo rootáilte nó jailbroken.", "Rinneadh cur isteach ar bhogearraí slándála na n-íocaíochtaí.",
           "Tá an aip ag rith in aithriseoir nó i meaisín fíorúil.", "Tá dífhabhtóir ceangailte den aip.",
           "Ní thacaítear leis an leagan seo den chóras oibriúcháin."],
    "he": ["המכשיר הזה עבר פריצת root או jailbreak.", "בוצעה חבלה בתוכנת האבטחה של התשלומים.",
           "האפליקציה פועלת באמולטור או במכונה וירטואלית.", "מנפה שגיאות מחובר לאפליקציה.",
           "הגרסה הזו של מערכת ההפעלה אינה נתמכת."],
    "hi": ["यह डिवाइस रूटेड या जेलब्रोकन है।", "भुगतान सुरक्षा सॉफ़्टवेयर से छेड़छाड़ की गई है।",
           "ऐप किसी एम्युलेटर या वर्चुअल मशीन में चल रहा है।", "ऐप से एक डीबगर जुड़ा है।",
           "ऑपरेटिंग सिस्टम का यह संस्करण समर्थित नहीं है।"],
    "hr": ["Ovaj uređaj ima root ili jailbreak.", "Sigurnosni softver za plaćanja je izmijenjen.",
           "Aplikacija se izvodi u emulatoru ili virtualnom stroju.",
           "Na aplikaciju je priključen program za ispravljanje pogrešaka.",
           "Ova verzija operacijskog sustava nije podržana."],
    "hu": ["Ez az eszköz rootolt vagy jailbreakelt.", "A fizetési biztonsági szoftvert módosították.",
           "Az alkalmazás emulátorban vagy virtuális gépen fut.", "Hibakereső csatlakozik az alkalmazáshoz.",
           "Az operációs rendszer ezen verziója nem támogatott."],
    "id": ["Perangkat ini di-root atau di-jailbreak.", "Perangkat lunak keamanan pembayaran telah dirusak.",
           "Aplikasi berjalan di emulator atau mesin virtual.", "Debugger terpasang pada aplikasi.",
           "Versi sistem operasi ini tidak didukung."],
    "it": ["Questo dispositivo ha il root o il jailbreak.", "Il software di sicurezza dei pagamenti è stato manomesso.",
           "L’app è in esecuzione in un emulatore o in una macchina virtuale.", "Un debugger è collegato all’app.",
           "Questa versione del sistema operativo non è supportata."],
    "ja": ["このデバイスはルート化または脱獄されています。", "決済のセキュリティソフトウェアが改ざんされています。",
           "アプリがエミュレーターまたは仮想マシンで実行されています。", "アプリにデバッガーが接続されています。",
           "このバージョンのオペレーティングシステムはサポートされていません。"],
    "ko": ["이 기기는 루팅 또는 탈옥되었습니다.", "결제 보안 소프트웨어가 변조되었습니다.",
           "앱이 에뮬레이터 또는 가상 머신에서 실행 중입니다.", "앱에 디버거가 연결되어 있습니다.",
           "이 버전의 운영 체제는 지원되지 않습니다."],
    "lt": ["Šiame įrenginyje gautos root teisės arba atliktas „jailbreak“.",
           "Mokėjimų saugos programinė įranga buvo pakeista.",
           "Programėlė veikia emuliatoriuje arba virtualiojoje mašinoje.", "Prie programėlės prijungtas derintuvas.",
           "Ši operacinės sistemos versija nepalaikoma."],
    "lv": ["Šai ierīcei ir root piekļuve vai jailbreak.", "Maksājumu drošības programmatūra ir mainīta.",
           "Lietotne darbojas emulatorā vai virtuālajā mašīnā.", "Lietotnei ir pievienots atkļūdotājs.",
           "Šī operētājsistēmas versija netiek atbalstīta."],
    "mt": ["Dan it-tagħmir għandu root jew jailbreak.", "Is-software tas-sigurtà tal-pagamenti ġie mbagħbas.",
           "L-app qed taħdem f’emulatur jew f’magna virtwali.", "Debugger huwa mqabbad mal-app.",
           "Din il-verżjoni tas-sistema operattiva mhijiex appoġġata."],
    "nl": ["Dit apparaat is geroot of gejailbreakt.", "Er is geknoeid met de beveiligingssoftware voor betalingen.",
           "De app draait in een emulator of virtuele machine.", "Er is een debugger aan de app gekoppeld.",
           "Deze versie van het besturingssysteem wordt niet ondersteund."],
    "pl": ["To urządzenie ma uprawnienia roota lub jailbreak.",
           "Oprogramowanie zabezpieczające płatności zostało zmodyfikowane.",
           "Aplikacja działa w emulatorze lub maszynie wirtualnej.", "Do aplikacji jest podłączony debuger.",
           "Ta wersja systemu operacyjnego nie jest obsługiwana."],
    "pt-BR": ["Este dispositivo tem root ou jailbreak.", "O software de segurança de pagamentos foi adulterado.",
              "O app está sendo executado em um emulador ou máquina virtual.", "Há um depurador conectado ao app.",
              "Esta versão do sistema operacional não é compatível."],
    "pt-PT": ["Este dispositivo tem root ou jailbreak.", "O software de segurança de pagamentos foi adulterado.",
              "A aplicação está a ser executada num emulador ou máquina virtual.",
              "Está ligado um depurador à aplicação.", "Esta versão do sistema operativo não é suportada."],
    "ro": ["Acest dispozitiv are root sau jailbreak.", "Software-ul de securitate pentru plăți a fost modificat fraudulos.",
           "Aplicația rulează într-un emulator sau într-o mașină virtuală.", "Un depanator este atașat la aplicație.",
           "Această versiune a sistemului de operare nu este acceptată."],
    "sk": ["Toto zariadenie má root alebo jailbreak.", "Do bezpečnostného softvéru platieb bolo neoprávnene zasiahnuté.",
           "Aplikácia beží v emulátore alebo virtuálnom počítači.", "K aplikácii je pripojený ladiaci program.",
           "Táto verzia operačného systému nie je podporovaná."],
    "sl": ["Ta naprava ima root ali jailbreak.", "V varnostno programsko opremo za plačila je bilo poseženo.",
           "Aplikacija se izvaja v emulatorju ali navideznem računalniku.",
           "Na aplikacijo je priključen razhroščevalnik.", "Ta različica operacijskega sistema ni podprta."],
    "sv": ["Den här enheten är rootad eller jailbreakad.", "Säkerhetsprogramvaran för betalningar har manipulerats.",
           "Appen körs i en emulator eller en virtuell maskin.", "En felsökare är ansluten till appen.",
           "Den här versionen av operativsystemet stöds inte."],
    "th": ["อุปกรณ์นี้ถูกรูทหรือเจลเบรก", "ซอฟต์แวร์ความปลอดภัยสำหรับการชำระเงินถูกดัดแปลง",
           "แอปกำลังทำงานในโปรแกรมจำลองหรือเครื่องเสมือน", "มีดีบักเกอร์เชื่อมต่อกับแอป",
           "ไม่รองรับระบบปฏิบัติการเวอร์ชันนี้"],
    "vi": ["Thiết bị này đã bị root hoặc jailbreak.", "Phần mềm bảo mật thanh toán đã bị can thiệp.",
           "Ứng dụng đang chạy trong trình giả lập hoặc máy ảo.", "Một trình gỡ lỗi đang được gắn vào ứng dụng.",
           "Phiên bản hệ điều hành này không được hỗ trợ."],
    "zh-Hans": ["此设备已 root 或越狱。", "支付安全软件已被篡改。", "App 正在模拟器或虚拟机中运行。", "App 已连接调试器。",
                "不支持此版本的操作系统。"],
    "zh-Hant": ["此裝置已 root 或越獄。", "付款安全軟體已遭竄改。", "App 正在模擬器或虛擬機器中執行。", "App 已連接偵錯工具。",
                "不支援此版本的作業系統。"],
    "ru": ["На этом устройстве получены root-права или выполнен джейлбрейк.",
           "Программа защиты платежей была изменена злоумышленником.",
           "Приложение работает в эмуляторе или виртуальной машине.", "К приложению подключён отладчик.",
           "Эта версия операционной системы не поддерживается."],
    "uk": ["На цьому пристрої отримано root-права або виконано джейлбрейк.",
           "Програму захисту платежів було змінено зловмисником.",
           "Застосунок працює в емуляторі або віртуальній машині.", "До застосунку підключено налагоджувач.",
           "Ця версія операційної системи не підтримується."],
    "tr": ["Bu cihaz rootlu veya jailbreak yapılmış.", "Ödeme güvenliği yazılımı kurcalanmış.",
           "Uygulama bir emülatörde veya sanal makinede çalışıyor.", "Uygulamaya bir hata ayıklayıcı bağlı.",
           "İşletim sisteminin bu sürümü desteklenmiyor."],
    "nb": ["Denne enheten er rootet eller jailbreaket.", "Sikkerhetsprogramvaren for betalinger er blitt manipulert.",
           "Appen kjører i en emulator eller en virtuell maskin.", "En feilsøker er koblet til appen.",
           "Denne versjonen av operativsystemet støttes ikke."],
    "es-419": ["Este dispositivo está rooteado o tiene jailbreak.",
               "El software de seguridad de pagos fue manipulado.",
               "La app se está ejecutando en un emulador o una máquina virtual.", "Hay un depurador conectado a la app.",
               "Esta versión del sistema operativo no es compatible."],
    "fr-CA": ["Cet appareil est rooté ou débridé.", "Le logiciel de sécurité des paiements a été altéré.",
              "L’application s’exécute dans un émulateur ou une machine virtuelle.",
              "Un débogueur est attaché à l’application.",
              "Cette version du système d’exploitation n’est pas prise en charge."],
    "zh-Hant-HK": ["此裝置已 root 或越獄。", "付款安全軟件已被篡改。", "應用程式正在模擬器或虛擬機器中執行。",
                   "應用程式已連接偵錯工具。", "不支援此版本的作業系統。"],
    "fa": ["این دستگاه روت یا جیلبریک شده است.", "در نرم‌افزار امنیت پرداخت دست‌کاری شده است.",
           "برنامه در یک شبیه‌ساز یا ماشین مجازی اجرا می‌شود.", "یک اشکال‌زدا به برنامه متصل است.",
           "این نسخه از سیستم‌عامل پشتیبانی نمی‌شود."],
    "ur": ["اس ڈیوائس کو روٹ یا جیل بریک کیا گیا ہے۔", "ادائیگی کے سیکیورٹی سافٹ ویئر میں چھیڑ چھاڑ کی گئی ہے۔",
           "ایپ کسی ایمولیٹر یا ورچوئل مشین میں چل رہی ہے۔", "ایپ سے ایک ڈیبگر منسلک ہے۔",
           "آپریٹنگ سسٹم کا یہ ورژن سپورٹ نہیں کیا جاتا۔"],
}


def escape(text):
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def main():
    root = Path(sys.argv[1])
    english = dict(zip(KEYS, TEXTS["en"]))
    for folder in sorted(root.glob("*.lproj")):
        language = folder.name[:-6]
        table = folder / "Localizable.strings"
        rows = TEXTS.get(language) or TEXTS.get(next((k for k in TEXTS if k.lower() == language.lower()), ""))
        if not table.exists() or rows is None:
            print("skipped", language)
            continue
        text = table.read_text(encoding="utf-8")
        added = []
        for key, value in zip(KEYS, rows):
            if f'"{key}" =' in text:
                continue
            source = "" if language == "en" else f" English: {english[key]}"
            added.append(f'/* At most {BUDGET} columns.{source} */\n"{key}" = "{escape(value)}";\n')
        if added:
            table.write_text(text.rstrip("\n") + "\n\n" + "\n".join(added), encoding="utf-8")


if __name__ == "__main__":
    main()
