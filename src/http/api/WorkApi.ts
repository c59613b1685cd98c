import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BusinessErrorHttp, ClientErrorsHttp, ConflictHttp, NotFoundHttp } from "../../schema/ApiErrors.ts"
import { IdempotencyHeaders } from "../../schema/Common.ts"
import { Created, Ok } from "../../schema/Envelope.ts"
import { FormDefinition, TaskForm } from "../../schema/Forms.ts"
import { IncidentId, JobId, TaskFilterId, TaskId } from "../../schema/ResourceIds.ts"
import {
  ActivatedJobs,
  ActivateJobs,
  AddComment,
  AssignTask,
  CompleteJob,
  CompleteWork,
  CreateTaskFilter,
  DelegateTask,
  EditVariablesAndRetry,
  FailJob,
  Incident,
  IncidentQuery,
  Job,
  JobHeartbeat,
  JobQuery,
  JobRetries,
  JobStreamQuery,
  RestartFromNode,
  RetryAttempt,
  RetryState,
  RollbackIncident,
  SetRetryPolicy,
  TaskComment,
  TaskFilter,
  TaskQuery,
  ThrowJobError,
  UpdateTask,
  UserTask
} from "../../schema/Work.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"
import { pagedList } from "./PagedList.ts"
import { readsOn } from "./ReadsOn.ts"
import { writesOn } from "./WritesOn.ts"

// The reads of what belongs to a job or a task (GET /:id/...): any role, 404 without it.
const jobRead = readsOn(JobId, Requires.anyRole)
const taskRead = readsOn(TaskId, Requires.anyRole)

const WorkErrors = [NotFoundHttp, ConflictHttp, BusinessErrorHttp]

// Job workers act for the process owner: their service accounts carry PROCESS_OWNER.
const jobCompletion = writesOn(JobId, Job, WorkErrors, Requires.adminOrProcessOwner, IdempotencyHeaders)
const jobReport = writesOn(JobId, Job, WorkErrors, Requires.adminOrProcessOwner)
const jobLease = writesOn(JobId, Job, [NotFoundHttp, ConflictHttp], Requires.adminOrProcessOwner)
const retriesChange = writesOn(JobId, Job, ClientErrorsHttp, Requires.adminOrProcessOwner)
const retryChange = writesOn(JobId, RetryState, ClientErrorsHttp, Requires.adminOrProcessOwner)
// People complete their own tasks: any authenticated caller, subject to the task's assignee.
const taskCompletion = writesOn(TaskId, UserTask, WorkErrors, Requires.anyRole, IdempotencyHeaders)
// Claiming, releasing and delegating are what task users do; assigning to others is an operator's call.
const taskChange = writesOn(TaskId, UserTask, WorkErrors, Requires.anyRole)
const taskAssignment = writesOn(TaskId, UserTask, WorkErrors, Requires.adminOrProcessOwner)
const recovery = writesOn(IncidentId, Incident, ClientErrorsHttp, Requires.adminOrProcessOwner)

