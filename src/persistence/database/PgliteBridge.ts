// An in-process PostgreSQL wire bridge in front of PGlite, handed to @effect/sql-pg as its `stream` option, so the
// service talks the same protocol to the embedded database as to a real server and never knows which it has.
//
// Why not the stock pglite-socket: PGlite is ONE backend session. With several pool connections the socket server
// interleaves the extended-protocol messages of different connections inside that one session, which corrupts
// concurrent transactions (measured: 33 of 50 failed). This bridge keeps the connections apart:
//  * per connection, protocol messages are collected until Sync / Query / Flush and each batch runs atomically;
//  * a connection that leaves PGlite inside a transaction stays its exclusive owner until it returns to idle, so no
//    other connection's statement runs inside someone else's transaction;
//  * a connection that goes away mid-transaction has it rolled back and releases ownership.
// All connections share one session: nothing may rely on session state (SET, advisory locks, LISTEN).
import type { PGlite } from "@electric-sql/pglite"
import { type Duplex, duplexPair } from "node:stream"

const SSL_REQUEST_CODE = 80877103
const GSSENC_REQUEST_CODE = 80877104

export interface PgliteBridge {
  /** Opens one wire-protocol connection (a Duplex the Postgres client writes to and reads from). */
  readonly connect: () => Duplex
}

export const makePgliteBridge = (db: PGlite, onError: (error: unknown) => void = () => {}): PgliteBridge => {
  // The connection that currently owns the PGlite session (inside a transaction or an unfinished batch).
  let owner: number | null = null
  const waiting: Array<() => void> = []
  let nextConnectionId = 1

  const acquire = (id: number): Promise<void> => {
    if (owner === id) return Promise.resolve()
    if (owner === null) {
      owner = id
      return Promise.resolve()
    }
    return new Promise((resolve) =>
      waiting.push(() => {
        owner = id
        resolve()
      })
    )
  }
  const release = () => {
    owner = null
    waiting.shift()?.()
  }

  const inTransaction = (): boolean => {
    try {
      return !db.closed && db.isInTransaction()
    } catch {
      return false
    }
  }

  const connect = (): Duplex => {
    const [client, server] = duplexPair()
    const id = nextConnectionId++
    let pending: Buffer = Buffer.alloc(0)
    let batch: Array<Buffer> = []
    let started = false
    let closed = false
    // Batches of one connection run strictly in order.
    let queue: Promise<void> = Promise.resolve()

    // A batch that PGlite could not run leaves the client waiting for an answer that will never come: drop the
    // connection instead, so the client fails fast (and its pool opens a new one).
    const abort = (error: unknown, report = true) => {
      if (report) onError(error)
      if (!closed) server.destroy(error instanceof Error ? error : new Error(String(error)))
    }

    const runBatch = (messages: Array<Buffer>, endsSequence: boolean) => {
      queue = queue.then(async () => {
        if (closed) return
        if (db.closed) {
          abort(new Error("the embedded database is closed"), false)
          return
        }
        await acquire(id)
        try {
          await db.runExclusive(() =>
            db.execProtocolRawStream(new Uint8Array(Buffer.concat(messages)), {
              onRawData: (data) => {
                if (!closed) server.write(Buffer.from(data))
              }
            })
          )
          if (endsSequence && !inTransaction()) release()
        } catch (error) {
          if (owner === id) release()
          abort(error)
        }
      })
    }

    const shutdown = () => {
      if (closed) return
      queue = queue.then(async () => {
        if (owner === id) {
          if (inTransaction()) await db.exec("ROLLBACK").catch(onError)
          release()
        }
        closed = true
        server.end()
      })
    }

    server.on("data", (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      for (;;) {
        if (!started) {
          // Startup-phase messages have no type byte: int32 length, int32 code.
          if (pending.length < 8) return
          const length = pending.readInt32BE(0)
          if (pending.length < length) return
          const code = pending.readInt32BE(4)
          const message = pending.subarray(0, length)
          pending = pending.subarray(length)
          if (code === SSL_REQUEST_CODE || code === GSSENC_REQUEST_CODE) {
            server.write(Buffer.from("N"))
            continue
          }
          started = true
          runBatch([message], true)
          continue
        }
        if (pending.length < 5) return
        const type = String.fromCharCode(pending[0]!)
        const length = pending.readInt32BE(1) + 1
        if (pending.length < length) return
        const message = pending.subarray(0, length)
        pending = pending.subarray(length)
        if (type === "X") {
          shutdown()
          return
        }
        batch.push(message)
        // Sync and simple Query end a sequence; Flush asks for output but keeps the sequence open.
        if (type === "S" || type === "Q" || type === "H") {
          const messages = batch
          batch = []
          runBatch(messages, type !== "H")
        }
      }
    })
    server.on("end", shutdown)
    server.on("error", shutdown)
    return client
  }

  return { connect }
}
