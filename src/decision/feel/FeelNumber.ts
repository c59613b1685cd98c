/**
 * FEEL numbers (DMN 1.5 §10.3.2.3.1): decimals with IEEE 754-2008 decimal128 semantics — 34 significant digits,
 * results rounded half-even. A value is `coefficient × 10^exponent`, kept canonical (no trailing zeros in the
 * coefficient) so that equal numbers have equal fields.
 *
 * Exponents are not bounded (number("1e-999999999") is a number): no operation makes a power of ten as large as the
 * distance between two exponents, which could take minutes; where the exponents lie that far apart the answer follows
 * from them alone (the coefficient has at most 34 digits).
 */
import { checkStringLength } from "./FeelBudget.ts"

export type RoundingMode = "HALF_EVEN" | "HALF_UP" | "HALF_DOWN" | "UP" | "DOWN" | "CEILING" | "FLOOR"

const PRECISION = 34
const TEN = 10n

const pow10Cache: bigint[] = []
const pow10 = (n: number): bigint => {
  if (n < 64) {
    const cached = pow10Cache[n]
    if (cached !== undefined) return cached
    const v = TEN ** BigInt(n)
    pow10Cache[n] = v
    return v
  }
  return TEN ** BigInt(n)
}

const digitCount = (c: bigint): number => (c < 0n ? (-c).toString().length : c.toString().length)

/**
 * Rounds `q` (the integer part of a quotient) by the discarded fraction `rem / div` (0 ≤ |rem| < div, same sign as q)
 * and whether anything non-zero was discarded before that (`sticky`).
 */
const roundQuotient = (
  q: bigint,
  rem: bigint,
  div: bigint,
  negative: boolean,
  mode: RoundingMode,
  sticky = false
): bigint => {
  const r = rem < 0n ? -rem : rem
  if (r === 0n && !sticky) return q
  const twice = 2n * r
  const half = twice === div ? (sticky ? 1 : 0) : twice > div ? 1 : -1 // discarded part vs one half
  const away = negative ? q - 1n : q + 1n
  switch (mode) {
    case "UP":
      return away
    case "DOWN":
      return q
    case "CEILING":
      return negative ? q : away
    case "FLOOR":
      return negative ? away : q
    case "HALF_UP":
      return half >= 0 ? away : q
    case "HALF_DOWN":
      return half > 0 ? away : q
    case "HALF_EVEN":
      return half > 0 || (half === 0 && (q & 1n) !== 0n) ? away : q
  }
}

/** Drops `drop` low digits of `c` with the given rounding. */
const dropDigits = (c: bigint, drop: number, mode: RoundingMode, sticky = false): bigint => {
  if (drop <= 0) return c
  // Dropping more digits than c has, and one more, rounds as dropping just that many: all of c is below half a unit.
  const div = pow10(drop > 2 * PRECISION ? Math.min(drop, digitCount(c) + 1) : drop)
  return roundQuotient(c / div, c % div, div, c < 0n, mode, sticky)
}

/** 10^n mod m, by squaring. */
const modPow10 = (n: number, m: bigint): bigint => {
  let result = 1n % m
  let base = TEN % m
  for (let k = n; k > 0; k = Math.floor(k / 2)) {
    if (k % 2 === 1) result = (result * base) % m
    base = (base * base) % m
  }
  return result
}

const NUMBER_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/

export class FeelNumber {
  readonly coefficient: bigint
  readonly exponent: number

  private constructor(coefficient: bigint, exponent: number) {
    this.coefficient = coefficient
    this.exponent = exponent
  }

  /** The canonical number for `c × 10^e`, rounded half-even to 34 digits (`sticky`: a non-zero part was already cut). */
  static of(c: bigint, e: number, sticky = false): FeelNumber {
    if (c === 0n) return new FeelNumber(0n, 0)
    const digits = digitCount(c)
    if (digits > PRECISION || sticky) {
      const drop = Math.max(0, digits - PRECISION)
      c = dropDigits(c, drop, "HALF_EVEN", sticky)
      e += drop
      if (digitCount(c) > PRECISION) {
        c /= TEN
        e += 1
      }
    }
    while (c % TEN === 0n && c !== 0n) {
      c /= TEN
      e += 1
    }
    return new FeelNumber(c, c === 0n ? 0 : e)
  }

  static fromInt(n: number | bigint): FeelNumber {
    return FeelNumber.of(BigInt(n), 0)
  }

  /** A JS number by its shortest decimal form (0.1 is the decimal 0.1); null for NaN and infinities. */
  static fromNumber(n: number): FeelNumber | null {
    if (!Number.isFinite(n)) return null
    if (Number.isSafeInteger(n)) return FeelNumber.fromInt(n)
    return FeelNumber.parse(String(n))
  }

