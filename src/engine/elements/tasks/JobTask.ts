// Service and send tasks (and message throw events, as in Zeebe): a job of the zeebe:taskDefinition type that a worker
// activates and completes; the token waits for it.
import type { GraphNode, JobDefinition, JobTaskNode } from "../../../bpmn/ProcessGraph.ts"
import type { Token } from "../../InstanceState.ts"
import { ownVariables } from "../../OwnVariables.ts"
import type { Run } from "../../Run.ts"
import type { ActivateElement, Variables } from "../Element.ts"

/** The job records its own variables (OwnVariables.ts); its worker gets all it sees at activation. */
export function createJob(run: Run, token: Token, node: GraphNode, job: JobDefinition, visible: Variables): void {
  run.emit({
    type: "JobCreated",
    tokenId: token.id,
    nodeId: node.id,
    jobId: run.newId("job"),
    jobType: job.type,
    retries: job.retries,
    headers: job.headers,
    variables: ownVariables(run.state, token, node, visible)
  })
}

export const jobTask: ActivateElement<JobTaskNode<"serviceTask" | "sendTask">> = ({ run, token, node, visible }) =>
  createJob(run, token, node, node.job, visible)
