// Traces: when OTEL_EXPORTER_OTLP_ENDPOINT is set, spans go to that OpenTelemetry collector over OTLP/HTTP (JSON, to
// <endpoint>/v1/traces, batched every second). A span per HTTP request (with its correlation id), child spans for
// the instance command and its commit, and for outbound connector calls; effect's SQL and cluster spans nest below.
import { Layer, References } from "effect"
import { FetchHttpClient } from "effect/http"
import { OtlpSerialization, OtlpTracer } from "effect/observability"
import type { AppConfigShape } from "../config.ts"

// Without a collector no span is made at all: a span costs a captured stack trace and bookkeeping on every
// request, entity command and SQL statement, for nobody.
export const TracingLive = (config: AppConfigShape["otel"]) =>
  config.endpoint === undefined
    ? Layer.succeed(References.TracerEnabled, false)
    : OtlpTracer.layer({
      url: `${config.endpoint.replace(/\/+$/, "")}/v1/traces`,
      resource: { serviceName: config.serviceName, serviceVersion: "0.1.0" },
      exportInterval: "1 second"
    }).pipe(Layer.provide(OtlpSerialization.layerJson), Layer.provide(FetchHttpClient.layer))
