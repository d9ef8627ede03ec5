// The timeline across the top: a slider over log positions with simulated time and mined blocks marked. Moving it
// sets the as-of position every view reads at; "now" returns to live.
import { useState } from "preact/hooks"
import { formatTime } from "./state.js"

export interface TimelineData {
  readonly first: number
  readonly head: number
  readonly headTime: number
  readonly now: number
  readonly ticks: ReadonlyArray<{ position: number; time: number }>
  readonly blocks: ReadonlyArray<{ position: number; chain: string; height: number }>
  readonly blockCount: number
}

const timeAt = (t: TimelineData, p: number) => {
  let best = t.ticks[0]
  for (const x of t.ticks) if (x.position <= p) best = x
  return best?.time
}

export const Timeline = ({ data, asOf, onChange }: { data: TimelineData | undefined; asOf: number | null; onChange: (p: number | null) => void }) => {
  const [dragging, setDragging] = useState<number | null>(null)
  if (data === undefined || data.head < 0) return <div class="timeline empty">The log is empty.</div>
  const span = Math.max(1, data.head - data.first)
  const value = dragging ?? asOf ?? data.head
  const pct = (p: number) => `${(((p - data.first) / span) * 100).toFixed(3)}%`
  // Chrome sends at most one input event a frame while dragging, and a view's new read aborts its previous one.
  const move = (p: number) => {
    setDragging(p)
    onChange(p === data.head ? null : p)
  }
  let lastBlock: TimelineData["blocks"][number] | undefined
  for (const b of data.blocks) if (b.position <= value) lastBlock = b
  const labels = [data.ticks[0], data.ticks[Math.floor(data.ticks.length / 2)], data.ticks[data.ticks.length - 1]].filter((x) => x !== undefined)
  return (
    <div class="timeline">
      <div class="timeline-row">
        <label for="timeline-slider" class="timeline-label">
          {asOf === null ? <strong class="live">live</strong> : <strong class="past">as of</strong>} position <span data-testid="as-of-position">{value}</span> of {data.head} ·{" "}
          {formatTime(asOf === null ? data.now : timeAt(data, value))}
          {lastBlock !== undefined ? ` · marked block ${lastBlock.chain} #${lastBlock.height} (position ${lastBlock.position})` : ""}
        </label>
        <button type="button" class="now" disabled={asOf === null} onClick={() => onChange(null)}>
          now
        </button>
      </div>
      <div class="track">
        <div class="blocks" aria-hidden="true">
          {data.blocks.map((b) => (
            <span class="block" style={{ left: pct(b.position) }} title={`${b.chain} block ${b.height} (position ${b.position})`} />
          ))}
        </div>
        <input
          id="timeline-slider"
          type="range"
          min={data.first}
          max={data.head}
          step={1}
          value={value}
          aria-valuetext={`position ${value}`}
          onInput={(e) => move(Number((e.target as HTMLInputElement).value))}
          onChange={() => setDragging(null)}
        />
        <div class="ticks" aria-hidden="true">
          {labels.map((t) => (
            <span style={{ left: pct(t.position) }}>{formatTime(t.time)}</span>
          ))}
        </div>
      </div>
      <p class="timeline-note">
        {data.blockCount} block changes marked · drag or use the arrow keys; every view answers as of the chosen position
      </p>
    </div>
  )
}
