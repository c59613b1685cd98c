import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ClientErrorsHttp, NotFoundHttp } from "../../schema/ApiErrors.ts"
import { PageQueryFields } from "../../schema/Common.ts"
import { Created, Ok } from "../../schema/Envelope.ts"
import {
  AddProjectMember,
  CreateDraft,
  CreateFolder,
  CreateModel,
  CreateProject,
  Draft,
  DraftQuery,
  Folder,
  LockState,
  Model,
  ModelQuery,
  ModelRevision,
  Project,
  ProjectMember,
  RestoreModel,
  SaveDraft,
  SaveModelContent,
  SaveTemplate,
  Template,
  UpdateProject
} from "../../schema/Modeling.ts"
import { DraftId, ModelId, ProjectId, TemplateId } from "../../schema/ResourceIds.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"
import { itemById } from "./ItemById.ts"
import { pagedList } from "./PagedList.ts"
import { readsOn } from "./ReadsOn.ts"
import { writesOn } from "./WritesOn.ts"

// The reads of what belongs to a project or a model (GET /:id/...): any role, 404 without it.
const projectRead = readsOn(ProjectId, Requires.anyRole)
const modelRead = readsOn(ModelId, Requires.anyRole)

// Modelers' writes on a model (its content, its editing lock) and on a draft: the same answer, errors and access each.
const modelChange = writesOn(ModelId, Model, ClientErrorsHttp, Requires.adminOrProcessOwner)
const lockChange = writesOn(ModelId, LockState, ClientErrorsHttp, Requires.adminOrProcessOwner)
const draftChange = writesOn(DraftId, Draft, ClientErrorsHttp, Requires.adminOrProcessOwner)

