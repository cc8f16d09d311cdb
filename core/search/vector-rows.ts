/**
 * Single unit vectors read by position from index/vectors.f32, synchronously, for a search whose
 * vectors are not resident (over the memory budget). The dense channel needs a handful of rows per
 * search (the feedback documents and the reported cosines of its hits), and reading them keeps the
 * answer the same whether the vectors are resident or not. The file stays open until `close`
 * (the search state closes it when its version is released).
 */
import * as fs from "node:fs"

export interface UnitRows {
  /** The unit vector of `key`, or undefined for a key without one. */
  row(key: number): Float32Array | undefined
  close(): void
}

/** Undefined when the file is missing or its size disagrees with dims × count. */
export const openUnitRows = (file: string, dims: number, count: number): UnitRows | undefined => {
  const size = fs.statSync(file, { throwIfNoEntry: false })?.size
  if (size !== dims * count * 4) return undefined
  const fd = fs.openSync(file, "r")
  const rowBytes = dims * 4
  let open = true
  return {
    row: (key) => {
      if (!open || !Number.isInteger(key) || key < 0 || key >= count) return undefined
      const row = new Float32Array(dims)
      return fs.readSync(fd, new Uint8Array(row.buffer), 0, rowBytes, key * rowBytes) === rowBytes ? row : undefined
    },
    close: () => {
      if (open) fs.closeSync(fd)
      open = false
    }
  }
}
