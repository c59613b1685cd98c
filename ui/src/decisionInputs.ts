// The evaluate form's controls: one per value to enter, by its declared type (DMN typeRef) — number, boolean, date,
// time, date and time (pickers, sent explicitly typed as { "@type", value }), durations (ISO text), allowed values as
// a choice, anything else JSON — and how an entry lands in the variables.
import type { DmnVariable } from "./dmn.ts"
import { field, h } from "./dom.ts"

const NUMBERS = new Set(["number", "integer", "int", "long", "double", "decimal", "float", "short"])
/** Types sent explicitly typed ({ "@type", value }), so tables that declare none read them right too. */
const TEMPORAL: Record<string, { readonly type: string; readonly input: string; readonly hint?: string }> = {
  date: { type: "date", input: "date" },
  time: { type: "time", input: "time" },
  "date and time": { type: "date and time", input: "datetime-local" },
  dateTime: { type: "date and time", input: "datetime-local" },
  "days and time duration": { type: "days and time duration", input: "text", hint: "ISO 8601, e.g. P2DT4H" },
  dayTimeDuration: { type: "days and time duration", input: "text", hint: "ISO 8601, e.g. P2DT4H" },
  "years and months duration": { type: "years and months duration", input: "text", hint: "ISO 8601, e.g. P1Y6M" },
  yearMonthDuration: { type: "years and months duration", input: "text", hint: "ISO 8601, e.g. P1Y6M" },
  duration: { type: "duration", input: "text", hint: "ISO 8601, e.g. P3D or P1Y" }
}

/** `"low","high"` → ["low", "high"]; anything but a list of quoted texts → undefined. */
const quotedChoices = (allowed: string | null): ReadonlyArray<string> | undefined => {
  if (allowed === null) return undefined
  const parts = allowed.split(",").map((part) => part.trim())
  return parts.every((part) => /^"[^"]*"$/.test(part)) ? parts.map((part) => part.slice(1, -1)) : undefined
}

export interface Control {
  readonly element: HTMLElement
  /** The value to send; undefined leaves the variable out. Throws when the entry does not fit the type. */
  readonly read: () => unknown
}

export const inputControl = (variable: DmnVariable): Control => {
  const type = variable.typeRef ?? ""
  const label = variable.label
  const hint = (typeName: string) => (variable.label === variable.name ? typeName : `${variable.name} · ${typeName}`)
  const testId = `input-${variable.name}`
  if (NUMBERS.has(type)) {
    const input = h("input", { type: "number", step: "any", "data-testid": testId })
    return {
      element: field(label, input, hint(type)),
      read: () => {
        if (input.value.trim() === "") return undefined
        const value = Number(input.value)
        if (!Number.isFinite(value)) throw new Error(`${label} must be a number`)
        return value
      }
    }
  }
  if (type === "boolean") {
    const select = h(
      "select",
      { "data-testid": testId },
      h("option", { value: "" }, "—"),
      h("option", { value: "true" }, "true"),
      h("option", { value: "false" }, "false")
    )
    return {
      element: field(label, select, hint(type)),
      read: () => (select.value === "" ? undefined : select.value === "true")
    }
  }
  const temporal = TEMPORAL[type]
  if (temporal !== undefined) {
    const input = h("input", {
      type: temporal.input,
      step: temporal.input === "text" ? undefined : 1,
      placeholder: temporal.hint,
      "data-testid": testId
    })
    return {
      element: field(label, input, hint(type)),
      read: () => {
        const value = input.value.trim()
        if (value === "") return undefined
        // Without seconds the browser answers "10:30"; FEEL wants "10:30:00".
        const full = (temporal.input === "time" && /^\d\d:\d\d$/.test(value)) ||
            (temporal.input === "datetime-local" && /T\d\d:\d\d$/.test(value))
          ? `${value}:00`
          : value
        return { "@type": temporal.type, value: full }
      }
    }
  }
  const choices = quotedChoices(variable.allowedValues)
  if (choices !== undefined) {
    const select = h(
      "select",
      { "data-testid": testId },
      h("option", { value: "" }, "—"),
      choices.map((choice) => h("option", { value: choice }, choice))
    )
    return {
      element: field(label, select, hint(type || "string")),
      read: () => (select.value === "" ? undefined : select.value)
    }
  }
  if (type === "string") {
    const input = h("input", { type: "text", "data-testid": testId })
    return { element: field(label, input, hint(type)), read: () => (input.value === "" ? undefined : input.value) }
  }
  // Undeclared, Any, lists, contexts, item definitions: JSON (a bare word is taken as text when nothing is declared).
  const input = h("input", { type: "text", placeholder: "JSON value", "data-testid": testId })
  return {
    element: field(label, input, hint(type || "any: JSON or text")),
    read: () => {
      const value = input.value.trim()
      if (value === "") return undefined
      try {
        return JSON.parse(value)
      } catch {
        if (type === "" || type === "Any") return value
        throw new Error(`${label} (${type}) must be JSON`)
      }
    }
  }
}

/** Sets a value at a path, making the objects on the way. */
export const setPath = (target: Record<string, unknown>, path: ReadonlyArray<string>, value: unknown) => {
  let node = target
  for (const part of path.slice(0, -1)) {
    const next = node[part]
    node = (node[part] = typeof next === "object" && next !== null ? next : {}) as Record<string, unknown>
  }
  node[path[path.length - 1]!] = value
}
