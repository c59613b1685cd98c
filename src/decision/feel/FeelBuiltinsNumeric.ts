/**
 * Numeric built-ins (DMN 1.5 §10.3.4.5), exact on decimals: decimal, floor, ceiling, the round functions, abs,
 * modulo, sqrt, log, exp, odd, even. log and exp are decimal, to 34 digits (FeelNumberMath.ts).
 */
import { builtin, type FeelBuiltinFunction, signature } from "./FeelFunctionValue.ts"
import { FeelNumber, type RoundingMode } from "./FeelNumber.ts"
import { exp, ln } from "./FeelNumberMath.ts"
import { isTemporal, viaFeelin } from "./FeelTemporal.ts"

const asNumber = (v: unknown): FeelNumber | undefined => (v instanceof FeelNumber ? v : undefined)

/** A scale argument: its integer part, in decimal128's range (DMN 1.5: −6111 to 6176). */
const asScale = (v: unknown): number | undefined => {
  const n = asNumber(v)?.setScale(0, "DOWN").toSafeInteger()
  return n !== undefined && n >= -6111 && n <= 6176 ? n : undefined
}

const withScale = (mode: RoundingMode) =>
  signature(["n", "scale"], ([n, scale]) => {
    const x = asNumber(n)
    const s = asScale(scale)
    return x === undefined || s === undefined ? null : x.setScale(s, mode)
  })

/** floor(n) / ceiling(n) round to an integer; with a scale argument it must be a number (an explicit null is not). */
const rounding = (mode: RoundingMode, scaleOptional: boolean): FeelBuiltinFunction =>
  scaleOptional
    ? builtin(signature(["n"], ([n]) => asNumber(n)?.setScale(0, mode) ?? null), withScale(mode))
    : builtin(withScale(mode))

const unary = (name: string, f: (x: FeelNumber) => FeelNumber | null): FeelBuiltinFunction =>
  builtin(signature([name], ([n]) => {
    const x = asNumber(n)
    return x === undefined ? null : f(x)
  }))

const TWO = FeelNumber.fromInt(2)

export const NUMERIC_BUILTINS: Readonly<Record<string, FeelBuiltinFunction>> = {
  decimal: rounding("HALF_EVEN", false),
  floor: rounding("FLOOR", true),
  ceiling: rounding("CEILING", true),
  "round up": rounding("UP", false),
  "round down": rounding("DOWN", false),
  "round half up": rounding("HALF_UP", false),
  "round half down": rounding("HALF_DOWN", false),
  abs: builtin(signature(["n"], ([n]) => {
    if (n instanceof FeelNumber) return n.abs()
    return isTemporal(n) ? viaFeelin("abs(n)", { n }) : null
  })),
  modulo: builtin(signature(["dividend", "divisor"], ([a, b]) => {
    const x = asNumber(a)
    const y = asNumber(b)
    return x === undefined || y === undefined ? null : x.modulo(y)
  })),
  sqrt: unary("number", (x) => x.sqrt()),
  log: unary("number", ln),
  exp: unary("number", exp),
  odd: builtin(signature(["number"], ([n]) => {
    const x = asNumber(n)
    if (x === undefined) return null
    return x.isInteger && x.modulo(TWO)?.sign !== 0
  })),
  even: builtin(signature(["number"], ([n]) => {
    const x = asNumber(n)
    if (x === undefined) return null
    return x.isInteger && x.modulo(TWO)?.sign === 0
  }))
}
