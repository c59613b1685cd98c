// The request path makes no generator function per call. V8 gives every generator function created at run time
// (`(x) => Effect.gen(function*() {...})` makes one per call) a map of its own, in the old generation, and that map
// keeps what the function closes over alive until the next full collection: every request's objects were promoted
// and collected by mark-compacts, whose pauses made the half-rate tails (docs/scaling.md, session 18). On the hot
// path a generator body is made once — `Effect.fnUntraced(function*(args) {...})` where the service is built — or
// the code uses combinators. Layer construction (run once) and the route groups' setup may use Effect.gen freely.
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

/** Files every start, publish, activation or completion runs through, whole. */
const HOT = [
  "actors/InstanceHandler.ts",
  "auth/TokenService.ts",
  "http/AuthenticationLive.ts",
  "http/EdgeMiddleware.ts",
  "http/RequestAudit.ts",
  "http/RequestTextCheck.ts",
  "persistence/InstanceStore.ts",
  "persistence/JobLeases.ts",
  "persistence/MessageTargets.ts",
  "services/JobActivation.ts",
  "services/JobCompletion.ts",
  "services/Messages.ts"
]

/** Made once despite the shape: issuing a token is sign-in, not the request path. */
const ALLOWED = new Set(["auth/TokenService.ts:issue"])

/** `=> Effect.gen(function*` (and `=> sql.withTransaction(Effect.gen(function*`): a generator function per call. */
const perCallGenerators = (file: string): Array<string> => {
  const text = readFileSync(join(process.cwd(), "src", file), "utf8")
  const found: Array<string> = []
  for (const match of text.matchAll(/(\w+)?[^\n]*=>\s*(?:[\w.]+\()?Effect\.gen\(function\*/g)) {
    const line = text.slice(0, match.index).split("\n").length
    const name = /^\s*(?:const\s+)?(\w+)/.exec(match[0])?.[1] ?? "?"
    if (!ALLOWED.has(`${file}:${name}`)) found.push(`${file}:${line} ${match[0].trim()}`)
  }
  return found
}

describe("hot path", () => {
  it("makes no generator function per call", () => {
    expect(HOT.flatMap(perCallGenerators)).toEqual([])
  })

  it("the check finds the shape it forbids", () => {
    const sample = "const f = (x: number) =>\n  Effect.gen(function*() {\n    return x\n  })"
    expect(/=>\s*(?:[\w.]+\()?Effect\.gen\(function\*/.test(sample)).toBe(true)
    expect(/=>\s*(?:[\w.]+\()?Effect\.gen\(function\*/.test("const f = Effect.fnUntraced(function*(x) {")).toBe(false)
  })
})
