// The state's records keyed by ids (tokens, scopes, incidents, boundaries), changed by copy like the rest of the state.
// The copies are dictionaries (objects without a prototype): as object literals keyed by ids, every id never seen
// before gave V8 a new hidden class, and the spread copy of such a record was the engine's costliest step under load
// (`{ ...tokens, [id]: token }`: 2.3 % of the service's CPU with one-task instances; docs/scaling.md, session 21).
// They read, iterate (in insertion order) and serialize as plain objects do.
//
// A copy per change made one command quadratic in the instance's size: a parallel multi-instance of n items changes
// the tokens and scopes ~2n times, each change copying records of up to n entries (4,000 items took 27 s). Within one
// command's run (`changingInPlace`), a record the run itself copied belongs to it: later changes in the run write
// into that copy. A record from before the run (the state the command started from, which callers keep) is copied
// once, on its first change, as before; intermediate states of the run are not kept by anyone.

/** Records copied during the current run (changingInPlace), which the run may change in place. */
let owned: WeakSet<object> | undefined

/** Runs `f` (one command's run, or one replay) with the records it copies changed in place after their first copy. */
export const changingInPlace = <A>(f: () => A): A => {
  const outer = owned
  owned = new WeakSet()
  try {
    return f()
  } finally {
    owned = outer
  }
}

/** `record` with `key` set to `value`. */
export const withEntry = <V>(
  record: Readonly<Record<string, V>>,
  key: string,
  value: V
): Readonly<Record<string, V>> => {
  if (owned?.has(record) === true) {
    ;(record as Record<string, V>)[key] = value
    return record
  }
  const copy: Record<string, V> = Object.create(null)
  for (const existing in record) copy[existing] = record[existing]!
  copy[key] = value
  owned?.add(copy)
  return copy
}

/** `record` without `key`. */
export const withoutEntry = <V>(record: Readonly<Record<string, V>>, key: string): Readonly<Record<string, V>> => {
  if (owned?.has(record) === true) {
    delete (record as Record<string, V>)[key]
    return record
  }
  const copy: Record<string, V> = Object.create(null)
  for (const existing in record) if (existing !== key) copy[existing] = record[existing]!
  owned?.add(copy)
  return copy
}
