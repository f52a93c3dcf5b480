#!/usr/bin/env python3
"""Writes Localizable.stringsdict (the plural forms, one whole sentence per CLDR category) into every language folder
that has a Localizable.strings.

Usage: scripts/write-plural-forms.py <Resources folder> <key,key,...>
  scripts/write-plural-forms.py Sources/ThreeDS2SDK/Resources noteTooLong

The forms below are the source for a language until its translators edit the .stringsdict itself; a language
without a folder is skipped (re-run after adding its Localizable.strings). PluralRulesTests checks that every
category a count reaches is present, with English's placeholders.
"""
import sys
from pathlib import Path
from xml.sax.saxutils import escape
NB='\u00a0'
T = {}
def both(lang, key, forms): T.setdefault(lang, {})[key] = forms
def same(cats, text): return {c: text for c in cats}

# noteTooLong, charactersEntered
both('en','noteTooLong',{'one':'The entry is too long: at most %d character.','other':'The entry is too long: at most %d characters.'})
both('en','charactersEntered',{'one':'%d character entered','other':'%d characters entered'})
p='الإدخال طويل جدًا: الحد الأقصى '
both('ar','noteTooLong',{'zero':p+'%d حرف.','one':p+'%d حرف.','two':p+'%d حرفان.','few':p+'%d أحرف.','many':p+'%d حرفًا.','other':p+'%d حرف.'})
both('ar','charactersEntered',same(['zero','one','two','few','many','other'],'عدد الأحرف المدخلة: %d'))
both('bg','noteTooLong',{'one':'Въведеното е твърде дълго: най-много %d знак.','other':'Въведеното е твърде дълго: най-много %d знака.'})
both('bg','charactersEntered',same(['one','other'],'въведени знаци: %d'))
both('cs','noteTooLong',{'one':'Zadání je příliš dlouhé: nejvýše %d znak.','few':'Zadání je příliš dlouhé: nejvýše %d znaky.','many':'Zadání je příliš dlouhé: nejvýše %d znaku.','other':'Zadání je příliš dlouhé: nejvýše %d znaků.'})
both('cs','charactersEntered',same(['one','few','many','other'],'zadáno znaků: %d'))
both('da','noteTooLong',same(['one','other'],'Indtastningen er for lang: højst %d tegn.'))
both('da','charactersEntered',same(['one','other'],'%d tegn indtastet'))
both('de','noteTooLong',same(['one','other'],'Die Eingabe ist zu lang: höchstens %d Zeichen.'))
both('de','charactersEntered',same(['one','other'],'%d Zeichen eingegeben'))
both('el','noteTooLong',{'one':'Η καταχώριση είναι πολύ μεγάλη: έως %d χαρακτήρας.','other':'Η καταχώριση είναι πολύ μεγάλη: έως %d χαρακτήρες.'})
both('el','charactersEntered',{'one':'%d χαρακτήρας καταχωρίστηκε','other':'%d χαρακτήρες καταχωρίστηκαν'})
both('es','noteTooLong',{'one':'El texto es demasiado largo: %d carácter como máximo.','many':'El texto es demasiado largo: %d de caracteres como máximo.','other':'El texto es demasiado largo: %d caracteres como máximo.'})
both('es','charactersEntered',{'one':'%d carácter introducido','many':'%d de caracteres introducidos','other':'%d caracteres introducidos'})
both('et','noteTooLong',{'one':'Sisestus on liiga pikk: kuni %d märk.','other':'Sisestus on liiga pikk: kuni %d märki.'})
both('et','charactersEntered',{'one':'sisestatud %d märk','other':'sisestatud %d märki'})
both('fi','noteTooLong',{'one':'Syöte on liian pitkä: enintään %d merkki.','other':'Syöte on liian pitkä: enintään %d merkkiä.'})
both('fi','charactersEntered',{'one':'%d merkki syötetty','other':'%d merkkiä syötetty'})
both('fr','noteTooLong',{'one':f'La saisie est trop longue{NB}: %d caractère au maximum.','many':f'La saisie est trop longue{NB}: %d de caractères au maximum.','other':f'La saisie est trop longue{NB}: %d caractères au maximum.'})
both('fr','charactersEntered',{'one':'%d caractère saisi','many':'%d de caractères saisis','other':'%d caractères saisis'})
g='Tá an iontráil rófhada: '
both('ga','noteTooLong',{'one':g+'%d charachtar ar a mhéad.','two':g+'%d charachtar ar a mhéad.','few':g+'%d charachtar ar a mhéad.','many':g+'%d gcarachtar ar a mhéad.','other':g+'%d carachtar ar a mhéad.'})
both('ga','charactersEntered',{'one':'%d charachtar iontráilte','two':'%d charachtar iontráilte','few':'%d charachtar iontráilte','many':'%d gcarachtar iontráilte','other':'%d carachtar iontráilte'})
both('he','noteTooLong',{'one':'הקלט ארוך מדי: עד %d תו.','two':'הקלט ארוך מדי: עד %d תווים.','other':'הקלט ארוך מדי: עד %d תווים.'})
both('he','charactersEntered',{'one':'הוזן %d תו','two':'הוזנו %d תווים','other':'הוזנו %d תווים'})
both('hi','noteTooLong',same(['one','other'],'प्रविष्टि बहुत लंबी है: अधिकतम %d वर्ण।'))
both('hi','charactersEntered',{'one':'%d वर्ण दर्ज किया गया','other':'%d वर्ण दर्ज किए गए'})
both('hr','noteTooLong',{'one':'Unos je predug: najviše %d znak.','few':'Unos je predug: najviše %d znaka.','other':'Unos je predug: najviše %d znakova.'})
both('hr','charactersEntered',same(['one','few','other'],'uneseno znakova: %d'))
both('hu','noteTooLong',same(['one','other'],'A bevitel túl hosszú: legfeljebb %d karakter.'))
both('hu','charactersEntered',same(['one','other'],'%d karakter beírva'))
both('id','noteTooLong',{'other':'Isian terlalu panjang: maksimal %d karakter.'})
both('id','charactersEntered',{'other':'%d karakter dimasukkan'})
both('it','noteTooLong',{'one':'Il testo è troppo lungo: al massimo %d carattere.','many':'Il testo è troppo lungo: al massimo %d di caratteri.','other':'Il testo è troppo lungo: al massimo %d caratteri.'})
both('it','charactersEntered',{'one':'%d carattere inserito','many':'%d di caratteri inseriti','other':'%d caratteri inseriti'})
both('ja','noteTooLong',{'other':'入力が長すぎます（最大 %d 文字）。'})
both('ja','charactersEntered',{'other':'%d 文字入力済み'})
both('ko','noteTooLong',{'other':'입력이 너무 깁니다. 최대 %d자까지 입력할 수 있습니다.'})
both('ko','charactersEntered',{'other':'%d자 입력됨'})
both('lt','noteTooLong',{'one':'Įvestis per ilga: daugiausia %d simbolis.','few':'Įvestis per ilga: daugiausia %d simboliai.','many':'Įvestis per ilga: daugiausia %d simbolio.','other':'Įvestis per ilga: daugiausia %d simbolių.'})
both('lt','charactersEntered',same(['one','few','many','other'],'įvesta simbolių: %d'))
both('lv','noteTooLong',{'zero':'Ievade ir pārāk gara: ne vairāk kā %d rakstzīmju.','one':'Ievade ir pārāk gara: ne vairāk kā %d rakstzīme.','other':'Ievade ir pārāk gara: ne vairāk kā %d rakstzīmes.'})
both('lv','charactersEntered',same(['zero','one','other'],'ievadītas rakstzīmes: %d'))
m='Id-dħul huwa twil wisq: mhux aktar minn '
both('mt','noteTooLong',{'one':m+'%d karattru.','two':m+'%d karattri.','few':m+'%d karattri.','many':m+'%d-il karattru.','other':m+'%d karattru.'})
both('mt','charactersEntered',{'one':'%d karattru mdaħħal','two':'%d karattri mdaħħla','few':'%d karattri mdaħħla','many':'%d-il karattru mdaħħal','other':'%d karattru mdaħħal'})
both('nl','noteTooLong',{'one':'De invoer is te lang: maximaal %d teken.','other':'De invoer is te lang: maximaal %d tekens.'})
both('nl','charactersEntered',{'one':'%d teken ingevoerd','other':'%d tekens ingevoerd'})
both('pl','noteTooLong',{'one':'Wpis jest za długi: maksymalnie %d znak.','few':'Wpis jest za długi: maksymalnie %d znaki.','many':'Wpis jest za długi: maksymalnie %d znaków.','other':'Wpis jest za długi: maksymalnie %d znaku.'})
both('pl','charactersEntered',same(['one','few','many','other'],'wpisano znaków: %d'))
both('pt-BR','noteTooLong',{'one':'O texto é longo demais: no máximo %d caractere.','many':'O texto é longo demais: no máximo %d de caracteres.','other':'O texto é longo demais: no máximo %d caracteres.'})
both('pt-BR','charactersEntered',{'one':'%d caractere digitado','many':'%d de caracteres digitados','other':'%d caracteres digitados'})
both('pt-PT','noteTooLong',{'one':'O texto é demasiado longo: no máximo %d carácter.','many':'O texto é demasiado longo: no máximo %d de caracteres.','other':'O texto é demasiado longo: no máximo %d caracteres.'})
both('pt-PT','charactersEntered',{'one':'%d carácter introduzido','many':'%d de caracteres introduzidos','other':'%d caracteres introduzidos'})
both('ro','noteTooLong',{'one':'Textul este prea lung: cel mult %d caracter.','few':'Textul este prea lung: cel mult %d caractere.','other':'Textul este prea lung: cel mult %d de caractere.'})
both('ro','charactersEntered',{'one':'%d caracter introdus','few':'%d caractere introduse','other':'%d de caractere introduse'})
both('sk','noteTooLong',{'one':'Zadanie je príliš dlhé: najviac %d znak.','few':'Zadanie je príliš dlhé: najviac %d znaky.','many':'Zadanie je príliš dlhé: najviac %d znaku.','other':'Zadanie je príliš dlhé: najviac %d znakov.'})
both('sk','charactersEntered',same(['one','few','many','other'],'zadaných znakov: %d'))
both('sl','noteTooLong',{'one':'Vnos je predolg: največ %d znak.','two':'Vnos je predolg: največ %d znaka.','few':'Vnos je predolg: največ %d znaki.','other':'Vnos je predolg: največ %d znakov.'})
both('sl','charactersEntered',same(['one','two','few','other'],'vnesenih znakov: %d'))
both('sv','noteTooLong',same(['one','other'],'Inmatningen är för lång: högst %d tecken.'))
both('sv','charactersEntered',{'one':'%d tecken inmatat','other':'%d tecken inmatade'})
both('th','noteTooLong',{'other':'ข้อความยาวเกินไป: ไม่เกิน %d ตัวอักษร'})
both('th','charactersEntered',{'other':'ป้อนแล้ว %d ตัวอักษร'})
both('vi','noteTooLong',{'other':'Nội dung nhập quá dài: tối đa %d ký tự.'})
both('vi','charactersEntered',{'other':'đã nhập %d ký tự'})
both('zh-Hans','noteTooLong',{'other':'输入内容过长：最多 %d 个字符。'})
both('zh-Hans','charactersEntered',{'other':'已输入 %d 个字符'})
both('zh-Hant','noteTooLong',{'other':'輸入內容過長：最多 %d 個字元。'})
both('zh-Hant','charactersEntered',{'other':'已輸入 %d 個字元'})

