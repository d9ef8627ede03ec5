// The shared conformance suite on the esdb adapter: always through the gRPC double, and on a real server when EVENTSTORE_URL is set.
import { makeEsdbStore } from "../../src/store/esdb.js"
import { startEsdbDouble } from "../support/esdb-double/index.js"
import { describeEventStoreConformance } from "./conformance.js"

interface Target {
  readonly name: string
  /** A double per test starts empty (its own system events aside); a real server is shared by every run. */
  readonly freshStore: boolean
  readonly connect: () => Promise<{ readonly connectionString: string; stop(): Promise<void> }>
}

const eventStoreUrl = process.env.EVENTSTORE_URL
const targets: ReadonlyArray<Target> = [
  { name: "esdb (gRPC double, BatchAppend)", freshStore: true, connect: () => startEsdbDouble() },
  { name: "esdb (gRPC double, Append: no ServerFeatures)", freshStore: true, connect: () => startEsdbDouble({ serverFeatures: false }) },
  ...(eventStoreUrl === undefined || eventStoreUrl === ""
    ? []
    : [
        {
          name: "esdb (EVENTSTORE_URL)",
          freshStore: false,
          connect: async () => ({ connectionString: eventStoreUrl, stop: async () => {} }),
        },
      ]),
]

for (const target of targets) {
  describeEventStoreConformance(
    target.name,
    async () => {
      const server = await target.connect()
      const store = makeEsdbStore(server.connectionString)
      return {
        store,
        close: async () => {
          await store.close()
          await server.stop()
        },
      }
    },
    { freshStore: target.freshStore },
  )
}
