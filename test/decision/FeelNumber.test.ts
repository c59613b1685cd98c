import { describe, expect, it } from "vitest"
import { FeelNumber } from "../../src/decision/feel/FeelNumber.ts"
import { exp, ln, power } from "../../src/decision/feel/FeelNumberMath.ts"

const n = (text: string): FeelNumber => {
  const v = FeelNumber.parse(text)
  if (v === null) throw new Error(`not a number: ${text}`)
  return v
}

describe("FeelNumber (decimal128 semantics)", () => {
  it("adds decimals exactly", () => {
    expect(n("0.1").add(n("0.2")).equals(n("0.3"))).toBe(true)
    expect(n("0.1").add(n("0.2")).toString()).toBe("0.3")
    expect(n("1.10").subtract(n("0.1")).toString()).toBe("1")
  })
  it("divides to 34 significant digits, half-even", () => {
    expect(n("1").divide(n("3"))?.toString()).toBe("0.3333333333333333333333333333333333")
    expect(n("2").divide(n("3"))?.toString()).toBe("0.6666666666666666666666666666666667")
    expect(n("10").divide(n("4"))?.toString()).toBe("2.5")
    expect(n("1").divide(n("0"))).toBeNull()
  })
  it("keeps large integers exact up to 34 digits and rounds beyond", () => {
    expect(n("12345678901234567890123456789").multiply(n("1000")).toString()).toBe("12345678901234567890123456789000")
    expect(n("9999999999999999999999999999999999").add(n("1")).toString()).toBe("10000000000000000000000000000000000")
    // 35 significant digits: the last is rounded half-even.
    expect(n("1234567890123456789012345678901234.5").toString()).toBe("1234567890123456789012345678901234")
    expect(n("1234567890123456789012345678901235.5").toString()).toBe("1234567890123456789012345678901236")
  })
  it("compares by value regardless of representation", () => {
    expect(n("1.0").equals(n("1"))).toBe(true)
    expect(n("-2").compare(n("1"))).toBe(-1)
    expect(n("1e3").compare(n("999.999"))).toBe(1)
    expect(n("0.000").compare(n("0"))).toBe(0)
  })
  it("rounds to a scale in every mode", () => {
    expect(n("2.5").setScale(0, "HALF_EVEN").toString()).toBe("2")
    expect(n("3.5").setScale(0, "HALF_EVEN").toString()).toBe("4")
    expect(n("-2.5").setScale(0, "HALF_UP").toString()).toBe("-3")
    expect(n("-2.5").setScale(0, "HALF_DOWN").toString()).toBe("-2")
    expect(n("-1.1").setScale(0, "FLOOR").toString()).toBe("-2")
    expect(n("-1.1").setScale(0, "CEILING").toString()).toBe("-1")
    expect(n("1.21").setScale(1, "UP").toString()).toBe("1.3")
    expect(n("1.29").setScale(1, "DOWN").toString()).toBe("1.2")
    expect(n("1234").setScale(-2, "HALF_EVEN").toString()).toBe("1200")
  })
  it("modulo takes the divisor's sign", () => {
    expect(n("10").modulo(n("3"))?.toString()).toBe("1")
    expect(n("-10").modulo(n("3"))?.toString()).toBe("2")
    expect(n("10").modulo(n("-3"))?.toString()).toBe("-2")
    expect(n("10.5").modulo(n("3"))?.toString()).toBe("1.5")
  })
  it("powers and square roots", () => {
    expect(n("2").pow(n("10"))?.toString()).toBe("1024")
    expect(n("2").pow(n("-2"))?.toString()).toBe("0.25")
    expect(n("16").sqrt()?.toString()).toBe("4")
    expect(n("2").sqrt()?.toString()).toBe("1.414213562373095048801688724209698")
    expect(n("-1").sqrt()).toBeNull()
  })
  it("integer powers are correctly rounded (one rounding, not one per product)", () => {
    // Python's decimal at 34 digits: (1 + 0.0375/12) ** -360
    const base = n("1").add(n("0.0375").divide(n("12"))!)
    expect(base.pow(n("-360"))?.toString()).toBe("0.3252224591723127419700637978073457")
    expect(n("1.1").pow(n("100"))?.toString()).toBe("13780.61233982227018411833717208964")
    expect(n("0").pow(n("-1"))).toBeNull()
    expect(n("2").pow(n("0.5"))).toBeUndefined()
  })
  it("exp, log and non-integer powers in decimal, to 34 digits (as Python's decimal)", () => {
    expect(exp(n("1"))?.toString()).toBe("2.718281828459045235360287471352662")
    expect(exp(n("-1"))?.toString()).toBe("0.3678794411714423215955237701614609")
    expect(exp(n("14151"))).toBeNull()
    expect(ln(n("10"))?.toString()).toBe("2.302585092994045684017991454684364")
    expect(ln(n("0.5"))?.toString()).toBe("-0.6931471805599453094172321214581766")
    expect(ln(n("1.0000001"))?.toString()).toBe("0.00000009999999500000033333330833333533333")
    expect(ln(n("0"))).toBeNull()
    expect(power(n("1.1"), n("2.5"))?.toString()).toBe("1.269058706285883371859658751552724")
    expect(power(n("2"), n("0.5"))?.toString()).toBe("1.414213562373095048801688724209698")
    expect(power(n("-8"), n("0.5"))).toBeNull()
    expect(power(n("2"), n("-2"))?.toString()).toBe("0.25")
  })
  it("converts from JS numbers by their shortest form and back", () => {
    expect(FeelNumber.fromNumber(0.1)?.toString()).toBe("0.1")
    expect(FeelNumber.fromNumber(1e21)?.toString()).toBe("1000000000000000000000")
    expect(FeelNumber.fromNumber(Number.NaN)).toBeNull()
    expect(n("0.3333333333333333333333333333333333").toNumber()).toBe(1 / 3)
    expect(FeelNumber.parse("abc")).toBeNull()
    expect(n(".5").toString()).toBe("0.5")
    expect(n("-1.5e-3").toString()).toBe("-0.0015")
  })
})
