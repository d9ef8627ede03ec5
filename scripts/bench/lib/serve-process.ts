// `custody-sim serve` as a user runs it, in a process of its own, for benchmarks that compare two servers
// without their sharing an event loop, a heap or a collector: its stdout goes to a file (the request log lands
// there, written as serve writes it), and its CPU time is read from outside, from the kernel's per-thread
// accounting, so a figure needs no control route in the product and does not depend on the client.
import { spawn, type ChildProcess } from "node:child_process"
import { closeSync, openSync, readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { Credentials } from "../../../src/client/signing.js"

const ROOT = fileURLToPath(new URL("../../..", import.meta.url))

export interface ServeProcess {
  readonly origin: string
  readonly credentials: Credentials
  readonly pid: number
  /** Everything the server wrote to stdout so far: the start lines, then the request log. */
  readonly output: () => string
  /**
   * CPU time the process has used, in µs, over all its threads (main, collector helpers, libuv pool, the
   * webhook worker): the kernel's scheduler accounting, in nanoseconds, where it has it; user + system clock
   * ticks otherwise; undefined where /proc is missing.
   */
  readonly cpuMicros: () => number | undefined
  /** SIGTERM (serve's clean stop), SIGKILL after 5 s. */
  readonly close: () => Promise<void>
}

const schedstatMicros = (pid: number): number | undefined => {
  let threads: Array<string>
  try {
    threads = readdirSync(`/proc/${pid}/task`)
  } catch {
    return undefined
  }
  let ns = 0
  for (const t of threads) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, "latin1").split(" ")[0])
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return ns / 1000
}

const statMicros = (pid: number): number | undefined => {
  try {
    // utime and stime are fields 14 and 15; the command name (field 2) may hold spaces, so count after its ")".
    const fields = readFileSync(`/proc/${pid}/stat`, "latin1").split(") ")[1]!.split(" ")
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100
  } catch {
    return undefined
  }
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())))

/** Starts `custody-sim serve --host 127.0.0.1 --port 0 <args>` with its stdout written to `outFile`. */
export const startServeProcess = async (args: ReadonlyArray<string>, outFile: string, timeoutMs = 120_000): Promise<ServeProcess> => {
  const fd = openSync(outFile, "w")
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", "serve", "--host", "127.0.0.1", "--port", "0", ...args], {
    cwd: ROOT,
    stdio: ["ignore", fd, "pipe"],
    env: { ...process.env, NODE_OPTIONS: "" },
  })
  closeSync(fd)
  let err = ""
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()))
  const output = () => readFileSync(outFile, "utf8")
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const done = exited(child)
    child.kill("SIGTERM")
    const kill = setTimeout(() => child.kill("SIGKILL"), 5_000)
    await done
    clearTimeout(kill)
  }
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const out = output()
    const listening = /listening on (http:\/\/\S+)\n/.exec(out)
    if (listening !== null) {
      const line = (label: string) => new RegExp(`^${label}: (.*)$`, "m").exec(out)?.[1]
      const key = line("api key")
      if (key === undefined) {
        await close()
        throw new Error(`serve printed no API key:\n${out}`)
      }
      const pid = child.pid!
      const useSchedstat = schedstatMicros(pid) !== undefined
      return {
        origin: listening[1]!,
        credentials: { key, secret: line("api secret")!, passphrase: line("api passphrase")! },
        pid,
        output,
        cpuMicros: () => (useSchedstat ? schedstatMicros(pid) : statMicros(pid)),
        close,
      }
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      await close()
      throw new Error(`serve ${args.join(" ")} did not start (exit ${child.exitCode}):\n${out}\n${err}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}
