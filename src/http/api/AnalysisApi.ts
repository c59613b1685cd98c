import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { AnalyseVariables, VariableAnalysisResult } from "../../schema/Analysis.ts"
import { ValidationErrorHttp } from "../../schema/ApiErrors.ts"
import { Ok } from "../../schema/Envelope.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"

export class AnalysisApi extends HttpApiGroup.make("analysis")
  .add(
    // Analysing a model changes nothing (as evaluating a decision).
    HttpApiEndpoint.post("variables", "/variables", {
      payload: AnalyseVariables,
      success: Ok(VariableAnalysisResult),
      error: ValidationErrorHttp
    }).annotateMerge(Requires.anyRole)
      .annotateMerge(OpenApi.annotations({
        summary:
          "Static variable analysis of BPMN XML or a JSON graph: what each element reads (free names of its FEEL expressions) and " +
          "writes (mapping targets, result variables), the variables a start must supply, and warnings for variables read but never " +
          "written or written but never read. An invalid model answers 400 listing every problem."
      }))
  )
  .pipe(authenticatedGroup("/api/v1/analysis", "Analysis"))
{}
