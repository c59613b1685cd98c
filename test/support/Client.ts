// A small HTTP client for the API tests: sends JSON (or raw bodies), and answers with a Reply that asserts the
// envelope of SERVICE.md on the way out.
import { expect } from "vitest"

export interface RequestOptions {
  readonly token?: string | undefined
  readonly body?: unknown
  /** Sent as is (malformed JSON, XML, oversized payloads). */
  readonly rawBody?: string | Uint8Array | undefined
  readonly contentType?: string | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

export class Reply {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly headers: Headers
  readonly body: any
  constructor(method: string, path: string, status: number, headers: Headers, body: any) {
    this.method = method
    this.path = path
    this.status = status
    this.headers = headers
    this.body = body
  }

  private describe(): string {
    return `${this.method} ${this.path} -> ${this.status} ${JSON.stringify(this.body)?.slice(0, 600)}`
  }

  /** Asserts a success envelope with this status and returns its data. */
  ok(status = 200): any {
    expect(this.status, this.describe()).toBe(status)
    expect(this.body, this.describe()).toMatchObject({
      success: true,
      message: expect.any(String),
      timestamp: expect.any(String)
    })
    expect("data" in this.body, this.describe()).toBe(true)
    expect(new Date(this.body.timestamp).toISOString()).toBe(this.body.timestamp)
    return this.body.data
  }

  /** Asserts a failure envelope with this status and error code and returns the body. */
  fails(status: number, errorCode: string): any {
    expect(this.status, this.describe()).toBe(status)
    expect(this.body, this.describe()).toMatchObject({
      success: false,
      errorCode,
      message: expect.any(String),
      timestamp: expect.any(String),
      errors: expect.any(Array),
      correlationId: expect.any(String)
    })
    expect(this.body.correlationId).toBe(this.headers.get("x-correlation-id"))
    for (const entry of this.body.errors) {
      expect(entry).toMatchObject({ field: expect.any(String), message: expect.any(String), code: expect.any(String) })
    }
    return this.body
  }
}

export const send = async (
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {}
): Promise<Reply> => {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token !== undefined) headers["authorization"] = `Bearer ${options.token}`
  let body: string | Blob | undefined
  if (options.rawBody !== undefined) {
    body = typeof options.rawBody === "string" ? options.rawBody : new Blob([new Uint8Array(options.rawBody)])
    headers["content-type"] = options.contentType ?? "application/json"
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body)
    headers["content-type"] = options.contentType ?? "application/json"
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = text === "" ? undefined : JSON.parse(text)
  } catch {
    // not JSON: keep the text
  }
  return new Reply(method, path, response.status, response.headers, parsed)
}
