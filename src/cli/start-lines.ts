// What `serve` tells its user besides the credentials: how to name the command, what a stop saved and where, and
// flags npm took for itself.
import { join } from "node:path"
import { GLOBAL_INSTALL } from "../adapters/package-root.js"
import { UsageError } from "./failure.js"

/**
 * The command as the user can type it: `custody-sim` where it is on the PATH (a global install), `npx custody-sim`
 * anywhere else (a checkout, a project that installed it), where the bare name is not.
 */
export const commandName = (): string => (GLOBAL_INSTALL ? "custody-sim" : "npx custody-sim")

/** serve's flags npm reads as its own config when given to `npm start` without `--` (npm_config_<name>). */
const SWALLOWED = ["port", "host", "data-dir", "store", "seed", "fixture", "frozen-at", "log-format", "config"] as const

/** `npm start --port 9000` reaches serve as npm_config_port=9000 and no flag: say how npm wants it written. */
export const npmSwallowedFlags = (env: NodeJS.ProcessEnv = process.env): UsageError | undefined => {
  if (env.npm_lifecycle_event !== "start") return undefined
  const taken = SWALLOWED.flatMap((name) => {
    const value = env[`npm_config_${name.replace(/-/g, "_")}`]
    return value === undefined ? [] : [`--${name} ${value}`]
  })
  if (taken.length === 0) return undefined
  return new UsageError(`npm took ${taken.join(" ")} for itself: pass serve's flags after --, as in npm start -- ${taken.join(" ")}`)
}

export interface StoppedWith {
  readonly store: "sqlite" | "memory" | "esdb"
  readonly dataDir: string
  readonly esdb?: string
  readonly events: number
  readonly checkpoints: boolean
  readonly credentials?: string
}

/** The line a stop (Ctrl-C, SIGTERM) prints once everything is closed: what was saved, and where. */
export const stoppedLine = (s: StoppedWith): string => {
  if (s.store === "memory") return `stopped: the memory store's ${s.events} events are gone (--store sqlite keeps them)`
  if (s.store === "esdb") return `stopped: the ${s.events} events stay in EventStoreDB at ${s.esdb}`
  const saved = [`${s.events} events in ${join(s.dataDir, "events.sqlite")}`]
  if (s.checkpoints) saved.push(`a checkpoint of the read models in ${s.dataDir}`)
  if (s.credentials !== undefined) saved.push(`the credentials in ${s.credentials}`)
  return `stopped, saved: ${saved.join("; ")}. The next serve with this data dir goes on from there`
}
