// The architecture as import rules (checked by `npm test`, test/architecture/imports.test.ts). Layers, from the
// bottom: domain (pure deciders; shared kernel in domain/shared and domain/chains) and chain-sim (the chain's
// decider, beside the domain) · store (the port and its adapters) · events (the log's vocabulary: every stored
// event as one typed union, decoded in one place) · commands (use cases of the aggregates, and of the chains in
// commands/chain-*.ts) · projections (read models: folds over projections/storage) · process-managers (what reacts
// to appends) · webhooks, checkpoints, snapshots, workspace (start-up), adapters (the services' implementations on
// the machine, HD derivation included) · runtime (the simulator's interface, types only) · api, audit, event-log
// (export, load, replay) · the composition root (simulator.ts, cli). client and api share protocol/.
const outside = (...allowed) => `^src/(?!${allowed.join("|")})`

module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "No import cycle, type-only imports included.", from: {}, to: { circular: true } },
    {
      name: "domain-is-pure",
      severity: "error",
      comment: "The domain imports only the domain: no store, no Effect services, no read models.",
      from: { path: "^src/domain/" },
      to: { path: outside("domain/") },
    },
    {
      name: "domain-without-effect-runtime",
      severity: "error",
      comment: "Deciders are plain functions: effect only for types, if at all.",
      from: { path: "^src/domain/" },
      to: { path: "^node_modules/effect/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "chain-decider-knows-the-shared-kernel-only",
      severity: "error",
      comment:
        "chain-sim/ is the chain's decider, on the domain's layer: it knows nothing of vaults, ledgers or transaction requests, nor of the commands that run it.",
      from: { path: "^src/chain-sim/" },
      to: { path: outside("chain-sim/", "domain/shared/", "domain/chains/") },
    },
    {
      name: "chain-use-cases-run-on-the-command-kernel",
      severity: "error",
      comment:
        "The chain's use cases (commands/chain-*.ts) append chain events through the command runner and know no other aggregate; settling is a process manager's.",
      from: { path: "^src/commands/chain-[^/]+\\.ts$" },
      to: {
        path: outside(
          "chain-sim/",
          "commands/chain-[^/]+\\.ts$",
          "domain/shared/",
          "domain/chains/",
          "commands/(run-decider|services|retry|aggregate-cache)\\.ts$",
          "store/event-store\\.ts$",
        ),
      },
    },
    {
      name: "commands-sit-on-domain-and-chain-decider",
      severity: "error",
      comment: "Command handlers: read, fold, decide, append. They start no process manager and read no read model.",
      from: { path: "^src/commands/" },
      to: { path: outside("commands/", "domain/", "chain-sim/", "events/", "store/event-store\\.ts$") },
    },
    {
      name: "events-are-the-logs-vocabulary",
      severity: "error",
      comment: "The stored-event union is made of the aggregates' and the chains' event types over the store's envelope; it runs nothing.",
      from: { path: "^src/events/" },
      to: { path: outside("events/", "domain/", "chain-sim/", "store/event-store\\.ts$") },
    },
    {
      name: "projections-fold-events",
      severity: "error",
      comment: "Read models fold the domain's and the chains' events; they run no command.",
      from: { path: "^src/projections/" },
      to: { path: outside("projections/", "domain/", "chain-sim/", "events/", "store/event-store\\.ts$") },
    },
    {
      name: "projection-storage-knows-no-fold",
      severity: "error",
      comment:
        "How the read models are kept (columns, string tables, histories, the graph codec and copy) is storage: the folds import it, it imports no fold nor what they fold.",
      from: { path: "^src/projections/storage/" },
      to: { path: outside("projections/storage/") },
    },
    {
      name: "process-managers-below-the-edges",
      severity: "error",
      comment: "Process managers issue commands on what the read models say; nothing at the edges.",
      from: { path: "^src/process-managers/" },
      to: {
        path: outside("process-managers/", "commands/", "chain-sim/", "projections/", "domain/", "events/", "store/event-store\\.ts$"),
      },
    },
    {
      name: "no-process-manager-started-by-hand",
      severity: "error",
      comment: "Routes run use cases through the edge; follow-ups run by process-managers/after-append.ts only.",
      from: { path: "^src/(api|webhooks|audit|event-log|cli)" },
      to: { path: "^src/process-managers/(?!after-append\\.ts$|read-models\\.ts$)" },
    },
    {
      name: "store-knows-no-domain",
      severity: "error",
      comment: "The EventStore port and its adapters move JSON events; they know no aggregate.",
      from: { path: "^src/store/" },
      to: { path: outside("store/") },
    },
    {
      name: "esdb-driver-in-its-adapter-only",
      severity: "error",
      from: { path: "^src/(?!store/esdb\\.ts$)" },
      to: { path: "@eventstore/db-client" },
    },
    {
      name: "protocol-is-shared-and-alone",
      severity: "error",
      comment: "Request signing as the spec defines it, for the client and the API alike.",
      from: { path: "^src/protocol/" },
      to: { path: outside("protocol/") },
    },
    {
      name: "client-does-not-import-the-api",
      severity: "error",
      from: { path: "^src/client/" },
      to: { path: outside("client/", "protocol/") },
    },
    {
      name: "endpoints-import-no-endpoint",
      severity: "error",
      comment:
        "An endpoint module holds its operation records; what endpoints share is in api/inputs (request values), api/wire (shapes), api/presenters and api/transfers.",
      from: { path: "^src/api/endpoints/" },
      to: { path: "^src/api/endpoints/" },
    },
    {
      name: "endpoints-read-through-the-query-layer",
      severity: "error",
      comment:
        "An endpoint reads the read models through api/reads.ts (the query layer, which names the models' value types) and api/inputs/parties.ts, never projections/ itself.",
      from: { path: "^src/api/endpoints/" },
      to: { path: "^src/projections/" },
    },
    {
      name: "inputs-and-wire-know-no-endpoint",
      severity: "error",
      comment: "Request decoders, answer shapes, presenters and the transfers' shared steps sit below the endpoints that use them.",
      from: { path: "^src/api/(inputs|wire|presenters|transfers)/" },
      to: { path: "^src/api/endpoints/" },
    },
    { name: "api-does-not-import-the-client", severity: "error", from: { path: "^src/api/" }, to: { path: "^src/client/" } },
    {
      name: "adapters-implement-the-ports",
      severity: "error",
      comment:
        "The clock, ids, derivation and stores as the machine provides them: the core's service tags, the shared kernel and the store, nothing above.",
      from: { path: "^src/adapters/" },
      to: { path: outside("adapters/", "commands/services\\.ts$", "domain/shared/", "domain/chains/", "store/") },
    },
    {
      name: "checkpoints-save-the-read-models",
      severity: "error",
      comment:
        "A checkpoint is the read models encoded at a log position: it knows the read models and the store, not the API nor the commands.",
      from: { path: "^src/checkpoints/" },
      to: { path: outside("checkpoints/", "projections/", "store/") },
    },
    {
      name: "snapshots-below-the-api",
      severity: "error",
      comment:
        "Snapshot, revert and reset cut the log and set the read models and services back; the API and the testing helper call them.",
      from: { path: "^src/snapshots/" },
      to: { path: outside("snapshots/", "adapters/", "projections/", "store/", "commands/services\\.ts$", "domain/shared/") },
    },
    {
      name: "workspace-is-a-use-case",
      severity: "error",
      comment: "The start-up workspace (seed, bootstrap, credentials file) is made with commands like any other write.",
      from: { path: "^src/workspace/" },
      to: { path: outside("workspace/", "commands/", "domain/", "adapters/", "store/") },
    },
    {
      name: "audit-below-the-api",
      severity: "error",
      comment: "The audit reconciles the ledger against the read models; the digest of the API's answers (api/digest) is handed to it.",
      from: { path: "^src/audit/" },
      to: { path: "^src/(api/|cli/|cli\\.ts$|simulator\\.ts$)" },
    },
    {
      name: "ui-is-a-browser-bundle",
      severity: "error",
      comment: "The dashboard runs in the browser and speaks to the server over HTTP only: it imports src/ui/ and its browser libraries.",
      from: { path: "^src/ui/" },
      to: { pathNot: "^(src/ui/|node_modules/(preact|uplot)/)" },
    },
    {
      name: "nothing-imports-the-ui",
      severity: "error",
      comment: "The server serves the built bundle (dist/ui); no server module imports the dashboard's source.",
      from: { path: "^src/(?!ui/)" },
      to: { path: "^src/ui/" },
    },
    {
      name: "every-import-resolves",
      severity: "error",
      comment: "An import the checker cannot resolve is an import it cannot check.",
      from: { path: "^src/" },
      to: { couldNotResolve: true },
    },
    {
      name: "core-does-not-import-the-composition-root",
      severity: "error",
      comment:
        "simulator.ts and cli.ts assemble the layers; nothing below them imports them. The API and the log's tools are handed a simulator through runtime/'s interface.",
      from: {
        path: "^src/(domain|chain-sim|commands|events|projections|process-managers|store|webhooks|client|protocol|adapters|checkpoints|snapshots|workspace|runtime|api|event-log)/",
      },
      to: { path: "^src/(simulator|cli)\\.ts$|^src/(cli|worlds)/" },
    },
    {
      name: "worlds-compose-simulators",
      severity: "error",
      comment:
        "worlds/ holds a server's worlds, each a simulator (simulator.ts) and its app (api/): it sits beside the composition root, below the CLI and the testing helper, and only they import it.",
      from: { path: "^src/worlds/" },
      to: { path: "^src/(cli|testing|ui)/|^src/(cli|testing|index)\\.ts$" },
    },
    {
      name: "runtime-is-the-simulators-interface",
      severity: "error",
      comment:
        "runtime/ states what a running simulator offers (types only): it runs no code of the layers it names, and names nothing above it.",
      from: { path: "^src/runtime/" },
      to: { path: "^src/(?!runtime/)", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "runtime-sits-below-its-users",
      severity: "error",
      comment:
        "The API imports runtime/ to be handed a simulator; runtime/ imports nothing of the layers above it (the API, the log's tools, the testing helper, the CLI).",
      from: { path: "^src/runtime/" },
      to: { path: "^src/(api|event-log|audit|testing|cli|ui)/|^src/(testing|index)\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js"],
    },
    exclude: { path: "^(dist|test|scripts)/" },
  },
}
