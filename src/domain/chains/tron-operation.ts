// What a tron transaction does besides moving value (Stake 2.0 staking, TRC-20 approve/transferFrom): the shared
// kernel's word for it, carried by transaction requests and executed by the simulated chain.
export type TronResource = "bandwidth" | "energy"

/** Amounts in base units (SUN, or the token's), integer strings. */
export type TronOperation =
  | { readonly type: "freeze"; readonly resource: TronResource; readonly amount: string }
  | { readonly type: "unfreeze"; readonly resource: TronResource; readonly amount: string }
  | { readonly type: "withdraw" }
  /** lockPeriod: blocks the delegation cannot be taken back for (0: not locked). */
  | {
      readonly type: "delegate"
      readonly resource: TronResource
      readonly amount: string
      readonly receiver: string
      readonly lockPeriod: number
    }
  | { readonly type: "undelegate"; readonly resource: TronResource; readonly amount: string; readonly receiver: string }
  /** TRC-20 approve(spender, allowance) by the token holder. */
  | { readonly type: "approve"; readonly token: string; readonly spender: string; readonly allowance: string }
  /** TRC-20 transferFrom(holder, to, amount) by the spender. */
  | { readonly type: "transfer-from"; readonly token: string; readonly spender: string; readonly amount: string }

/** The fee model's name for what a tron transaction is. */
export const tronTxKind = (native: boolean, op: TronOperation | undefined): "coin" | "token" | "approve" | "transfer-from" | "resource" =>
  op === undefined
    ? native
      ? "coin"
      : "token"
    : op.type === "approve"
      ? "approve"
      : op.type === "transfer-from"
        ? "transfer-from"
        : "resource"
