/**
 * Money in exact decimal arithmetic: amounts are whole cents (分) in integers, never binary floating
 * point; the API carries yuan as strings with two decimals ("12.50"). Rounding is half up at the cent.
 */

/** The largest amount accepted anywhere in the dues area: 10,000,000.00 yuan (well inside exact integers). */
export const MAX_CENTS = 1_000_000_000;

const YUAN = /^\s*(-)?(\d{1,9})(?:\.(\d*))?\s*$/;

/**
 * Yuan text ("3000", "3000.5", "3000.01") → cents. Up to two decimals are exact; more decimals are
 * rounded half up at the cent only when `round` is set (spreadsheet cells), otherwise refused.
 * Answers undefined for anything that is not a plain decimal number.
 */
export function parseYuan(text: string | number, options: { round?: boolean; negative?: boolean } = {}): number | undefined {
  // A number from a spreadsheet cell: its shortest decimal form ("3000.01"), never the binary value.
  const source = typeof text === 'number' ? (Number.isFinite(text) ? numberText(text) : '') : text;
  const m = YUAN.exec(source);
  if (!m) return undefined;
  const [, minus, whole, decimals = ''] = m;
  if (minus && !options.negative) return undefined;
  if (decimals.length > 2 && !options.round) return undefined;
  let cents = Number(whole) * 100 + Number((decimals + '00').slice(0, 2));
  // Half up: the third decimal decides.
  if (decimals.length > 2 && decimals[2] >= '5') cents += 1;
  if (cents > MAX_CENTS) return undefined;
  return minus && cents ? -cents : cents;
}

/** A JavaScript number in plain decimal notation (no exponent), as its shortest round-trip text. */
function numberText(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toFixed(20).replace(/\.?0+$/, '');
}

/** Cents → "1234.50" (always two decimals; "-0.20" for negatives). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Cents → "¥1,234.50" for people (thousands separated). */
export function displayYuan(cents: number): string {
  const [whole, decimals] = formatCents(Math.abs(cents)).split('.');
  return `${cents < 0 ? '-' : ''}¥${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${decimals}`;
}

/**
 * `value × numerator / denominator`, rounded half up (away from zero for negatives) to a whole cent.
 * Exact for any safe integers: the product is taken in BigInt.
 */
export function mulDivRound(value: number | bigint, numerator: number, denominator: number): number {
  if (denominator <= 0) throw new RangeError('denominator must be positive');
  const product = BigInt(value) * BigInt(numerator);
  const d = BigInt(denominator);
  const negative = product < 0n;
  const abs = negative ? -product : product;
  let q = abs / d;
  if ((abs % d) * 2n >= d) q += 1n;
  return Number(negative ? -q : q);
}

/** A decimal factor ("0.6", "-1", "1.05") as an exact fraction numerator / 10^k; undefined when not a number. */
export function parseFactor(text: string): { numerator: number; denominator: number } | undefined {
  const m = /^\s*(-)?(\d{1,6})(?:\.(\d{1,6}))?\s*$/.exec(text);
  if (!m) return undefined;
  const decimals = m[3] ?? '';
  const denominator = 10 ** decimals.length;
  const numerator = Number(m[2]) * denominator + Number(decimals || 0);
  return { numerator: m[1] ? -numerator : numerator, denominator };
}

const DIGITS = '零壹贰叁肆伍陆柒捌玖';
const UNITS = ['', '拾', '佰', '仟'];
const SECTIONS = ['', '万', '亿'];

/** The amount in Chinese capitals as receipts write it: 1234.50 → 壹仟贰佰叁拾肆元伍角整. */
export function capitalYuan(cents: number): string {
  if (cents < 0) return `负${capitalYuan(-cents)}`;
  const yuanPart = Math.floor(cents / 100);
  const jiao = Math.floor((cents % 100) / 10);
  const fen = cents % 10;
  let whole = '';
  if (yuanPart > 0) {
    const digits = String(yuanPart).split('').reverse();
    let zero = false;
    for (let i = digits.length - 1; i >= 0; i--) {
      const d = Number(digits[i]);
      if (d === 0) zero = true;
      else {
        if (zero && whole) whole += '零';
        zero = false;
        whole += DIGITS[d] + UNITS[i % 4];
      }
      if (i % 4 === 0 && i > 0 && /[^零]$/.test(whole) && digits.slice(i, i + 4).some((x) => x !== '0')) whole += SECTIONS[i / 4];
    }
    whole += '元';
  }
  if (!jiao && !fen) return `${whole || '零元'}整`;
  const small = `${jiao ? `${DIGITS[jiao]}角` : whole ? '零' : ''}${fen ? `${DIGITS[fen]}分` : ''}`;
  return `${whole}${small}${fen ? '' : '整'}`;
}
