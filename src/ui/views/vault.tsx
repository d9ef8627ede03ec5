// A vault: its accounts (its default one first: id = the vault id, the vault's own addresses), the addresses of the
// chosen account with balances per asset, deposits and mining from there, and the vault's transactions.
import { useEffect, useState } from "preact/hooks"
import { send } from "../api.js"
import { ErrorLine, Head, Pager, Section, short, Table, usePager, type Page } from "../parts.js"
import { formatTime, useData, useShared } from "../state.js"
import type { Overview } from "./overview.js"

interface Account {
  vaultAccountId: string
  name: string
  color: string
  isDefault: boolean
  createdAt: number
}
interface AddressRow {
  address: string
  blockchain: string
  network: string
  label: string
  addressType: string
  vaultAccountId: string | null
  assets: ReadonlyArray<{
    assetId: string
    symbol: string
    totalAmount: string
    availableAmount: string
    blockedAmount: string
    allocatedAmount: string
  }>
}
export interface Catalogue {
  networks: ReadonlyArray<{ blockchain: string; network: string; networkType: string; nativeAssetId: string }>
  assets: ReadonlyArray<{
    id: string
    symbol: string
    name: string
    blockchain: string
    network: string
    networkType: string
    decimals: number
  }>
}

const CreateAccount = ({ vaultId, onCreated }: { vaultId: string; onCreated: (id: string) => void }) => {
  const { act, asOf } = useShared()
  const [name, setName] = useState("")
  return (
    <form
      class="inline"
      onSubmit={(e) => {
        e.preventDefault()
        void act("create a vault account", async () => {
          const r = await send<{ vaultAccountId: string }>("POST", `/_sim/vaults/${vaultId}/vault-accounts`, {
            name,
            color: "#4A6FA5",
            isHiddenInDashboard: false,
          })
          setName("")
          onCreated(r.vaultAccountId)
        })
      }}
    >
      <label>
        new account{" "}
        <input name="account-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} placeholder="name" />
      </label>
      <button type="submit" disabled={asOf !== null}>
        create account
      </button>
    </form>
  )
}

/** The vault's own network type only: a vault refuses the other's assets and networks. */
const ownAssets = (catalogue: Catalogue | undefined, vaultType: string) =>
  (catalogue?.assets ?? []).filter((a) => a.networkType === vaultType)

