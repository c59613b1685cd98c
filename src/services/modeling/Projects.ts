// Projects: a named space of models with members (OWNER, EDITOR, VIEWER) and nested folders. The creator is its first
// OWNER; members manage nothing outside it. Writing to a project's models needs OWNER or EDITOR (or the tenant's ADMIN).
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CurrentTenant } from "../../auth/CurrentTenant.ts"
import { CurrentPrincipal } from "../../auth/Principal.ts"
import { pagedQuery } from "../../persistence/PagedQuery.ts"
import {
  type BusinessError,
  businessError,
  type Conflict,
  conflict,
  NotFound,
  notFound
} from "../../schema/ApiErrors.ts"
import type { PageOf, PageRequest } from "../../schema/Common.ts"
import type { CreateProject, Folder, Project } from "../../schema/Modeling.ts"
import { ProjectId } from "../../schema/ResourceIds.ts"
import { Tenants } from "../identity/Tenants.ts"
import { isUuid, newId } from "../Ids.ts"
import { isoFromDb, nowMillis } from "../Time.ts"

export type ProjectRole = "OWNER" | "EDITOR" | "VIEWER"

interface ProjectRow {
  readonly id: string
  readonly name: string
  readonly description: string | null
  readonly created_by: string
  readonly created_at: unknown
  readonly updated_at: unknown
}
const toProject = (row: ProjectRow): Project => ({
  id: row.id,
  name: row.name,
  description: row.description,
  createdBy: row.created_by,
  createdAt: isoFromDb(row.created_at),
  updatedAt: isoFromDb(row.updated_at)
})

interface FolderRow {
  readonly id: string
  readonly project_id: string
  readonly parent_folder_id: string | null
  readonly name: string
  readonly created_at: unknown
}
const toFolder = (row: FolderRow): typeof Folder.Type => ({
  id: row.id,
  projectId: row.project_id,
  parentFolderId: row.parent_folder_id,
  name: row.name,
  createdAt: isoFromDb(row.created_at)
})

/** The projects of the request's tenant (CurrentTenant); changes need the caller's (CurrentPrincipal) project role. */
export interface ProjectsShape {
  readonly list: (page: PageRequest) => Effect.Effect<PageOf<Project>, never, CurrentTenant>
  readonly create: (input: typeof CreateProject.Type) => Effect.Effect<Project, never, CurrentTenant | CurrentPrincipal>
  readonly get: (id: ProjectId) => Effect.Effect<Project, NotFound, CurrentTenant>
  readonly update: (
    id: ProjectId,
    input: { readonly name?: string | undefined; readonly description?: string | null | undefined }
  ) => Effect.Effect<Project, NotFound | BusinessError, CurrentTenant | CurrentPrincipal>
  readonly remove: (id: ProjectId) => Effect.Effect<Project, NotFound | BusinessError, CurrentTenant | CurrentPrincipal>
  readonly members: (
    id: ProjectId
  ) => Effect.Effect<ReadonlyArray<{ userId: string; role: ProjectRole; addedAt: string }>, NotFound, CurrentTenant>
  readonly addMember: (
    id: ProjectId,
    userId: string,
    role: ProjectRole
  ) => Effect.Effect<
    { userId: string; role: ProjectRole; addedAt: string },
    NotFound | BusinessError,
    CurrentTenant | CurrentPrincipal
  >
  readonly removeMember: (
    id: ProjectId,
    userId: string
  ) => Effect.Effect<
    { userId: string; role: ProjectRole; addedAt: string },
    NotFound | BusinessError | Conflict,
    CurrentTenant | CurrentPrincipal
  >
  readonly folders: (id: ProjectId) => Effect.Effect<ReadonlyArray<typeof Folder.Type>, NotFound, CurrentTenant>
  readonly createFolder: (
    id: ProjectId,
    input: { readonly name: string; readonly parentFolderId?: string | undefined }
  ) => Effect.Effect<typeof Folder.Type, NotFound | BusinessError, CurrentTenant | CurrentPrincipal>
  /** Fails unless the caller has one of the roles in the project (the tenant's ADMIN always may). */
  readonly requireRole: (
    projectId: ProjectId,
    roles: ReadonlyArray<ProjectRole>
  ) => Effect.Effect<void, NotFound | BusinessError, CurrentTenant | CurrentPrincipal>
  readonly folderOf: (projectId: string, folderId: string) => Effect.Effect<void, NotFound, CurrentTenant>
}

