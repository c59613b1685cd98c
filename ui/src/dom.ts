// A few DOM helpers instead of a framework: h() builds elements, plus the small pieces every screen uses
// (badges, tables, a pager, notices, a confirmation dialog, dates).

export type Child = Node | string | number | null | undefined | false | ReadonlyArray<Child>
type Handler = (event: any) => void
export type Props = { readonly [key: string]: string | number | boolean | Handler | null | undefined }

export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: ReadonlyArray<Child>
): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag)
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue
    if (typeof value === "function") element.addEventListener(key.slice(2).toLowerCase(), value)
    else if (key === "class") element.className = String(value)
    else if (key === "value" && "value" in element) (element as HTMLInputElement).value = String(value)
    else element.setAttribute(key, value === true ? "" : String(value))
  }
  append(element, children)
  return element
}

export const append = (parent: Node, children: ReadonlyArray<Child>): void => {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    if (Array.isArray(child)) append(parent, child)
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)))
  }
}

export const replace = (parent: Element, ...children: ReadonlyArray<Child>): void => {
  parent.replaceChildren()
  append(parent, children)
}

const BADGE_TONES: Record<string, string> = {
  ACTIVE: "info",
  CREATED: "info",
  ACTIVATABLE: "info",
  ACTIVATED: "info",
  COMPLETED: "success",
  RESOLVED: "success",
  DEPLOYED: "success",
  SUSPENDED: "warning",
  CANCELED: "neutral",
  OPEN: "danger",
  FAILED: "danger",
  INCIDENT: "danger"
}

/** A state as a coloured pill. */
export const badge = (text: string, tone = BADGE_TONES[text] ?? "neutral") =>
  h("span", { class: `badge badge-${tone}` }, text.replaceAll("_", " ").toLowerCase())

export interface Column<T> {
  readonly title: string
  readonly cell: (row: T) => Child
  readonly class?: string
}

export const table = <T>(
  columns: ReadonlyArray<Column<T>>,
  rows: ReadonlyArray<T>,
  options: { readonly empty?: string; readonly onRow?: (row: T) => void; readonly testId?: string } = {}
) =>
  h(
    "table",
    { class: "table", "data-testid": options.testId },
    h("thead", null, h("tr", null, columns.map((column) => h("th", { class: column.class }, column.title)))),
    h(
      "tbody",
      null,
      rows.length === 0
        ? h("tr", null, h("td", { class: "empty", colspan: columns.length }, options.empty ?? "Nothing here yet."))
        : rows.map((row) =>
          h(
            "tr",
            options.onRow === undefined ? null : { class: "clickable", onClick: () => options.onRow!(row) },
            columns.map((column) => h("td", { class: column.class }, column.cell(row)))
          )
        )
    )
  )

export interface PageOf<T> {
  readonly items: ReadonlyArray<T>
  readonly page: number
  readonly size: number
  readonly totalItems: number
  readonly totalPages: number
}

/** "21–40 of 95" with previous / next. */
export const pager = (page: PageOf<unknown>, go: (page: number) => void) => {
  const first = page.totalItems === 0 ? 0 : page.page * page.size + 1
  const last = Math.min(page.totalItems, (page.page + 1) * page.size)
  return h(
    "div",
    { class: "pager" },
    h("span", { class: "muted" }, `${first}–${last} of ${page.totalItems}`),
    h("button", { class: "btn btn-small", disabled: page.page === 0, onClick: () => go(page.page - 1) }, "Previous"),
    h("button", {
      class: "btn btn-small",
      disabled: page.page + 1 >= page.totalPages,
      onClick: () => go(page.page + 1)
    }, "Next")
  )
}

export const link = (href: string, ...children: ReadonlyArray<Child>) => h("a", { href }, ...children)

export const shortId = (id: string) => h("code", { class: "id", title: id }, id.slice(-8))

export const when = (iso: string | null | undefined): Child => {
  if (iso === null || iso === undefined) return h("span", { class: "muted" }, "—")
  const date = new Date(iso)
  return h("time", { datetime: iso, title: date.toISOString() }, date.toLocaleString())
}

export const json = (value: unknown) => JSON.stringify(value, null, 2)

export const loading = () => h("div", { class: "loading" }, "Loading…")

