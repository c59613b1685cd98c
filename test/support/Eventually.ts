// Waits for an outcome that another fiber produces (e.g. the outbox relay starting a called instance): re-checks
// until the assertion passes or the deadline is reached. Not a fixed sleep: it returns as soon as the outcome is there.
export const eventually = async <A>(
  check: () => Promise<A>,
  { timeoutMs = 10_000, intervalMs = 20 } = {}
): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > deadline) throw error
      await new Promise((resolve) => setTimeout(resolve, intervalMs))
    }
  }
}
