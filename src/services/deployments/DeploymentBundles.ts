// A deployment of several resources at once (POST /deployments with {"resources": [...]}), as Camunda 8 deploys
// several files in one deployment: BPMN processes (.bpmn, .xml), DMN models (.dmn) and forms (.form, form-js JSON).
// Each process becomes a version of its key as a single deployment would, each DMN model a decision model, each form
// a deployed form; all of them share one bundle id, within which bindingType="deployment" resolves (Zeebe's rule:
// the resource deployed together with the calling process version). Refused whole, before anything is stored, with
// a 400 VALIDATION_ERROR: an unreadable or invalid resource (named), an id deployed twice in the request, no process,
// or an element binding by deployment to a resource the request does not hold (Zeebe's BpmnDeploymentBindingValidator).
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { CurrentTenant } from "../../auth/CurrentTenant.ts"
import type { CurrentPrincipal } from "../../auth/Principal.ts"
import type { ProcessGraph } from "../../bpmn/ProcessGraph.ts"
import { ValidationError } from "../../schema/ApiErrors.ts"
import type { DeployedResource, Deployment, DeploymentBundle } from "../../schema/Deployments.ts"
import { DecisionEngine } from "../decisions/DecisionEngine.ts"
import { Decisions } from "../decisions/Decisions.ts"
import { LegacyForms } from "../forms/LegacyForms.ts"
import { newId } from "../Ids.ts"
import { checkDeploymentBinding } from "./DeploymentBindingCheck.ts"
import { Deployments } from "./Deployments.ts"
import { type CompiledModel, ProcessModels } from "./ProcessModels.ts"

type Resource = (typeof DeploymentBundle.Type)["resources"][number]

/** A resource read and checked, ready to store. */
type Read =
  | { readonly kind: "PROCESS"; readonly name: string; readonly model: CompiledModel; readonly xml: string }
  | { readonly kind: "DECISION"; readonly name: string; readonly keys: ReadonlyArray<string>; readonly xml: string }
  | {
    readonly kind: "FORM"
    readonly name: string
    readonly key: string
    readonly form: Readonly<Record<string, unknown>>
  }

const refused = (name: string, message: string, code = "INVALID_RESOURCE") =>
  new ValidationError({ message: `${name}: ${message}`, errors: [{ field: name, message, code }] })

/** A resource's own problems, each prefixed with its name. */
const named = (name: string) => (error: ValidationError) =>
  new ValidationError({
    message: `${name}: ${error.message}`,
    errors: error.errors.map((e) => ({ ...e, message: `${name}: ${e.message}` }))
  })

const formOf = (resource: Resource): Effect.Effect<Read, ValidationError> => {
  let json: unknown
  try {
    json = JSON.parse(resource.content)
  } catch {
    return Effect.fail(refused(resource.name, "a form must be JSON (form-js, as Camunda Modeler saves a .form)"))
  }
  const id = typeof json === "object" && json !== null && !Array.isArray(json) ? (json as { id?: unknown }).id : null
  return typeof id === "string" && id !== ""
    ? Effect.succeed({ kind: "FORM", name: resource.name, key: id, form: json as Record<string, unknown> })
    : Effect.fail(refused(resource.name, "a form needs its id (the top-level `id` a user task's formId names)"))
}

/** The ids deployed twice in one request (Zeebe refuses a duplicated process or decision id as well). */
const duplicates = (read: ReadonlyArray<Read>): ReadonlyArray<string> => {
  const seen = new Set<string>()
  const twice: Array<string> = []
  for (const r of read) {
    const ids = r.kind === "PROCESS" ? [r.model.key] : r.kind === "DECISION" ? r.keys : [r.key]
    for (const id of ids) {
      const tagged = `${r.kind.toLowerCase()} ${id}`
      if (seen.has(tagged)) twice.push(tagged)
      seen.add(tagged)
    }
  }
  return twice
}

