// The method + path patterns of the API, taken from its OpenAPI document, so an unknown path (404) can be told from a
// known path called with the wrong method (405); and each operation's success status (for its audit record).
import { OpenApi } from "effect/http-api"
import { Api } from "./Api.ts"

interface RoutePattern {
  readonly pattern: RegExp
  readonly methods: ReadonlyArray<string>
}

const toPattern = (path: string): RegExp =>
  new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, "[^/]+")}/?$`)

const document = OpenApi.fromApi(Api)

const routes: ReadonlyArray<RoutePattern> = Object.entries(document.paths).map(([path, item]) => ({
  pattern: toPattern(path),
  methods: Object.keys(item).filter((key) => ["get", "put", "post", "delete", "patch"].includes(key)).map((m) =>
    m.toUpperCase()
  )
}))

/** The methods the API offers on this path, or an empty list when it knows no such path. */
export const allowedMethods = (path: string): ReadonlyArray<string> =>
  routes.filter((route) => route.pattern.test(path)).flatMap((route) => route.methods)

/** Operation id (`group.endpoint`) -> the status it answers on success, for operations with exactly one. */
const successStatuses: ReadonlyMap<string, number> = new Map(
  Object.values(document.paths).flatMap((item) =>
    Object.values(item).flatMap((operation): ReadonlyArray<readonly [string, number]> => {
      if (typeof operation !== "object" || operation === null || !("operationId" in operation)) return []
      const { operationId, responses } = operation as {
        readonly operationId: string
        readonly responses?: Readonly<Record<string, unknown>>
      }
      const success = Object.keys(responses ?? {}).filter((status) => /^2\d\d$/.test(status))
      return success.length === 1 ? [[operationId, Number(success[0])]] : []
    })
  )
)

/** The success status of an operation (`group.endpoint`), when it has exactly one. */
export const successStatusOf = (group: string, endpoint: string): number | undefined =>
  successStatuses.get(`${group}.${endpoint}`)
