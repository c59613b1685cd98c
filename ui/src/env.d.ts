// Stylesheets are bundled by esbuild (scripts/build-ui.ts); importing one has no value.
declare module "*.css" {}

declare module "bpmn-auto-layout" {
  /** BPMN XML with diagram interchange (shapes and edges) laid out for every process element. */
  export function layoutProcess(xml: string): Promise<string>
}
