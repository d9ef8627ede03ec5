// Which world answered a request (docs/worlds.md), kept beside its Node request for the request log
// (cli/request-log.ts), which names the world on the request's line. Unset for the server's own world.
import type { IncomingMessage } from "node:http"

const marks = new WeakMap<IncomingMessage, string>()

export const markWorld = (incoming: IncomingMessage, worldId: string): void => {
  marks.set(incoming, worldId)
}

export const worldOf = (incoming: IncomingMessage): string | undefined => marks.get(incoming)
