// Writing a store's log as a scenario file: the header, then every event in position order, page by page; without
// its secrets unless asked (redaction.ts).
import type { EventStoreShape } from "../store/event-store.js"
import { eventLine, headerLine, type LogHeader } from "./format.js"
import { logPages } from "./pages.js"
import { redactEvent } from "./redaction.js"

/** The file's lines (each without its newline); reads the store a page at a time. */
export async function* exportLines(
  store: EventStoreShape,
  header: Omit<LogHeader, "format">,
  options: { readonly includeSecrets: boolean },
): AsyncGenerator<string> {
  yield headerLine(header)
  for await (const page of logPages(store)) for (const e of page) yield eventLine(options.includeSecrets ? e : redactEvent(e))
}
