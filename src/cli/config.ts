// Settings besides flags: environment variables (declared on each option) and an optional JSON config file.
// A flag wins over its environment variable, which wins over the config file, which wins over the default.
import { existsSync, readFileSync } from "node:fs"
import type { Command } from "commander"
import { UsageError } from "./failure.js"

export const DEFAULT_CONFIG_FILE = "custody-sim.json"

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())

/** Levenshtein distance, for "did you mean" on config keys (commander does it for flags and subcommands). */
const distance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const here = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1))
      prev = here
    }
  }
  return row[b.length]!
}

const readConfig = (file: string): Record<string, unknown> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"))
  } catch (e) {
    throw new UsageError(`config file ${file}: ${e instanceof Error ? e.message : String(e)}`)
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new UsageError(`config file ${file}: must be a JSON object`)
  return parsed as Record<string, unknown>
}

/**
 * Applies the config file (--config, CUSTODY_SIM_CONFIG, or ./custody-sim.json when present) to the options of
 * `command` still at their defaults. Keys are option names (`port`, `dataDir` or `data-dir`); a key no command
 * knows is refused with the closest name, a key this command does not take is left for the others.
 */
export const applyConfigFile = (command: Command, allOptionNames: ReadonlySet<string>): void => {
  const named = command.opts().config as string | undefined
  const file = named ?? (existsSync(DEFAULT_CONFIG_FILE) ? DEFAULT_CONFIG_FILE : undefined)
  if (file === undefined) return
  if (named !== undefined && !existsSync(file)) throw new UsageError(`no config file ${file}`)
  const config = readConfig(file)
  const own = new Map(command.options.map((o) => [o.attributeName(), o]))
  for (const [key, value] of Object.entries(config)) {
    const name = camel(key)
    if (!allOptionNames.has(name)) {
      const closest = [...allOptionNames].sort((a, b) => distance(name, a) - distance(name, b))[0]
      throw new UsageError(
        `config file ${file}: unknown setting "${key}"${closest !== undefined && distance(name, closest) <= 3 ? ` (did you mean "${closest}"?)` : ""}`,
      )
    }
    const option = own.get(name)
    if (option === undefined) continue
    const source = command.getOptionValueSource(name)
    if (source !== undefined && source !== "default") continue
    if (option.isBoolean() ? typeof value !== "boolean" : typeof value !== "string" && typeof value !== "number")
      throw new UsageError(`config file ${file}: "${key}" must be a ${option.isBoolean() ? "boolean" : "string or number"}`)
    const text = typeof value === "boolean" ? value : String(value)
    if (option.argChoices !== undefined && !option.argChoices.includes(String(text)))
      throw new UsageError(`config file ${file}: "${key}" must be one of ${option.argChoices.join(", ")}`)
    command.setOptionValueWithSource(name, text, "config")
  }
}
