import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BusinessErrorHttp, ConflictHttp, NotFoundHttp } from "../../schema/ApiErrors.ts"
import { Ok } from "../../schema/Envelope.ts"
import { ScopedVariable, SetScopedVariable, VariableNameParam } from "../../schema/ProcessInstances.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"

const ScopeVariableParams = { scopeId: Schema.String, name: VariableNameParam }

/** Variable scopes: an instance's root scope (its id) and each running embedded subprocess. */
export class ScopesApi extends HttpApiGroup.make("scopes")
  .add(
    HttpApiEndpoint.get("list", "/:scopeId/variables", {
      params: { scopeId: Schema.String },
      success: Ok(Schema.Array(ScopedVariable)),
      error: NotFoundHttp
    }).annotateMerge(Requires.anyRole)
      .annotateMerge(
        OpenApi.annotations({ summary: "Every variable visible from a scope, each with the scope where it was found" })
      ),
    HttpApiEndpoint.get("get", "/:scopeId/variables/:name", {
      params: ScopeVariableParams,
      success: Ok(ScopedVariable),
      error: NotFoundHttp
    }).annotateMerge(Requires.anyRole)
      .annotateMerge(OpenApi.annotations({ summary: "One variable as seen from a scope" })),
    HttpApiEndpoint.put("set", "/:scopeId/variables/:name", {
      params: ScopeVariableParams,
      payload: SetScopedVariable,
      success: Ok(ScopedVariable, "Variable set"),
      error: [NotFoundHttp, ConflictHttp, BusinessErrorHttp]
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(
      OpenApi.annotations({ summary: "Set a variable in exactly this scope (audited)" })
    ),
    HttpApiEndpoint.delete("remove", "/:scopeId/variables/:name", {
      params: ScopeVariableParams,
      success: Ok(ScopedVariable, "Variable removed"),
      error: [NotFoundHttp, ConflictHttp, BusinessErrorHttp]
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Remove a variable from exactly this scope (audited); the removed value is returned"
        })
      )
  )
  .pipe(authenticatedGroup("/api/v1/scopes", "Variable scopes"))
{}
