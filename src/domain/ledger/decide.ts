// Ledger decisions: a confirmed deposit is credited once, and only to an address that holds the asset
// (the spec's retroactive rule: a deposit of an asset not added waits until it is added).
import { absurd, accept, type Decision } from "../shared/decider.js"
import type { VaultAccounts } from "../vault-account/state.js"
import type { LedgerCommand } from "./commands.js"
import type { LedgerEvent } from "./events.js"
import { depositKey, type Ledger, type LedgerError } from "./state.js"

export const decideLedger = (c: LedgerCommand, accounts: VaultAccounts, ledger: Ledger): Decision<LedgerEvent, LedgerError> => {
  switch (c.type) {
    case "CreditDeposits": {
      const events: Array<LedgerEvent> = []
      const seen = new Set<string>()
      for (const d of c.deposits) {
        const key = depositKey(d.transactionId, d.vout)
        if (ledger.credited.has(key) || seen.has(key)) continue
        const address = accounts.address(d.blockchain, d.network, d.address)
        if (address === undefined || !address.assets.has(d.assetId)) continue
        seen.add(key)
        events.push({
          type: "DepositCredited",
          data: {
            vaultId: d.vaultId,
            vaultAccountId: address.vaultAccountId,
            transactionId: d.transactionId,
            blockchain: d.blockchain,
            network: d.network,
            address: d.address,
            fromAddress: d.fromAddress,
            assetId: d.assetId,
            amount: d.amount,
            blockHeight: d.blockHeight,
            blockHash: d.blockHash,
            confirmations: d.confirmations,
            vout: d.vout,
            at: c.now,
          },
        })
        events.push({
          type: "NotificationRaised",
          data: {
            vaultId: d.vaultId,
            kind: d.assetType === "COIN" ? "INCOMING_CONFIRMED_COIN_TX" : "INCOMING_CONFIRMED_TOKEN_TX",
            subject: d.transactionId,
            payload: {
              blockchain: d.blockchain,
              network: d.network,
              address: d.address,
              amount: d.decimalsAmount,
              unit: d.unit,
              transactionId: d.transactionId,
              minedInBlockHeight: d.blockHeight,
              minedInBlockHash: d.blockHash,
              currentConfirmations: d.confirmations,
              targetConfirmations: d.confirmations,
            },
            at: c.now,
          },
        })
      }
      return accept(...events)
    }
    default:
      return absurd(c.type)
  }
}
