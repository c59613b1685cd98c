import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { pageRequest } from "../../schema/Common.ts"
import { ProcessInstances } from "../../services/ProcessInstances.ts"
import { Api } from "../Api.ts"
import { recordResource } from "../RequestState.ts"

export const ProcessInstancesHandlers = HttpApiBuilder.group(Api, "processInstances", (handlers) =>
  Effect.gen(function*() {
    const instances = yield* ProcessInstances
    return handlers
      .handle("start", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const instance = yield* instances.start(principal, payload.deploymentId, payload.variables ?? {})
          yield* recordResource("process-instances", instance.id)
          return instance
        }))
      .handle("list", ({ query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          instances.list(principal.tenantId, {
            deploymentId: query.deploymentId,
            processKey: query.processKey,
            state: query.state,
            hasIncident: query.hasIncident === undefined ? undefined : query.hasIncident === "true",
            startedAfter: query.startedAfter,
            startedBefore: query.startedBefore,
            endedAfter: query.endedAfter,
            endedBefore: query.endedBefore
          }, pageRequest(query))))
      .handle("get", ({ params }) => Effect.flatMap(CurrentPrincipal, (principal) => instances.get(principal.tenantId, params.id)))
      .handle("remove", ({ params }) => Effect.flatMap(CurrentPrincipal, (principal) => instances.remove(principal.tenantId, params.id)))
      .handle("cancel", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => instances.command(principal, params.id, { type: "CancelInstance" })))
      .handle("suspend", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => instances.command(principal, params.id, { type: "SuspendInstance" })))
      .handle("resume", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => instances.command(principal, params.id, { type: "ResumeInstance" })))
      .handle("history", ({ params, query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => instances.history(principal.tenantId, params.id, pageRequest(query))))
      .handle("snapshot", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => instances.snapshot(principal.tenantId, params.id, params.eventSeq)))
      .handle("tokens", ({ params }) => Effect.flatMap(CurrentPrincipal, (principal) => instances.tokens(principal.tenantId, params.id)))
      .handle("eventSubscriptions", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => instances.subscriptions(principal.tenantId, params.id)))
      .handle("getVariables", ({ params }) => Effect.flatMap(CurrentPrincipal, (principal) => instances.variables(principal.tenantId, params.id)))
      .handle("updateVariables", ({ params, payload }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          yield* instances.command(principal, params.id, {
            type: "SetVariables",
            variables: payload.variables,
            ...(payload.expectedVersion === undefined ? {} : { expectedVersion: payload.expectedVersion })
          })
          return yield* instances.variables(principal.tenantId, params.id)
        }))
  }))
