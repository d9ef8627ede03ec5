// PersistentSubscriptions service: Create, Delete, GetInfo and Read (the bidirectional call of a competing consumer:
// options, confirmation, events with their retry count, acks and nacks). Groups live in the double's state.
import { randomUUID } from "node:crypto"
import { status } from "@grpc/grpc-js"
import type { ServerDuplexStream, ServerUnaryCall, sendUnaryData } from "@grpc/grpc-js"
import { grpcError, readEventResponse, streamName, uuidText } from "./codec.js"
import { PsCreateReq, PsCreateResp, PsDeleteResp, PsGetInfoResp, PsReadResp, PsSubscriptionInfo, type ReadResp } from "./proto.js"
import type { PsCreateReqT, PsDeleteReqT, PsGetInfoReqT, PsReadReqT, PsReadRespT } from "./proto.js"
import { PersistentGroup, type Consumer, type ConsumerStrategy, type GroupSettings, type GroupSource } from "./persistent-group.js"
import type { EsdbDoubleState, StoredEvent } from "./state.js"

const key = (source: string, group: string) => `${source}::${group}`

const psError = (code: status, exception: string, message: string, source: string, group: string) =>
  grpcError(code, message, exception, { "stream-name": source, "group-name": group })

const notFound = (source: string, group: string) =>
  psError(
    status.NOT_FOUND,
    "persistent-subscription-does-not-exist",
    `Subscription group '${group}' on stream '${source}' does not exist.`,
    source,
    group,
  )

const strategies: Record<number, ConsumerStrategy> = {
  [PsCreateReq.ConsumerStrategy.DISPATCHTOSINGLE]: "DispatchToSingle",
  [PsCreateReq.ConsumerStrategy.ROUNDROBIN]: "RoundRobin",
  [PsCreateReq.ConsumerStrategy.PINNED]: "Pinned",
}

const settingsOf = (s: InstanceType<typeof PsCreateReq.Settings>): GroupSettings => {
  const named = s.getConsumerStrategy()
  return {
    resolveLinks: s.getResolveLinks(),
    messageTimeoutMs: s.hasMessageTimeoutMs() ? s.getMessageTimeoutMs() : Number(BigInt(s.getMessageTimeoutTicks() || "0") / 10_000n),
    maxRetryCount: s.getMaxRetryCount(),
    maxSubscriberCount: s.getMaxSubscriberCount(),
    strategy:
      named === "DispatchToSingle" || named === "Pinned" || named === "RoundRobin"
        ? named
        : (strategies[s.getNamedConsumerStrategy()] ?? "RoundRobin"),
    checkPointAfterMs: s.hasCheckpointAfterMs() ? s.getCheckpointAfterMs() : Number(BigInt(s.getCheckpointAfterTicks() || "0") / 10_000n),
    minCheckPointCount: s.getMinCheckpointCount(),
    maxCheckPointCount: s.getMaxCheckpointCount(),
    historyBufferSize: s.getHistoryBufferSize() || 500,
  }
}

type AllOptions = InstanceType<typeof PsCreateReq.AllOptions>

const allFilter = (all: AllOptions): ((e: StoredEvent) => boolean) | undefined => {
  if (!all.hasFilter()) return undefined
  const f = all.getFilter()!
  const onStream = f.hasStreamIdentifier()
  const expression = onStream ? f.getStreamIdentifier() : f.getEventType()
  const regex = expression?.getRegex() ? new RegExp(expression.getRegex()) : undefined
  const prefixes = expression?.getPrefixList() ?? []
  return (e) => {
    const text = onStream ? e.stream : e.type
    return regex !== undefined ? regex.test(text) : prefixes.length === 0 || prefixes.some((p) => text.startsWith(p))
  }
}

const sourceOf = (options: InstanceType<typeof PsCreateReq.Options>): GroupSource => {
  if (options.hasAll()) {
    const all = options.getAll()!
    const from = all.hasStart() ? "start" : all.hasEnd() ? "end" : BigInt(all.getPosition()?.getCommitPosition() ?? "0")
    return { _tag: "All", from, filter: allFilter(all) }
  }
  const stream = options.getStream()!
  const from = stream.hasStart() ? "start" : stream.hasEnd() ? "end" : BigInt(stream.getRevision())
  return { _tag: "Stream", stream: streamName(stream.getStreamIdentifier()), from }
}

