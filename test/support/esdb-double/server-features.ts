// ServerFeatures.GetSupportedMethods: what the client asks once per channel to pick Append or BatchAppend.
import type { sendUnaryData, ServerUnaryCall } from "@grpc/grpc-js"
import { SupportedMethod, SupportedMethods } from "./proto.js"

const STREAMS = "event_store.client.streams.streams"
const PERSISTENT = "event_store.client.persistent_subscriptions.persistentsubscriptions"
const SERVER_VERSION = "24.10.0"

// Lower-cased as the server reports them; the client lower-cases `/service/method` paths before comparing.
const methods: ReadonlyArray<readonly [service: string, method: string, features: ReadonlyArray<string>]> = [
  [STREAMS, "read", ["position", "events"]],
  [STREAMS, "append", []],
  [STREAMS, "batchappend", []],
  [STREAMS, "delete", []],
  [STREAMS, "tombstone", []],
  ["event_store.client.server_features.serverfeatures", "getsupportedmethods", []],
  [PERSISTENT, "create", ["stream", "all"]],
  [PERSISTENT, "delete", ["stream", "all"]],
  [PERSISTENT, "read", ["stream", "all"]],
  [PERSISTENT, "getinfo", ["stream", "all"]],
]

export const getSupportedMethods = (
  _call: ServerUnaryCall<unknown, unknown>,
  callback: sendUnaryData<InstanceType<typeof SupportedMethods>>,
) => {
  const supported = new SupportedMethods().setEventStoreServerVersion(SERVER_VERSION)
  supported.setMethodsList(
    methods.map(([service, method, features]) =>
      new SupportedMethod()
        .setServiceName(service)
        .setMethodName(method)
        .setFeaturesList([...features]),
    ),
  )
  callback(null, supported)
}
