// Boots the whole app in-process once per test worker: an in-memory PGlite (or DATABASE_URL's PostgreSQL), a free
// port, an adjustable clock, a local OIDC identity provider (JWKS on loopback), a test cluster entity and probe
// routes that fail as no endpoint should (a defect, interrupted work). Tests share it and isolate themselves by tenant.
import { Effect, Fiber, Layer, ManagedRuntime } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { makeApp } from "../../src/App.ts"
import type { AppConfigShape } from "../../src/config.ts"
import { type AdjustableClock, makeAdjustableClock } from "./AdjustableClock.ts"
import { CounterLive } from "./TestEntity.ts"

export const TEST_JWT_SECRET = "test-secret-test-secret-test-secret-0123456789"
export const TEST_ISSUER = "flowcore"
export const OIDC_ISSUER = "https://idp.example.test"
export const OIDC_AUDIENCE = "flowcore-api"
export const ADMIN_PASSWORD = "admin-password-1"

export interface Oidc {
  readonly jwksUrl: string
  /** Signs a token as the identity provider would. */
  readonly sign: (
    claims: JWTPayload,
    options?: { readonly issuer?: string; readonly audience?: string; readonly expiresInSeconds?: number }
  ) => Promise<string>
}

export interface TestApp {
  readonly baseUrl: string
  readonly clock: AdjustableClock
  readonly config: AppConfigShape
  readonly oidc: Oidc
  readonly runtime: ManagedRuntime.ManagedRuntime<any, unknown>
}

const startIdentityProvider = async (clock: AdjustableClock): Promise<Oidc> => {
  const { publicKey, privateKey } = await generateKeyPair("ES256")
  const jwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "ES256", use: "sig" }
  const server = createServer((request, response) => {
    response.setHeader("content-type", "application/json")
    response.end(request.url === "/jwks" ? JSON.stringify({ keys: [jwk] }) : "{}")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  server.unref()
  const port = (server.address() as AddressInfo).port
  return {
    jwksUrl: `http://127.0.0.1:${port}/jwks`,
    sign: (claims, options = {}) => {
      const now = Math.floor(clock.nowMillis() / 1000)
      return new SignJWT(claims)
        .setProtectedHeader({ alg: "ES256", kid: "test-key" })
        .setIssuer(options.issuer ?? OIDC_ISSUER)
        .setAudience(options.audience ?? OIDC_AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + (options.expiresInSeconds ?? 600))
        .sign(privateKey)
    }
  }
}

/**
 * Routes that fail as no endpoint should: with a defect carrying internals that must never reach the client, and with
 * the interruption of the fiber doing the work (as when a node gives up an instance's shard under a command).
 */
const FailureProbes = Layer.mergeAll(
  HttpRouter.add(
    "GET",
    "/api/v1/test-probes/defect",
    Effect.die(new Error("secret internal detail: connection string postgres://user:pw@db"))
  ),
  HttpRouter.add(
    "GET",
    "/api/v1/test-probes/interrupted",
    Effect.gen(function*() {
      const worker = yield* Effect.forkDetach(Effect.never)
      yield* Fiber.interrupt(worker)
      return yield* Fiber.join(worker)
    })
  )
)

export const testConfig = (overrides: Partial<AppConfigShape> = {}): AppConfigShape => ({
  port: 0,
  host: "127.0.0.1",
  databaseUrl: process.env["DATABASE_URL"],
  dataDir: "memory://",
  databasePoolSize: 4,
  jwtSecret: TEST_JWT_SECRET,
  jwtIssuer: TEST_ISSUER,
  tokenTtlSeconds: 3600,
  adminUsername: "admin",
  adminPassword: ADMIN_PASSWORD,
  oidc: undefined,
  logLevel: (process.env["TEST_LOG_LEVEL"] as AppConfigShape["logLevel"] | undefined) ?? "Error",
  logFormat: "logfmt",
  accessLog: "failures",
  maxBodyBytes: 10 * 1024 * 1024,
  invitationTtlHours: 168,
  shutdownGraceMillis: 10_000,
  idempotencyRetentionHours: 24,
  jobTimeoutLimit: 3,
  entityIdleSeconds: 15,
  heapGrowthPercent: 0,
  metricsToken: "test-metrics-token",
  otel: { endpoint: undefined, serviceName: "flowcore-test" },
  feel: { maxSteps: 1_000_000, maxMillis: 1_000 },
  cluster: {
    mode: "single",
    runnerHost: "127.0.0.1",
    runnerListenHost: "127.0.0.1",
    runnerPort: 0,
    shards: 300,
    maxResidentEntities: 10_000
  },
  ...overrides
})

/** Boots an app; most tests use the shared one from `testApp()`. */
export const bootApp = async (
  overrides: Partial<AppConfigShape> = {},
  options: { readonly logLine?: (line: string) => void } = {}
): Promise<TestApp> => {
  const clock = makeAdjustableClock()
  const oidc = await startIdentityProvider(clock)
  const config = testConfig({
    oidc: { issuer: OIDC_ISSUER, jwksUrl: oidc.jwksUrl, audience: OIDC_AUDIENCE },
    ...overrides
  })
  const runtime = ManagedRuntime.make(
    makeApp(config, { clock, extra: CounterLive, routes: FailureProbes, logLine: options.logLine }) as Layer.Layer<
      any,
      unknown,
      never
    >
  )
  const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
  if (!("port" in address)) throw new Error("test server is not on TCP")
  return { baseUrl: `http://127.0.0.1:${address.port}`, clock, config, oidc, runtime }
}

const SHARED = Symbol.for("flowcore/test-app")

/** The worker's shared app, booted on first use. */
export const testApp = (): Promise<TestApp> => {
  const registry = globalThis as unknown as Record<symbol, Promise<TestApp> | undefined>
  return (registry[SHARED] ??= bootApp())
}
