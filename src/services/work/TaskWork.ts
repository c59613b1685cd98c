// Working on human tasks beyond completing them: claim, unclaim, assign and delegate (Flowable's delegation: the
// task goes to the delegate and returns to its owner when the delegate completes it), the comment thread, and saved
// task-list filters. Assignment lives on the task row; every change is audited by the HTTP middleware. Tasks and
// filters of the request's tenant (CurrentTenant), worked on by the caller (CurrentPrincipal). A task whose model has
// assigning listeners (Camunda 8.8) is assigned through its instance instead: the listeners run first (and may correct
// or deny the assignee), so the reply shows the task as it was until they have completed.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal, type Principal } from "../../auth/Principal.ts"
import { fromJson, toJson } from "../../persistence/SqlValues.ts"
import {
  type BusinessError,
  businessError,
  type ClientError,
  type Conflict,
  conflict,
  type NotFound,
  notFound
} from "../../schema/ApiErrors.ts"
import { ProcessInstanceId, type TaskFilterId, TaskId } from "../../schema/ResourceIds.ts"
import type { CreateTaskFilter, TaskComment, TaskFilter, UpdateTask, UserTask } from "../../schema/Work.ts"
import { newId } from "../Ids.ts"
import { ProcessInstances } from "../instances/ProcessInstances.ts"
import { isoFromDb, nowMillis } from "../Time.ts"
import { Work } from "./Work.ts"

type Failure = NotFound | Conflict | BusinessError

type Caller = CurrentTenant | CurrentPrincipal

export interface TaskWorkShape {
  readonly claim: (taskId: TaskId) => Effect.Effect<UserTask, Failure, Caller>
  readonly unclaim: (taskId: TaskId) => Effect.Effect<UserTask, Failure, Caller>
  readonly assign: (taskId: TaskId, assignee: string) => Effect.Effect<UserTask, Failure, Caller>
  readonly delegate: (taskId: TaskId, userId: string) => Effect.Effect<UserTask, Failure, Caller>
  /** Through the instance: the task's updating listeners run first (the reply shows the task as it was until then). */
  readonly update: (
    taskId: TaskId,
    changes: typeof UpdateTask.Type
  ) => Effect.Effect<UserTask, ClientError, Caller>
  readonly comments: (taskId: TaskId) => Effect.Effect<ReadonlyArray<typeof TaskComment.Type>, NotFound, CurrentTenant>
  readonly addComment: (taskId: TaskId, message: string) => Effect.Effect<typeof TaskComment.Type, NotFound, Caller>
  /** The caller's own filters and the shared ones. */
  readonly filters: Effect.Effect<ReadonlyArray<TaskFilter>, never, Caller>
  readonly saveFilter: (input: typeof CreateTaskFilter.Type) => Effect.Effect<TaskFilter, never, Caller>
  readonly deleteFilter: (id: TaskFilterId) => Effect.Effect<TaskFilter, NotFound | BusinessError, Caller>
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

      const open = Effect.fnUntraced(function*(taskId: TaskId) {
        const task = yield* work.getTask(taskId)
        if (task.state !== "CREATED") {
          return yield* conflict(`task ${taskId} is ${task.state.toLowerCase()}: its assignment cannot change`)
        }
        return task
      })

