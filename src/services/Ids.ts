// Ids are UUID v7 strings (ARCHITECTURE.md, Conventions): time-ordered, so "newest first" is also id order.
import { Clock, Effect } from "effect"
import { randomBytes } from "node:crypto"

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

export const newId: Effect.Effect<string> = Effect.map(Clock.currentTimeMillis, (ms) => uuidV7(ms))

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value)
