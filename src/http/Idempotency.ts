// The Idempotency-Key header (the convention Stripe made common; IETF draft "The Idempotency-Key HTTP Header Field"):
// a write sent again with the same key returns the first answer and changes nothing; the same key with a different
// request is 422. Keys belong to the caller's tenant. Only answers that succeeded are remembered: a failed request
// changed nothing, so its retry simply runs again.
import { Effect } from "effect"
import type { Principal } from "../auth/Principal.ts"
import { type BusinessError, businessError } from "../schema/ApiErrors.ts"
import { fingerprintOf, IdempotentRequests } from "../services/IdempotentRequests.ts"

export const idempotently = <A, E, R>(
  principal: Principal,
  key: string | undefined,
  route: string,
  body: unknown,
  work: Effect.Effect<A, E, R>
): Effect.Effect<A, E | BusinessError, R | IdempotentRequests> => {
  if (key === undefined) return work
  const fingerprint = fingerprintOf(route, body)
  return Effect.flatMap(IdempotentRequests, (requests) =>
    requests.run<A, E | BusinessError, R>(
      { tenantId: principal.tenantId, scope: "http", key, fingerprint, actor: principal.sub },
      work,
      (answered) =>
        answered.fingerprint === fingerprint && answered.response !== undefined
          ? Effect.succeed(answered.response as A)
          : Effect.fail(businessError(`Idempotency-Key ${key} was used for a different request`, [
            { field: "Idempotency-Key", message: "was used for a different request", code: "IDEMPOTENCY_KEY_REUSED" }
          ]))
    ))
}
