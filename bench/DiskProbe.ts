// The disk's own commit latency while the bench runs: a worker thread writes 8 KiB and fdatasyncs it every 20 ms (as a
// database does for its log at each commit) in a directory on the database's disk, and reports the times. On this VM
// such an fdatasync takes ~0.4 ms at the median but now and then 50–120 ms, and every commit in flight then waits that
// long — the tails at half rate are partly the disk's, which no change to the service can remove while a 2xx means
// fsynced (issue 11). The probe's flushes are few (50/s) against the database's hundreds.
import { fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs"
import { join } from "node:path"
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads"

const EVERY_MS = 20
const BLOCK = Buffer.alloc(8192, 1)

if (!isMainThread && workerData?.probeDir !== undefined) {
  const file = openSync(join(workerData.probeDir as string, "probe"), "w")
  const pause = new Int32Array(new SharedArrayBuffer(4))
  const times: Array<readonly [number, number]> = []
  let stop = false
  parentPort!.on("message", () => (stop = true))
  const loop = () => {
    // A round of probes, then a turn of the event loop so the stop message is seen.
    for (let i = 0; i < 25 && !stop; i++) {
      const started = performance.now()
      writeSync(file, BLOCK, 0, BLOCK.length, (times.length % 128) * BLOCK.length)
      fdatasyncSync(file)
      times.push([Date.now(), performance.now() - started])
      Atomics.wait(pause, 0, 0, EVERY_MS)
    }
    if (stop) parentPort!.postMessage(times)
    else setImmediate(loop)
  }
  loop()
}

export interface DiskTimes {
  /** fdatasync times (ms) of the probes that ended between `from` and `to` (epoch ms). */
  readonly between: (from: number, to: number) => { count: number; p99: number; max: number; over20: number }
}

/** Starts probing in a scratch directory under `dir` (on the database's disk); `stop` answers the times. */
export const startDiskProbe = (dir: string) => {
  const probeDir = mkdtempSync(join(dir, ".disk-probe-"))
  const worker = new Worker(new URL(import.meta.url), { workerData: { probeDir } })
  // A bench that fails before stopping the probe still ends, and leaves no scratch directory behind.
  worker.unref()
  const removeDir = () => rmSync(probeDir, { recursive: true, force: true })
  process.once("exit", removeDir)
  return {
    stop: () =>
      new Promise<DiskTimes>((resolve, reject) => {
        worker.once("message", (times: Array<readonly [number, number]>) => {
          void worker.terminate()
          removeDir()
          resolve({
            between: (from, to) => {
              const within = times.filter(([at]) => at >= from && at <= to).map(([, ms]) => ms).sort((a, b) => a - b)
              const at = (q: number) =>
                Math.round((within[Math.min(within.length - 1, Math.floor(q * within.length))] ?? 0) * 10) / 10
              return { count: within.length, p99: at(0.99), max: at(1), over20: within.filter((ms) => ms > 20).length }
            }
          })
        })
        worker.once("error", reject)
        worker.postMessage("stop")
      })
  }
}
