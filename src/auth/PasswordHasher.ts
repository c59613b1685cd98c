// Passwords are stored only as salted scrypt hashes: `scrypt$N$r$p$salt$hash` (base64url), verified in constant time.
import { Effect } from "effect"
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"

const COST = 16384
const BLOCK_SIZE = 8
const PARALLELISM = 1
const KEY_LENGTH = 32

const derive = (password: string, salt: Buffer, cost: number, blockSize: number, parallelism: number) =>
  Effect.callback<Buffer>((resume) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, {
      N: cost,
      r: blockSize,
      p: parallelism,
      maxmem: 64 * 1024 * 1024
    }, (error, key) => {
      resume(error ? Effect.die(error) : Effect.succeed(key))
    })
  })

export const hashPassword = (password: string): Effect.Effect<string> =>
  Effect.gen(function*() {
    const salt = randomBytes(16)
    const key = yield* derive(password, salt, COST, BLOCK_SIZE, PARALLELISM)
    return `scrypt$${COST}$${BLOCK_SIZE}$${PARALLELISM}$${salt.toString("base64url")}$${key.toString("base64url")}`
  })

export const verifyPassword = (password: string, stored: string): Effect.Effect<boolean> =>
  Effect.gen(function*() {
    const [scheme, cost, blockSize, parallelism, salt, hash] = stored.split("$")
    if (scheme !== "scrypt" || salt === undefined || hash === undefined) return false
    const expected = Buffer.from(hash, "base64url")
    const actual = yield* derive(
      password,
      Buffer.from(salt, "base64url"),
      Number(cost),
      Number(blockSize),
      Number(parallelism)
    )
    return actual.length === expected.length && timingSafeEqual(actual, expected)
  })

/** A hash of a random password: compared against when a username is unknown, so timing does not reveal it. */
export const DUMMY_HASH =
  `scrypt$${COST}$${BLOCK_SIZE}$${PARALLELISM}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`
