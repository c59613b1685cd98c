// Tasklist: open tasks (mine, of my groups, unassigned, all) on the left; the selected task on the right with claim /
// unclaim / delegate, its form, whose entries complete the task as its variables, and its comments. Only the assignee
// works on a task: the form is read-only until the person claims it.
import { api, ApiError, type Group, type GroupMember, inBatches, type TaskForm, type UserTask } from "../api.ts"
import { act, badge, type Child, field, formDialog, h, link, loading, replace, shortId, toast, when } from "../dom.ts"
import { isAdmin, type Session } from "../session.ts"
import { taskComments } from "../taskComments.ts"
import { renderTaskForm } from "../taskForm.ts"
import { go, type View, type ViewContext } from "../view.ts"

type Filter = "mine" | "groups" | "unassigned" | "all"
const FILTERS: ReadonlyArray<readonly [Filter, string]> = [
  ["mine", "Assigned to me"],
  ["groups", "My groups"],
  ["unassigned", "Unassigned"],
  ["all", "All open"]
]

/** The caller's groups and where they come from. */
interface MyGroups {
  readonly names: ReadonlyArray<string>
  readonly from: "token" | "membership" | "chosen"
}
const chosenKey = (session: Session) => `flowcore.myGroups.${session.tenantId}.${session.username}`

/**
 * The groups the caller is in: those the person chose here (kept in this browser), else the token's `groups` claim
 * when its issuer sends one, else, for an admin, the groups whose members include them (GET /auth/groups is ADMIN
 * only; a task user cannot read their groups).
 */
const myGroups = async (session: Session): Promise<MyGroups> => {
  const chosen = localStorage.getItem(chosenKey(session))
  if (chosen !== null) return { names: JSON.parse(chosen) as Array<string>, from: "chosen" }
  if (session.groups !== undefined) return { names: session.groups, from: "token" }
  if (isAdmin(session)) {
    const groups = (await api.page<Group>("/auth/groups", { size: 500 })).items
    const member = await inBatches(
      groups,
      8,
      async (group) =>
        (await api.page<GroupMember>(`/auth/groups/${group.id}/members`, { size: 500 })).items
          .some((entry) => entry.username === session.username)
    )
    return { names: groups.filter((_, index) => member[index]).map((group) => group.name), from: "membership" }
  }
  return { names: [], from: "chosen" }
}

/** Open tasks whose candidate groups include one of `groups` (one call per group: the API filters by one). */
const groupTasks = async (groups: ReadonlyArray<string>) => {
  const pages = await inBatches(
    groups,
    4,
    (candidateGroup) => api.page<UserTask>("/tasks", { state: "CREATED", sort: "priority", size: 200, candidateGroup })
  )
  const byId = new Map(pages.flatMap((page) => page.items).map((task) => [task.id, task]))
  return [...byId.values()].sort((a, b) => b.priority - a.priority || a.createdAt.localeCompare(b.createdAt))
}

const groupsBar = (session: Session, groups: MyGroups) => {
  const edit = h("button", { class: "btn btn-small", "data-testid": "edit-my-groups" }, "Choose…")
  edit.addEventListener("click", () =>
    act(edit, async () => {
      const names = h("input", { type: "text", value: groups.names.join(", "), "aria-label": "Group names" })
      const done = await formDialog({
        title: "Your groups",
        body: [
          h(
            "p",
            null,
            "Tasks offered to these candidate groups are listed under My groups. The service does not tell a task user ",
            "their groups, so the list is kept in this browser (empty it to go back to the default)."
          ),
          field("Group names, separated by commas", names)
        ],
        confirm: "Save",
        submit: async () => {
          const list = names.value.split(",").map((name) => name.trim()).filter((name) => name !== "")
          if (list.length === 0) localStorage.removeItem(chosenKey(session))
          else localStorage.setItem(chosenKey(session), JSON.stringify(list))
        }
      })
      if (done) location.hash = "#/tasks?view=groups&t=" + Date.now().toString(36)
    }))
  return h(
    "div",
    { class: "groups-bar", "data-testid": "my-groups" },
    h(
      "div",
      null,
      groups.names.length === 0
        ? h("span", { class: "muted" }, "No groups known")
        : groups.names.map((name) => h("span", { class: "badge badge-info badge-raw" }, name)),
      h(
        "div",
        { class: "muted small" },
        groups.from === "token"
          ? "from your sign-in token"
          : groups.from === "membership"
          ? "your group memberships"
          : "chosen in this browser"
      )
    ),
    edit
  )
}

