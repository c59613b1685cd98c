// The error codes of SERVICE.md ("Errors"), one class each, with their HTTP status and failure-envelope wire form.
// Services fail with these; handlers pass them through; the envelope is written by the schema.
import { Schema } from "effect"
import { ApiErrorFields, asFailureEnvelope, type ErrorDetail } from "./Envelope.ts"

export class ValidationError extends Schema.TaggedError<ValidationError>()("ValidationError", ApiErrorFields) {}
export class BadRequest extends Schema.TaggedError<BadRequest>()("BadRequest", ApiErrorFields) {}
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", ApiErrorFields) {}
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", ApiErrorFields) {}
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", ApiErrorFields) {}
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", ApiErrorFields) {}
export class BusinessError extends Schema.TaggedError<BusinessError>()("BusinessError", ApiErrorFields) {}

export const ValidationErrorHttp = asFailureEnvelope(
  ValidationError,
  "VALIDATION_ERROR",
  400,
  (f) => new ValidationError(f)
)
export const BadRequestHttp = asFailureEnvelope(BadRequest, "BAD_REQUEST", 400, (f) => new BadRequest(f))
export const UnauthorizedHttp = asFailureEnvelope(Unauthorized, "UNAUTHORIZED", 401, (f) => new Unauthorized(f))
export const ForbiddenHttp = asFailureEnvelope(Forbidden, "FORBIDDEN", 403, (f) => new Forbidden(f))
export const NotFoundHttp = asFailureEnvelope(NotFound, "RESOURCE_NOT_FOUND", 404, (f) => new NotFound(f))
export const ConflictHttp = asFailureEnvelope(Conflict, "CONFLICT", 409, (f) => new Conflict(f))
export const BusinessErrorHttp = asFailureEnvelope(BusinessError, "BUSINESS_ERROR", 422, (f) => new BusinessError(f))

/** What a request that breaks no business rule can still be refused with: 404, 409, 400 naming the field. */
export type RequestError = NotFound | Conflict | ValidationError

/** What a request to change something can be refused with: 404, 409, 400 naming the field, 422. */
export type ClientError = RequestError | BusinessError

/** The answers of ClientError, for an endpoint that may be refused with any of them. */
export const ClientErrorsHttp = [NotFoundHttp, ConflictHttp, ValidationErrorHttp, BusinessErrorHttp]

/** The errors an ordinary authenticated endpoint can answer besides its own. */
export const CommonErrors = [ValidationErrorHttp, NotFoundHttp] as const

/**
 * Another tenant's resource answers exactly like a missing one (SERVICE.md, Errors rule 1): 404 naming the kind and
 * the id. Every lookup by id goes through this, so the two cases can never be told apart.
 */
export const notFound = (kind: string, id: string): NotFound =>
  new NotFound({
    message: `${kind} ${id} not found`,
    errors: [{ field: "id", message: `no ${kind} with id ${id}`, code: "NOT_FOUND" }]
  })

export const conflict = (message: string, errors: ReadonlyArray<ErrorDetail> = []): Conflict =>
  new Conflict({ message, errors })

export const validationError = (field: string, message: string, code = "INVALID"): ValidationError =>
  new ValidationError({ message: `${field}: ${message}`, errors: [{ field, message, code }] })

export const businessError = (message: string, errors: ReadonlyArray<ErrorDetail> = []): BusinessError =>
  new BusinessError({ message, errors })

/** A command the model cannot run within the engine's run budget (engine/RunBudget.ts): 422 naming the field. */
export const runBudgetExceeded = (message: string, field = "process", code = "RUN_BUDGET_EXCEEDED"): BusinessError =>
  businessError(message, [{ field, message, code }])
