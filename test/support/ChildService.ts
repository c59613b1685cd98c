// Runs the real entry point (`node src/main.ts`, as `npm start` does) as a child process, for crash and restart
// tests: it resolves once the service logs the port it listens on.
import { type ChildProcess, spawn } from "node:child_process"

export interface ChildService {
  readonly child: ChildProcess
  readonly baseUrl: string
  readonly output: () => string
}

export const startService = (env: Record<string, string>): Promise<ChildService> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["src/main.ts"], {
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /listening on 127\.0\.0\.1:(\d+)/.exec(output)
      if (match) resolve({ child, baseUrl: `http://127.0.0.1:${match[1]}`, output: () => output })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.on("exit", (code) => reject(new Error(`service exited with ${code} before listening:\n${output}`)))
  })

/** Sends the signal and resolves with the exit code once the process is gone. */
export const stopService = (service: ChildService, signal: NodeJS.Signals) =>
  new Promise<number | null>((resolve) => {
    service.child.once("exit", (code) => resolve(code))
    service.child.kill(signal)
  })
