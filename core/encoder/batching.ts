/**
 * Batches of featurized texts whose vectors do not depend on the batch they fall in.
 *
 * onnxruntime sums a padded axis in an order that depends on the axis' length, so the same text
 * padded to 40 slots or to 105 came out differently in the last bits (36 of 176 sample texts);
 * a batch of one row takes yet another kernel. Texts are therefore grouped by their padded shape,
 * a step function of their own length, and a lone text goes as two rows. A text then gets the
 * same vector from every batch, which is what lets a nightly build encode only new texts and
 * still equal a build that encodes them all.
 */

/** A padded axis length: a step function of the text's own length (≥ 1 slot). */
export const paddedLength = (n: number) => (n <= 8 ? 8 : Math.ceil(n / 16) * 16)

export interface ShapedBatch<F> {
  /** Where each row's answer goes in the caller's list; a lone text is sent twice and its second answer dropped. */
  readonly indices: ReadonlyArray<number>
  readonly rows: ReadonlyArray<F>
  /** The padded length of each axis, the same for every row. */
  readonly shape: ReadonlyArray<number>
}

/**
 * Groups `features` by padded shape into batches of at most `maxTexts` rows and `maxSlots` padded
 * slots; `axes` gives a feature's unpadded axis lengths.
 */
export const shapedBatches = <F>(
  features: ReadonlyArray<F>,
  axes: (f: F) => ReadonlyArray<number>,
  maxTexts: number,
  maxSlots: number
): ShapedBatch<F>[] => {
  const groups = new Map<string, { shape: number[]; indices: number[] }>()
  features.forEach((f, i) => {
    const shape = axes(f).map(paddedLength)
    const key = shape.join("x")
    const group = groups.get(key) ?? groups.set(key, { shape, indices: [] }).get(key)!
    group.indices.push(i)
  })
  const out: ShapedBatch<F>[] = []
  for (const { shape, indices } of groups.values()) {
    const slots = shape.reduce((a, b) => a * b, 1)
    const per = Math.max(2, Math.min(maxTexts, Math.floor(maxSlots / slots)))
    for (let from = 0; from < indices.length; from += per) {
      const part = indices.slice(from, from + per)
      const rows = part.map((i) => features[i])
      out.push(part.length === 1 ? { indices: part, rows: [rows[0], rows[0]], shape } : { indices: part, rows, shape })
    }
  }
  return out
}
