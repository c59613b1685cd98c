// dmn-moddle ships no type declarations; DecisionModel.ts and DecisionTableJson.ts are the only readers.
declare module "dmn-moddle" {
  export const DmnModdle: new(packages?: unknown) => any
}
