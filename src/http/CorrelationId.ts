// The correlation id of the request being served: echoed from X-Correlation-Id or generated. A Reference, so code
// that reads it (the failure envelope encoder, log lines) needs no extra requirement.
import { Context } from "effect"

export const CorrelationId = Context.Reference<string>("flowcore/CorrelationId", { defaultValue: () => "" })
