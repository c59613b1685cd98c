// Server-sent events read off a response body (GET /jobs/stream): each event's `data:` lines joined, parsed as JSON;
// comments (the stream's keep-alives) and events without data are skipped.

export async function* sseData<A = Record<string, unknown>>(body: ReadableStream<Uint8Array>): AsyncGenerator<A> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ""
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      buffer += decoder.decode(value, { stream: true })
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const data = buffer.slice(0, end).split("\n").filter((line) => line.startsWith("data:"))
          .map((line) => line.slice(5).trim()).join("\n")
        buffer = buffer.slice(end + 2)
        if (data !== "") yield JSON.parse(data) as A
      }
    }
  } finally {
    reader.releaseLock()
  }
}

/** The next `count` events of `events` (fewer if the stream ends first). */
export const nextOf = async <A>(events: AsyncIterator<A>, count: number): Promise<Array<A>> => {
  const taken: Array<A> = []
  while (taken.length < count) {
    const next = await events.next()
    if (next.done === true) break
    taken.push(next.value)
  }
  return taken
}
