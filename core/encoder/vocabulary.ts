/**
 * The LSA encoder's vocabulary: stems and stem bigrams → ids, with their inverse document
 * frequencies. Id 0 is reserved for padding (its row in the term-vector table is zero), so
 * term ids start at 1 and a batch can be padded with (id 0, weight 0).
 */
export const paddingTermId = 0

/** Smoothed IDF (as in common TF-IDF implementations): never zero, finite for unseen df. */
export const smoothIdf = (documents: number, documentFrequency: number) =>
  Math.log((1 + documents) / (1 + documentFrequency)) + 1

/** vocab.json: term i has id i + 1. */
export interface LsaVocabularyFile {
  readonly format: "patent-lsa-vocabulary/1"
  /** Documents the frequencies were counted over. */
  readonly documents: number
  readonly terms: ReadonlyArray<string>
  readonly documentFrequency: ReadonlyArray<number>
  readonly idf: ReadonlyArray<number>
}

export class LsaVocabulary {
  private readonly ids: Map<string, number>
  /** Indexed by term id; idf[0] (padding) is 0. */
  readonly idf: Float64Array

  constructor(
    readonly terms: ReadonlyArray<string>,
    readonly documentFrequency: ReadonlyArray<number>,
    readonly documents: number,
    idf?: ReadonlyArray<number>
  ) {
    this.ids = new Map(terms.map((t, i) => [t, i + 1]))
    if (this.ids.size !== terms.length) throw new Error("vocabulary has duplicate terms")
    this.idf = new Float64Array(terms.length + 1)
    terms.forEach((_, i) => {
      this.idf[i + 1] = idf ? idf[i] : smoothIdf(documents, documentFrequency[i])
    })
  }

  /** Rows of the term-vector table: the terms plus the padding row. */
  get rows() {
    return this.terms.length + 1
  }

  idOf(term: string): number | undefined {
    return this.ids.get(term)
  }

  termOf(id: number): string | undefined {
    return id > 0 ? this.terms[id - 1] : undefined
  }

  toJSON(): LsaVocabularyFile {
    return {
      format: "patent-lsa-vocabulary/1",
      documents: this.documents,
      terms: this.terms,
      documentFrequency: this.documentFrequency,
      idf: Array.from(this.idf.subarray(1))
    }
  }

  static fromJSON(json: unknown): LsaVocabulary {
    const f = json as Partial<LsaVocabularyFile>
    if (f?.format !== "patent-lsa-vocabulary/1") throw new Error(`not a patent-lsa vocabulary (format ${String(f?.format)})`)
    const { terms, documentFrequency, idf, documents } = f
    if (!Array.isArray(terms) || !Array.isArray(documentFrequency) || !Array.isArray(idf)) {
      throw new Error("vocabulary lacks terms, documentFrequency or idf")
    }
    if (documentFrequency.length !== terms.length || idf.length !== terms.length) {
      throw new Error("vocabulary arrays differ in length")
    }
    return new LsaVocabulary(terms, documentFrequency, Number(documents), idf)
  }
}
