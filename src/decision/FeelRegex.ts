/**
 * XPath / XQuery regular expressions (used by FEEL `matches`, `replace`, `split`) as JavaScript ones. Flags: s, m, i,
 * x (whitespace in the pattern is ignored) and q (the pattern is literal text). Invalid patterns or flags give null.
 */
const escapeLiteral = (s: string): string => s.replace(/[.*+?^${}()|[\]\\\/-]/g, "\\$&");

export const xpathRegex = (pattern: string, flags: string | null, global = false): RegExp | null => {
  const f = flags ?? "";
  if (!/^[smixq]*$/.test(f)) return null;
  let source = f.includes("q") ? escapeLiteral(pattern) : pattern;
  if (f.includes("x") && !f.includes("q")) source = source.replace(/\[[^\]]*\]|\s+/g, (m) => (m.startsWith("[") ? m : ""));
  // XPath has no back-references into unclosed groups nor the empty-matching `{,n}` forms; JS accepts the rest.
  let jsFlags = "u" + (global ? "g" : "");
  for (const c of "smi") if (f.includes(c)) jsFlags += c;
  try {
    return new RegExp(source, jsFlags);
  } catch {
    try {
      return new RegExp(source, jsFlags.replace("u", ""));
    } catch {
      return null;
    }
  }
};

/** An XPath replacement string (`$1`, `\$`, `\\`) in JavaScript's form (`$1`, `$$`, `\`); null when malformed. */
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
      if (!/\d/.test(replacement[i + 1] ?? "")) return null;
      out += "$";
    } else out += c;
  }
  return out;
};
