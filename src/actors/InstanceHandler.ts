// One process instance's command handler: what the instance's single writer on its node runs for each command.
import { Clock, Effect, Metric, References } from "effect"
import type { PendingWork } from "../cluster/ClusterLoop.ts"
import {
  type InstanceCommandPayload,
  InstanceRejected,
  type InstanceSnapshot,
  type StartedInstance
} from "../cluster/ProcessInstance.ts"
import type { InstanceHandler } from "../cluster/ResidentInstances.ts"
import {
  commitEvents,
  commitSeconds,
  countEngineEvents,
  countInstanceLoad,
  jobsPushed
} from "../observability/Metrics.ts"
import {
  InstanceStore,
  type InstanceStoreShape,
  type NewInstance,
  StaleInstanceWrite,
  type StoredInstance
} from "../persistence/instances/InstanceStore.ts"
import { JobReads, type JobReadsShape } from "../persistence/jobs/JobReads.ts"
import { isRejection, ProcessEngine, type ProcessEngineShape } from "../services/instances/ProcessEngine.ts"
import { JobAvailability, type JobAvailabilityShape } from "../services/work/JobAvailability.ts"
import { stateTooLarge, unaddressableName, variablesProblem } from "./InstanceLimits.ts"
import { auditsOf, leasesOf, pushedJob, reserveTakers } from "./JobPush.ts"
import { OutboxRelay } from "./OutboxRelay.ts"

const snapshotOf = (instance: StoredInstance): InstanceSnapshot => ({
  id: instance.id,
  tenantId: instance.tenantId,
  state: instance.status,
  lastEventSeq: instance.lastEventSeq
})

/** What a handler works with: the node's services, taken once (a handler is made per instance, often). */
export interface InstanceHandlerServices {
  readonly store: InstanceStoreShape
  readonly engine: ProcessEngineShape
  readonly relay: PendingWork
  readonly availability: JobAvailabilityShape
  readonly jobReads: JobReadsShape
  /**
   * Whether spans are exported (OTEL_EXPORTER_OTLP_ENDPOINT). Without a tracer the command and commit spans are not
   * made at all: even a span nobody exports is made, provided as the parent span and ended — work for nobody (its cost
   * per publish is within what bench:paired can resolve, ~5 %; docs/scaling.md, session 23).
   */
  readonly traced: boolean
}

export const InstanceHandlerServices = Effect.gen(function*() {
  return {
    store: yield* InstanceStore,
    engine: yield* ProcessEngine,
    relay: yield* OutboxRelay,
    availability: yield* JobAvailability,
    jobReads: yield* JobReads,
    traced: yield* References.TracerEnabled
  } satisfies InstanceHandlerServices
})

/** `Effect.withSpan`, when spans are exported; the effect itself otherwise. */
const spannedIf =
  (traced: boolean, name: string, attributes: Record<string, unknown>) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    traced ? effect.pipe(Effect.withSpan(name, { attributes }, { captureStackTrace: false })) : effect

/** An instance's copy in memory, as its handler keeps it between commands. */
interface InstanceCopy {
  readonly services: InstanceHandlerServices
  readonly instanceId: string
  /** Loaded with the first command (not when the handler is made): a start with a fresh id needs no lookup. */
  current: StoredInstance | undefined
  loaded: boolean
  /**
   * `current` is the row a message's lookup read (InstanceSnapshots), not yet confirmed by a commit or a load: a
   * commit from it is guarded, a rejection is checked against a fresh load first.
   */
  fromLookup: boolean
}

const loadCopy = (copy: InstanceCopy, fresh: boolean) => {
  if (copy.loaded) return Effect.void
  if (fresh) {
    copy.current = undefined
    copy.loaded = true
    return Effect.void
  }
  const { store } = copy.services
  return Effect.flatMap(store.snapshot(copy.instanceId), (snapshot) => {
    if (snapshot !== undefined) {
      copy.current = snapshot
      copy.loaded = true
      copy.fromLookup = true
      return countInstanceLoad("lookup")
    }
    return Effect.flatMap(store.load(copy.instanceId), (instance) => {
      copy.current = instance
      copy.loaded = true
      return countInstanceLoad("row")
    })
  })
}

