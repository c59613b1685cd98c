// What the compiler knows about element types: which are executed, which carry boundary events or multi-instance,
// and which are refused with a reason.
import { ACTIVITY_TYPES, EXECUTABLE_TYPES, type NodeType } from "./ProcessGraph.ts"

/** Every activity can carry boundary events. */
export const BOUNDARY_HOSTS: ReadonlySet<string> = new Set(ACTIVITY_TYPES)

/** Every activity that can carry boundary events can be multi-instance, except (here) an ad-hoc subprocess. */
export const MULTI_INSTANCE_TYPES: ReadonlySet<string> = new Set(
  [...BOUNDARY_HOSTS].filter((t) => t !== "adHocSubProcess")
)

export const isExecutable = (type: string): type is NodeType =>
  (EXECUTABLE_TYPES as ReadonlyArray<string>).includes(type)

export const NOT_YET: Record<string, string> = {
  complexGateway: "complex gateways are not supported",
  transaction: "transactions are not supported"
}
