// The commands, their options, environment variables and help. Each command's code is loaded only when it runs,
// so `--help`, `call` and `sign` start without loading the simulator.
import { readFileSync } from "node:fs"
import { Command, type CommanderError, Option } from "commander"
import { applyConfigFile, DEFAULT_CONFIG_FILE } from "./config.js"
import { report } from "./failure.js"

/** The package's version, from package.json beside src/ (checkout) or dist/src/ (installed). */
const version = (): string => {
  for (const up of ["../../package.json", "../../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8")) as { name?: string; version?: string }
      if (pkg.name === "custody-sim" && pkg.version !== undefined) return pkg.version
    } catch {
      // not at this level
    }
  }
  return "unknown"
}

const env = (name: string) => `CUSTODY_SIM_${name}`
const opt = (flags: string, description: string, envName?: string) => {
  const o = new Option(flags, description)
  return envName === undefined ? o : o.env(env(envName))
}
const collect = (value: string, previous: ReadonlyArray<string> = []) => [...previous, value]

const dataDir = () => opt("--data-dir <dir>", "the simulator's data directory", "DATA_DIR").default(".custody-sim")
const credentialOptions = (c: Command) =>
  c
    .addOption(dataDir())
    .addOption(opt("--key <key>", "the API key to use (default: the first of <data-dir>/credentials.json)", "KEY"))
    .addOption(opt("--secret <secret>", "its secret (default: from credentials.json)", "SECRET"))
    .addOption(opt("--passphrase <passphrase>", "its passphrase (default: from credentials.json)", "PASSPHRASE"))
    .addOption(
      opt(
        "--url <url>",
        "the simulator's base URL (default: where serve last listened for this data dir, else http://127.0.0.1:8080)",
        "URL",
      ),
    )
    .addOption(opt("--api-version <version>", "x-api-version to send", "API_VERSION"))
    .addOption(opt("--world <id>", "sign with this world's credentials, read from the server (docs/worlds.md)", "WORLD"))
    .addOption(opt("--admin-token <token>", "the server's admin token, for --world (default: from credentials.json)", "ADMIN_TOKEN"))

const onOneLine = (message: string) =>
  message
    .replace(/\s*\n\s*/g, " ")
    .replace("(Did you mean", "(did you mean")
    .trim()

/** Runs a command's body: a failure is one line and a non-zero exit (see failure.ts). */
const guarded =
  // biome-ignore lint/suspicious/noExplicitAny: commander hands each action the arguments and options its command declares
  // biome-ignore lint/suspicious/noConfusingVoidType: an action answers its exit status, or nothing for 0
    (name: string, body: (...args: Array<any>) => Promise<number | void>, exitOnFailure = false) =>
    // biome-ignore lint/suspicious/noExplicitAny: as body's
    async (...args: Array<any>) => {
      try {
        const code = await body(...args)
        if (typeof code === "number") process.exitCode = code
      } catch (e) {
        report(e, name)
        // A server that failed to start has closed what it opened; nothing left behind may keep the process alive.
        if (exitOnFailure) process.exit()
      }
    }

/** Makes a subcommand of the program, with the options every command takes (--config). */
type Define = (name: string) => Command