/**
 * One command against the copy, which comes as an argument: no generator function per instance or per command
 * (test/structure/hot-path-generators.test.ts).
 */
const applyCommand = Effect.fnUntraced(function*(copy: InstanceCopy, payload: InstanceCommandPayload) {
  const { availability, engine, relay, store } = copy.services
  // A command id applied before answers with its recorded reply. It is looked up only when the command does
  // not apply (as a duplicate typically does not) or when its commit finds the id taken.
  const rejected = (reason: InstanceRejected["reason"], message: string, field?: string, code?: string) =>
    // Refused by a copy as old as a message's lookup: the instance may have moved on since; the handler loads it
    // and applies the command again.
    copy.fromLookup ?
      Effect.die(new StaleInstanceWrite(copy.instanceId)) :
      Effect.flatMap(store.recordedReply(copy.instanceId, payload.commandId), (recorded) =>
        recorded !== undefined
          ? Effect.succeed(recorded as InstanceSnapshot)
          : Effect.fail(
            new InstanceRejected({
              reason,
              message,
              ...(field === undefined ? {} : { field }),
              ...(code === undefined ? {} : { code })
            })
          ))

  yield* loadCopy(copy, payload.freshId === true && payload.command.type === "StartInstance")
  let instance: StoredInstance
  let created: NewInstance | undefined
  if (copy.current === undefined) {
    if (payload.command.type !== "StartInstance" || payload.deploymentId === undefined) {
      return yield* rejected("NOT_FOUND", `process instance ${copy.instanceId} not found`)
    }
    const deployment = yield* store.deploymentForStart(payload.tenantId, payload.deploymentId)
    if (deployment === undefined) {
      return yield* rejected("NOT_FOUND", `deployment ${payload.deploymentId} not found`)
    }
    if (deployment.state === "SUSPENDED") {
      return yield* rejected(
        "INVALID_STATE",
        `deployment ${deployment.id} is suspended: new instances cannot start`
      )
    }
    created = {
      id: copy.instanceId,
      tenantId: payload.tenantId,
      deploymentId: deployment.id,
      processKey: deployment.key,
      version: deployment.version,
      startedBy: payload.actor,
      parentInstanceId: payload.parent?.instanceId ?? null,
      parentNodeId: payload.parent?.nodeId ?? null,
      rootInstanceId: payload.parent?.rootInstanceId ?? copy.instanceId
    }
    instance = {
      id: copy.instanceId,
      tenantId: payload.tenantId,
      parentInstanceId: payload.parent?.instanceId ?? null,
      deploymentId: deployment.id,
      processKey: deployment.key,
      version: deployment.version,
      status: "ACTIVE",
      engineState: undefined,
      lastEventSeq: 0,
      graph: deployment.graph
    }
  } else {
    // Another tenant's instance answers exactly like a missing one.
    if (copy.current.tenantId !== payload.tenantId) {
      return yield* rejected("NOT_FOUND", `process instance ${copy.instanceId} not found`)
    }
    if (payload.command.type === "StartInstance") {
      return yield* rejected("INVALID_STATE", `process instance ${copy.instanceId} already exists`)
    }
    instance = copy.current
  }

  const now = yield* Clock.currentTimeMillis
  const command = payload.command
  let outcome: ReturnType<typeof engine.execute>
  if (command.type === "MigrateInstance") {
    // A migration runs against the target version's graph, and the instance belongs to it from then on.
    const target = yield* store.deploymentForStart(payload.tenantId, command.targetDeploymentId)
    if (target === undefined) {
      return yield* rejected("NOT_FOUND", `deployment ${command.targetDeploymentId} not found`)
    }
    if (target.key !== instance.processKey) {
      return yield* rejected(
        "INVALID_ARGUMENT",
        `deployment ${target.id} is process ${target.key}, the instance runs process ${instance.processKey}: migration stays within one process`
      )
    }
    if (instance.engineState === undefined) {
      return yield* rejected("NOT_FOUND", `process instance ${copy.instanceId} not found`)
    }
    outcome = engine.migrate({
      source: instance.graph,
      target: target.graph,
      instanceId: copy.instanceId,
      state: instance.engineState,
      command,
      now
    })
    instance = { ...instance, deploymentId: target.id, version: target.version, graph: target.graph }
  } else {
    outcome = engine.execute({
      graph: instance.graph,
      instanceId: copy.instanceId,
      state: instance.engineState,
      command,
      now
    })
  }
  if (isRejection(outcome)) {
    return yield* rejected(outcome.reason, outcome.message, outcome.field)
  }
  // Values PostgreSQL cannot store (a NUL made by a script, say) or an instance grown past its budget are
  // refused before the commit, naming the variable, instead of failing inside it.
  const unstorable = variablesProblem(outcome.variables) ??
    unaddressableName(instance.engineState?.variables, outcome.variables)
  if (unstorable !== undefined) return yield* rejected("INVALID_ARGUMENT", unstorable.message, unstorable.field)
  // A cancel is always let through: it is how an instance that grew too large (before this check) is ended.
  const tooLarge = command.type === "CancelInstance" ? undefined : stateTooLarge(outcome.state)
  if (tooLarge !== undefined) return yield* rejected("UNPROCESSABLE", tooLarge, "process", "INSTANCE_TOO_LARGE")

  const nowIso = new Date(now).toISOString()
  const reply: InstanceSnapshot = {
    ...snapshotOf(instance),
    state: outcome.status,
    lastEventSeq: instance.lastEventSeq + outcome.events.length,
    committedAt: nowIso
  }
  const commitStarted = performance.now()
  // Jobs created for workers waiting on this node are committed leased to them (JobPush.ts).
  const pushes = reserveTakers(availability, instance.tenantId, outcome.instanceEvents, now)
  const committed = yield* store.commit({
    instance,
    created,
    outcome,
    commandId: payload.commandId,
    reply,
    actor: payload.actor,
    now: nowIso,
    leases: leasesOf(pushes),
    alsoAudit: auditsOf(pushes)
  }).pipe(
    spannedIf(copy.services.traced, "flowcore.instance.commit", { "flowcore.events": outcome.events.length }),
    Effect.onExit((exit) =>
      Effect.sync(() => {
        if (exit._tag === "Failure" || exit.value === undefined) pushes.forEach((push) => push.taker.release())
      })
    )
  )
  if (committed === undefined) {
    const recorded = yield* store.recordedReply(copy.instanceId, payload.commandId)
    if (recorded !== undefined) return recorded as InstanceSnapshot
    // A start whose instance row is there already, from another command.
    copy.current = yield* store.load(copy.instanceId)
    copy.fromLookup = false
    return yield* Effect.fail(
      new InstanceRejected({ reason: "INVALID_STATE", message: `process instance ${copy.instanceId} already exists` })
    )
  }
  copy.current = committed.instance
  copy.fromLookup = false
  const started: StartedInstance | undefined = created === undefined ? undefined : {
    deploymentId: created.deploymentId,
    processKey: created.processKey,
    version: created.version,
    incidentCount: outcome.openIncidents,
    parentInstanceId: created.parentInstanceId,
    rootInstanceId: created.rootInstanceId,
    variables: outcome.variables,
    startedBy: created.startedBy,
    startedAt: nowIso,
    endedAt: outcome.status === "COMPLETED" || outcome.status === "CANCELED" ? nowIso : null
  }
  yield* Metric.update(commitSeconds, (performance.now() - commitStarted) / 1000)
  yield* Metric.update(commitEvents, outcome.events.length)
  yield* countEngineEvents(outcome.instanceEvents)
  // Messages this command owes other instances were committed to the outbox: deliver them now.
  if (committed.outboxWritten > 0) yield* relay.wake
  // The jobs leased at creation go to their workers; the others are announced to whoever polls or streams.
  for (const push of pushes) {
    push.taker.deliver(pushedJob(push, copy.instanceId, instance.graph, outcome.state, nowIso))
  }
  if (pushes.length > 0) yield* Metric.update(jobsPushed, pushes.length)
  const pushed = new Set(pushes.map((push) => push.created.jobId))
  const jobTypes = outcome.instanceEvents.flatMap((event) =>
    event.type === "JobCreated" && !pushed.has(event.jobId) ? [event.jobType] : []
  )
  if (jobTypes.length > 0) yield* availability.announce(instance.tenantId, jobTypes)
  // Resumed: its waiting jobs may be taken again (a look passes over a suspended instance's jobs), so they are
  // announced like new ones — waiting workers take them now, not at their next look.
  if (outcome.instanceEvents.some((event) => event.type === "InstanceResumed")) {
    const resumedTypes = yield* copy.services.jobReads.activatableTypes(instance.tenantId, copy.instanceId, nowIso)
    if (resumedTypes.length > 0) yield* availability.announce(instance.tenantId, resumedTypes)
  }
  return started === undefined ? reply : { ...reply, started }
})

