/**
 * exp, log and powers of FEEL numbers in decimal, to the 34 significant digits of decimal128 (DMN 1.5 §10.3.2.3.1:
 * FEEL numbers are decimals), not through binary floating point. Computed in fixed point on bigints with many guard
 * digits, then rounded once (half-even).
 *
 * exp: x = n + f (n an integer, 0 ≤ f < 1), e^f by its Taylor series, e^n by squaring e; e^-x = 1 / e^x.
 * log: x = m × 2^j × 10^k with 0.7 ≤ m < 1.4, ln m = 2 atanh((m - 1) / (m + 1)); ln 2 = 2 atanh(1/3) and
 * ln 10 = 3 ln 2 + 2 atanh(1/9). Non-integer powers: x ** y = e^(y ln x) for x > 0.
 */
import { FeelNumber } from "./FeelNumber.ts"

/** Results beyond decimal128's largest exponent (10^6144, e^14149.7) are null. */
const MAX_EXP = 14_150n

const pow10 = (n: number): bigint => 10n ** BigInt(n)
const digits = (c: bigint): number => (c < 0n ? -c : c).toString().length

/** Where the leading digit of x stands: 10^(m-1) ≤ |x| < 10^m for x ≠ 0. */
const magnitude = (x: FeelNumber): number => x.exponent + digits(x.coefficient)

/**
 * The extra fraction digits a number far below 1 asks for, at most FAR_DIGITS: the coefficient has at most 34
 * digits, so a number with more digits below the point than that is far from 1 (its logarithm is large) and needs
 * no more; without the cap a tiny number would ask for a power of ten as large as its exponent.
 */
const FAR_DIGITS = 100
const fractionDigits = (x: FeelNumber): number => Math.min(Math.max(0, -x.exponent), FAR_DIGITS)

/** `x` (a FeelNumber) in fixed point with `p` fraction digits, truncated. */
const toFixed = (x: FeelNumber, p: number): bigint =>
  x.exponent + p >= 0 ? x.coefficient * pow10(x.exponent + p) : x.coefficient / pow10(-(x.exponent + p))

/** `num / den × 10^-p` as a FeelNumber rounded half-even to 34 digits (inexact: the guard digits are not exact). */
const fromRatio = (num: bigint, den: bigint, p: number): FeelNumber => {
  const shift = Math.max(0, 40 + digits(den) - digits(num))
  return FeelNumber.of((num * pow10(shift)) / den, -p - shift, true)
}

/** 2 atanh(z) for z = a / b (|z| ≤ 1/3), in fixed point with `p` fraction digits. */
const twoAtanh = (a: bigint, b: bigint, p: number): bigint => {
  const scale = pow10(p)
  let power = (a * scale) / b // z^(2i+1), fixed point
  const z2num = a * a
  const z2den = b * b
  let sum = 0n
  for (let k = 1n; power !== 0n; k += 2n) {
    sum += power / k
    power = (power * z2num) / z2den
  }
  return 2n * sum
}

const constants = new Map<number, { ln2: bigint; ln10: bigint; e: bigint }>()

const constantsAt = (p: number): { ln2: bigint; ln10: bigint; e: bigint } => {
  let c = constants.get(p)
  if (c === undefined) {
    const ln2 = twoAtanh(1n, 3n, p + 5) / 100_000n
    const ln10 = (3n * twoAtanh(1n, 3n, p + 5) + twoAtanh(1n, 9n, p + 5)) / 100_000n
    c = { ln2, ln10, e: expFraction(pow10(p), p) }
    constants.set(p, c)
  }
  return c
}

/** e^f for 0 ≤ f ≤ 1 in fixed point (`p` fraction digits). */
function expFraction(f: bigint, p: number): bigint {
  const scale = pow10(p)
  let term = scale
  let sum = scale
  for (let k = 1n; term !== 0n; k++) {
    term = (term * f) / scale / k
    sum += term
  }
  return sum
}

/** Working fraction digits: the guard digits plus room for the magnitude of what is computed. */
const WORK = 60