export const create = (state: EsdbDoubleState) => (call: ServerUnaryCall<PsCreateReqT, unknown>, callback: sendUnaryData<unknown>) => {
  const options = call.request.getOptions()
  if (options === undefined) return callback(grpcError(status.INVALID_ARGUMENT, "Create options are missing"))
  const source = sourceOf(options)
  const name = options.getGroupName()
  const sourceName = source._tag === "All" ? "$all" : source.stream
  if (state.persistentGroups.has(key(sourceName, name))) {
    return callback(
      psError(
        status.ALREADY_EXISTS,
        "persistent-subscription-exists",
        `Subscription group ${name} on stream ${sourceName} already exists.`,
        sourceName,
        name,
      ),
    )
  }
  const settings = settingsOf(options.getSettings()!)
  const createdAt = { logLength: state.log.length, streamLength: source._tag === "Stream" ? (state.stream(source.stream)?.length ?? 0) : 0 }
  state.persistentGroups.set(key(sourceName, name), new PersistentGroup(state, name, source, settings, createdAt))
  callback(null, new PsCreateResp())
}

const sourceOfRequest = (options: { hasAll(): boolean; getStreamIdentifier(): Parameters<typeof streamName>[0] }) =>
  options.hasAll() ? "$all" : streamName(options.getStreamIdentifier())

export const remove = (state: EsdbDoubleState) => (call: ServerUnaryCall<PsDeleteReqT, unknown>, callback: sendUnaryData<unknown>) => {
  const options = call.request.getOptions()!
  const source = sourceOfRequest(options)
  const name = options.getGroupName()
  const group = state.persistentGroups.get(key(source, name))
  if (group === undefined) return callback(notFound(source, name))
  state.persistentGroups.delete(key(source, name))
  for (const c of [...group.consumers])
    c.drop("persistent-subscription-dropped", `Persistent subscription group ${name} on ${source} was deleted.`)
  callback(null, new PsDeleteResp())
}

export const getInfo = (state: EsdbDoubleState) => (call: ServerUnaryCall<PsGetInfoReqT, unknown>, callback: sendUnaryData<unknown>) => {
  const options = call.request.getOptions()!
  const source = sourceOfRequest(options)
  const name = options.getGroupName()
  const g = state.persistentGroups.get(key(source, name))
  if (g === undefined) return callback(notFound(source, name))
  const checkpoint = g.lastCheckpointed
  const info = new PsSubscriptionInfo()
    .setEventSource(source)
    .setGroupName(name)
    .setStatus(g.consumers.length > 0 ? "Live" : "NotReady")
    .setMessageTimeoutMilliseconds(g.settings.messageTimeoutMs)
    .setMaxRetryCount(g.settings.maxRetryCount)
    .setNamedConsumerStrategy(g.settings.strategy)
    .setMaxSubscriberCount(g.settings.maxSubscriberCount)
    .setTotalItems(g.totalItems.toString())
    .setRetryBufferCount(g.retryCount)
    .setTotalInFlightMessages(g.outstandingCount)
    .setOutstandingMessagesCount(g.outstandingCount)
    .setParkedMessageCount(g.parked.toString())
    .setLastCheckpointedEventPosition(
      checkpoint === undefined
        ? ""
        : source === "$all"
          ? `C:${checkpoint.position}/P:${checkpoint.position}`
          : checkpoint.revision.toString(),
    )
    .setConnectionsList(
      g.consumers.map((c) =>
        new PsSubscriptionInfo.ConnectionInfo()
          .setConnectionName(c.connectionName)
          .setAvailableSlots(c.capacity - c.inFlight.size)
          .setInFlightMessages(c.inFlight.size),
      ),
    )
  callback(null, new PsGetInfoResp().setSubscriptionInfo(info))
}

const nackActions = ["unknown", "park", "retry", "skip", "stop"] as const

