import { describe, expect, it } from "vitest"
import { htmlToInlineText, htmlToLines, htmlToText } from "../../core/text/html.ts"

describe("htmlToLines", () => {
  it("splits ppubs description HTML at <br /> and keeps paragraph numbers", () => {
    const html =
      'BRIEF DESCRIPTION OF THE DRAWINGS<br />[0009] <figref idref="DRAWINGS">FIG. <b>1</b></figref> is a graph.<br />(2)  FIG. 2 shows a   circuit.'
    expect(htmlToLines(html)).toEqual(["BRIEF DESCRIPTION OF THE DRAWINGS", "[0009] FIG. 1 is a graph.", "(2) FIG. 2 shows a circuit."])
  })

  it("decodes entities and drops zero-width characters", () => {
    expect(htmlToLines("GE Oil &amp; Gas &quot;LP&quot; x &lt; 5 and y &gt; 3 co&zwnj;operate")).toEqual([
      'GE Oil & Gas "LP" x < 5 and y > 3 cooperate'
    ])
  })

  it("keeps the text of MathML and unknown elements", () => {
    expect(htmlToText("where <math><mi>x</mi><mo>=</mo><mn>2</mn></math> holds <figref>FIG. 3</figref>")).toBe("where x=2 holds FIG. 3")
  })

  it("treats block elements as line breaks and newlines as spaces by default", () => {
    expect(htmlToLines("a\nb<p>para</p>c")).toEqual(["a b", "para", "c"])
  })

  it("treats bare newlines as line breaks when asked (ppubs cross-reference fields)", () => {
    expect(htmlToLines("CROSS-REFERENCE TO RELATED APPLICATIONS\n(1) This application is a division.\n<br />", { newlineIsBreak: true })).toEqual([
      "CROSS-REFERENCE TO RELATED APPLICATIONS",
      "(1) This application is a division."
    ])
  })

  it("strips search-hit highlighting, even with malformed attribute quotes", () => {
    expect(htmlToInlineText('<span term=""system"" class="highlight18">System</span> for providing content')).toBe(
      "System for providing content"
    )
  })

  it("gives nothing for empty input", () => {
    expect(htmlToLines(null)).toEqual([])
    expect(htmlToText("")).toBe("")
    expect(htmlToLines("<br /> <br />")).toEqual([])
  })

  it("joins lines with spaces for inline text", () => {
    expect(htmlToInlineText("A vehicle seat<br />includes a seat back.")).toBe("A vehicle seat includes a seat back.")
  })
})
