// The EventStoreDB gRPC contract as the client package ships it: message classes (values and instance types) and services.
import streamsPb from "@eventstore/db-client/generated/streams_pb.js"
import streamsGrpc from "@eventstore/db-client/generated/streams_grpc_pb.js"
import sharedPb from "@eventstore/db-client/generated/shared_pb.js"
import statusPb from "@eventstore/db-client/generated/status_pb.js"
import serverFeaturesPb from "@eventstore/db-client/generated/serverfeatures_pb.js"
import serverFeaturesGrpc from "@eventstore/db-client/generated/serverfeatures_grpc_pb.js"
import persistentPb from "@eventstore/db-client/generated/persistent_pb.js"
import persistentGrpc from "@eventstore/db-client/generated/persistent_grpc_pb.js"
import anyPb from "google-protobuf/google/protobuf/any_pb.js"
import emptyPb from "google-protobuf/google/protobuf/empty_pb.js"

// The generated modules are CommonJS that Node cannot name-import: take the classes off their default export.
export const { ReadReq, ReadResp, AppendReq, AppendResp, BatchAppendReq, BatchAppendResp } = streamsPb
export type ReadReq = InstanceType<typeof ReadReq>
export type ReadResp = InstanceType<typeof ReadResp>
export type AppendReq = InstanceType<typeof AppendReq>
export type AppendResp = InstanceType<typeof AppendResp>
export type BatchAppendReq = InstanceType<typeof BatchAppendReq>
export type BatchAppendResp = InstanceType<typeof BatchAppendResp>
export const { Empty, UUID, StreamIdentifier, AllStreamPosition, WrongExpectedVersion, Timeout } = sharedPb
export type UUID = InstanceType<typeof UUID>
export type StreamIdentifier = InstanceType<typeof StreamIdentifier>
export const { Status } = statusPb
export const { SupportedMethod, SupportedMethods } = serverFeaturesPb
export const { StreamsService } = streamsGrpc
export const { ServerFeaturesService } = serverFeaturesGrpc
export const { Any } = anyPb
export const GoogleEmpty = emptyPb.Empty
export type { IStreamsServer } from "@eventstore/db-client/generated/streams_grpc_pb.js"
export type { IServerFeaturesServer } from "@eventstore/db-client/generated/serverfeatures_grpc_pb.js"

// The persistent subscriptions contract; its messages share names with the Streams service's, hence the prefix.
export const { PersistentSubscriptionsService } = persistentGrpc
export const {
  ReadReq: PsReadReq,
  ReadResp: PsReadResp,
  CreateReq: PsCreateReq,
  CreateResp: PsCreateResp,
  DeleteReq: PsDeleteReq,
  DeleteResp: PsDeleteResp,
  GetInfoReq: PsGetInfoReq,
  GetInfoResp: PsGetInfoResp,
  SubscriptionInfo: PsSubscriptionInfo,
} = persistentPb
export type PsReadReqT = InstanceType<typeof PsReadReq>
export type PsReadRespT = InstanceType<typeof PsReadResp>
export type PsCreateReqT = InstanceType<typeof PsCreateReq>
export type PsDeleteReqT = InstanceType<typeof PsDeleteReq>
export type PsGetInfoReqT = InstanceType<typeof PsGetInfoReq>
