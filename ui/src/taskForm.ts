// A task's form, rendered by form-js (the Viewer): a form-designer definition as it is, a legacy form (a list of
// typed fields) translated to form-js components first.
import "@bpmn-io/form-js-viewer/dist/assets/form-js.css"
import "@bpmn-io/form-js-viewer/dist/assets/flatpickr/light.css"
import { Form } from "@bpmn-io/form-js-viewer"
import type { TaskForm } from "./api.ts"
import { h } from "./dom.ts"

interface LegacyField {
  readonly id: string
  readonly label?: string
  readonly type: "string" | "number" | "boolean" | "date" | "enum"
  readonly required?: boolean
  readonly values?: ReadonlyArray<string>
}

const fromLegacy = (key: string, schema: { readonly fields?: ReadonlyArray<LegacyField> }) => ({
  type: "default",
  id: key,
  components: (schema.fields ?? []).map((field) => {
    const common = {
      id: `field_${field.id}`,
      key: field.id,
      label: field.label ?? field.id,
      ...(field.required === true ? { validate: { required: true } } : {})
    }
    switch (field.type) {
      case "number":
        return { ...common, type: "number" }
      case "boolean":
        return { ...common, type: "checkbox" }
      case "date":
        return { ...common, type: "datetime", subtype: "date", dateLabel: common.label }
      case "enum":
        return { ...common, type: "select", values: (field.values ?? []).map((value) => ({ label: value, value })) }
      default:
        return { ...common, type: "textfield" }
    }
  })
})

export interface RenderedForm {
  readonly element: HTMLElement
  /** Validates; the entered data, or undefined when a field is invalid (form-js marks it). */
  readonly submit: () => Record<string, unknown> | undefined
  readonly destroy: () => void
}

export const renderTaskForm = async (
  form: TaskForm,
  data: Record<string, unknown>,
  options: { readonly readOnly: boolean }
): Promise<RenderedForm> => {
  const element = h("div", { class: "form-host", "data-testid": "task-form" })
  const schema = form.source === "LEGACY_FORM" ? fromLegacy(form.formKey, form.schema as never) : form.schema
  // Without debouncing, every keystroke is in the form's data at once (the Complete button reads it).
  const formOptions = { container: element, properties: { readOnly: options.readOnly }, debounce: false }
  const viewer = new Form(formOptions)
  await viewer.importSchema(schema, data)
  return {
    element,
    submit: () => {
      const result = viewer.submit()
      return Object.keys(result.errors).length > 0 ? undefined : result.data
    },
    destroy: () => viewer.destroy()
  }
}
