// The benches' HTTP client: node:http over kept-alive sockets. The load generator shares the 2 cores with the service
// and PostgreSQL, so its own cost shows up in every rate measured: `fetch` (undici, web streams, a Response and a
// Headers object per call) spent 0.3–0.6 ms of CPU per request here, about a third of what the service spends on a
// start; this client spends a fraction of that, closer to an independent load generator (wrk, k6) on another machine.
// `LOAD_CLIENT=fetch` measures with fetch as before.
import { Agent, request } from "node:http"

export interface LeanResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  readonly text: string
}

/** At most this many connections to one host; requests beyond wait for a free one. */
export const MAX_CONNECTIONS = 256
const agent = new Agent({ keepAlive: true, maxSockets: MAX_CONNECTIONS })
let opened = 0

/** How many connections this client has opened so far (a request that found none free opened one). */
export const connectionsOpened = (): number => opened
const useFetch = process.env["LOAD_CLIENT"] === "fetch"

/** One request; `body` is sent as is (a string) with `contentType`. */
export const send = (
  url: string,
  method: string,
  headers: Readonly<Record<string, string>>,
  body?: string
): Promise<LeanResponse> => {
  if (useFetch) {
    return fetch(url, { method, headers, ...(body === undefined ? {} : { body }) }).then(async (response) => ({
      status: response.status,
      headers: Object.fromEntries(response.headers),
      text: await response.text()
    }))
  }
  return leanSend(url, method, headers, body, true)
}

const leanSend = (
  url: string,
  method: string,
  headers: Readonly<Record<string, string>>,
  body: string | undefined,
  mayResend: boolean
): Promise<LeanResponse> =>
  new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method,
      agent,
      headers: body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) }
    }, (incoming) => {
      const chunks: Array<Buffer> = []
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("end", () =>
        resolve({
          status: incoming.statusCode ?? 0,
          headers: incoming.headers,
          text: Buffer.concat(chunks).toString("utf8")
        }))
      incoming.on("error", reject)
    })
    // A kept-alive socket the server closed for idleness just as this request went out: the server never read the
    // request, so it is sent again on a fresh socket (Node's documented remedy, `request.reusedSocket`).
    outgoing.on("error", (error: NodeJS.ErrnoException) =>
      mayResend && outgoing.reusedSocket && error.code === "ECONNRESET"
        ? leanSend(url, method, headers, body, false).then(resolve, reject)
        : reject(error))
    outgoing.once("socket", () => {
      if (!outgoing.reusedSocket) {
        opened++
      }
    })
    outgoing.end(body)
  })
