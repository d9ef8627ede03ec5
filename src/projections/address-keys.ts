// addressKey for the folds, remembered per address as written in the log: a million-event rebuild meets the same
// few addresses over and over, and a lookup is cheaper than canonicalising and concatenating each time.
import { addressKey } from "../domain/vault-account/state.js"
import { keepAside } from "./storage/not-state.js"

/** The last address asked for and its key: not state (a non-enumerable property, neither saved nor copied). */
interface Last {
  blockchain: string
  network: string
  address: string
  key: string
  /** The chain's map of addresses to keys (the last blockchain and network asked for). */
  keys: Map<string, string>
}

export class AddressKeys {
  private readonly byChain = new Map<string, Map<string, Map<string, string>>>()

  declare private last: Last | undefined

  /**
   * Only for addresses read from the log (bounded by it); requests' addresses go through addressKey itself. The folds
   * of one event ask for the same address one after another (a submission: the chains model, then the transactions
   * model), and events of one chain follow one another: the last address and the last chain's map are tried first.
   */
  of(blockchain: string, network: string, address: string): string {
    let last = this.last
    if (last !== undefined && last.network === network && last.blockchain === blockchain) {
      if (last.address === address) return last.key
    } else {
      let networks = this.byChain.get(blockchain)
      if (networks === undefined) this.byChain.set(blockchain, (networks = new Map()))
      let keys = networks.get(network)
      if (keys === undefined) networks.set(network, (keys = new Map()))
      if (last === undefined) {
        last = keepAside(this, "last", { blockchain, network, address: "", key: "", keys })
      } else {
        last.blockchain = blockchain
        last.network = network
        last.keys = keys
      }
    }
    let key = last.keys.get(address)
    if (key === undefined) last.keys.set(address, (key = addressKey(blockchain, network, address)))
    last.address = address
    last.key = key
    return key
  }
}
