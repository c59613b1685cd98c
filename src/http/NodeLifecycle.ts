// The node's serving lifecycle, for a graceful stop: requests in flight are counted at the edge; on SIGTERM the node
// starts draining — `/health` answers 503 at once (a load balancer takes the node out), new requests get 503 with
// `retry-after` and `connection: close` (a load balancer or client retries them on another node) — and once the last
// request in flight has answered, or the grace period is over, the listener closes and the process ends.
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
    if (this.inFlight <= 0) { for (const resolve of this.idle.splice(0)) resolve() }
  }

  /** Starts draining; resolves once no request is in flight (or after `graceMillis`) and the listener is closed. */
  async drain(graceMillis: number): Promise<void> {
    this.draining = true
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMillis)
        this.idle.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
    this.server?.close()
    this.server?.closeIdleConnections()
  }
}

export class NodeLifecycle extends Context.Service<NodeLifecycle, NodeLifecycleState>()("flowcore/NodeLifecycle") {}
