/**
 * A user-agent string told simply (issue 33.7): the browser with its major version and the system, for
 * the online-users list. Only the common cases; another client is named by its product token.
 */
const BROWSERS: [RegExp, string][] = [
  [/MicroMessenger\/(\d+)/, '微信'],
  [/QQBrowser\/(\d+)/, 'QQ浏览器'],
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/FxiOS\/(\d+)/, 'Firefox'],
  [/HeadlessChrome\/(\d+)/, 'Chrome（无界面）'],
  [/(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
  [/(?:MSIE |rv:)(\d+).*Trident|Trident.*rv:(\d+)/, 'IE'],
];

function systemOf(ua: string): string {
  let m: RegExpMatchArray | null;
  if (/HarmonyOS/.test(ua)) return 'HarmonyOS';
  if ((m = ua.match(/Windows NT (\d+\.\d+)/))) return { '10.0': 'Windows 10/11', '6.3': 'Windows 8.1', '6.2': 'Windows 8', '6.1': 'Windows 7' }[m[1]] ?? 'Windows';
  if ((m = ua.match(/Android (\d+)/))) return `Android ${m[1]}`;
  if ((m = ua.match(/(iPhone|iPad|iPod)[^;]*; CPU (?:iPhone )?OS (\d+)/))) return `${m[1] === 'iPad' ? 'iPadOS' : 'iOS'} ${m[2]}`;
  if (/Mac OS X/.test(ua)) return 'macOS';
  if (/CrOS/.test(ua)) return 'ChromeOS';
  if (/Linux/.test(ua)) return 'Linux';
  return '';
}

export function describeUserAgent(ua: string | null | undefined): string {
  if (!ua) return '-';
  // Not a browser (a script, a tool): its own product token, as `curl 8` or `node`.
  const product = ua.match(/^([A-Za-z][\w.-]*)(?:\/(\d+))?/);
  let browser = product && !/^Mozilla$/.test(product[1]) ? `${product[1]}${product[2] ? ` ${product[2]}` : ''}` : '未知浏览器';
  for (const [pattern, name] of BROWSERS) {
    const m = ua.match(pattern);
    if (m) {
      const major = m.slice(1).find(Boolean);
      browser = major ? `${name} ${major}` : name;
      break;
    }
  }
  const system = systemOf(ua);
  return system ? `${browser} · ${system}` : browser;
}
