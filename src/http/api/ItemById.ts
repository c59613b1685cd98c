// GET /:id of a collection: one item by its id, 404 when there is none, with the access it needs and its summary
// (the read-one endpoints of every group share this shape, as their lists share pagedList): the read of the resource
// itself, among the reads on it (readsOn).
import type { Context, Schema } from "effect"
import { readsOn } from "./ReadsOn.ts"

export const itemById = <Id extends Schema.Top, Item extends Schema.Top>(
  id: Id,
  item: Item,
  access: Context.Context<never>,
  summary?: string
) => readsOn(id, access)("get", "/:id", item, summary)
