// The variables jobs and user tasks show as they stand now (engine/JobVariables.ts): a job or task records only its own
// when created (engine/OwnVariables.ts), so activation, the job list and the task list work out the rest from their
// instances' state — one read of the instances not already at hand, graphs cached (each deployment is immutable).
// What one answer works out is bounded: its variables by the answer's budget (ResponseBudget.ts), an activation's
// input mappings (evaluated anew) by a FEEL time budget; the items past either are left for the caller to deal with.
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { ProcessGraph } from "../../bpmn/ProcessGraph.ts"
import { withTotalFeelTimeOr } from "../../decision/feel/FeelBudget.ts"
import type { InstanceState } from "../../engine/InstanceState.ts"
import { tokensWaiting, variablesNow, type WaitedOn } from "../../engine/JobVariables.ts"
import { fromJson, pgArray } from "../../persistence/SqlValues.ts"
import type { Job, UserTask } from "../../schema/Work.ts"
import { answerBudget, type WorkedOut } from "./ResponseBudget.ts"

/** An instance's deployment and engine state, as a query read them. */
export type InstanceRead = { readonly id: string; readonly deployment_id: string; readonly engine_state: unknown }

/**
 * A job or task: its instance, what it is (undefined once it is done: its instance is not read for it), and the
 * variables it recorded (its own), shown when the instance no longer waits on it.
 */
export interface Waited<A> {
  readonly item: A
  readonly instanceId: string
  readonly waited: WaitedOn | undefined
  readonly recorded: Readonly<Record<string, unknown>>
}

/** Time an activation's input mappings may take together (beyond the first job's, which always gets its own). */
const ACTIVATION_FEEL_MILLIS = 1_000
const GRAPHS_KEPT = 1_000

/** Jobs the instance no longer waits on: they show the variables they recorded. */
const DONE_JOB_STATES: ReadonlySet<Job["state"]> = new Set(["COMPLETED", "CANCELED", "ERROR_THROWN"])

export const makeVariablesNow = (sql: SqlClient.SqlClient) => {
  const graphs = new Map<string, ProcessGraph>()
  const keep = (deploymentId: string, raw: unknown) => {
    if (graphs.size >= GRAPHS_KEPT) graphs.delete(graphs.keys().next().value as string)
    graphs.set(deploymentId, fromJson<ProcessGraph>(raw))
  }

  /** The instances of the open items, from `read` (instances already read) and one query for the others. */
  const statesOf = Effect.fnUntraced(function*<A>(
    items: ReadonlyArray<Waited<A>>,
    read: ReadonlyMap<string, InstanceRead>
  ) {
    const open = items.filter((item) => item.waited !== undefined)
    if (open.length === 0) return new Map()
    const missing = [...new Set(open.map((item) => item.instanceId))].filter((id) => !read.has(id))
    const rows = missing.length === 0 ? [...read.values()] : [
      ...read.values(),
      ...(yield* sql<InstanceRead>`SELECT id, deployment_id, engine_state FROM process_instances
        WHERE id = ANY(${pgArray(missing)}::uuid[])`.pipe(Effect.orDie))
    ]
    const unseen = [...new Set(rows.map((row) => row.deployment_id))].filter((id) => !graphs.has(id))
    if (unseen.length > 0) {
      const deployments = yield* sql<{ id: string; graph: unknown }>`SELECT id, graph FROM deployments
          WHERE id = ANY(${pgArray(unseen)}::uuid[])`.pipe(Effect.orDie)
      for (const deployment of deployments) keep(deployment.id, deployment.graph)
    }
    return new Map(
      rows.flatMap((row) => {
        const graph = graphs.get(row.deployment_id)
        if (graph === undefined) return []
        const state = fromJson<InstanceState>(row.engine_state)
        return [[row.id, { graph, state, waiting: tokensWaiting(state) }] as const]
      })
    )
  })

  /**
   * Each item with its variables now while its instance waits on it, else the ones it recorded, in order, until the
   * answer's variables would pass its budget (the first item always counts) or, with `mappings: "evaluated"`, the
   * mappings' time runs out (the first item's always get their own).
   */
  const withVariablesNow = Effect.fnUntraced(function*<A extends { readonly variables: unknown }>(
    items: ReadonlyArray<Waited<A>>,
    withVariables: (item: A, variables: Readonly<Record<string, unknown>>) => A,
    mappings: "evaluated" | "recorded",
    read: ReadonlyMap<string, InstanceRead> = new Map()
  ) {
    const states = yield* statesOf(items, read)
    const done: Array<A> = []
    const answer = answerBudget()
    const next = ({ instanceId, item, recorded, waited }: Waited<A>): boolean => {
      const instance = states.get(instanceId)
      const now = instance === undefined || waited === undefined
        ? undefined
        : variablesNow(instance.graph, instance.state, waited, recorded, mappings, instance.waiting)
      const shown = withVariables(item, now ?? recorded)
      if (!answer.admits(shown.variables)) return false
      done.push(shown)
      return !answer.full()
    }
    if (items.length > 0 && next(items[0]!)) {
      withTotalFeelTimeOr(ACTIVATION_FEEL_MILLIS, () => {
        for (let index = 1; index < items.length && next(items[index]!); index++);
      }, () => undefined)
    }
    return { items: done, rest: items.slice(done.length).map(({ item }) => item) } satisfies WorkedOut<A>
  })

  return {
    withVariablesNow,
    /** Jobs as a list shows them: those the instance waits on with their variables now, done ones as recorded. */
    jobs: (jobs: ReadonlyArray<Job>) =>
      withVariablesNow(
        jobs.map((job) => ({
          item: job,
          instanceId: job.processInstanceId,
          waited: DONE_JOB_STATES.has(job.state) ? undefined : { kind: "job" as const, id: job.id },
          recorded: job.variables
        })),
        (job, variables) => ({ ...job, variables }),
        "recorded"
      ),
    /** Tasks as a list shows them: open ones with their variables now, done ones as recorded. */
    tasks: (tasks: ReadonlyArray<UserTask>) =>
      withVariablesNow(
        tasks.map((task) => ({
          item: task,
          instanceId: task.processInstanceId,
          waited: task.state === "CREATED" ? { kind: "userTask" as const, id: task.id } : undefined,
          recorded: task.variables
        })),
        (task, variables) => ({ ...task, variables }),
        "recorded"
      )
  }
}

export type VariablesNowShape = ReturnType<typeof makeVariablesNow>
