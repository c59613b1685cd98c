// Placeholder until the screen lands.
import { h, replace } from "../dom.ts"
import type { View } from "../view.ts"

export const tasksView: View = ({ outlet }) => {
  replace(outlet, h("div", { class: "empty-state" }, "Coming next."))
}
