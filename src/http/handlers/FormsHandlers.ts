import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { pageRequest } from "../../schema/Common.ts"
import type { FormDefinitionId } from "../../schema/ResourceIds.ts"
import { FormDefinitions, type Transition } from "../../services/forms/FormDefinitions.ts"
import { LegacyForms } from "../../services/forms/LegacyForms.ts"
import { Api } from "../Api.ts"

export const FormDefinitionsHandlers = HttpApiBuilder.group(
  Api,
  "formDefinitions",
  Effect.fnUntraced(function*(handlers) {
    const forms = yield* FormDefinitions
    const move = (id: FormDefinitionId, transition: Transition) => forms.transition(id, transition)
    return handlers
      .handle("list", ({ query }) => forms.list({ state: query.state, key: query.key }, pageRequest(query)))
      .handle("create", ({ payload }) => forms.create(payload))
      .handle("get", ({ params }) => forms.get(params.id))
      .handle("update", ({ params, payload }) => forms.update(params.id, payload))
      .handle("remove", ({ params }) => forms.remove(params.id))
      .handle("validate", ({ params }) => move(params.id, "validate"))
      .handle("returnToDraft", ({ params }) => move(params.id, "returnToDraft"))
      .handle("publish", ({ params }) => move(params.id, "publish"))
      .handle("deploy", ({ params }) => move(params.id, "deploy"))
      .handle("retire", ({ params }) => move(params.id, "retire"))
      .handle("playground", ({ params, payload }) => forms.playground(params.id, payload.data ?? {}))
      .handle("versions", ({ params }) => forms.versions(params.id))
      .handle("diff", ({ params, query }) => forms.diff(params.id, query.from, query.to))
      .handle("restore", ({ params }) => forms.restore(params.id, params.version))
      .handle("lineage", ({ params }) => forms.lineage(params.id))
      .handle("audit", ({ params }) => forms.audit(params.id))
      .handle("locales", ({ params }) => forms.locales(params.id))
      .handle("saveLocale", ({ params, payload }) => forms.saveLocale(params.id, params.locale, payload.labels))
      .handle("removeLocale", ({ params }) => forms.removeLocale(params.id, params.locale))
      .handle("resolved", ({ params }) => forms.resolved(params.id, params.locale))
  })
)

export const LegacyFormsHandlers = HttpApiBuilder.group(
  Api,
  "legacyForms",
  Effect.fnUntraced(function*(handlers) {
    const forms = yield* LegacyForms
    return handlers
      .handle("list", ({ query }) => forms.list(query.key, pageRequest(query)))
      .handle("deploy", ({ payload }) => forms.deploy(payload.key, payload.schema))
      .handle("get", ({ params }) => forms.get(params.id))
      .handle("edit", ({ params, payload }) => forms.edit(params.id, payload.schema))
      .handle("remove", ({ params }) => forms.remove(params.id))
      .handle("migrate", ({ params }) => forms.migrate(params.id))
  })
)
