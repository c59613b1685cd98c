// Compiling tasks: service and send tasks (a job), user tasks (assignment, form, schedule, task listeners), script
// tasks (FEEL), receive tasks (a message), business rule tasks (a decision), and tasks that do nothing.
import { compileCalledDecision } from "../CalledDecision.ts"
import { compileListeners } from "../ExecutionListeners.ts"
import { feelSyntaxProblem, isExpression } from "../Expressions.ts"
import {
  type ActivityBase,
  type BusinessRuleTaskNode,
  emptyUserTask,
  type JobDefinition,
  type JobTaskNode,
  type MessageDefinition,
  type ReceiveTaskNode,
  type ScriptTaskNode,
  type UserTaskNode
} from "../ProcessGraph.ts"
import { MAX_JOB_RETRIES } from "../StoredRanges.ts"
import { noSchedule, scheduleProblems } from "../TaskSchedule.ts"
import { checkFlows, checkLoopAndDefault, checkMappings } from "./ElementChecks.ts"
import { activityBase, type ElementContext } from "./ElementContext.ts"
import { eventRoleOf, understood } from "./EventDefinitions.ts"

/** An activity's first checks: no event definition it cannot execute, its mappings, its flows. */
export const openActivity = (ctx: ElementContext) => {
  if (!understood(ctx, eventRoleOf(ctx))) return null
  const mappings = checkMappings(ctx)
  checkFlows(ctx)
  return mappings
}

/** The job of an element done by a job worker: its type (zeebe:taskDefinition) is required. */
export const compileJob = (ctx: ElementContext, throwsMessage = false): JobDefinition => {
  const jobType = ctx.node.jobType ?? null
  if (jobType === null || jobType === "") {
    ctx.problem(
      throwsMessage
        ? `message throw event ${ctx.id} needs a task type (zeebe:taskDefinition type): a job worker sends the message`
        : `${ctx.type} ${ctx.id} needs a task type (zeebe:taskDefinition type)`
    )
  }
  const retries = ctx.node.retries ?? 3
  if (!Number.isInteger(retries) || retries < 0 || retries > MAX_JOB_RETRIES) {
    ctx.problem(`${ctx.type} ${ctx.id}: retries must be a whole number from 0 to ${MAX_JOB_RETRIES}, not ${retries}`)
  }
  return { type: jobType ?? "", retries, headers: ctx.node.headers ?? {} }
}

export const compileJobTask = <T extends "serviceTask" | "sendTask">(
  ctx: ElementContext,
  type: T
): JobTaskNode<T> | null => {
  const mappings = openActivity(ctx)
  if (mappings === null) return null
  const job = compileJob(ctx)
  return { ...activityBase(ctx, type, mappings, checkLoopAndDefault(ctx)), job }
}

export const compileUserTask = (ctx: ElementContext): UserTaskNode | null => {
  const mappings = openActivity(ctx)
  if (mappings === null) return null
  for (const p of scheduleProblems(ctx.node.userTask?.schedule ?? noSchedule)) ctx.problem(p)
  const closing = checkLoopAndDefault(ctx)
  const listeners = compileListeners(ctx.node, ctx.report)
  const { taskListeners } = listeners
  return {
    ...activityBase(ctx, "userTask", mappings, closing, listeners),
    userTask: ctx.node.userTask ?? emptyUserTask,
    ...(taskListeners === undefined ? {} : { taskListeners })
  }
}

export const compileScriptTask = (ctx: ElementContext): ScriptTaskNode | null => {
  const mappings = openActivity(ctx)
  if (mappings === null) return null
  const script = ctx.node.script ?? null
  if (script === null || script.expression === "" || script.resultVariable === "") {
    ctx.problem("a script task needs a FEEL expression and a result variable (zeebe:script)")
  } else {
    const syntax = feelSyntaxProblem(script.expression)
    if (syntax !== null) ctx.problem(`script: ${syntax}`)
  }
  return {
    ...activityBase(ctx, "scriptTask", mappings, checkLoopAndDefault(ctx)),
    script: script ?? { expression: "", resultVariable: "" }
  }
}

/** What a receive task or message catch event waits for: a message name and a correlation key. */
export const compileMessageWait = (ctx: ElementContext): MessageDefinition => {
  const name = ctx.node.message?.name ?? null
  const correlationKey = ctx.node.message?.correlationKey ?? null
  if (name === null || name === "") ctx.problem(`${ctx.type} ${ctx.id} needs a message with a name`)
  if (correlationKey === null || correlationKey === "") {
    ctx.problem(`${ctx.type} ${ctx.id} needs a correlation key (zeebe:subscription correlationKey)`)
  } else if (isExpression(correlationKey)) {
    const syntax = feelSyntaxProblem(correlationKey)
    if (syntax !== null) ctx.problem(`correlation key: ${syntax}`)
  }
  return { name: name ?? "", correlationKey: correlationKey ?? "" }
}

export const compileReceiveTask = (ctx: ElementContext): ReceiveTaskNode | null => {
  const mappings = openActivity(ctx)
  if (mappings === null) return null
  const message = compileMessageWait(ctx)
  return { ...activityBase(ctx, "receiveTask", mappings, checkLoopAndDefault(ctx)), message }
}

export const compileBusinessRuleTask = (ctx: ElementContext): BusinessRuleTaskNode | null => {
  const mappings = openActivity(ctx)
  if (mappings === null) return null
  const base = activityBase(ctx, "businessRuleTask", mappings, checkLoopAndDefault(ctx))
  return { ...base, decision: compileCalledDecision(ctx.node, ctx.report) }
}

/** A task or manual task: it does nothing but pass on. */
export const compilePlainTask = <T extends "task" | "manualTask">(
  ctx: ElementContext,
  type: T
): ActivityBase<T> | null => {
  const mappings = openActivity(ctx)
  if (mappings === null) return null
  return activityBase(ctx, type, mappings, checkLoopAndDefault(ctx))
}
