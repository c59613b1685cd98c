import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BusinessErrorHttp, ConflictHttp, NotFoundHttp, ValidationErrorHttp } from "../../schema/ApiErrors.ts"
import { IdParam, Page } from "../../schema/Common.ts"
import { Ok } from "../../schema/Envelope.ts"
import {
  ActivatedJobs,
  ActivateJobs,
  CompleteWork,
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
  SetRetryPolicy,
  RollbackIncident,
  TaskQuery,
  ThrowJobError,
  UserTask
} from "../../schema/Work.ts"
import { Authentication } from "../Middleware.ts"

export class JobsApi extends HttpApiGroup.make("jobs")
  .add(
    HttpApiEndpoint.post("activate", "/activation", { payload: ActivateJobs, success: Ok(ActivatedJobs) })
      .annotateMerge(OpenApi.annotations({
        summary: "Lock up to maxJobsToActivate jobs of a type for a worker for `timeout` ms (Camunda 8 names); answers { jobs: [...] }"
      })),
    HttpApiEndpoint.post("complete", "/:id/complete", {
      params: IdParam,
      payload: CompleteWork,
      success: Ok(Job, "Job completed"),
      error: [NotFoundHttp, ConflictHttp, BusinessErrorHttp]
    }).annotateMerge(OpenApi.annotations({ summary: "Report success with variables; the instance moves on" })),
    HttpApiEndpoint.post("throwError", "/:id/error", {
      params: IdParam,
      payload: ThrowJobError,
      success: Ok(Job, "Error thrown"),
      error: [NotFoundHttp, ConflictHttp, BusinessErrorHttp]
    }).annotateMerge(OpenApi.annotations({
      summary: "Throw a business error: the nearest error boundary event with that code (or none) catches it; uncaught -> incident"
    })),
    HttpApiEndpoint.post("fail", "/:id/fail", {
      params: IdParam,
      payload: FailJob,
      success: Ok(Job, "Failure recorded"),
      error: [NotFoundHttp, ConflictHttp, BusinessErrorHttp]
    }).annotateMerge(OpenApi.annotations({
      summary: "Report a technical failure: with retries left the job is activatable again after retryBackOff ms; with none an incident (JOB_NO_RETRIES) is raised and the job is FAILED"
    })),
    HttpApiEndpoint.post("retries", "/:id/retries", {
      params: IdParam,
      payload: JobRetries,
      success: Ok(Job, "Retries updated"),
      error: [NotFoundHttp, ConflictHttp, ValidationErrorHttp, BusinessErrorHttp]
    }).annotateMerge(OpenApi.annotations({
      summary: "Reset the retry count; a FAILED job's incident is resolved and the job is claimable again"
    })),
    HttpApiEndpoint.post("heartbeat", "/:id/heartbeat", {
      params: IdParam,
      payload: JobHeartbeat,
      success: Ok(Job, "Lock extended"),
      error: [NotFoundHttp, ConflictHttp]
    }).annotateMerge(OpenApi.annotations({ summary: "Extend an activated job's lock by timeout ms from now (409 when it is not activated or another worker holds it)" })),
    HttpApiEndpoint.get("stream", "/stream", { query: Schema.Struct(JobStreamQuery), success: HttpApiSchema.StreamSse({ data: Job }) })
      .annotateMerge(OpenApi.annotations({
        summary: "Server-sent events: each job of the type is pushed as soon as it is available, already locked for this worker",
        description: "One `data:` event per job (the Job as JSON). Pushed jobs are activated exactly as by POST /jobs/activation; the stream " +
          "runs until the client disconnects. Jobs whose lock expires go back to the pool."
      })),
    HttpApiEndpoint.get("retryState", "/:id/retry", { params: IdParam, success: Ok(RetryState), error: NotFoundHttp })
      .annotateMerge(OpenApi.annotations({ summary: "The job's retries, retry policy, failed attempts and pending retry (nextRetryAt)" })),
    HttpApiEndpoint.post("setRetryPolicy", "/:id/retry", {
      params: IdParam,
      payload: SetRetryPolicy,
      success: Ok(RetryState, "Retry policy replaced"),
      error: [NotFoundHttp, ConflictHttp, ValidationErrorHttp, BusinessErrorHttp]
    }).annotateMerge(OpenApi.annotations({
      summary: "Replace the job's retry policy (FIXED or EXPONENTIAL backoff used when a failure gives no retryBackOff); optionally set retries"
    })),
    HttpApiEndpoint.post("retryNow", "/:id/retry-now", {
      params: IdParam,
      success: Ok(RetryState, "Retry due now"),
      error: [NotFoundHttp, ConflictHttp, ValidationErrorHttp, BusinessErrorHttp]
    }).annotateMerge(OpenApi.annotations({ summary: "Skip the remaining backoff of a pending retry: the job can be activated at once (409 without a pending retry)" })),
    HttpApiEndpoint.post("cancelRetry", "/:id/retry/cancel", {
      params: IdParam,
      success: Ok(RetryState, "Retry canceled"),
      error: [NotFoundHttp, ConflictHttp, ValidationErrorHttp, BusinessErrorHttp]
    }).annotateMerge(OpenApi.annotations({ summary: "Cancel a pending retry: the job is FAILED and an incident JOB_NO_RETRIES is raised (409 without a pending retry)" })),
    HttpApiEndpoint.get("retryHistory", "/:id/retry/history", { params: IdParam, success: Ok(Schema.Array(RetryAttempt)), error: NotFoundHttp })
      .annotateMerge(OpenApi.annotations({ summary: "Every reported failure of the job, oldest first: worker, message, retries left, when it was retried" })),
    HttpApiEndpoint.get("list", "/", { query: Schema.Struct(JobQuery), success: Ok(Page(Job)) })
      .annotateMerge(OpenApi.annotations({ summary: "List jobs, newest first" }))
  )
  .middleware(Authentication)
  .prefix("/api/v1/jobs")
  .annotateMerge(OpenApi.annotations({ title: "Jobs" }))
{}