export interface DeploymentBundlesShape {
  /** Deploys every resource or none; answers the first process's deployment with every resource deployed. */
  readonly deploy: (
    bundle: typeof DeploymentBundle.Type
  ) => Effect.Effect<Deployment, ValidationError, CurrentTenant | CurrentPrincipal>
}

export class DeploymentBundles
  extends Context.Service<DeploymentBundles, DeploymentBundlesShape>()("flowcore/DeploymentBundles")
{
  static readonly layer = Layer.effect(
    DeploymentBundles,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const models = yield* ProcessModels
      const dmn = yield* DecisionEngine
      const deployments = yield* Deployments
      const decisions = yield* Decisions
      const forms = yield* LegacyForms

      const read = (resource: Resource): Effect.Effect<Read, ValidationError> => {
        const extension = resource.name.toLowerCase().split(".").pop()
        if (extension === "bpmn" || extension === "xml") {
          return models.fromXml(resource.content).pipe(
            Effect.map((model) => ({ kind: "PROCESS" as const, name: resource.name, model, xml: resource.content })),
            Effect.mapError(named(resource.name))
          )
        }
        if (extension === "dmn") {
          return dmn.parse(resource.content).pipe(
            Effect.map((model) => ({
              kind: "DECISION" as const,
              name: resource.name,
              keys: model.decisions.map((d) => d.key),
              xml: resource.content
            })),
            Effect.mapError(named(resource.name))
          )
        }
        if (extension === "form") return formOf(resource)
        return Effect.fail(
          refused(resource.name, "unknown kind of resource: name it .bpmn (or .xml), .dmn or .form")
        )
      }

      const store = Effect.fnUntraced(function*(bundleId: string, r: Read) {
        if (r.kind === "PROCESS") {
          const deployment = yield* deployments.deployInBundle(r.model, { format: "BPMN_XML", xml: r.xml }, bundleId)
          const entry: DeployedResource = {
            name: r.name,
            kind: "PROCESS",
            id: deployment.id,
            key: deployment.key,
            version: deployment.version
          }
          return { deployment, entries: [entry] }
        }
        if (r.kind === "DECISION") {
          const model = yield* decisions.importXml(r.xml, bundleId)
          const entries = model.decisions.map((d): DeployedResource => ({
            name: r.name,
            kind: "DECISION",
            id: d.id,
            key: d.key,
            version: d.version
          }))
          return { deployment: undefined, entries }
        }
        const form = yield* forms.deployInBundle(r.key, r.form, bundleId)
        const entry: DeployedResource = {
          name: r.name,
          kind: "FORM",
          id: form.id,
          key: form.key,
          version: form.version
        }
        return { deployment: undefined, entries: [entry] }
      })

      return {
        deploy: Effect.fnUntraced(function*(bundle) {
          const all = yield* Effect.forEach(bundle.resources, read)
          const twice = duplicates(all)
          if (twice.length > 0) {
            return yield* refused("resources", `deployed twice in one deployment: ${twice.join(", ")}`, "DUPLICATE")
          }
          const processes = all.flatMap((r) => (r.kind === "PROCESS" ? [r.model] : []))
          if (processes.length === 0) {
            return yield* refused(
              "resources",
              "a deployment holds at least one process (.bpmn); deploy decisions alone with POST /decisions/import, forms with POST /forms"
            )
          }
          yield* checkDeploymentBinding(processes.map((m) => m.graph as ProcessGraph), {
            processes: new Set(processes.map((m) => m.key)),
            decisions: new Set(all.flatMap((r) => (r.kind === "DECISION" ? r.keys : []))),
            forms: new Set(all.flatMap((r) => (r.kind === "FORM" ? [r.key] : [])))
          })
          const bundleId = yield* newId
          const stored = yield* sql.withTransaction(Effect.forEach(all, (r) => store(bundleId, r))).pipe(
            Effect.catchTag("SqlError", Effect.die)
          )
          const first = stored.find((s) => s.deployment !== undefined)!.deployment!
          return { ...first, resources: stored.flatMap((s) => s.entries) }
        })
      }
    })
  )
}
