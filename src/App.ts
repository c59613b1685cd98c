// Composition root: configuration -> database (+ migrations) -> cluster runtime -> services -> HTTP server.
// main.ts runs it; the tests build it too (on an in-memory PGlite, with their own clock and extra entities).
import { NodeHttpServer } from "@effect/platform-node"
import { ByteSize, Clock, Layer, Logger, References } from "effect"
import type { Sharding } from "effect/cluster"
import { HttpIncomingMessage, HttpRouter } from "effect/http"
import { HttpApiBuilder, HttpApiSwagger } from "effect/http-api"
import type { SqlClient } from "effect/sql"
import { BatchRunnerLive } from "./actors/BatchRunnerLive.ts"
import { ConnectorRunner } from "./actors/ConnectorRunner.ts"
import { EmbeddedFreezer } from "./actors/EmbeddedFreezer.ts"
import { JobLive } from "./actors/JobLive.ts"
import { OutboxRelay } from "./actors/OutboxRelay.ts"
import { PlaySessionLive } from "./actors/PlaySessionLive.ts"
import { ProcessInstanceLive } from "./actors/ProcessInstanceLive.ts"
import { StatisticsKeeper } from "./actors/StatisticsKeeper.ts"
import { TimerPoller } from "./actors/TimerPoller.ts"
import { ClusterLive } from "./cluster/Cluster.ts"
import { InstanceClient } from "./cluster/InstanceClient.ts"
import { AppConfig, type AppConfigShape } from "./config.ts"
import { configureFeelLimits } from "./decision/feel/FeelBudget.ts"
import { Api } from "./http/Api.ts"
import { AuthenticationLive } from "./http/AuthenticationLive.ts"
import { EdgeMiddleware } from "./http/EdgeMiddleware.ts"
import { AnalysisHandlers } from "./http/handlers/AnalysisHandlers.ts"
import { AuditHandlers } from "./http/handlers/AuditHandlers.ts"
import { AuthHandlers } from "./http/handlers/AuthHandlers.ts"
import { AuthorizationsHandlers } from "./http/handlers/AuthorizationsHandlers.ts"
import { BatchOperationsHandlers } from "./http/handlers/BatchOperationsHandlers.ts"
import { ConnectionsHandlers, ConnectorsHandlers } from "./http/handlers/ConnectorsHandlers.ts"
import { DecisionModelsHandlers, DecisionsHandlers, FeelHandlers } from "./http/handlers/DecisionsHandlers.ts"
import { DeploymentsHandlers } from "./http/handlers/DeploymentsHandlers.ts"
import { FormDefinitionsHandlers, LegacyFormsHandlers } from "./http/handlers/FormsHandlers.ts"
import { GroupsHandlers } from "./http/handlers/GroupsHandlers.ts"
import { AdminHandlers, InsightsHandlers } from "./http/handlers/InsightsHandlers.ts"
import { InvitationAcceptanceHandlers, InvitationsHandlers } from "./http/handlers/InvitationsHandlers.ts"
import { ConditionalStartsHandlers, MessagesHandlers, SignalsHandlers } from "./http/handlers/MessagesHandlers.ts"
import {
  DraftsHandlers,
  ModelsHandlers,
  ProjectsHandlers,
  TemplatesHandlers
} from "./http/handlers/ModelingHandlers.ts"
import { PlayHandlers } from "./http/handlers/PlayHandlers.ts"
import { ProcessInstancesHandlers, ScopesHandlers } from "./http/handlers/ProcessInstancesHandlers.ts"
import { SystemHandlers } from "./http/handlers/SystemHandlers.ts"
import { UsersHandlers } from "./http/handlers/UsersHandlers.ts"
import { IncidentsHandlers, JobsHandlers, TaskFiltersHandlers, TasksHandlers } from "./http/handlers/WorkHandlers.ts"
import { httpServerFactory, MAX_HEADER_BYTES } from "./http/HttpServerFactory.ts"
import { MetricsRoute } from "./http/MetricsRoute.ts"
import { NodeLifecycle, NodeLifecycleState } from "./http/NodeLifecycle.ts"
import { RequestValidationLive } from "./http/RequestValidationLive.ts"
import { UiRoute } from "./http/UiRoute.ts"
import { writeLogLine } from "./observability/LogLines.ts"
import { TracingLive } from "./observability/Tracing.ts"
import { DatabaseLive } from "./persistence/database/Database.ts"
import { DeploymentStates } from "./persistence/instances/DeploymentStates.ts"
import { InstanceSnapshots } from "./persistence/instances/InstanceSnapshots.ts"
import { InstanceStore } from "./persistence/instances/InstanceStore.ts"
import { MessageTargets } from "./persistence/instances/MessageTargets.ts"
import { JobLeases } from "./persistence/jobs/JobLeases.ts"
import { JobReads } from "./persistence/jobs/JobReads.ts"
import { MigrationsLive } from "./persistence/Migrations.ts"
import { Connections } from "./services/connectors/Connections.ts"
import { DecisionEvaluator } from "./services/decisions/DecisionEvaluator.ts"
import { Decisions } from "./services/decisions/Decisions.ts"
import { DmnDecisionEngine } from "./services/decisions/DmnDecisionEngine.ts"
import { BpmnProcessModels } from "./services/deployments/BpmnProcessModels.ts"
import { DeploymentBundles } from "./services/deployments/DeploymentBundles.ts"
import { Deployments } from "./services/deployments/Deployments.ts"
import { ConditionalStarts } from "./services/events/ConditionalStarts.ts"
import { Messages } from "./services/events/Messages.ts"
import { Signals } from "./services/events/Signals.ts"
import { FormDefinitions } from "./services/forms/FormDefinitions.ts"
import { LegacyForms } from "./services/forms/LegacyForms.ts"
import { IdempotentRequests } from "./services/IdempotentRequests.ts"
import { AuditLog } from "./services/identity/AuditLog.ts"
import { Groups } from "./services/identity/Groups.ts"
import { Invitations } from "./services/identity/Invitations.ts"
import { ResourceAuthorizations } from "./services/identity/ResourceAuthorizations.ts"
import { BootstrapLive, SignIn } from "./services/identity/SignIn.ts"
import { Tenants } from "./services/identity/Tenants.ts"
import { TokenService } from "./services/identity/TokenService.ts"
import { Users } from "./services/identity/Users.ts"
import { Insights } from "./services/Insights.ts"
import { BatchOperations } from "./services/instances/BatchOperations.ts"
import { CoreProcessEngine } from "./services/instances/CoreProcessEngine.ts"
import { IncidentRecovery } from "./services/instances/IncidentRecovery.ts"
import { InstanceSummaryRebuild } from "./services/instances/InstanceSummaryRebuild.ts"
import { ProcessInstances } from "./services/instances/ProcessInstances.ts"
import { Drafts } from "./services/modeling/Drafts.ts"
import { Models } from "./services/modeling/Models.ts"
import { PlaySessions } from "./services/modeling/PlaySessions.ts"
import { Projects } from "./services/modeling/Projects.ts"
import { Templates } from "./services/modeling/Templates.ts"
import { JobAvailability } from "./services/work/JobAvailability.ts"
import { JobEntityClient } from "./services/work/JobEntityClient.ts"
import { JobRetries } from "./services/work/JobRetries.ts"
import { TaskWork } from "./services/work/TaskWork.ts"
import { Work } from "./services/work/Work.ts"

