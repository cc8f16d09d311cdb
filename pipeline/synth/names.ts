/**
 * People and organisations: inventors, applicants/assignees, attorneys and examiners. Pools are
 * small and fixed; who appears where is decided by hashes of the corpus seed, so the same
 * company keeps filing in the same fields and the same examiners sit in the same art unit.
 */
import { hash2, hash3, hashString, Rng } from "./random.ts"

export const SURNAMES = [
  "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
  "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
  "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
  "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
  "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts",
  "Chen", "Wang", "Li", "Zhang", "Liu", "Yang", "Huang", "Zhao", "Wu", "Zhou",
  "Kim", "Park", "Choi", "Jung", "Kang", "Cho", "Yoon", "Jang", "Lim", "Han",
  "Sato", "Suzuki", "Takahashi", "Tanaka", "Watanabe", "Ito", "Yamamoto", "Nakamura", "Kobayashi", "Kato",
  "Muller", "Schmidt", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann",
  "Patel", "Shah", "Kumar", "Singh", "Sharma", "Gupta", "Rao", "Reddy", "Iyer", "Desai",
  "Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Dubois", "Laurent", "Moreau", "Bernard", "Petit",
  "Cohen", "Levy", "Friedman", "Katz", "Novak", "Kowalski", "Nowak", "Ivanov", "Petrov", "Larsen",
  "Hansen", "Johansson", "Nilsson", "Eriksson", "Berg", "Lindqvist", "O'Brien", "Murphy", "Kelly", "Walsh",
  "Stewart", "Morris", "Rogers", "Reed", "Cook", "Morgan", "Bell", "Cooper", "Richardson", "Cox",
  "Howard", "Ward", "Peterson", "Gray", "James", "Watson", "Brooks", "Sanders", "Price", "Bennett",
  "Wood", "Barnes", "Ross", "Henderson", "Coleman", "Jenkins", "Perry", "Powell", "Long", "Patterson",
  "Hughes", "Washington", "Butler", "Simmons", "Foster", "Bryant", "Alexander", "Russell", "Griffin", "Diaz",
  "Hayes", "Myers", "Ford", "Hamilton", "Graham", "Sullivan", "Wallace", "Woods", "Cole", "West"
] as const

export const FIRST_NAMES = [
  "James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William", "Elizabeth",
  "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen",
  "Christopher", "Nancy", "Daniel", "Lisa", "Matthew", "Betty", "Anthony", "Margaret", "Mark", "Sandra",
  "Donald", "Ashley", "Steven", "Kimberly", "Paul", "Emily", "Andrew", "Donna", "Joshua", "Michelle",
  "Kenneth", "Carol", "Kevin", "Amanda", "Brian", "Melissa", "George", "Deborah", "Timothy", "Stephanie",
  "Wei", "Jing", "Hao", "Min", "Lei", "Yan", "Jun", "Hui", "Tao", "Xin",
  "Hiroshi", "Takeshi", "Yuki", "Kenji", "Satoshi", "Akira", "Naoko", "Koji", "Haruki", "Emi",
  "Ji-hoon", "Seung", "Min-jun", "Soo-jin", "Hyun", "Dong", "Eun", "Jae", "Sung", "Young",
  "Stefan", "Andreas", "Jurgen", "Katrin", "Markus", "Sabine", "Klaus", "Anja", "Tobias", "Uwe",
  "Rahul", "Priya", "Anil", "Sunita", "Vijay", "Deepak", "Arjun", "Kavita", "Ravi", "Sanjay",
  "Marco", "Giulia", "Luca", "Pierre", "Sophie", "Jean", "Claire", "Lars", "Ingrid", "Erik",
  "Ahmed", "Fatima", "Omar", "Yusuf", "Elena", "Dmitri", "Olga", "Pavel", "Ana", "Carlos"
] as const

const INITIALS = "ABCDEFGHJKLMNPRSTW"

export interface Place {
  readonly city: string
  readonly state?: string
  readonly country: string
}

