// Tenants come into being in two ways: `default` on the first start, and any tenant first seen in a verified token
// (OIDC or our own) "exists from then on". Known tenant ids are cached so the check costs one query per tenant.
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { nowIso } from "../Time.ts"

export interface TenantsShape {
  /** Makes sure the tenant exists (idempotent). */
  readonly ensure: (tenantId: string, name?: string) => Effect.Effect<void>
  readonly findByName: (name: string) => Effect.Effect<string | undefined>
  /** Records that a subject called the API in the tenant (once per process and subject; idempotent). */
  readonly seen: (tenantId: string, subject: string) => Effect.Effect<void>
  /** A local user of the tenant (by username or id), or a subject that has called the API in it. */
  readonly knowsSubject: (tenantId: string, subject: string) => Effect.Effect<boolean>
}

export class Tenants extends Context.Service<Tenants, TenantsShape>()("flowcore/Tenants") {
  static readonly layer = Layer.effect(
    Tenants,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const known = new Set<string>()
      const seenSubjects = new Set<string>()
      return {
        ensure: (tenantId, name) =>
          known.has(tenantId)
            ? Effect.void
            : Effect.gen(function*() {
              const createdAt = yield* nowIso
              yield* sql`INSERT INTO tenants (tenant_id, name, created_at)
                VALUES (${tenantId}, ${name ?? tenantId}, ${createdAt}) ON CONFLICT DO NOTHING`
              known.add(tenantId)
            }).pipe(Effect.orDie),
        seen: (tenantId, subject) => {
          const key = `${tenantId}/${subject}`
          if (seenSubjects.has(key)) return Effect.void
          return Effect.gen(function*() {
            const now = yield* nowIso
            yield* sql`INSERT INTO tenant_subjects (tenant_id, subject, first_seen_at) VALUES (${tenantId}, ${subject}, ${now})
              ON CONFLICT DO NOTHING`
            seenSubjects.add(key)
          }).pipe(Effect.orDie)
        },
        knowsSubject: (tenantId, subject) =>
          sql<{ known: boolean }>`SELECT EXISTS (SELECT 1 FROM users WHERE tenant_id = ${tenantId}
                AND (lower(username) = lower(${subject}) OR id::text = ${subject}))
              OR EXISTS (SELECT 1 FROM tenant_subjects WHERE tenant_id = ${tenantId} AND subject = ${subject}) AS known`
            .pipe(
              Effect.map((rows) => rows[0]?.known === true),
              Effect.orDie
            ),
        findByName: (name) =>
          sql<{ tenant_id: string }>`SELECT tenant_id FROM tenants WHERE name = ${name}`.pipe(
            Effect.map((rows) => rows[0]?.tenant_id),
            Effect.orDie
          )
      }
    })
  )
}
