// Java external functions without a JVM: the java.lang static methods we implement, Java's argument types checked,
// and anything else an error (null).
import { describe, expect, it } from "vitest"
import { evaluateFeel } from "../../src/decision/feel/Feel.ts"

const value = (e: string) => {
  const r = evaluateFeel(e, {})
  return r._tag === "FeelOk" ? r.value : r
}
const java = (params: string, cls: string, signature: string, call: string) =>
  value(
    `{ f: function(${params}) external { java: { class: "${cls}", method signature: "${signature}" } }, r: ${call} }.r`
  )

describe("Java external functions", () => {
  it("runs java.lang.Math, the boxed valueOf methods and String.valueOf / format", () => {
    expect(java("a, b", "java.lang.Math", "max(double, double)", "f(123.45, 456.78)")).toBe(456.78)
    expect(java("a, b", "java.lang.Math", "max(int,int)", "f(123, 456)")).toBe(456)
    expect(java("x", "java.lang.Math", "cos(double)", "f(0)")).toBe(1)
    expect(java("x", "java.lang.Math", "sqrt(double)", "f(16)")).toBe(4)
    expect(java("s", "java.lang.Integer", "valueOf(java.lang.String)", `f("123")`)).toBe(123)
    expect(java("s", "java.lang.Double", "valueOf(java.lang.String)", `f("1234.56")`)).toBe(1234.56)
    expect(java("c", "java.lang.String", "valueOf(char)", `f("a")`)).toBe("a")
    expect(java("p, a", "java.lang.String", "format(java.lang.String, [Ljava.lang.Object;)", `f("%s and %s", "x", 2)`))
      .toBe("x and 2")
  })

  it("is an error (null) for unknown classes and methods, wrong signatures and arguments Java would refuse", () => {
    expect(java("x", "java.lang.Math", "foo(double)", "f(1)")).toBeNull()
    expect(java("x", "java.lang.Foo", "valueOf(double)", "f(1)")).toBeNull()
    expect(java("a, b", "java.lang.Math", "max(java.lang.String, java.lang.String)", `f("1", "2")`)).toBeNull()
    expect(java("a, b", "java.lang.Math", "max(int,int)", "f(1.5, 2)")).toBeNull()
    expect(java("c", "java.lang.String", "valueOf(char)", `f("abc")`)).toBeNull()
    expect(java("s", "java.lang.Integer", "valueOf(java.lang.String)", `f("12.5")`)).toBeNull()
    expect(java("x", "java.lang.Runtime", "exec(java.lang.String)", `f("ls")`)).toBeNull()
  })
})
