import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BusinessErrorHttp, NotFoundHttp, ValidationErrorHttp } from "../../schema/ApiErrors.ts"
import { PageQueryFields } from "../../schema/Common.ts"
import {
  Decision,
  DecisionDetail,
  DecisionModel,
  DecisionModelSummary,
  DecisionQuery,
  EvaluateQuery,
  EvaluateRequest,
  EvaluationResult,
  FeelFunctionInfo,
  FeelRequest,
  FeelResult
} from "../../schema/Decisions.ts"
import { Created, Ok } from "../../schema/Envelope.ts"
import { DecisionModelId } from "../../schema/ResourceIds.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"
import { itemById } from "./ItemById.ts"
import { pagedList } from "./PagedList.ts"
import { readsOn } from "./ReadsOn.ts"

// The reads of what belongs to a decision model (GET /:id/...): any role, 404 without the model.
const decisionModelRead = readsOn(DecisionModelId, Requires.anyRole)

const DmnXmlBody = Schema.String.pipe(HttpApiSchema.asText({ contentType: "application/xml" })).annotate({
  description: "DMN 1.3, 1.4 or 1.5 XML"
})
const XmlDocument = Schema.Struct({ id: Schema.String, xml: Schema.String }).annotate({ identifier: "XmlDocument" })
const EvaluationErrors = [NotFoundHttp, BusinessErrorHttp, ValidationErrorHttp] as const

/** A decision by its id or by its name (decisionsByName): not a UUID-only path id. */
const DecisionRef = { id: Schema.String.annotate({ description: "the decision's id, or its name" }) }

// Evaluating changes nothing: any authenticated caller may.
const evaluation = <
  const Name extends string,
  const Path extends `/${string}`,
  const Params extends Schema.Struct.Fields
>(name: Name, path: Path, params: Params, annotations: { readonly summary: string; readonly description?: string }) =>
  HttpApiEndpoint.post(name, path, {
    params,
    query: Schema.Struct(EvaluateQuery),
    payload: EvaluateRequest,
    success: Ok(EvaluationResult),
    error: EvaluationErrors
  }).annotateMerge(Requires.anyRole).annotateMerge(OpenApi.annotations(annotations))

export class DecisionsApi extends HttpApiGroup.make("decisions")
  .add(
    pagedList(
      DecisionQuery,
      Decision,
      Requires.anyRole,
      "List decisions, newest first; with key, that decision's versions"
    ),
    HttpApiEndpoint.post("deploy", "/", {
      payload: Schema.Unknown.annotate({
        description: "a decision table as JSON (see the README's decision table format)"
      }),
      success: Created(Decision, "Decision deployed"),
      error: ValidationErrorHttp
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(
      OpenApi.annotations({ summary: "Deploy a decision table given as JSON; it is the next version of its key" })
    ),
    HttpApiEndpoint.post("import", "/import", {
      payload: DmnXmlBody,
      success: Created(DecisionModel, "DMN imported"),
      error: ValidationErrorHttp
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(
      OpenApi.annotations({
        summary: "Import a DMN XML file: a decision model and each of its decisions (as new versions)"
      })
    ),
    HttpApiEndpoint.get("get", "/:id", { params: DecisionRef, success: Ok(DecisionDetail), error: NotFoundHttp })
      .annotateMerge(Requires.anyRole)
      .annotateMerge(OpenApi.annotations({ summary: "A decision" })),
    HttpApiEndpoint.get("xml", "/:id/xml", { params: DecisionRef, success: Ok(XmlDocument), error: NotFoundHttp })
      .annotateMerge(Requires.anyRole)
      .annotateMerge(
        OpenApi.annotations({
          summary: "The decision's DMN XML (generated for JSON tables); re-importing it evaluates the same"
        })
      ),
    evaluation("evaluate", "/:id/evaluate", DecisionRef, {
      summary: "Evaluate the decision (with its required decisions) for variables"
    }),
    evaluation("evaluateWithTrace", "/:id/evaluate-with-trace", DecisionRef, {
      summary: "Evaluate and report matched rules, input values, outputs and the required decisions evaluated"
    })
  )
  .pipe(authenticatedGroup("/api/v1/decisions", "Decisions"))
{}

export class DecisionModelsApi extends HttpApiGroup.make("decisionModels")
  .add(
    pagedList(PageQueryFields, DecisionModelSummary, Requires.anyRole, "List decision models, newest first"),
    itemById(
      DecisionModelId,
      DecisionModel,
      Requires.anyRole,
      "A model's decisions, decision services and required inputs"
    ),
    decisionModelRead("xml", "/:id/xml", XmlDocument, "The model's DMN XML"),
    evaluation("evaluateDecision", "/:id/decisions/:decisionId/evaluate", {
      id: DecisionModelId,
      decisionId: Schema.String
    }, {
      summary: "Evaluate one decision of the model, including its required decisions",
      description:
        "decisionId is the decision's key, else its DMN id, else its name (a decision without an id is keyed by its name)"
    }),
    evaluation("evaluateService", "/:id/services/:serviceId/evaluate", {
      id: DecisionModelId,
      serviceId: Schema.String
    }, {
      summary: "Evaluate a decision service of the model",
      description: "serviceId is the service's DMN id, else its name"
    })
  )
  .pipe(authenticatedGroup("/api/v1/decision-models", "Decision models"))
{}

export class FeelApi extends HttpApiGroup.make("feel")
  .add(
    HttpApiEndpoint.post("evaluate", "/evaluate", {
      payload: FeelRequest,
      success: Ok(FeelResult),
      error: [ValidationErrorHttp, BusinessErrorHttp]
    }).annotateMerge(Requires.anyRole)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Evaluate a FEEL expression against a context; syntax errors answer 400 with the position"
        })
      ),
    HttpApiEndpoint.get("functions", "/functions", { success: Ok(Schema.Array(FeelFunctionInfo)) }).annotateMerge(
      Requires.anyRole
    )
      .annotateMerge(OpenApi.annotations({ summary: "Every FEEL built-in function with its parameters" }))
  )
  .pipe(authenticatedGroup("/api/v1/feel", "FEEL"))
{}
