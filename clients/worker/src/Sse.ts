// Server-sent events from a fetch body: `data:` lines joined per event; comments (`: keep-alive`) skipped.
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder()
  let buffer = ""
  let data: Array<string> = []
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true })
    for (let newline = buffer.indexOf("\n"); newline >= 0; newline = buffer.indexOf("\n")) {
      const line = buffer.slice(0, newline).replace(/\r$/, "")
      buffer = buffer.slice(newline + 1)
      if (line === "") {
        if (data.length > 0) yield data.join("\n")
        data = []
      } else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""))
    }
  }
}