export const read = (state: EsdbDoubleState) => (call: ServerDuplexStream<PsReadReqT, PsReadRespT>) => {
  let group: PersistentGroup | undefined
  let consumer: Consumer | undefined
  let structured = false
  const leave = () => {
    if (group !== undefined && consumer !== undefined) group.removeConsumer(consumer)
    consumer = undefined
  }
  call.on("data", (req: PsReadReqT) => {
    if (req.hasOptions()) {
      if (consumer !== undefined) return
      const options = req.getOptions()!
      const source = sourceOfRequest(options)
      const name = options.getGroupName()
      group = state.persistentGroups.get(key(source, name))
      if (group === undefined) return void call.emit("error", notFound(source, name))
      structured = options.getUuidOption()?.hasStructured() ?? false
      const g = group
      const c: Consumer = {
        id: randomUUID(),
        connectionName: call.metadata.get("connection-name")[0]?.toString() ?? "",
        capacity: Math.max(1, options.getBufferSize()),
        inFlight: new Set(),
        push: (m) => {
          const event = readEventResponse(m.event, {
            structuredIds: structured,
            resolve: g.settings.resolveLinks ? (s, r) => state.stream(s)?.[Number(r)] : undefined,
          }).getEvent()!
          const out = new PsReadResp.ReadEvent().setEvent(toPs(event.getEvent()!)).setCommitPosition(m.event.position.toString())
          if (event.hasLink()) out.setLink(toPs(event.getLink()!))
          out.setRetryCount(m.retryCount)
          call.write(new PsReadResp().setEvent(out))
        },
        drop: (exception, reason) => {
          consumer = undefined
          call.emit("error", psError(status.CANCELLED, exception, reason, g.sourceName, g.name))
        },
      }
      call.write(
        new PsReadResp().setSubscriptionConfirmation(
          new PsReadResp.SubscriptionConfirmation().setSubscriptionId(`${g.sourceName}::${g.name}`),
        ),
      )
      if (g.addConsumer(c) === "full") {
        return void call.emit(
          "error",
          psError(status.FAILED_PRECONDITION, "maximum-subscribers-reached", "Maximum subscriptions reached.", g.sourceName, g.name),
        )
      }
      consumer = c
      return
    }
    if (group === undefined || consumer === undefined) return
    if (req.hasAck())
      group.ack(
        req
          .getAck()!
          .getIdsList()
          .flatMap((id) => uuidText(id) ?? []),
      )
    else if (req.hasNack()) {
      const nack = req.getNack()!
      group.nack(
        nack.getIdsList().flatMap((id) => uuidText(id) ?? []),
        nackActions[nack.getAction()] ?? "unknown",
      )
    }
  })
  call.on("error", () => leave())
  call.on("cancelled", leave)
  call.on("close", leave)
  call.on("end", () => {
    leave()
    call.end()
  })
}

// The Streams and PersistentSubscriptions services declare the same RecordedEvent fields in two messages.
const toPs = (r: InstanceType<typeof ReadResp.ReadEvent.RecordedEvent>) => {
  const out = new PsReadResp.ReadEvent.RecordedEvent()
    .setId(r.getId())
    .setStreamIdentifier(r.getStreamIdentifier())
    .setStreamRevision(r.getStreamRevision())
    .setCommitPosition(r.getCommitPosition())
    .setPreparePosition(r.getPreparePosition())
    .setData(r.getData_asU8())
    .setCustomMetadata(r.getCustomMetadata_asU8())
  r.getMetadataMap().forEach((v, k) => void out.getMetadataMap().set(k, v))
  return out
}

/** The server's clock: every 100 ms each group retries what timed out and writes a due checkpoint. */
export const runGroups = (state: EsdbDoubleState): (() => void) => {
  const off = state.onAppend(() => {
    for (const g of state.persistentGroups.values()) g.pump()
  })
  const timer = setInterval(() => {
    for (const g of state.persistentGroups.values()) g.tick()
  }, 100)
  timer.unref()
  return () => {
    off()
    clearInterval(timer)
    // The groups' in-memory state dies with the server; a restart reads again from each checkpoint.
    for (const g of state.persistentGroups.values()) g.restart()
  }
}
