// AddressDerivation adapter: one HD key tree per vault, its seed an HMAC of the workspace seed and the vault id.
import { createHmac } from "node:crypto"
import { Layer } from "effect"
import { AddressDerivation } from "../commands/services.js"
import type { Blockchain, NetworkName } from "../domain/chains/index.js"
import { createAddressDeriver, type AddressDeriver } from "./hd/deriver.js"

export const makeDerivation = (workspaceSeed: Uint8Array, maxVaults = 256) => {
  const derivers = new Map<string, AddressDeriver>()
  const deriverOf = (vaultId: string) => {
    let d = derivers.get(vaultId)
    if (d === undefined) {
      d = createAddressDeriver(new Uint8Array(createHmac("sha512", workspaceSeed).update(`vault:${vaultId}`).digest()))
      if (derivers.size >= maxVaults) derivers.delete(derivers.keys().next().value!)
      derivers.set(vaultId, d)
    }
    return d
  }
  // Derived addresses are kept (the most recent 4,096): deposits from outside draw their sender from a small pool of
  // "external" addresses, and previews and fee estimates (utxo-transfer/validate, approximate-fee) derive the same
  // next change address on every call. A derivation is a pure function of the seed, the vault and the path.
  const derived = new Map<string, { address: string; derivationPath: string }>()
  return {
    derive: (vaultId: string, blockchain: string, network: string, path: { account: number; change: 0 | 1; index: number }) => {
      const key = `${vaultId}|${blockchain}|${network}|${path.account}|${path.change}|${path.index}`
      let d = derived.get(key)
      if (d === undefined) {
        d = deriverOf(vaultId).derive(blockchain as Blockchain, network as NetworkName, path)
        if (derived.size >= 4096) derived.delete(derived.keys().next().value!)
        derived.set(key, d)
      }
      return d
    },
  }
}

export const derivationLayer = (d: ReturnType<typeof makeDerivation>) => Layer.succeed(AddressDerivation, d)
