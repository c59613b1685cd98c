// A business rule task's zeebe:calledDecision: the decision id, where its result goes, and its binding — the latest
// version (default), with bindingType="versionTag" the latest version deployed with that zeebe:versionTag, or with
// bindingType="deployment" the version deployed together with the process (DeploymentBinding.ts checks it is there).
import type { DraftNode } from "./Draft.ts"
import type { BusinessRuleTaskNode } from "./ProcessGraph.ts"

export const compileCalledDecision = (
  node: DraftNode,
  problem: (elementId: string, message: string) => void
): BusinessRuleTaskNode["decision"] => {
  const decisionId = node.decision?.decisionId ?? ""
  if (decisionId === "") {
    problem(node.id, `business rule task ${node.id} needs a decision id (zeebe:calledDecision decisionId)`)
  }
  const versionTag = node.decision?.versionTag
  if (versionTag !== undefined && (versionTag ?? "").trim() === "") {
    problem(node.id, `business rule task ${node.id} binds by version tag: zeebe:calledDecision needs a versionTag`)
  }
  return {
    decisionId,
    resultVariable: node.decision?.resultVariable || "result",
    ...(versionTag == null ? {} : { versionTag: versionTag.trim() }),
    ...(node.decision?.binding === "deployment" ? { binding: "deployment" as const } : {})
  }
}
