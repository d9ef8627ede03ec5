// The model-based test's command arbitraries: every action of the API and the control plane, weighted towards
// money moving, with small amounts (the testing entry's arbitraries) and picks resolved when a command runs.
import fc from "fast-check"
import { findTestAsset, type TestAsset } from "../../../src/testing/arbitraries.js"
import { custody } from "../arbitraries/base-units.js"
import { AddAssetCommand } from "./AddAssetCommand.js"
import { AdvanceClockCommand } from "./AdvanceClockCommand.js"
import { ApproveCommand } from "./ApproveCommand.js"
import { ContractInteractionCommand } from "./ContractInteractionCommand.js"
import { CreateAccountCommand } from "./CreateAccountCommand.js"
import { DepositCommand } from "./DepositCommand.js"
import { DeriveAddressCommand } from "./DeriveAddressCommand.js"
import { EvmCoinRequestCommand } from "./EvmCoinRequestCommand.js"
import { EvmTokenRequestCommand } from "./EvmTokenRequestCommand.js"
import { BatchCommand } from "./BatchCommand.js"
import { GasSponsoredCommand } from "./GasSponsoredCommand.js"
import { InjectFaultCommand } from "./InjectFaultCommand.js"
import { ManageResourceCommand } from "./ManageResourceCommand.js"
import { MineCommand } from "./MineCommand.js"
import { RejectCommand } from "./RejectCommand.js"
import { SetMiningCommand } from "./SetMiningCommand.js"
import { SetPolicyCommand } from "./SetPolicyCommand.js"
import { SingleTransferCommand } from "./SingleTransferCommand.js"
import { SingleTransfer2026Command } from "./SingleTransfer2026Command.js"
import { TronFeelessCommand } from "./TronFeelessCommand.js"
import { TronFeelessTokenCommand } from "./TronFeelessTokenCommand.js"
import { UtxoRequestCommand } from "./UtxoRequestCommand.js"
import { UtxoTransferCommand } from "./UtxoTransferCommand.js"
import { MultipleTransferCommand, STRATEGIES } from "./MultipleTransferCommand.js"
import { chainKey, type Model, type Real } from "./world.js"

type Cmd = fc.AsyncCommand<Model, Real>

const pick = fc.nat({ max: 15 })
const chain = custody.testChain.map(chainKey)
const accountBased = custody.testAsset((a) => a.blockchain !== "bitcoin")
/** Withdrawals up to half the largest deposit: often affordable, sometimes not. */
const spend = (a: TestAsset) => custody.baseUnits(a.deposit.max / 2n)

const deposit = custody
  .testAsset()
  .chain((a) => fc.tuple(pick, custody.baseUnits(a.deposit.max, a.deposit.min)).map(([to, amount]) => new DepositCommand(a, to, amount)))