export const PLACES: readonly Place[] = [
  { city: "San Jose", state: "CA", country: "US" }, { city: "Palo Alto", state: "CA", country: "US" },
  { city: "San Diego", state: "CA", country: "US" }, { city: "Mountain View", state: "CA", country: "US" },
  { city: "Sunnyvale", state: "CA", country: "US" }, { city: "Irvine", state: "CA", country: "US" },
  { city: "Seattle", state: "WA", country: "US" }, { city: "Redmond", state: "WA", country: "US" },
  { city: "Austin", state: "TX", country: "US" }, { city: "Houston", state: "TX", country: "US" },
  { city: "Dallas", state: "TX", country: "US" }, { city: "Boston", state: "MA", country: "US" },
  { city: "Cambridge", state: "MA", country: "US" }, { city: "New York", state: "NY", country: "US" },
  { city: "Rochester", state: "NY", country: "US" }, { city: "Armonk", state: "NY", country: "US" },
  { city: "Chicago", state: "IL", country: "US" }, { city: "Minneapolis", state: "MN", country: "US" },
  { city: "Saint Paul", state: "MN", country: "US" }, { city: "Ann Arbor", state: "MI", country: "US" },
  { city: "Detroit", state: "MI", country: "US" }, { city: "Columbus", state: "OH", country: "US" },
  { city: "Cincinnati", state: "OH", country: "US" }, { city: "Pittsburgh", state: "PA", country: "US" },
  { city: "Philadelphia", state: "PA", country: "US" }, { city: "Raleigh", state: "NC", country: "US" },
  { city: "Durham", state: "NC", country: "US" }, { city: "Atlanta", state: "GA", country: "US" },
  { city: "Phoenix", state: "AZ", country: "US" }, { city: "Denver", state: "CO", country: "US" },
  { city: "Boulder", state: "CO", country: "US" }, { city: "Salt Lake City", state: "UT", country: "US" },
  { city: "Portland", state: "OR", country: "US" }, { city: "Hillsboro", state: "OR", country: "US" },
  { city: "Madison", state: "WI", country: "US" }, { city: "Indianapolis", state: "IN", country: "US" },
  { city: "Tokyo", country: "JP" }, { city: "Osaka", country: "JP" }, { city: "Kawasaki", country: "JP" },
  { city: "Nagoya", country: "JP" }, { city: "Kyoto", country: "JP" }, { city: "Seoul", country: "KR" },
  { city: "Suwon-si", country: "KR" }, { city: "Daejeon", country: "KR" }, { city: "Shenzhen", country: "CN" },
  { city: "Beijing", country: "CN" }, { city: "Shanghai", country: "CN" }, { city: "Hsinchu", country: "TW" },
  { city: "Taipei", country: "TW" }, { city: "Munich", country: "DE" }, { city: "Stuttgart", country: "DE" },
  { city: "Erlangen", country: "DE" }, { city: "Ludwigshafen", country: "DE" }, { city: "Paris", country: "FR" },
  { city: "Grenoble", country: "FR" }, { city: "Eindhoven", country: "NL" }, { city: "Basel", country: "CH" },
  { city: "Zurich", country: "CH" }, { city: "Stockholm", country: "SE" }, { city: "Espoo", country: "FI" },
  { city: "Cambridge", country: "GB" }, { city: "London", country: "GB" }, { city: "Tel Aviv", country: "IL" },
  { city: "Haifa", country: "IL" }, { city: "Bangalore", country: "IN" }, { city: "Toronto", state: "ON", country: "CA" },
  { city: "Milan", country: "IT" }, { city: "Copenhagen", country: "DK" }
]

const COMPANY_HEADS = [
  "Apex", "Northwind", "Bluefield", "Crestline", "Silverline", "Ironwood", "Summit", "Meridian", "Vertex", "Pinnacle",
  "Helix", "Quantum", "Orion", "Polaris", "Aurora", "Zenith", "Cobalt", "Granite", "Redwood", "Evergreen",
  "Lumina", "Nexus", "Stratus", "Vector", "Kestrel", "Falcon", "Cascade", "Sierra", "Atlas", "Titan",
  "Harbor", "Beacon", "Keystone", "Sterling", "Clearwater", "Riverbend", "Westbrook", "Eastgate", "Oakridge", "Maple",
  "Tanaka", "Hoshi", "Daewon", "Hanil", "Sunway", "Huaxin", "Rheinwerk", "Nordstrom", "Alpine", "Lucerne"
]
const COMPANY_FIELDS = [
  "Technologies", "Systems", "Devices", "Electronics", "Photonics", "Materials", "Biosciences", "Therapeutics",
  "Instruments", "Industries", "Semiconductor", "Networks", "Robotics", "Energy", "Medical", "Chemical",
  "Dynamics", "Labs", "Automation", "Manufacturing", "Optics", "Software", "Motors", "Pharmaceuticals"
]
const COMPANY_FORMS = ["Inc.", "Corporation", "LLC", "Co., Ltd.", "GmbH", "Ltd.", "AG", "Incorporated", "Corp.", "S.A."]
const COMPANY_REGIONS = ["", "International", "America", "Europe", "Asia", "Global", "Holdings"]

