// The connector types this installation runs (GET /connectors). A connector task is a service task whose job type
// is a connector type; the connector runtime (src/actors/ConnectorRunner.ts) does its work with a connection.
export interface ConnectorField {
  readonly name: string
  readonly required: boolean
  /** Never shown back once saved (answers show "********"). */
  readonly secret: boolean
  readonly description: string
}

export interface ConnectorType {
  readonly type: string
  readonly name: string
  readonly description: string
  /** What a connection of this type holds. */
  readonly configFields: ReadonlyArray<ConnectorField>
  /** What a connector task sets in its task headers (zeebe:taskHeaders). */
  readonly taskHeaders: ReadonlyArray<
    { readonly name: string; readonly required: boolean; readonly description: string }
  >
  /** The variables a task reads from its (input-mapped) variables. */
  readonly inputVariables: ReadonlyArray<{ readonly name: string; readonly description: string }>
}

export const HTTP_JSON = "io.flowcore:http-json:1"

export const CONNECTOR_TYPES: ReadonlyArray<ConnectorType> = [
  {
    type: HTTP_JSON,
    name: "REST (HTTP JSON)",
    description:
      "Calls an HTTP endpoint of the connection's base URL with a JSON body and puts the answer into a variable",
    configFields: [
      {
        name: "baseUrl",
        required: true,
        secret: false,
        description: "http(s) URL every request of this connection starts with"
      },
      { name: "authType", required: false, secret: false, description: "none (default), bearer or basic" },
      { name: "token", required: false, secret: true, description: "bearer token (authType bearer)" },
      { name: "username", required: false, secret: false, description: "user (authType basic)" },
      { name: "password", required: false, secret: true, description: "password (authType basic)" },
      { name: "timeoutMs", required: false, secret: false, description: "request time limit in ms (default 10000)" }
    ],
    taskHeaders: [
      { name: "connection", required: true, description: "the connection's name or id" },
      { name: "method", required: false, description: "GET (default), POST, PUT, PATCH or DELETE" },
      { name: "path", required: false, description: "appended to the base URL" },
      {
        name: "resultVariable",
        required: false,
        description: "where { status, body, headers } goes (default response)"
      }
    ],
    inputVariables: [{ name: "body", description: "sent as the JSON request body (methods other than GET and DELETE)" }]
  }
]

/** What is missing or wrong in a connection's configuration for its type (empty: completely configured). */
export const configurationProblems = (
  connectorType: string,
  config: Readonly<Record<string, unknown>>
): ReadonlyArray<{ field: string; message: string }> => {
  const type = CONNECTOR_TYPES.find((t) => t.type === connectorType)
  if (type === undefined) {
    return [{ field: "connectorType", message: `${connectorType} is not a connector type of this installation` }]
  }
  const problems: Array<{ field: string; message: string }> = []
  const text = (
    name: string
  ) => (typeof config[name] === "string" && (config[name] as string).trim() !== ""
    ? (config[name] as string)
    : undefined)
  for (const field of type.configFields) {
    if (field.required && text(field.name) === undefined) {
      problems.push({ field: `config.${field.name}`, message: "is required" })
    }
  }
  if (type.type === HTTP_JSON) {
    const baseUrl = text("baseUrl")
    if (baseUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(baseUrl)) {
      problems.push({ field: "config.baseUrl", message: "must be an http(s) URL" })
    }
    const auth = text("authType") ?? "none"
    if (!["none", "bearer", "basic"].includes(auth)) {
      problems.push({ field: "config.authType", message: "must be none, bearer or basic" })
    }
    if (auth === "bearer" && text("token") === undefined) {
      problems.push({ field: "config.token", message: "is required for bearer authentication" })
    }
    if (auth === "basic" && (text("username") === undefined || text("password") === undefined)) {
      problems.push({
        field: "config.username",
        message: "username and password are required for basic authentication"
      })
    }
    const timeout = config["timeoutMs"]
    if (
      timeout !== undefined &&
      (typeof timeout !== "number" || !Number.isInteger(timeout) || timeout < 1 || timeout > 600_000)
    ) {
      problems.push({ field: "config.timeoutMs", message: "must be an integer of ms between 1 and 600000" })
    }
  }
  return problems
}
