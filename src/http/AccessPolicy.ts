// The access policy as one listing, keyed by OpenAPI operation id (`<group>.<endpoint>`): read from the endpoints'
// own annotations (Access.ts), never written by hand, so it cannot drift from them. For documentation and tests; the
// middleware reads each endpoint's annotation directly.
import { HttpApi } from "effect/http-api"
import { type Access, accessOf } from "./Access.ts"
import { Api } from "./Api.ts"

const listing = (): Readonly<Record<string, Access>> => {
  const policy: Record<string, Access> = {}
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group }) => {
      const access = accessOf(endpoint)
      if (access !== undefined) policy[`${group.identifier}.${endpoint.identifier}`] = access
    }
  })
  return policy
}

/** Every endpoint that declares its access, with that access. */
export const ACCESS_POLICY: Readonly<Record<string, Access>> = listing()
