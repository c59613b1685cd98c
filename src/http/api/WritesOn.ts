// The writes on one resource (POST /:id/...): the same path parameter, answer, errors and access (and, for a
// retry-safe write, the Idempotency-Key header), so each endpoint names only its own path, payload, answer message
// and summary.
import type { Context, Schema } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import type { ClientErrorsHttp } from "../../schema/ApiErrors.ts"
import { Ok } from "../../schema/Envelope.ts"

/** The errors a write may declare (each endpoint names its own; its handler's failures are typed by the whole set). */
type WriteErrors = typeof ClientErrorsHttp

export const writesOn = <
  Id extends Schema.Top,
  Data extends Schema.Top,
  Headers extends Schema.Top = never
>(
  id: Id,
  data: Data,
  error: WriteErrors,
  access: Context.Context<never>,
  headers?: Headers
) =>
<const Name extends string, const Path extends `/${string}`, Payload extends Schema.Top = never>(
  name: Name,
  path: Path,
  message: string,
  summary: string,
  payload?: Payload
) =>
  HttpApiEndpoint.post(name, path, { params: { id }, payload, headers, success: Ok(data, message), error })
    .annotateMerge(access)
    .annotateMerge(OpenApi.annotations({ summary }))