/** `serve`: the simulator, its store, workspace, hosts and request log. */
const serveCommand = (command: Define): void => {
  command("serve")
    .description("run the simulator: the custody REST API and the /_sim control plane")
    .addOption(opt("--host <host>", "interface to listen on", "HOST").default("127.0.0.1"))
    .addOption(opt("--port <port>", "port to listen on (0: any free port)", "PORT").default("8080"))
    .addOption(opt("--store <kind>", "event store", "STORE").choices(["sqlite", "memory", "esdb"]).default("sqlite"))
    .addOption(dataDir())
    .addOption(opt("--durability <mode>", "SQLite synchronous mode", "DURABILITY").choices(["normal", "full"]).default("normal"))
    .addOption(
      opt(
        "--checkpoint-every <events>",
        "with --store sqlite: save the read models every this many events and at shutdown, to restart from (0: never)",
        "CHECKPOINT_EVERY",
      ).default("10000"),
    )
    .addOption(opt("--esdb <connection>", "EventStoreDB connection string (with --store esdb)", "ESDB"))
    .addOption(opt("--fixture <file>", "JSON workspace to create on first start: { seed, adminToken, vaults, apiKeys, assets }", "FIXTURE"))
    .addOption(opt("--seed <text>", "workspace seed: the same seed and calls give the same ids and addresses", "SEED"))
    .addOption(opt("--admin-token <token>", "bearer token of the /_sim control plane", "ADMIN_TOKEN"))
    .addOption(opt("--frozen-at <seconds>", "hold simulated time at this UNIX time (seconds) until advanced", "FROZEN_AT"))
    .addOption(opt("--node-id <name>", "node id when several simulators share an EventStoreDB", "NODE_ID"))
    .addOption(
      opt(
        "--webhook-handover <ms>",
        "with --store esdb: how long a node may hold a webhook delivery before another node takes it over",
        "WEBHOOK_HANDOVER",
      ).default("30000"),
    )
    .addOption(opt("--empty", "start without the default workspace", "EMPTY"))
    .addOption(
      opt("--max-worlds <n>", "worlds POST /_sim/worlds may create besides the server's own (docs/worlds.md)", "MAX_WORLDS").default(
        "1000",
      ),
    )
    .addOption(opt("--world-ttl <seconds>", "delete a world after this long without a request (default: never)", "WORLD_TTL"))
    .addOption(
      opt(
        "--allow-host <name>",
        "a Host header to accept besides loopback names and the bound address (repeat for more)",
        "ALLOW_HOST",
      ).argParser(collect),
    )
    .addOption(
      opt("--allow-remote", "allow a --host beyond this machine (warns: anyone who can reach it can use the keys)", "ALLOW_REMOTE"),
    )
    .addOption(opt("--reject-replays", "refuse a signature already seen within its window", "REJECT_REPLAYS"))
    .addOption(
      opt(
        "--auth-failure-limit <limit>",
        "failed authentications per client address and key: <per second>/<burst>, or off (default: off on a loopback --host, 1/10 beyond); only failing requests are ever refused",
        "AUTH_FAILURE_LIMIT",
      ),
    )
    .addOption(
      opt(
        "--fault <json>",
        'a fault to start with, as POST /_sim/faults takes it, e.g. \'{"match":{"method":"POST"},"effect":{"kind":"status","status":503},"times":1}\' (repeat for more; replaces the faults in force; docs/faults.md)',
        "FAULT",
      ).argParser(collect),
    )
    .addOption(opt("--log-format <format>", "request log lines on stdout", "LOG_FORMAT").choices(["text", "json"]).default("text"))
    .addOption(opt("--quiet", "no request log", "QUIET"))
    .action(guarded("serve", async (o) => (await import("./serve.js")).serve(o), true))
}

/** The commands that read credentials.json and sign requests to a running server: `call`, `sign`, `credentials`. */
const requestCommands = (command: Define): void => {
  credentialOptions(
    command("call")
      .description("sign a request with the data dir's credentials, send it and print the answer")
      .argument("<method>", "GET, POST or PUT")
      .argument("<path>", "e.g. /vaults or /vaults/test (a ?query is signed too)"),
  )
    .addOption(
      opt(
        "--data <json>",
        `the request's item, e.g. '{"name":"alice"}' (sent as {"data":{"item":…}}; a body with a top-level "data" is sent as is)`,
      ),
    )
    .addOption(opt("--query <k=v>", "a query parameter (repeat for more)").argParser(collect))
    .addOption(opt("--as-of <when>", "read as of position:N or time:<unix seconds> (x-sim-as-of)"))
    .addOption(opt("--raw", "print the body as received, even on a terminal"))
    .addHelpText(
      "after",
      "\nThe answer is printed pretty on a terminal and as received when piped; the exit status is 1 when it is not 2xx.",
    )
    .action(guarded("call", async (method, path, o) => (await import("./call.js")).call(method, path, o)))

  credentialOptions(command("sign").description("print the signed headers of a request and a ready curl line"))
    .addOption(opt("--method <method>", "HTTP method").default("GET"))
    .addOption(opt("--path <path>", "URL path with an optional ?query").makeOptionMandatory())
    .addOption(opt("--body <json>", "the exact body to sign").default(""))
    .action(guarded("sign", async (o) => (await import("./call.js")).sign(o)))

  command("credentials")
    .description("print the workspace's admin token, API keys and vault ids (saved by serve in <data-dir>/credentials.json)")
    .addOption(dataDir())
    .addOption(opt("--json", "print credentials.json as is"))
    .action(guarded("credentials", async (o) => (await import("./call.js")).credentials(o)))
}

