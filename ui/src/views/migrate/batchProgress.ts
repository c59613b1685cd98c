// A batch migration's progress, as the screen shows it: its counts and per-instance outcomes, polled each second
// until it completes or the person leaves the screen.
import { api, type BatchOperation } from "../../api.ts"
import { badge, h, link, replace, shortId } from "../../dom.ts"

export const showBatchProgress = async (
  outcome: HTMLElement,
  batch: BatchOperation,
  onLeave: (stop: () => void) => void
) => {
  let current_ = batch
  const draw = () =>
    replace(
      outcome,
      h(
        "div",
        { class: "card", "data-testid": "migration-batch" },
        h(
          "div",
          { class: "card-head" },
          h("h2", null, "Batch migration"),
          h(
            "span",
            null,
            badge(current_.state),
            " ",
            `${current_.succeeded} migrated · ${current_.failed} failed · ${current_.pending} pending of ${current_.total}`
          )
        ),
        h(
          "table",
          { class: "table" },
          h(
            "thead",
            null,
            h("tr", null, h("th", null, "Instance"), h("th", null, "Outcome"), h("th", null, "Message"))
          ),
          h(
            "tbody",
            null,
            current_.items.map((item) =>
              h(
                "tr",
                null,
                h("td", null, link(`#/instances/${item.targetId}`, shortId(item.targetId))),
                h(
                  "td",
                  null,
                  badge(
                    item.state,
                    item.state === "SUCCEEDED" ? "success" : item.state === "FAILED" ? "danger" : "info"
                  )
                ),
                h("td", { class: "muted" }, item.message ?? "")
              )
            )
          )
        )
      )
    )
  draw()
  let stopped = false
  onLeave(() => (stopped = true))
  while (!stopped && current_.state !== "COMPLETED") {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    if (stopped) return
    current_ = await api.get<BatchOperation>(`/batch-operations/${current_.id}`)
    draw()
  }
}
