// Folds ledger events into the vault's ledger (in place).
import { findNetwork } from "../chains/index.js"
import { absurd } from "../shared/decider.js"
import type { LedgerEvent } from "./events.js"
import { balanceEffects } from "./effects.js"
import { depositKey, type Ledger } from "./state.js"

export const applyEffects = (s: Ledger, e: Parameters<typeof balanceEffects>[0]) => {
  for (const fx of balanceEffects(e)) {
    const h = s.holding(fx.blockchain, fx.network, fx.address, fx.assetId)
    h.total += fx.total
    h.blocked += fx.blocked
    h.staked += fx.staked
  }
}

export const evolveLedger = (s: Ledger, e: LedgerEvent): Ledger => {
  switch (e.type) {
    case "DepositCredited": {
      const d = e.data
      const key = depositKey(d.transactionId, d.vout)
      if (s.credited.has(key)) return s
      s.credited.add(key)
      applyEffects(s, e)
      const amount = BigInt(d.amount)
      // A batch's calls carry an index too; only a UTXO chain's outputs become spendable outputs.
      if (d.vout !== null && findNetwork(d.blockchain, d.network)?.family === "utxo")
        s.utxos.set(key, {
          transactionId: d.transactionId,
          vout: d.vout,
          address: d.address,
          blockchain: d.blockchain,
          network: d.network,
          amount,
        })
      return s
    }
    case "NotificationRaised":
      return s
    default:
      return absurd(e)
  }
}
