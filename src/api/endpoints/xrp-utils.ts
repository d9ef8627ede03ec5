import { classicAddressToXAddress, isValidClassicAddress, isValidXAddress, xAddressToClassicAddress } from "ripple-address-codec"
import { since } from "../../domain/api-key/index.js"
import { findNetwork } from "../../domain/chains/index.js"
import { errors } from "../errors.js"
import { type Operation, operation } from "../operation.js"
import { ClassicAddress, XAddress } from "../wire/xrp.js"

const xrpNetwork = (p: Readonly<Record<string, string>>) => findNetwork("xrp", p.network ?? "")

const badNetwork = () => errors.invalidData([{ attribute: "network", message: "must be an XRP network (mainnet, testnet)" }])

/** A destination tag is an unsigned 32-bit integer. */
const TAG = /^(0|[1-9][0-9]{0,9})$/

export const xrpUtilOperations: ReadonlyArray<Operation> = [
  operation({
    id: "encodeXrpAddress",
    doc: {
      summary: "Encode XRP X-address",
      description: "A classic XRP address and destination tag as an X-address; writes nothing.",
      tags: ["Utils"],
    },
    method: "GET",
    path: "/utils/xrp/:network/addresses/encode/:classicAddress/:addressTag",
    scope: "read",
    versions: since("2026-03-20"),
    networkType: (p) => xrpNetwork(p)?.networkType,
    answer: XAddress,
    handle: ({ params }) => {
      const network = xrpNetwork(params)
      if (network === undefined) return badNetwork()
      const bad = [
        ...(isValidClassicAddress(params.classicAddress) ? [] : [{ attribute: "classicAddress", message: "is not a classic XRP address" }]),
        ...(TAG.test(params.addressTag) && Number(params.addressTag) <= 0xffffffff
          ? []
          : [{ attribute: "addressTag", message: "must be an integer from 0 to 4294967295" }]),
      ]
      if (bad.length > 0) return errors.invalidData(bad)
      return {
        status: 200,
        item: { xAddress: classicAddressToXAddress(params.classicAddress, Number(params.addressTag), network.networkType === "test") },
      }
    },
  }),
  operation({
    id: "decodeXrpAddress",
    doc: {
      summary: "Decode XRP X-address",
      description: "An X-address as its classic address and destination tag; writes nothing.",
      tags: ["Utils"],
    },
    method: "GET",
    path: "/utils/xrp/:network/addresses/decode/:xAddress",
    scope: "read",
    versions: since("2025-09-23"),
    networkType: (p) => xrpNetwork(p)?.networkType,
    answer: ClassicAddress,
    handle: ({ params }) => {
      const network = xrpNetwork(params)
      if (network === undefined) return badNetwork()
      if (!isValidXAddress(params.xAddress)) return errors.invalidData([{ attribute: "xAddress", message: "is not an X-address" }])
      const decoded = xAddressToClassicAddress(params.xAddress)
      if (decoded.test !== (network.networkType === "test"))
        return errors.invalidData([{ attribute: "xAddress", message: `is an X-address of the ${decoded.test ? "test" : "main"} network` }])
      // No tag is written as "" (the service writes the tag as a string).
      return { status: 200, item: { classicAddress: decoded.classicAddress, tag: decoded.tag === false ? "" : String(decoded.tag) } }
    },
  }),
]
