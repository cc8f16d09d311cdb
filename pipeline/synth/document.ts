/**
 * One application, regenerated on demand from the corpus seed and its index: numbers and dates
 * from the docket, parties and text from its continuation family (a continuation keeps its
 * parent's specification, applicant and inventors, with claims of its own), classification from
 * its topic and a sibling topic, examiner from its art unit.
 */
import { citationsFor, type Citation } from "./citations.ts"
import type { Docket, Status } from "./docket.ts"
import { company, examinersOf, lawFirm, person, SURNAMES, type Company, type Examiner, type Person } from "./names.ts"
import { docRng, Stream } from "./random.ts"
import { draftClaims, draftText, type Claim, type Text } from "./text.ts"
import type { Topic } from "./topics.ts"

export interface Cpc {
  readonly symbol: string
  /** I: inventive, A: additional. */
  readonly value: "I" | "A"
}

export interface Parties {
  readonly inventors: readonly Person[]
  /** Undefined: the inventors apply themselves. */
  readonly applicant?: Company
  readonly firm: { readonly name: string; readonly customer: number; readonly place: { readonly city: string; readonly state?: string } }
  readonly docketNumber: string
}

export interface Relation {
  readonly appNumber: string
  readonly filingDay: number
  readonly index: number
}

export interface Application {
  readonly index: number
  readonly appNumber: string
  readonly filingDay: number
  readonly pubNumber: string
  readonly pubDay: number
  readonly topic: Topic
  /** Main CPC first. */
  readonly cpc: readonly Cpc[]
  readonly text: Text
  readonly claims: readonly Claim[]
  readonly parties: Parties
  readonly examiner: Examiner
  readonly confirmation: number
  readonly parent?: Relation
  readonly child?: Relation
  readonly provisional?: { readonly number: string; readonly day: number }
}

/** Companies active in a subclass: a dozen regulars, plus anyone now and then. */
const COMPANY_POOL = 5000

/** Parties of a continuation family (drawn for its first application); the docket number is the filing's own. */
const partiesOf = (docket: Docket, root: number, topic: Topic, i: number): Parties => {
  const rng = docRng(docket.seed, root, Stream.parties)
  const firstSurname = rng.pick(SURNAMES) // first draw: see citations.firstInventorSurname
  const individual = rng.chance(0.1)
  const family = topic.familyStart
  const applicant = individual ? undefined : company(docket.seed, rng.chance(0.8) ? (family * 7919 + rng.int(12)) % COMPANY_POOL : rng.int(COMPANY_POOL))
  const home = applicant?.place
  const n = 1 + Math.min(7, Math.floor(rng.exponential(1.6)))
  const inventors: Person[] = []
  for (let k = 0; k < n; k++) {
    const p = person(rng, home)
    inventors.push(k === 0 ? { ...p, last: firstSurname } : p)
  }
  const firm = lawFirm(docket.seed, rng.chance(0.7) ? (family * 31 + rng.int(3)) % 400 : rng.int(400))
  return {
    inventors,
    applicant,
    firm,
    docketNumber: `${firm.name.slice(0, 3).toUpperCase()}-${String(i % 100000).padStart(5, "0")}US`
  }
}

export const generate = (docket: Docket, i: number): Application => {
  const { seed, topics } = docket
  const root = docket.familyRoot(i)
  const topic = topics.topics[docket.topic[i]]
  const numbers = docRng(seed, i, Stream.numbers)

  const cpc: Cpc[] = [{ symbol: topic.symbol, value: "I" }]
  const span = topic.familyEnd - topic.familyStart
  const further = numbers.range(0, 2)
  for (let k = 0; k < further && span > 1; k++) {
    const sibling = topics.topics[topic.familyStart + numbers.int(span)].symbol
    if (!cpc.some((c) => c.symbol === sibling)) cpc.push({ symbol: sibling, value: "I" })
  }
  if (topic.indexingCodes.length > 0 && numbers.chance(0.5)) cpc.push({ symbol: numbers.pick(topic.indexingCodes), value: "A" })

  const examiners = examinersOf(seed, topic.artUnit)
  const examiner = examiners[numbers.int(examiners.length)]
  const parentIndex = docket.parentOf[i]
  const childIndex = docket.childOf[i]
  const filingDay = docket.filingDay(i)
  const provisional =
    parentIndex < 0 && numbers.chance(0.3)
      ? { number: String(61_500_000 + Math.floor(numbers.next() * 2_400_000)), day: filingDay - numbers.range(60, 364) }
      : undefined

  return {
    index: i,
    appNumber: docket.appNumber(i),
    filingDay,
    pubNumber: docket.pubNumber(i),
    pubDay: docket.pubDay(i),
    topic,
    cpc,
    text: draftText(topics.topics[docket.topic[root]], docRng(seed, root, Stream.text)),
    claims: draftClaims(topic, docRng(seed, i, Stream.claims)),
    parties: partiesOf(docket, root, topics.topics[docket.topic[root]], i),
    examiner,
    confirmation: 1000 + numbers.int(9000),
    parent: parentIndex >= 0 ? { index: parentIndex, appNumber: docket.appNumber(parentIndex), filingDay: docket.filingDay(parentIndex) } : undefined,
    child: childIndex >= 0 ? { index: childIndex, appNumber: docket.appNumber(childIndex), filingDay: docket.filingDay(childIndex) } : undefined,
    provisional
  }
}

export interface Grant {
  readonly number: string
  readonly issueDay: number
  readonly citations: readonly Citation[]
  /** The parent's status when this grant issued. */
  readonly parentStatus?: Status
}

export const grantOf = (docket: Docket, app: Application): Grant | undefined => {
  const number = docket.grantNumber(app.index)
  if (number === undefined) return undefined
  const issueDay = docket.issueDay[app.index]
  return {
    number,
    issueDay,
    citations: citationsFor(docket, app.index),
    parentStatus: app.parent ? docket.statusOn(app.parent.index, issueDay) : undefined
  }
}
