// Every endpoint declares the role it needs (src/http/Access.ts), and the declaration agrees with how the endpoint is
// guarded: a public one runs without the authentication middleware, every other one behind it. An endpoint added
// without a declaration fails here (and would be a 500, never an open door, if it were served).
import { HttpApi } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { accessOf } from "../../src/http/Access.ts"
import { Api } from "../../src/http/Api.ts"
import { Authentication } from "../../src/http/Middleware.ts"

const endpoints = () => {
  const found: Array<{ readonly id: string; readonly access: string | undefined; readonly authenticated: boolean }> = []
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, middleware }) => {
      found.push({
        id: `${group.identifier}.${endpoint.identifier}`,
        access: accessOf(endpoint)?.kind,
        authenticated: [...middleware].some((m) => m.key === Authentication.key)
      })
    }
  })
  return found
}

describe("endpoint access", () => {
  it("is declared on every endpoint", () => {
    const all = endpoints()
    expect(all.length).toBeGreaterThan(150)
    expect(all.filter((e) => e.access === undefined).map((e) => e.id)).toEqual([])
  })

  it("is public exactly where the authentication middleware is absent", () => {
    const mismatched = endpoints().filter((e) => (e.access === "public") === e.authenticated)
    expect(mismatched.map((e) => `${e.id}: ${e.access}, authenticated ${e.authenticated}`)).toEqual([])
  })
})
