import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { BusinessErrorHttp, ConflictHttp, NotFoundHttp } from "../../schema/ApiErrors.ts"
import { IdParam, Page } from "../../schema/Common.ts"
import { Ok } from "../../schema/Envelope.ts"
import { ActivatedJobs, ActivateJobs, CompleteWork, ThrowJobError, Incident, IncidentQuery, Job, JobQuery, TaskQuery, UserTask } from "../../schema/Work.ts"
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
      .annotateMerge(OpenApi.annotations({ summary: "List incidents (node, type, message), newest first" }))
  )
  .middleware(Authentication)
  .prefix("/api/v1/incidents")
  .annotateMerge(OpenApi.annotations({ title: "Incidents" }))
{}
