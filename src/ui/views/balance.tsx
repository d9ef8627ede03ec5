// One address's balance of one asset over time (total and available, as stepped lines); a click on the chart or a
// row of the table opens the event that made the change.
import { useEffect, useRef } from "preact/hooks"
import uPlot from "uplot"
import { ErrorLine, Head, Section, short, Table } from "../parts.js"
import { formatTime, useData, useShared } from "../state.js"

interface Change {
  position: number
  timeMs: number | null
  blockHeight: number | null
  totalAmount: string
  availableAmount: string
  blockedAmount: string
  allocatedAmount: string
  totalChange: string
  event: { id: string; type: string; stream: string } | null
}

/** Whether simulated time moved between the first change and the last. */
const timed = (changes: ReadonlyArray<Change>) => changes.length > 0 && changes[0]!.timeMs !== changes[changes.length - 1]!.timeMs

const Chart = ({ changes, onPick }: { changes: ReadonlyArray<Change>; onPick: (c: Change) => void }) => {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = box.current
    if (el === null || changes.length === 0) return
    // By simulated time, in UTC as every table and the log; by log position when the clock stood still between
    // the first change and the last (a frozen clock), as the audit report's charts do.
    const byTime = timed(changes)
    const xs = changes.map((c, i) => (byTime ? (c.timeMs ?? 0) / 1000 + i * 1e-6 : c.position))
    const stepped = uPlot.paths.stepped!({ align: 1 })
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: 240,
        scales: { x: { time: byTime } },
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), "Etc/UTC"),
        series: [
          {
            label: byTime ? "time (UTC)" : "position",
            value: (_u, _v, _s, i) => {
              const c = i === null ? undefined : changes[i]
              return c === undefined ? "—" : byTime ? formatTime(c.timeMs) : String(c.position)
            },
          },
          { label: "total", stroke: "#0969da", width: 2, paths: stepped, points: { size: 6 } },
          { label: "available", stroke: "#1a7f37", width: 1.5, dash: [5, 3], paths: stepped, points: { size: 5 } },
        ],
        axes: [
          { label: byTime ? "simulated time (UTC)" : `log position (simulated time stood still at ${formatTime(changes[0]!.timeMs)})` },
          { size: 70 },
        ],
        cursor: { drag: { x: false, y: false } },
      },
      [xs, changes.map((c) => Number(c.totalAmount)), changes.map((c) => Number(c.availableAmount))],
      el,
    )
    const click = () => {
      const i = plot.cursor.idx
      if (i !== null && i !== undefined && changes[i] !== undefined) onPick(changes[i]!)
    }
    plot.over.addEventListener("click", click)
    const resize = () => plot.setSize({ width: Math.max(280, el.clientWidth), height: 240 })
    window.addEventListener("resize", resize)
    return () => {
      window.removeEventListener("resize", resize)
      plot.destroy()
    }
  }, [changes])
  return (
    <div
      ref={box}
      role="figure"
      class="chart"
      data-by={timed(changes) ? "time" : "position"}
      aria-label="balance over time: total solid, available dashed; click a point to open its event"
    />
  )
}

export const BalanceView = ({ vaultId, address, assetId }: { vaultId: string; address: string; assetId: string }) => {
  const { navigate } = useShared()
  const { data, error } = useData<{ changes: ReadonlyArray<Change>; nextPosition?: number }>(
    `/_sim/balances/history?vaultId=${vaultId}&address=${encodeURIComponent(address)}&assetId=${assetId}&limit=2000`,
  )
  const open = (c: Change) => navigate(`#/events?at=${c.position}`)
  return (
    <Section title={`Balance of ${short(address, 18)}`}>
      <p>
        <a href={`#/vault/${vaultId}`}>← vault</a> · asset <code>{assetId}</code> · solid: total, dashed: available; click a point to open
        its event
      </p>
      <ErrorLine error={error} />
      {data !== undefined ? <Chart changes={data.changes} onPick={open} /> : null}
      {data?.nextPosition !== undefined ? <p class="note">The first 2000 changes are drawn.</p> : null}
      <Table label="balance changes">
        <Head columns={["#position", "time", "#block", "#change", "#total", "#available", "#blocked", "event"]} />
        <tbody>
          {[...(data?.changes ?? [])]
            .reverse()
            .slice(0, 200)
            .map((c) => (
              <tr key={c.position}>
                <td class="n">{c.position}</td>
                <td>{formatTime(c.timeMs)}</td>
                <td class="n">{c.blockHeight ?? ""}</td>
                <td class="n">{c.totalChange}</td>
                <td class="n">{c.totalAmount}</td>
                <td class="n">{c.availableAmount}</td>
                <td class="n">{c.blockedAmount}</td>
                <td>
                  <a href={`#/events?at=${c.position}`}>{c.event?.type ?? "event"}</a>
                </td>
              </tr>
            ))}
        </tbody>
      </Table>
    </Section>
  )
}
