// Child process of the SQLite crash test: appends until killed, printing each acknowledged event as a JSON line.
import { randomUUID } from "node:crypto"
import { writeSync } from "node:fs"
import { Effect } from "effect"
import { makeSqliteStore } from "../../src/store/sqlite.js"

const [file, durability = "normal"] = process.argv.slice(2)
if (file === undefined || (durability !== "normal" && durability !== "full")) {
  throw new Error("usage: sqlite-crash-writer.ts <file> [normal|full]")
}
const store = makeSqliteStore({ file, durability })

/** stdout is a non-blocking pipe: when the test reads slowly (a loaded machine) a write meets EAGAIN; wait and go on. */
const writeAll = (text: string) => {
  const bytes = Buffer.from(text)
  const pause = new Int32Array(new SharedArrayBuffer(4))
  for (let offset = 0; offset < bytes.length; ) {
    try {
      offset += writeSync(1, bytes, offset)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e
      Atomics.wait(pause, 0, 0, 1)
    }
  }
}
const streams = ["crashTest-a", "crashTest-b", "crashTest-c"]
const revisions = streams.map(() => -1n)

for (let seq = 0; ; seq++) {
  const k = seq % streams.length
  const size = 1 + (seq % 4)
  const events = Array.from({ length: size }, (_, i) => ({
    id: randomUUID(),
    type: "CrashTestAppended",
    data: { seq, i, text: `évènement ${seq}.${i} ${"·".repeat((seq * 7 + i) % 50)}`, nested: { list: [seq, i, null, true] } },
    metadata: { at: 1_700_000_000_000 + seq, schemaVersion: 1 },
  }))
  const expected = revisions[k]! < 0n ? "no_stream" : revisions[k]!
  const result = await Effect.runPromise(store.append(streams[k]!, events, expected))
  revisions[k] = result.nextExpectedRevision
  // Printed only once append has returned, i.e. after COMMIT: every line is an acknowledged append.
  const ack = { stream: streams[k], lastRevision: String(result.nextExpectedRevision), position: String(result.position), events }
  writeAll(`${JSON.stringify(ack)}\n`)
}
