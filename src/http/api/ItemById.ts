// GET /:id of a collection: one item by its id, 404 when there is none, with the access it needs and its summary
// (the read-one endpoints of every group share this shape, as their lists share pagedList).
import type { Context, Schema } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { NotFoundHttp } from "../../schema/ApiErrors.ts"
import { Ok } from "../../schema/Envelope.ts"

export const itemById = <Id extends Schema.Top, Item extends Schema.Top>(
  id: Id,
  item: Item,
  access: Context.Context<never>,
  summary?: string
) => {
  const endpoint = HttpApiEndpoint.get("get", "/:id", { params: { id }, success: Ok(item), error: NotFoundHttp })
    .annotateMerge(access)
  return summary === undefined ? endpoint : endpoint.annotateMerge(OpenApi.annotations({ summary }))
}