/**
 * The handler of one instance's commands: loads the instance (state + compiled graph) with its first command, then
 * applies each command — dedupe by command id, run the pure core, commit events + state + projections + command id
 * in one transaction — and only then changes its copy in memory. Memory is a cache: a restart rebuilds it from rows.
 */
export const makeInstanceHandler = (services: InstanceHandlerServices, instanceId: string): InstanceHandler => {
  const copy: InstanceCopy = { services, instanceId, current: undefined, loaded: false, fromLookup: false }
  const { store } = services

  // A defect (a bug, or the database refusing a value) must answer the caller, not escape (through the cluster's
  // entity, an escaped defect restarted the entity and delivered the same command again). The command was not committed, so
  // the state is reloaded from the rows (the in-memory copy changes only after a commit) and the caller gets an
  // INTERNAL rejection (a 500 naming the correlation id).
  const answerDefect = (commandId: string) => (defect: unknown) =>
    Effect.logError("instance command failed with a defect; not applied", defect).pipe(
      Effect.annotateLogs({ instanceId, commandId }),
      Effect.andThen(
        store.load(instanceId).pipe(
          Effect.tap(() => Effect.sync(() => void (copy.fromLookup = false))),
          Effect.catchDefect(() => Effect.succeed(copy.current))
        )
      ),
      Effect.flatMap((reloaded) => {
        copy.current = reloaded
        return Effect.fail(
          new InstanceRejected({ reason: "INTERNAL", message: `command ${commandId} on instance ${instanceId} failed` })
        )
      })
    )

  // A copy another writer overtook (this node lost the instance's shard and got it back, say) committed nothing; it
  // is reloaded from the rows and the command runs once more, against what was committed.
  const reload = Effect.map(store.load(instanceId), (instance) => {
    copy.current = instance
    copy.loaded = true
    copy.fromLookup = false
  })

  return (payload) =>
    applyCommand(copy, payload).pipe(
      Effect.catchDefect((defect) =>
        defect instanceof StaleInstanceWrite ? Effect.andThen(reload, applyCommand(copy, payload)) : Effect.die(defect)
      ),
      Effect.catchDefect(answerDefect(payload.commandId)),
      spannedIf(services.traced, "flowcore.instance.command", {
        "flowcore.instance.id": instanceId,
        "flowcore.command": payload.command.type,
        "flowcore.tenant": payload.tenantId
      })
    )
}
