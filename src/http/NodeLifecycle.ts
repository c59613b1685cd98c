// The node's serving lifecycle, for a graceful stop: requests in flight are counted at the edge; on SIGTERM the node
// starts draining — `/health` answers 503 at once (a load balancer takes the node out), new requests on open
// connections get 503 with `connection: close`, the listener stops accepting connections — and the process ends
// when the last request in flight has answered, or when the grace period is over, whichever comes first.
import { Context } from "effect"
import type { Server } from "node:http"

export class NodeLifecycleState {
  draining = false
  inFlight = 0
  server: Server | undefined = undefined
  private idle: Array<() => void> = []

  enter(): void {
    this.inFlight++
  }

  leave(): void {
    this.inFlight--
    if (this.inFlight <= 0) for (const resolve of this.idle.splice(0)) resolve()
  }

  /** Starts draining and resolves once no request is in flight, or after `graceMillis`. Idempotent. */
  drain(graceMillis: number): Promise<void> {
    this.draining = true
    this.server?.close()
    this.server?.closeIdleConnections()
    if (this.inFlight <= 0) return Promise.resolve()
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, graceMillis)
      this.idle.push(() => {
        clearTimeout(timer)
        resolve()
      })
    })
  }
}

export class NodeLifecycle extends Context.Service<NodeLifecycle, NodeLifecycleState>()("flowcore/NodeLifecycle") {}
