// The one-task instance load the benches share (npm run bench, bench:cluster): `starters` clients start instances of
// start -> service task "charge-card" -> end while `workers` loops activate up to 32 of their jobs at a time (a 200 ms
// long poll) and complete each, until `seconds` have passed.

type Call = (method: string, path: string, body?: unknown) => Promise<any>

export interface OneTaskLoad {
  readonly started: number
  readonly completed: number
  /** Each start's latency, ms. */
  readonly startLatencies: ReadonlyArray<number>
}

export const oneTaskLoad = async (
  call: Call,
  deploymentId: string,
  { seconds, starters, workers }: { readonly seconds: number; readonly starters: number; readonly workers: number }
): Promise<OneTaskLoad> => {
  const startLatencies: Array<number> = []
  let started = 0
  let completed = 0
  const deadline = performance.now() + seconds * 1000
  await Promise.all([
    ...Array.from({ length: starters }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now()
        await call("POST", "/process-instances", { deploymentId })
        startLatencies.push(performance.now() - t)
        started++
      }
    }),
    ...Array.from({ length: workers }, async (_, w) => {
      while (performance.now() < deadline) {
        const { jobs } = await call("POST", "/jobs/activation", {
          type: "charge-card",
          worker: `w${w}`,
          maxJobsToActivate: 32,
          timeout: 60_000,
          requestTimeout: 200
        })
        await Promise.all(jobs.map(async (job: { id: string }) => {
          await call("POST", `/jobs/${job.id}/complete`, {})
          completed++
        }))
      }
    })
  ])
  return { started, completed, startLatencies }
}
