// Streams.Append (options, then proposed messages) and Streams.BatchAppend (correlated batches on one bidi call).
import { status } from "@grpc/grpc-js"
import type { ServerDuplexStream, ServerReadableStream, sendUnaryData } from "@grpc/grpc-js"
import { AllStreamPosition, Any, AppendResp, BatchAppendResp, Empty, GoogleEmpty, Status, Timeout, WrongExpectedVersion } from "./proto.js"
import type { AppendReq, BatchAppendReq } from "./proto.js"
import { BadRequest, badRequestError, proposedEvent, streamIdentifier, streamName, uuidMessage, uuidText } from "./codec.js"
import type { AppendOutcome, EsdbDoubleState, ExpectedState, ProposedEvent } from "./state.js"

interface ExpectedOptions {
  hasAny(): boolean
  hasNoStream(): boolean
  hasStreamExists(): boolean
}

const expectedState = (options: ExpectedOptions, revision: () => string | undefined): ExpectedState => {
  if (options.hasAny()) return "any"
  if (options.hasNoStream()) return "no_stream"
  if (options.hasStreamExists()) return "stream_exists"
  const r = revision()
  if (r === undefined) throw new BadRequest("Expected stream revision is missing")
  return BigInt(r)
}

export const append =
  (state: EsdbDoubleState) => (call: ServerReadableStream<AppendReq, AppendResp>, callback: sendUnaryData<AppendResp>) => {
    let target: { stream: string; expected: ExpectedState } | undefined
    const proposed: ProposedEvent[] = []
    let failure: unknown
    call.on("data", (req: AppendReq) => {
      if (failure !== undefined) return
      try {
        const options = req.getOptions()
        const message = req.getProposedMessage()
        if (options !== undefined) {
          target = {
            stream: streamName(options.getStreamIdentifier()),
            expected: expectedState(options, () => (options.hasRevision() ? options.getRevision() : undefined)),
          }
        } else if (message !== undefined) {
          proposed.push(proposedEvent(message))
        }
      } catch (error) {
        failure = error
      }
    })
    call.on("error", () => {})
    // Only a completed request is written: a call cancelled or cut off half-way leaves the log untouched.
    call.on("end", () => {
      if (failure !== undefined) return callback(badRequestError(failure))
      if (target === undefined) return callback(badRequestError(new BadRequest("Append options are missing")))
      callback(null, appendResponse(state.append(target.stream, target.expected, proposed), target.expected))
    })
  }

const appendResponse = (outcome: AppendOutcome, expected: ExpectedState): AppendResp => {
  const resp = new AppendResp()
  if (outcome._tag === "WrongExpectedVersion") {
    const wrong = new AppendResp.WrongExpectedVersion()
    if (outcome.current === "no_stream") wrong.setCurrentNoStream(new Empty())
    else wrong.setCurrentRevision(outcome.current.toString())
    if (expected === "any") wrong.setExpectedAny(new Empty())
    else if (expected === "no_stream") wrong.setExpectedNoStream(new Empty())
    else if (expected === "stream_exists") wrong.setExpectedStreamExists(new Empty())
    else wrong.setExpectedRevision(expected.toString())
    return resp.setWrongExpectedVersion(wrong)
  }
  const success = new AppendResp.Success()
  if (outcome.revision === "no_stream") success.setNoStream(new Empty())
  else success.setCurrentRevision(outcome.revision.toString())
  if (outcome.position === undefined) success.setNoPosition(new Empty())
  else
    success.setPosition(
      new AppendResp.Position().setCommitPosition(outcome.position.toString()).setPreparePosition(outcome.position.toString()),
    )
  return resp.setSuccess(success)
}

interface PendingBatch {
  readonly stream: string
  readonly expected: ExpectedState
  readonly deadline: Date | undefined
  readonly events: ProposedEvent[]
}

export const batchAppend = (state: EsdbDoubleState) => (call: ServerDuplexStream<BatchAppendReq, BatchAppendResp>) => {
  const pending = new Map<string, PendingBatch>()
  call.on("data", (req: BatchAppendReq) => {
    const correlation = uuidText(req.getCorrelationId())
    if (correlation === undefined) return void call.emit("error", badRequestError(new BadRequest("Correlation id is missing")))
    try {
      let batch = pending.get(correlation)
      if (batch === undefined) {
        const options = req.getOptions()
        if (options === undefined) throw new BadRequest("The first message of a batch must carry its options")
        batch = {
          stream: streamName(options.getStreamIdentifier()),
          expected: expectedState(options, () => (options.hasStreamPosition() ? options.getStreamPosition() : undefined)),
          deadline: options.getDeadline()?.toDate(),
          events: [],
        }
        pending.set(correlation, batch)
      }
      for (const message of req.getProposedMessagesList()) batch.events.push(proposedEvent(message))
      if (!req.getIsFinal()) return
      pending.delete(correlation)
      call.write(batchResponse(state, correlation, batch))
    } catch (error) {
      call.emit("error", badRequestError(error))
    }
  })
  call.on("error", () => {})
  call.on("end", () => call.end())
}

const batchResponse = (state: EsdbDoubleState, correlation: string, batch: PendingBatch): BatchAppendResp => {
  const resp = new BatchAppendResp()
  resp.setCorrelationId(uuidMessage(correlation, true))
  resp.setStreamIdentifier(streamIdentifier(batch.stream))
  if (batch.expected === "any") resp.setAny(new GoogleEmpty())
  else if (batch.expected === "no_stream") resp.setNoStream(new GoogleEmpty())
  else if (batch.expected === "stream_exists") resp.setStreamExists(new GoogleEmpty())
  else resp.setStreamPosition(batch.expected.toString())
  if (batch.deadline !== undefined && batch.deadline.getTime() < Date.now()) {
    return resp.setError(errorStatus(status.DEADLINE_EXCEEDED, "Timeout", new Timeout().serializeBinary(), "event_store.client.Timeout"))
  }
  const outcome = state.append(batch.stream, batch.expected, batch.events)
  if (outcome._tag === "WrongExpectedVersion") {
    const wrong = new WrongExpectedVersion()
    if (outcome.current === "no_stream") wrong.setCurrentNoStream(new GoogleEmpty())
    else wrong.setCurrentStreamRevision(outcome.current.toString())
    if (batch.expected === "any") wrong.setExpectedAny(new GoogleEmpty())
    else if (batch.expected === "no_stream") wrong.setExpectedNoStream(new GoogleEmpty())
    else if (batch.expected === "stream_exists") wrong.setExpectedStreamExists(new GoogleEmpty())
    else wrong.setExpectedStreamPosition(batch.expected.toString())
    return resp.setError(
      errorStatus(status.FAILED_PRECONDITION, "WrongExpectedVersion", wrong.serializeBinary(), "event_store.client.WrongExpectedVersion"),
    )
  }
  const success = new BatchAppendResp.Success()
  if (outcome.revision === "no_stream") success.setNoStream(new GoogleEmpty())
  else success.setCurrentRevision(outcome.revision.toString())
  if (outcome.position === undefined) success.setNoPosition(new GoogleEmpty())
  else
    success.setPosition(
      new AllStreamPosition().setCommitPosition(outcome.position.toString()).setPreparePosition(outcome.position.toString()),
    )
  return resp.setSuccess(success)
}

const errorStatus = (code: status, message: string, details: Uint8Array, typeName: string) => {
  const any = new Any()
  any.pack(details, typeName)
  return new Status()
    .setCode(code as number)
    .setMessage(message)
    .setDetails(any)
}