export class JobsApi extends HttpApiGroup.make("jobs")
  .add(
    // Job workers act for the process owner: their service accounts carry PROCESS_OWNER.
    HttpApiEndpoint.post("activate", "/activation", { payload: ActivateJobs, success: Ok(ActivatedJobs) })
      .annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(OpenApi.annotations({
        summary:
          "Lock up to maxJobsToActivate jobs of a type for a worker for `timeout` ms (Camunda 8 names); answers { jobs: [...] }"
      })),
    jobCompletion(
      "complete",
      "/:id/complete",
      "Job completed",
      "Report success with variables; the instance moves on",
      CompleteJob
    ),
    jobReport(
      "throwError",
      "/:id/error",
      "Error thrown",
      "Throw a business error: the nearest error boundary event with that code (or none) catches it; uncaught -> incident",
      ThrowJobError
    ),
    jobReport(
      "fail",
      "/:id/fail",
      "Failure recorded",
      "Report a technical failure: with retries left the job is activatable again after retryBackOff ms; with none an incident (JOB_NO_RETRIES) is raised and the job is FAILED",
      FailJob
    ),
    retriesChange(
      "retries",
      "/:id/retries",
      "Retries updated",
      "Reset the retry count; a FAILED job's incident is resolved and the job is claimable again",
      JobRetries
    ),
    jobLease(
      "heartbeat",
      "/:id/heartbeat",
      "Lock extended",
      "Extend an activated job's lock by timeout ms from now (409 when it is not activated or another worker holds it)",
      JobHeartbeat
    ),
    HttpApiEndpoint.get("stream", "/stream", {
      query: Schema.Struct(JobStreamQuery),
      success: HttpApiSchema.StreamSse({ data: Job })
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(OpenApi.annotations({
        summary:
          "Server-sent events: each job of the type is pushed as soon as it is available, already locked for this worker",
        description:
          "One `data:` event per job (the Job as JSON). Pushed jobs are activated exactly as by POST /jobs/activation; the stream " +
          "runs until the client disconnects. Jobs whose lock expires go back to the pool."
      })),
    jobRead(
      "retryState",
      "/:id/retry",
      RetryState,
      "The job's retries, retry policy, failed attempts and pending retry (nextRetryAt)"
    ),
    retryChange(
      "setRetryPolicy",
      "/:id/retry",
      "Retry policy replaced",
      "Replace the job's retry policy (FIXED or EXPONENTIAL backoff used when a failure gives no retryBackOff); optionally set retries",
      SetRetryPolicy
    ),
    retryChange(
      "retryNow",
      "/:id/retry-now",
      "Retry due now",
      "Skip the remaining backoff of a pending retry: the job can be activated at once (409 without a pending retry)"
    ),
    retryChange(
      "cancelRetry",
      "/:id/retry/cancel",
      "Retry canceled",
      "Cancel a pending retry: the job is FAILED and an incident JOB_NO_RETRIES is raised (409 without a pending retry)"
    ),
    jobRead(
      "retryHistory",
      "/:id/retry/history",
      Schema.Array(RetryAttempt),
      "Every reported failure of the job, oldest first: worker, message, retries left, when it was retried"
    ),
    pagedList(JobQuery, Job, Requires.anyRole, "List jobs, newest first")
  )
  .pipe(authenticatedGroup("/api/v1/jobs", "Jobs"))
{}

export class TasksApi extends HttpApiGroup.make("tasks")
  .add(
    pagedList(
      TaskQuery,
      UserTask,
      Requires.anyRole,
      "List human tasks, newest first (or by sort); filters candidateGroup, assignee, state, processInstanceId, due and follow-up date ranges"
    ),
    taskCompletion(
      "complete",
      "/:id/complete",
      "Task completed",
      "Complete a task with variables; the instance moves on (422 if the task is assigned to someone else). A delegated task " +
        "(delegationState PENDING) completed by its delegate returns to its owner instead (RESOLVED; the variables are set on the instance).",
      CompleteWork
    ),
    // Claiming, releasing, delegating and commenting are what task users do; assigning to others is an operator's call.
    taskChange(
      "claim",
      "/:id/claim",
      "Claimed",
      "The caller becomes the assignee (again: no change); 409 when someone else holds the task"
    ),
    taskChange(
      "unclaim",
      "/:id/unclaim",
      "Released",
      "Release the task (assignee, owner and delegation cleared): its assignee, or an ADMIN or PROCESS_OWNER"
    ),
    taskAssignment(
      "assign",
      "/:id/assign",
      "Assigned",
      "Assign to a user (any user name; ADMIN or PROCESS_OWNER), replacing the assignee and any delegation",
      AssignTask
    ),
    HttpApiEndpoint.patch("update", "/:id", {
      params: { id: TaskId },
      payload: UpdateTask,
      success: Ok(UserTask, "Update requested"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(OpenApi.annotations({
        summary:
          "Change candidate groups/users, due and follow-up dates, priority (ADMIN or PROCESS_OWNER); a task whose model has " +
          "updating listeners changes once they have completed (the reply shows it as it was)"
      })),
    taskChange(
      "delegate",
      "/:id/delegate",
      "Delegated",
      "Delegate a held task to another user: it becomes theirs with delegationState PENDING and returns to its owner (the delegator) when they complete it",
      DelegateTask
    ),
    HttpApiEndpoint.get("form", "/:id/form", { params: { id: TaskId }, success: Ok(TaskForm), error: NotFoundHttp })
      .annotateMerge(Requires.anyRole)
      .annotateMerge(OpenApi.annotations({
        summary:
          "The task's form schema by its formKey: the DEPLOYED form definition with that key, else the latest legacy form of that key (404 if none)"
      })),
    taskRead(
      "formDefinition",
      "/:id/form-definition",
      FormDefinition,
      "The DEPLOYED form-designer definition whose key is the task's formKey (404 if none)"
    ),
    taskRead("comments", "/:id/comments", Schema.Array(TaskComment), "The task's comment thread, oldest first"),
    HttpApiEndpoint.post("addComment", "/:id/comments", {
      params: { id: TaskId },
      payload: AddComment,
      success: Created(TaskComment, "Comment added"),
      error: NotFoundHttp
    }).annotateMerge(Requires.anyRole)
      .annotateMerge(
        OpenApi.annotations({ summary: "Add a comment (the caller is its author); also on finished tasks" })
      )
  )
  .pipe(authenticatedGroup("/api/v1/tasks", "Tasks"))
{}

export class TaskFiltersApi extends HttpApiGroup.make("taskFilters")
  .add(
    HttpApiEndpoint.get("list", "/", { success: Ok(Schema.Array(TaskFilter)) }).annotateMerge(Requires.anyRole)
      .annotateMerge(OpenApi.annotations({ summary: "The caller's saved task filters and the tenant's shared ones" })),
    HttpApiEndpoint.post("create", "/", {
      payload: CreateTaskFilter,
      success: Created(TaskFilter, "Filter saved")
    }).annotateMerge(Requires.anyRole)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Save a task-list filter (a GET /tasks query) under a name; shared: visible to the whole tenant"
        })
      ),
    HttpApiEndpoint.delete("remove", "/:id", {
      params: { id: TaskFilterId },
      success: Ok(TaskFilter, "Deleted"),
      error: [NotFoundHttp, BusinessErrorHttp]
    }).annotateMerge(Requires.anyRole)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Delete a filter: its owner, or an ADMIN (another user's private filter is 404)"
        })
      )
  )
  .pipe(authenticatedGroup("/api/v1/task-filters", "Task filters"))
{}

export class IncidentsApi extends HttpApiGroup.make("incidents")
  .add(
    pagedList(IncidentQuery, Incident, Requires.anyRole, "List incidents (node, type, message), newest first"),
    recovery(
      "retry",
      "/:id/retry",
      "Retried",
      "Run the failed node again (a dead-lettered job becomes activatable with one retry); the incident is RESOLVED"
    ),
    recovery(
      "skipNode",
      "/:id/skip-node",
      "Skipped",
      "Continue past the failed node without running it (its job, if any, is canceled)"
    ),
    recovery(
      "restartFromNode",
      "/:id/restart-from-node",
      "Restarted",
      "Resume from another node of the same scope, keeping the variables (a token move)",
      RestartFromNode
    ),
    recovery(
      "rollback",
      "/:id/rollback",
      "Rolled back",
      "Restore the instance's variables to what they were after history event eventSeq, then retry the node",
      RollbackIncident
    ),
    recovery(
      "editVariablesAndRetry",
      "/:id/edit-variables-and-retry",
      "Retried",
      "Patch variables (each into the nearest scope that has it, else the instance) and retry the node, in one call",
      EditVariablesAndRetry
    )
  )
  .pipe(authenticatedGroup("/api/v1/incidents", "Incidents"))
{}
