// Working on human tasks beyond completing them: claim, unclaim, assign and delegate (Flowable's delegation: the
// task goes to the delegate and returns to its owner when the delegate completes it), the comment thread, and saved
// task-list filters. Assignment lives on the task row; every change is audited by the HTTP middleware. A task whose
// model has assigning listeners (Camunda 8.8) is assigned through its instance instead: the listeners run first (and
// may correct or deny the assignee), so the reply shows the task as it was until they have completed.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Principal } from "../auth/Principal.ts"
import { fromJson, toJson } from "../persistence/SqlValues.ts"
import {
  type BusinessError,
  businessError,
  type Conflict,
  conflict,
  type NotFound,
  notFound,
  type ValidationError
} from "../schema/ApiErrors.ts"
import { ProcessInstanceId, type TaskFilterId, TaskId } from "../schema/ResourceIds.ts"
import type { CreateTaskFilter, TaskComment, TaskFilter, UpdateTask, UserTask } from "../schema/Work.ts"
import { newId } from "./Ids.ts"
import { ProcessInstances } from "./ProcessInstances.ts"
import { isoFromDb, nowMillis } from "./Time.ts"
import { Work } from "./Work.ts"

type Failure = NotFound | Conflict | BusinessError

export interface TaskWorkShape {
  readonly claim: (principal: Principal, taskId: TaskId) => Effect.Effect<UserTask, Failure>
  readonly unclaim: (principal: Principal, taskId: TaskId) => Effect.Effect<UserTask, Failure>
  readonly assign: (principal: Principal, taskId: TaskId, assignee: string) => Effect.Effect<UserTask, Failure>
  readonly delegate: (principal: Principal, taskId: TaskId, userId: string) => Effect.Effect<UserTask, Failure>
  /** Through the instance: the task's updating listeners run first (the reply shows the task as it was until then). */
  readonly update: (
    principal: Principal,
    taskId: TaskId,
    changes: typeof UpdateTask.Type
  ) => Effect.Effect<UserTask, Failure | ValidationError>
  readonly comments: (
    tenantId: string,
    taskId: TaskId
  ) => Effect.Effect<ReadonlyArray<typeof TaskComment.Type>, NotFound>
  readonly addComment: (
    principal: Principal,
    taskId: TaskId,
    message: string
  ) => Effect.Effect<typeof TaskComment.Type, NotFound>
  readonly filters: (principal: Principal) => Effect.Effect<ReadonlyArray<TaskFilter>>
  readonly saveFilter: (principal: Principal, input: typeof CreateTaskFilter.Type) => Effect.Effect<TaskFilter>
  readonly deleteFilter: (principal: Principal, id: TaskFilterId) => Effect.Effect<TaskFilter, NotFound | BusinessError>
}

const isOperator = (principal: Principal) =>
  principal.roles.includes("ADMIN") || principal.roles.includes("PROCESS_OWNER")

interface FilterRow {
  readonly id: string
  readonly name: string
  readonly owner: string
  readonly shared: boolean
  readonly query: unknown
  readonly created_at: unknown
}

const toFilter = (row: FilterRow): TaskFilter => ({
  id: row.id,
  name: row.name,
  owner: row.owner,
  shared: row.shared,
  query: fromJson(row.query),
  createdAt: isoFromDb(row.created_at)
})

