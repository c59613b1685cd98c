import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Insights } from "../../services/Insights.ts"
import { InstanceSummaryRebuild } from "../../services/instances/InstanceSummaryRebuild.ts"
import { Api } from "../Api.ts"

export const InsightsHandlers = HttpApiBuilder.group(
  Api,
  "insights",
  Effect.fnUntraced(function*(handlers) {
    const insights = yield* Insights
    return handlers
      .handle("metrics", ({ query }) => insights.metrics(query))
      .handle("report", ({ query }) => insights.report({ ...query, metric: query.metric ?? "COMPLETION_RATE" }))
  })
)

export const AdminHandlers = HttpApiBuilder.group(
  Api,
  "admin",
  Effect.fnUntraced(function*(handlers) {
    const rebuild = yield* InstanceSummaryRebuild
    return handlers.handle("rebuildInstanceSummary", () => rebuild.rebuild())
  })
)
