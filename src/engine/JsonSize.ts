// About how many characters a value takes as JSON, counted only up to a budget: a walk that stops once past it, so a
// value that would take gigabytes (one large list referenced from many places, each written out in full) costs no
// more to measure than the budget. Strings count their length (escapes aside), numbers a typical width.

const NUMBER_WIDTH = 8

/**
 * The value's size as JSON, or the first count past `budget` once it is over (the walk stops there). `unit`: strings
 * counted in characters, or in their UTF-8 bytes (what a database's message limit counts).
 */
export const jsonSizeWithin = (value: unknown, budget: number, unit: "chars" | "bytes" = "chars"): number => {
  let size = 0
  const pending: Array<unknown> = [value]
  while (pending.length > 0 && size <= budget) {
    const next = pending.pop()
    if (typeof next === "string") size += (unit === "chars" ? next.length : Buffer.byteLength(next)) + 2
    else if (typeof next === "number") size += NUMBER_WIDTH
    else if (typeof next === "boolean") size += 5
    else if (next === null || typeof next !== "object") size += 4
    else if (Array.isArray(next)) {
      size += 2 + next.length
      for (const item of next) pending.push(item)
    } else {
      size += 2
      for (const key in next) {
        const item = (next as Record<string, unknown>)[key]
        if (item === undefined) continue
        size += key.length + 4
        pending.push(item)
      }
    }
  }
  return size
}
