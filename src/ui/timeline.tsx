// The timeline across the top: a slider over log positions with simulated time and mined blocks marked. Moving it
// sets the as-of position every view reads at; "now" returns to live. Its label names the block the server finds
// as of the position (that chain's height there, as the chain view shows it) and says when the clock is frozen.
import { useState } from "preact/hooks"
import { formatTime, useData } from "./state.js"

export interface TimelineData {
  readonly first: number
  readonly head: number
  readonly headTime: number
  readonly now: number
  /** The clock is frozen: simulated time stays put until advanced. */
  readonly frozen: boolean
  readonly ticks: ReadonlyArray<{ position: number; time: number }>
  readonly blocks: ReadonlyArray<{ position: number; chain: string; height: number }>
  readonly blockCount: number
}

const timeAt = (t: TimelineData, p: number) => {
  let best = t.ticks[0]
  for (const x of t.ticks) if (x.position <= p) best = x
  return best?.time
}

/** The last change of a chain's height at the position; `position` absent when the clock moved it since (now). */
interface MarkedBlock {
  readonly block: { readonly chain: string; readonly height: number; readonly position?: number } | null
}

const BlockLabel = () => {
  const { data } = useData<MarkedBlock>("/_sim/timeline/block")
  const b = data?.block
  if (b === undefined || b === null) return null
  return (
    <span data-testid="marked-block">
      {" "}
      · marked block {b.chain} #{b.height}
      {b.position !== undefined ? ` (position ${b.position})` : " (the clock moved it since the last event)"}
    </span>
  )
}

/** The time under the ticks: three labels, or one when no time passed over the whole log. */
const tickLabels = (data: TimelineData) => {
  const first = data.ticks[0]
  const last = data.ticks[data.ticks.length - 1]
  if (first === undefined || last === undefined) return []
  if (first.time === last.time)
    return [{ position: first.position, text: `${formatTime(first.time)} throughout${data.frozen ? ", clock frozen" : ""}` }]
  return [first, data.ticks[Math.floor(data.ticks.length / 2)]!, last].map((t) => ({ position: t.position, text: formatTime(t.time) }))
}

export const Timeline = ({
  data,
  asOf,
  onChange,
}: {
  data: TimelineData | undefined
  asOf: number | null
  onChange: (p: number | null) => void
}) => {
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
  const labels = tickLabels(data)
  return (
    <div class="timeline">
      <div class="timeline-row">
        <label for="timeline-slider" class="timeline-label">
          {asOf === null ? <strong class="live">live</strong> : <strong class="past">as of</strong>} position{" "}
          <span data-testid="as-of-position">{value}</span> of {data.head} ·{" "}
          <span data-testid="timeline-time">
            {formatTime(asOf === null ? data.now : timeAt(data, value))}
            {asOf === null && data.frozen ? " (clock frozen)" : ""}
          </span>
          <BlockLabel />
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
        <div class={labels.length === 1 ? "ticks one" : "ticks"} aria-hidden="true">
          {labels.map((t) => (
            <span style={labels.length === 1 ? {} : { left: pct(t.position) }}>{t.text}</span>
          ))}
        </div>
      </div>
      <p class="timeline-note">
        {data.blockCount} block changes marked · drag or use the arrow keys; every view answers as of the chosen position
      </p>
    </div>
  )
}
