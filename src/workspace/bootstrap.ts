// The start-up workspace (fixture or default): created once, even when several nodes start on one empty store.
import { Cause, Effect, Exit } from "effect"
import { AggregateCache, makeAggregateCache } from "../commands/aggregate-cache.js"
import { IdSequence } from "../commands/run-decider.js"
import { createApiKey, createVault } from "../commands/workspace.js"
import type { CommandServices } from "../commands/services.js"
import type { CreateApiKeyInput, CreateVaultInput } from "../commands/workspace.js"
import type { AssetAlias } from "../domain/chains/index.js"
import { idsLayer, makeIds, type SeededIds } from "../adapters/ids.js"

export interface Fixture {
  readonly seed?: string
  readonly adminToken?: string
  readonly vaults?: ReadonlyArray<CreateVaultInput>
  readonly apiKeys?: ReadonlyArray<CreateApiKeyInput>
  /** The workspace's own asset ids (read at every start, as `adminToken` is; the log keeps the catalogue's). */
  readonly assets?: ReadonlyArray<AssetAlias>
}

export interface CreatedCredentials {
  readonly key: string
  readonly secret: string
  readonly passphrase: string
}

type Run = <A, E>(effect: Effect.Effect<A, E, CommandServices>) => Promise<Exit.Exit<A, E>>

/** Another node's start-up wrote this resource first (or its append raced ours on the same stream). */
const LOST = new Set(["VaultAlreadyExists", "ApiKeyAlreadyExists", "WrongExpectedVersion"])

/**
 * Every node computes the same workspace: its ids come from the seed's plain sequence (node ""), whatever
 * this node's id, and its first event goes to `vault-<first id>` with expected revision `no_stream`. Two
 * nodes starting together therefore write the same event ids to the same streams: the loser's appends are
 * idempotent repeats or find the resource there, and it stops at the first such refusal. It uses a cache of
 * its own, so an idempotent repeat (same ids, the winner's data) leaves nothing stale in the node's cache.
 */
export const createStartupWorkspace = async (
  run: Run,
  fixture: Fixture,
  seed: string,
  ids: SeededIds,
): Promise<ReadonlyArray<CreatedCredentials>> => {
  const plain = ids.node === "" ? ids : makeIds(seed)
  const cache = makeAggregateCache()
  const step = async <A, E>(effect: Effect.Effect<A, E, CommandServices>): Promise<A | undefined> => {
    const exit = await run(
      effect.pipe(
        Effect.provide(idsLayer(plain)),
        Effect.provideService(IdSequence, { current: plain.sequence }),
        Effect.provideService(AggregateCache, cache),
      ),
    )
    if (Exit.isSuccess(exit)) return exit.value
    const error = Cause.findErrorOption(exit.cause)
    if (error._tag === "Some" && LOST.has((error.value as { readonly _tag?: string })._tag ?? "")) return undefined
    throw new Error(`start-up command failed: ${Cause.pretty(exit.cause)}`)
  }
  const created: Array<CreatedCredentials> = []
  for (const v of fixture.vaults ?? []) if ((await step(createVault(v))) === undefined) return created
  for (const k of fixture.apiKeys ?? []) {
    const r = await step(createApiKey(k))
    if (r === undefined) return created
    created.push({ key: r.grant.key, secret: r.grant.secret, passphrase: r.passphrase })
  }
  return created
}
