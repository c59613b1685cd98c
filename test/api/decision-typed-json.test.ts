// Typed values in JSON: inputs coerced by the model's item definitions (through components and collections), the
// explicit { "@type", "value" } form for Any, and typed results on request (?typed=true).
import { describe, expect, it } from "vitest"
import { givenTenant } from "../support/Scenario.ts"

const NS = "https://www.omg.org/spec/DMN/20230324/MODEL/"

const literal = (name: string, text: string, typeRef = "Any") =>
  `<decision id="${name.replace(/\W/g, "_")}" name="${name}"><variable name="${name}" typeRef="${typeRef}"/>
    <literalExpression><text>${text}</text></literalExpression></decision>`

const model = `<definitions xmlns="${NS}" namespace="urn:typed" name="typed">
  <itemDefinition name="tPerson">
    <itemComponent name="name"><typeRef>string</typeRef></itemComponent>
    <itemComponent name="aDate"><typeRef>date</typeRef></itemComponent>
    <itemComponent name="dates" isCollection="true"><typeRef>date</typeRef></itemComponent>
  </itemDefinition>
  <itemDefinition name="tDates" isCollection="true"><typeRef>date</typeRef></itemDefinition>
  <itemDefinition name="tLoop"><typeRef>tLoop</typeRef></itemDefinition>
  <inputData id="i6" name="looping"><variable name="looping" typeRef="tLoop"/></inputData>
  <inputData id="i1" name="person"><variable name="person" typeRef="tPerson"/></inputData>
  <inputData id="i2" name="when"><variable name="when" typeRef="date"/></inputData>
  <inputData id="i3" name="holidays"><variable name="holidays" typeRef="tDates"/></inputData>
  <inputData id="i4" name="anything"><variable name="anything" typeRef="Any"/></inputData>
  <inputData id="i5" name="stays"><variable name="stays" typeRef="list&lt;days and time duration&gt;"/></inputData>
  ${literal("Birth year", "person.aDate.year")}
  ${literal("All dates", "every d in person.dates satisfies d instance of date")}
  ${literal("Next day", "when + duration(\"P1D\")")}
  ${literal("Late holidays", "count(holidays[item &gt; date(\"2024-06-01\")])")}
  ${literal("Longest stay", "max(stays)")}
  ${
  literal(
    "Kind",
    `if anything instance of date then "date" else if anything instance of time then "time"
      else if anything instance of date and time then "date and time"
      else if anything instance of days and time duration then "days and time duration"
      else if anything instance of years and months duration then "years and months duration"
      else if anything instance of range&lt;number&gt; then "range" else if anything instance of string then "string"
      else "other"`
  )
}
  ${literal("Echo", "anything")}
  ${literal("Loop", "looping")}
  ${literal("Third", "1 / 3")}
  ${literal("Window", "[date(\"2024-01-01\")..date(\"2024-12-31\")]")}
</definitions>`

const setup = async () => {
  const owner = await (await givenTenant()).owner()
  const imported = (await owner.call("POST", "/decisions/import", { rawBody: model, contentType: "application/xml" }))
    .ok(201)
  const evaluate = (decision: string, variables: Record<string, unknown>, query = "") =>
    owner.post(`/decision-models/${imported.id}/decisions/${encodeURIComponent(decision)}/evaluate${query}`, {
      variables
    })
  return { owner, imported, evaluate }
}

const person = { name: "Ada", aDate: "1990-12-10", dates: ["2024-01-01", "2024-02-29"] }

