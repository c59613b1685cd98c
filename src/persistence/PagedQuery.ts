// The one shape of every paged list: the page's rows in a stable order and the total count, both under the same
// WHERE, read at once. Callers give the SELECT (columns and FROM, joins included), the COUNT's FROM, the condition
// and the order.
import { Effect } from "effect"
import type { SqlClient, SqlError, Statement } from "effect/sql"
import { type PageOf, pageOf, type PageRequest } from "../schema/Common.ts"
import { countOf } from "./SqlValues.ts"

export interface PagedQuery<Row, A> {
  /** `SELECT <columns> FROM <table> [JOIN ...]` */
  readonly select: Statement.Fragment
  /** The table (and joins) the total is counted over: `FROM <table>` without the keyword. */
  readonly countFrom: Statement.Fragment
  readonly where: Statement.Fragment
  readonly orderBy: Statement.Fragment
  readonly page: PageRequest
  readonly toItem: (row: Row) => A
}

export const pagedQuery = <Row extends object, A>(
  sql: SqlClient.SqlClient,
  query: PagedQuery<Row, A>
): Effect.Effect<PageOf<A>, SqlError.SqlError> =>
  Effect.map(
    Effect.all([
      sql<Row>`${query.select} WHERE ${query.where} ORDER BY ${query.orderBy}
        LIMIT ${query.page.size} OFFSET ${query.page.page * query.page.size}`,
      sql<{ count: unknown }>`SELECT count(*) AS count FROM ${query.countFrom} WHERE ${query.where}`
    ]),
    ([rows, total]) => pageOf(rows.map(query.toItem), query.page, countOf(total))
  )