export class Projects extends Context.Service<Projects, ProjectsShape>()("flowcore/Projects") {
  static readonly layer = Layer.effect(
    Projects,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const tenants = yield* Tenants

      const row = Effect.fnUntraced(function*(tenantId: string, id: ProjectId) {
        const [found] = yield* sql<ProjectRow>`SELECT * FROM projects WHERE tenant_id = ${tenantId} AND id = ${id}`
          .pipe(Effect.orDie)
        if (found === undefined) return yield* notFound("project", id)
        return found
      })

      const roleOf = (projectId: string, userId: string) =>
        Effect.map(
          sql<
            { role: ProjectRole }
          >`SELECT role FROM project_members WHERE project_id = ${projectId} AND user_id = ${userId}`.pipe(
            Effect.orDie
          ),
          (rows) => rows[0]?.role
        )

      const requireRole: ProjectsShape["requireRole"] = Effect.fnUntraced(function*(projectId, roles) {
        const principal = yield* CurrentPrincipal
        const tenantId = yield* CurrentTenant
        yield* row(tenantId, projectId)
        if (principal.roles.includes("ADMIN")) return
        const role = yield* roleOf(projectId, principal.sub)
        if (role === undefined || !roles.includes(role)) {
          return yield* businessError(
            `project ${projectId} needs the project role ${roles.join(" or ")} for this (you are ${
              role ?? "not a member"
            })`,
            [
              { field: "projectId", message: `needs ${roles.join(" or ")}`, code: "PROJECT_ROLE" }
            ]
          )
        }
      })

      const memberRow = (m: { user_id: string; role: ProjectRole; added_at: unknown }) => ({
        userId: m.user_id,
        role: m.role,
        addedAt: isoFromDb(m.added_at)
      })

      const folderOf: ProjectsShape["folderOf"] = Effect.fnUntraced(function*(projectId, folderId) {
        const tenantId = yield* CurrentTenant
        if (!isUuid(folderId)) return yield* notFound("folder", folderId)
        const [found] =
          yield* sql`SELECT id FROM project_folders WHERE tenant_id = ${tenantId} AND project_id = ${projectId} AND id = ${folderId}`
            .pipe(Effect.orDie)
        if (found === undefined) return yield* notFound("folder", folderId)
      })

      return {
        requireRole,
        folderOf,
        list: Effect.fnUntraced(function*(page) {
          const tenantId = yield* CurrentTenant
          return yield* pagedQuery(sql, {
            select: sql`SELECT * FROM projects`,
            countFrom: sql`projects`,
            where: sql`tenant_id = ${tenantId}`,
            orderBy: sql`lower(name), id`,
            page,
            toItem: toProject
          })
        }, Effect.orDie),
        create: Effect.fnUntraced(function*(input) {
          const principal = yield* CurrentPrincipal
          const tenantId = yield* CurrentTenant
          const id = ProjectId.make(yield* newId)
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO projects (tenant_id, id, name, description, created_by, created_at, updated_at)
                VALUES (${tenantId}, ${id}, ${input.name}, ${
              input.description ?? null
            }, ${principal.sub}, ${now}, ${now})`
            yield* sql`INSERT INTO project_members (project_id, user_id, role, added_at) VALUES (${id}, ${principal.sub}, 'OWNER', ${now})`
          })).pipe(Effect.orDie)
          return toProject(yield* Effect.orDie(row(tenantId, id)))
        }),
        get: (id) => Effect.flatMap(CurrentTenant, (tenantId) => Effect.map(row(tenantId, id), toProject)),
        update: Effect.fnUntraced(function*(id, input) {
          const tenantId = yield* CurrentTenant
          yield* requireRole(id, ["OWNER"])
          const current = yield* row(tenantId, id)
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql`UPDATE projects SET name = ${input.name ?? current.name},
                description = ${
            input.description === undefined ? current.description : input.description
          }, updated_at = ${now}
              WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
          return toProject(yield* row(tenantId, id))
        }),
        remove: Effect.fnUntraced(function*(id) {
          const tenantId = yield* CurrentTenant
          yield* requireRole(id, ["OWNER"])
          const current = yield* row(tenantId, id)
          yield* sql`DELETE FROM projects WHERE tenant_id = ${tenantId} AND id = ${id}`.pipe(Effect.orDie)
          return toProject(current)
        }),
        members: Effect.fnUntraced(function*(id) {
          const tenantId = yield* CurrentTenant
          yield* row(tenantId, id)
          const rows = yield* sql<
            { user_id: string; role: ProjectRole; added_at: unknown }
          >`SELECT user_id, role, added_at FROM project_members
              WHERE project_id = ${id} ORDER BY added_at, user_id`.pipe(Effect.orDie)
          return rows.map(memberRow)
        }),
        addMember: Effect.fnUntraced(function*(id, userId, role) {
          const tenantId = yield* CurrentTenant
          yield* requireRole(id, ["OWNER"])
          // A member is someone of this tenant: a local user, or a subject (say, of the identity provider) that has
          // called the API here. Anyone else — a typo, another tenant's user — is not found.
          if (!(yield* tenants.knowsSubject(tenantId, userId))) {
            return yield* new NotFound({
              message: `user ${userId} not found in this tenant`,
              errors: [{
                field: "userId",
                message: `no user or known subject ${userId} in this tenant`,
                code: "NOT_FOUND"
              }]
            })
          }
          const now = new Date(yield* nowMillis).toISOString()
          // Adding someone who is already a member changes their role.
          yield* sql`INSERT INTO project_members (project_id, user_id, role, added_at) VALUES (${id}, ${userId}, ${role}, ${now})
              ON CONFLICT (project_id, user_id) DO UPDATE SET role = ${role}`.pipe(Effect.orDie)
          const [member] = yield* sql<
            { user_id: string; role: ProjectRole; added_at: unknown }
          >`SELECT user_id, role, added_at FROM project_members
              WHERE project_id = ${id} AND user_id = ${userId}`.pipe(Effect.orDie)
          return memberRow(member!)
        }),
        removeMember: Effect.fnUntraced(function*(id, userId) {
          yield* requireRole(id, ["OWNER"])
          const rows = yield* sql<
            { user_id: string; role: ProjectRole; added_at: unknown }
          >`SELECT user_id, role, added_at FROM project_members
              WHERE project_id = ${id}`.pipe(Effect.orDie)
          const member = rows.find((m) => m.user_id === userId)
          if (member === undefined) return yield* notFound("project member", userId)
          if (member.role === "OWNER" && rows.filter((m) => m.role === "OWNER").length === 1) {
            return yield* conflict(`${userId} is the last OWNER of project ${id}: make someone else OWNER first`)
          }
          yield* sql`DELETE FROM project_members WHERE project_id = ${id} AND user_id = ${userId}`.pipe(Effect.orDie)
          return memberRow(member)
        }),
        folders: Effect.fnUntraced(function*(id) {
          const tenantId = yield* CurrentTenant
          yield* row(tenantId, id)
          const rows = yield* sql<FolderRow>`SELECT id, project_id, parent_folder_id, name, created_at
              FROM project_folders WHERE tenant_id = ${tenantId} AND project_id = ${id}
              ORDER BY lower(name), id`.pipe(Effect.orDie)
          return rows.map(toFolder)
        }),
        createFolder: Effect.fnUntraced(function*(id, input) {
          const tenantId = yield* CurrentTenant
          yield* requireRole(id, ["OWNER", "EDITOR"])
          if (input.parentFolderId !== undefined) yield* folderOf(id, input.parentFolderId)
          const folderId = yield* newId
          const now = new Date(yield* nowMillis).toISOString()
          yield* sql`INSERT INTO project_folders (tenant_id, id, project_id, parent_folder_id, name, created_at)
              VALUES (${tenantId}, ${folderId}, ${id}, ${input.parentFolderId ?? null}, ${input.name}, ${now})`.pipe(
            Effect.orDie
          )
          return {
            id: folderId,
            projectId: id,
            parentFolderId: input.parentFolderId ?? null,
            name: input.name,
            createdAt: now
          }
        })
      }
    })
  )
}
