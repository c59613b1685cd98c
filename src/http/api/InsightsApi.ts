import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Ok } from "../../schema/Envelope.ts"
import { Insights, InsightsQuery, InsightsReport, RebuildResult, ReportQuery } from "../../schema/Insights.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"

export class InsightsApi extends HttpApiGroup.make("insights")
  .add(
    HttpApiEndpoint.get("metrics", "/", { query: Schema.Struct(InsightsQuery), success: Ok(Insights) }).annotateMerge(
      Requires.anyRole
    )
      .annotateMerge(OpenApi.annotations({
        summary:
          "Per process: instances, completion rate and duration (avg, p50, p95, max); per job type: failures, dead letters and " +
          "first-time success rate; human tasks: open count and age, completion time. Filter by processKey and start date range."
      })),
    HttpApiEndpoint.get("report", "/report", { query: Schema.Struct(ReportQuery), success: Ok(InsightsReport) })
      .annotateMerge(Requires.anyRole)
      .annotateMerge(OpenApi.annotations({
        summary:
          "Completion rate or duration of instances, filtered by process and start date range, grouped by a root variable's value"
      }))
  )
  .pipe(authenticatedGroup("/api/v1/insights", "Insights"))
{}

export class AdminApi extends HttpApiGroup.make("admin")
  .add(
    HttpApiEndpoint.post("rebuildInstanceSummary", "/projections/instance-summary/rebuild", {
      success: Ok(RebuildResult, "Rebuilt")
    }).annotateMerge(Requires.admin)
      .annotateMerge(OpenApi.annotations({
        summary:
          "Rebuild the instance summary projection (state, variables, incident count of each instance) of the caller's tenant " +
          "from the instances' histories; reports how many rows differed and were rewritten"
      }))
  )
  .pipe(authenticatedGroup("/api/v1/admin", "Administration"))
{}
