// The device data the web client reports at `start`: only three of the EMVCo SDK Device Information specification's
// common parameters, the ones a browser knows without asking for a permission, in the formats the Swift SDK writes
// them (Sources/ThreeDS2SDK/Device/DeviceInformation.swift, DeviceParameterID.swift). Nothing else: no user agent,
// no fonts, no plugins, no canvas, no hardware, no identifier, no address, no location. The server adds what is
// its own (C014 SDK App ID, C015 SDK version, C016 SDK reference number, C017 date and time, C018 SDK transaction ID)
// and encrypts the whole for the DS. docs/split-sdk.md ("The web client's device data") lists them with their sources.

/**
 * C005, the locale as `lang-COUNTRY` (the SDK's localeTag: the language alone when the region is not a two-letter
 * country). Source: `navigator.language` (HTML Living Standard, NavigatorLanguage: the user's preferred language).
 * @param {string | undefined} language A BCP 47 tag, `navigator.language`.
 * @returns {string | undefined}
 */
export function localeTag(language) {
  if (typeof language !== 'string' || language.length === 0 || language.length > 35) return undefined;
  let locale;
  try {
    locale = new Intl.Locale(language);
  } catch {
    return undefined;
  }
  const region = locale.region;
  return region && /^[A-Z]{2}$/.test(region) ? `${locale.language}-${region}` : locale.language;
}

/**
 * C006, the time zone as the offset from UTC in minutes, east positive (the SDK: secondsFromGMT / 60). Source:
 * `Date.prototype.getTimezoneOffset` (ECMA-262), which counts west positive, hence the sign.
 * @param {Date} now
 * @returns {string}
 */
export function timeZoneOffset(now) {
  const minutes = -now.getTimezoneOffset();
  return String(minutes === 0 ? 0 : minutes);
}

/**
 * C008, the screen resolution `WxH` in device pixels (the SDK: the native screen size, rounded). Source:
 * `screen.width`, `screen.height` (CSSOM View, the Screen interface) times `devicePixelRatio` (CSSOM View).
 * @param {{width: number, height: number} | undefined} screen
 * @param {number | undefined} pixelRatio
 * @returns {string | undefined}
 */
export function screenResolution(screen, pixelRatio) {
  const ratio = Number.isFinite(pixelRatio) && pixelRatio > 0 ? pixelRatio : 1;
  const width = Math.round((screen?.width ?? 0) * ratio);
  const height = Math.round((screen?.height ?? 0) * ratio);
  return width >= 1 && height >= 1 && width < 1e6 && height < 1e6 ? `${width}x${height}` : undefined;
}

/**
 * The device data of this browser, keyed by parameter ID; a parameter the browser cannot give is left out.
 * @param {{navigator?: {language?: string}, screen?: {width: number, height: number}, devicePixelRatio?: number}} env
 *   The frame's window.
 * @param {Date} [now]
 * @returns {{C005?: string, C006: string, C008?: string}}
 */
export function browserDeviceData(env, now = new Date()) {
  const data = {};
  const locale = localeTag(env.navigator?.language);
  if (locale) data.C005 = locale;
  data.C006 = timeZoneOffset(now);
  const resolution = screenResolution(env.screen, env.devicePixelRatio);
  if (resolution) data.C008 = resolution;
  return data;
}
