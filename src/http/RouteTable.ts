// The method + path patterns of the API, taken from its OpenAPI document, so an unknown path (404) can be told from a
// known path called with the wrong method (405).
import { OpenApi } from "effect/http-api"
import { Api } from "./Api.ts"

interface RoutePattern {
  readonly pattern: RegExp
  readonly methods: ReadonlyArray<string>
}

const toPattern = (path: string): RegExp =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, "[^/]+")}/?$`)

const routes: ReadonlyArray<RoutePattern> = Object.entries(OpenApi.fromApi(Api).paths).map(([path, item]) => ({
  pattern: toPattern(path),
  methods: Object.keys(item).filter((key) => ["get", "put", "post", "delete", "patch"].includes(key)).map((m) =>
    m.toUpperCase()
  )
}))

/** The methods the API offers on this path, or an empty list when it knows no such path. */
export const allowedMethods = (path: string): ReadonlyArray<string> =>
  routes.filter((route) => route.pattern.test(path)).flatMap((route) => route.methods)
