/**
 * XPath / XQuery regular expressions (used by FEEL `matches`, `replace`, `split`; DMN 1.5 §10.3.4.3 refers to
 * XQuery 1.0 and XPath 2.0 Functions §7.6) as JavaScript ones. Flags: s, m, i, x (whitespace in the pattern is
 * dropped) and q (the pattern is literal text). Invalid patterns or flags give null. Translated: character class
 * subtraction `[a-z-[aeiou]]`, Unicode block escapes `\p{IsBasicLatin}`; refused: back-references to groups not
 * yet closed, back-references inside character classes, and `\0`.
 */
const escapeLiteral = (s: string): string => s.replace(/[.*+?^${}()|[\]\\\/-]/g, "\\$&");

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
  CJKUnifiedIdeographs: "\\u4E00-\\u9FFF",
};

interface Translated {
  readonly source: string;
  readonly subtraction: boolean;
}

/** Walks the pattern once, validating back-references and rewriting XPath-only syntax; null when invalid. */
const translate = (pattern: string): Translated | null => {
  let out = "";
  let groupsOpened = 0;
  const closed: number[] = [];
  const open: number[] = [];
  let inClass = 0;
  let subtraction = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "\\") {
      const n = pattern[i + 1];
      if (n === undefined) return null;
      if (/\d/.test(n)) {
        if (inClass > 0 || n === "0") return null;
        let digits = n;
        while (/\d/.test(pattern[i + 1 + digits.length] ?? "") && closed.includes(Number(digits + pattern[i + 1 + digits.length]))) {
          digits += pattern[i + 1 + digits.length];
        }
        if (!closed.includes(Number(digits))) return null;
        out += `\\${digits}`;
        i += digits.length;
        continue;
      }
      if ((n === "p" || n === "P") && pattern[i + 2] === "{") {
        const end = pattern.indexOf("}", i + 3);
        if (end < 0) return null;
        const name = pattern.slice(i + 3, end);
        if (name.startsWith("Is")) {
          const block = BLOCKS[name.slice(2)];
          if (block === undefined) return null;
          out += inClass > 0 ? block : n === "p" ? `[${block}]` : `[^${block}]`;
        } else if (/^[A-Za-z]+$/.test(name)) out += `\\${n}{${name}}`;
        else return null;
        i = end;
        continue;
      }
      out += c + n;
      i++;
      continue;
    }
    if (c === "[") {
      if (inClass > 0 && pattern[i - 1] === "-") {
        // `[a-z-[aeiou]]`: subtraction, JavaScript's `[[a-z]--[aeiou]]` under the v flag.
        subtraction = true;
        out = out.slice(0, -1) + "]--[";
        inClass++;
        continue;
      }
      inClass++;
      out += inClass === 1 ? "[" : "\\[";
      continue;
    }
    if (c === "]" && inClass > 0) {
      inClass--;
      out += "]";
      if (subtraction && inClass === 1 && pattern[i + 1] === "]") {
        out += "]";
        inClass--;
        i++;
      }
      continue;
    }
    if (inClass === 0 && c === "(") {
      if (pattern[i + 1] !== "?") {
        groupsOpened++;
        open.push(groupsOpened);
      } else open.push(0);
    }
    if (inClass === 0 && c === ")") {
      const g = open.pop();
      if (g === undefined) return null;
      if (g > 0) closed.push(g);
    }
    out += c;
  }
  if (subtraction) out = out.replace(/\[([^\[\]]*)\]--\[/g, "[[$1]--[");
  return inClass === 0 ? { source: out, subtraction } : null;
};

export const xpathRegex = (pattern: string, flags: string | null, global = false): RegExp | null => {
  const f = flags ?? "";
  if (!/^[smixq]*$/.test(f)) return null;
  let source = pattern;
  if (f.includes("q")) source = escapeLiteral(pattern);
  else {
    // x: whitespace is dropped, except inside character classes (`[ ]` still matches a space).
    if (f.includes("x")) source = source.replace(/\[(?:\\.|[^\]\\])*\]|\s+/g, (m) => (m.startsWith("[") ? m : ""));
    const t = translate(source);
    if (t === null) return null;
    source = t.source;
    if (t.subtraction) return build(source, f, global, "v");
  }
  return build(source, f, global, "u");
};

const build = (source: string, f: string, global: boolean, unicode: "u" | "v"): RegExp | null => {
  let jsFlags = unicode + (global ? "g" : "");
  for (const c of "smi") if (f.includes(c)) jsFlags += c;
  try {
    return new RegExp(source, jsFlags);
  } catch {
    try {
      return unicode === "u" ? new RegExp(source, jsFlags.replace("u", "")) : null;
    } catch {
      return null;
    }
  }
};

/** An XPath replacement string (`$1`, `$0`, `\$`, `\\`) in JavaScript's form (`$1`, `$&`, `$$`, `\`); null when malformed. */
export const xpathReplacement = (replacement: string): string | null => {
  let out = "";
  for (let i = 0; i < replacement.length; i++) {
    const c = replacement[i];
    if (c === "\\") {
      const n = replacement[i + 1];
      if (n !== "\\" && n !== "$") return null;
      out += n === "$" ? "$$" : "\\";
      i++;
    } else if (c === "$") {
      const n = replacement[i + 1] ?? "";
      if (!/\d/.test(n)) return null;
      if (n === "0") {
        out += "$&";
        i++;
      } else out += "$";
    } else out += c;
  }
  return out;
};