/** An account created in the vault: add an asset (REST #4), its address derived in that account. */
const AddAsset = ({ vaultId, accountId, vaultType }: { vaultId: string; accountId: string; vaultType: string }) => {
  const { act, asOf } = useShared()
  const { data } = useData<Catalogue>("/_sim/assets", { asOf: false })
  const assets = ownAssets(data, vaultType)
  const [assetId, setAssetId] = useState("")
  const chosen = assets.some((a) => a.id === assetId) ? assetId : (assets[0]?.id ?? "")
  return (
    <form
      class="inline"
      onSubmit={(e) => {
        e.preventDefault()
        void act("add an asset", () =>
          send("PUT", `/_sim/vaults/${vaultId}/vault-accounts/${accountId}/add-asset`, { assetId: chosen, label: "dashboard" }),
        )
      }}
    >
      <label>
        asset{" "}
        <select
          name="asset"
          data-network-type={vaultType}
          value={chosen}
          onChange={(e) => setAssetId((e.target as HTMLSelectElement).value)}
        >
          {assets.map((a) => (
            <option value={a.id} data-network-type={a.networkType}>
              {a.symbol} · {a.blockchain}/{a.network}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={asOf !== null || chosen === ""}>
        add asset
      </button>
    </form>
  )
}

/** The default account: a new address of the vault's own on a network (REST #6 without an account). */
const NewAddress = ({ vaultId, vaultType }: { vaultId: string; vaultType: string }) => {
  const { act, asOf } = useShared()
  const { data } = useData<Catalogue>("/_sim/assets", { asOf: false })
  const networks = (data?.networks ?? []).filter((n) => n.networkType === vaultType)
  const [key, setKey] = useState("")
  const chosen = networks.find((n) => `${n.blockchain}/${n.network}` === key) ?? networks[0]
  return (
    <form
      class="inline"
      onSubmit={(e) => {
        e.preventDefault()
        if (chosen !== undefined)
          void act("derive an address", () =>
            send("POST", `/_sim/vaults/${vaultId}/${chosen.blockchain}/${chosen.network}/addresses`, { label: "dashboard" }),
          )
      }}
    >
      <label>
        network{" "}
        <select
          name="network"
          data-network-type={vaultType}
          value={chosen === undefined ? "" : `${chosen.blockchain}/${chosen.network}`}
          onChange={(e) => setKey((e.target as HTMLSelectElement).value)}
        >
          {networks.map((n) => (
            <option value={`${n.blockchain}/${n.network}`} data-network-type={n.networkType}>
              {n.blockchain}/{n.network}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={asOf !== null || chosen === undefined}>
        new address
      </button>
    </form>
  )
}

const Deposit = ({ row, assetId }: { row: AddressRow; assetId: string }) => {
  const { act, asOf } = useShared()
  const [amount, setAmount] = useState("")
  const chain = `/_sim/chains/${row.blockchain}/${row.network}`
  return (
    <form
      class="inline compact"
      onSubmit={(e) => {
        e.preventDefault()
        void act("deposit", () =>
          send("POST", "/_sim/deposits", { blockchain: row.blockchain, network: row.network, address: row.address, assetId, amount }),
        ).then((ok) => ok && setAmount(""))
      }}
    >
      <input
        name="amount"
        aria-label={`deposit amount to ${row.address}`}
        inputMode="decimal"
        size={8}
        placeholder="amount"
        value={amount}
        onInput={(e) => setAmount((e.target as HTMLInputElement).value)}
      />
      <button type="submit" disabled={asOf !== null}>
        deposit
      </button>
      <button type="button" disabled={asOf !== null} onClick={() => void act("mine", () => send("POST", `${chain}/mine`, { blocks: 1 }))}>
        mine 1
      </button>
    </form>
  )
}

const Addresses = ({ vaultId, accountId, empty }: { vaultId: string; accountId: string; empty: string }) => {
  const pager = usePager(20)
  useEffect(() => pager.reset(), [accountId])
  const { data, error } = useData<Page<AddressRow>>(`/_sim/vaults/${vaultId}/addresses?vaultAccountId=${accountId}&${pager.query}`)
  return (
    <>
      <ErrorLine error={error} onReset={pager.reset} />
      {data !== undefined && data.items.length === 0 ? <p>{empty}</p> : null}
      <Table label="addresses and balances" empty={data !== undefined && data.items.length === 0}>
        <Head columns={["address", "asset", "#total", "#available", "#blocked", "#allocated", "deposit · mine"]} />
        <tbody>
          {(data?.items ?? []).flatMap((a) =>
            (a.assets.length === 0 ? [undefined] : a.assets).map((b, i) => (
              <tr key={`${a.address}/${b?.assetId ?? ""}`} data-address={a.address} data-asset={b?.symbol ?? ""}>
                <td>
                  {i === 0 ? (
                    <>
                      <code title={a.address}>{short(a.address, 14)}</code>
                      <br />
                      <small>
                        {a.blockchain}/{a.network} · {a.label}
                      </small>
                    </>
                  ) : null}
                </td>
                <td>
                  {b === undefined ? (
                    "—"
                  ) : (
                    <a href={`#/balance/${vaultId}/${a.blockchain}/${a.network}/${a.address}/${b.assetId}`}>{b.symbol} ↗</a>
                  )}
                </td>
                <td class="n" data-testid="total">
                  {b?.totalAmount ?? ""}
                </td>
                <td class="n" data-testid="available">
                  {b?.availableAmount ?? ""}
                </td>
                <td class="n">{b?.blockedAmount ?? ""}</td>
                <td class="n">{b?.allocatedAmount ?? ""}</td>
                <td>{b !== undefined ? <Deposit row={a} assetId={b.assetId} /> : null}</td>
              </tr>
            )),
          )}
        </tbody>
      </Table>
      <Pager pager={pager} page={data} idOf={(a: AddressRow) => `${a.blockchain}/${a.network}/${a.address}`} />
    </>
  )
}

interface TxItem {
  id: string
  transactionId: string
  blockchain: string
  network: string
  createdTimestamp: number
  direction: string
  status: string
  minedInBlockHeight: string
  recipients: ReadonlyArray<{ address: string; amount: string; unitSymbol: string }>
}

const Transactions = ({ vaultId }: { vaultId: string }) => {
  const pager = usePager(20)
  const { data, error } = useData<Page<TxItem>>(`/_sim/vaults/${vaultId}/transactions?${pager.query}`)
  return (
    <Section title="Transactions">
      <ErrorLine error={error} onReset={pager.reset} />
      {data !== undefined && data.items.length === 0 ? <p>None yet.</p> : null}
      <Table label="transactions" empty={data !== undefined && data.items.length === 0}>
        <Head columns={["time", "transaction", "direction", "status", "#block"]} />
        <tbody>
          {(data?.items ?? []).map((t) => (
            <tr key={t.id}>
              <td>{formatTime(t.createdTimestamp * 1000)}</td>
              <td>
                <code title={t.transactionId}>{short(t.transactionId, 12)}</code>{" "}
                <small>
                  {t.blockchain}/{t.network}
                </small>
              </td>
              <td>{t.direction}</td>
              <td data-testid="tx-status">{t.status}</td>
              <td class="n">{t.minedInBlockHeight}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Pager pager={pager} page={data} idOf={(t: TxItem) => t.id} />
    </Section>
  )
}

export const VaultView = ({ vaultId }: { vaultId: string }) => {
  const overview = useData<Overview>("/_sim/overview")
  const vault = overview.data?.vaults.find((v) => v.id === vaultId)
  const pager = usePager(20)
  const accounts = useData<Page<Account>>(`/_sim/vaults/${vaultId}/vault-accounts?${pager.query}`)
  const [accountId, setAccountId] = useState<string>("")
  const listed = accounts.data?.items ?? []
  // The default account (listed first) until another is chosen; a choice not listed at this position falls back.
  const chosen = listed.find((a) => a.vaultAccountId === accountId) ?? listed[0]
  return (
    <>
      <h1 class="title">
        <span class="swatch" style={{ background: vault?.color ?? "#999" }} />
        {vault?.name ?? "Vault"} <small>{vault?.type} vault</small>
      </h1>
      <ErrorLine error={overview.error ?? accounts.error} onReset={pager.reset} />
      <Section title="Vault accounts" actions={<CreateAccount vaultId={vaultId} onCreated={setAccountId} />}>
        <ul class="chips" aria-label="vault accounts">
          {listed.map((a) => (
            <li key={a.vaultAccountId}>
              <button
                type="button"
                data-account={a.vaultAccountId}
                aria-pressed={a.vaultAccountId === chosen?.vaultAccountId}
                onClick={() => setAccountId(a.vaultAccountId)}
              >
                <span class="swatch" style={{ background: a.color }} />
                {a.name}
                {a.isDefault ? <small class="tag"> default</small> : null}
              </button>
            </li>
          ))}
        </ul>
        {accounts.data !== undefined && listed.length === 0 ? <p>No accounts yet at this position.</p> : null}
        {chosen !== undefined ? (
          <p class="note" data-testid="account-id">
            account id <code>{chosen.vaultAccountId}</code>
            {chosen.isDefault ? " — the vault's id: its default account holds the vault's own addresses" : ""}
          </p>
        ) : null}
        <Pager pager={pager} page={accounts.data} idOf={(a: Account) => a.vaultAccountId} />
      </Section>
      {chosen !== undefined ? (
        <Section
          title="Addresses and balances"
          actions={
            vault === undefined ? null : chosen.isDefault ? (
              <NewAddress vaultId={vaultId} vaultType={vault.type} />
            ) : (
              <AddAsset vaultId={vaultId} accountId={chosen.vaultAccountId} vaultType={vault.type} />
            )
          }
        >
          <Addresses
            vaultId={vaultId}
            accountId={chosen.vaultAccountId}
            empty={chosen.isDefault ? "No addresses of the vault's own yet: derive one." : "No addresses yet: add an asset."}
          />
        </Section>
      ) : null}
      <Transactions vaultId={vaultId} />
    </>
  )
}
