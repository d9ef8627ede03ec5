// addressKey for the folds, remembered per address as written in the log: a million-event rebuild meets the same
// few addresses over and over, and a lookup is cheaper than canonicalising and concatenating each time.
import { addressKey } from "../domain/vault-account/state.js"

export class AddressKeys {
  private readonly byChain = new Map<string, Map<string, Map<string, string>>>()

  /** Only for addresses read from the log (bounded by it); requests' addresses go through addressKey itself. */
  of(blockchain: string, network: string, address: string): string {
    let networks = this.byChain.get(blockchain)
    if (networks === undefined) this.byChain.set(blockchain, (networks = new Map()))
    let keys = networks.get(network)
    if (keys === undefined) networks.set(network, (keys = new Map()))
    let key = keys.get(address)
    if (key === undefined) keys.set(address, (key = addressKey(blockchain, network, address)))
    return key
  }
}
