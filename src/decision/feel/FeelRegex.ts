/**
 * XPath / XQuery regular expressions (used by FEEL `matches`, `replace`, `split`; DMN 1.5 §10.3.4.3 refers to
 * XQuery 1.0 and XPath 2.0 Functions §7.6) as JavaScript ones. Flags: s, m, i, x (whitespace in the pattern is
 * dropped) and q (the pattern is literal text). Invalid patterns or flags give null. Translated: character class
 * subtraction `[a-z-[aeiou]]`, Unicode block escapes `\p{IsBasicLatin}`; refused: back-references to groups not
 * yet closed, back-references inside character classes, and `\0`.
 */
import { RE2JS } from "re2js"
import { chargeChars, chargeSteps, checkMade, checkStringLength, FeelBudgetExceeded, feelLimits } from "./FeelBudget.ts"

const escapeLiteral = (s: string): string => s.replace(/[.*+?^${}()|[\]\\\/-]/g, "\\$&")

/** Unicode blocks XPath names with `\p{IsName}` (the commonly used ones). */
const BLOCKS: Readonly<Record<string, string>> = {
  BasicLatin: "\\u0000-\\u007F",
  "Latin-1Supplement": "\\u0080-\\u00FF",
  "LatinExtended-A": "\\u0100-\\u017F",
  "LatinExtended-B": "\\u0180-\\u024F",
  Greek: "\\u0370-\\u03FF",
  GreekandCoptic: "\\u0370-\\u03FF",
  Cyrillic: "\\u0400-\\u04FF",
  Hebrew: "\\u0590-\\u05FF",
  Arabic: "\\u0600-\\u06FF",
  CJKUnifiedIdeographs: "\\u4E00-\\u9FFF"
}

interface Translated {
  readonly source: string
  readonly subtraction: boolean
}

/** Walks the pattern once, validating back-references and rewriting XPath-only syntax; null when invalid. */
const translate = (pattern: string, dotAll: boolean): Translated | null => {
  let out = ""
  let groupsOpened = 0
  const closed: number[] = []
  const open: number[] = []
  let inClass = 0
  let subtraction = false
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string
    if (c === "\\") {
      const n = pattern[i + 1]
      if (n === undefined) return null
      if (/\d/.test(n)) {
        if (inClass > 0 || n === "0") return null
        let digits = n
        while (
          /\d/.test(pattern[i + 1 + digits.length] ?? "") &&
          closed.includes(Number(digits + pattern[i + 1 + digits.length]))
        ) {
          digits += pattern[i + 1 + digits.length]
        }
        if (!closed.includes(Number(digits))) return null
        out += `\\${digits}`
        i += digits.length
        continue
      }
      if ((n === "p" || n === "P") && pattern[i + 2] === "{") {
        const end = pattern.indexOf("}", i + 3)
        if (end < 0) return null
        const name = pattern.slice(i + 3, end)
        if (name.startsWith("Is")) {
          const block = BLOCKS[name.slice(2)]
          if (block === undefined) return null
          out += inClass > 0 ? block : n === "p" ? `[${block}]` : `[^${block}]`
        } else if (/^[A-Za-z]+$/.test(name)) out += `\\${n}{${name}}`
        else return null
        i = end
        continue
      }
      out += c + n
      i++
      continue
    }
    if (c === "[") {
      if (inClass > 0 && pattern[i - 1] === "-") {
        // `[a-z-[aeiou]]`: subtraction, JavaScript's `[[a-z]--[aeiou]]` under the v flag.
        subtraction = true
        out = out.slice(0, -1) + "]--["
        inClass++
        continue
      }
      inClass++
      out += inClass === 1 ? "[" : "\\["
      continue
    }
    if (c === "]" && inClass > 0) {
      inClass--
      out += "]"
      if (subtraction && inClass === 1 && pattern[i + 1] === "]") {
        out += "]"
        inClass--
        i++
      }
      continue
    }
    // XPath's `.` matches anything but \n and \r (RE2's excludes \n only) unless the s flag is set.
    if (inClass === 0 && c === "." && !dotAll) {
      out += "[^\\n\\r]"
      continue
    }
    if (inClass === 0 && c === "(") {
      if (pattern[i + 1] !== "?") {
        groupsOpened++
        open.push(groupsOpened)
      } else open.push(0)
    }
    if (inClass === 0 && c === ")") {
      const g = open.pop()
      if (g === undefined) return null
      if (g > 0) closed.push(g)
    }
    out += c
  }
  if (subtraction) out = out.replace(/\[([^\[\]]*)\]--\[/g, "[[$1]--[")
  return inClass === 0 ? { source: out, subtraction } : null
}

/**
 * A compiled pattern that runs in linear time: RE2 semantics (re2js, an automaton, no backtracking) for every pattern
 * it can express. Patterns it cannot (back-references, character class subtraction) run on JavaScript's backtracking
 * engine only when that is safe — no quantified group, and an input of at most FeelLimits.maxBacktrackingInput
 * characters; otherwise the evaluation stops with FeelBudgetExceeded, saying why.
 */
export interface SafePattern {
  /** Whether the pattern matches somewhere in the input. */
  readonly test: (input: string) => boolean
  /** Every match replaced; `replacement` in JavaScript's form (`$1`, `$&`, `$$`). */
  readonly replaceAll: (input: string, replacement: string) => string
  /** The pieces between matches. */
  readonly split: (input: string) => string[]
}

