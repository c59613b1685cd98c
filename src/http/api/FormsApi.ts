import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ClientErrorsHttp, NotFoundHttp } from "../../schema/ApiErrors.ts"
import { Created, Ok } from "../../schema/Envelope.ts"
import {
  CreateFormDefinition,
  DeployLegacyForm,
  DiffQuery,
  EditLegacyForm,
  FormAuditEntry,
  FormDefinition,
  FormDefinitionQuery,
  FormDiff,
  FormLineage,
  FormLocale,
  FormValidation,
  FormVersion,
  LegacyForm,
  LegacyFormQuery,
  LocaleParams,
  Playground,
  PlaygroundResult,
  ResolvedLabels,
  SaveLocale,
  UpdateFormDefinition
} from "../../schema/Forms.ts"
import { FormDefinitionId, LegacyFormId } from "../../schema/ResourceIds.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"
import { itemById } from "./ItemById.ts"
import { pagedList } from "./PagedList.ts"

const transition = <const Name extends string, const Path extends `/${string}`>(
  name: Name,
  path: Path,
  summary: string
) =>
  HttpApiEndpoint.post(name, path, {
    params: { id: FormDefinitionId },
    success: Ok(FormValidation),
    error: ClientErrorsHttp
  })
    .annotateMerge(
      OpenApi.annotations({ summary })
    )
    // A lifecycle step is a design-time write.
    .annotateMerge(Requires.adminOrProcessOwner)

/** A read of one form definition: any authenticated caller; a missing one is 404. */
const definitionRead = <const Name extends string, const Path extends `/${string}`, Data extends Schema.Top>(
  name: Name,
  path: Path,
  data: Data,
  summary?: string
) => {
  const endpoint = HttpApiEndpoint.get(name, path, {
    params: { id: FormDefinitionId },
    success: Ok(data),
    error: NotFoundHttp
  }).annotateMerge(Requires.anyRole)
  return summary === undefined ? endpoint : endpoint.annotateMerge(OpenApi.annotations({ summary }))
}

