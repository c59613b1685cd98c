/**
 * Camunda's FEEL extensions that real Camunda 8 models use. `fromAi(value, description?, type?, schema?, options?)`
 * marks a tool parameter of an AI agent's ad-hoc subprocess: when the expression runs, it is the value itself (the
 * other arguments describe the parameter to the model, not to the engine).
 */
import { builtin, type FeelBuiltinFunction, signature } from "./FeelFunctionValue.ts"

export const CAMUNDA_BUILTINS: Readonly<Record<string, FeelBuiltinFunction>> = {
  fromAi: builtin(
    signature(["value", "description?", "type?", "schema?", "options?"], ([value]) => value ?? null)
  )
}