describe("typed JSON inputs", () => {
  it("coerces inputs by item definitions, through components and collections", async () => {
    const { evaluate } = await setup()
    expect((await evaluate("Birth year", { person })).ok().result).toBe(1990)
    expect((await evaluate("All dates", { person })).ok().result).toBe(true)
    expect((await evaluate("Next day", { when: "2024-02-28" })).ok().result).toBe("2024-02-29")
    expect((await evaluate("Late holidays", { holidays: ["2024-01-01", "2024-07-04", "2024-12-25"] })).ok().result)
      .toBe(2)
    expect((await evaluate("Longest stay", { stays: ["PT2H", "P1D", "PT30M"] })).ok().result).toBe("P1D")
  })

  it("takes explicitly typed values for Any", async () => {
    const { evaluate } = await setup()
    const kind = async (anything: unknown) => (await evaluate("Kind", { anything })).ok().result
    expect(await kind({ "@type": "date", value: "2024-01-01" })).toBe("date")
    expect(await kind({ "@type": "time", value: "10:30:00" })).toBe("time")
    expect(await kind({ "@type": "time", value: "10:30:00@Europe/Paris" })).toBe("time")
    expect(await kind({ "@type": "date and time", value: "2024-01-01T24:00:00" })).toBe("date and time")
    expect(await kind({ "@type": "date and time", value: "2024-01-01T10:30:00Z" })).toBe("date and time")
    expect(await kind({ "@type": "dateTime", value: "2024-01-01T10:30:00" })).toBe("date and time")
    expect(await kind({ "@type": "days and time duration", value: "P1DT2H" })).toBe("days and time duration")
    expect(await kind({ "@type": "years and months duration", value: "P1Y2M" })).toBe("years and months duration")
    expect(await kind({ "@type": "range", value: "[1..10)" })).toBe("range")
    expect(await kind("2024-01-01")).toBe("string")
  })

  it("answers 400 naming the field for a value that is not its declared or stated type", async () => {
    const { evaluate } = await setup()
    const notADate = (await evaluate("Next day", { when: "the 3rd" })).fails(400, "VALIDATION_ERROR")
    expect(notADate.errors[0].field).toBe("variables.when")
    const nested = (await evaluate("Birth year", { person: { ...person, dates: ["2024-01-01", "soon"] } }))
      .fails(400, "VALIDATION_ERROR")
    expect(nested.errors[0].field).toBe("variables.person.dates[1]")
    const typed = (await evaluate("Kind", { anything: { "@type": "years and months duration", value: "P1D" } }))
      .fails(400, "VALIDATION_ERROR")
    expect(typed.errors[0].field).toBe("variables.anything")
    const unknown = (await evaluate("Kind", { anything: { "@type": "colour", value: "red" } }))
      .fails(400, "VALIDATION_ERROR")
    expect(unknown.errors[0].field).toBe("variables.anything.@type")
    // temporal texts follow FEEL's rules as in expressions: an offset and a zone id together are no time
    const zoned = (await evaluate("Kind", { anything: { "@type": "time", value: "13:20:00+02:00@Europe/Paris" } }))
      .fails(400, "VALIDATION_ERROR")
    expect(zoned.errors[0].field).toBe("variables.anything")
    // An item definition that refers to itself cannot type a value: a 400, not a stack overflow.
    const looping = (await evaluate("Loop", { looping: "x" })).fails(400, "VALIDATION_ERROR")
    expect(looping.errors[0]).toMatchObject({ field: "variables.looping", message: expect.stringMatching(/itself/) })
  })
})

describe("typed JSON results", () => {
  it("are plain JSON by default and carry their type with ?typed=true", async () => {
    const { evaluate, owner, imported } = await setup()
    expect((await evaluate("Next day", { when: "2024-02-28" }, "?typed=true")).ok().result).toEqual({
      "@type": "date",
      value: "2024-02-29"
    })
    expect((await evaluate("Third", {})).ok().result).toBeCloseTo(0.3333333333)
    expect((await evaluate("Third", {}, "?typed=true")).ok().result).toEqual({
      "@type": "number",
      value: "0.3333333333333333333333333333333333"
    })
    expect((await evaluate("Birth year", { person }, "?typed=true")).ok().result).toBe(1990)
    expect((await evaluate("Window", {}, "?typed=true")).ok().result).toEqual({
      "@type": "range",
      value: "[@\"2024-01-01\"..@\"2024-12-31\"]"
    })
    // A typed result goes back in as it came out.
    const duration = { "@type": "years and months duration", value: "P1Y2M" }
    expect((await evaluate("Echo", { anything: duration }, "?typed=true")).ok().result).toEqual(duration)
    const window = (await evaluate("Window", {}, "?typed=true")).ok().result
    expect((await evaluate("Echo", { anything: window }, "?typed=true")).ok().result).toEqual(window)
    const stored = imported.decisions.find((d: { key: string }) => d.key === "Next_day")
    expect(
      (await owner.post(`/decisions/${stored.id}/evaluate-with-trace?typed=true`, {
        variables: { when: "2024-01-01" }
      }))
        .ok().trace[0].result
    ).toEqual({ "@type": "date", value: "2024-01-02" })
  })
})
