// Counterexamples the model-based test found, shrunk and kept as fixed examples: they run first on every seed.
import { findTestAsset } from "../../../src/testing/arbitraries.js"
import { AddAssetCommand } from "./AddAssetCommand.js"
import { ApproveCommand } from "./ApproveCommand.js"
import { ContractInteractionCommand } from "./ContractInteractionCommand.js"
import { CreateAccountCommand } from "./CreateAccountCommand.js"
import { DepositCommand } from "./DepositCommand.js"
import { BatchCommand } from "./BatchCommand.js"
import { GasSponsoredCommand } from "./GasSponsoredCommand.js"
import { InjectFaultCommand } from "./InjectFaultCommand.js"
import { EvmCoinRequestCommand } from "./EvmCoinRequestCommand.js"
import { RejectCommand } from "./RejectCommand.js"
import type { ModelCommand } from "./run.js"
import type { Model } from "./world.js"
import { SetMiningCommand } from "./SetMiningCommand.js"
import { TronFeelessCommand } from "./TronFeelessCommand.js"
import { UtxoRequestCommand } from "./UtxoRequestCommand.js"

export interface Regression {
  /** How it was found: the seed and path fast-check printed, and what failed. */
  readonly found: string
  readonly commands: ReadonlyArray<ModelCommand>
  /** The approval policy the run starts with (default auto). */
  readonly policy?: Model["policy"]
}

export const REGRESSIONS: ReadonlyArray<Regression> = [
  {
    found:
      "seed 20261122, path 4:2:1:1:1:1:1:1:1:1:1:1 (replayPath KMc:F), with a bug injected on purpose (src/domain/ledger/effects.ts not releasing a rejected request's reservation): BTC blocked with no open request",
    commands: [new UtxoRequestCommand([1n], "slow", undefined), new RejectCommand(0)],
    policy: { mode: "manual", levels: 1 },
  },
  {
    found: "seed 42, path 90:3:4:3:5:5:5:6:5: a deposit's block gave a mined withdrawal its confirmations, it stayed mined",
    commands: [
      new SetMiningCommand("bitcoin/testnet", { mode: "auto", confirmations: 2 }),
      new UtxoRequestCommand([1n], "slow", undefined),
      new DepositCommand(findTestAsset("BTC"), 0, 1_000n),
    ],
  },
  {
    found: "by hand, the other way round: a withdrawal's block gave a deposit its confirmations, it stayed uncredited",
    commands: [
      new SetMiningCommand("ethereum/sepolia", { mode: "auto", confirmations: 2 }),
      new DepositCommand(findTestAsset("ETH"), 0, 10n ** 13n),
      new EvmCoinRequestCommand(0, 1n, "slow"),
    ],
  },
  {
    found: "seed 42, path 1:1:0: #14 showed a tron transfer's maximum fee, 0.268 TRX, where free bandwidth paid it",
    commands: [new TronFeelessCommand(0, 1n)],
  },
  {
    found:
      "by hand: under a manual policy a sponsored USDC transfer holds the fee payer's ETH; a second sponsored transfer and a withdrawal from the fee payer race for what is left and are refused; approval spends the fee there",
    commands: [
      new CreateAccountCommand(),
      new AddAssetCommand(1, findTestAsset("ETH")),
      new DepositCommand(findTestAsset("ETH"), 1, 10n ** 14n),
      new GasSponsoredCommand(findTestAsset("USDC", "ethereum"), 0, 0, 1_000_000n, "slow"),
      new GasSponsoredCommand(findTestAsset("ETH"), 0, 0, 1n, "slow"),
      new EvmCoinRequestCommand(1, 5n * 10n ** 12n, "slow"),
      new ApproveCommand(0),
      new EvmCoinRequestCommand(1, 1n, "slow"),
      new GasSponsoredCommand(findTestAsset("ETH"), 1, 0, 10n ** 13n, "fast"),
      new RejectCommand(0),
    ],
    policy: { mode: "manual", levels: 1 },
  },
  {
    found:
      "by hand: a batch reserves the sender's USDC and ETH and the fee payer's ETH at once; a gas-sponsored transfer and a batch racing for the same USDC are refused; an execution fault reverts every call",
    commands: [
      new CreateAccountCommand(),
      new AddAssetCommand(1, findTestAsset("ETH")),
      new DepositCommand(findTestAsset("ETH"), 1, 4n * 10n ** 14n),
      new BatchCommand(
        [
          { asset: findTestAsset("USDC", "ethereum"), amount: 60_000_000n },
          { asset: findTestAsset("ETH"), amount: 10n ** 13n },
        ],
        0,
        0,
        "slow",
      ),
      new GasSponsoredCommand(findTestAsset("USDC", "ethereum"), 0, 0, 50_000_000n, "slow"),
      new BatchCommand(
        [
          { asset: findTestAsset("USDC", "ethereum"), amount: 20_000_000n },
          { asset: findTestAsset("USDC", "ethereum"), amount: 30_000_000n },
        ],
        0,
        0,
        "slow",
      ),
      new InjectFaultCommand("ethereum/sepolia", "execution-failure"),
      new ApproveCommand(0),
      new BatchCommand([{ asset: findTestAsset("USDC", "ethereum"), amount: 1n }], 0, 0, "fast"),
      new ApproveCommand(3),
    ],
    policy: { mode: "manual", levels: 1 },
  },
  {
    found:
      "by hand: TRC-20 contract interaction between the given tron address (USDT) and a second one paying TRX: a transfer-from before any approve is mined with errors (the fee spent at the fee payer, no USDT moved), then approve, then a transfer-from within the allowance",
    commands: [
      new CreateAccountCommand(),
      new AddAssetCommand(1, findTestAsset("TRX")),
      new DepositCommand(findTestAsset("TRX"), 1, 100_000_000n),
      new ContractInteractionCommand("transfer-from", 0, 0, 1_000_000n),
      new ContractInteractionCommand("approve", 0, 0, 0n),
      new ContractInteractionCommand("transfer-from", 0, 0, 2_000_000n),
    ],
  },
  {
    found: "by hand: the same under a manual policy: no transfer-from while the approve waits; approved, the transfer-from moves the USDT",
    commands: [
      new CreateAccountCommand(),
      new AddAssetCommand(1, findTestAsset("TRX")),
      new DepositCommand(findTestAsset("TRX"), 1, 100_000_000n),
      new ContractInteractionCommand("approve", 0, 0, 0n),
      new ContractInteractionCommand("transfer-from", 0, 0, 1_000_000n),
      new ApproveCommand(0),
      new ContractInteractionCommand("transfer-from", 0, 0, 1_000_000n),
      new ApproveCommand(0),
    ],
    policy: { mode: "manual", levels: 1 },
  },
]
