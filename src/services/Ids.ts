// Ids are UUID v7 strings (ARCHITECTURE.md, Conventions): time-ordered, so "newest first" is also id order.
import { Clock, Context, Effect } from "effect"
import { createHash, randomBytes } from "node:crypto"

export const uuidV7 = (epochMillis: number, random: Uint8Array = randomBytes(10)): string => {
  const bytes = new Uint8Array(16)
  let ms = BigInt(Math.max(0, Math.floor(epochMillis)))
  for (let i = 5; i >= 0; i--) {
    bytes[i] = Number(ms & 0xffn)
    ms >>= 8n
  }
  bytes.set(random.subarray(0, 10), 6)
  bytes[6] = (bytes[6]! & 0x0f) | 0x70 // version 7
  bytes[8] = (bytes[8]! & 0x3f) | 0x80 // RFC 4122 variant
  const hex = Buffer.from(bytes).toString("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * When set, new ids are derived from a key instead of drawn at random: running the same work again with the same seed
 * makes the same ids in the same order, so its commands (whose ids derive from these) are deduplicated by the
 * entities. This is how an idempotent request that was cut off is finished by its retry instead of done twice.
 */
export interface IdSeed {
  readonly key: string
  /** The first attempt's moment: derived ids stay time-ordered like the random ones. */
  readonly epochMillis: number
  next: number
}

export const CurrentIdSeed = Context.Reference<IdSeed | undefined>("flowcore/IdSeed", { defaultValue: () => undefined })

export const newId: Effect.Effect<string> = Effect.gen(function*() {
  const seed = yield* CurrentIdSeed
  if (seed === undefined) return uuidV7(yield* Clock.currentTimeMillis)
  const n = seed.next++
  return uuidV7(seed.epochMillis, createHash("sha256").update(`${seed.key}#${n}`).digest())
})

/** Runs `effect` with its new ids derived from `key` (see IdSeed). */
export const withIdsFrom =
  (key: string, epochMillis: number) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.provideService(effect, CurrentIdSeed, { key, epochMillis, next: 0 })

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value)
