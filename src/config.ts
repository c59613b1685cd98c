// Every environment variable the service reads, read once and typed. The README lists the same set.
import { Context, Layer } from "effect"

export type LogLevelName = "Trace" | "Debug" | "Info" | "Warn" | "Error" | "None"

export interface AppConfigShape {
  /** HTTP port; 0 picks a free one (tests). */
  readonly port: number
  readonly host: string
  /** PostgreSQL connection URL; when absent the embedded PGlite in `dataDir` is used. */
  readonly databaseUrl: string | undefined
  /** Embedded database directory, or `memory://` for an in-memory database (tests). */
  readonly dataDir: string
  readonly databasePoolSize: number
  /** HMAC secret for the tokens this service issues; when absent a generated one is kept in the database. */
  readonly jwtSecret: string | undefined
  readonly jwtIssuer: string
  readonly tokenTtlSeconds: number
  readonly adminUsername: string
  /** When absent, the first start generates a password and prints it once. */
  readonly adminPassword: string | undefined
  readonly oidc:
    | {
      readonly issuer: string
      readonly jwksUrl: string
      readonly audience: string | undefined
      /** A public client of the provider the web UI signs people in with (authorization code + PKCE). */
      readonly clientId?: string | undefined
      /** The scopes the web UI asks for (default `openid profile email`). */
      readonly scope?: string | undefined
    }
    | undefined
  readonly logLevel: LogLevelName
  /** One line per log record: logfmt (default) or JSON; `pretty` for a terminal. */
  readonly logFormat: "logfmt" | "json" | "pretty"
  /**
   * Which requests get an access line (method, path, status, duration, tenant, correlation id): `failures` (status
   * 400 and up: the default), `all`, or `off`. A line for every request cost 8–12 % of a publish's CPU.
   */
  readonly accessLog: AccessLog
  readonly maxBodyBytes: number
  readonly invitationTtlHours: number
  /** On SIGTERM: how long requests in flight may take before the process stops anyway. */
  readonly shutdownGraceMillis: number
  /** How long an Idempotency-Key's first answer, and a message's messageId, are remembered (at least). */
  readonly idempotencyRetentionHours: number
  /** OpenTelemetry traces: the collector's OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT) and the service name. */
  readonly otel: { readonly endpoint: string | undefined; readonly serviceName: string }
  /** The bearer token a Prometheus scraper presents at GET /metrics (an ADMIN's token works too). */
  readonly metricsToken: string | undefined
  /** A job whose lock ran out this many times fails into a JOB_TIMEOUTS_EXCEEDED incident instead of being handed out again. */
  readonly jobTimeoutLimit: number
  /** An instance's entity idle this long leaves memory (it is reloaded from its rows by its next command). */
  readonly entityIdleSeconds: number
  /**
   * How far past its live objects V8 lets the heap grow after a full collection, in percent (V8's
   * --heap-growing-percent); 0 leaves it to V8, which under a high allocation rate lets it grow to several times the
   * live size and keeps the memory. Set by the process entry (Server.ts), not by an app built in a test.
   */
  readonly heapGrowthPercent: number
  /** The FEEL budget of one evaluation (see src/decision/feel/FeelBudget.ts for the other limits). */
  readonly feel: { readonly maxSteps: number; readonly maxMillis: number }
  readonly cluster: {
    /** `single`: one runner in this process (the embedded default); `socket`: runners that talk to each other over TCP. */
    readonly mode: "single" | "socket"
    /** The address other nodes reach this node's runner at. */
    readonly runnerHost: string
    /** The interface the runner listens on. */
    readonly runnerListenHost: string
    /** 0: a free port, chosen at start; by default the HTTP port + 10000. */
    readonly runnerPort: number
    /** Shards per group; must be the same on every node. */
    readonly shards: number
    /** The most entities resident on this node at once; a command for another one waits for a slot (then 503). */
    readonly maxResidentEntities: number
  }
}

export class AppConfig extends Context.Service<AppConfig, AppConfigShape>()("flowcore/AppConfig") {
  static readonly layer = (config: AppConfigShape) => Layer.succeed(AppConfig, config)
}

export class ConfigError extends Error {
  override readonly name = "ConfigError"
}

type Env = Readonly<Record<string, string | undefined>>

const text = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim()
  return value === undefined || value === "" ? undefined : value
}

