// `npm start`. Node's compile cache (V8 code and stripped TypeScript, kept in NODE_COMPILE_CACHE or the system's temp
// directory) is switched on before anything else loads, so a restart — after a crash, above all — skips most of the
// module loading: it is the larger part of the time to ready.
import { enableCompileCache } from "node:module"

enableCompileCache()
await import("./Server.ts")