  /** Parses decimal text (`-1.5`, `.5`, `1e3`); null when it is not a number. */
  static parse(text: string): FeelNumber | null {
    const m = NUMBER_TEXT.exec(text.trim())
    if (m === null) return null
    const intPart = m[2] ?? ""
    const fracPart = m[3] ?? ""
    if (intPart === "" && fracPart === "") return null
    let digits = intPart + fracPart || "0"
    let exponent = Number(m[4] ?? "0") - fracPart.length
    let sticky = false
    // Of a long text only 34 digits stay, and two guard digits round them: the rest only tells whether anything
    // non-zero is cut (a bigint of all of it, then cut, would take time quadratic in the text's length).
    const lead = digits.search(/[1-9]/)
    if (lead >= 0 && digits.length - lead > PRECISION + 2) {
      const end = lead + PRECISION + 2
      sticky = /[1-9]/.test(digits.slice(end))
      exponent += digits.length - end
      digits = digits.slice(lead, end)
    }
    const c = BigInt((m[1] === "-" ? "-" : "") + digits)
    return FeelNumber.of(c, exponent, sticky)
  }

  get isInteger(): boolean {
    return this.exponent >= 0
  }

  get sign(): number {
    return this.coefficient < 0n ? -1 : this.coefficient > 0n ? 1 : 0
  }

  /** The integer value when this is an integer within JS safe range, else undefined. */
  toSafeInteger(): number | undefined {
    if (this.exponent < 0 || this.exponent > 15) return undefined
    const n = Number(this.coefficient * pow10(this.exponent))
    return Number.isSafeInteger(n) ? n : undefined
  }

  /** The nearest double (±Infinity, ±0 beyond their range), read from the exponent form. */
  toNumber(): number {
    if (this.exponent > 400) return this.sign * Infinity
    if (this.exponent < -800) return this.sign < 0 ? -0 : 0
    return Number(`${this.coefficient}e${this.exponent}`)
  }

  negate(): FeelNumber {
    return this.coefficient === 0n ? this : new FeelNumber(-this.coefficient, this.exponent)
  }

  abs(): FeelNumber {
    return this.coefficient < 0n ? this.negate() : this
  }

  add(other: FeelNumber): FeelNumber {
    if (other.coefficient === 0n) return this
    if (this.coefficient === 0n) return other
    const e = Math.min(this.exponent, other.exponent)
    // A summand far below the other's last digit only matters as a rounding hint.
    const spread = Math.abs(this.exponent - other.exponent)
    if (spread > 2 * PRECISION + 4) {
      const [big, small] = this.exponent > other.exponent ? [this, other] : [other, this]
      const shift = PRECISION + 2
      const c = big.coefficient * pow10(shift) + (small.sign > 0 ? 1n : -1n)
      return FeelNumber.of(c, big.exponent - shift)
    }
    return FeelNumber.of(this.coefficient * pow10(this.exponent - e) + other.coefficient * pow10(other.exponent - e), e)
  }

  subtract(other: FeelNumber): FeelNumber {
    return this.add(other.negate())
  }

  multiply(other: FeelNumber): FeelNumber {
    return FeelNumber.of(this.coefficient * other.coefficient, this.exponent + other.exponent)
  }

  /** null when dividing by zero. */
  divide(other: FeelNumber): FeelNumber | null {
    if (other.coefficient === 0n) return null
    if (this.coefficient === 0n) return ZERO
    const shift = Math.max(0, PRECISION + 2 + digitCount(other.coefficient) - digitCount(this.coefficient))
    const n = this.coefficient * pow10(shift)
    const q = n / other.coefficient
    const r = n % other.coefficient
    return FeelNumber.of(q, this.exponent - other.exponent - shift, r !== 0n)
  }

  compare(other: FeelNumber): number {
    if (this.sign !== other.sign) return this.sign < other.sign ? -1 : 1
    // A coefficient has at most 34 digits: exponents further apart than that order the magnitudes by themselves.
    if (Math.abs(this.exponent - other.exponent) > PRECISION) {
      return this.exponent < other.exponent ? -this.sign : this.sign
    }
    const e = Math.min(this.exponent, other.exponent)
    const a = this.coefficient * pow10(this.exponent - e)
    const b = other.coefficient * pow10(other.exponent - e)
    return a < b ? -1 : a > b ? 1 : 0
  }

  equals(other: FeelNumber): boolean {
    return this.coefficient === other.coefficient && this.exponent === other.exponent
  }

  /** This number with `scale` digits after the point, rounded by `mode` (scale may be negative). */
  setScale(scale: number, mode: RoundingMode): FeelNumber {
    const drop = -scale - this.exponent
    if (drop <= 0) return this
    return FeelNumber.of(dropDigits(this.coefficient, drop, mode), -scale)
  }

