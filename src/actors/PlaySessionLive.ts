// The PlaySession entity: holds one played instance in memory and applies steps to it one at a time with the pure
// core (src/engine/Play.ts). Nothing is written anywhere; when the entity goes idle for 30 minutes it is stopped and
// the session is gone (a later message finds no session: 404).
import { Clock, Effect } from "effect"
import { Entity } from "effect/cluster"
import type { ProcessGraph } from "../bpmn/ProcessGraph.ts"
import { PlayRejected, PlaySession } from "../cluster/PlaySession.ts"
import type { InstanceState } from "../engine/InstanceState.ts"
import { type PlayOutcome, playStart, playStep } from "../engine/Play.ts"
import type { PlaySessionView } from "../schema/Play.ts"

interface Session {
  readonly tenantId: string
  readonly processKey: string
  readonly graph: ProcessGraph
  readonly mocks: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  readonly state: InstanceState
  readonly steps: number
  readonly path: PlaySessionView["path"]
  readonly createdAt: string
}

/** Steps kept in a session's path (a client could step for ever). */
const MAX_PATH = 10_000

const lastOf = (path: PlaySessionView["path"]): PlaySessionView["lastStep"] => {
  const last = path[path.length - 1]
  return last === undefined ? null : { answered: last.answered, passed: last.passed }
}

const viewOf = (id: string, session: Session): PlaySessionView => ({
  id,
  processKey: session.processKey,
  state: session.state.status === "SUSPENDED" ? "ACTIVE" : session.state.status,
  steps: session.steps,
  variables: session.state.variables,
  tokens: Object.values(session.state.tokens).map((token) => ({
    tokenId: token.id,
    nodeId: token.nodeId,
    waitingFor: token.wait?.kind ?? null
  })),
  armedEvents: Object.values(session.state.boundaries ?? {}).map((armed) => ({
    nodeId: armed.nodeId,
    kind: armed.kind
  })),
  incidents: Object.values(session.state.incidents).map((incident) => ({
    nodeId: incident.nodeId,
    type: incident.type,
    message: incident.message
  })),
  lastStep: lastOf(session.path),
  path: session.path,
  createdAt: session.createdAt
})

const rejectedBy = (outcome: Extract<PlayOutcome, { ok: false }>) =>
  new PlayRejected({ reason: outcome.reason, message: outcome.message })

export const PlaySessionLive = PlaySession.toLayer(
  Effect.gen(function*() {
    const id = (yield* Entity.CurrentAddress).entityId
    let session: Session | undefined
    // Another tenant's session answers like a missing one.
    const current = (tenantId: string) =>
      session !== undefined && session.tenantId === tenantId
        ? Effect.succeed(session)
        : Effect.fail(new PlayRejected({ reason: "NOT_FOUND", message: `play session ${id} not found` }))

    return PlaySession.of({
      Start: Effect.fnUntraced(function*({ payload }) {
        if (session !== undefined) {
          return yield* new PlayRejected({ reason: "CONFLICT", message: `play session ${id} already exists` })
        }
        const graph = payload.graph as ProcessGraph
        const outcome = playStart(graph, id, payload.variables, payload.chooseFlows)
        if (!outcome.ok) {
          return yield* rejectedBy(outcome)
        }
        session = {
          tenantId: payload.tenantId,
          processKey: payload.processKey,
          graph,
          mocks: payload.mocks,
          state: outcome.state,
          steps: 0,
          path: [{ step: 0, answered: outcome.answered, passed: outcome.passed }],
          createdAt: new Date(yield* Clock.currentTimeMillis).toISOString()
        }
        return viewOf(id, session)
      }),
      Step: Effect.fnUntraced(function*({ payload }) {
        const played = yield* current(payload.tenantId)
        const outcome = playStep(played.graph, id, played.state, payload.step, played.mocks, 0)
        if (!outcome.ok) return yield* rejectedBy(outcome)
        const taken = { step: played.steps + 1, answered: outcome.answered, passed: outcome.passed }
        session = {
          ...played,
          state: outcome.state,
          steps: played.steps + 1,
          path: [...played.path, taken].slice(-MAX_PATH)
        }
        return viewOf(id, session)
      }),
      Get: ({ payload }) => Effect.map(current(payload.tenantId), (played) => viewOf(id, played))
    })
  }),
  { maxIdleTime: "30 minutes" }
)
