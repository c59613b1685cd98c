// The shape of a command's handler: the run, the command, and the instance's status when it arrived (a suspended
// instance holds most commands until it is resumed).
import type { InstanceCommand } from "../InstanceCommands.ts"
import type { InstanceState } from "../InstanceState.ts"
import type { Run } from "../Run.ts"

export type CommandOf<T extends InstanceCommand["type"]> = Extract<InstanceCommand, { readonly type: T }>

export type CommandHandler<T extends InstanceCommand["type"]> = (
  run: Run,
  command: CommandOf<T>,
  status: InstanceState["status"]
) => void