  /** Truncated integer division remainder semantics are not FEEL's: modulo takes the divisor's sign. */
  modulo(divisor: FeelNumber): FeelNumber | null {
    if (divisor.coefficient === 0n) return null
    if (divisor.exponent - this.exponent > PRECISION) {
      // |this| < |divisor|: the remainder is this, or this + divisor when the signs differ (as below, without the
      // power of ten).
      if (this.sign === 0 || this.sign === divisor.sign) return this
      return this.add(divisor)
    }
    const e = Math.min(this.exponent, divisor.exponent)
    const b = divisor.coefficient * pow10(divisor.exponent - e)
    // a = coefficient × 10^k; a % b from 10^k mod |b|, by squaring, rather than from a itself (k may be huge)
    const a = this.exponent - e > 2 * PRECISION
      ? this.coefficient * modPow10(this.exponent - e, b < 0n ? -b : b)
      : this.coefficient * pow10(this.exponent - e)
    let r = a % b
    if (r !== 0n && (r < 0n) !== (b < 0n)) r += b
    return FeelNumber.of(r, e)
  }

  /**
   * Integer powers (|n| ≤ 999,999), correctly rounded: computed with guard digits, rounded once; undefined for other
   * exponents (FeelNumberMath's power computes those).
   */
  pow(exponent: FeelNumber): FeelNumber | null | undefined {
    const n = exponent.toSafeInteger()
    if (n === undefined || n > 999_999 || n < -999_999) return undefined
    if (n === 0) return ONE
    if (this.coefficient === 0n) return n < 0 ? null : ZERO
    const k = n < 0 ? -n : n
    // Working digits: enough that the truncations of ~2 log2(n) products stay far below the 34th digit.
    const work = PRECISION + 18
    let rc: bigint
    let re: number
    let inexact = false
    if (digitCount(this.coefficient) * k <= 4 * work) {
      // Small enough to be exact.
      rc = this.coefficient ** BigInt(k)
      re = this.exponent * k
    } else {
      const cut = (c: bigint, e: number): [bigint, number] => {
        const drop = digitCount(c) - work
        if (drop <= 0) return [c, e]
        const div = pow10(drop)
        if (c % div !== 0n) inexact = true
        return [c / div, e + drop]
      }
      ;[rc, re] = [1n, 0]
      let [bc, be] = [this.coefficient, this.exponent]
      for (let m = k; m > 0; m = Math.floor(m / 2)) {
        if (m % 2 === 1) [rc, re] = cut(rc * bc, re + be)
        if (m > 1) [bc, be] = cut(bc * bc, be + be)
      }
    }
    if (n > 0) return FeelNumber.of(rc, re, inexact)
    const shift = work + digitCount(rc)
    const q = pow10(shift) / rc
    return FeelNumber.of(q, -shift - re, inexact || q * rc !== pow10(shift))
  }

  /** Square root to 34 digits; null for negative numbers. */
  sqrt(): FeelNumber | null {
    if (this.sign < 0) return null
    if (this.sign === 0) return ZERO
    let shift = Math.max(0, 2 * PRECISION + 4 - digitCount(this.coefficient))
    if ((this.exponent - shift) % 2 !== 0) shift += 1
    const n = this.coefficient * pow10(shift)
    // Newton's method from above converges monotonically to floor(sqrt(n)).
    let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2) + 1)
    for (;;) {
      const y = (x + n / x) / 2n
      if (y >= x) break
      x = y
    }
    return FeelNumber.of(x, (this.exponent - shift) / 2, x * x !== n)
  }

  /** Plain decimal notation, never an exponent (FEEL `string(n)`). */
  toString(): string {
    const negative = this.coefficient < 0n
    const digits = (negative ? -this.coefficient : this.coefficient).toString()
    // A far exponent would make a huge text: refused like any string over the limit, before it is made.
    checkStringLength(this.exponent >= 0 ? digits.length + this.exponent : Math.max(digits.length, -this.exponent) + 2)
    let text: string
    if (this.exponent >= 0) text = digits + "0".repeat(this.exponent)
    else {
      const point = digits.length + this.exponent
      text = point > 0 ? `${digits.slice(0, point)}.${digits.slice(point)}` : `0.${"0".repeat(-point)}${digits}`
    }
    return negative ? `-${text}` : text
  }

  toJSON(): number {
    return this.toNumber()
  }
}

const ZERO: FeelNumber = FeelNumber.fromInt(0)
const ONE: FeelNumber = FeelNumber.fromInt(1)

export const isFeelNumber = (v: unknown): v is FeelNumber => v instanceof FeelNumber