export class FormDefinitionsApi extends HttpApiGroup.make("formDefinitions")
  .add(
    pagedList(
      FormDefinitionQuery,
      FormDefinition,
      Requires.anyRole,
      "List form-designer forms, most recently changed first; filter state, key"
    ),
    HttpApiEndpoint.post("create", "/", {
      payload: CreateFormDefinition,
      success: Created(FormDefinition, "Draft created"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(OpenApi.annotations({ summary: "Create a DRAFT from a form-js form (version 1)" })),
    definitionRead("get", "/:id", FormDefinition),
    HttpApiEndpoint.put("update", "/:id", {
      params: { id: FormDefinitionId },
      payload: UpdateFormDefinition,
      success: Ok(FormDefinition),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(OpenApi.annotations({ summary: "Edit a DRAFT (a new version; 409 in any other state)" })),
    HttpApiEndpoint.delete("remove", "/:id", {
      params: { id: FormDefinitionId },
      success: Ok(FormDefinition, "Deleted"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(OpenApi.annotations({ summary: "Delete a DRAFT (409 in any other state)" })),
    transition(
      "validate",
      "/:id/validate",
      "DRAFT -> VALIDATED when the form has no errors (unknown component types, input fields without key, duplicate keys, invalid FEEL or patterns: 422 listing each by JSON path); warnings do not block"
    ),
    transition(
      "returnToDraft",
      "/:id/return-to-draft",
      "VALIDATED, PUBLISHED or RETIRED -> DRAFT (a DEPLOYED form is retired first)"
    ),
    transition("publish", "/:id/publish", "VALIDATED -> PUBLISHED"),
    transition(
      "deploy",
      "/:id/deploy",
      "PUBLISHED -> DEPLOYED: user tasks whose formKey is the definition's key show it; an earlier deployed definition of that key is RETIRED"
    ),
    transition("retire", "/:id/retire", "DEPLOYED -> RETIRED"),
    // The playground changes nothing: any authenticated caller may.
    HttpApiEndpoint.post("playground", "/:id/playground", {
      params: { id: FormDefinitionId },
      payload: Playground,
      success: Ok(PlaygroundResult),
      error: NotFoundHttp
    }).annotateMerge(Requires.anyRole)
      .annotateMerge(
        OpenApi.annotations({
          summary:
            "Run the form against mock data: FEEL conditional.hide, and required / length / pattern / email / min / max validation of the visible fields"
        })
      ),
    definitionRead("versions", "/:id/versions", Schema.Array(FormVersion), "Every saved version, newest first"),
    HttpApiEndpoint.get("diff", "/:id/versions/diff", {
      params: { id: FormDefinitionId },
      query: Schema.Struct(DiffQuery),
      success: Ok(FormDiff),
      error: NotFoundHttp
    }).annotateMerge(Requires.anyRole)
      .annotateMerge(
        OpenApi.annotations({
          summary:
            "Components added, removed and changed (with the changed properties) between versions from and to, matched by key or id"
        })
      ),
    HttpApiEndpoint.post("restore", "/:id/versions/:version/restore", {
      params: { id: FormDefinitionId, version: Schema.NumberFromString.check(Schema.isInt()) },
      success: Created(FormDefinition, "Restored"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner).annotateMerge(
      OpenApi.annotations({
        summary: "Restore a version as a NEW draft definition (same key), recorded in both forms' lineage and audit"
      })
    ),
    definitionRead(
      "lineage",
      "/:id/lineage",
      FormLineage,
      "The forms (and versions) this one was restored from, back to the original, and the forms restored from it"
    ),
    definitionRead(
      "audit",
      "/:id/audit",
      Schema.Array(FormAuditEntry),
      "Governance trail: every creation, edit, transition, restore and locale change, with who and when"
    ),
    definitionRead("locales", "/:id/locales", Schema.Array(FormLocale)),
    HttpApiEndpoint.put("saveLocale", "/:id/locales/:locale", {
      params: LocaleParams,
      payload: SaveLocale,
      success: Ok(FormLocale),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Save a locale's translated labels (component key or id -> label), replacing earlier ones"
        })
      ),
    HttpApiEndpoint.delete("removeLocale", "/:id/locales/:locale", {
      params: LocaleParams,
      success: Ok(FormLocale, "Removed"),
      error: NotFoundHttp
    }).annotateMerge(Requires.adminOrProcessOwner),
    HttpApiEndpoint.get("resolved", "/:id/locales/:locale/resolved", {
      params: LocaleParams,
      success: Ok(ResolvedLabels),
      error: NotFoundHttp
    }).annotateMerge(Requires.anyRole)
      .annotateMerge(
        OpenApi.annotations({
          summary:
            "Each label for a locale: its translation, else its language's (de-CH -> de), else the form's own; sources says which"
        })
      )
  )
  .pipe(authenticatedGroup("/api/v1/form-definitions", "Form definitions"))
{}

export class LegacyFormsApi extends HttpApiGroup.make("legacyForms")
  .add(
    pagedList(LegacyFormQuery, LegacyForm, Requires.anyRole),
    HttpApiEndpoint.post("deploy", "/", {
      payload: DeployLegacyForm,
      success: Created(LegacyForm, "Deployed"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({ summary: "Deploy a simple form schema under a key (the next version of that key)" })
      ),
    itemById(LegacyFormId, LegacyForm, Requires.anyRole),
    HttpApiEndpoint.put("edit", "/:id", {
      params: { id: LegacyFormId },
      payload: EditLegacyForm,
      success: Ok(LegacyForm, "New version"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({
          summary: "Publish an edit as the next version of the form's key (the answer is the new version)"
        })
      ),
    HttpApiEndpoint.delete("remove", "/:id", {
      params: { id: LegacyFormId },
      success: Ok(LegacyForm, "Removed"),
      error: NotFoundHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(OpenApi.annotations({ summary: "Remove this version" })),
    HttpApiEndpoint.post("migrate", "/:id/migrate-to-v1", {
      params: { id: LegacyFormId },
      success: Created(FormDefinition, "Migrated"),
      error: ClientErrorsHttp
    }).annotateMerge(Requires.adminOrProcessOwner)
      .annotateMerge(
        OpenApi.annotations({
          summary:
            "Import as a new form-designer DRAFT (string -> textfield, number -> number, boolean -> checkbox, date -> datetime, enum -> select), lineage recorded"
        })
      )
  )
  .pipe(authenticatedGroup("/api/v1/forms", "Forms (legacy)"))
{}
