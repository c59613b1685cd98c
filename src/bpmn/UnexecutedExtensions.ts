// Zeebe extensions the engine reads but does not execute yet. A model that uses them is refused at deploy, naming the
// element and the extension, rather than run as if they were not there (a listener that never runs, or a binding that
// silently becomes "latest", changes what the process does).
type Extension = { readonly $type: string; readonly [key: string]: unknown }

/** Listener extensions refused whole (none now: execution and task listeners are checked where they are compiled). */
const LISTENERS: Readonly<Record<string, string>> = {}

const BINDINGS: Readonly<Record<string, string>> = {
  "zeebe:CalledElement": "zeebe:calledElement",
  "zeebe:CalledDecision": "zeebe:calledDecision",
  "zeebe:FormDefinition": "zeebe:formDefinition"
}

/** Why an element cannot run as modelled: one message per extension of it that the engine does not execute. */
export const unexecutedExtensions = (extensions: ReadonlyArray<Extension>): ReadonlyArray<string> =>
  extensions.flatMap((extension) => {
    const listener = LISTENERS[extension.$type]
    if (listener !== undefined) return [`${listener} are not executed by this engine yet; remove them to deploy`]
    const binding = BINDINGS[extension.$type]
    const bindingType = extension["bindingType"]
    const supported = bindingType === "latest" || bindingType === "versionTag" || bindingType === "deployment"
    if (binding !== undefined && typeof bindingType === "string" && !supported) {
      return [
        `bindingType "${bindingType}" on ${binding} is not supported: only "latest" (the default), "deployment" and "versionTag" are`
      ]
    }
    return []
  })
