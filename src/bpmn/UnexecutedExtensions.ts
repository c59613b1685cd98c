// Zeebe extensions the engine reads but does not execute yet. A model that uses them is refused at deploy, naming the
// element and the extension, rather than run as if they were not there (a listener that never runs, or a binding that
// silently becomes "latest", changes what the process does).
type Element = { readonly $type: string; readonly [key: string]: unknown }

const isElement = (value: unknown): value is Element =>
  typeof value === "object" && value !== null && typeof (value as Element).$type === "string"

const extensionsOf = (element: Element): ReadonlyArray<Element> => {
  const container = element["extensionElements"]
  const values = isElement(container) ? container["values"] : undefined
  return Array.isArray(values) ? values.filter(isElement) : []
}

const LISTENERS: Readonly<Record<string, string>> = {
  "zeebe:TaskListeners": "user task listeners (zeebe:taskListeners)",
  "zeebe:ExecutionListeners": "execution listeners (zeebe:executionListeners)"
}

const BINDINGS: Readonly<Record<string, string>> = {
  "zeebe:CalledElement": "zeebe:calledElement",
  "zeebe:CalledDecision": "zeebe:calledDecision",
  "zeebe:FormDefinition": "zeebe:formDefinition"
}

/** Why the element cannot run as modelled: one message per extension it uses that the engine does not execute. */
export const unexecutedExtensions = (element: Element): ReadonlyArray<string> =>
  extensionsOf(element).flatMap((extension) => {
    const listener = LISTENERS[extension.$type]
    if (listener !== undefined) return [`${listener} are not executed by this engine yet; remove them to deploy`]
    const binding = BINDINGS[extension.$type]
    const bindingType = extension["bindingType"]
    const supported = bindingType === "latest" || (bindingType === "versionTag" && binding === "zeebe:calledElement")
    if (binding !== undefined && typeof bindingType === "string" && !supported) {
      return [
        `bindingType "${bindingType}" on ${binding} is not supported yet: only "latest" (the default) is` +
        (binding === "zeebe:calledElement" ? `, and "versionTag"` : "")
      ]
    }
    return []
  })
