// How the migration screen shows the service's refusals: a plan refused (its summary and each problem on a line),
// and instances that changed meanwhile and were not migrated.
import { ApiError, type MigrationResult } from "../../api.ts"
import { h, shortId } from "../../dom.ts"

/** An API refusal with its detail entries, one per line. */
export const problemBox = (title: string, error: unknown) =>
  h(
    "div",
    { class: "alert alert-danger", role: "alert", "data-testid": "migration-error" },
    h("strong", null, title),
    error instanceof ApiError
      ? [
        // The summary repeats the details after its colon ("cannot be applied: a; b"): the list says them once.
        h("div", null, error.errors.length === 0 ? error.summary : error.summary.replace(/:.*$/s, ":")),
        error.errors.length === 0
          ? null
          : h("ul", { class: "problem-list" }, error.errors.map((detail) => h("li", null, detail.message))),
        h("div", { class: "muted small" }, `${error.code} · correlation id ${error.correlationId}`)
      ]
      : h("div", null, error instanceof Error ? error.message : String(error))
  )

/** A migration that moved some instances: the others changed between the check and their move. */
export const partialFailure = (result: MigrationResult) =>
  h(
    "div",
    { class: "alert alert-danger", "data-testid": "migration-error" },
    h("strong", null, `${result.migratedCount} migrated; ${result.failed.length} changed meanwhile and were not:`),
    h(
      "ul",
      { class: "problem-list" },
      result.failed.map((failure) => h("li", null, shortId(failure.processInstanceId), " ", failure.message))
    )
  )