const integer = (env: Env, name: string, fallback: number, min: number, max: number): number => {
  const raw = text(env, name)
  if (raw === undefined) return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`)
  }
  return value
}

const LOG_LEVELS: Record<string, LogLevelName> = {
  trace: "Trace",
  debug: "Debug",
  info: "Info",
  warn: "Warn",
  warning: "Warn",
  error: "Error",
  none: "None",
  off: "None"
}

/**
 * The runner port follows the HTTP port (8080 -> 18080), so a node restarted with its usual PORT comes back at the
 * same runner address and takes its shards back at once; with PORT=0 (tests) a free port is chosen.
 */
const defaultRunnerPort = (
  httpPort: number
): number => (httpPort === 0 ? 0 : httpPort + 10_000 <= 65_535 ? httpPort + 10_000 : httpPort - 10_000)

const clusterFromEnv = (env: Env): AppConfigShape["cluster"] => {
  const databaseUrl = text(env, "DATABASE_URL")
  const mode = (text(env, "RUNNER_MODE") ?? (databaseUrl === undefined ? "single" : "socket")).toLowerCase()
  if (mode !== "single" && mode !== "socket") {
    throw new ConfigError(`RUNNER_MODE must be single or socket, got "${mode}"`)
  }
  if (mode === "socket" && databaseUrl === undefined) {
    throw new ConfigError(
      "RUNNER_MODE=socket needs DATABASE_URL: runners share their shard locks and messages through PostgreSQL"
    )
  }
  const runnerHost = text(env, "RUNNER_HOST") ?? "127.0.0.1"
  return {
    mode,
    runnerHost,
    runnerListenHost: text(env, "RUNNER_LISTEN_HOST") ?? runnerHost,
    runnerPort: integer(env, "RUNNER_PORT", defaultRunnerPort(integer(env, "PORT", 8080, 0, 65535)), 0, 65535),
    shards: integer(env, "CLUSTER_SHARDS", 300, 1, 10_000),
    maxResidentEntities: integer(env, "MAX_RESIDENT_ENTITIES", 10_000, 100, 10_000_000)
  }
}

export type AccessLog = "all" | "failures" | "off"

/** Reads the configuration from the environment; throws a ConfigError naming the faulty variable. */
export const configFromEnv = (env: Env = process.env): AppConfigShape => {
  const oidcIssuer = text(env, "OIDC_ISSUER")
  const oidcJwksUrl = text(env, "OIDC_JWKS_URL")
  if ((oidcIssuer === undefined) !== (oidcJwksUrl === undefined)) {
    throw new ConfigError("OIDC_ISSUER and OIDC_JWKS_URL must be set together")
  }
  const levelRaw = (text(env, "LOG_LEVEL") ?? "info").toLowerCase()
  const logLevel = LOG_LEVELS[levelRaw]
  if (logLevel === undefined) {
    throw new ConfigError(`LOG_LEVEL must be one of trace, debug, info, warn, error, none; got "${levelRaw}"`)
  }
  const logFormat = (text(env, "LOG_FORMAT") ?? "logfmt").toLowerCase()
  if (logFormat !== "logfmt" && logFormat !== "json" && logFormat !== "pretty") {
    throw new ConfigError(`LOG_FORMAT must be one of logfmt, json, pretty; got "${logFormat}"`)
  }
  const accessLog = (text(env, "ACCESS_LOG") ?? "failures").toLowerCase()
  if (accessLog !== "all" && accessLog !== "failures" && accessLog !== "off") {
    throw new ConfigError(`ACCESS_LOG must be one of failures, all, off; got "${accessLog}"`)
  }
  const jwtSecret = text(env, "JWT_SECRET")
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError("JWT_SECRET must be at least 32 characters")
  }
  return {
    port: integer(env, "PORT", 8080, 0, 65535),
    host: text(env, "HOST") ?? "0.0.0.0",
    databaseUrl: text(env, "DATABASE_URL"),
    dataDir: text(env, "DATA_DIR") ?? "./data",
    databasePoolSize: integer(env, "DATABASE_POOL_SIZE", 8, 1, 200),
    jwtSecret,
    jwtIssuer: text(env, "JWT_ISSUER") ?? "flowcore",
    tokenTtlSeconds: integer(env, "TOKEN_TTL_SECONDS", 8 * 3600, 60, 30 * 24 * 3600),
    adminUsername: text(env, "ADMIN_USERNAME") ?? "admin",
    adminPassword: text(env, "ADMIN_PASSWORD"),
    oidc: oidcIssuer !== undefined && oidcJwksUrl !== undefined
      ? {
        issuer: oidcIssuer,
        jwksUrl: oidcJwksUrl,
        audience: text(env, "OIDC_AUDIENCE"),
        clientId: text(env, "OIDC_CLIENT_ID"),
        scope: text(env, "OIDC_SCOPE")
      }
      : undefined,
    logLevel,
    logFormat,
    accessLog,
    maxBodyBytes: integer(env, "MAX_BODY_BYTES", 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    invitationTtlHours: integer(env, "INVITATION_TTL_HOURS", 7 * 24, 1, 365 * 24),
    shutdownGraceMillis: integer(env, "SHUTDOWN_GRACE_MS", 10_000, 0, 600_000),
    idempotencyRetentionHours: integer(env, "IDEMPOTENCY_RETENTION_HOURS", 24, 1, 24 * 365),
    jobTimeoutLimit: integer(env, "JOB_TIMEOUT_LIMIT", 3, 1, 1000),
    // 3 s: a burst of starts keeps rate × this many instances resident. With 10 s, 100,000 waiting instances started
    // at ~650/s met MAX_RESIDENT_ENTITIES (503s) and 1.5 GB of RSS; with 3 s they started at ~1,000/s in 1.1 GB. A
    // command after the instance left memory costs one row read.
    entityIdleSeconds: integer(env, "ENTITY_IDLE_SECONDS", 3, 1, 86_400),
    // 100: V8 left alone lets the heap grow to several times its live size under a burst of starts and keeps it (100,000
    // waiting instances ended at 687 MB of RSS); at 100 they end at ~500 MB, with no CPU cost measurable in npm run
    // bench (session 11; 40 cost 10-25 %).
    heapGrowthPercent: integer(env, "HEAP_GROWTH_PERCENT", 100, 0, 1_000),
    metricsToken: text(env, "METRICS_TOKEN"),
    otel: {
      endpoint: text(env, "OTEL_EXPORTER_OTLP_ENDPOINT"),
      serviceName: text(env, "OTEL_SERVICE_NAME") ?? "flowcore"
    },
    feel: {
      maxSteps: integer(env, "FEEL_MAX_STEPS", 1_000_000, 1_000, 1_000_000_000),
      maxMillis: integer(env, "FEEL_MAX_MILLIS", 1_000, 1, 60_000)
    },
    cluster: clusterFromEnv(env)
  }
}
