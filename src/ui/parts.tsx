// Small pieces the views share: cursor pagination, tables that scroll on narrow windows, error lines, JSON.
import type { ComponentChildren } from "preact"
import { useState } from "preact/hooks"
import type { Failure } from "./api.js"

export interface Page<T> {
  readonly items: ReadonlyArray<T>
  readonly hasMore: boolean
  readonly limit: number
}

/** A cursor stack: `after` is the query suffix of the current page; next/previous move along it. */
export const usePager = (pageSize = 25) => {
  const [cursors, setCursors] = useState<ReadonlyArray<string>>([])
  const after = cursors[cursors.length - 1]
  return {
    query: `limit=${pageSize}${after !== undefined ? `&startingAfter=${encodeURIComponent(after)}` : ""}`,
    page: cursors.length + 1,
    next: (lastId: string) => setCursors([...cursors, lastId]),
    previous: () => setCursors(cursors.slice(0, -1)),
    reset: () => setCursors([]),
  }
}

/** Previous and next buttons; `label` says where the list stands. */
export const StepNav = ({ back, next, label }: { back: (() => void) | undefined; next: (() => void) | undefined; label?: string }) => (
  <nav class="pager" aria-label="pages">
    <button type="button" disabled={back === undefined} onClick={back}>
      ← previous
    </button>
    {label !== undefined ? <span>{label}</span> : null}
    <button type="button" disabled={next === undefined} onClick={next}>
      next →
    </button>
  </nav>
)

export const Pager = ({
  pager,
  page,
  idOf,
}: {
  pager: ReturnType<typeof usePager>
  page: Page<unknown> | undefined
  // biome-ignore lint/suspicious/noExplicitAny: the pager's items, of whatever listing it pages
  idOf: (item: any) => string
}) => {
  if (page === undefined || (pager.page === 1 && !page.hasMore)) return null
  const last = page.items[page.items.length - 1]
  return (
    <StepNav
      back={pager.page === 1 ? undefined : pager.previous}
      next={page.hasMore && last !== undefined ? () => pager.next(idOf(last)) : undefined}
      label={`page ${pager.page}`}
    />
  )
}

/** Column headings; a name starting with "#" is a numeric column (right-aligned), shown without the "#". */
export const Head = ({ columns }: { columns: ReadonlyArray<string> }) => (
  <thead>
    <tr>{columns.map((c) => (c.startsWith("#") ? <th class="n">{c.slice(1)}</th> : <th>{c}</th>))}</tr>
  </thead>
)

/** The row under an item that a Toggle opens. */
export const DetailRow = ({ open, span, children }: { open: boolean; span: number; children: ComponentChildren }) =>
  open ? (
    <tr class="detail">
      <td colSpan={span}>{children}</td>
    </tr>
  ) : null

/** A link-styled button that opens and closes a detail row. */
export const Toggle = ({ open, onToggle, children }: { open: boolean; onToggle: () => void; children: ComponentChildren }) => (
  <button type="button" class="link" aria-expanded={open} onClick={onToggle}>
    {children}
  </button>
)

export const ErrorLine = ({ error, onReset }: { error: Failure | undefined; onReset?: () => void }) =>
  error === undefined ? null : (
    <p class="error" role="alert">
      {error.code}: {error.message}
      {onReset !== undefined && error.code === "invalid_pagination" ? (
        <button type="button" onClick={onReset}>
          first page
        </button>
      ) : null}
    </p>
  )

/**
 * A table that scrolls sideways in its own box on a narrow window; nothing at all when `empty` (the view says so in
 * words). `stack`: on a narrow window each row wraps its cells instead, each named by its `data-label`.
 */
export const Table = ({
  children,
  label,
  empty = false,
  stack = false,
}: {
  children: ComponentChildren
  label: string
  empty?: boolean
  stack?: boolean
}) =>
  empty ? null : (
    <div class={stack ? "scroll stack" : "scroll"} role="region" aria-label={label} tabIndex={0}>
      <table>{children}</table>
    </div>
  )

export const Json = ({ value }: { value: unknown }) => <pre class="json">{JSON.stringify(value, null, 2)}</pre>

export const Section = ({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) => (
  <section class="card">
    <header class="card-head">
      <h2>{title}</h2>
      {actions}
    </header>
    {children}
  </section>
)

export const short = (s: string, n = 10) => (s.length <= n + 3 ? s : `${s.slice(0, n)}…`)
