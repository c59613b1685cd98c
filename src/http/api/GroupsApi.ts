import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ConflictHttp, NotFoundHttp } from "../../schema/ApiErrors.ts"
import { Page, PageQueryFields } from "../../schema/Common.ts"
import { Created, Ok } from "../../schema/Envelope.ts"
import { AddGroupMember, CreateGroup, Group, GroupMember } from "../../schema/Groups.ts"
import { GroupId, GroupMemberId } from "../../schema/ResourceIds.ts"
import { Requires } from "../Access.ts"
import { authenticatedGroup } from "./AuthenticatedGroup.ts"
import { pagedList } from "./PagedList.ts"

export class GroupsApi extends HttpApiGroup.make("groups")
  .add(
    pagedList(PageQueryFields, Group, Requires.admin, "List groups, by name"),
    HttpApiEndpoint.post("create", "/", {
      payload: CreateGroup,
      success: Created(Group, "Group created"),
      error: ConflictHttp
    }).annotateMerge(Requires.admin).annotateMerge(
      OpenApi.annotations({ summary: "Create a group (names are unique in the tenant)" })
    ),
    HttpApiEndpoint.get("listMembers", "/:id/members", {
      params: { id: GroupId },
      query: Schema.Struct(PageQueryFields),
      success: Ok(Page(GroupMember)),
      error: NotFoundHttp
    }).annotateMerge(Requires.admin).annotateMerge(OpenApi.annotations({ summary: "List a group's members" })),
    HttpApiEndpoint.post("addMember", "/:id/members", {
      params: { id: GroupId },
      payload: AddGroupMember,
      success: Created(GroupMember, "Member added"),
      error: [NotFoundHttp, ConflictHttp]
    }).annotateMerge(Requires.admin).annotateMerge(
      OpenApi.annotations({ summary: "Add a user of the tenant to a group" })
    ),
    HttpApiEndpoint.delete("removeMember", "/:id/members/:userId", {
      params: { id: GroupId, userId: GroupMemberId },
      success: Ok(GroupMember, "Member removed"),
      error: NotFoundHttp
    }).annotateMerge(Requires.admin).annotateMerge(
      OpenApi.annotations({ summary: "Remove a member from a group; the removed membership is returned" })
    )
  )
  .pipe(authenticatedGroup("/api/v1/auth/groups", "Groups"))
{}
