// The HttpApi middleware declarations (the spec side; implementations live in their *Live files).
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { CurrentTenant } from "../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../auth/Principal.ts"
import { BadRequestHttp, ForbiddenHttp, UnauthorizedHttp, ValidationErrorHttp } from "../schema/ApiErrors.ts"

/**
 * Bearer-token authentication plus the role each endpoint declares (Access.ts); provides the caller's Principal and
 * tenant.
 */
export class Authentication
  extends HttpApiMiddleware.Service<Authentication, { provides: CurrentPrincipal | CurrentTenant; requires: never }>()(
    "flowcore/Authentication",
    {
      security: { bearer: HttpApiSecurity.bearer },
      error: [UnauthorizedHttp, ForbiddenHttp]
    }
  )
{}

/** Request decoding failures: 400 VALIDATION_ERROR listing every faulty field, 400 BAD_REQUEST for malformed JSON. */
export class RequestValidation extends HttpApiMiddleware.Service<RequestValidation>()("flowcore/RequestValidation", {
  error: [ValidationErrorHttp, BadRequestHttp]
}) {}