/** e^x in fixed point with `p` fraction digits, for x ≥ 0 given in fixed point with `p` fraction digits. */
const expFixed = (x: bigint, p: number): bigint => {
  const scale = pow10(p)
  const n = x / scale
  let result = expFraction(x - n * scale, p)
  let base = constantsAt(p).e
  for (let k = n; k > 0n; k >>= 1n) {
    if (k & 1n) result = (result * base) / scale
    if (k > 1n) base = (base * base) / scale
  }
  return result
}

/** e^x for x in fixed point with `given` fraction digits, to 34 digits; null beyond decimal128's range. */
const expOf = (x: bigint, given: number): FeelNumber | null => {
  if (x === 0n) return FeelNumber.fromInt(1)
  // |x| < 10^-40: e^x rounds to 1 (found without the power of ten of `given`, which may be huge)
  if (digits(x) - given < -40) return FeelNumber.fromInt(1)
  const whole = x / pow10(given)
  if (whole > MAX_EXP) return null
  if (whole < -MAX_EXP - 200n) return FeelNumber.fromInt(0)
  // e^|x| loses about log10(|x|) + 1 digits to squaring; the guard digits cover it.
  const p = WORK + digits(whole)
  const abs = x < 0n ? -x : x
  const value = expFixed(p >= given ? abs * pow10(p - given) : abs / pow10(given - p), p)
  return x > 0n ? FeelNumber.of(value, -p, true) : fromRatio(pow10(2 * p), value, p)
}

/** e^x to 34 digits; null beyond decimal128's range. */
export const exp = (x: FeelNumber): FeelNumber | null => {
  if (x.sign === 0) return FeelNumber.fromInt(1)
  // |x| < 10^-40 rounds to 1; |x| ≥ 10^6 is beyond decimal128's range either way (expOf's bounds)
  if (magnitude(x) <= -40) return FeelNumber.fromInt(1)
  if (magnitude(x) > 6) return x.sign > 0 ? null : FeelNumber.fromInt(0)
  const p = WORK + Math.max(0, -x.exponent)
  return expOf(toFixed(x, p), p)
}

/** ln x in fixed point with `p` fraction digits, for x > 0. */
const lnFixed = (x: FeelNumber, p: number): bigint => {
  const scale = pow10(p)
  // x = m × 10^k with 0.1 ≤ m < 1, then m doubled into [0.7, 1.4).
  const k = x.exponent + digits(x.coefficient)
  let m = toFixed(FeelNumber.of(x.coefficient, -digits(x.coefficient)), p)
  let j = 0n
  const low = (7n * scale) / 10n
  while (m < low) {
    m *= 2n
    j += 1n
  }
  const { ln2, ln10 } = constantsAt(p)
  return twoAtanh(m - scale, m + scale, p) - j * ln2 + BigInt(k) * ln10
}

/** The natural logarithm to 34 digits; null for x ≤ 0. */
export const ln = (x: FeelNumber): FeelNumber | null => {
  if (x.sign <= 0) return null
  if (x.equals(FeelNumber.fromInt(1))) return FeelNumber.fromInt(0)
  // Near 1 the logarithm is small: as many more digits as x has below its point keep 34 significant ones.
  const p = WORK + fractionDigits(x)
  return FeelNumber.of(lnFixed(x, p), -p, true)
}

/** x ** y: integer exponents exactly (FeelNumber.pow), others as e^(y ln x) for x > 0; null where undefined. */
export const power = (x: FeelNumber, y: FeelNumber): FeelNumber | null => {
  const exact = x.pow(y)
  if (exact !== undefined) return exact
  if (x.sign < 0) return null
  if (x.sign === 0) return y.sign > 0 ? FeelNumber.fromInt(0) : null
  // |y| ≥ 10^44 and x ≠ 1 (|ln x| > 10^-35: x has at most 34 digits): |y ln x| is beyond decimal128's range.
  if (magnitude(y) > 45) {
    const c = x.compare(FeelNumber.fromInt(1))
    return c === 0 ? FeelNumber.fromInt(1) : c * y.sign > 0 ? null : FeelNumber.fromInt(0)
  }
  // y ln x in fixed point: ln x to as many more digits as y has before its point.
  const p = WORK + fractionDigits(x) + Math.max(0, magnitude(y))
  const product = lnFixed(x, p) * y.coefficient
  return y.exponent >= 0 ? expOf(product * pow10(y.exponent), p) : expOf(product, p - y.exponent)
}
