// One scripted flow run in a world over HTTP (an address, a deposit mined, an account, a withdrawal), and what it
// leaves: the audit digest and the ids the world gave.
import type { Credentials } from "../../src/client/signing.js"
import { assetId } from "./catalogue.js"
import type { Reply } from "./worlds-server.js"

/** A world's way in: its admin token and first key, over one server's calls. */
export interface WorldHandle {
  readonly adminToken: string
  readonly key: Credentials
  readonly testVaultId: string
  readonly admin: (method: string, path: string, body?: unknown) => Promise<Reply>
  readonly signed: (method: string, path: string, item?: unknown) => Promise<Reply>
}

export interface FlowResult {
  readonly address: string
  readonly accountId: string
  readonly requestId: string
  readonly digest: string
}

const ok = (r: Reply, what: string): Reply => {
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`)
  return r
}

export const digestOf = async (w: WorldHandle): Promise<string> => ok(await w.admin("GET", "/_sim/audit"), "audit").body.digest.sha256

export const runFlow = async (w: WorldHandle): Promise<FlowResult> => {
  const ETH = assetId("ethereum", "sepolia", "ETH")
  ok(await w.admin("PUT", "/_sim/chains/ethereum/sepolia/mining", { mode: "auto", confirmations: 1 }), "mining")
  const derived = ok(await w.signed("POST", `/vaults/${w.testVaultId}/ethereum/sepolia/addresses`, { label: "flow" }), "derive")
  const address = derived.body.data.item.address as string
  ok(
    await w.admin("POST", "/_sim/deposits", { blockchain: "ethereum", network: "sepolia", address, assetId: ETH, amount: "1.5" }),
    "deposit",
  )
  ok(await w.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 2 }), "mine")
  const account = ok(
    await w.signed("POST", `/vaults/${w.testVaultId}/vault-account`, { name: "flow", color: "#000000", isHiddenInDashboard: false }),
    "account",
  )
  const sent = ok(
    await w.signed("POST", `/vaults/${w.testVaultId}/ethereum/sepolia/addresses/${address}/transaction-requests`, {
      recipientAddress: "0x000000000000000000000000000000000000dEaD",
      amount: "0.25",
      note: "flow",
      feePriority: "standard",
    }),
    "withdrawal",
  )
  ok(await w.admin("POST", "/_sim/chains/ethereum/sepolia/mine", { blocks: 3 }), "mine")
  return {
    address,
    accountId: account.body.data.item.vaultAccountId,
    requestId: sent.body.data.item.transactionRequestId ?? sent.body.data.item.id,
    digest: await digestOf(w),
  }
}