/** A notice at the top right that fades away. */
export const toast = (message: string, tone: "success" | "danger" | "info" = "info") => {
  let host = document.getElementById("toasts")
  if (host === null) document.body.appendChild(host = h("div", { id: "toasts" }))
  const note = h("div", { class: `toast toast-${tone}`, role: "status" }, message)
  host.appendChild(note)
  while (host.childElementCount > 3) host.firstElementChild!.remove() // the latest three
  setTimeout(() => note.remove(), tone === "danger" ? 8000 : 4000)
}

export const errorBox = (error: unknown) =>
  h("div", { class: "alert alert-danger", role: "alert" }, error instanceof Error ? error.message : String(error))

/** A modal dialog; resolves true when confirmed. */
export const confirmDialog = (
  options: {
    readonly title: string
    readonly body: Child
    readonly confirm: string
    readonly danger?: boolean
    /** false: a notice with one button (nothing to cancel). */
    readonly cancel?: false
  }
): Promise<boolean> =>
  new Promise((resolve) => {
    const dialog = h("dialog", { class: "dialog", "data-testid": "confirm-dialog" })
    const close = (answer: boolean) => {
      dialog.close()
      dialog.remove()
      resolve(answer)
    }
    append(dialog, [
      h("h2", null, options.title),
      h("div", { class: "dialog-body" }, options.body),
      h(
        "div",
        { class: "dialog-actions" },
        options.cancel === false ? null : h("button", { class: "btn", onClick: () => close(false) }, "Cancel"),
        h("button", {
          class: options.danger === true ? "btn btn-danger" : "btn btn-primary",
          "data-testid": "confirm",
          onClick: () => close(true)
        }, options.confirm)
      )
    ])
    dialog.addEventListener("cancel", () => close(false))
    document.body.appendChild(dialog)
    dialog.showModal()
  })

/** Runs an action from a button: disables it meanwhile, reports failure as a toast. */
export const act = async (button: HTMLButtonElement | null, action: () => Promise<void>) => {
  if (button !== null) button.disabled = true
  try {
    await action()
  } catch (error) {
    toast(error instanceof Error ? error.message : String(error), "danger")
  } finally {
    if (button !== null) button.disabled = false
  }
}

/**
 * A modal dialog with fields: `submit` runs on confirm and closes the dialog; when it throws, its message shows in
 * the dialog, which stays open (so a mistyped value can be corrected). Resolves true once submitted.
 */
export const formDialog = (
  options: {
    readonly title: string
    readonly body: Child
    readonly confirm: string
    readonly danger?: boolean
    readonly wide?: boolean
    readonly submit: () => Promise<void>
  }
): Promise<boolean> =>
  new Promise((resolve) => {
    const dialog = h("dialog", {
      class: options.wide === true ? "dialog dialog-wide" : "dialog",
      "data-testid": "form-dialog"
    })
    const error = h("div", { class: "dialog-error", role: "alert" })
    const close = (answer: boolean) => {
      dialog.close()
      dialog.remove()
      resolve(answer)
    }
    const confirm = h("button", {
      class: options.danger === true ? "btn btn-danger" : "btn btn-primary",
      type: "submit",
      "data-testid": "confirm"
    }, options.confirm)
    const form = h(
      "form",
      { method: "dialog" },
      h("h2", null, options.title),
      h("div", { class: "dialog-body" }, options.body, error),
      h(
        "div",
        { class: "dialog-actions" },
        h("button", { class: "btn", type: "button", onClick: () => close(false) }, "Cancel"),
        confirm
      )
    )
    form.addEventListener("submit", (event) => {
      event.preventDefault()
      replace(error)
      void act(confirm, async () => {
        try {
          await options.submit()
          close(true)
        } catch (failure) {
          replace(error, failure instanceof Error ? failure.message : String(failure))
        }
      })
    })
    dialog.append(form)
    dialog.addEventListener("cancel", () => close(false))
    document.body.appendChild(dialog)
    dialog.showModal()
  })

/** A labelled field for a dialog or form. */
export const field = (label: string, control: Child, hint?: string) =>
  h(
    "label",
    { class: "field" },
    h("span", { class: "field-label" }, label),
    control,
    hint === undefined ? null : h("span", { class: "field-hint" }, hint)
  )

/** Parses a JSON text a person typed; the error names the field. */
export const parseJson = (label: string, text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch (failure) {
    throw new Error(`${label} is not valid JSON: ${failure instanceof Error ? failure.message : String(failure)}`)
  }
}
