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

// By category, each function as DMN writes its signature: `name(parameter, ...)` (a name may hold spaces; a function
// of no parameters has empty parentheses).
const SIGNATURES: { readonly [C in FeelFunctionInfo["category"]]?: ReadonlyArray<string> } = {
  conversion: [
    "date(from)",
    "date(year, month, day)",
    "date and time(from)",
    "date and time(date, time)",
    "time(from)",
    "time(hour, minute, second, offset)",
    "number(from, grouping separator, decimal separator)",
    "string(from)",
    "duration(from)",
    "years and months duration(from, to)"
  ],
  boolean: [
    "not(negand)",
    "is defined(value)"
  ],
  string: [
    "substring(string, start position, length)",
    "string length(string)",
    "upper case(string)",
    "lower case(string)",
    "substring before(string, match)",
    "substring after(string, match)",
    "replace(input, pattern, replacement, flags)",
    "contains(string, match)",
    "starts with(string, match)",
    "ends with(string, match)",
    "matches(input, pattern, flags)",
    "split(string, delimiter)",
    "string join(list, delimiter)",
    "pad left(string, length, character)"
  ],
  list: [
    "list contains(list, element)",
    "count(list)",
    "min(list)",
    "max(list)",
    "sum(list)",
    "mean(list)",
    "all(list)",
    "any(list)",
    "sublist(list, start position, length)",
    "append(list, item)",
    "concatenate(list)",
    "insert before(list, position, newItem)",
    "remove(list, position)",
    "reverse(list)",
    "index of(list, match)",
    "union(list)",
    "distinct values(list)",
    "flatten(list)",
    "product(list)",
    "median(list)",
    "stddev(list)",
    "mode(list)",
    "list replace(list, position, newItem)"
  ],
  numeric: [
    "decimal(n, scale)",
    "floor(n, scale)",
    "ceiling(n, scale)",
    "round up(n, scale)",
    "round down(n, scale)",
    "round half up(n, scale)",
    "round half down(n, scale)",
    "abs(n)",
    "modulo(dividend, divisor)",
    "sqrt(number)",
    "log(number)",
    "exp(number)",
    "odd(number)",
    "even(number)"
  ],
  "date-time": [
    "is(value1, value2)",
    "day of year(date)",
    "day of week(date)",
    "month of year(date)",
    "week of year(date)",
    "now()",
    "today()"
  ],
  range: [
    "before(point1, point2)",
    "after(point1, point2)",
    "meets(range1, range2)",
    "met by(range1, range2)",
    "overlaps(range1, range2)",
    "overlaps before(range1, range2)",
    "overlaps after(range1, range2)",
    "finishes(point, range)",
    "finished by(range, point)",
    "includes(range, point)",
    "during(point, range)",
    "starts(point, range)",
    "started by(range, point)",
    "coincides(point1, point2)",
    "range(from)"
  ],
  context: [
    "get value(m, key)",
    "get entries(m)",
    "context(entries)",
    "context put(context, key, value)",
    "context merge(contexts)"
  ],
  sort: [
    "sort(list, precedes)"
  ],
  misc: [
    "string join(list)"
  ]
}

const fromSignature = (category: FeelFunctionInfo["category"], signature: string): FeelFunctionInfo => {
  const open = signature.indexOf("(")
  const inside = signature.slice(open + 1, -1)
  return { name: signature.slice(0, open), parameters: inside === "" ? [] : inside.split(", "), category }
}

const CATALOGUE: ReadonlyArray<FeelFunctionInfo> = Object.entries(SIGNATURES).flatMap(([category, signatures]) =>
  signatures.map((signature) => fromSignature(category as FeelFunctionInfo["category"], signature))
)

export const listFeelFunctions = (): ReadonlyArray<FeelFunctionInfo> => CATALOGUE