const expand = (replacement: string, match: ReadonlyArray<string | undefined>): string =>
  replacement.replace(/\$(\$|&|\d{1,2})/g, (_, ref: string) => {
    if (ref === "$") return "$"
    if (ref === "&") return match[0] ?? ""
    const n = Number(ref)
    if (n < match.length) return match[n] ?? ""
    // `$12` with fewer groups: `$1` followed by "2", as JavaScript reads it
    const one = Number(ref[0])
    return one < match.length && ref.length === 2 ? (match[one] ?? "") + ref[1] : `$${ref}`
  })

const re2Pattern = (re: RE2JS): SafePattern => ({
  test: (input) => re.test(input),
  replaceAll: (input, replacement) => {
    let out = ""
    let last = 0
    for (const m of re.matchAll(input)) {
      const at = m.index ?? 0
      chargeSteps()
      chargeChars(replacement.length)
      out += input.slice(last, at) + expand(replacement, m)
      // checked as it grows: many matches of a long replacement could make a string no engine can hold
      checkStringLength(out.length)
      last = at + m[0].length
    }
    return checkMade(out + input.slice(last))
  },
  split: (input) => {
    const out: string[] = []
    let last = 0
    for (const m of re.matchAll(input)) {
      const at = m.index ?? 0
      chargeSteps()
      out.push(input.slice(last, at))
      last = at + m[0].length
    }
    out.push(input.slice(last))
    return out
  }
})

/** A quantifier applied to a group — `(a+)+`, `(a|aa)*`, `(x){2,}` — is what makes backtracking explode. */
const hasQuantifiedGroup = (source: string): boolean => {
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === "\\") i++
    else if (inClass) inClass = c !== "]"
    else if (c === "[") inClass = true
    else if (c === ")" && /[*+?{]/.test(source[i + 1] ?? "")) return true
  }
  return false
}

const backtrackingPattern = (re: RegExp): SafePattern => {
  const guard = (input: string) => {
    if (hasQuantifiedGroup(re.source)) {
      throw new FeelBudgetExceeded(
        "maxBacktrackingInput",
        "the pattern needs a backtracking engine (back-references or class subtraction) and quantifies a group: refused, it could run for ever"
      )
    }
    if (input.length > feelLimits().maxBacktrackingInput) {
      throw new FeelBudgetExceeded(
        "maxBacktrackingInput",
        `the pattern needs a backtracking engine (back-references or class subtraction): it is matched against at most ${feelLimits().maxBacktrackingInput} characters`
      )
    }
  }
  const global = new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g")
  return {
    test: (input) => (guard(input), re.test(input)),
    replaceAll: (input, replacement) => (guard(input), checkMade(input.replace(global, replacement))),
    split: (input) => (guard(input), input.split(global))
  }
}

/** A JavaScript-flavoured pattern (form-js `validate.pattern`, or a translated XPath one) as a SafePattern; null when invalid. */
export const safePattern = (jsSource: string, flags: string): SafePattern | null => {
  let re2Flags = 0
  if (flags.includes("i")) re2Flags |= RE2JS.CASE_INSENSITIVE
  if (flags.includes("s")) re2Flags |= RE2JS.DOTALL
  if (flags.includes("m")) re2Flags |= RE2JS.MULTILINE
  if (!flags.includes("v")) {
    try {
      return re2Pattern(RE2JS.compile(RE2JS.translateRegExp(jsSource), re2Flags))
    } catch {
      // not expressible in RE2: maybe in JavaScript's engine, under the guard
    }
  }
  for (const f of flags.includes("v") ? [flags] : [flags, flags.replace("u", "")]) {
    try {
      return backtrackingPattern(new RegExp(jsSource, f))
    } catch {
      // try the next flavour
    }
  }
  return null
}

export const xpathRegex = (pattern: string, flags: string | null): SafePattern | null => {
  const f = flags ?? ""
  if (!/^[smixq]*$/.test(f)) return null
  let source = pattern
  if (f.includes("q")) source = escapeLiteral(pattern)
  else {
    // x: whitespace is dropped, except inside character classes (`[ ]` still matches a space).
    if (f.includes("x")) source = source.replace(/\[(?:\\.|[^\]\\])*\]|\s+/g, (m) => (m.startsWith("[") ? m : ""))
    const t = translate(source, f.includes("s"))
    if (t === null) return null
    source = t.source
    if (t.subtraction) return safePattern(source, "v" + [..."smi"].filter((c) => f.includes(c)).join(""))
  }
  return safePattern(source, "u" + [..."smi"].filter((c) => f.includes(c)).join(""))
}

/** An XPath replacement string (`$1`, `$0`, `\$`, `\\`) in JavaScript's form (`$1`, `$&`, `$$`, `\`); null when malformed. */
export const xpathReplacement = (replacement: string): string | null => {
  let out = ""
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i]
    if (c === "\\") {
      const n = replacement[i + 1]
      if (n !== "\\" && n !== "$") return null
      out += n === "$" ? "$$" : "\\"
      i++
    } else if (c === "$") {
      const n = replacement[i + 1] ?? ""
      if (!/\d/.test(n)) return null
      if (n === "0") {
        out += "$&"
        i++
      } else out += "$"
    } else out += c
  }
  return out
}
