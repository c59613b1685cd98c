/**
 * Java external functions (DMN 1.5 §10.3.2.13.3: `function(x) external { java: { class, method signature } }` and
 * boxed `functionDefinition kind="Java"`). No JVM runs here: a fixed list of the static methods of java.lang that
 * models and the TCK call is implemented in TypeScript, with Java's argument types checked. Any other class or
 * method, or a signature that does not exist in Java, gives a function whose invocation is null (an error).
 */
import { FeelFunctionValue, type FeelParameter } from "./FeelFunctionValue.ts"
import { FeelNumber } from "./FeelNumber.ts"
import { feelToString } from "./FeelValues.ts"

type JavaMethod = (args: ReadonlyArray<unknown>) => unknown

const INTEGRAL = new Set(["int", "long", "short", "byte", "java.lang.Integer", "java.lang.Long"])
const FLOATING = new Set(["double", "float", "java.lang.Double", "java.lang.Float"])

const numberOut = (n: number): unknown => (Number.isFinite(n) ? FeelNumber.fromNumber(n) : null)

/** A FEEL argument as the Java parameter type wants it, or undefined when Java would refuse it. */
const argumentAs = (type: string, value: unknown): unknown => {
  if (INTEGRAL.has(type)) {
    return value instanceof FeelNumber && value.isInteger ? value.toNumber() : undefined
  }
  if (FLOATING.has(type)) return value instanceof FeelNumber ? value.toNumber() : undefined
  if (type === "java.lang.String") return typeof value === "string" ? value : undefined
  if (type === "char") return typeof value === "string" && [...value].length === 1 ? value : undefined
  if (type === "java.lang.Object") return value
  return undefined
}

const MATH_UNARY: Readonly<Record<string, (x: number) => number>> = {
  abs: Math.abs,
  acos: Math.acos,
  asin: Math.asin,
  atan: Math.atan,
  cbrt: Math.cbrt,
  ceil: Math.ceil,
  cos: Math.cos,
  cosh: Math.cosh,
  exp: Math.exp,
  floor: Math.floor,
  log: Math.log,
  log10: Math.log10,
  signum: Math.sign,
  sin: Math.sin,
  sinh: Math.sinh,
  sqrt: Math.sqrt,
  tan: Math.tan,
  tanh: Math.tanh,
  toDegrees: (x) => (x * 180) / Math.PI,
  toRadians: (x) => (x * Math.PI) / 180
}
const MATH_BINARY: Readonly<Record<string, (x: number, y: number) => number>> = {
  max: Math.max,
  min: Math.min,
  pow: Math.pow,
  atan2: Math.atan2,
  hypot: Math.hypot
}

const parse = (text: string): FeelNumber | null => FeelNumber.parse(text.trim())

/** String.format for %s and %d (and %%), the conversions models use. */
const format = (pattern: string, values: ReadonlyArray<unknown>): string | null => {
  let next = 0
  let failed = false
  const out = pattern.replace(/%([sd%])/g, (_, conversion: string) => {
    if (conversion === "%") return "%"
    const value = values[next++]
    if (conversion === "d" && !(value instanceof FeelNumber && value.isInteger)) failed = true
    return value === undefined ? "" : feelToString(value) ?? "null"
  })
  return failed || next > values.length ? null : out
}

/** The implementation of `class.method(types)`, or undefined when it is not one we provide. */
const methodOf = (className: string, name: string, types: ReadonlyArray<string>): JavaMethod | undefined => {
  const all = (kinds: ReadonlySet<string>) => types.every((t) => kinds.has(t))
  if (className === "java.lang.Math") {
    if (types.length === 1 && MATH_UNARY[name] !== undefined && (all(FLOATING) || all(INTEGRAL))) {
      return ([x]) => numberOut(MATH_UNARY[name]!(x as number))
    }
    if (types.length === 2 && MATH_BINARY[name] !== undefined && (all(FLOATING) || all(INTEGRAL))) {
      return ([x, y]) => numberOut(MATH_BINARY[name]!(x as number, y as number))
    }
    if (name === "round" && types.length === 1 && all(FLOATING)) return ([x]) => numberOut(Math.round(x as number))
    return undefined
  }
  const boxed: Readonly<Record<string, string>> = {
    "java.lang.Integer": "int",
    "java.lang.Long": "long",
    "java.lang.Short": "short",
    "java.lang.Byte": "byte",
    "java.lang.Double": "double",
    "java.lang.Float": "float"
  }
  const primitive = boxed[className]
  if (primitive !== undefined && name === "valueOf" && types.length === 1) {
    if (types[0] === "java.lang.String") {
      return ([text]) => {
        const n = parse(text as string)
        return n === null || (INTEGRAL.has(primitive) && !n.isInteger) ? null : n
      }
    }
    if (types[0] === primitive) return ([n]) => numberOut(n as number)
    return undefined
  }
  if (className === "java.lang.String") {
    if (name === "valueOf" && types.length === 1) return ([value]) => feelToString(value)
    if (name === "format" && types[0] === "java.lang.String" && types[1] === "[Ljava.lang.Object;") {
      return ([pattern, ...rest]) => format(pattern as string, rest)
    }
  }
  return undefined
}

/** The FEEL function for a Java method, or null when the class, method or signature is not one Java (or we) has. */
export const javaFunction = (
  parameters: ReadonlyArray<FeelParameter>,
  className: unknown,
  methodSignature: unknown
): FeelFunctionValue | null => {
  if (typeof className !== "string" || typeof methodSignature !== "string") return null
  const signature = /^\s*([A-Za-z_$][\w$]*)\s*\(([^)]*)\)\s*$/.exec(methodSignature)
  if (signature === null) return null
  const types = signature[2]!.split(",").map((t) => t.trim()).filter((t) => t !== "")
  const method = methodOf(className.trim(), signature[1]!, types)
  if (method === undefined) return null
  const varargs = types[types.length - 1] === "[Ljava.lang.Object;"
  return new FeelFunctionValue(parameters, (args) => {
    const fixed = varargs ? types.length - 1 : types.length
    if (args.length < fixed) return null
    const converted: Array<unknown> = []
    for (const [i, type] of types.slice(0, fixed).entries()) {
      const value = argumentAs(type, args[i] ?? null)
      if (value === undefined) return null
      converted.push(value)
    }
    return method(varargs ? [...converted, ...args.slice(fixed)] : converted)
  }, varargs)
}

const entry = (context: unknown, name: string): unknown =>
  typeof context === "object" && context !== null ? (context as Record<string, unknown>)[name] : undefined

/** A boxed Java function definition: its body is the context `{ class, method signature }`. */
export const javaFunctionOf = (parameters: ReadonlyArray<FeelParameter>, body: unknown): FeelFunctionValue | null =>
  javaFunction(parameters, entry(body, "class"), entry(body, "method signature"))

/** A FEEL `function(...) external { java: { class, method signature } }`. */
export const externalFunction = (parameters: ReadonlyArray<FeelParameter>, body: unknown): FeelFunctionValue | null =>
  javaFunctionOf(parameters, entry(body, "java"))