export const modelCommands: ReadonlyArray<fc.Arbitrary<Cmd>> = [
  fc.constant(new CreateAccountCommand()),
  fc.tuple(pick, custody.testAsset()).map(([account, asset]) => new AddAssetCommand(account, asset)),
  fc.tuple(pick, chain).map(([account, c]) => new DeriveAddressCommand(account, c)),
  deposit,
  deposit,
  deposit,
  fc.tuple(chain, custody.blocks).map(([c, n]) => new MineCommand(c, n)),
  fc.tuple(chain, custody.mining).map(([c, s]) => new SetMiningCommand(c, s)),
  custody.clockSeconds.map((s) => new AdvanceClockCommand(s)),
  custody.approvalPolicy.map((p) => new SetPolicyCommand(p)),
  custody.approvalPolicy.map((p) => new SetPolicyCommand(p)),
  accountBased.chain((a) =>
    fc.tuple(pick, spend(a), custody.feePriority).map(([from, amount, p]) => new SingleTransferCommand(a, from, amount, p)),
  ),
  accountBased.chain((a) =>
    fc
      .tuple(pick, spend(a), custody.feePriority, fc.constantFrom("none" as const, "estimate" as const, "below" as const))
      .map(([from, amount, p, c]) => new SingleTransfer2026Command(a, from, amount, p, c)),
  ),
  fc
    .tuple(
      fc.array(spend(findTestAsset("BTC")), { minLength: 1, maxLength: 2 }),
      custody.feePriority,
      fc.option(fc.constantFrom("minimize_dust" as const, "optimize_size" as const), { nil: undefined }),
    )
    .map(([amounts, p, s]) => new UtxoRequestCommand(amounts, p, s)),
  fc.tuple(pick, spend(findTestAsset("ETH")), custody.feePriority).map(([from, amount, p]) => new EvmCoinRequestCommand(from, amount, p)),
  fc
    .tuple(pick, spend(findTestAsset("USDC", "ethereum")), custody.feePriority)
    .map(([from, amount, p]) => new EvmTokenRequestCommand(from, amount, p)),
  fc.tuple(pick, spend(findTestAsset("TRX"))).map(([from, amount]) => new TronFeelessCommand(from, amount)),
  fc
    .tuple(pick, spend(findTestAsset("USDT", "tron")), fc.option(custody.baseUnits(5_000_000n, 1_000_000n), { nil: undefined }))
    .map(([from, amount, limit]) => new TronFeelessTokenCommand(from, amount, limit)),
  fc
    .tuple(fc.constantFrom(findTestAsset("ETH"), findTestAsset("USDC", "ethereum")), pick, pick, custody.feePriority)
    .chain(([a, from, payer, p]) => spend(a).map((amount) => new GasSponsoredCommand(a, from, payer, amount, p))),
  fc
    .tuple(
      fc.array(pick, { minLength: 1, maxLength: 3 }),
      fc.array(spend(findTestAsset("BTC")), { minLength: 1, maxLength: 2 }),
      custody.feePriority,
      fc.boolean(),
      fc.constantFrom("default" as const, "account" as const, "address" as const, "feePayer" as const),
      pick,
      fc.option(fc.bigInt({ min: 0n, max: 5_000n }), { nil: undefined }),
    )
    .map(
      ([inputs, amounts, p, gross, change, target, maxFee]) => new UtxoTransferCommand(inputs, amounts, p, gross, change, target, maxFee),
    ),
  fc
    .tuple(
      pick,
      fc.array(spend(findTestAsset("BTC")), { minLength: 1, maxLength: 2 }),
      custody.feePriority,
      fc.constantFrom(...STRATEGIES),
      fc.boolean(),
      fc.option(fc.bigInt({ min: 0n, max: 5_000n }), { nil: undefined }),
    )
    .map(([account, amounts, p, s, gross, maxFee]) => new MultipleTransferCommand(account, amounts, p, s, gross, maxFee)),
  fc
    .tuple(
      fc.array(
        fc
          .constantFrom(findTestAsset("ETH"), findTestAsset("USDC", "ethereum"))
          .chain((a) => spend(a).map((amount) => ({ asset: a, amount }))),
        { minLength: 1, maxLength: 3 },
      ),
      pick,
      pick,
      custody.feePriority,
    )
    .map(([calls, from, payer, p]) => new BatchCommand(calls, from, payer, p)),
  fc
    .tuple(
      pick,
      fc.constantFrom("freeze" as const, "unfreeze" as const),
      fc.constantFrom("bandwidth" as const, "energy" as const),
      fc.integer({ min: 1, max: 5 }),
    )
    .map(([from, type, resource, trx]) => new ManageResourceCommand(from, type, resource, trx)),
  fc
    .tuple(fc.constantFrom("approve" as const, "transfer-from" as const), pick, pick, spend(findTestAsset("USDT", "tron")))
    .map(([method, from, payer, amount]) => new ContractInteractionCommand(method, from, payer, amount)),
  pick.map((i) => new ApproveCommand(i)),
  pick.map((i) => new ApproveCommand(i)),
  pick.map((i) => new RejectCommand(i)),
  pick.map((i) => new RejectCommand(i)),
  fc.tuple(chain, custody.fault).map(([c, kind]) => new InjectFaultCommand(c, kind)),
]

/** At most 30 commands a run: long enough to reach every status, short enough to read when it fails. */
export const MAX_COMMANDS = 30

export const commandSequences = (replayPath?: string) =>
  fc.commands([...modelCommands], { maxCommands: MAX_COMMANDS, size: "medium", ...(replayPath !== undefined ? { replayPath } : {}) })