const fact = (label: string, value: Child) => h("div", { class: "fact" }, h("dt", null, label), h("dd", null, value))

/** The open tasks of a filter: mine by assignee, unassigned by `assigned=false`, all open ones. */
const openTasks = async (
  filter: Filter,
  username: string,
  groups: MyGroups | undefined
): Promise<ReadonlyArray<UserTask>> => {
  if (filter === "groups") return groupTasks(groups?.names ?? [])
  const query = { state: "CREATED", sort: "priority", size: 200 }
  const page = await api.page<UserTask>(
    "/tasks",
    filter === "mine"
      ? { ...query, assignee: username }
      : filter === "unassigned"
      ? { ...query, assigned: "false" }
      : query
  )
  return page.items
}

const taskDetail = async (
  context: ViewContext,
  task: UserTask,
  host: HTMLElement,
  hrefFor: (id: string | undefined, view: Filter) => string
): Promise<void> => {
  const { session, current, onLeave } = context
  const mine = task.assignee === session.username
  let form: TaskForm | undefined
  try {
    form = await api.get<TaskForm>(`/tasks/${task.id}/form`)
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error
  }
  const rendered = form === undefined
    ? undefined
    : await renderTaskForm(form, task.variables, { readOnly: !mine || task.state !== "CREATED" })
  if (rendered !== undefined) onLeave(rendered.destroy)
  const comments = await taskComments(task.id)
  if (!current()) return

  const claim = h("button", { class: "btn btn-primary" }, "Claim")
  claim.addEventListener("click", () =>
    act(claim, async () => {
      await api.post(`/tasks/${task.id}/claim`)
      toast("Task claimed: it is yours now", "success")
      location.hash = hrefFor(task.id, "mine")
    }))
  const unclaim = h("button", { class: "btn" }, "Unclaim")
  unclaim.addEventListener("click", () =>
    act(unclaim, async () => {
      await api.post(`/tasks/${task.id}/unclaim`)
      toast("Task released")
      location.hash = hrefFor(task.id, "unassigned")
    }))
  const delegate = h("button", { class: "btn" }, "Delegate…")
  delegate.addEventListener("click", () =>
    act(delegate, async () => {
      const user = h("input", { type: "text", required: true, autocomplete: "off" })
      const done = await formDialog({
        title: "Delegate this task?",
        body: [
          h("p", null, "It becomes theirs to work on; when they complete it, it comes back to you to finish."),
          field("Delegate to (user name)", user)
        ],
        confirm: "Delegate",
        submit: () => api.post(`/tasks/${task.id}/delegate`, { userId: user.value.trim() })
      })
      if (!done) return
      toast(`Delegated to ${user.value.trim()}`, "success")
      location.hash = hrefFor(task.id, "all")
    }))
  const complete = h("button", { class: "btn btn-primary", disabled: !mine }, "Complete task")
  complete.addEventListener("click", () =>
    act(complete, async () => {
      const variables = rendered === undefined ? {} : rendered.submit()
      if (variables === undefined) {
        toast("Some fields need attention", "danger")
        return
      }
      await api.post(`/tasks/${task.id}/complete`, { variables })
      toast(
        task.delegationState === "PENDING" && task.owner != null
          ? `Done: "${task.name ?? task.nodeId}" goes back to ${task.owner}`
          : `Completed "${task.name ?? task.nodeId}"`,
        "success"
      )
      go("/tasks", { view: "mine" })
    }))

  replace(
    host,
    h(
      "div",
      { class: "card", "data-testid": "task-detail" },
      h(
        "div",
        { class: "card-head" },
        h(
          "div",
          null,
          h("h2", null, task.name ?? task.nodeId),
          h(
            "div",
            { class: "muted" },
            "Instance ",
            link(`#/instances/${task.processInstanceId}`, shortId(task.processInstanceId))
          )
        ),
        task.state !== "CREATED"
          ? badge(task.state)
          : h(
            "div",
            { class: "actions" },
            task.assignee === null
              ? claim
              : mine
              ? [delegate, unclaim]
              : h("span", { class: "muted" }, `Assigned to ${task.assignee}`)
          )
      ),
      h(
        "dl",
        { class: "card-body facts" },
        fact("Assignee", task.assignee ?? h("span", { class: "muted" }, "unassigned")),
        fact("Candidate groups", task.candidateGroups.length === 0 ? "—" : task.candidateGroups.join(", ")),
        task.delegationState === "PENDING" && task.owner != null ? fact("Delegated by", task.owner) : null,
        fact("Priority", String(task.priority)),
        fact("Due", when(task.dueDate)),
        fact("Created", when(task.createdAt))
      ),
      task.state === "CREATED" && !mine
        ? h("div", { class: "alert alert-info", style: "margin: 0 20px 16px" }, "Claim the task to work on it.")
        : null,
      rendered === undefined
        ? h("div", { class: "card-body muted" }, "This task has no form; completing it sets no variables.")
        : rendered.element,
      task.state === "CREATED" ? h("div", { class: "form-actions" }, complete) : null
    ),
    comments
  )
}

