// java-tron's HTTP API answers (wallet/getnowblock, getblockbynum, gettransactionbyid, gettransactioninfobyid,
// getaccount), built from a chain index: amounts in sun, times in ms, addresses in base58 when `visible`, else in
// hex (41 ‖ the 20-byte account), as the full node writes them.
import { TRON_PREFIX, base58check } from "../../domain/chains/addresses/encode.js"
import { tronCost } from "../../domain/chains/fees.js"
import { findAsset } from "../../domain/chains/index.js"
import type { ChainIndex } from "./chain-index.js"
import { type ChainTx, legsOf, payerOf } from "./chain-tx.js"

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex")

/** A Tron address given in either form, as the simulator keeps it (base58); undefined when it is neither. */
export const tronAddress = (given: string): string | undefined => {
  try {
    if (/^41[0-9a-fA-F]{40}$/.test(given)) return base58check.encode(Buffer.from(given, "hex"))
    const b = base58check.decode(given)
    return b.length === 21 && b[0] === TRON_PREFIX ? given : undefined
  } catch {
    return undefined
  }
}

/** An address as java-tron shows it: base58 when visible, else hex 41…; an address not of Tron as given. */
export const showAddress = (address: string, visible: boolean): string => {
  if (visible) return address
  try {
    return hex(base58check.decode(address))
  } catch {
    return address
  }
}

/** A block id in java-tron's form: 64 hex digits, without 0x. */
const blockId = (ix: ChainIndex, height: number): string => ix.blockHash(height).replace(/^0x/, "")

/** The TRC-20 `transfer(address,uint256)` call data of a token leg. */
const transferData = (to: string, amount: bigint): string =>
  `a9059cbb${showAddress(to, false).slice(2).padStart(64, "0")}${amount.toString(16).padStart(64, "0")}`

/** A transaction as java-tron shows it: `ret` (the result of executing it) only once it is in a block. */
export const transactionJson = (tx: ChainTx, visible: boolean) => {
  const t = tx.transfer
  const asset = findAsset(t.assetId)
  const contract =
    asset?.type === "TOKEN"
      ? {
          parameter: {
            value: {
              data: transferData(t.to, BigInt(t.amount)),
              owner_address: showAddress(t.from, visible),
              contract_address: showAddress(asset.contract, visible),
            },
            type_url: "type.googleapis.com/protocol.TriggerSmartContract",
          },
          type: "TriggerSmartContract",
        }
      : {
          parameter: {
            value: { amount: Number(t.amount), owner_address: showAddress(t.from, visible), to_address: showAddress(t.to, visible) },
            type_url: "type.googleapis.com/protocol.TransferContract",
          },
          type: "TransferContract",
        }
  return {
    ...(tx.height !== undefined ? { ret: [{ contractRet: t.failsInExecution === true ? "REVERT" : "SUCCESS" }] } : {}),
    signature: [],
    txID: t.transactionId.replace(/^0x/, ""),
    raw_data: { contract: [contract], expiration: tx.submittedAt + 60_000, timestamp: tx.submittedAt },
  }
}

export const transactionInfoJson = (ix: ChainIndex, tx: ChainTx, visible: boolean) => {
  if (tx.height === undefined) return {}
  const token = findAsset(tx.transfer.assetId)?.type === "TOKEN"
  const fee = Number(tx.fee)
  const failed = tx.transfer.failsInExecution === true
  // The resources the catalogue's fee model charges such a transaction (README "Fees").
  const cost = tronCost(ix.network, token ? "token" : "coin")
  const bandwidth = Number(cost?.bandwidth ?? 0n)
  return {
    id: tx.transfer.transactionId.replace(/^0x/, ""),
    ...(fee > 0 ? { fee } : {}),
    blockNumber: tx.height,
    blockTimeStamp: ix.blockTime(tx.height),
    contractResult: [""],
    ...(token
      ? {
          contract_address: showAddress((findAsset(tx.transfer.assetId) as { contract: string }).contract, visible),
          receipt: {
            energy_usage_total: Number(cost?.energy ?? 0n),
            energy_fee: fee,
            net_usage: bandwidth,
            result: failed ? "REVERT" : "SUCCESS",
          },
          ...(failed ? { result: "FAILED" } : {}),
        }
      : { receipt: fee > 0 ? { net_fee: fee } : { net_usage: bandwidth } }),
  }
}

export const blockJson = (ix: ChainIndex, height: number, visible: boolean) => {
  const txs = ix.inBlock(height)
  return {
    blockID: blockId(ix, height),
    block_header: {
      raw_data: {
        number: height,
        timestamp: ix.blockTime(height),
        ...(height > 0 ? { parentHash: blockId(ix, height - 1) } : {}),
        version: 30,
      },
    },
    ...(txs.length > 0 ? { transactions: txs.map((t) => transactionJson(t, visible)) } : {}),
  }
}

/** Every window java-tron writes in an optimized account: a day of 3-second slots, in its precision of 1/1000 slot. */
const WINDOW = 28_800_000
/** What the active permission of a new account may do: every contract type a node accepts (java-tron's default). */
const ACTIVE_OPERATIONS = "7fff1fc0033ec30f000000000000000000000000000000000000000000000000"

/** An account's stake and resources as java-tron writes them for one that staked nothing (Stake 2.0), and its default permissions. */
const unstaked = (shown: string) => {
  const keys = [{ address: shown, weight: 1 }]
  return {
    net_window_size: WINDOW,
    net_window_optimized: true,
    account_resource: { energy_window_size: WINDOW, energy_window_optimized: true },
    owner_permission: { permission_name: "owner", threshold: 1, keys },
    active_permission: [{ type: "Active", id: 2, permission_name: "active", threshold: 1, operations: ACTIVE_OPERATIONS, keys }],
    frozenV2: [{}, { type: "ENERGY" }, { type: "TRON_POWER" }],
  }
}

/** getaccount: the coin balance and, where it holds any, TRC-20 balances; {} for an account the chain never saw. */
export const accountJson = (ix: ChainIndex, address: string, visible: boolean) => {
  const txs = ix.ofAddress(address)
  if (txs.length === 0) return {}
  const tokens = new Map<string, string>()
  for (const tx of txs)
    for (const leg of legsOf(tx.transfer)) {
      const asset = findAsset(leg.assetId)
      if (asset?.type === "TOKEN" && leg.contract !== undefined) tokens.set(asset.contract, leg.contract)
    }
  const trc20 = [...tokens].flatMap(([shown, key]) => {
    const b = ix.balanceAt(address, key, ix.tip)
    return b > 0n ? [{ [showAddress(shown, visible)]: b.toString() }] : []
  })
  const balance = Number(ix.balanceAt(address, undefined, ix.tip))
  // The time of the last block holding a transaction the account sent (java-tron's spelling).
  const operated = txs.filter((t) => t.blockAt !== undefined && payerOf(t.transfer) === address).at(-1)?.blockAt
  const shown = showAddress(address, visible)
  return {
    address: shown,
    ...(balance > 0 ? { balance } : {}),
    create_time: txs[0]!.submittedAt,
    ...(operated !== undefined ? { latest_opration_time: operated } : {}),
    ...unstaked(shown),
    ...(trc20.length > 0 ? { trc20 } : {}),
  }
}

/** gettransactionlistfrompending: the ids of the mempool's transactions ({} when it is empty). */
export const pendingIdsJson = (ix: ChainIndex) =>
  ix.pending.length === 0 ? {} : { txId: ix.pending.map((t) => t.transfer.transactionId.replace(/^0x/, "")) }
