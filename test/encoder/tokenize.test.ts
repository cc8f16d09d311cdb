import { describe, expect, it } from "vitest"
import {
  countPatentWords,
  defaultPatentTokenizerSettings,
  parsePatentTokenizerSettings,
  termsOf,
  tokenizePatentText
} from "../../core/text/tokenize.ts"

const stems = (text: string) => tokenizePatentText(text).map((t) => t.stem)

describe("patent tokeniser", () => {
  it("lower-cases, folds accents and Porter-stems", () => {
    expect(stems("Connecting Connected CONNECTIONS")).toEqual(["connect", "connect", "connect"])
    expect(stems("Café rotors")).toEqual(["cafe", "rotor"])
  })

  it("drops claim boilerplate and English stop words but keeps claim-category nouns", () => {
    expect(stems("1. An apparatus comprising: a first member, wherein said member is configured to rotate")).toEqual([
      "apparatu",
      "member",
      "member",
      "rotat"
    ])
    expect(stems("A method and system, the device having means for sealing")).toEqual(["method", "system", "devic", "mean", "seal"])
  })

  it("drops reference numerals and numbers but keeps alphanumeric technical terms", () => {
    expect(stems("lever 12 engages slot 14a in 2005 with CO2 and H264")).toEqual(["lever", "engag", "slot", "co2", "h264"])
  })

  it("forms bigrams only between words adjacent in the text", () => {
    const tokens = tokenizePatentText("A heat exchanger; the rotor of the turbine. Heat-exchanger tubes")
    expect(termsOf(tokens, true)).toEqual([
      "heat",
      "exchang",
      "heat exchang",
      "rotor",
      "turbin",
      "heat",
      "exchang",
      "heat exchang",
      "tube",
      "exchang tube"
    ])
    expect(termsOf(tokens, false)).toEqual(["heat", "exchang", "rotor", "turbin", "heat", "exchang", "tube"])
  })

  it("treats the abstract/claim separator as a clause break, not a word", () => {
    expect(termsOf(tokenizePatentText("a rotating shaft [SEP] bearing housing"), true)).toEqual([
      "rotat",
      "shaft",
      "rotat shaft",
      "bear",
      "hous",
      "bear hous"
    ])
  })

  it("returns nothing for empty or all-boilerplate text", () => {
    expect(tokenizePatentText("")).toEqual([])
    expect(tokenizePatentText("said wherein, thereof; comprising the at least one of")).toEqual([])
  })

  it("round-trips its settings through JSON and applies saved stop words", () => {
    const saved = JSON.parse(JSON.stringify(defaultPatentTokenizerSettings))
    expect(parsePatentTokenizerSettings(saved)).toEqual(defaultPatentTokenizerSettings)
    const custom = parsePatentTokenizerSettings({ ...saved, stopWords: ["rotor"] })
    expect(tokenizePatentText("the rotor blade", custom).map((t) => t.stem)).toEqual(["the", "blade"])
    expect(() => parsePatentTokenizerSettings({ stemmer: "lancaster" })).toThrow(/stemmer/)
  })

  it("counts the words it keeps without stemming, stopping at the count asked for", () => {
    for (const text of [
      "",
      "the rotating drum dryer",
      "1. An apparatus comprising: a first member, wherein said member is configured to rotate",
      // A long opening of stop words: the count must read past the first stretch of text.
      `${"the of and ".repeat(300)} drum dryer`,
      "Café rotors 12 14a co2 ".repeat(200)
    ]) {
      const kept = tokenizePatentText(text).length
      for (const upTo of [1, 3, 8, 1000]) expect(countPatentWords(text, upTo)).toBe(Math.min(kept, upTo))
    }
  })
})
