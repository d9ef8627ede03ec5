// A model's cache that is not its state (the last lookup, an index made from its columns): kept as a non-enumerable
// own property, so a snapshot or a checkpoint (graph-codec.ts walks enumerable own keys) neither saves nor copies it,
// and a copied or decoded model makes its own again.
export const keepAside = <T>(owner: object, name: string, value: T): T => {
  Object.defineProperty(owner, name, { value, writable: true, enumerable: false, configurable: true })
  return value
}
