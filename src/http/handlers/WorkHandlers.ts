import { Effect, Stream } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { notFound } from "../../schema/ApiErrors.ts"
import { pageRequest } from "../../schema/Common.ts"
import { FormDefinitions } from "../../services/forms/FormDefinitions.ts"
import { LegacyForms } from "../../services/forms/LegacyForms.ts"
import { IncidentRecovery } from "../../services/instances/IncidentRecovery.ts"
import { JobRetries } from "../../services/work/JobRetries.ts"
import { TaskWork } from "../../services/work/TaskWork.ts"
import { Work } from "../../services/work/Work.ts"
import { Api } from "../Api.ts"
import { idempotently } from "../Idempotency.ts"

// Jobs, tasks and incidents: the services read the request's tenant (CurrentTenant) and caller (CurrentPrincipal)
// themselves; the job-changing ones and idempotency are handed the caller (workers outside a request send theirs).
export const JobsHandlers = HttpApiBuilder.group(
  Api,
  "jobs",
  Effect.fnUntraced(function*(handlers) {
    const work = yield* Work
    const retries = yield* JobRetries
    return handlers
      .handle("retryState", ({ params }) => retries.state(params.id))
      .handle("setRetryPolicy", ({ params, payload }) => retries.setPolicy(params.id, payload))
      .handle("retryNow", ({ params }) => retries.retryNow(params.id))
      .handle("cancelRetry", ({ params }) => retries.cancelRetry(params.id))
      .handle("retryHistory", ({ params }) => retries.history(params.id))
      .handle("stream", ({ query }) =>
        Effect.map(
          work.streamJobs({
            type: query.type,
            worker: query.worker,
            timeout: query.timeout,
            fetchVariable: query.fetchVariable?.split(",").map((name) => name.trim()).filter((name) => name !== "")
          }),
          (jobs) => {
            // Written by hand rather than through the SSE schema: a comment first, so the headers go out at once even
            // when no job is waiting, and one every 15 quiet seconds, so proxies keep the connection.
            const frames = jobs.pipe(Stream.map((job) => `data: ${JSON.stringify(job)}\n\n`))
            const keepAlive = Stream.tick("15 seconds").pipe(Stream.map(() => ": keep-alive\n\n"))
            return HttpServerResponse.stream(
              Stream.encodeText(Stream.merge(frames, keepAlive, { haltStrategy: "left" })),
              { contentType: "text/event-stream", headers: { "cache-control": "no-cache" } }
            )
          }
        ))
      .handle("activate", ({ payload }) => Effect.map(work.activateJobs(payload), (jobs) => ({ jobs })))
      .handle(
        "complete",
        ({ params, payload, headers }) =>
          Effect.flatMap(CurrentPrincipal, (principal) =>
            idempotently(
              principal,
              headers["idempotency-key"],
              `POST /jobs/${params.id}/complete`,
              payload,
              work.completeJob(principal, params.id, payload.variables ?? {}, payload.result)
            ))
      )
      .handle(
        "throwError",
        ({ params, payload }) =>
          Effect.flatMap(CurrentPrincipal, (principal) => work.throwError(principal, params.id, payload))
      )
      .handle(
        "fail",
        ({ params, payload }) =>
          Effect.flatMap(CurrentPrincipal, (principal) => work.failJob(principal, params.id, payload))
      )
      .handle(
        "retries",
        ({ params, payload }) =>
          Effect.flatMap(CurrentPrincipal, (principal) => work.updateRetries(principal, params.id, payload.retries))
      )
      .handle(
        "heartbeat",
        ({ params, payload }) =>
          Effect.flatMap(CurrentPrincipal, (principal) => work.heartbeat(principal, params.id, payload))
      )
      .handle("list", ({ query }) =>
        work.listJobs({
          type: query.type,
          state: query.state,
          processInstanceId: query.processInstanceId
        }, pageRequest(query)))
  })
)

