// Group commit, as databases do it for their own log: writes that arrive while earlier ones are being committed wait
// and are then committed together — one transaction, one fsync — and each caller is answered only after that commit.
// A lone write is never delayed (with a free slot it is flushed at once); under load the batches grow by themselves,
// because everything that queued during one flush goes into the next. Up to `maxInFlight` flushes run at once (each
// on its own pooled connection), each with at most `maxBatch` writes. The same batching serves reads that many
// requests make at once (JobReads, MessageTargets, InstanceStore.load): one statement answers the whole batch.
import { Deferred, Effect, Exit } from "effect"
import type { NonEmptyReadonlyArray } from "effect/Array"

export interface GroupCommitOptions<A, B, E> {
  /** Commits the items together; answers one exit per item, in order (one item may fail while the others commit). */
  readonly flush: (items: NonEmptyReadonlyArray<A>) => Effect.Effect<ReadonlyArray<Exit.Exit<B, E>>>
  readonly maxBatch: number
  readonly maxInFlight: number
  /** Told the size of each flushed batch (metrics). */
  readonly onBatch?: ((size: number, seconds: number) => Effect.Effect<void>) | undefined
}

export interface GroupCommit<A, B, E> {
  /** Commits the item with whatever else is waiting, and answers once its batch is committed. */
  readonly submit: (item: A) => Effect.Effect<B, E>
}

interface Waiting<A, B, E> {
  readonly item: A
  readonly answer: Deferred.Deferred<B, E>
}

export const makeGroupCommit = <A, B, E>(options: GroupCommitOptions<A, B, E>): GroupCommit<A, B, E> => {
  const queue: Array<Waiting<A, B, E>> = []
  let inFlight = 0

  // A flush runs detached from the callers: a caller that goes away (a client disconnecting) does not stop the commit
  // of the others in its batch, and its own write still commits or not as one with them.
  const flushNext: Effect.Effect<void> = Effect.suspend(() => {
    if (queue.length === 0 || inFlight >= options.maxInFlight) return Effect.void
    const batch = queue.splice(0, options.maxBatch) as unknown as NonEmptyReadonlyArray<Waiting<A, B, E>>
    inFlight++
    const started = performance.now()
    return options.flush(batch.map((waiting) => waiting.item) as unknown as NonEmptyReadonlyArray<A>).pipe(
      Effect.exit,
      Effect.flatMap((outcome) =>
        Effect.sync(() => {
          batch.forEach((waiting, index) => {
            const exit: Exit.Exit<B, E> = Exit.isSuccess(outcome)
              ? outcome.value[index] ?? Exit.die(new Error("group commit: the flush answered fewer items"))
              : (outcome as Exit.Exit<never, never>)
            Deferred.doneUnsafe(waiting.answer, exit)
          })
        })
      ),
      Effect.tap(() =>
        options.onBatch === undefined
          ? Effect.void
          : options.onBatch(batch.length, (performance.now() - started) / 1000)
      ),
      Effect.ensuring(Effect.sync(() => void inFlight--)),
      Effect.andThen(() => flushNext)
    )
  })

  return {
    submit: (item) =>
      Effect.suspend(() => {
        const answer = Deferred.makeUnsafe<B, E>()
        queue.push({ item, answer })
        return inFlight < options.maxInFlight
          ? Effect.andThen(Effect.forkDetach(flushNext), Deferred.await(answer))
          : Deferred.await(answer)
      })
  }
}