export interface Company {
  readonly name: string
  readonly place: Place
  /** USPTO assignee role code: 02 US company, 03 foreign company. */
  readonly role: "02" | "03"
}

/** Company `k` of the corpus; names are unique per k within the pool size used. */
export const company = (seed: number, k: number): Company => {
  const h = hash2(seed ^ 0x5bd1e995, k)
  const head = COMPANY_HEADS[k % COMPANY_HEADS.length]
  const field = COMPANY_FIELDS[Math.floor(k / COMPANY_HEADS.length) % COMPANY_FIELDS.length]
  const form = COMPANY_FORMS[(h >>> 8) % COMPANY_FORMS.length]
  const round = Math.floor(k / (COMPANY_HEADS.length * COMPANY_FIELDS.length))
  const place = PLACES[(h >>> 16) % PLACES.length]
  const region = COMPANY_REGIONS[round % COMPANY_REGIONS.length]
  const name = round === 0 ? `${head} ${field} ${form}` : `${head} ${field} ${region} ${form}`
  return { name, place, role: place.country === "US" ? "02" : "03" }
}

export interface Person {
  readonly last: string
  readonly first: string
  readonly place: Place
}

export const person = (rng: Rng, home?: Place): Person => {
  const middle = rng.chance(0.45) ? ` ${INITIALS[rng.int(INITIALS.length)]}.` : ""
  return {
    last: rng.pick(SURNAMES),
    first: rng.pick(FIRST_NAMES) + middle,
    place: home !== undefined && rng.chance(0.8) ? home : rng.pick(PLACES)
  }
}

const FIRM_FORMS = ["LLP", "P.C.", "PLLC", "LLC", "P.A."]

/** Law firms representing applicants (agents in the grant XML, correspondence in PEDS). */
export const lawFirm = (seed: number, k: number): { readonly name: string; readonly place: Place; readonly customer: number } => {
  const h = hash2(seed ^ 0x1b873593, k)
  const a = SURNAMES[h % SURNAMES.length]
  const b = SURNAMES[(h >>> 8) % SURNAMES.length]
  const place = PLACES[(h >>> 16) % 36] // US offices
  return { name: `${a} ${b === a ? "Kline" : b} ${FIRM_FORMS[(h >>> 24) % FIRM_FORMS.length]}`, place, customer: 20_000 + (h % 180_000) }
}

export interface Examiner {
  readonly last: string
  readonly first: string
  readonly artUnit: number
}

const examinerCache = new Map<number, readonly Examiner[]>()

/** The examiners of one art unit: 6–17 of them, fixed for a seed. */
export const examinersOf = (seed: number, artUnit: number): readonly Examiner[] => {
  const key = (seed >>> 0) * 10_000 + artUnit
  let list = examinerCache.get(key)
  if (list === undefined) {
    const rng = new Rng(hash3(seed, artUnit, hashString("examiners")))
    const n = 6 + rng.int(12)
    const out: Examiner[] = []
    for (let k = 0; k < n; k++) {
      const initial = rng.chance(0.7) ? ` ${INITIALS[rng.int(INITIALS.length)]}` : ""
      out.push({ last: rng.pick(SURNAMES), first: rng.pick(FIRST_NAMES) + initial, artUnit })
    }
    list = out
    examinerCache.set(key, list)
  }
  return list
}

/** "NGUYEN, CUONG H" — how PEDS writes an examiner. */
export const pedsName = (last: string, first: string): string => `${last}, ${first.replace(/\./g, "")}`.toUpperCase()