      /** The task's assignment goes through its instance when its model has assigning listeners. */
      const viaListeners = Effect.fnUntraced(function*(principal: Principal, task: UserTask, assignee: string | null) {
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
      const setAssignment = Effect.fnUntraced(function*(
        task: UserTask,
        next: { assignee: string | null; owner: string | null; delegationState: string | null },
        listeners = true
      ) {
        const tenantId = yield* CurrentTenant
        if (listeners && (yield* viaListeners(yield* CurrentPrincipal, task, next.assignee))) {
          return yield* work.getTask(TaskId.make(task.id))
        }
        const now = new Date(yield* nowMillis).toISOString()
        const updated =
          yield* sql`UPDATE user_tasks SET assignee = ${next.assignee}, owner = ${next.owner}, delegation_state = ${next.delegationState},
              updated_at = ${now}
            WHERE tenant_id = ${tenantId} AND id = ${task.id} AND state = 'CREATED' AND assignee IS NOT DISTINCT FROM ${task.assignee}
            RETURNING id`.pipe(Effect.orDie)
        if (updated.length === 0) return yield* conflict(`task ${task.id} changed meanwhile; read it again`)
        return yield* work.getTask(TaskId.make(task.id))
      })

      return {
        claim: Effect.fnUntraced(function*(taskId) {
          const principal = yield* CurrentPrincipal
          const task = yield* open(taskId)
          if (task.assignee === principal.sub) return task
          if (task.assignee !== null) {
            return yield* conflict(`task ${taskId} is already claimed by ${task.assignee}`, [{
              field: "assignee",
              message: `held by ${task.assignee}`,
              code: "ALREADY_CLAIMED"
            }])
          }
          return yield* setAssignment(task, {
            assignee: principal.sub,
            owner: task.owner,
            delegationState: task.delegationState
          })
        }),
        unclaim: Effect.fnUntraced(function*(taskId) {
          const principal = yield* CurrentPrincipal
          const task = yield* open(taskId)
          if (task.assignee === null) return task
          if (task.assignee !== principal.sub && !isOperator(principal)) {
            return yield* businessError(
              `task ${taskId} is held by ${task.assignee}; only they (or an ADMIN or PROCESS_OWNER) can release it`,
              [
                { field: "assignee", message: `held by ${task.assignee}`, code: "NOT_ASSIGNEE" }
              ]
            )
          }
          return yield* setAssignment(task, {
            assignee: null,
            owner: null,
            delegationState: null
          })
        }),
        assign: (taskId, assignee) =>
          Effect.flatMap(
            open(taskId),
            (task) => setAssignment(task, { assignee, owner: null, delegationState: null })
          ),
        delegate: Effect.fnUntraced(function*(taskId, userId) {
          const principal = yield* CurrentPrincipal
          const task = yield* open(taskId)
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
          return yield* setAssignment(task, {
            assignee: userId,
            owner: task.delegationState === "PENDING" ? task.owner : task.assignee,
            delegationState: "PENDING"
          }, false)
        }),
        update: Effect.fnUntraced(function*(taskId, changes) {
          const principal = yield* CurrentPrincipal
          const task = yield* work.getTask(taskId)
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
          return yield* work.getTask(taskId)
        }),
        comments: Effect.fnUntraced(function*(taskId) {
          const tenantId = yield* CurrentTenant
          yield* work.getTask(taskId)
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
        addComment: Effect.fnUntraced(function*(taskId, message) {
          const tenantId = yield* CurrentTenant
          const principal = yield* CurrentPrincipal
          yield* work.getTask(taskId)
          const id = yield* newId
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql`INSERT INTO task_comments (tenant_id, id, task_id, author, message, created_at)
              VALUES (${tenantId}, ${id}, ${taskId}, ${principal.sub}, ${message}, ${now})`.pipe(Effect.orDie)
          return { id, taskId, author: principal.sub, message, createdAt: now }
        }),
        filters: Effect.gen(function*() {
          const tenantId = yield* CurrentTenant
          const principal = yield* CurrentPrincipal
          const rows = yield* sql<
            FilterRow
          >`SELECT * FROM task_filters WHERE tenant_id = ${tenantId} AND (owner = ${principal.sub} OR shared)
            ORDER BY lower(name), id`.pipe(Effect.orDie)
          return rows.map(toFilter)
        }),
        saveFilter: Effect.fnUntraced(function*(input) {
          const tenantId = yield* CurrentTenant
          const principal = yield* CurrentPrincipal
          const id = yield* newId
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql`INSERT INTO task_filters (tenant_id, id, name, owner, shared, query, created_at)
              VALUES (${tenantId}, ${id}, ${input.name}, ${principal.sub}, ${input.shared ?? false}, ${
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
        deleteFilter: Effect.fnUntraced(function*(id) {
          const tenantId = yield* CurrentTenant
          const principal = yield* CurrentPrincipal
          const [row] = yield* sql<
            FilterRow
          >`SELECT * FROM task_filters WHERE tenant_id = ${tenantId} AND id = ${id}
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
          yield* sql`DELETE FROM task_filters WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(
            Effect.orDie
          )
          return toFilter(row)
        })
      }
    })
  )
}
