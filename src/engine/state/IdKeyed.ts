// The state's records keyed by ids (tokens, scopes, incidents, boundaries), changed by copy like the rest of the state.
// The copies are dictionaries (objects without a prototype): as object literals keyed by ids, every id never seen
// before gave V8 a new hidden class, and the spread copy of such a record was the engine's costliest step under load
// (`{ ...tokens, [id]: token }`: 2.3 % of the service's CPU with one-task instances; docs/scaling.md, session 21).
// They read, iterate (in insertion order) and serialize as plain objects do.

/** `record` with `key` set to `value`. */
export const withEntry = <V>(
  record: Readonly<Record<string, V>>,
  key: string,
  value: V
): Readonly<Record<string, V>> => {
  const copy: Record<string, V> = Object.create(null)
  for (const existing in record) copy[existing] = record[existing]!
  copy[key] = value
  return copy
}

/** `record` without `key`. */
export const withoutEntry = <V>(record: Readonly<Record<string, V>>, key: string): Readonly<Record<string, V>> => {
  const copy: Record<string, V> = Object.create(null)
  for (const existing in record) if (existing !== key) copy[existing] = record[existing]!
  return copy
}