# Languages another branch adds (their Localizable.strings come with it); written when their folder exists.
both('ru','noteTooLong',{'one':'Слишком длинный ввод: максимум %d символ.','few':'Слишком длинный ввод: максимум %d символа.','many':'Слишком длинный ввод: максимум %d символов.','other':'Слишком длинный ввод: максимум %d символа.'})
both('ru','charactersEntered',same(['one','few','many','other'],'введено символов: %d'))
both('uk','noteTooLong',{'one':'Введення задовге: максимум %d символ.','few':'Введення задовге: максимум %d символи.','many':'Введення задовге: максимум %d символів.','other':'Введення задовге: максимум %d символу.'})
both('uk','charactersEntered',same(['one','few','many','other'],'введено символів: %d'))
both('tr','noteTooLong',same(['one','other'],'Giriş çok uzun: en fazla %d karakter.'))
both('tr','charactersEntered',same(['one','other'],'%d karakter girildi'))
both('nb','noteTooLong',same(['one','other'],'Inndataene er for lange: maks %d tegn.'))
both('nb','charactersEntered',same(['one','other'],'%d tegn skrevet inn'))
both('es-419','noteTooLong',{'one':'El texto es demasiado largo: %d carácter como máximo.','many':'El texto es demasiado largo: %d de caracteres como máximo.','other':'El texto es demasiado largo: %d caracteres como máximo.'})
both('es-419','charactersEntered',{'one':'%d carácter ingresado','many':'%d de caracteres ingresados','other':'%d caracteres ingresados'})
both('fr-CA','noteTooLong',dict(T['fr']['noteTooLong']))
both('fr-CA','charactersEntered',dict(T['fr']['charactersEntered']))
both('zh-Hant-HK','noteTooLong',{'other':'輸入內容過長：最多 %d 個字元。'})
both('zh-Hant-HK','charactersEntered',{'other':'已輸入 %d 個字元'})
both('fa','noteTooLong',same(['one','other'],'ورودی بیش از حد طولانی است: حداکثر %d نویسه.'))
both('fa','charactersEntered',same(['one','other'],'%d نویسه وارد شد'))
both('ur','noteTooLong',{'one':'اندراج بہت طویل ہے: زیادہ سے زیادہ %d حرف۔','other':'اندراج بہت طویل ہے: زیادہ سے زیادہ %d حروف۔'})
both('ur','charactersEntered',{'one':'%d حرف درج کیا گیا','other':'%d حروف درج کیے گئے'})

