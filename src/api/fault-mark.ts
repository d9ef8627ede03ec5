// Which fault hit a request, kept beside its Node request for the request log (cli/request-log.ts), which marks
// the request's line with the fault's id. It imports nothing, so that the log reads it without loading the app.
import type { IncomingMessage } from "node:http"

const marks = new WeakMap<IncomingMessage, string>()

export const markFault = (incoming: IncomingMessage, faultId: string): void => {
  marks.set(incoming, faultId)
}

export const faultOf = (incoming: IncomingMessage): string | undefined => marks.get(incoming)