export const TasksHandlers = HttpApiBuilder.group(
  Api,
  "tasks",
  Effect.fnUntraced(function*(handlers) {
    const work = yield* Work
    const taskWork = yield* TaskWork
    const formDefinitions = yield* FormDefinitions
    const legacyForms = yield* LegacyForms
    return handlers
      .handle("list", ({ query }) =>
        work.listTasks({
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
        }, pageRequest(query)))
      .handle(
        "complete",
        ({ params, payload, headers }) =>
          Effect.flatMap(CurrentPrincipal, (principal) =>
            idempotently(
              principal,
              headers["idempotency-key"],
              `POST /tasks/${params.id}/complete`,
              payload,
              work.completeTask(params.id, payload.variables ?? {})
            ))
      )
      .handle("claim", ({ params }) => taskWork.claim(params.id))
      .handle("unclaim", ({ params }) => taskWork.unclaim(params.id))
      .handle("assign", ({ params, payload }) => taskWork.assign(params.id, payload.assignee))
      .handle("update", ({ params, payload }) => taskWork.update(params.id, payload))
      .handle("delegate", ({ params, payload }) => taskWork.delegate(params.id, payload.userId))
      .handle(
        "form",
        Effect.fnUntraced(function*({ params }) {
          const task = yield* work.getTask(params.id)
          if (task.formKey === null) {
            return yield* notFound("form of task", params.id)
          }
          // Bound by deployment: the form deployed together with the task's process version, nothing else.
          if (task.formBinding === "deployment") {
            const together = yield* legacyForms.formDeployedWith(task.formKey, task.processInstanceId)
            if (together === undefined) {
              return yield* notFound("form", `${task.formKey} in the deployment of the task's process version`)
            }
            return { taskId: task.id, formKey: task.formKey, ...together }
          }
          // Bound by version tag: the latest version of the form carrying that tag, nothing else.
          if (task.formVersionTag != null) {
            const tagged = yield* legacyForms.taggedForm(task.formKey, task.formVersionTag)
            if (tagged === undefined) {
              return yield* notFound("form", `${task.formKey} with version tag ${task.formVersionTag}`)
            }
            return { taskId: task.id, formKey: task.formKey, ...tagged }
          }
          const definition = yield* formDefinitions.deployedByKey(task.formKey)
          if (definition !== undefined) {
            return {
              taskId: task.id,
              formKey: task.formKey,
              source: "FORM_DEFINITION" as const,
              sourceId: definition.id,
              schema: definition.schema
            }
          }
          const legacy = yield* legacyForms.latestByKey(task.formKey)
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
        })
      )
      .handle(
        "formDefinition",
        Effect.fnUntraced(function*({ params }) {
          const task = yield* work.getTask(params.id)
          const definition = task.formKey === null ? undefined : yield* formDefinitions.deployedByKey(task.formKey)
          if (definition === undefined) {
            return yield* notFound("form definition of task", params.id)
          }
          return definition
        })
      )
      .handle("comments", ({ params }) => taskWork.comments(params.id))
      .handle("addComment", ({ params, payload }) => taskWork.addComment(params.id, payload.message))
  })
)

export const TaskFiltersHandlers = HttpApiBuilder.group(
  Api,
  "taskFilters",
  Effect.fnUntraced(function*(handlers) {
    const taskWork = yield* TaskWork
    return handlers
      .handle("list", () => taskWork.filters)
      .handle("create", ({ payload }) => taskWork.saveFilter(payload))
      .handle("remove", ({ params }) => taskWork.deleteFilter(params.id))
  })
)

export const IncidentsHandlers = HttpApiBuilder.group(
  Api,
  "incidents",
  Effect.fnUntraced(function*(handlers) {
    const work = yield* Work
    const recovery = yield* IncidentRecovery
    return handlers
      .handle(
        "list",
        ({ query }) =>
          work.listIncidents({ state: query.state, processInstanceId: query.processInstanceId }, pageRequest(query))
      )
      .handle("retry", ({ params }) => recovery.recover(params.id, { kind: "retry" }))
      .handle("skipNode", ({ params }) => recovery.recover(params.id, { kind: "skip" }))
      .handle(
        "restartFromNode",
        ({ params, payload }) => recovery.recover(params.id, { kind: "restartFromNode", nodeId: payload.nodeId })
      )
      .handle(
        "rollback",
        ({ params, payload }) => recovery.recover(params.id, { kind: "rollback", eventSeq: payload.eventSeq })
      )
      .handle(
        "editVariablesAndRetry",
        ({ params, payload }) =>
          recovery.recover(params.id, { kind: "editVariablesAndRetry", variables: payload.variables })
      )
  })
)
