import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { pageRequest } from "../../schema/Common.ts"
import type { FormDefinitionId } from "../../schema/ResourceIds.ts"
import { FormDefinitions, type Transition } from "../../services/FormDefinitions.ts"
import { LegacyForms } from "../../services/LegacyForms.ts"
import { Api } from "../Api.ts"

export const FormDefinitionsHandlers = HttpApiBuilder.group(
  Api,
  "formDefinitions",
  (handlers) =>
    Effect.gen(function*() {
      const forms = yield* FormDefinitions
      const move = (id: FormDefinitionId, transition: Transition) =>
        Effect.flatMap(CurrentPrincipal, (p) => forms.transition(p, id, transition))
      return handlers
        .handle(
          "list",
          ({ query }) =>
            Effect.flatMap(CurrentPrincipal, (p) =>
              forms.list(p.tenantId, { state: query.state, key: query.key }, pageRequest(query)))
        )
        .handle("create", ({ payload }) =>
          Effect.flatMap(CurrentPrincipal, (p) => forms.create(p, payload)))
        .handle("get", ({ params }) => Effect.flatMap(CurrentPrincipal, (p) => forms.get(p.tenantId, params.id)))
        .handle(
          "update",
          ({ params, payload }) => Effect.flatMap(CurrentPrincipal, (p) => forms.update(p, params.id, payload))
        )
        .handle("remove", ({ params }) => Effect.flatMap(CurrentPrincipal, (p) => forms.remove(p, params.id)))
        .handle("validate", ({ params }) => move(params.id, "validate"))
        .handle("returnToDraft", ({ params }) => move(params.id, "returnToDraft"))
        .handle("publish", ({ params }) => move(params.id, "publish"))
        .handle("deploy", ({ params }) => move(params.id, "deploy"))
        .handle("retire", ({ params }) => move(params.id, "retire"))
        .handle(
          "playground",
          ({ params, payload }) =>
            Effect.flatMap(CurrentPrincipal, (p) => forms.playground(p.tenantId, params.id, payload.data ?? {}))
        )
        .handle(
          "versions",
          ({ params }) => Effect.flatMap(CurrentPrincipal, (p) => forms.versions(p.tenantId, params.id))
        )
        .handle(
          "diff",
          ({ params, query }) =>
            Effect.flatMap(CurrentPrincipal, (p) => forms.diff(p.tenantId, params.id, query.from, query.to))
        )
        .handle(
          "restore",
          ({ params }) => Effect.flatMap(CurrentPrincipal, (p) => forms.restore(p, params.id, params.version))
        )
        .handle(
          "lineage",
          ({ params }) => Effect.flatMap(CurrentPrincipal, (p) => forms.lineage(p.tenantId, params.id))
        )
        .handle("audit", ({ params }) => Effect.flatMap(CurrentPrincipal, (p) => forms.audit(p.tenantId, params.id)))
        .handle(
          "locales",
          ({ params }) => Effect.flatMap(CurrentPrincipal, (p) => forms.locales(p.tenantId, params.id))
        )
        .handle(
          "saveLocale",
          ({ params, payload }) =>
            Effect.flatMap(CurrentPrincipal, (p) => forms.saveLocale(p, params.id, params.locale, payload.labels))
        )
        .handle(
          "removeLocale",
          ({ params }) => Effect.flatMap(CurrentPrincipal, (p) => forms.removeLocale(p, params.id, params.locale))
        )
        .handle(
          "resolved",
          ({ params }) => Effect.flatMap(CurrentPrincipal, (p) => forms.resolved(p.tenantId, params.id, params.locale))
        )
    })
)

export const LegacyFormsHandlers = HttpApiBuilder.group(Api, "legacyForms", (handlers) =>
  Effect.gen(function*() {
    const forms = yield* LegacyForms
    return handlers
      .handle("list", ({ query }) =>
        Effect.flatMap(CurrentPrincipal, (p) => forms.list(p.tenantId, query.key, pageRequest(query))))
      .handle("deploy", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (p) =>
          forms.deploy(p, payload.key, payload.schema)))
      .handle("get", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (p) =>
          forms.get(p.tenantId, params.id)))
      .handle("edit", ({ params, payload }) =>
        Effect.flatMap(CurrentPrincipal, (p) =>
          forms.edit(p, params.id, payload.schema)))
      .handle("remove", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (p) => forms.remove(p.tenantId, params.id)))
      .handle("migrate", ({ params }) => Effect.flatMap(CurrentPrincipal, (p) => forms.migrate(p, params.id)))
  }))
