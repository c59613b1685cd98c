// The WHERE of a tenant-scoped list: the request's tenant (CurrentTenant) and the list's own conditions, so a list
// cannot leave the tenant out or take it from anywhere else.
import { Effect } from "effect"
import type { SqlClient, Statement } from "effect/sql"
import { CurrentTenant } from "../auth/CurrentTenant.ts"

export const tenantWhere = (
  sql: SqlClient.SqlClient,
  conditions: ReadonlyArray<Statement.Fragment>
): Effect.Effect<Statement.Fragment, never, CurrentTenant> =>
  Effect.map(CurrentTenant, (tenantId) => sql.and([sql`tenant_id = ${tenantId}`, ...conditions]))
