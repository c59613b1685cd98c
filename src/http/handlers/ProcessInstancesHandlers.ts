import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { recordResource } from "../../auth/RequestState.ts"
import { notFound } from "../../schema/ApiErrors.ts"
import { pageRequest } from "../../schema/Common.ts"
import { ProcessInstances } from "../../services/instances/ProcessInstances.ts"
import { Api } from "../Api.ts"
import { idempotently } from "../Idempotency.ts"

export const ProcessInstancesHandlers = HttpApiBuilder.group(
  Api,
  "processInstances",
  Effect.fnUntraced(function*(handlers) {
    const instances = yield* ProcessInstances
    return handlers
      .handle(
        "start",
        Effect.fnUntraced(function*({ payload, headers }) {
          const principal = yield* CurrentPrincipal
          const instance = yield* idempotently(
            principal,
            headers["idempotency-key"],
            "POST /process-instances",
            payload,
            instances.start(principal, payload.deploymentId, payload.variables ?? {})
          )
          yield* recordResource("process-instances", instance.id)
          return instance
        })
      )
      .handle("list", ({ query }) =>
        instances.list({
          deploymentId: query.deploymentId,
          processKey: query.processKey,
          state: query.state,
          hasIncident: query.hasIncident === undefined ? undefined : query.hasIncident === "true",
          startedAfter: query.startedAfter,
          startedBefore: query.startedBefore,
          endedAfter: query.endedAfter,
          endedBefore: query.endedBefore,
          variableName: query.variableName,
          variableValue: query.variableValue
        }, pageRequest(query)))
      .handle(
        "get",
        ({ params }) => instances.get(params.id)
      )
      .handle(
        "remove",
        ({ params }) => instances.remove(params.id)
      )
      .handle(
        "cancel",
        ({ params }) =>
          Effect.flatMap(
            CurrentPrincipal,
            (principal) => instances.command(principal, params.id, { type: "CancelInstance" })
          )
      )
      .handle(
        "suspend",
        ({ params }) =>
          Effect.flatMap(
            CurrentPrincipal,
            (principal) => instances.command(principal, params.id, { type: "SuspendInstance" })
          )
      )
      .handle(
        "resume",
        ({ params }) =>
          Effect.flatMap(
            CurrentPrincipal,
            (principal) => instances.command(principal, params.id, { type: "ResumeInstance" })
          )
      )
      .handle(
        "moveToken",
        ({ params, payload }) =>
          Effect.flatMap(CurrentPrincipal, (principal) =>
            instances.command(principal, params.id, {
              type: "MoveToken",
              sourceNodeId: payload.sourceNodeId,
              targetNodeId: payload.targetNodeId,
              ...(payload.tokenId === undefined ? {} : { tokenId: payload.tokenId }),
              variables: payload.variables ?? {}
            }))
      )
      .handle(
        "migrate",
        ({ payload }) =>
          Effect.flatMap(CurrentPrincipal, (principal) =>
            instances.migrate(principal, {
              processInstanceIds: payload.processInstanceIds,
              targetDeploymentId: payload.targetDeploymentId,
              mappings: payload.mappings ?? [],
              mapEqualNodes: payload.mapEqualNodes ?? false
            }))
      )
      .handle(
        "history",
        ({ params, query }) => instances.history(params.id, pageRequest(query))
      )
      .handle(
        "snapshot",
        ({ params }) => instances.snapshot(params.id, params.eventSeq)
      )
      .handle(
        "tokens",
        ({ params }) => instances.tokens(params.id)
      )
      .handle(
        "eventSubscriptions",
        ({ params }) => instances.subscriptions(params.id)
      )
      .handle(
        "getVariables",
        ({ params }) => instances.variables(params.id)
      )
      .handle(
        "updateVariables",
        Effect.fnUntraced(function*({ params, payload }) {
          const principal = yield* CurrentPrincipal
          yield* instances.command(principal, params.id, {
            type: "SetVariables",
            variables: payload.variables,
            ...(payload.expectedVersion === undefined ? {} : { expectedVersion: payload.expectedVersion })
          })
          return yield* instances.variables(params.id)
        })
      )
      .handle(
        "nodeVariables",
        ({ params }) => instances.nodeVariables(params.id)
      )
      .handle(
        "setNodeVariables",
        Effect.fnUntraced(function*({ params, payload }) {
          const principal = yield* CurrentPrincipal
          yield* instances.command(principal, params.id, {
            type: "SetNodeVariables",
            nodeId: params.nodeId,
            variables: payload.variables
          })
          const all = yield* instances.nodeVariables(params.id)
          return all.find((entry) => entry.nodeId === params.nodeId) ?? { nodeId: params.nodeId, variables: {} }
        })
      )
  })
)

export const ScopesHandlers = HttpApiBuilder.group(
  Api,
  "scopes",
  Effect.fnUntraced(function*(handlers) {
    const instances = yield* ProcessInstances
    const find = (scopeId: string, name: string) =>
      Effect.flatMap(instances.scopeVariables(scopeId), (variables) => {
        const found = variables.find((variable) => variable.name === name)
        return found === undefined
          ? Effect.fail(notFound("variable", `${name} in scope ${scopeId}`))
          : Effect.succeed(found)
      })
    return handlers
      .handle("list", ({ params }) => instances.scopeVariables(params.scopeId))
      .handle("get", ({ params }) => find(params.scopeId, params.name))
      .handle(
        "set",
        Effect.fnUntraced(function*({ params, payload }) {
          const principal = yield* CurrentPrincipal
          const instanceId = yield* instances.instanceOfScope(params.scopeId)
          yield* recordResource("scopes", params.scopeId)
          yield* instances.command(principal, instanceId, {
            type: "SetScopeVariable",
            scopeId: params.scopeId,
            name: params.name,
            value: payload.value
          })
          return yield* find(params.scopeId, params.name)
        })
      )
      .handle(
        "remove",
        Effect.fnUntraced(function*({ params }) {
          const principal = yield* CurrentPrincipal
          const instanceId = yield* instances.instanceOfScope(params.scopeId)
          yield* recordResource("scopes", params.scopeId)
          const removed = yield* find(params.scopeId, params.name)
          yield* instances.command(principal, instanceId, {
            type: "RemoveScopeVariable",
            scopeId: params.scopeId,
            name: params.name
          })
          return removed
        })
      )
  })
)
