// Service and send tasks (and message throw events, as in Zeebe): a job of the zeebe:taskDefinition type that a worker
// activates and completes; the token waits for it.
import type { JobDefinition, JobTaskNode } from "../../../bpmn/ProcessGraph.ts"
import type { Token } from "../../InstanceState.ts"
import type { Run } from "../../Run.ts"
import type { ActivateElement, Variables } from "../Element.ts"

export function createJob(run: Run, token: Token, nodeId: string, job: JobDefinition, visible: Variables): void {
  run.emit({
    type: "JobCreated",
    tokenId: token.id,
    nodeId,
    jobId: run.newId("job"),
    jobType: job.type,
    retries: job.retries,
    headers: job.headers,
    variables: visible
  })
}

export const jobTask: ActivateElement<JobTaskNode<"serviceTask" | "sendTask">> = ({ run, token, node, visible }) =>
  createJob(run, token, node.id, node.job, visible)
