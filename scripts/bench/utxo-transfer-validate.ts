// utxo-transfer/validate with 50 named inputs and 150 recipients: answered in process (signed, through the app), and
// over a socket with the load generator in its own process (the same request, the same app).
import { loadavg } from "node:os"
import { signRequest } from "../../src/client/index.js"
import { assetsOf } from "../../src/domain/chains/index.js"
import { startFundedBench, type FundedBench } from "./lib/funded.js"
import { httpVsBareHono } from "./lib/http.js"
import { absoluteAtLeast, type Benchmark, type Measurement, type RunOptions } from "./lib/types.js"

const RECIPIENTS = ["tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn"]

/** A funded bench whose account holds 50 BTC outputs, and the validate request spending all of them to 150 recipients. */
const validateWorld = async (): Promise<{ bench: FundedBench; url: string; body: string }> => {
  const bench = await startFundedBench()
  const btc = assetsOf({ blockchain: "bitcoin", network: "testnet" }).find((a) => a.symbol === "BTC")!.id
  const call = (method: string, url: string, item: unknown, creds = bench.creds) => {
    const body = JSON.stringify({ data: { item } })
    return bench.app.request(url, { method, headers: signRequest(creds, { method, url, body }), body })
  }
  const admin = (method: string, path: string, body: unknown) =>
    bench.app.request(path, {
      method,
      headers: { authorization: `Bearer ${bench.sim.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    })
  const added = await call("PUT", `/vaults/${bench.vaultId}/vault-accounts/${bench.vaultAccountId}/add-asset`, {
    assetId: btc,
    label: "utxo",
  })
  const address = ((await added.json()) as { data: { item: { address: string } } }).data.item.address
  await admin("PUT", "/_sim/chains/bitcoin/testnet/mining", { mode: "auto", confirmations: 1 })
  const utxoIds: Array<string> = []
  for (let i = 0; i < 50; i++) {
    const r = (await (
      await admin("POST", "/_sim/deposits", { blockchain: "bitcoin", network: "testnet", address, assetId: btc, amount: "0.01" })
    ).json()) as { transactionId: string }
    utxoIds.push(`${r.transactionId}:0`)
  }
  const url = `/vaults/${bench.vaultId}/transaction-requests/utxo-transfer/validate`
  const body = JSON.stringify({
    data: {
      item: {
        assetId: btc,
        feePriority: "standard",
        note: "bench",
        senders: utxoIds.map((utxoId) => ({ utxoId })),
        recipients: Array.from({ length: 150 }, (_, i) => ({ address: RECIPIENTS[i % 2]!, amount: "0.003" })),
      },
    },
  })
  return { bench, url, body }
}

/**
 * The in-process figure: 200 untimed answers, then 5,000 (quick: 1,000) timed. `beforeTimed` runs between them (the
 * profiler starts there, so its shares are those of the timed answers, not of the set-up's deposits).
 */
export const validateInProcess = async (options: RunOptions, beforeTimed?: () => Promise<void>): Promise<Measurement> => {
  const { bench, url, body } = await validateWorld()
  try {
    // Signed once per thousand answers: the server's work is measured, not the client's HMAC (replays are accepted).
    const signed = () => signRequest(bench.creds2026, { method: "POST", url, body })
    const once = async (headers: Record<string, string>) => {
      const res = await bench.app.request(url, { method: "POST", headers, body })
      if (res.status !== 200) throw new Error(`validate answered ${res.status}: ${await res.text()}`)
      await res.arrayBuffer()
    }
    let headers = signed()
    for (let i = 0; i < 200; i++) await once(headers)
    await beforeTimed?.()
    const count = options.quick ? 1_000 : 5_000
    const started = performance.now()
    const cpu = process.cpuUsage()
    for (let i = 0; i < count; i++) {
      if (i % 1_000 === 0) headers = signed()
      await once(headers)
    }
    const used = process.cpuUsage(cpu)
    const seconds = (performance.now() - started) / 1000
    // The budget is on the process's CPU time: what one core of this machine gives. The wall-clock rate is the same
    // figure whenever the process has a core to itself, and moves with the neighbours when it has not.
    const cpuSeconds = (used.user + used.system) / 1e6
    return {
      subject: count / cpuSeconds,
      unit: "answers per CPU-second",
      note: `${count} previews of 50 inputs → 150 recipients + change: ${((cpuSeconds * 1e6) / count).toFixed(0)} µs CPU per answer; wall clock ${(count / seconds).toFixed(0)} answers/s in ${seconds.toFixed(2)} s, load ${loadavg()[0]!.toFixed(1)}`,
      details: { answersPerWallSecond: count / seconds, cpuMicrosPerAnswer: (cpuSeconds * 1e6) / count, load: loadavg()[0]! },
    }
  } finally {
    await bench.close()
  }
}

export const utxoTransferValidate: Benchmark = {
  name: "utxo-transfer-validate",
  description:
    "signed POST utxo-transfer/validate, 50 inputs and 150 recipients, in process (memory store): answers per second of the process's CPU time (wall-clock answers/s beside it)",
  budget: absoluteAtLeast(1_000, "answers per CPU-second"),
  run: (options) => validateInProcess(options),
}

/**
 * The same request over a socket: the server on one core, autocannon in a child process on the other (10
 * connections). Beside the absolute figure, the bare Hono route answering the same bytes in the same rounds shows
 * how much of the machine the transport and the load generator take.
 */
export const httpUtxoTransferValidate: Benchmark = {
  name: "http-post-utxo-transfer-validate",
  description:
    "signed POST utxo-transfer/validate, 50 inputs and 150 recipients, over a socket (load generator in a child process): answers per second of the server's CPU time, beside the wall-clock answers/s and a bare route answering the same bytes",
  budget: absoluteAtLeast(1_000, "answers per server CPU-second"),
  run: async (options) => {
    const { bench, url, body } = await validateWorld()
    try {
      const m = await httpVsBareHono({
        ...options,
        subject: bench.app.fetch,
        request: { method: "POST", url, body, headers: { "content-type": "application/json" } },
        sign: bench.creds2026,
        expectStatus: 200,
      })
      // The server's CPU per answer is the median over the rounds, measured in the server's process (the bare route
      // idle meanwhile); the wall-clock rate also holds the load generator's share of two cores.
      const cpu = Number(m.details?.["serverCpuMicrosPerRequestSubject"])
      return {
        subject: 1e6 / cpu,
        unit: "answers per server CPU-second",
        note: `wall clock ${Math.round(m.subject)} answers/s (bare route ${Math.round(m.baseline ?? 0)} req/s); ${m.note ?? ""}`,
        ...(m.samples !== undefined ? { samples: { subject: m.samples.subject } } : {}),
        details: { ...m.details, answersPerWallSecond: m.subject, bareRoutePerWallSecond: m.baseline ?? 0 },
      }
    } finally {
      await bench.close()
    }
  },
}