export interface AppOptions {
  /** Replaces effect's Clock everywhere (tests move time with it). */
  readonly clock?: Clock.Clock | undefined
  /** More layers on the cluster and database (tests register their own entities here). */
  readonly extra?: Layer.Layer<never, unknown, Sharding.Sharding | SqlClient.SqlClient> | undefined
  /** More routes (tests add probes, e.g. one that fails with a defect). */
  readonly routes?: Layer.Layer<never, never, HttpRouter.HttpRouter> | undefined
  /** The node's serving state (main.ts drains it on SIGTERM); a fresh one when absent. */
  readonly lifecycle?: NodeLifecycleState | undefined
  /** Takes the log lines instead of stdout (tests read them). */
  readonly logLine?: ((line: string) => void) | undefined
}

const StorageLive = MigrationsLive.pipe(Layer.provideMerge(DatabaseLive))

const AdministrationLive = Layer.mergeAll(SignIn.layer, Invitations.layer, ResourceAuthorizations.layer).pipe(
  Layer.provideMerge(Groups.layer),
  Layer.provideMerge(Layer.mergeAll(Users.layer, Tenants.layer, AuditLog.layer, TokenService.layer))
)

// The pure cores (BPMN model + execution, DMN + FEEL) behind their ports.
const CoresLive = Layer.mergeAll(BpmnProcessModels.layer, CoreProcessEngine.layer, DmnDecisionEngine.layer)

// Entities register on the cluster; services reach them through entity clients.
// The outbox relay broadcasts thrown signals, so Signals sits below it.
const EnginesLive = Layer.mergeAll(
  DeploymentBundles.layer,
  Drafts.layer,
  Templates.layer,
  Models.layer,
  ConnectorRunner.layer,
  BatchOperations.layer,
  Insights.layer,
  InstanceSummaryRebuild.layer,
  PlaySessions.layer,
  PlaySessionLive,
  Messages.layer,
  ConditionalStarts.layer,
  TimerPoller.layer,
  StatisticsKeeper,
  EmbeddedFreezer,
  ProcessInstanceLive,
  JobLive
).pipe(
  Layer.provideMerge(BatchRunnerLive),
  Layer.provideMerge(Layer.mergeAll(JobRetries.layer, TaskWork.layer)),
  Layer.provideMerge(Layer.mergeAll(Connections.layer, Projects.layer, LegacyForms.layer)),
  Layer.provideMerge(FormDefinitions.layer),
  Layer.provideMerge(Layer.mergeAll(Work.layer, IncidentRecovery.layer)),
  Layer.provideMerge(Layer.mergeAll(JobEntityClient.layer, JobLeases.layer, JobReads.layer, MessageTargets.layer)),
  Layer.provideMerge(OutboxRelay.layer),
  Layer.provideMerge(Signals.layer),
  Layer.provideMerge(
    Layer.mergeAll(
      ProcessInstances.layer,
      Deployments.layer,
      InstanceStore.layer,
      JobAvailability.layer,
      IdempotentRequests.layer
    )
  ),
  Layer.provideMerge(DecisionEvaluator.layer),
  Layer.provideMerge(Decisions.layer),
  Layer.provideMerge(Layer.mergeAll(DeploymentStates.layer, InstanceSnapshots.layer)),
  // Instances' commands run in this node's copies (ResidentInstances, beside the cluster) when it owns their
  // shard, else go to their node as messages.
  Layer.provideMerge(InstanceClient.layer)
)

