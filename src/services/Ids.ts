// Ids are UUID v7 strings (ARCHITECTURE.md, Conventions): time-ordered, so "newest first" is also id order.
import { Clock, Context, Effect } from "effect"
import { createHash, randomBytes } from "node:crypto"

// Random bytes are drawn in blocks (one call to the CSPRNG per 409 ids, as crypto.randomUUID does) and the hex digits
// come from a table: an id is made on every request and every engine command, and this was 2 % of the CPU.
const RANDOM_BLOCK = 4096
let randomPool = randomBytes(RANDOM_BLOCK)
let randomOffset = 0
const nextRandom = (): Uint8Array => {
  if (randomOffset + 10 > RANDOM_BLOCK) {
    randomPool = randomBytes(RANDOM_BLOCK)
    randomOffset = 0
  }
  const random = randomPool.subarray(randomOffset, randomOffset + 10)
  randomOffset += 10
  return random
}
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"))

export const uuidV7 = (epochMillis: number, random: Uint8Array = nextRandom()): string => {
  const ms = Math.max(0, Math.floor(epochMillis))
  // 48 bits of milliseconds: the high 16 and the low 32 (exact in a double up to 2^53)
  const high = Math.floor(ms / 0x1_0000_0000)
  const low = ms >>> 0
  const hex = (byte: number) => HEX[byte & 0xff]!
  return hex(high >>> 8) + hex(high) + hex(low >>> 24) + hex(low >>> 16) + "-" + hex(low >>> 8) + hex(low) + "-" +
    hex((random[0]! & 0x0f) | 0x70) + hex(random[1]!) + "-" + // version 7
    hex((random[2]! & 0x3f) | 0x80) + hex(random[3]!) + "-" + // RFC 4122 variant
    hex(random[4]!) + hex(random[5]!) + hex(random[6]!) + hex(random[7]!) + hex(random[8]!) + hex(random[9]!)
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

export { isUuid } from "../persistence/SqlValues.ts"