export const tasksView: View = async (context) => {
  const { params, query, outlet, session, current } = context
  const filter = (FILTERS.find(([name]) => name === query.get("view"))?.[0]) ?? "mine"
  const selectedId = params[0]
  const list = h("div", { class: "card" }, loading())
  const detail = h("div", null)
  replace(
    outlet,
    h(
      "div",
      { class: "page-head" },
      h("div", null, h("h1", null, "Tasks"), h("div", { class: "subtitle" }, "Work waiting for people"))
    ),
    h("div", { class: "tasklist" }, list, detail)
  )
  const hrefFor = (id: string | undefined, view: Filter) => `#/tasks${id === undefined ? "" : `/${id}`}?view=${view}`

  const groups = filter === "groups" ? await myGroups(session) : undefined
  const tasks = await openTasks(filter, session.username, groups)
  if (!current()) return
  replace(
    list,
    h(
      "div",
      { class: "tabs", role: "tablist" },
      FILTERS.map(([name, label]) =>
        h("a", { class: name === filter ? "tab active" : "tab", href: hrefFor(undefined, name) }, label)
      )
    ),
    groups === undefined ? null : groupsBar(session, groups),
    tasks.length === 0
      ? h(
        "div",
        { class: "empty-state" },
        filter === "mine"
          ? "Nothing assigned to you. Pick a task from Unassigned."
          : filter === "groups"
          ? groups?.names.length === 0
            ? "Choose your groups to see the tasks offered to them."
            : "No open task for your groups."
          : "No open tasks."
      )
      : h(
        "ul",
        { class: "task-items", "data-testid": "task-list" },
        tasks.map((task) =>
          h(
            "li",
            null,
            h(
              "a",
              { class: task.id === selectedId ? "task-item selected" : "task-item", href: hrefFor(task.id, filter) },
              h("div", { class: "task-name" }, task.name ?? task.nodeId),
              h(
                "div",
                { class: "task-meta" },
                task.assignee === null
                  ? badge("unassigned", "warning")
                  : h(
                    "span",
                    { class: "badge badge-info badge-raw" },
                    task.assignee === session.username ? "me" : task.assignee
                  ),
                h("span", null, `priority ${task.priority}`),
                when(task.createdAt)
              ),
              groups === undefined ? null : h(
                "div",
                { class: "task-groups" },
                "for ",
                task.candidateGroups.filter((group) => groups.names.includes(group)).join(", ")
              )
            )
          )
        )
      )
  )
  if (selectedId === undefined) {
    replace(detail, h("div", { class: "card empty-state" }, "Select a task to see its form."))
    return
  }
  // A task outside the list (linked from an instance, or done): look it up by its instance when the link names it.
  const instanceId = query.get("instance")
  const selected = tasks.find((task) => task.id === selectedId) ??
    (await api.page<UserTask>(
      "/tasks",
      instanceId === null ? { size: 1000 } : { processInstanceId: instanceId, size: 1000 }
    ))
      .items.find((task) => task.id === selectedId)
  if (!current()) return
  if (selected === undefined) {
    replace(detail, h("div", { class: "card empty-state" }, "This task is gone: completed or canceled."))
    return
  }
  replace(detail, h("div", { class: "card" }, loading()))
  await taskDetail(context, selected, detail, hrefFor)
}