export class TasksApi extends HttpApiGroup.make("tasks")
  .add(
    HttpApiEndpoint.get("list", "/", { query: Schema.Struct(TaskQuery), success: Ok(Page(UserTask)) })
      .annotateMerge(OpenApi.annotations({ summary: "List human tasks, newest first; filters candidateGroup, assignee, state, processInstanceId" })),
    HttpApiEndpoint.post("complete", "/:id/complete", {
      params: IdParam,
      payload: CompleteWork,
      success: Ok(UserTask, "Task completed"),
      error: [NotFoundHttp, ConflictHttp, BusinessErrorHttp]
    }).annotateMerge(OpenApi.annotations({ summary: "Complete a task with variables; the instance moves on (422 if the task is assigned to someone else)" }))
  )
  .middleware(Authentication)
  .prefix("/api/v1/tasks")
  .annotateMerge(OpenApi.annotations({ title: "Tasks" }))
{}

export class IncidentsApi extends HttpApiGroup.make("incidents")
  .add(
    HttpApiEndpoint.get("list", "/", { query: Schema.Struct(IncidentQuery), success: Ok(Page(Incident)) })
      .annotateMerge(OpenApi.annotations({ summary: "List incidents (node, type, message), newest first" })),
    HttpApiEndpoint.post("retry", "/:id/retry", { params: IdParam, success: Ok(Incident, "Retried"), error: [NotFoundHttp, ConflictHttp, ValidationErrorHttp, BusinessErrorHttp] })
      .annotateMerge(OpenApi.annotations({
        summary: "Run the failed node again (a dead-lettered job becomes activatable with one retry); the incident is RESOLVED"
      })),
    HttpApiEndpoint.post("skipNode", "/:id/skip-node", { params: IdParam, success: Ok(Incident, "Skipped"), error: [NotFoundHttp, ConflictHttp, ValidationErrorHttp, BusinessErrorHttp] })
      .annotateMerge(OpenApi.annotations({ summary: "Continue past the failed node without running it (its job, if any, is canceled)" })),
    HttpApiEndpoint.post("restartFromNode", "/:id/restart-from-node", {
      params: IdParam,
      payload: RestartFromNode,
      success: Ok(Incident, "Restarted"),
      error: [NotFoundHttp, ConflictHttp, ValidationErrorHttp, BusinessErrorHttp]
    }).annotateMerge(OpenApi.annotations({ summary: "Resume from another node of the same scope, keeping the variables (a token move)" })),
    HttpApiEndpoint.post("rollback", "/:id/rollback", {
      params: IdParam,
      payload: RollbackIncident,
      success: Ok(Incident, "Rolled back"),
      error: [NotFoundHttp, ConflictHttp, ValidationErrorHttp, BusinessErrorHttp]
    }).annotateMerge(OpenApi.annotations({
      summary: "Restore the instance's variables to what they were after history event eventSeq, then retry the node"
    })),
    HttpApiEndpoint.post("editVariablesAndRetry", "/:id/edit-variables-and-retry", {
      params: IdParam,
      payload: EditVariablesAndRetry,
      success: Ok(Incident, "Retried"),
      error: [NotFoundHttp, ConflictHttp, ValidationErrorHttp, BusinessErrorHttp]
    }).annotateMerge(OpenApi.annotations({
      summary: "Patch variables (each into the nearest scope that has it, else the instance) and retry the node, in one call"
    }))
  )
  .middleware(Authentication)
  .prefix("/api/v1/incidents")
  .annotateMerge(OpenApi.annotations({ title: "Incidents" }))
{}