const ServicesLive = EnginesLive.pipe(Layer.provideMerge(AdministrationLive), Layer.provideMerge(CoresLive))

const ApiRoutesLive = HttpApiBuilder.layer(Api, { openapiPath: "/v3/api-docs" }).pipe(
  Layer.provide([
    SystemHandlers,
    AuthHandlers,
    UsersHandlers,
    GroupsHandlers,
    AuthorizationsHandlers,
    InvitationsHandlers,
    InvitationAcceptanceHandlers,
    AuditHandlers,
    DeploymentsHandlers,
    ProcessInstancesHandlers,
    ScopesHandlers,
    MessagesHandlers,
    SignalsHandlers,
    ConditionalStartsHandlers,
    DecisionsHandlers,
    DecisionModelsHandlers,
    FeelHandlers,
    JobsHandlers,
    TasksHandlers,
    IncidentsHandlers,
    TaskFiltersHandlers,
    BatchOperationsHandlers,
    InsightsHandlers,
    AdminHandlers,
    PlayHandlers,
    AnalysisHandlers,
    ConnectorsHandlers,
    ConnectionsHandlers,
    ProjectsHandlers,
    ModelsHandlers,
    DraftsHandlers,
    TemplatesHandlers,
    FormDefinitionsHandlers,
    LegacyFormsHandlers
  ]),
  Layer.provide([AuthenticationLive, RequestValidationLive])
)

const RoutesLive = Layer.mergeAll(
  ApiRoutesLive,
  HttpApiSwagger.layer(Api, { path: "/swagger-ui.html" }),
  UiRoute,
  EdgeMiddleware,
  MetricsRoute
)

/** Log level and one-line format from the configuration; lines go to stdout unless `write` takes them (tests). */
export const loggingLayer = (config: AppConfigShape, write: (line: string) => void = writeLogLine) =>
  Layer.mergeAll(
    Layer.succeed(References.MinimumLogLevel, config.logLevel),
    Logger.layer([
      config.logFormat === "json"
        ? Logger.map(Logger.formatJson, write)
        : config.logFormat === "pretty"
        ? Logger.consolePretty()
        : Logger.map(Logger.formatLogFmt, write)
    ])
  )

export const makeApp = (config: AppConfigShape, options: AppOptions = {}) => {
  configureFeelLimits(config.feel)
  const routes = options.routes === undefined ? RoutesLive : Layer.merge(RoutesLive, options.routes)
  const lifecycle = options.lifecycle ?? new NodeLifecycleState()
  const HttpLive = HttpRouter.serve(routes, {
    disableLogger: true,
    disableListenLog: true,
    // find-my-way matches no path parameter over 100 characters by default: a long variable name or locale would be
    // a 404 "no route" instead of its endpoint's own 400. Node's header limit (431) bounds the request line instead.
    routerConfig: { maxParamLength: MAX_HEADER_BYTES }
  }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(httpServerFactory(lifecycle), { port: config.port, host: config.host })),
    Layer.provideMerge(Layer.succeed(NodeLifecycle, lifecycle)),
    // The request body limit, in the context every request starts from (not provided anew per request).
    Layer.provide(Layer.succeed(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(config.maxBodyBytes)))
  )
  const CoreLive = Layer.mergeAll(BootstrapLive, options.extra ?? Layer.empty).pipe(
    Layer.provideMerge(ServicesLive),
    Layer.provideMerge(ClusterLive(config.cluster)),
    Layer.provideMerge(StorageLive)
  )
  return HttpLive.pipe(
    Layer.provideMerge(CoreLive),
    Layer.provideMerge(AppConfig.layer(config)),
    Layer.provide(loggingLayer(config, options.logLine)),
    // Traces (when configured) for everything built below: requests, entities, SQL, the cluster.
    Layer.provide(TracingLive(config.otel)),
    // provideMerge: effects run later on the app's runtime (tests) see the same clock as the app itself.
    Layer.provideMerge(options.clock === undefined ? Layer.empty : Layer.succeed(Clock.Clock, options.clock))
  )
}
