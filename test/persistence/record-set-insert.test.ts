// insertFromRecordSet writes a JsonColumn's JSON into its one parameter as it is (persistence/RecordSetInsert.ts):
// what is stored must be the value serialized — an object, a string, a number, JSON null (which a jsonb record column
// would make SQL NULL) — and a plain value, JSON text given as a string, or a missing value as before. A string is
// never spliced into the parameter: text that would add a row if it were is refused. On the embedded PGlite.
import { Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, describe, expect, it } from "vitest"
import { AppConfig } from "../../src/config.ts"
import { DatabaseLive } from "../../src/persistence/database/Database.ts"
import { insertFromRecordSet, loadColumnTypes } from "../../src/persistence/RecordSetInsert.ts"
import { jsonColumn, toJson } from "../../src/persistence/SqlValues.ts"
import { testConfig } from "../support/TestApp.ts"

const database = DatabaseLive.pipe(
  Layer.provide(AppConfig.layer(testConfig({ databaseUrl: undefined, dataDir: "memory://" })))
) as unknown as Layer.Layer<SqlClient.SqlClient>
const runtime = ManagedRuntime.make(database)
afterAll(() => runtime.dispose())

interface Stored {
  readonly id: number
  readonly is_null: boolean
  readonly kind: string | null
  readonly doc_text: string | null
  readonly note: string | null
}

const storedAfter = (rows: ReadonlyArray<Record<string, unknown>>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE IF NOT EXISTS record_set_probe (id integer NOT NULL, doc jsonb, note text)`
    yield* sql`DELETE FROM record_set_probe`
    const types = yield* loadColumnTypes(sql, ["record_set_probe"])
    const written = yield* Effect.exit(insertFromRecordSet(sql, types, "record_set_probe", rows))
    const stored = yield* sql<Stored>`SELECT id, doc IS NULL AS is_null, jsonb_typeof(doc) AS kind,
      doc::text AS doc_text, note FROM record_set_probe ORDER BY id`
    return { written: written._tag, stored }
  }).pipe(runtime.runPromise)

describe("rows inserted from one jsonb record set", () => {
  it("store a JsonColumn as the value it serialized, and plain values as before", async () => {
    const { stored } = await storedAfter([
      { id: 1, doc: jsonColumn({ a: "x \"quoted\" \\ y", n: [1, 2] }), note: "one" },
      { id: 2, doc: jsonColumn("just a string"), note: "it's \"two\"" },
      { id: 3, doc: jsonColumn(42), note: null },
      { id: 4, doc: { plain: true }, note: "four" },
      { id: 5, doc: jsonColumn(undefined), note: "five" }
    ])
    expect(stored).toEqual([
      {
        id: 1,
        is_null: false,
        kind: "object",
        doc_text: "{\"a\": \"x \\\"quoted\\\" \\\\ y\", \"n\": [1, 2]}",
        note: "one"
      },
      { id: 2, is_null: false, kind: "string", doc_text: "\"just a string\"", note: "it's \"two\"" },
      { id: 3, is_null: false, kind: "number", doc_text: "42", note: null },
      { id: 4, is_null: false, kind: "object", doc_text: "{\"plain\": true}", note: "four" },
      { id: 5, is_null: true, kind: null, doc_text: null, note: "five" }
    ])
  })

  it("keep JSON null as JSON null, not SQL NULL, beside other values", async () => {
    const { stored } = await storedAfter([
      { id: 1, doc: jsonColumn(null), note: "a" },
      { id: 2, doc: jsonColumn({ b: 1 }), note: "b" }
    ])
    expect(stored).toEqual([
      { id: 1, is_null: false, kind: "null", doc_text: "null", note: "a" },
      { id: 2, is_null: false, kind: "object", doc_text: "{\"b\": 1}", note: "b" }
    ])
  })

  it("read JSON text given as a string as before, beside a JsonColumn", async () => {
    const { stored } = await storedAfter([
      { id: 1, doc: toJson({ c: [true] }), note: "a" },
      { id: 2, doc: jsonColumn({ d: 2 }), note: "b" }
    ])
    expect(stored.map((row) => row.doc_text)).toEqual(["{\"c\": [true]}", "{\"d\": 2}"])
  })

  it("never splice a string into the parameter: text that would add a row is refused, and nothing is written", async () => {
    const { stored, written } = await storedAfter([
      { id: 1, doc: "{}, \"note\": \"x\"}, {\"id\": 99, \"doc\": {}", note: "a" }
    ])
    expect(written).toBe("Failure")
    expect(stored).toEqual([])
  })
})
