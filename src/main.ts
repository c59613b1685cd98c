// `npm start`. Node's compile cache (V8 code and stripped TypeScript, kept in NODE_COMPILE_CACHE or the system's temp
// directory) is switched on before anything else loads, so a restart — after a crash, above all — skips most of the
// module loading: it is the larger part of the time to ready.
//
// V8's allocation-site pretenuring is switched off first. It allocates the objects of a site straight in the old
// generation once enough of them survived a young collection; here it picked sites of request-scoped objects, which
// then died in the old generation and, until the next full collection, kept alive every young object they pointed to
// — each scavenge promoted those too. At 2,700 publishes/s that was ~19 MB/s of old-generation growth, a mark-compact
// every ~4 s and ~285 publishes answered late behind each; without it ~2 MB/s (docs/scaling.md, session 20).
import { enableCompileCache } from "node:module"
import { setFlagsFromString } from "node:v8"

setFlagsFromString("--no-allocation-site-pretenuring")
enableCompileCache()
await import("./Server.ts")
