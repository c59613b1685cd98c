// GET / of a collection: one page of its items, filtered by the query's fields, with the access it needs and its
// summary (the list endpoints of every group share this shape).
import { type Context, Schema } from "effect"
import { HttpApiEndpoint, OpenApi } from "effect/http-api"
import { Page } from "../../schema/Common.ts"
import { Ok } from "../../schema/Envelope.ts"

export const pagedList = <Query extends Schema.Struct.Fields, Item extends Schema.Top>(
  query: Query,
  item: Item,
  access: Context.Context<never>,
  summary?: string
) => {
  const endpoint = HttpApiEndpoint.get("list", "/", { query: Schema.Struct(query), success: Ok(Page(item)) })
    .annotateMerge(access)
  return summary === undefined ? endpoint : endpoint.annotateMerge(OpenApi.annotations({ summary }))
}
