import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { pageRequest } from "../../schema/Common.ts"
import { Drafts } from "../../services/modeling/Drafts.ts"
import { Models } from "../../services/modeling/Models.ts"
import { Projects } from "../../services/modeling/Projects.ts"
import { Templates } from "../../services/modeling/Templates.ts"
import { Api } from "../Api.ts"

export const ProjectsHandlers = HttpApiBuilder.group(
  Api,
  "projects",
  Effect.fnUntraced(function*(handlers) {
    const projects = yield* Projects
    return handlers
      .handle("list", ({ query }) => projects.list(pageRequest(query)))
      .handle("create", ({ payload }) => projects.create(payload))
      .handle("get", ({ params }) => projects.get(params.id))
      .handle("update", ({ params, payload }) => projects.update(params.id, payload))
      .handle("remove", ({ params }) => projects.remove(params.id))
      .handle("members", ({ params }) => projects.members(params.id))
      .handle("addMember", ({ params, payload }) => projects.addMember(params.id, payload.userId, payload.role))
      .handle("removeMember", ({ params }) => projects.removeMember(params.id, params.userId))
      .handle("folders", ({ params }) => projects.folders(params.id))
      .handle("createFolder", ({ params, payload }) => projects.createFolder(params.id, payload))
  })
)

export const ModelsHandlers = HttpApiBuilder.group(
  Api,
  "models",
  Effect.fnUntraced(function*(handlers) {
    const models = yield* Models
    return handlers
      .handle(
        "list",
        ({ query }) =>
          models.list({ projectId: query.projectId, folderId: query.folderId, kind: query.kind }, pageRequest(query))
      )
      .handle("create", ({ payload }) => models.create(payload))
      .handle("get", ({ params }) => models.get(params.id))
      .handle("remove", ({ params }) => models.remove(params.id))
      .handle("saveContent", ({ params, payload }) => models.save(params.id, payload))
      .handle("revisions", ({ params }) => models.revisions(params.id))
      .handle("restore", ({ params, payload }) => models.restore(params.id, payload.revision))
      .handle("lock", ({ params }) => models.lock(params.id))
      .handle("acquireLock", ({ params }) => models.acquire(params.id))
      .handle("releaseLock", ({ params }) => models.release(params.id))
      .handle("renewLock", ({ params }) => models.renew(params.id))
      .handle("takeoverLock", ({ params }) => models.takeover(params.id))
  })
)

export const DraftsHandlers = HttpApiBuilder.group(
  Api,
  "drafts",
  Effect.fnUntraced(function*(handlers) {
    const drafts = yield* Drafts
    return handlers
      .handle("list", ({ query }) => drafts.list(query.kind))
      .handle("create", ({ payload }) => drafts.create(payload))
      .handle("get", ({ params }) => drafts.get(params.id))
      .handle("save", ({ params, payload }) => drafts.save(params.id, payload))
      .handle("remove", ({ params }) => drafts.remove(params.id))
      .handle("promote", ({ params }) => drafts.promote(params.id))
  })
)

export const TemplatesHandlers = HttpApiBuilder.group(
  Api,
  "templates",
  Effect.fnUntraced(function*(handlers) {
    const templates = yield* Templates
    return handlers
      .handle("list", ({ query }) => templates.list(pageRequest(query)))
      .handle("create", ({ payload }) => templates.create(payload))
      .handle("get", ({ params }) => templates.get(params.id))
      .handle("update", ({ params, payload }) => templates.update(params.id, payload))
      .handle("remove", ({ params }) => templates.remove(params.id))
  })
)
