// UUID v7 ids (src/services/Ids.ts): the layout of RFC 9562 — 48 bits of milliseconds, version 7, variant 10 — so
// that ids sort by time, and distinct ids from the pooled random bytes.
import { describe, expect, it } from "vitest"
import { isUuid, uuidV7 } from "../../src/services/Ids.ts"

const millisOf = (id: string) => parseInt(id.replaceAll("-", "").slice(0, 12), 16)

describe("uuidV7", () => {
  it("carries the milliseconds, the version and the variant", () => {
    const random = Uint8Array.from([0xff, 0x01, 0xff, 0x03, 4, 5, 6, 7, 8, 9])
    for (const ms of [0, 1, 255, 0x1_0000_0000, Date.UTC(2026, 10, 23), 2 ** 48 - 1]) {
      const id = uuidV7(ms, random)
      expect(isUuid(id)).toBe(true)
      expect(millisOf(id)).toBe(ms)
      expect(id[14]).toBe("7")
      expect(["8", "9", "a", "b"]).toContain(id[19])
      expect(id.slice(15, 18)).toBe("f01")
      expect(id.slice(24)).toBe("040506070809")
    }
    expect(uuidV7(Date.UTC(2026, 10, 23), random)).toBe("01a205b3-d000-7f01-bf03-040506070809")
  })

  it("sorts by time and never repeats", () => {
    const ids = Array.from({ length: 5_000 }, (_, i) => uuidV7(1_700_000_000_000 + i))
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(Array.from({ length: 5_000 }, () => uuidV7(1_700_000_000_000))).size).toBe(5_000)
  })
})
