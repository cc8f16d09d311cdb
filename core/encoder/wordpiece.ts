/**
 * The WordPiece tokenizer of BERT-family sentence-transformers, driven by the model's own
 * Hugging Face tokenizer.json: normalizer (BertNormalizer or a sequence of Lowercase /
 * StripAccents / Unicode forms), BERT pre-tokenization (whitespace and punctuation),
 * greedy longest-match word pieces with the continuation prefix, the post-processor's
 * special tokens ([CLS] … [SEP]) and truncation.
 */

export interface WordPieceEncoding {
  readonly ids: ReadonlyArray<number>
  readonly tokens: ReadonlyArray<string>
  /** True for tokens added by the post-processor ([CLS], [SEP], <s> …). */
  readonly special: ReadonlyArray<boolean>
}

export interface WordPieceTokenizer {
  readonly padId: number
  readonly maxLength: number
  encode(text: string): WordPieceEncoding
}

type Json = Record<string, any>

type Normalize = (s: string) => string

const controlChars = /[\p{Cc}\p{Cf}\uFFFD]/gu
const whitespaceChars = /\s/gu
const cjkChars =
  /([\u{4E00}-\u{9FFF}\u{3400}-\u{4DBF}\u{20000}-\u{2A6DF}\u{2A700}-\u{2B73F}\u{2B740}-\u{2B81F}\u{2B820}-\u{2CEAF}\u{F900}-\u{FAFF}\u{2F800}-\u{2FA1F}])/gu
const combining = /\p{Mn}/gu
const stripAccents: Normalize = (s) => s.normalize("NFD").replace(combining, "")

const normalizerOf = (spec: Json | null | undefined): Normalize => {
  if (!spec) return (s) => s
  switch (spec.type) {
    case "BertNormalizer": {
      const lowercase = spec.lowercase !== false
      const strip = spec.strip_accents ?? lowercase
      return (s) => {
        if (spec.clean_text !== false) {
          // Tab, newline and carriage return are Cc too: turn whitespace to spaces first.
          s = s.replace(whitespaceChars, " ").replace(controlChars, "")
        }
        if (spec.handle_chinese_chars !== false) s = s.replace(cjkChars, " $1 ")
        if (strip) s = stripAccents(s)
        if (lowercase) s = s.toLowerCase()
        return s
      }
    }
    case "Lowercase":
      return (s) => s.toLowerCase()
    case "StripAccents":
      return stripAccents
    case "NFD":
    case "NFC":
    case "NFKD":
    case "NFKC":
      return (s) => s.normalize(spec.type)
    case "Sequence": {
      const steps = (spec.normalizers as Json[]).map(normalizerOf)
      return (s) => steps.reduce((acc, f) => f(acc), s)
    }
    default:
      throw new Error(`unsupported normalizer ${String(spec.type)}`)
  }
}

const bertSplittingPreTokenizers = new Set(["BertPreTokenizer", "Whitespace", "WhitespaceSplit", "Punctuation"])
const checkPreTokenizer = (spec: Json | null | undefined) => {
  if (!spec) return
  if (spec.type === "Sequence") return (spec.pretokenizers as Json[]).forEach(checkPreTokenizer)
  if (!bertSplittingPreTokenizers.has(spec.type)) throw new Error(`unsupported pre-tokenizer ${String(spec.type)}`)
}

/** BERT's punctuation: every Unicode P* character plus the ASCII symbols. */
const bertWords = /[\p{P}\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]|[^\s\p{P}\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]+/gu

/** Special tokens before and after the text, from the post-processor. */
const specialsOf = (spec: Json | null | undefined): { before: string[]; after: string[] } => {
  if (!spec) return { before: [], after: [] }
  switch (spec.type) {
    case "BertProcessing":
    case "RobertaProcessing":
      return { before: [spec.cls[0]], after: [spec.sep[0]] }
    case "TemplateProcessing": {
      const before: string[] = []
      const after: string[] = []
      let seenSequence = false
      for (const piece of spec.single as Json[]) {
        if (piece.Sequence) seenSequence = true
        else if (piece.SpecialToken) {
          const tokens: string[] = spec.special_tokens?.[piece.SpecialToken.id]?.tokens ?? [piece.SpecialToken.id]
          ;(seenSequence ? after : before).push(...tokens)
        }
      }
      return { before, after }
    }
    case "Sequence": {
      const found = (spec.processors as Json[]).map((p) => specialsOf(p)).find((s) => s.before.length + s.after.length > 0)
      return found ?? { before: [], after: [] }
    }
    case "ByteLevel":
      return { before: [], after: [] }
    default:
      throw new Error(`unsupported post-processor ${String(spec.type)}`)
  }
}

export const wordPieceFromTokenizerJson = (json: Json, fallbackMaxLength = 512): WordPieceTokenizer => {
  const model = json.model as Json | undefined
  if (!model || (model.type !== undefined && model.type !== "WordPiece") || typeof model.vocab !== "object") {
    throw new Error(`tokenizer model ${String(model?.type)} is not WordPiece`)
  }
  const vocab = new Map<string, number>(Object.entries(model.vocab as Record<string, number>))
  const unk: string = model.unk_token ?? "[UNK]"
  const prefix: string = model.continuing_subword_prefix ?? "##"
  const maxChars: number = model.max_input_chars_per_word ?? 100
  if (!vocab.has(unk)) throw new Error(`unknown-token ${unk} is not in the vocabulary`)
  const normalize = normalizerOf(json.normalizer)
  checkPreTokenizer(json.pre_tokenizer)
  const specials = specialsOf(json.post_processor)
  for (const t of [...specials.before, ...specials.after]) {
    if (!vocab.has(t)) throw new Error(`special token ${t} is not in the vocabulary`)
  }
  const padToken: string = json.padding?.pad_token ?? (vocab.has("[PAD]") ? "[PAD]" : vocab.has("<pad>") ? "<pad>" : unk)
  const padId: number = json.padding?.pad_id ?? vocab.get(padToken) ?? 0
  const maxLength: number = json.truncation?.max_length ?? fallbackMaxLength

  const pieces = (word: string): string[] => {
    const chars = Array.from(word)
    if (chars.length > maxChars) return [unk]
    const out: string[] = []
    let start = 0
    while (start < chars.length) {
      let end = chars.length
      let found: string | undefined
      while (start < end) {
        const candidate = (start > 0 ? prefix : "") + chars.slice(start, end).join("")
        if (vocab.has(candidate)) {
          found = candidate
          break
        }
        end--
      }
      if (found === undefined) return [unk]
      out.push(found)
      start = end
    }
    return out
  }

  return {
    padId,
    maxLength,
    encode(text) {
      const budget = Math.max(0, maxLength - specials.before.length - specials.after.length)
      const body: string[] = []
      for (const [word] of normalize(text).matchAll(bertWords)) {
        body.push(...pieces(word))
        if (body.length >= budget) break
      }
      body.length = Math.min(body.length, budget)
      const tokens = [...specials.before, ...body, ...specials.after]
      return {
        tokens,
        ids: tokens.map((t) => vocab.get(t)!),
        special: tokens.map((_, i) => i < specials.before.length || i >= specials.before.length + body.length)
      }
    }
  }
}
