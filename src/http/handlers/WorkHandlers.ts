import { Effect, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { notFound } from "../../schema/ApiErrors.ts"
import { pageRequest } from "../../schema/Common.ts"
import type { IncidentId } from "../../schema/ResourceIds.ts"
import { FormDefinitions } from "../../services/FormDefinitions.ts"
import { IncidentRecovery } from "../../services/IncidentRecovery.ts"
import { JobRetries } from "../../services/JobRetries.ts"
import { LegacyForms } from "../../services/LegacyForms.ts"
import { TaskWork } from "../../services/TaskWork.ts"
import { Work } from "../../services/Work.ts"
import { Api } from "../Api.ts"
import { idempotently } from "../Idempotency.ts"

export const JobsHandlers = HttpApiBuilder.group(Api, "jobs", (handlers) =>
  Effect.gen(function*() {
    const work = yield* Work
    const retries = yield* JobRetries
    return handlers
      .handle("retryState", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => retries.state(principal.tenantId, params.id)))
      .handle("setRetryPolicy", ({ params, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          retries.setPolicy(principal, params.id, payload)))
      .handle("retryNow", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          retries.retryNow(principal, params.id)))
      .handle("cancelRetry", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          retries.cancelRetry(principal, params.id)))
      .handle("retryHistory", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          retries.history(principal.tenantId, params.id)))
      .handle("stream", ({ query }) =>
        Effect.map(CurrentPrincipal, (principal) => {
          // Written by hand rather than through the SSE schema: a comment first, so the headers go out at once even
          // when no job is waiting, and one every 15 quiet seconds, so proxies keep the connection.
          const frames = work.streamJobs(principal.tenantId, {
            type: query.type,
            worker: query.worker,
            timeout: query.timeout,
            fetchVariable: query.fetchVariable?.split(",").map((name) =>
              name.trim()
            ).filter((name) =>
              name !== ""
            )
          }).pipe(Stream.map((job) =>
            `data: ${JSON.stringify(job)}\n\n`
          ))
          const keepAlive = Stream.tick("15 seconds").pipe(Stream.map(() => ": keep-alive\n\n"))
          return HttpServerResponse.stream(
            Stream.encodeText(Stream.merge(frames, keepAlive, { haltStrategy: "left" })),
            { contentType: "text/event-stream", headers: { "cache-control": "no-cache" } }
          )
        }))
      .handle("activate", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          Effect.map(work.activateJobs(principal.tenantId, payload), (jobs) => ({ jobs }))))
      .handle("complete", ({ params, payload, headers }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          idempotently(
            principal,
            headers["idempotency-key"],
            `POST /jobs/${params.id}/complete`,
            payload,
            work.completeJob(principal, params.id, payload.variables ?? {}, payload.result)
          )))
      .handle("throwError", ({ params, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          work.throwError(principal, params.id, payload)))
      .handle("fail", ({ params, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          work.failJob(principal, params.id, payload)))
      .handle("retries", ({ params, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          work.updateRetries(principal, params.id, payload.retries)))
      .handle("heartbeat", ({ params, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          work.heartbeat(principal, params.id, payload)))
      .handle("list", ({ query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          work.listJobs(principal.tenantId, {
            type: query.type,
            state: query.state,
            processInstanceId: query.processInstanceId
          }, pageRequest(query))))
  }))

export const TasksHandlers = HttpApiBuilder.group(Api, "tasks", (handlers) =>
  Effect.gen(function*() {
    const work = yield* Work
    const taskWork = yield* TaskWork
    const formDefinitions = yield* FormDefinitions
    const legacyForms = yield* LegacyForms
    return handlers
      .handle("list", ({ query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          work.listTasks(principal.tenantId, {
            candidateGroup: query.candidateGroup,
            assignee: query.assignee,
            assigned: query.assigned === undefined ? undefined : query.assigned === "true",
            state: query.state,
            processInstanceId: query.processInstanceId,
            dueBefore: query.dueBefore,
            dueAfter: query.dueAfter,
            followUpBefore: query.followUpBefore,
            followUpAfter: query.followUpAfter,
            sort: query.sort
          }, pageRequest(query))))
      .handle("complete", ({ params, payload, headers }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          idempotently(
            principal,
            headers["idempotency-key"],
            `POST /tasks/${params.id}/complete`,
            payload,
            work.completeTask(principal, params.id, payload.variables ?? {})
          )))
      .handle("claim", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => taskWork.claim(principal, params.id)))
      .handle("unclaim", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          taskWork.unclaim(principal, params.id)))
      .handle("assign", ({ params, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          taskWork.assign(principal, params.id, payload.assignee)))
      .handle("update", ({ params, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          taskWork.update(principal, params.id, payload)))
      .handle("delegate", ({ params, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          taskWork.delegate(principal, params.id, payload.userId)))
      .handle("form", ({ params }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const task = yield* work.getTask(principal.tenantId, params.id)
          if (task.formKey === null) {
            return yield* notFound("form of task", params.id)
          }
          // Bound by version tag: the latest version of the form carrying that tag, nothing else.
          if (task.formVersionTag != null) {
            const tagged = yield* legacyForms.taggedForm(principal.tenantId, task.formKey, task.formVersionTag)
            if (tagged === undefined) {
              return yield* notFound("form", `${task.formKey} with version tag ${task.formVersionTag}`)
            }
            return { taskId: task.id, formKey: task.formKey, ...tagged }
          }
          const definition = yield* formDefinitions.deployedByKey(principal.tenantId, task.formKey)
          if (definition !== undefined) {
            return {
              taskId: task.id,
              formKey: task.formKey,
              source: "FORM_DEFINITION" as const,
              sourceId: definition.id,
              schema: definition.schema
            }
          }
          const legacy = yield* legacyForms.latestByKey(principal.tenantId, task.formKey)
          if (legacy !== undefined) {
            return {
              taskId: task.id,
              formKey: task.formKey,
              source: "LEGACY_FORM" as const,
              sourceId: legacy.id,
              schema: legacy.schema
            }
          }
          return yield* notFound("form", task.formKey)
        }))
      .handle("formDefinition", ({ params }) =>
        Effect.gen(function*() {
          const principal = yield* CurrentPrincipal
          const task = yield* work.getTask(principal.tenantId, params.id)
          const definition = task.formKey === null
            ? undefined
            : yield* formDefinitions.deployedByKey(principal.tenantId, task.formKey)
          if (definition === undefined) {
            return yield* notFound("form definition of task", params.id)
          }
          return definition
        }))
      .handle("comments", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          taskWork.comments(principal.tenantId, params.id)))
      .handle("addComment", ({ params, payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          taskWork.addComment(principal, params.id, payload.message)))
  }))

export const TaskFiltersHandlers = HttpApiBuilder.group(Api, "taskFilters", (handlers) =>
  Effect.gen(function*() {
    const taskWork = yield* TaskWork
    return handlers
      .handle("list", () => Effect.flatMap(CurrentPrincipal, (principal) => taskWork.filters(principal)))
      .handle("create", ({ payload }) =>
        Effect.flatMap(CurrentPrincipal, (principal) => taskWork.saveFilter(principal, payload)))
      .handle("remove", ({ params }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          taskWork.deleteFilter(principal, params.id)))
  }))

export const IncidentsHandlers = HttpApiBuilder.group(Api, "incidents", (handlers) =>
  Effect.gen(function*() {
    const work = yield* Work
    const recovery = yield* IncidentRecovery
    const recover = (id: IncidentId, action: Parameters<typeof recovery.recover>[2]) =>
      Effect.flatMap(CurrentPrincipal, (principal) => recovery.recover(principal, id, action))
    return handlers
      .handle("list", ({ query }) =>
        Effect.flatMap(CurrentPrincipal, (principal) =>
          work.listIncidents(
            principal.tenantId,
            { state: query.state, processInstanceId: query.processInstanceId },
            pageRequest(query)
          )))
      .handle("retry", ({ params }) => recover(params.id, { kind: "retry" }))
      .handle("skipNode", ({ params }) => recover(params.id, { kind: "skip" }))
      .handle("restartFromNode", ({ params, payload }) =>
        recover(params.id, { kind: "restartFromNode", nodeId: payload.nodeId }))
      .handle("rollback", ({ params, payload }) =>
        recover(params.id, { kind: "rollback", eventSeq: payload.eventSeq }))
      .handle("editVariablesAndRetry", ({ params, payload }) =>
        recover(params.id, { kind: "editVariablesAndRetry", variables: payload.variables }))
  }))
