// The web UI's bundle (ui/dist), built by `npm install`; tests that serve it build it when it is missing.
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"

export const UI_INDEX = new URL("../../ui/dist/index.html", import.meta.url).pathname

export const ensureUiBuilt = (): void => {
  if (existsSync(UI_INDEX)) return
  execFileSync(process.execPath, [new URL("../../scripts/build-ui.ts", import.meta.url).pathname], { stdio: "inherit" })
}
