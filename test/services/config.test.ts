// Configuration from the environment: defaults, and a clear refusal naming the variable for a bad value.
import { describe, expect, it } from "vitest"
import { ConfigError, configFromEnv } from "../../src/config.ts"

describe("configuration", () => {
  it("lets the heap grow 100 % past its live objects unless HEAP_GROWTH_PERCENT says otherwise (0: V8 decides)", () => {
    expect(configFromEnv({}).heapGrowthPercent).toBe(100)
    expect(configFromEnv({ HEAP_GROWTH_PERCENT: "0" }).heapGrowthPercent).toBe(0)
    expect(configFromEnv({ HEAP_GROWTH_PERCENT: "40" }).heapGrowthPercent).toBe(40)
  })

  it("lets an idle instance leave memory after 3 seconds unless ENTITY_IDLE_SECONDS says otherwise", () => {
    expect(configFromEnv({}).entityIdleSeconds).toBe(3)
    expect(configFromEnv({ ENTITY_IDLE_SECONDS: "30" }).entityIdleSeconds).toBe(30)
  })

  it("writes an access line for failed requests unless ACCESS_LOG says all or off", () => {
    expect(configFromEnv({}).accessLog).toBe("failures")
    expect(configFromEnv({ ACCESS_LOG: "all" }).accessLog).toBe("all")
    expect(configFromEnv({ ACCESS_LOG: "OFF" }).accessLog).toBe("off")
    expect(() => configFromEnv({ ACCESS_LOG: "verbose" })).toThrow(/ACCESS_LOG must be one of failures, all, off/)
  })

  it("refuses a value out of range or not a number, naming the variable", () => {
    for (const bad of ["-1", "1001", "forty", "2.5"]) {
      expect(() => configFromEnv({ HEAP_GROWTH_PERCENT: bad })).toThrow(ConfigError)
      expect(() => configFromEnv({ HEAP_GROWTH_PERCENT: bad })).toThrow(/HEAP_GROWTH_PERCENT/)
    }
    expect(() => configFromEnv({ ENTITY_IDLE_SECONDS: "0" })).toThrow(/ENTITY_IDLE_SECONDS/)
  })
})
