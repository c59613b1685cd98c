import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { recordResource } from "../../auth/RequestState.ts"
import { pageRequest } from "../../schema/Common.ts"
import { DeploymentBundles } from "../../services/deployments/DeploymentBundles.ts"
import { Deployments } from "../../services/deployments/Deployments.ts"
import { ProcessEngine } from "../../services/instances/ProcessEngine.ts"
import { Api } from "../Api.ts"

export const DeploymentsHandlers = HttpApiBuilder.group(
  Api,
  "deployments",
  Effect.fnUntraced(function*(handlers) {
    const deployments = yield* Deployments
    const bundles = yield* DeploymentBundles
    const engine = yield* ProcessEngine
    return handlers
      .handle(
        "deploy",
        Effect.fnUntraced(function*({ payload }) {
          const deployment = typeof payload === "string"
            ? yield* deployments.deploy({ format: "BPMN_XML", xml: payload })
            : "resources" in payload
            ? yield* bundles.deploy(payload)
            : yield* deployments.deploy({ format: "JSON_GRAPH", graph: payload })
          yield* recordResource("deployments", deployment.id)
          return deployment
        })
      )
      .handle("list", ({ query }) => deployments.list({ key: query.key }, pageRequest(query)))
      .handle("get", ({ params }) => deployments.get(params.id))
      .handle("remove", ({ params, query }) => deployments.remove(params.id, query.includeFinishedInstances === "true"))
      .handle("suspend", ({ params }) => deployments.setState(params.id, "SUSPENDED"))
      .handle("resume", ({ params }) => deployments.setState(params.id, "ACTIVE"))
      .handle(
        "simulate",
        Effect.fnUntraced(function*({ params, payload }) {
          const { graph } = yield* deployments.graphOf(params.id)
          const report = engine.simulate(graph, {
            runs: payload.runs ?? 100,
            variables: payload.variables ?? {},
            variableSets: payload.variableSets ?? [],
            results: payload.results ?? {},
            events: payload.events ?? [],
            maxStepsPerRun: payload.maxStepsPerRun ?? 1000
          }, () => performance.now())
          return { deploymentId: params.id, ...report }
        })
      )
      .handle("nodes", ({ params }) => deployments.nodes(params.id))
  })
)
