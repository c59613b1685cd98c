// The Node HTTP server behind the Effect one: kept in the node's lifecycle (a graceful stop closes its listener), and
// answering what Node refuses before any route sees it (headers over the size limit, unparsable requests) with the
// failure envelope instead of Node's bare status line.
import { randomUUID } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { Duplex } from "node:stream"
import type { NodeLifecycleState } from "./NodeLifecycle.ts"

/**
 * Node's limit on a request's headers, request line included (its default, made explicit): a longer request is the
 * 431 below before any route sees it. Within it every path parameter reaches its endpoint (see App.ts).
 */
export const MAX_HEADER_BYTES = 16 * 1024

const envelope = (status: number, reason: string, message: string): string => {
  const correlationId = randomUUID()
  const body = JSON.stringify({
    success: false,
    errorCode: "BAD_REQUEST",
    message,
    timestamp: new Date().toISOString(),
    errors: [],
    correlationId
  })
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${
    Buffer.byteLength(body)
  }\r\n` +
    `x-correlation-id: ${correlationId}\r\nconnection: close\r\n\r\n${body}`
}

const onClientError = (error: Error & { readonly code?: string }, socket: Duplex) => {
  if (!socket.writable) return socket.destroy()
  const response = error.code === "HPE_HEADER_OVERFLOW"
    ? envelope(
      431,
      "Request Header Fields Too Large",
      `the request headers exceed the size limit (${MAX_HEADER_BYTES / 1024} KiB)`
    )
    : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
    ? envelope(408, "Request Timeout", "the request was not received in time")
    : envelope(400, "Bad Request", "the request is not valid HTTP")
  socket.end(response)
}

export const httpServerFactory = (lifecycle: NodeLifecycleState) => (): Server => {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES })
  server.on("clientError", onClientError)
  lifecycle.server = server
  return server
}