export class ProjectsApi extends HttpApiGroup.make("projects")
  .add(
    pagedList(PageQueryFields, Project, Requires.anyRole, "List the tenant's projects by name"),
    HttpApiEndpoint.post("create", "/", {
      payload: CreateProject,
      success: Created(Project, "Project created"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(OpenApi.annotations({ summary: "Create a project; the caller becomes its first OWNER" })),
    itemById(ProjectId, Project, Requires.anyRole),
    HttpApiEndpoint.patch("update", "/:id", {
      params: { id: ProjectId },
      payload: UpdateProject,
      success: Ok(Project),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(OpenApi.annotations({ summary: "Rename or describe a project (its OWNERs, or an ADMIN)" })),
    HttpApiEndpoint.delete("remove", "/:id", {
      params: { id: ProjectId },
      success: Ok(Project, "Deleted"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({ summary: "Delete a project with its folders and models (its OWNERs, or an ADMIN)" })
      ),
    projectRead("members", "/:id/members", Schema.Array(ProjectMember)),
    HttpApiEndpoint.post("addMember", "/:id/members", {
      params: { id: ProjectId },
      payload: AddProjectMember,
      success: Created(ProjectMember, "Member added"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Add a member as OWNER, EDITOR or VIEWER (again: changes the role); OWNERs only"
        })
      ),
    HttpApiEndpoint.delete("removeMember", "/:id/members/:userId", {
      params: { id: ProjectId, userId: Schema.String },
      success: Ok(ProjectMember, "Member removed"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(
      OpenApi.annotations({ summary: "Remove a member (OWNERs only; the last OWNER cannot go: 409)" })
    ),
    projectRead("folders", "/:id/folders", Schema.Array(Folder)),
    HttpApiEndpoint.post("createFolder", "/:id/folders", {
      params: { id: ProjectId },
      payload: CreateFolder,
      success: Created(Folder, "Folder created"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Create a folder, optionally inside another folder of the project (OWNERs and EDITORs)"
        })
      )
  )
  .pipe(authenticatedGroup("/api/v1/projects", "Projects"))
{}

export class ModelsApi extends HttpApiGroup.make("models")
  .add(
    pagedList(ModelQuery, Model, Requires.anyRole, "List models; filter projectId, folderId, kind"),
    HttpApiEndpoint.post("create", "/", {
      payload: CreateModel,
      success: Created(Model, "Model created"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Create a BPMN, DMN or FORM model in a project (OWNERs and EDITORs); revision 1"
        })
      ),
    itemById(ModelId, Model, Requires.anyRole),
    HttpApiEndpoint.delete("remove", "/:id", {
      params: { id: ModelId },
      success: Ok(Model, "Deleted"),
      error: ClientErrorsHttp
    })
      .annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(OpenApi.annotations({ summary: "Delete a model (not while someone else holds its lock)" })),
    HttpApiEndpoint.put("saveContent", "/:id/content", {
      params: { id: ModelId },
      payload: SaveModelContent,
      success: Ok(Model, "Saved"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(OpenApi.annotations({
        summary:
          "Save content as a new revision; 409 while another user holds the lock, or when baseRevision is not the latest"
      })),
    modelRead("revisions", "/:id/revisions", Schema.Array(ModelRevision), "Revision history, newest first"),
    modelChange(
      "restore",
      "/:id/restore",
      "Restored",
      "Restore an earlier revision's content as a new revision",
      RestoreModel
    ),
    modelRead("lock", "/:id/lock", LockState, "The editing lock (null when free or lapsed)"),
    lockChange(
      "acquireLock",
      "/:id/lock",
      "Locked",
      "Acquire the editing lock for 5 minutes (409 while another user holds it)"
    ),
    HttpApiEndpoint.delete("releaseLock", "/:id/lock", {
      params: { id: ModelId },
      success: Ok(LockState, "Released"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(OpenApi.annotations({ summary: "Release the lock (its holder, or an ADMIN)" })),
    lockChange(
      "renewLock",
      "/:id/lock/renew",
      "Renewed",
      "Keep the lock another 5 minutes (its holder; also just after it lapsed if nobody took it)"
    ),
    lockChange(
      "takeoverLock",
      "/:id/lock/takeover",
      "Taken over",
      "Take the lock over from another user (a project OWNER or an ADMIN; a lapsed or free lock: any editor)"
    )
  )
  .pipe(authenticatedGroup("/api/v1/models", "Models"))
{}

export class DraftsApi extends HttpApiGroup.make("drafts")
  .add(
    // Drafts are design-time work of modelers only (each sees their own).
    HttpApiEndpoint.get("list", "/", { query: Schema.Struct(DraftQuery), success: Ok(Schema.Array(Draft)) })
      .annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({ summary: "The caller's own drafts, most recently saved first; filter kind" })
      ),
    HttpApiEndpoint.post("create", "/", {
      payload: CreateDraft,
      success: Created(Draft, "Draft created"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner),
    itemById(DraftId, Draft, Requires.adminOrProcessOwner, "One of the caller's drafts (another user's is 404)"),
    HttpApiEndpoint.put("save", "/:id", {
      params: { id: DraftId },
      payload: SaveDraft,
      success: Ok(Draft, "Saved"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner),
    HttpApiEndpoint.delete("remove", "/:id", {
      params: { id: DraftId },
      success: Ok(Draft, "Deleted"),
      error: NotFoundHttp
    }).annotateMerge(Requires.adminOrProcessOwner),
    draftChange(
      "promote",
      "/:id/promote",
      "Promoted",
      "Deploy the draft: PROCESS as a deployment (BPMN XML or JSON graph; a new version of its process id), DECISION " +
        "as a decision (DMN XML import or JSON table), FORM as a form definition: the form's key is its id, else " +
        "derived from the draft's name (as POST /form-definitions derives it); the key's most recently changed DRAFT " +
        "definition gets the form as a new version, else (none, or none still DRAFT) a new DRAFT definition of that " +
        "key is created, leaving VALIDATED, PUBLISHED, DEPLOYED and RETIRED ones as they are. promotedTo names what " +
        "was created (kind, id, key, version). Invalid content answers as the target's own endpoint does: PROCESS " +
        "and DECISION 400 listing the problems, FORM 422 as POST /form-definitions (not a JSON object: field schema). " +
        "Promoting again needs a save first (409), also when two promotes of one draft race: one wins."
    )
  )
  .pipe(authenticatedGroup("/api/v1/drafts", "Drafts"))
{}

export class TemplatesApi extends HttpApiGroup.make("templates")
  .add(
    pagedList(PageQueryFields, Template, Requires.anyRole),
    HttpApiEndpoint.post("create", "/", {
      payload: SaveTemplate,
      success: Created(Template, "Template created"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Create a process template; its content is compiled like a deployment (400 listing problems)"
        })
      ),
    itemById(TemplateId, Template, Requires.anyRole),
    HttpApiEndpoint.put("update", "/:id", {
      params: { id: TemplateId },
      payload: SaveTemplate,
      success: Ok(Template),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner),
    HttpApiEndpoint.delete("remove", "/:id", {
      params: { id: TemplateId },
      success: Ok(Template, "Deleted"),
      error: NotFoundHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
  )
  .pipe(authenticatedGroup("/api/v1/templates", "Templates"))
{}
