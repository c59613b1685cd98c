// The reads of what belongs to one resource (GET /:id/...: its history, tokens, XML, lock): the same path parameter,
// 404 when the resource is not there, and the same access, so each endpoint names only its own path, answer and
// summary (the reads' counterpart of WritesOn; ItemById is the resource itself).
import type { Context, Schema } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { NotFoundHttp } from "../../schema/ApiErrors.ts"
import { Ok } from "../../schema/Envelope.ts"

export const readsOn =
  <Id extends Schema.Top>(id: Id, access: Context.Context<never>) =>
  <const Name extends string, const Path extends `/${string}`, Part extends Schema.Top>(
    name: Name,
    path: Path,
    part: Part,
    summary?: string
  ) => {
    const endpoint = HttpApiEndpoint.get(name, path, { params: { id }, success: Ok(part), error: NotFoundHttp })
      .annotateMerge(access)
    return summary === undefined ? endpoint : endpoint.annotateMerge(OpenApi.annotations({ summary }))
  }
