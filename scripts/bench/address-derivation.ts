// Benchmark: derived addresses per second for each chain family (fresh deriver, sequential indexes of one account).
import { sha256 } from "@noble/hashes/sha2.js"
import { utf8ToBytes } from "@noble/hashes/utils.js"
import { pathToFileURL } from "node:url"
import { WIDE_TABLE_AFTER } from "../../src/adapters/hd/public-child.js"
import { createAddressDeriver } from "../../src/adapters/hd/deriver.js"
import type { Blockchain, ChainFamily, NetworkName } from "../../src/domain/chains/index.js"

const COUNT = 2_000
const SEED = sha256(utf8ToBytes("custody-sim address-derivation bench"))

/** One network per family; for utxo the slowest encoding (cashaddr) as well as the common one. */
const CASES: ReadonlyArray<{
  readonly family: ChainFamily | `${ChainFamily}:${string}`
  readonly blockchain: Blockchain
  readonly network: NetworkName
}> = [
  { family: "utxo", blockchain: "bitcoin", network: "mainnet" },
  { family: "utxo:cashaddr", blockchain: "bitcoin-cash", network: "mainnet" },
  { family: "evm", blockchain: "ethereum", network: "mainnet" },
  { family: "tron", blockchain: "tron", network: "mainnet" },
  { family: "solana", blockchain: "solana", network: "mainnet" },
  { family: "xrp", blockchain: "xrp", network: "mainnet" },
]

/** perSecond is wall-clock; cpuPerSecond counts this process's CPU time only, steadier on a shared, busy machine. */
export const benchAddressDerivation = async (
  count = COUNT,
): Promise<Array<{ family: string; perSecond: number; cpuPerSecond: number }>> => {
  // Warm up: the curve libraries build their precomputed tables lazily, on first use, and a process that has derived
  // WIDE_TABLE_AFTER secp256k1 children builds a wider one (public-child.ts): the figures are a deriving process's.
  const warm = createAddressDeriver(sha256(utf8ToBytes("warm-up")))
  for (const { blockchain, network } of CASES)
    for (let index = 0; index < 50; index++) warm.derive(blockchain, network, { account: 0, change: 0, index })
  for (let index = 50; index <= WIDE_TABLE_AFTER; index++) warm.derive("ethereum", "mainnet", { account: 0, change: 0, index })
  return CASES.map(({ family, blockchain, network }) => {
    const deriver = createAddressDeriver(SEED)
    const started = performance.now()
    const cpuStarted = process.cpuUsage()
    for (let index = 0; index < count; index++) deriver.derive(blockchain, network, { account: 0, change: 0, index })
    const cpu = process.cpuUsage(cpuStarted)
    const seconds = (performance.now() - started) / 1000
    return { family, perSecond: Math.round(count / seconds), cpuPerSecond: Math.round(count / ((cpu.user + cpu.system) / 1e6)) }
  })
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href
if (isMain) {
  const results = await benchAddressDerivation()
  for (const r of results)
    console.log(`${r.family.padEnd(14)} ${String(r.perSecond).padStart(8)} addresses/s  (${r.cpuPerSecond} per CPU second)`)
}
