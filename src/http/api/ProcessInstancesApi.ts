import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  BusinessErrorHttp,
  ClientErrorsHttp,
  ConflictHttp,
  NotFoundHttp,
  ValidationErrorHttp
} from "../../schema/ApiErrors.ts"
import { IdempotencyHeaders, Page, PageQueryFields } from "../../schema/Common.ts"
import { Created, Ok } from "../../schema/Envelope.ts"
import {
  EventSubscription,
  HistoryEvent,
  InstanceQuery,
  InstanceSnapshot,
  InstanceToken,
  InstanceVariables,
  MigrateInstances,
  MigrationResult,
  MoveToken,
  NodeVariables,
  ProcessInstance,
  SetNodeVariables,
  StartInstance,
  UpdateVariables
} from "../../schema/ProcessInstances.ts"
import { ProcessInstanceId } from "../../schema/ResourceIds.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"
import { itemById } from "./ItemById.ts"
import { pagedList } from "./PagedList.ts"
import { readsOn } from "./ReadsOn.ts"
import { writesOn } from "./WritesOn.ts"

// The reads of what belongs to an instance (GET /:id/...): any role, 404 without the instance.
const instanceRead = readsOn(ProcessInstanceId, Requires.anyRole)

// Operators change a running instance: its owner's role, the same answer and errors for each.
const instanceChange = writesOn(
  ProcessInstanceId,
  ProcessInstance,
  [NotFoundHttp, ConflictHttp, BusinessErrorHttp],
  Requires.adminOrProcessOwner
)

export class ProcessInstancesApi extends HttpApiGroup.make("processInstances")
  .add(
    HttpApiEndpoint.post("start", "/", {
      payload: StartInstance,
      headers: IdempotencyHeaders,
      success: Created(ProcessInstance, "Instance started"),
      error: [NotFoundHttp, ConflictHttp, BusinessErrorHttp]
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(OpenApi.annotations({
      summary:
        "Start an instance of a deployment (version) with variables; it runs until it waits (job, task, message) or ends",
      description: "A suspended deployment refuses new starts with 409 CONFLICT."
    })),
    pagedList(
      InstanceQuery,
      ProcessInstance,
      Requires.anyRole,
      "List instances, newest first; filter by deployment, process key, state, incidents, start/end range"
    ),
    itemById(ProcessInstanceId, ProcessInstance, Requires.anyRole, "One instance with its variables"),
    HttpApiEndpoint.delete("remove", "/:id", {
      params: { id: ProcessInstanceId },
      success: Ok(ProcessInstance, "Deleted"),
      error: [NotFoundHttp, BusinessErrorHttp]
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({ summary: "Permanently delete a finished instance and its history (422 while it runs)" })
      ),
    instanceChange(
      "cancel",
      "/:id/cancel",
      "Canceled",
      "Terminate the instance: its jobs, tasks and subscriptions are withdrawn"
    ),
    instanceChange(
      "suspend",
      "/:id/suspend",
      "Suspended",
      "Pause a running instance: no token moves and its jobs cannot be activated until resume"
    ),
    instanceChange("resume", "/:id/resume", "Resumed", "Resume a suspended instance"),
    HttpApiEndpoint.post("moveToken", "/:id/move-token", {
      params: { id: ProcessInstanceId },
      payload: MoveToken,
      success: Ok(ProcessInstance, "Token moved"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(OpenApi.annotations({
      summary: "Move a waiting token to another node of its scope",
      description:
        "What the token waits on is withdrawn (job, task, subscriptions, an open incident, a subprocess's content) and the target node is " +
        "activated with its input mappings; history records TokenMoved. 400 for unknown nodes, a target in another scope, a boundary event " +
        "target, or several tokens at the source without tokenId; 409 when no token is at the source or the instance is suspended or ended."
    })),
    HttpApiEndpoint.post("migrate", "/migrate", {
      payload: MigrateInstances,
      success: Ok(MigrationResult, "Migrated"),
      error: [NotFoundHttp, ConflictHttp, ValidationErrorHttp]
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(OpenApi.annotations({
      summary: "Migrate running instances to another version (deployment) of the same process",
      description:
        "Checked up front for every instance: same process key, every active node mapped (or mapEqualNodes) to a node of the same type, " +
        "event kind and multi-instance-ness inside the mapped subprocess; otherwise 400 listing each problem. Then each instance is migrated " +
        "atomically by its entity: jobs, tasks, subscriptions and incidents follow their tokens; catch events the target version has at the same " +
        "place stay armed, others are withdrawn, new ones armed. History records InstanceMigrated and TokenMigrated."
    })),
    HttpApiEndpoint.get("history", "/:id/history", {
      params: { id: ProcessInstanceId },
      query: Schema.Struct(PageQueryFields),
      success: Ok(Page(HistoryEvent)),
      error: NotFoundHttp
    }).annotateMerge(Requires.anyRole).annotateMerge(
      OpenApi.annotations({
        summary:
          "Execution history, oldest first, each event with eventSeq, type, node, token, time and the caller's sub"
      })
    ),
    HttpApiEndpoint.get("snapshot", "/:id/history/:eventSeq/snapshot", {
      params: { id: ProcessInstanceId, eventSeq: Schema.Int },
      success: Ok(InstanceSnapshot),
      error: NotFoundHttp
    }).annotateMerge(Requires.anyRole).annotateMerge(
      OpenApi.annotations({ summary: "Variables and active nodes as of one history event (replayed from the history)" })
    ),
    instanceRead(
      "tokens",
      "/:id/tokens",
      Schema.Array(InstanceToken),
      "Tokens and where they are parked: at a job, a user task, a join or an incident"
    ),
    instanceRead(
      "eventSubscriptions",
      "/:id/event-subscriptions",
      Schema.Array(EventSubscription),
      "Pending timer and message subscriptions"
    ),
    instanceRead(
      "getVariables",
      "/:id/variables",
      InstanceVariables,
      "The instance's variables with their version (for optimistic locking)"
    ),
    HttpApiEndpoint.put("updateVariables", "/:id/variables", {
      params: { id: ProcessInstanceId },
      payload: UpdateVariables,
      success: Ok(InstanceVariables, "Variables updated"),
      error: [NotFoundHttp, ConflictHttp, BusinessErrorHttp]
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(OpenApi.annotations({
      summary:
        "Set variables (merged into the instance's variables); with expectedVersion, a stale version answers 409 CONFLICT naming the current one"
    })),
    instanceRead(
      "nodeVariables",
      "/:id/node-variables",
      Schema.Array(NodeVariables),
      "Variables attached to specific nodes"
    ),
    HttpApiEndpoint.put("setNodeVariables", "/:id/nodes/:nodeId/variables", {
      params: { id: ProcessInstanceId, nodeId: Schema.String },
      payload: SetNodeVariables,
      success: Ok(NodeVariables, "Node variables set"),
      error: [NotFoundHttp, ConflictHttp, BusinessErrorHttp]
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(
      OpenApi.annotations({
        summary:
          "Attach variables to one node: they are local to each later activation of it (visible to its job or task)"
      })
    )
  )
  .pipe(authenticatedGroup("/api/v1/process-instances", "Process instances"))
{}
