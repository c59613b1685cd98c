// The request path makes no generator function per call. V8 gives every generator function created at run time
// (`(x) => Effect.gen(function*() {...})` makes one per call) a map of its own, in the old generation, and that map
// keeps what the function closes over alive until the next full collection: every request's objects were promoted
// and collected by mark-compacts, whose pauses made the half-rate tails (docs/scaling.md, session 18). On the hot
// path a generator body is made once — `Effect.fnUntraced(function*(args) {...})` where the service is built — or
// the code uses combinators — everywhere in src since session 18, but in the few files listed below.
import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

const SRC = join(process.cwd(), "src")

const sources = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sources(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

/**
 * Files that still make a generator function per call, with how many (a ratchet: the count may only go down, and a
 * file at zero leaves the list). Each is run once (a loop's or a layer's setup), or rarely (password hashing, an
 * import, a migration) — none on the path of a start, a publish, an activation or a completion.
 */
const KNOWN: Readonly<Record<string, number>> = {
  "cluster/ClusterLoop.ts": 1,
  "actors/ConnectorRunner.ts": 1,
  "auth/PasswordHasher.ts": 2,
  "services/decisions/DecisionImports.ts": 1,
  "services/decisions/Decisions.ts": 1,
  "services/forms/FormDefinitionVersions.ts": 1,
  "services/instances/InstanceMigration.ts": 1,
  "services/modeling/Models.ts": 1,
  "services/work/Work.ts": 1
}

/** `=> Effect.gen(function*` (also `=> sql.withTransaction(Effect.gen(function*`): a generator function per call. */
const PER_CALL = /=>\s*(?:[\w.]+\()?Effect\.gen\(function\*/g

const perCallGenerators = (): Record<string, number> => {
  const counts: Record<string, number> = {}
  for (const path of sources(SRC)) {
    const found = [...readFileSync(path, "utf8").matchAll(PER_CALL)].length
    if (found > 0) counts[relative(SRC, path).split("\\").join("/")] = found
  }
  return counts
}

describe("hot path", () => {
  it("makes no generator function per call, but in the few files known to (run once, or rarely)", () => {
    expect(perCallGenerators()).toEqual(KNOWN)
  })

  it("the check finds the shape it forbids", () => {
    const sample = "const f = (x: number) =>\n  Effect.gen(function*() {\n    return x\n  })"
    expect([...sample.matchAll(PER_CALL)]).toHaveLength(1)
    expect([..."const f = Effect.fnUntraced(function*(x) {".matchAll(PER_CALL)]).toHaveLength(0)
  })
})
