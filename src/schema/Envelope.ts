// The response envelope of SERVICE.md ("Response envelope"). Endpoints declare `Ok(Data)` as their success schema
// and an error class (ApiErrors.ts) as failures: handlers return plain data or fail with the error, and both the
// wire format and the OpenAPI document show the envelope.
import { Clock, Effect, Schema, SchemaTransformation } from "effect"
import { HttpApiSchema } from "effect/http-api"
import { RequestState } from "../auth/RequestState.ts"

const nowIso = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

/** Success envelope `{success: true, message, timestamp, data}` around `data`; the handler returns the data. */
export const Ok = <S extends Schema.Top>(data: S, message = "OK") => {
  const envelope = Schema.Struct({
    success: Schema.Literal(true),
    message: Schema.String,
    timestamp: Schema.String,
    data
  })
  return envelope.pipe(
    Schema.decodeTo(
      Schema.toType(data),
      SchemaTransformation.transformEffect({
        decode: (wire: { readonly data: unknown }) => Effect.succeed(wire.data as S["Type"]),
        encode: (value: S["Type"]) =>
          Effect.map(nowIso, (timestamp) => ({ success: true as const, message, timestamp, data: value }))
      }) as unknown as SchemaTransformation.Transformation<S["Type"], typeof envelope.Type>
    )
  )
}

/** `Ok` answered 201: a write that created the resource it answers with. */
export const Created = <S extends Schema.Top>(data: S, message: string) =>
  Ok(data, message).pipe(HttpApiSchema.status(201))

/** `Ok` answered 202 Accepted: a write whose work goes on past the answer (a batch, what a message or signal resumes). */
export const Accepted = <S extends Schema.Top>(data: S, message: string) =>
  Ok(data, message).pipe(HttpApiSchema.status(202))

/** One entry of a failure's `errors` array: which field, what is wrong, a machine-readable code. */
export const ErrorDetail = Schema.Struct({
  field: Schema.String,
  message: Schema.String,
  code: Schema.String
}).annotate({ identifier: "ErrorDetail" })
export type ErrorDetail = typeof ErrorDetail.Type

export const FailureEnvelope = Schema.Struct({
  success: Schema.Literal(false),
  errorCode: Schema.String,
  message: Schema.String,
  timestamp: Schema.String,
  errors: Schema.Array(ErrorDetail),
  correlationId: Schema.String
}).annotate({ identifier: "FailureEnvelope" })
export type FailureEnvelope = typeof FailureEnvelope.Type

/** The fields every API error carries. */
export const ApiErrorFields = {
  message: Schema.String,
  errors: Schema.Array(ErrorDetail)
}
export interface ApiErrorShape {
  readonly message: string
  readonly errors: ReadonlyArray<ErrorDetail>
}

/**
 * Wire schema of an error class: the failure envelope with `errorCode`, at `status`. The correlation id is read
 * from the request being served when the error is encoded.
 */
export const asFailureEnvelope = <S extends Schema.Top & { readonly Type: ApiErrorShape }>(
  errorClass: S,
  errorCode: string,
  status: number,
  make: (fields: ApiErrorShape) => S["Type"]
) =>
  FailureEnvelope.pipe(
    Schema.decodeTo(
      Schema.toType(errorClass),
      SchemaTransformation.transformEffect({
        decode: (wire: FailureEnvelope) => Effect.succeed(make({ message: wire.message, errors: wire.errors })),
        encode: Effect.fnUntraced(function*(error: ApiErrorShape) {
          const correlationId = (yield* RequestState)?.correlationId ?? ""
          const timestamp = yield* nowIso
          return {
            success: false as const,
            errorCode,
            message: error.message,
            timestamp,
            errors: error.errors,
            correlationId
          }
        })
      }) as unknown as SchemaTransformation.Transformation<S["Type"], FailureEnvelope>
    ),
    HttpApiSchema.status(status)
  )
