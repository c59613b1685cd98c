// The whole HTTP API as one HttpApi: the OpenAPI document, the router and the tests' client all come from it. Each
// endpoint declares its required role (Access.ts), which the document shows as `x-required-roles`.
import { HttpApi, OpenApi } from "effect/http-api"
import { AnalysisApi } from "./api/AnalysisApi.ts"
import { AuditApi } from "./api/AuditApi.ts"
import { AuthApi } from "./api/AuthApi.ts"
import { AuthorizationsApi } from "./api/AuthorizationsApi.ts"
import { BatchOperationsApi } from "./api/BatchOperationsApi.ts"
import { ConnectionsApi, ConnectorsApi } from "./api/ConnectorsApi.ts"
import { DecisionModelsApi, DecisionsApi, FeelApi } from "./api/DecisionsApi.ts"
import { DeploymentsApi } from "./api/DeploymentsApi.ts"
import { FormDefinitionsApi, LegacyFormsApi } from "./api/FormsApi.ts"
import { GroupsApi } from "./api/GroupsApi.ts"
import { AdminApi, InsightsApi } from "./api/InsightsApi.ts"
import { InvitationAcceptanceApi, InvitationsApi } from "./api/InvitationsApi.ts"
import { ConditionalStartsApi, MessagesApi, SignalsApi } from "./api/MessagesApi.ts"
import { DraftsApi, ModelsApi, ProjectsApi, TemplatesApi } from "./api/ModelingApi.ts"
import { PlayApi } from "./api/PlayApi.ts"
import { ProcessInstancesApi } from "./api/ProcessInstancesApi.ts"
import { ScopesApi } from "./api/ScopesApi.ts"
import { SystemApi } from "./api/SystemApi.ts"
import { UsersApi } from "./api/UsersApi.ts"
import { IncidentsApi, JobsApi, TaskFiltersApi, TasksApi } from "./api/WorkApi.ts"
import { RequestValidation } from "./Middleware.ts"

export class Api extends HttpApi.make("flowcore")
  .add(SystemApi)
  .add(AuthApi)
  .add(UsersApi)
  .add(GroupsApi)
  .add(AuthorizationsApi)
  .add(InvitationsApi)
  .add(InvitationAcceptanceApi)
  .add(AuditApi)
  .add(DeploymentsApi)
  .add(ProcessInstancesApi)
  .add(ScopesApi)
  .add(MessagesApi)
  .add(SignalsApi)
  .add(ConditionalStartsApi)
  .add(DecisionsApi)
  .add(DecisionModelsApi)
  .add(FeelApi)
  .add(JobsApi)
  .add(TasksApi)
  .add(IncidentsApi)
  .add(TaskFiltersApi)
  .add(BatchOperationsApi)
  .add(InsightsApi)
  .add(AdminApi)
  .add(PlayApi)
  .add(AnalysisApi)
  .add(ConnectorsApi)
  .add(ConnectionsApi)
  .add(ProjectsApi)
  .add(ModelsApi)
  .add(DraftsApi)
  .add(TemplatesApi)
  .add(FormDefinitionsApi)
  .add(LegacyFormsApi)
  .middleware(RequestValidation)
  .annotate(HttpApi.ParseOptions, { errors: "all" })
  .annotateMerge(OpenApi.annotations({
    title: "Flowcore workflow and decision engine",
    version: "1.0.0",
    description: "Multi-tenant BPMN 2.0 workflow and DMN decision engine. Every response under /api/v1 uses the " +
      "success envelope {success, message, timestamp, data} or the failure envelope {success, errorCode, message, " +
      "timestamp, errors, correlationId}. Send a bearer token from POST /api/v1/auth/login."
  }))
{}