ORDER=['zero','one','two','few','many','other']
COMMENTS={'noteTooLong':'The note when an entry is longer than allowed; %d is the limit in characters.',
 'charactersEntered':'How much was typed in a field, in plain mode; %d is the count.'}
def write(lang, keys, root):
    out=['<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<!-- The plural forms of the texts with a count, one whole sentence per CLDR category the language has',
    '     (PluralCategory, CLDR 46). Keep the %d of each form. See CONTRIBUTING.md, "Translations". -->',
    '<plist version="1.0">','<dict>']
    for key in keys:
        forms=T[lang][key]
        out += [f'\t<!-- {COMMENTS[key]} -->', f'\t<key>{key}</key>','\t<dict>',
          '\t\t<key>NSStringLocalizedFormatKey</key>','\t\t<string>%#@count@</string>',
          '\t\t<key>count</key>','\t\t<dict>',
          '\t\t\t<key>NSStringFormatSpecTypeKey</key>','\t\t\t<string>NSStringPluralRuleType</string>',
          '\t\t\t<key>NSStringFormatValueTypeKey</key>','\t\t\t<string>d</string>']
        for c in ORDER:
            if c in forms: out += [f'\t\t\t<key>{c}</key>', f'\t\t\t<string>{escape(forms[c])}</string>']
        out += ['\t\t</dict>','\t</dict>']
    out += ['</dict>','</plist>','']
    d=Path(root)/f'{lang}.lproj'
    (d/'Localizable.stringsdict').write_text('\n'.join(out),encoding='utf-8')

if __name__ == '__main__':
    root = sys.argv[1]
    keys = sys.argv[2].split(',')
    written = [lang for lang in T if (Path(root) / f'{lang}.lproj' / 'Localizable.strings').exists()]
    for lang in written:
        write(lang, [key for key in keys if key in T[lang]], root)
    print('wrote', len(written), 'files; no table for', sorted(set(T) - set(written)))
