// Log lines go to stdout together: one write per turn of the event loop instead of one per line. Each write to a pipe
// is a system call, and with an access line per request the writes alone took several percent of the CPU under load.
// Lines still pending when the process exits are written synchronously.
import { writeSync } from "node:fs"

let pending: Array<string> = []
let scheduled = false

const flush = () => {
  scheduled = false
  if (pending.length === 0) return
  const text = `${pending.join("\n")}\n`
  pending = []
  process.stdout.write(text)
}

process.once("exit", () => {
  if (pending.length > 0) writeSync(1, `${pending.join("\n")}\n`)
  pending = []
})

/** Queues one line for stdout. */
export const writeLogLine = (line: string): void => {
  pending.push(line)
  if (!scheduled) {
    scheduled = true
    setImmediate(flush)
  }
}
