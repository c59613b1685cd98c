import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BusinessErrorHttp, NotFoundHttp, ValidationErrorHttp } from "../../schema/ApiErrors.ts"
import {
  DeleteDeploymentQuery,
  Deployment,
  DeploymentBundle,
  DeploymentDetail,
  DeploymentNode,
  DeploymentQuery,
  JsonGraph,
  SimulateDeployment,
  SimulationReport
} from "../../schema/Deployments.ts"
import { Created, Ok } from "../../schema/Envelope.ts"
import { DeploymentId } from "../../schema/ResourceIds.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"
import { itemById } from "./ItemById.ts"
import { pagedList } from "./PagedList.ts"
import { readsOn } from "./ReadsOn.ts"
import { writesOn } from "./WritesOn.ts"

// The reads of what belongs to a deployment (GET /:id/...): any role, 404 without the deployment.
const deploymentRead = readsOn(DeploymentId, Requires.anyRole)

export const BpmnXmlBody = Schema.String.pipe(HttpApiSchema.asText({ contentType: "application/xml" })).annotate({
  description: "BPMN 2.0 XML as Camunda Modeler writes it"
})

// Suspending and resuming a version: the same answer, error and access.
const versionSwitch = writesOn(DeploymentId, Deployment, [NotFoundHttp], Requires.adminOrProcessOwner)

export class DeploymentsApi extends HttpApiGroup.make("deployments")
  .add(
    HttpApiEndpoint.post("deploy", "/", {
      payload: [BpmnXmlBody, JsonGraph, DeploymentBundle],
      success: Created(Deployment, "Deployed"),
      error: ValidationErrorHttp
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(OpenApi.annotations({
      summary: "Deploy a process as BPMN 2.0 XML (application/xml) or a JSON graph (application/json), or several " +
        "resources together (application/json {\"resources\": [{\"name\", \"content\"}]})",
      description:
        "Each deployment of a process key is its next version. An invalid model answers 400 VALIDATION_ERROR " +
        "listing every problem with the element id in `field`. Several resources (BPMN, DMN, forms) deployed in " +
        "one request share a `bundleId`: an element with bindingType=\"deployment\" resolves its called process, " +
        "decision or form there, and the request is refused (400, code NOT_IN_DEPLOYMENT, the element id in " +
        "`field`) when the resource it binds to is not among them. The answer is the first process's deployment " +
        "with `resources` listing everything deployed."
    })),
    pagedList(
      DeploymentQuery,
      Deployment,
      Requires.anyRole,
      "List deployments, newest first; with key, that process's version history (newest version first)"
    ),
    itemById(
      DeploymentId,
      DeploymentDetail,
      Requires.anyRole,
      "A deployment with its BPMN XML (generated for JSON deployments)"
    ),
    HttpApiEndpoint.delete("remove", "/:id", {
      params: { id: DeploymentId },
      query: Schema.Struct(DeleteDeploymentQuery),
      success: Ok(Deployment, "Undeployed"),
      error: [NotFoundHttp, BusinessErrorHttp]
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(OpenApi.annotations({
      summary:
        "Undeploy a version: refused (422) while it has running instances; includeFinishedInstances=true also deletes its finished ones"
    })),
    versionSwitch(
      "suspend",
      "/:id/suspend",
      "Suspended",
      "Block new instance starts (and timer fires) of this version"
    ),
    versionSwitch("resume", "/:id/resume", "Resumed", "Allow new instance starts again"),
    HttpApiEndpoint.post("simulate", "/:id/simulate", {
      params: { id: DeploymentId },
      payload: SimulateDeployment,
      success: Ok(SimulationReport),
      error: NotFoundHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(OpenApi.annotations({
        summary: "Run in-memory simulated instances (nothing saved): node and branch coverage, outcomes and timings",
        description:
          "Each run starts at the none start event with variables (variableSets merged in turn) and answers what it waits for: " +
          "jobs, tasks, call activities and business rule tasks complete with results[nodeId]; timers fire on a simulated clock; " +
          "messages and signals at catch events arrive; armed boundary events happen only when listed in events (an event-based " +
          "gateway takes its first event unless one is listed). A run ends COMPLETED, INCIDENT, STUCK (waits for something the " +
          "simulator cannot give) or STEP_LIMIT; stops lists where and why."
      })),
    deploymentRead(
      "nodes",
      "/:id/nodes",
      Schema.Array(DeploymentNode),
      "Node ids, types and names, for building a migration mapping"
    )
  )
  .pipe(authenticatedGroup("/api/v1/deployments", "Deployments"))
{}