export class TaskWork extends Context.Service<TaskWork, TaskWorkShape>()("flowcore/TaskWork") {
  static readonly layer = Layer.effect(
    TaskWork,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const work = yield* Work
      const instances = yield* ProcessInstances

      const open = (tenantId: string, taskId: TaskId) =>
        Effect.gen(function*() {
          const task = yield* work.getTask(tenantId, taskId)
          if (task.state !== "CREATED") {
            return yield* conflict(`task ${taskId} is ${task.state.toLowerCase()}: its assignment cannot change`)
          }
          return task
        })

      /** The task's assignment goes through its instance when its model has assigning listeners. */
      const viaListeners = (principal: Principal, task: UserTask, assignee: string | null) =>
        Effect.gen(function*() {
          const [row] = yield* sql<{ instance_id: ProcessInstanceId; assigning_listeners: boolean }>`SELECT instance_id,
            assigning_listeners FROM user_tasks WHERE tenant_id = ${principal.tenantId} AND id = ${task.id}`
            .pipe(Effect.orDie)
          if (row?.assigning_listeners !== true) return false
          const commandId = `assign-task:${task.id}:${yield* newId}`
          yield* instances.command(
            principal,
            row.instance_id,
            { type: "AssignUserTask", taskId: task.id, assignee },
            commandId
          )
            // The command names no input a client gave: a rejection as faulty input would be ours.
            .pipe(Effect.catchTag("ValidationError", Effect.die))
          return true
        })

      /** Writes the assignment, guarded by the assignee it was read with (a concurrent change makes it 409). */
      const setAssignment = (
        principal: Principal,
        task: UserTask,
        next: { assignee: string | null; owner: string | null; delegationState: string | null },
        listeners = true
      ) =>
        Effect.gen(function*() {
          const tenantId = principal.tenantId
          if (listeners && (yield* viaListeners(principal, task, next.assignee))) {
            return yield* work.getTask(tenantId, TaskId.make(task.id))
          }
          const now = new Date(yield* nowMillis).toISOString()
          const updated =
            yield* sql`UPDATE user_tasks SET assignee = ${next.assignee}, owner = ${next.owner}, delegation_state = ${next.delegationState},
              updated_at = ${now}
            WHERE tenant_id = ${tenantId} AND id = ${task.id} AND state = 'CREATED' AND assignee IS NOT DISTINCT FROM ${task.assignee}
            RETURNING id`.pipe(Effect.orDie)
          if (updated.length === 0) return yield* conflict(`task ${task.id} changed meanwhile; read it again`)
          return yield* work.getTask(tenantId, TaskId.make(task.id))
        })

      return {
        claim: (principal, taskId) =>
          Effect.gen(function*() {
            const task = yield* open(principal.tenantId, taskId)
            if (task.assignee === principal.sub) return task
            if (task.assignee !== null) {
              return yield* conflict(`task ${taskId} is already claimed by ${task.assignee}`, [{
                field: "assignee",
                message: `held by ${task.assignee}`,
                code: "ALREADY_CLAIMED"
              }])
            }
            return yield* setAssignment(principal, task, {
              assignee: principal.sub,
              owner: task.owner,
              delegationState: task.delegationState
            })
          }),
        unclaim: (principal, taskId) =>
          Effect.gen(function*() {
            const task = yield* open(principal.tenantId, taskId)
            if (task.assignee === null) return task
            if (task.assignee !== principal.sub && !isOperator(principal)) {
              return yield* businessError(
                `task ${taskId} is held by ${task.assignee}; only they (or an ADMIN or PROCESS_OWNER) can release it`,
                [
                  { field: "assignee", message: `held by ${task.assignee}`, code: "NOT_ASSIGNEE" }
                ]
              )
            }
            return yield* setAssignment(principal, task, {
              assignee: null,
              owner: null,
              delegationState: null
            })
          }),
        assign: (principal, taskId, assignee) =>
          Effect.flatMap(
            open(principal.tenantId, taskId),
            (task) => setAssignment(principal, task, { assignee, owner: null, delegationState: null })
          ),
        delegate: (principal, taskId, userId) =>
          Effect.gen(function*() {
            const task = yield* open(principal.tenantId, taskId)
            if (task.assignee === null) {
              return yield* businessError(`task ${taskId} is not claimed: claim or assign it before delegating`, [{
                field: "assignee",
                message: "nobody holds the task",
                code: "NOT_CLAIMED"
              }])
            }
            if (task.assignee !== principal.sub && !isOperator(principal)) {
              return yield* businessError(
                `task ${taskId} is held by ${task.assignee}; only they (or an ADMIN or PROCESS_OWNER) can delegate it`,
                [
                  { field: "assignee", message: `held by ${task.assignee}`, code: "NOT_ASSIGNEE" }
                ]
              )
            }
            // A task delegated on keeps its first owner: it returns to whoever delegated it first. Delegation (not a
            // Camunda operation) does not run assigning listeners.
            return yield* setAssignment(principal, task, {
              assignee: userId,
              owner: task.delegationState === "PENDING" ? task.owner : task.assignee,
              delegationState: "PENDING"
            }, false)
          }),
        update: (principal, taskId, changes) =>
          Effect.gen(function*() {
            const task = yield* work.getTask(principal.tenantId, taskId)
            if (task.state !== "CREATED") {
              return yield* conflict(`task ${taskId} is ${task.state.toLowerCase()}: it cannot change`)
            }
            if (Object.keys(changes).length === 0) {
              return yield* businessError("nothing to change: name at least one attribute", [
                { field: "changes", message: "empty", code: "NO_CHANGES" }
              ])
            }
            const commandId = `update-task:${taskId}:${yield* newId}`
            yield* instances.command(principal, ProcessInstanceId.make(task.processInstanceId), {
              type: "UpdateUserTask",
              taskId,
              changes
            }, commandId)
            return yield* work.getTask(principal.tenantId, taskId)
          }),
        comments: (tenantId, taskId) =>
          Effect.gen(function*() {
            yield* work.getTask(tenantId, taskId)
            const rows = yield* sql<
              { id: string; task_id: string; author: string; message: string; created_at: unknown }
            >`SELECT id, task_id, author,
                message, created_at FROM task_comments WHERE tenant_id = ${tenantId} AND task_id = ${taskId} ORDER BY created_at, id`
              .pipe(Effect.orDie)
            return rows.map((row) => ({
              id: row.id,
              taskId: row.task_id,
              author: row.author,
              message: row.message,
              createdAt: isoFromDb(row.created_at)
            }))
          }),
        addComment: (principal, taskId, message) =>
          Effect.gen(function*() {
            yield* work.getTask(principal.tenantId, taskId)
            const id = yield* newId
            const now = new Date(yield* nowMillis).toISOString()
            yield* sql`INSERT INTO task_comments (tenant_id, id, task_id, author, message, created_at)
              VALUES (${principal.tenantId}, ${id}, ${taskId}, ${principal.sub}, ${message}, ${now})`.pipe(Effect.orDie)
            return { id, taskId, author: principal.sub, message, createdAt: now }
          }),
        filters: (principal) =>
          Effect.map(
            sql<
              FilterRow
            >`SELECT * FROM task_filters WHERE tenant_id = ${principal.tenantId} AND (owner = ${principal.sub} OR shared)
              ORDER BY lower(name), id`.pipe(Effect.orDie),
            (rows) => rows.map(toFilter)
          ),
        saveFilter: (principal, input) =>
          Effect.gen(function*() {
            const id = yield* newId
            const now = new Date(yield* nowMillis).toISOString()
            yield* sql`INSERT INTO task_filters (tenant_id, id, name, owner, shared, query, created_at)
              VALUES (${principal.tenantId}, ${id}, ${input.name}, ${principal.sub}, ${input.shared ?? false}, ${
              toJson(input.query)
            }::jsonb, ${now})`.pipe(Effect.orDie)
            return {
              id,
              name: input.name,
              owner: principal.sub,
              shared: input.shared ?? false,
              query: input.query,
              createdAt: now
            }
          }),
        deleteFilter: (principal, id) =>
          Effect.gen(function*() {
            const [row] = yield* sql<
              FilterRow
            >`SELECT * FROM task_filters WHERE tenant_id = ${principal.tenantId} AND id = ${id}
              AND (owner = ${principal.sub} OR shared)`.pipe(Effect.orDie)
            if (row === undefined) return yield* notFound("task filter", id)
            if (row.owner !== principal.sub && !principal.roles.includes("ADMIN")) {
              return yield* businessError(
                `task filter ${id} belongs to ${row.owner}; only they (or an ADMIN) can delete it`,
                [
                  { field: "id", message: `owned by ${row.owner}`, code: "NOT_OWNER" }
                ]
              )
            }
            yield* sql`DELETE FROM task_filters WHERE tenant_id = ${principal.tenantId} AND id = ${id}`.pipe(
              Effect.orDie
            )
            return toFilter(row)
          })
      }
    })
  )
}
