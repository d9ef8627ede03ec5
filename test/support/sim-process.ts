// `custody-sim serve` as a child process: start it, read what it prints, call it signed or as admin, stop it.
import { spawn, type ChildProcess } from "node:child_process"
import { fileURLToPath } from "node:url"
import { signRequest, type Credentials } from "../../src/client/index.js"
import { CLI } from "./cli-command.js"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))

export interface Answer {
  readonly status: number
  readonly body: any
  readonly headers: Headers
}

export interface SimProcess {
  readonly url: string
  readonly adminToken: string
  /** As printed (`node id: "…"`). */
  readonly nodeId: string
  /** The default workspace's key, printed only by the node that created it. */
  readonly credentials: Credentials | undefined
  readonly output: () => string
  /** The server's process id (for its memory, say). */
  readonly pid: number | undefined
  readonly admin: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Answer>
  readonly call: (
    creds: Credentials,
    method: "GET" | "POST" | "PUT",
    path: string,
    item?: unknown,
    headers?: Record<string, string>,
  ) => Promise<Answer>
  /** SIGTERM (a clean stop; or `signal`, SIGINT for a Ctrl-C), SIGKILL after `graceMs`. */
  readonly stop: (graceMs?: number, signal?: "SIGTERM" | "SIGINT") => Promise<void>
  /** SIGKILL at once: no clean stop, as a crash. */
  readonly kill: () => Promise<void>
}

const answer = async (res: Response): Promise<Answer> => {
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // kept as text for the assertion to show
  }
  return { status: res.status, body, headers: res.headers }
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())))

export interface SimProcessOptions {
  readonly timeoutMs?: number
  /** Flags for node itself (`--trace-gc`, say), before the script. */
  readonly nodeArgs?: ReadonlyArray<string>
  /** Each chunk of the server's stdout as it comes (the request log once it listens). */
  readonly onOutput?: (chunk: string) => void
}

export const startSimProcess = (args: ReadonlyArray<string>, options: SimProcessOptions = {}): Promise<SimProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...CLI, "serve", "--host", "127.0.0.1", "--port", "0", ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_OPTIONS: "" },
    })
    let out = ""
    let err = ""
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`custody-sim did not start within ${options.timeoutMs ?? 90_000} ms:\n${out}\n${err}`))
    }, options.timeoutMs ?? 90_000)
    child.stderr!.on("data", (d: Buffer) => (err += d.toString()))
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`custody-sim exited with ${code}:\n${out}\n${err}`))
    })
    // The output is kept for `output()`, but scanned only until the server says where it listens: the request
    // log follows, and rescanning all of it on every chunk made a long run's client slower with each request.
    let started = false
    child.stdout!.on("data", (d: Buffer) => {
      const chunk = d.toString()
      out += chunk
      options.onOutput?.(chunk)
      if (started) return
      const listening = /listening on (http:\/\/\S+)\n/.exec(out)
      if (listening === null) return
      started = true
      clearTimeout(timer)
      const line = (label: string) => new RegExp(`^${label}: (.*)$`, "m").exec(out)?.[1]
      const url = listening[1]!
      const key = line("api key")
      const credentials = key === undefined ? undefined : { key, secret: line("api secret")!, passphrase: line("api passphrase")! }
      const adminToken = line("admin token")!
      resolve({
        url,
        adminToken,
        nodeId: JSON.parse(line("node id") ?? '""') as string,
        credentials,
        output: () => out + err,
        pid: child.pid,
        admin: async (method, path, body, headers = {}) =>
          answer(
            await fetch(url + path, {
              method,
              headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json", ...headers },
              ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
            }),
          ),
        call: async (creds, method, path, item, headers = {}) => {
          const body = method === "GET" ? "" : JSON.stringify({ data: { item: item ?? {} } })
          const signed = signRequest(creds, { method, url: path, body })
          return answer(await fetch(url + path, { method, headers: { ...signed, ...headers }, ...(method === "GET" ? {} : { body }) }))
        },
        kill: async () => {
          child.removeAllListeners("exit")
          if (child.exitCode !== null || child.signalCode !== null) return
          const done = exited(child)
          child.kill("SIGKILL")
          await done
        },
        stop: async (graceMs = 5_000, signal = "SIGTERM") => {
          child.removeAllListeners("exit")
          if (child.exitCode !== null || child.signalCode !== null) return
          const done = exited(child)
          child.kill(signal)
          const kill = setTimeout(() => child.kill("SIGKILL"), graceMs)
          await done
          clearTimeout(kill)
        },
      })
    })
  })

/** Polls `probe` every few ms until it returns true; resolves with the milliseconds it took, or throws after `withinMs`. */
export const eventually = async (probe: () => Promise<boolean>, withinMs: number): Promise<number> => {
  const started = performance.now()
  for (;;) {
    if (await probe()) return performance.now() - started
    if (performance.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
