/**
 * The catalogue of FEEL built-in functions (DMN 1.5 §10.3.4) with their parameter names, for `GET /feel/functions`.
 */
export interface FeelFunctionInfo {
  readonly name: string
  readonly parameters: ReadonlyArray<string>
  readonly category:
    | "conversion"
    | "boolean"
    | "string"
    | "list"
    | "numeric"
    | "date-time"
    | "range"
    | "temporal"
    | "context"
    | "sort"
    | "misc"
}

const f = (category: FeelFunctionInfo["category"], name: string, ...parameters: string[]): FeelFunctionInfo => ({
  name,
  parameters,
  category
})

const CATALOGUE: ReadonlyArray<FeelFunctionInfo> = [
  f("conversion", "date", "from"),
  f("conversion", "date", "year", "month", "day"),
  f("conversion", "date and time", "from"),
  f("conversion", "date and time", "date", "time"),
  f("conversion", "time", "from"),
  f("conversion", "time", "hour", "minute", "second", "offset"),
  f("conversion", "number", "from", "grouping separator", "decimal separator"),
  f("conversion", "string", "from"),
  f("conversion", "duration", "from"),
  f("conversion", "years and months duration", "from", "to"),
  f("boolean", "not", "negand"),
  f("boolean", "is defined", "value"),
  f("string", "substring", "string", "start position", "length"),
  f("string", "string length", "string"),
  f("string", "upper case", "string"),
  f("string", "lower case", "string"),
  f("string", "substring before", "string", "match"),
  f("string", "substring after", "string", "match"),
  f("string", "replace", "input", "pattern", "replacement", "flags"),
  f("string", "contains", "string", "match"),
  f("string", "starts with", "string", "match"),
  f("string", "ends with", "string", "match"),
  f("string", "matches", "input", "pattern", "flags"),
  f("string", "split", "string", "delimiter"),
  f("string", "string join", "list", "delimiter"),
  f("string", "pad left", "string", "length", "character"),
  f("list", "list contains", "list", "element"),
  f("list", "count", "list"),
  f("list", "min", "list"),
  f("list", "max", "list"),
  f("list", "sum", "list"),
  f("list", "mean", "list"),
  f("list", "all", "list"),
  f("list", "any", "list"),
  f("list", "sublist", "list", "start position", "length"),
  f("list", "append", "list", "item"),
  f("list", "concatenate", "list"),
  f("list", "insert before", "list", "position", "newItem"),
  f("list", "remove", "list", "position"),
  f("list", "reverse", "list"),
  f("list", "index of", "list", "match"),
  f("list", "union", "list"),
  f("list", "distinct values", "list"),
  f("list", "flatten", "list"),
  f("list", "product", "list"),
  f("list", "median", "list"),
  f("list", "stddev", "list"),
  f("list", "mode", "list"),
  f("list", "list replace", "list", "position", "newItem"),
  f("numeric", "decimal", "n", "scale"),
  f("numeric", "floor", "n", "scale"),
  f("numeric", "ceiling", "n", "scale"),
  f("numeric", "round up", "n", "scale"),
  f("numeric", "round down", "n", "scale"),
  f("numeric", "round half up", "n", "scale"),
  f("numeric", "round half down", "n", "scale"),
  f("numeric", "abs", "n"),
  f("numeric", "modulo", "dividend", "divisor"),
  f("numeric", "sqrt", "number"),
  f("numeric", "log", "number"),
  f("numeric", "exp", "number"),
  f("numeric", "odd", "number"),
  f("numeric", "even", "number"),
  f("date-time", "is", "value1", "value2"),
  f("date-time", "day of year", "date"),
  f("date-time", "day of week", "date"),
  f("date-time", "month of year", "date"),
  f("date-time", "week of year", "date"),
  f("date-time", "now"),
  f("date-time", "today"),
  f("range", "before", "point1", "point2"),
  f("range", "after", "point1", "point2"),
  f("range", "meets", "range1", "range2"),
  f("range", "met by", "range1", "range2"),
  f("range", "overlaps", "range1", "range2"),
  f("range", "overlaps before", "range1", "range2"),
  f("range", "overlaps after", "range1", "range2"),
  f("range", "finishes", "point", "range"),
  f("range", "finished by", "range", "point"),
  f("range", "includes", "range", "point"),
  f("range", "during", "point", "range"),
  f("range", "starts", "point", "range"),
  f("range", "started by", "range", "point"),
  f("range", "coincides", "point1", "point2"),
  f("range", "range", "from"),
  f("context", "get value", "m", "key"),
  f("context", "get entries", "m"),
  f("context", "context", "entries"),
  f("context", "context put", "context", "key", "value"),
  f("context", "context merge", "contexts"),
  f("sort", "sort", "list", "precedes"),
  f("misc", "string join", "list")
]

export const listFeelFunctions = (): ReadonlyArray<FeelFunctionInfo> => CATALOGUE
