// The catalogue's ERC-20 contracts as an EVM node would answer them: eth_call of the read functions, the
// transfer call a token transaction carries, and the Transfer event's topics (ABI coding by micro-eth-signer).
import { createContract, ERC20, events } from "micro-eth-signer/abi.js"
import type { TokenInfo } from "../../domain/chains/index.js"

const erc20 = createContract(ERC20)
const transferEvent = events(ERC20).Transfer
/** Return values and arguments coded as a function's parameter tuple (encodeInput less its selector). */
const tuples = createContract([
  { type: "function", name: "uint", inputs: [{ type: "uint256" }] },
  { type: "function", name: "text", inputs: [{ type: "string" }] },
  { type: "function", name: "account", outputs: [{ type: "address" }] },
] as const)

const hexOf = (b: Uint8Array): string => `0x${Buffer.from(b).toString("hex")}`
const selectorOf = (b: Uint8Array): string => hexOf(b.slice(0, 4))

const selectors = {
  balanceOf: selectorOf(erc20.balanceOf.encodeInput("0x0000000000000000000000000000000000000000")),
  decimals: selectorOf(erc20.decimals.encodeInput()),
  symbol: selectorOf(erc20.symbol.encodeInput()),
  name: selectorOf(erc20.name.encodeInput()),
  totalSupply: selectorOf(erc20.totalSupply.encodeInput()),
} as const

export const uintWord = (v: bigint): string => hexOf(tuples.uint.encodeInput(v).slice(4))
const textWord = (s: string): string => hexOf(tuples.text.encodeInput(s).slice(4))

/** The Transfer event's topics for a transfer from → to. */
export const transferTopics = (from: string, to: string): Array<string> => transferEvent.topics({ from, to, value: null }).map((t) => t!)

/** The input data of `transfer(to, amount)`. */
export const transferInput = (to: string, amount: bigint): string => hexOf(erc20.transfer.encodeInput({ to, value: amount }))

/** What an eth_call reads of the token, given how to find balances and supply; undefined for a call it has no answer to. */
export const callToken = (
  token: TokenInfo,
  data: string,
  reads: { readonly balanceOf: (account: string) => bigint; readonly totalSupply: () => bigint },
): string | undefined => {
  const selector = data.slice(0, 10).toLowerCase()
  switch (selector) {
    case selectors.balanceOf: {
      const args = Buffer.from(data.slice(10), "hex")
      if (args.length !== 32) return undefined
      return uintWord(reads.balanceOf(tuples.account.decodeOutput(args) as string))
    }
    case selectors.decimals:
      return uintWord(BigInt(token.decimals))
    case selectors.symbol:
      return textWord(token.symbol)
    case selectors.name:
      return textWord(token.name)
    case selectors.totalSupply:
      return uintWord(reads.totalSupply())
    default:
      return undefined
  }
}
