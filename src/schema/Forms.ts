// Forms (SERVICE.md "Forms"): form-designer definitions (form-js JSON) with their lifecycle, and legacy simple forms.
import { Schema } from "effect"
import { Authored, Created, IsoDateTime, PageQueryFields, Variables } from "./Common.ts"
import { FormDefinitionId } from "./ResourceIds.ts"

export const FormState = Schema.Literals(["DRAFT", "VALIDATED", "PUBLISHED", "DEPLOYED", "RETIRED"]).annotate({
  identifier: "FormState"
})
const FormJson = Schema.Unknown.annotate({
  description: "a form-js form: { type: \"default\", components: [...], schemaVersion, ... }"
})
const Problem = Schema.Struct({ path: Schema.String, message: Schema.String })

export const FormDefinition = Schema.Struct({
  id: Schema.String,
  key: Schema.String.annotate({
    description: "user tasks link a form by this key (zeebe:formDefinition formKey / formId)"
  }),
  name: Schema.String,
  state: FormState,
  version: Schema.Int,
  schema: FormJson,
  restoredFrom: Schema.NullOr(Schema.Struct({ formId: Schema.String, version: Schema.Int })),
  ...Authored
}).annotate({ identifier: "FormDefinition" })
export type FormDefinition = typeof FormDefinition.Type

export const CreateFormDefinition = Schema.Struct({
  name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  key: Schema.optional(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))).annotate({
    description: "default: the form's id, else the name"
  }),
  schema: FormJson
}).annotate({ identifier: "CreateFormDefinition" })
export const UpdateFormDefinition = Schema.Struct({
  name: Schema.optional(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
  schema: Schema.optional(FormJson)
}).annotate({ identifier: "UpdateFormDefinition" })
export const FormDefinitionQuery = {
  ...PageQueryFields,
  state: Schema.optional(FormState),
  key: Schema.optional(Schema.String)
}

export const FormValidation = Schema.Struct({
  definition: FormDefinition,
  warnings: Schema.Array(Problem).annotate({ description: "schema findings tools get away with; they do not block" })
}).annotate({ identifier: "FormValidation" })

export const Playground = Schema.Struct({ data: Schema.optional(Variables) }).annotate({ identifier: "FormPlayground" })
export const PlaygroundResult = Schema.Struct({
  valid: Schema.Boolean,
  errors: Schema.Array(Schema.Struct({ key: Schema.String, message: Schema.String })),
  visibleComponents: Schema.Array(Schema.String),
  values: Variables
}).annotate({ identifier: "FormPlaygroundResult" })

export const FormVersion = Schema.Struct({
  version: Schema.Int,
  name: Schema.String,
  schema: FormJson,
  author: Schema.String,
  createdAt: IsoDateTime
}).annotate({ identifier: "FormVersion" })
export const DiffQuery = {
  from: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))).annotate({
    description: "default: the version before to"
  }),
  to: Schema.optional(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))).annotate({
    description: "default: the latest version"
  })
}
export const FormDiff = Schema.Struct({
  from: Schema.Int,
  to: Schema.Int,
  added: Schema.Array(Schema.String),
  removed: Schema.Array(Schema.String),
  changed: Schema.Array(Schema.Struct({ key: Schema.String, properties: Schema.Array(Schema.String) }))
}).annotate({ identifier: "FormDiff" })
export const FormLineage = Schema.Struct({
  formId: Schema.String,
  restoredFrom: Schema.Array(Schema.Struct({ formId: Schema.String, version: Schema.Int })).annotate({
    description: "the chain back to the original"
  }),
  restoredInto: Schema.Array(Schema.Struct({ formId: Schema.String, version: Schema.Int })).annotate({
    description: "forms restored from this one (their source version)"
  })
}).annotate({ identifier: "FormLineage" })
export const FormAuditEntry = Schema.Struct({
  seq: Schema.Int,
  action: Schema.String,
  fromState: Schema.NullOr(FormState),
  toState: Schema.NullOr(FormState),
  actor: Schema.String,
  detail: Schema.NullOr(Schema.String),
  occurredAt: IsoDateTime
}).annotate({ identifier: "FormAuditEntry" })
/**
 * A locale tag in a path: at most 100 characters, far above the 35 RFC 5646 §4.4.1 asks implementations to support,
 * and the longest a path parameter could ever carry here (the router's former limit), so no saved locale is cut off.
 */
const LocaleTag = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100)).annotate({
  description: "a locale tag like de or de-CH (at most 100 characters)"
})
export const LocaleParams = { id: FormDefinitionId, locale: LocaleTag }
export const SaveLocale = Schema.Struct({
  labels: Schema.Record(Schema.String, Schema.String).annotate({
    description: "component key (or id) -> translated label"
  })
}).annotate({ identifier: "SaveLocale" })
export const FormLocale = Schema.Struct({
  locale: Schema.String,
  labels: Schema.Record(Schema.String, Schema.String),
  updatedAt: IsoDateTime
}).annotate({ identifier: "FormLocale" })
export const ResolvedLabels = Schema.Struct({
  locale: Schema.String,
  labels: Schema.Record(Schema.String, Schema.String),
  sources: Schema.Record(Schema.String, Schema.Literals(["locale", "language", "default"]))
}).annotate({ identifier: "ResolvedLabels" })

export const LegacyForm = Schema.Struct({
  id: Schema.String,
  key: Schema.String,
  version: Schema.Int,
  schema: Schema.Unknown,
  ...Created
}).annotate({ identifier: "LegacyForm" })
export type LegacyForm = typeof LegacyForm.Type
const LegacyField = Schema.Struct({
  id: Schema.String.check(Schema.isMinLength(1)),
  label: Schema.optional(Schema.String),
  type: Schema.Literals(["string", "number", "boolean", "date", "enum"]),
  required: Schema.optional(Schema.Boolean),
  values: Schema.optional(Schema.Array(Schema.String)).annotate({ description: "enum: the choices" })
})
export const LegacySchema = Schema.Struct({
  fields: Schema.Array(LegacyField),
  versionTag: Schema.optional(Schema.String).annotate({
    description: "a tag for this version: a user task binds to it with zeebe:formDefinition bindingType=\"versionTag\""
  })
}).annotate({
  identifier: "LegacyFormSchema",
  description: "the simple form format: a list of fields (string, number, boolean, date, enum)"
})
export const DeployLegacyForm = Schema.Struct({
  key: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  schema: LegacySchema
}).annotate({ identifier: "DeployLegacyForm" })
export const EditLegacyForm = Schema.Struct({ schema: LegacySchema }).annotate({ identifier: "EditLegacyForm" })
export const LegacyFormQuery = { ...PageQueryFields, key: Schema.optional(Schema.String) }

export const TaskForm = Schema.Struct({
  taskId: Schema.String,
  formKey: Schema.String,
  source: Schema.Literals(["FORM_DEFINITION", "LEGACY_FORM"]),
  sourceId: Schema.String,
  schema: Schema.Unknown
}).annotate({ identifier: "TaskForm" })
