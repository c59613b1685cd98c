// A task's comment thread (oldest first) with a box to add one; any signed-in person may comment, also on a finished
// task.
import { api } from "./api.ts"
import { act, h, replace, toast, when } from "./dom.ts"

export interface TaskComment {
  readonly id: string
  readonly author: string
  readonly message: string
  readonly createdAt: string
}

export const taskComments = async (taskId: string) => {
  const thread = h("ol", { class: "comments", "data-testid": "comments" })
  const draw = (comments: ReadonlyArray<TaskComment>) =>
    replace(
      thread,
      comments.length === 0
        ? h("li", { class: "muted comments-empty" }, "No comments yet.")
        : comments.map((comment) =>
          h(
            "li",
            { class: "comment" },
            h("div", { class: "comment-meta" }, h("strong", null, comment.author), " · ", when(comment.createdAt)),
            h("div", { class: "comment-text" }, comment.message)
          )
        )
    )
  draw(await api.get<ReadonlyArray<TaskComment>>(`/tasks/${taskId}/comments`))
  const message = h("textarea", { rows: 2, placeholder: "Write a comment…", "aria-label": "Comment" })
  const send = h("button", { class: "btn", type: "submit" }, "Comment")
  const form = h("form", { class: "comment-form" }, message, send)
  form.addEventListener("submit", (event) => {
    event.preventDefault()
    void act(send, async () => {
      if (message.value.trim() === "") return
      await api.post(`/tasks/${taskId}/comments`, { message: message.value.trim() })
      message.value = ""
      draw(await api.get<ReadonlyArray<TaskComment>>(`/tasks/${taskId}/comments`))
      toast("Comment added", "success")
    })
  })
  return h(
    "div",
    { class: "card" },
    h("div", { class: "card-head" }, h("h2", null, "Comments")),
    h("div", { class: "card-body" }, thread, form)
  )
}
