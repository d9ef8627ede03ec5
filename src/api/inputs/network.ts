// The network a path names by its blockchain and network parameters.
import { findNetwork } from "../../domain/chains/index.js"

/** The network type (main or test) of the path's `:blockchain/:network`, for the key's network-type check. */
export const networkTypeOf = (p: Readonly<Record<string, string>>) => findNetwork(p.blockchain ?? "", p.network ?? "")?.networkType
