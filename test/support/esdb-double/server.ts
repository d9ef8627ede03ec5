// Starts the EventStoreDB double: a gRPC server on 127.0.0.1 serving the Streams and ServerFeatures services.
import { Server, ServerCredentials, status } from "@grpc/grpc-js"
import type { sendUnaryData, ServerUnaryCall, UntypedServiceImplementation } from "@grpc/grpc-js"
import { grpcError } from "./codec.js"
import { PersistentSubscriptionsService, ServerFeaturesService, StreamsService } from "./proto.js"
import { create, getInfo, read as readPersistent, remove, runGroups } from "./persistent.js"
import { getSupportedMethods } from "./server-features.js"
import { EsdbDoubleState } from "./state.js"
import { append, batchAppend } from "./streams-append.js"
import { read } from "./streams-read.js"

export interface EsdbDoubleOptions {
  /** 0 (the default) lets the OS choose; pass the previous port to restart in place. */
  readonly port?: number
  /** Serve ServerFeatures (default true). Without it the client gets UNIMPLEMENTED and falls back to Append. */
  readonly serverFeatures?: boolean
  /** The log; pass the same state to a restarted double to keep its data. */
  readonly state?: EsdbDoubleState
}

export interface EsdbDouble {
  readonly port: number
  readonly connectionString: string
  readonly state: EsdbDoubleState
  /** Drops every connection and call at once, as a crashed node would. */
  stop(): Promise<void>
}

const unimplemented = (_call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) =>
  callback(grpcError(status.UNIMPLEMENTED, "Not implemented by the EventStoreDB double"))

export async function startEsdbDouble(options: EsdbDoubleOptions = {}): Promise<EsdbDouble> {
  const state = options.state ?? new EsdbDoubleState()
  const server = new Server()
  server.addService(StreamsService, {
    read: read(state),
    append: append(state),
    batchAppend: batchAppend(state),
    delete: unimplemented,
    tombstone: unimplemented,
  } satisfies UntypedServiceImplementation)
  server.addService(PersistentSubscriptionsService, {
    create: create(state),
    update: unimplemented,
    delete: remove(state),
    read: readPersistent(state),
    getInfo: getInfo(state),
    replayParked: unimplemented,
    list: unimplemented,
    restartSubsystem: unimplemented,
  } satisfies UntypedServiceImplementation)
  const stopGroups = runGroups(state)
  if (options.serverFeatures ?? true) server.addService(ServerFeaturesService, { getSupportedMethods })
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${options.port ?? 0}`, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  )
  return {
    port,
    connectionString: `esdb://127.0.0.1:${port}?tls=false`,
    state,
    stop: async () => {
      server.forceShutdown()
      stopGroups()
      // Let the listening socket close before a restart binds the same port.
      await new Promise((resolve) => setImmediate(resolve))
    },
  }
}
