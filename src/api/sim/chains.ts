// Control plane: external deposits, mining and mining modes, chain status.
import {
  allNetworks,
  canonicalExternalAddress,
  findAsset,
  findNetwork,
  validateAddress,
  type Blockchain,
  type NetworkName,
} from "../../domain/chains/index.js"
import { parsePositiveAmount } from "../../domain/shared/money.js"
import { chainKey } from "../../chain-sim/index.js"
import { chainDefaults, configureChain, mineBlocks } from "../../commands/chain-mining.js"
import { submitDeposit } from "../../commands/chain-deposits.js"
import { checkAttributes, checks } from "../body.js"
import type { ApiDeps } from "../deps.js"
import { errors, isApiError } from "../errors.js"
import type { SimRoute } from "./common.js"
import { runCommand } from "../use-case.js"

const chainJson = (deps: ApiDeps, blockchain: string, network: string) => {
  const n = findNetwork(blockchain, network)!
  const s = deps.sim.models.chains.chain(chainKey(blockchain, network))?.state.latest()
  const schedule = s?.schedule ?? { ...chainDefaults(n), anchorHeight: 0, anchorAt: deps.sim.clock.now() }
  return {
    blockchain,
    network,
    networkType: n.networkType,
    height: deps.sim.models.chains.heightAt(chainKey(blockchain, network), deps.sim.clock.now()),
    mode: schedule.mode,
    intervalSeconds: schedule.intervalSeconds,
    confirmationsRequired: schedule.confirmations,
  }
}

const networkParam = (params: Record<string, string>) => findNetwork(params.blockchain ?? "", params.network ?? "")
const unknownChain = () => errors.resourceNotFound("chain (blockchain and network)")

export const chainRoutes: ReadonlyArray<SimRoute> = [
  {
    method: "GET",
    path: "/_sim/chains",
    handle: (_, deps) => ({ status: 200, body: { chains: allNetworks().map((n) => chainJson(deps, n.blockchain, n.network)) } }),
  },
  {
    method: "POST",
    path: "/_sim/chains/:blockchain/:network/mine",
    handle: async ({ params, body }, deps) => {
      const n = networkParam(params)
      if (n === undefined) return unknownChain()
      const bad = checkAttributes(
        body,
        {
          optional: {
            blocks: (v) =>
              Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 1_000_000 ? undefined : "must be an integer from 1 to 1000000",
          },
        },
        errors.extraBodyAttributes,
      )
      if (bad !== undefined) return bad
      const r = await runCommand(deps, mineBlocks(n, (body.blocks as number | undefined) ?? 1))
      if (isApiError(r)) return r
      return { status: 200, body: { height: deps.sim.models.chains.chain(chainKey(n.blockchain, n.network))?.state.latest()?.height ?? 0 } }
    },
  },
  {
    method: "PUT",
    path: "/_sim/chains/:blockchain/:network/mining",
    handle: async ({ params, body }, deps) => {
      const n = networkParam(params)
      if (n === undefined) return unknownChain()
      const positiveInt = (max: number) => (v: unknown) =>
        Number.isInteger(v) && (v as number) >= 1 && (v as number) <= max ? undefined : `must be an integer from 1 to ${max}`
      const bad = checkAttributes(
        body,
        {
          optional: {
            mode: checks.oneOf(["auto", "interval", "manual"]),
            intervalSeconds: positiveInt(86_400),
            confirmations: positiveInt(10_000),
          },
        },
        errors.extraBodyAttributes,
      )
      if (bad !== undefined) return bad
      const r = await runCommand(deps, configureChain(n, body as never))
      if (isApiError(r)) return r
      return { status: 200, body: chainJson(deps, n.blockchain, n.network) }
    },
  },
  {
    method: "POST",
    path: "/_sim/deposits",
    handle: async ({ body }, deps) => {
      const bad = checkAttributes(
        body,
        {
          required: {
            blockchain: checks.string({ min: 1 }),
            network: checks.string({ min: 1 }),
            address: checks.string({ min: 1, max: 200 }),
            assetId: checks.string({ min: 1 }),
            amount: checks.string({ min: 1, max: 100 }),
          },
          optional: { fromAddress: checks.string({ min: 1, max: 200 }) },
        },
        errors.extraBodyAttributes,
      )
      if (bad !== undefined) return bad
      const n = findNetwork(body.blockchain as string, body.network as string)
      if (n === undefined) return unknownChain()
      const asset = findAsset(body.assetId as string)
      if (asset === undefined || asset.blockchain !== n.blockchain || asset.network !== n.network)
        return errors.resourceNotFound("asset on this chain")
      const amount = parsePositiveAmount(body.amount as string, asset.decimals)
      if (!amount.ok)
        return errors.invalidData([{ attribute: "amount", message: `must be a positive decimal with at most ${asset.decimals} decimals` }])
      const address = body.address as string
      if (!validateAddress(n.blockchain as Blockchain, n.network as NetworkName, address))
        return errors.invalidData([{ attribute: "address", message: `is not a valid ${n.blockchain}/${n.network} address` }])
      // Canonical at the edge: the vault address in the form it was derived, whatever spelling the call used.
      const holding = deps.sim.models.holdings.address(n.blockchain, n.network, address, undefined)
      if (holding === undefined) return errors.resourceNotFound("vault address")
      const from = body.fromAddress as string | undefined
      if (from !== undefined && !validateAddress(n.blockchain as Blockchain, n.network as NetworkName, from))
        return errors.invalidData([{ attribute: "fromAddress", message: `is not a valid ${n.blockchain}/${n.network} address` }])
      const r = await runCommand(
        deps,
        submitDeposit({
          network: n,
          assetId: asset.id,
          to: holding.facts.address,
          amount: amount.value,
          ...(from !== undefined ? { from: canonicalExternalAddress(from) } : {}),
        }),
      )
      if (isApiError(r)) return r
      return { status: 201, body: { transactionId: r.transactionId } }
    },
  },
]
