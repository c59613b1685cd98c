// The process instances this node holds in memory, and the one place their commands run on this node: one command at
// a time per instance, in arrival order, against the instance's copy in memory (actors/InstanceHandler.ts).
//
// effect/cluster decides which node owns an instance (its shard). A command for an instance whose shard this node
// owns runs here directly (InstanceClient.ts); only a command from another node travels as a message to the
// ProcessInstance entity, whose handler runs it here too. Before, every command went through the cluster's entity
// machinery even on the owning node (RPC client and server, envelope, mailbox, a scope and fibers per entity): about a
// third of a start's CPU and ~18 KB of heap per resident instance. The database stays the judge of a stale writer
// (the commit is guarded by the instance's last event sequence), so a copy left here after its shard moved away can
// change nothing; the sweep drops such copies, and an idle one, every second.
import { Clock, Context, Duration, Effect, Exit, Layer, Schedule, Schema, Semaphore } from "effect"
import type { Scope } from "effect"
import { EntityId, Sharding } from "effect/cluster"
import type { ShardId } from "effect/cluster"
import { AppConfig } from "../config.ts"
import { ProcessInstance } from "./ProcessInstance.ts"
import type { InstanceCommandPayload, InstanceRejected, InstanceSnapshot } from "./ProcessInstance.ts"

/**
 * The node holds MAX_RESIDENT_ENTITIES instances and the command's instance is not among them, or the node is stopping
 * (the edge answers 503 with Retry-After).
 */
export class ResidentInstancesFull extends Schema.TaggedError<ResidentInstancesFull>()("ResidentInstancesFull", {
  message: Schema.String
}) {}

/** Runs one command against an instance's copy in memory (actors/InstanceHandler.ts); called one at a time. */
export type InstanceHandler = (payload: InstanceCommandPayload) => Effect.Effect<InstanceSnapshot, InstanceRejected>

/** States in which an instance takes no more commands that change it. */
const ENDED: ReadonlySet<InstanceSnapshot["state"]> = new Set(["COMPLETED", "CANCELED"])

interface Resident {
  readonly handle: InstanceHandler
  readonly lock: Semaphore.Semaphore
  readonly shardId: ShardId.ShardId
  /** Commands waiting for or holding the lock: a resident with any is never dropped. */
  pending: number
  lastUsedMillis: number
}

export interface ResidentInstancesShape {
  /** True when this node owns the instance's shard (and serves instances): its commands run here, without a message. */
  readonly isLocal: (instanceId: string) => boolean
  /**
   * Runs the command on the instance's copy here, loading it with its first command. `capped`: a command for an
   * instance not in memory while the node holds MAX_RESIDENT_ENTITIES fails with ResidentInstancesFull (a command
   * delivered by the cluster is not refused: the cluster's own cap applied to it).
   */
  readonly execute: (
    instanceId: string,
    payload: InstanceCommandPayload,
    capped: boolean
  ) => Effect.Effect<InstanceSnapshot, InstanceRejected | ResidentInstancesFull>
  /** Instances in memory now. */
  readonly count: () => number
  /** Starts serving with handlers made by `make` (ProcessInstanceLive); until then no instance is local. */
  readonly serve: (make: (instanceId: string) => InstanceHandler) => Effect.Effect<void, never, Scope.Scope>
}

export class ResidentInstances
  extends Context.Service<ResidentInstances, ResidentInstancesShape>()("flowcore/ResidentInstances")
{
  static readonly layer = Layer.effect(
    ResidentInstances,
    Effect.gen(function*() {
      const config = yield* AppConfig
      const sharding = yield* Sharding.Sharding
      const idleMillis = config.entityIdleSeconds * 1000
      const cap = config.cluster.maxResidentEntities
      const residents = new Map<string, Resident>()
      let make: ((instanceId: string) => InstanceHandler) | undefined

      const shardOf = (instanceId: string) => {
        const entityId = EntityId.make(instanceId)
        return sharding.getShardId(entityId, ProcessInstance.getShardGroup(entityId))
      }

      const residentFor = (instanceId: string, capped: boolean, now: number) => {
        const known = residents.get(instanceId)
        if (known !== undefined) return known
        if (make === undefined) return undefined
        if (capped && residents.size >= cap) return undefined
        const resident: Resident = {
          handle: make(instanceId),
          lock: Semaphore.makeUnsafe(1),
          shardId: shardOf(instanceId),
          pending: 0,
          lastUsedMillis: now
        }
        residents.set(instanceId, resident)
        return resident
      }

      const execute: ResidentInstancesShape["execute"] = (instanceId, payload, capped) =>
        Effect.flatMap(
          Clock.currentTimeMillis,
          (now): Effect.Effect<InstanceSnapshot, InstanceRejected | ResidentInstancesFull> => {
            const resident = residentFor(instanceId, capped, now)
            if (resident === undefined) {
              return Effect.fail(
                new ResidentInstancesFull({
                  message: make === undefined
                    ? "this node is stopping: it takes no more instances"
                    : `this node holds ${cap} instances in memory (MAX_RESIDENT_ENTITIES)`
                })
              )
            }
            resident.pending++
            // A command runs to its end once it holds the lock, even if its caller gives up: the copy in memory must
            // follow what was committed.
            return resident.lock.withPermits(1)(Effect.uninterruptible(resident.handle(payload))).pipe(
              Effect.onExit((exit) =>
                Effect.map(Clock.currentTimeMillis, (done) => {
                  resident.pending--
                  resident.lastUsedMillis = done
                  // An ended instance takes no more commands that change it: its copy leaves memory at once instead
                  // of after the idle time, in which it would outlive the young generation's collections and be
                  // freed only by a full one (a load of short instances kept thousands of them promoted).
                  if (resident.pending === 0 && Exit.isSuccess(exit) && ENDED.has(exit.value.state)) {
                    if (residents.get(instanceId) === resident) residents.delete(instanceId)
                  }
                })
              )
            )
          }
        )

      // Idle copies leave memory (their next command reloads them from their rows), and so do copies of instances
      // whose shard this node no longer owns.
      const sweep = Effect.map(Clock.currentTimeMillis, (now) => {
        for (const [instanceId, resident] of residents) {
          if (resident.pending > 0) continue
          if (now - resident.lastUsedMillis >= idleMillis || !sharding.hasShardId(resident.shardId)) {
            residents.delete(instanceId)
          }
        }
      })

      return ResidentInstances.of({
        isLocal: (instanceId) => make !== undefined && sharding.hasShardId(shardOf(instanceId)),
        execute,
        count: () => residents.size,
        serve: Effect.fnUntraced(function*(handlers) {
          make = handlers
          yield* Effect.addFinalizer(() =>
            Effect.sync(() => {
              make = undefined
            })
          )
          yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(Duration.seconds(1))))
        })
      })
    })
  )
}