/** The commands over an event log: `export`, `replay`, `audit`. */
const logCommands = (command: Define): void => {
  const storeOptions = (c: Command, stores: ReadonlyArray<string>) =>
    c
      .addOption(opt("--store <kind>", "event store", "STORE").choices(stores))
      .addOption(opt("--esdb <connection>", "EventStoreDB connection string", "ESDB"))

  storeOptions(command("export").description("write the event log as JSON lines (custody-sim/events@1)").addOption(dataDir()), [
    "sqlite",
    "esdb",
  ])
    .addOption(
      opt(
        "--seed <text>",
        "the workspace seed the log was recorded with, for the header (default: the one serve kept with the log)",
        "SEED",
      ),
    )
    .addOption(opt("--out <file>", "write to a file instead of stdout"))
    .addOption(opt("--include-secrets", "keep API key secrets, passphrase hashes, webhook secrets and the seed (default: left out)"))
    .action(guarded("export", async (o) => (await import("./export.js")).run(o)))

  command("replay")
    .description("load a scenario file into a fresh store, rebuild every read model and print the digest")
    .argument("<file>", "a custody-sim/events@1 file, or - for stdin")
    .addOption(opt("--data-dir <dir>", "replay into a new SQLite log there (default: memory)"))
    .addOption(opt("--store <kind>", "event store").choices(["memory", "sqlite"]))
    .addOption(opt("--until <position>", "load only the events up to this recorded position: the scenario forked there"))
    .addOption(
      opt(
        "--secrets <file>",
        "JSON secrets for the keys and webhooks an export left without: {apiKeys: {key: {secret, passphrase}}, webhooks: {id: secret}}",
      ),
    )
    .addOption(opt("--json", "print the result as JSON"))
    .action(guarded("replay", async (file, o) => (await import("./replay.js")).run(file, o)))

  storeOptions(
    command("audit")
      .description("reconcile every balance against the events; exit 0 when clean, 1 with discrepancies")
      .argument("[file]", "a scenario file (or use --data-dir / --store esdb)")
      .addOption(opt("--data-dir <dir>", "audit a data directory's log")),
    ["sqlite", "esdb"],
  )
    .addOption(opt("--as-of <when>", "position:N or time:<unix seconds>"))
    .addOption(opt("--html <file>", "also write the HTML report"))
    .addOption(opt("--json", "print the report as JSON"))
    .action(guarded("audit", async (file, o) => (await import("./audit.js")).run(file, o)))
}

export const buildProgram = (): Command => {
  const program = new Command("custody-sim")
    .description("A local, deterministic, event-sourced simulator of an MPC custody REST service")
    .version(version(), "-v, --version")
    .showSuggestionAfterError(true)
    .allowExcessArguments(false)
    .configureOutput({ outputError: (message, write) => write(`${onOneLine(message)}\n`) })
    .exitOverride((e: CommanderError) => {
      // Help and version exit 0; every usage mistake 2, as the commands' own usage errors.
      process.exit(e.exitCode === 0 ? 0 : 2)
    })
    .addHelpText(
      "after",
      `
Every option can also come from an environment variable (shown in each command's --help) or from a JSON
config file (--config, CUSTODY_SIM_CONFIG, or ./${DEFAULT_CONFIG_FILE} when present) keyed by option name,
e.g. {"port": 8081, "dataDir": ".sim"}. A flag wins over its variable, which wins over the file.`,
    )

  const allOptionNames = new Set<string>()
  const command = (name: string) => {
    const c = program
      .command(name)
      .addOption(opt("--config <file>", `JSON settings keyed by option name (default: ./${DEFAULT_CONFIG_FILE} when present)`, "CONFIG"))
    c.hook("preAction", (self) => {
      try {
        applyConfigFile(self, allOptionNames)
      } catch (e) {
        report(e, name)
        process.exit(process.exitCode ?? 2)
      }
    })
    return c
  }

  serveCommand(command)
  requestCommands(command)
  logCommands(command)

  for (const c of program.commands) for (const o of c.options) allOptionNames.add(o.attributeName())
  return program
}

export const main = async (argv: ReadonlyArray<string>): Promise<void> => {
  await buildProgram().parseAsync([...argv])
}
