// The embedded PGlite, opened so that a commit is on the disk before it is answered, as on a PostgreSQL server.
//
// PGlite starts its PostgreSQL with `-F` (fsync off), and the file system it runs on in Node (Emscripten's NODEFS)
// has no fsync either: its WAL went to the kernel's page cache and nothing waited for the disk, so a power cut or an
// OS crash could lose commits the service had acknowledged (a SIGKILL of the process could not: the kernel keeps
// what was written). Here PostgreSQL runs with fsync on and `wal_sync_method = fsync` — the one sync call Emscripten
// hands to the file system (its fdatasync is a no-op) — and NODEFS gets the fsync it lacks: an fdatasync of the
// file, which PostgreSQL calls at each commit for the WAL and at checkpoints for the data files, in the order it
// needs. The sync blocks the thread PGlite runs on, as PGlite's every read and write does; a sync done off the
// thread, with the answers held until it ended, measured slower (docs/scaling.md, session 28).
import { PGlite } from "@electric-sql/pglite"
import { NodeFS } from "@electric-sql/pglite/nodefs"
import { fdatasyncSync } from "node:fs"

/** PGlite's own start parameters without `-F` (fsync off), with WAL flushes made by fsync(). */
export const DURABLE_START_PARAMS: ReadonlyArray<string> = [
  ...PGlite.defaultStartParams.filter((param) => param !== "-F"),
  "-c",
  "wal_sync_method=fsync"
]

type PostgresMod = Parameters<NodeFS["init"]>[1]
interface NodeStream {
  readonly nfd: number
}
/** What of Emscripten's NODEFS this uses. */
interface NodeFileSystem {
  readonly stream_ops: Record<string, (stream: NodeStream) => unknown>
  readonly tryFSOperation: <A>(operation: () => A) => A
}

/** NODEFS with an fsync that reaches the disk (counted, for the tests). */
class SyncingNodeFS extends NodeFS {
  synced = 0

  override async init(pg: PGlite, options: PostgresMod) {
    const { emscriptenOpts } = await super.init(pg, options)
    const withFsync = (mod: PostgresMod) => {
      const nodefs = mod.NODEFS as unknown as NodeFileSystem
      // A failure reaches PostgreSQL as its errno (NODEFS's own mapping): it treats a failed fsync as fatal, as it
      // must — but for a directory that cannot be synced (EBADF, EINVAL), which it passes over.
      nodefs.stream_ops["fsync"] = (stream: NodeStream) => {
        nodefs.tryFSOperation(() => fdatasyncSync(stream.nfd))
        this.synced++
        return 0
      }
    }
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), withFsync] } }
  }
}

export interface DurablePglite {
  readonly db: PGlite
  /** How many fsyncs reached the disk so far (0 for a `memory://` database: it has no disk). */
  readonly synced: () => number
}

/** Opens (or creates) the data dir with fsync on; a `memory://` database has no disk and opens as PGlite ships. */
export const openDurablePglite = async (dataDir: string): Promise<DurablePglite> => {
  if (dataDir.startsWith("memory://")) return { db: await PGlite.create(dataDir), synced: () => 0 }
  const fs = new SyncingNodeFS(dataDir)
  const db = await PGlite.create({ fs, startParams: [...DURABLE_START_PARAMS] })
  return { db, synced: () => fs.synced }
}
