/** Every FEEL built-in function by name (DMN 1.5 §10.3.4, and Camunda's fromAi); names in scope shadow them. */
import { CAMUNDA_BUILTINS } from "./FeelBuiltinsCamunda.ts"
import { CONTEXT_BUILTINS } from "./FeelBuiltinsContext.ts"
import { LIST_BUILTINS } from "./FeelBuiltinsList.ts"
import { NUMERIC_BUILTINS } from "./FeelBuiltinsNumeric.ts"
import { RANGE_BUILTINS } from "./FeelBuiltinsRange.ts"
import { RANGE_LITERAL_BUILTINS } from "./FeelBuiltinsRangeLiteral.ts"
import { STRING_BUILTINS } from "./FeelBuiltinsString.ts"
import { TEMPORAL_BUILTINS } from "./FeelBuiltinsTemporal.ts"
import type { FeelFunctionValue } from "./FeelFunctionValue.ts"

export const BUILTINS: Readonly<Record<string, FeelFunctionValue>> = Object.assign(
  Object.create(null) as Record<string, FeelFunctionValue>,
  NUMERIC_BUILTINS,
  STRING_BUILTINS,
  LIST_BUILTINS,
  CONTEXT_BUILTINS,
  TEMPORAL_BUILTINS,
  RANGE_BUILTINS,
  RANGE_LITERAL_BUILTINS,
  CAMUNDA_BUILTINS
)
