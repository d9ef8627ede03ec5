// Settlement of one chain: everything its blocks confirm, deposits credited, withdrawals recorded mined, then
// successful. Called after a chain's append and on every clock advance (confirmations come with time).
import { Effect } from "effect"
import { settleDeposits } from "./deposits.js"
import { settleWithdrawals } from "./withdrawals.js"

export const settle = (chain: string) =>
  Effect.gen(function* () {
    yield* settleDeposits(chain)
    yield* settleWithdrawals(chain)
  })
