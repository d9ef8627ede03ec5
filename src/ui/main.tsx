// The dashboard's shell: login, navigation, the timeline, live updates at "now", and the message line actions use.
import "uplot/dist/uPlot.min.css"
import "./style.css"
import { render } from "preact"
import { useCallback, useEffect, useMemo, useState } from "preact/hooks"
import { Failure, get, login, logout, session, setCsrf } from "./api.js"
import { SharedContext, type Shared } from "./state.js"
import { Timeline, type TimelineData } from "./timeline.js"
import { AuditView } from "./views/audit.js"
import { BalanceView } from "./views/balance.js"
import { ChainView, ChainsView } from "./views/chains.js"
import { EventsView } from "./views/events.js"
import { FaultsView } from "./views/faults.js"
import { KeysView } from "./views/keys.js"
import { OverviewView } from "./views/overview.js"
import { RequestsView } from "./views/requests.js"
import { VaultView } from "./views/vault.js"
import { WebhooksView } from "./views/webhooks.js"

const NAV: ReadonlyArray<readonly [string, string]> = [
  ["#/", "Overview"],
  ["#/requests", "Requests"],
  ["#/chains", "Chains"],
  ["#/webhooks", "Webhooks"],
  ["#/faults", "Faults"],
  ["#/events", "Events"],
  ["#/keys", "API keys"],
  ["#/audit", "Audit"],
]

const Login = ({ onDone }: { onDone: () => void }) => {
  const [token, setToken] = useState("")
  const [error, setError] = useState<string | null>(null)
  return (
    <main class="login">
      <h1>custody-sim</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          login(token).then(
            (s) => {
              setCsrf(s.csrfToken)
              onDone()
            },
            (err: unknown) => setError(err instanceof Failure ? err.message : String(err)),
          )
        }}
      >
        <label for="token">Admin token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="current-password"
          value={token}
          onInput={(e) => setToken((e.target as HTMLInputElement).value)}
          autoFocus
        />
        <button type="submit">Log in</button>
        {error !== null ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : null}
      </form>
      <p class="note">custody-sim serve prints the admin token at start.</p>
    </main>
  )
}

const Route = ({ hash }: { hash: string }) => {
  const [path, search] = hash.replace(/^#/, "").split("?") as [string, string | undefined]
  const parts = path.split("/").filter((p) => p !== "")
  const params = new URLSearchParams(search ?? "")
  switch (parts[0]) {
    case "vault":
      // One view per vault: what was chosen in one (an account, an asset) does not carry over to another.
      return <VaultView key={parts[1] ?? ""} vaultId={parts[1] ?? ""} />
    case "balance":
      return <BalanceView vaultId={parts[1] ?? ""} address={decodeURIComponent(parts[4] ?? "")} assetId={parts[5] ?? ""} />
    case "requests":
      return <RequestsView />
    case "chains":
      return <ChainsView />
    case "chain":
      return <ChainView blockchain={parts[1] ?? ""} network={parts[2] ?? ""} />
    case "webhooks":
      return <WebhooksView />
    case "faults":
      return <FaultsView />
    case "events":
      return <EventsView at={params.has("at") ? Number(params.get("at")) : null} />
    case "keys":
      return <KeysView />
    case "audit":
      return <AuditView />
    default:
      return <OverviewView />
  }
}

const Dashboard = ({ onLogout }: { onLogout: () => void }) => {
  const [hash, setHash] = useState(location.hash || "#/")
  const [asOf, setAsOf] = useState<number | null>(null)
  const [refresh, setRefresh] = useState(0)
  const [timeline, setTimeline] = useState<TimelineData | undefined>(undefined)
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null)
  useEffect(() => {
    const on = () => setHash(location.hash || "#/")
    window.addEventListener("hashchange", on)
    return () => window.removeEventListener("hashchange", on)
  }, [])
  useEffect(() => {
    get<TimelineData>("/_sim/timeline").then(setTimeline, () => {})
  }, [refresh])
  // Live: the log's head arrives by server-sent events; at "now" every view reads again.
  useEffect(() => {
    const source = new EventSource("/_sim/live")
    source.addEventListener("position", () => setRefresh((n) => n + 1))
    return () => source.close()
  }, [])
  const act = useCallback(async (label: string, action: () => Promise<unknown>) => {
    try {
      await action()
      setMessage({ text: `${label}: done`, error: false })
      setRefresh((n) => n + 1)
      return true
    } catch (e) {
      if (e instanceof Failure && e.status === 401) onLogout()
      setMessage({
        text: e instanceof Failure ? `${label} refused — ${e.code}: ${e.message}` : `${label} failed: ${String(e)}`,
        error: true,
      })
      return false
    }
  }, [])
  // A success note goes by itself; an error stays until dismissed.
  useEffect(() => {
    if (message === null || message.error) return
    const t = setTimeout(() => setMessage(null), 5000)
    return () => clearTimeout(t)
  }, [message])
  const navigate = useCallback((h: string) => {
    location.hash = h
  }, [])
  // Past positions do not change: live updates refresh views only at "now".
  const shared = useMemo<Shared>(
    () => ({ asOf, refresh: asOf === null ? refresh : 0, act, navigate }),
    [asOf, asOf === null ? refresh : 0, act, navigate],
  )
  return (
    <SharedContext.Provider value={shared}>
      <header class="top">
        <a class="brand" href="#/">
          custody-sim
        </a>
        <nav aria-label="views">
          {NAV.map(([h, label]) => (
            <a href={h} aria-current={hash === h || (h !== "#/" && hash.startsWith(h)) ? "page" : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <a class="reference" href="/docs" target="_blank" rel="noopener">
          API reference
        </a>
        <button type="button" class="logout" onClick={() => void logout().finally(onLogout)}>
          Log out
        </button>
      </header>
      <Timeline data={timeline} asOf={asOf} onChange={setAsOf} />
      {message !== null ? (
        <p class={message.error ? "message error" : "message"} role={message.error ? "alert" : "status"} data-testid="message">
          {message.text}
          <button type="button" aria-label="dismiss" onClick={() => setMessage(null)}>
            ×
          </button>
        </p>
      ) : null}
      <main>
        <Route hash={hash} />
      </main>
    </SharedContext.Provider>
  )
}

const App = () => {
  const [state, setState] = useState<"loading" | "in" | "out">("loading")
  const check = () =>
    session().then(
      (s) => {
        if (s.authenticated && s.csrfToken !== undefined) setCsrf(s.csrfToken)
        setState(s.authenticated ? "in" : "out")
      },
      () => setState("out"),
    )
  useEffect(() => void check(), [])
  if (state === "loading") return <p class="note">Loading…</p>
  if (state === "out") return <Login onDone={() => setState("in")} />
  return <Dashboard onLogout={() => setState("out")} />
}

render(<App />, document.getElementById("app")!)
