// Modeling and collaboration (SERVICE.md): projects, members, folders, models with revisions and editing locks,
// drafts, process templates.
import { Schema } from "effect"
import { Authored, IsoDateTime, PageQueryFields, Timestamps } from "./Common.ts"

const Name = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))

export const ProjectRole = Schema.Literals(["OWNER", "EDITOR", "VIEWER"]).annotate({
  identifier: "ProjectRole",
  description: "OWNER manages members and the project; EDITOR changes models; VIEWER reads"
})

export const Project = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  ...Authored
}).annotate({ identifier: "Project" })
export type Project = typeof Project.Type

export const CreateProject = Schema.Struct({ name: Name, description: Schema.optional(Schema.String) }).annotate({
  identifier: "CreateProject"
})
export const UpdateProject = Schema.Struct({
  name: Schema.optional(Name),
  description: Schema.optional(Schema.NullOr(Schema.String))
}).annotate({ identifier: "UpdateProject" })

export const ProjectMember = Schema.Struct({ userId: Schema.String, role: ProjectRole, addedAt: IsoDateTime }).annotate(
  { identifier: "ProjectMember" }
)
export const AddProjectMember = Schema.Struct({ userId: Name, role: ProjectRole }).annotate({
  identifier: "AddProjectMember"
})

export const Folder = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  parentFolderId: Schema.NullOr(Schema.String),
  name: Schema.String,
  createdAt: IsoDateTime
}).annotate({ identifier: "Folder" })
export const CreateFolder = Schema.Struct({ name: Name, parentFolderId: Schema.optional(Schema.String) }).annotate({
  identifier: "CreateFolder"
})

export const ModelKind = Schema.Literals(["BPMN", "DMN", "FORM"]).annotate({ identifier: "ModelKind" })

export const ModelLock = Schema.Struct({
  holder: Schema.String,
  expiresAt: IsoDateTime
}).annotate({ identifier: "ModelLock", description: "the editing lock; it lapses at expiresAt unless renewed" })

export const Model = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  folderId: Schema.NullOr(Schema.String),
  name: Schema.String,
  kind: ModelKind,
  revision: Schema.Int,
  content: Schema.String,
  lock: Schema.NullOr(ModelLock),
  ...Authored
}).annotate({ identifier: "Model" })
export type Model = typeof Model.Type

export const CreateModel = Schema.Struct({
  projectId: Schema.String.check(Schema.isMinLength(1)),
  folderId: Schema.optional(Schema.String),
  name: Name,
  kind: ModelKind,
  content: Schema.optional(Schema.String).annotate({
    description: "BPMN or DMN XML, or form JSON as text (default empty)"
  })
}).annotate({ identifier: "CreateModel" })

export const ModelQuery = {
  ...PageQueryFields,
  projectId: Schema.optional(Schema.String),
  folderId: Schema.optional(Schema.String),
  kind: Schema.optional(ModelKind)
}

export const SaveModelContent = Schema.Struct({
  content: Schema.String,
  baseRevision: Schema.optional(Schema.Int).annotate({
    description: "the revision the edit started from: a newer one answers 409"
  }),
  note: Schema.optional(Schema.String)
}).annotate({ identifier: "SaveModelContent" })

export const RestoreModel = Schema.Struct({ revision: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)) }).annotate({
  identifier: "RestoreModel"
})

export const ModelRevision = Schema.Struct({
  revision: Schema.Int,
  author: Schema.String,
  note: Schema.NullOr(Schema.String),
  content: Schema.String,
  createdAt: IsoDateTime
}).annotate({ identifier: "ModelRevision" })

export const LockState = Schema.Struct({ modelId: Schema.String, lock: Schema.NullOr(ModelLock) }).annotate({
  identifier: "LockState"
})

export const DraftKind = Schema.Literals(["PROCESS", "DECISION", "FORM"]).annotate({ identifier: "DraftKind" })

export const DraftPromotion = Schema.Struct({
  kind: Schema.Literals(["deployment", "decision", "decisionModel", "formDefinition"]).annotate({
    description:
      "PROCESS: deployment (GET /deployments/{id}); DECISION: decision (JSON table, GET /decisions/{id}) or " +
      "decisionModel (DMN XML, GET /decision-models/{id}); FORM: formDefinition (GET /form-definitions/{id})"
  }),
  id: Schema.String.annotate({ description: "the id of what was created or given a new version" }),
  key: Schema.String.annotate({
    description: "deployment: the process id; decision model: its first decision's key; form definition: its key " +
      "(the form's id, else derived from the draft's name)"
  }),
  version: Schema.Int.annotate({
    description: "deployment and decision: the version of the key; form definition: the definition's version"
  })
}).annotate({ identifier: "DraftPromotion", description: "what the draft's last promotion created" })

export const Draft = Schema.Struct({
  id: Schema.String,
  kind: DraftKind,
  name: Schema.String,
  owner: Schema.String,
  content: Schema.Unknown,
  promotedTo: Schema.NullOr(DraftPromotion).annotate({
    description: "what the last promotion created; null until promoted, and again after a save"
  }),
  ...Timestamps
}).annotate({ identifier: "Draft" })
export type Draft = typeof Draft.Type

export const DraftContent = Schema.Unknown.annotate({
  description:
    "PROCESS: BPMN XML (string) or a JSON graph; DECISION: DMN XML (string) or a JSON decision table; FORM: form JSON"
})
export const CreateDraft = Schema.Struct({ kind: DraftKind, name: Name, content: DraftContent }).annotate({
  identifier: "CreateDraft"
})
export const SaveDraft = Schema.Struct({ name: Schema.optional(Name), content: Schema.optional(DraftContent) })
  .annotate({ identifier: "SaveDraft" })
export const DraftQuery = { kind: Schema.optional(DraftKind) }

export const Template = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  processKey: Schema.String,
  content: Schema.Unknown,
  ...Authored
}).annotate({ identifier: "Template" })
export type Template = typeof Template.Type
export const SaveTemplate = Schema.Struct({
  name: Name,
  description: Schema.optional(Schema.String),
  content: Schema.Unknown.annotate({ description: "BPMN XML (string) or a JSON graph, compiled like a deployment" })
}).annotate({ identifier: "SaveTemplate" })
