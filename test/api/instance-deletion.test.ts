// Deleting a finished instance (or a deployment with its finished instances) deletes everything the instance wrote:
// its jobs, user tasks, incidents, subscriptions, scopes, applied commands and history. The history and the commands
// hold no foreign key to their instance (migration 0030), so nothing cascades for them: every table with an
// instance_id column is checked, and another instance's rows stay.
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { describe, expect, it } from "vitest"
import { type Caller, givenTenant } from "../support/Scenario.ts"
import { testApp } from "../support/TestApp.ts"

// Every kind of row at once: a job that fails into an incident, a user task, a message subscription, and a scope (an
// embedded subprocess waiting on its own job). Canceling closes the subscription and the scope; the rest stays.
const everything = (id: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" id="d" targetNamespace="t">
  <bpmn:message id="m" name="${id}-paid">
    <bpmn:extensionElements><zeebe:subscription correlationKey="= key" /></bpmn:extensionElements>
  </bpmn:message>
  <bpmn:process id="${id}" isExecutable="true">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f0" sourceRef="start" targetRef="fork" />
    <bpmn:parallelGateway id="fork" />
    <bpmn:sequenceFlow id="f1" sourceRef="fork" targetRef="work" />
    <bpmn:sequenceFlow id="f2" sourceRef="fork" targetRef="review" />
    <bpmn:sequenceFlow id="f3" sourceRef="fork" targetRef="wait" />
    <bpmn:sequenceFlow id="f4" sourceRef="fork" targetRef="sub" />
    <bpmn:serviceTask id="work">
      <bpmn:extensionElements><zeebe:taskDefinition type="${id}-work" retries="1" /></bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:userTask id="review" />
    <bpmn:intermediateCatchEvent id="wait"><bpmn:messageEventDefinition messageRef="m" /></bpmn:intermediateCatchEvent>
    <bpmn:subProcess id="sub">
      <bpmn:startEvent id="sub-start" />
      <bpmn:sequenceFlow id="s1" sourceRef="sub-start" targetRef="inner" />
      <bpmn:serviceTask id="inner">
        <bpmn:extensionElements><zeebe:taskDefinition type="${id}-inner" /></bpmn:extensionElements>
      </bpmn:serviceTask>
      <bpmn:sequenceFlow id="s2" sourceRef="inner" targetRef="sub-end" />
      <bpmn:endEvent id="sub-end" />
    </bpmn:subProcess>
    <bpmn:sequenceFlow id="e1" sourceRef="work" targetRef="end" />
    <bpmn:sequenceFlow id="e2" sourceRef="review" targetRef="end" />
    <bpmn:sequenceFlow id="e3" sourceRef="wait" targetRef="end" />
    <bpmn:sequenceFlow id="e4" sourceRef="sub" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`

/** The instance's rows in every table with an instance_id column (tables without one hold none of its rows). */
const rowsOf = async (instanceIds: ReadonlyArray<string>): Promise<Record<string, number>> => {
  const app = await testApp()
  return app.runtime.runPromise(
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const tables = yield* sql<{ readonly table_name: string }>`SELECT table_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND column_name = 'instance_id' ORDER BY table_name`
      const counts: Record<string, number> = {}
      for (const { table_name } of tables) {
        const [row] = yield* sql<{ readonly n: number | string }>`SELECT count(*) AS n FROM ${sql(table_name)}
        WHERE instance_id::text IN ${sql.in(instanceIds)}`
        counts[table_name] = Number(row?.n ?? 0)
      }
      return counts
    }).pipe(Effect.orDie)
  )
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, n) => sum + n, 0)

/** An instance with a row of every kind, then canceled (only finished instances can be deleted). */
const finishedWithEverything = async (
  owner: Caller,
  id: string,
  deploymentId: string
) => {
  const instance = await owner.start(deploymentId, { key: `${id}-${Math.random()}` })
  const [job] = await owner.activateJobs(`${id}-work`)
  ;(await owner.post(`/jobs/${job.id}/fail`, { retries: 0, errorMessage: "down" })).ok()
  expect((await owner.get(`/incidents?processInstanceId=${instance.id}`)).ok().items).toHaveLength(1)
  ;(await owner.post(`/process-instances/${instance.id}/cancel`)).ok()
  return instance
}

describe("deleting instances", () => {
  it("deletes every row a finished instance wrote, and no other instance's", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(everything("del-one"))
    const doomed = await finishedWithEverything(owner, "del-one", deployment.id)
    const kept = await finishedWithEverything(owner, "del-one", deployment.id)
    const before = await rowsOf([doomed.id])
    // what outlives the instance's end is there to be deleted (its subscriptions and scopes closed when it ended)
    for (const table of ["instance_events", "instance_commands", "jobs", "user_tasks", "incidents"]) {
      expect(before[table], table).toBeGreaterThan(0)
    }
    const keptBefore = await rowsOf([kept.id])
    ;(await owner.delete(`/process-instances/${doomed.id}`)).ok()

    expect(total(await rowsOf([doomed.id]))).toBe(0)
    expect(await rowsOf([kept.id])).toEqual(keptBefore)
    ;(await owner.get(`/process-instances/${doomed.id}/history`)).fails(404, "RESOURCE_NOT_FOUND")
    expect((await owner.get(`/jobs?processInstanceId=${doomed.id}`)).ok().items).toEqual([])
    expect((await owner.get(`/incidents?processInstanceId=${doomed.id}`)).ok().items).toEqual([])
    expect(await owner.tasks(`?processInstanceId=${doomed.id}`)).toEqual([])
    expect((await owner.get(`/jobs?processInstanceId=${kept.id}`)).ok().items.length).toBeGreaterThan(0)
  })

  it("deletes the rows of every finished instance of a deployment deleted with them", async () => {
    const owner = await (await givenTenant()).owner()
    const deployment = await owner.deploy(everything("del-all"))
    const other = await owner.deploy(everything("del-other"))
    const instances = [
      await finishedWithEverything(owner, "del-all", deployment.id),
      await finishedWithEverything(owner, "del-all", deployment.id)
    ]
    const bystander = await finishedWithEverything(owner, "del-other", other.id)
    const bystanderBefore = await rowsOf([bystander.id])
    expect(total(await rowsOf(instances.map((i) => i.id)))).toBeGreaterThan(0)
    ;(await owner.delete(`/deployments/${deployment.id}?includeFinishedInstances=true`)).ok()

    expect(total(await rowsOf(instances.map((i) => i.id)))).toBe(0)
    expect(await rowsOf([bystander.id])).toEqual(bystanderBefore)
  })
})
