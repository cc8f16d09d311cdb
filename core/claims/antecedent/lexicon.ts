/**
 * Word lists for the antecedent checker. Claims use a small, stable vocabulary of function words,
 * so a hand list plus suffix rules chunks noun phrases well enough without a tagger (and keeps the
 * check deterministic and sub-millisecond). Everything is lower case.
 */

const set = (s: string) => new Set(s.trim().split(/\s+/))

/** Words that can never sit inside a noun phrase: a phrase ends where one appears. */
export const BOUNDARY = set(`
  of in on at to from by with without into onto upon over under between among amongst through throughout
  across along around about above below beneath beside besides behind beyond within toward towards
  against after before during until till via per near past since except than like unlike versus vs off up down out
  thru amid atop underneath alongside
  and or and/or nor but yet so that which who whom whose what whatever when whenever where wherever wherein whereby
  whereon whereof wherefrom whereat whereas whereupon while whilst whether if unless because although though then
  thereby therein thereof thereon thereto therefrom therewith therethrough thereafter thereabout thereunder
  therebetween therealong thereover therefor thereat therewithin thereupon thereinto herein hereof hereto hereby
  such as also either neither both not only even just respectively thus hence therefore i.e e.g etc
  including comprising consisting having comprises includes contains containing consists comprise include contain
  being is are was were be been am has have had does do did can could may might must shall should will would
  a an the said this these those each every all any some no another its their his her it they them itself
  themselves we our us you your he she him
  there here
  then
  for further cannot due rather forth instead
  how why
`)

/** Words that end a noun phrase once it has a word ("a hinge attached to", "a valve downstream of") but may open one. */
export const AFTER_HEAD_BOUNDARY = set(`
  configured adapted arranged operable operative capable able designed constructed disposed positioned located
  situated mounted attached connected coupled secured fixed fastened affixed provided formed defined received
  carried supported held extending selected chosen based used using responsive according relative corresponding
  associated sufficient suitable effective made produced obtained generated determined calculated stored transmitted
  sent built kept found known shown given taken drawn grown worn woven broken hidden written driven bent
  inside outside adjacent proximate opposite upstream downstream alone together apart away thereof
  spaced located oriented aligned sized shaped dimensioned stacked interposed sandwiched embedded
  less more greater smaller larger higher lower equal different identical similar
  prior subsequent irrespective regardless plus minus free nearest closest present related one
`)

/** Adverbs allowed to open a phrase ("a substantially planar face") but excluded from matching keys. */
export const LEADING_ADVERB = set(`substantially generally approximately essentially nearly partially partly fully
  completely entirely mainly mostly relatively sufficiently electrically mechanically thermally optically magnetically
  fluidly physically operatively operably communicatively removably releasably rotatably slidably pivotally detachably
  integrally continuously periodically selectively independently respectively individually collectively
  horizontally vertically laterally longitudinally radially axially circumferentially transversely diagonally
  highly very most least more less`)

/** Words ending in -ly that are nouns or adjectives, not adverbs. */
export const LY_NOT_ADVERB = set(`assembly subassembly supply family poly anomaly reply butterfly jelly belly rally ally
  italy bully fly monopoly only early daily weekly monthly yearly hourly friendly holy ugly lonely costly likely
  curly oily hilly silly jolly doily lily gully sully tally polly melancholy homily`)

/** -ing words that are nouns ("a motor housing"), so they do not mark a possible verb. */
export const ING_NOUNS = set(`housing bearing casing opening coupling fitting ring spring string wing king thing
  building ceiling lining wiring padding setting heading drawing recording reading finding mapping coating tubing
  piping fastening packing packaging clothing bedding bushing spacing timing seating shielding molding moulding
  plating flooring roofing siding railing decking sling swing awning filling stuffing wrapping lettering marking
  rating sibling offspring pudding icing dressing topping listing posting meeting greeting earring o-ring
  something anything nothing everything morning evening ping bling cling sting thong during
  planning scheduling training learning routing bonding welding soldering printing cladding sheeting webbing
  netting matting tiling paving framing fencing flashing trimming edging binding mounting fixing landing
  grating lighting heating cooling venting piercing handling shipping billing banking`)

/** -ed words that are not participles. */
export const ED_NOT_VERB = set(`bed red speed feed seed need reed weed bleed steed shed sled hundred infrared
  sacred naked wicked kindred hatred fed led wed shred`)

/** Irregular participles that end a noun phrase when they follow its head. */
export const IRREGULAR_PARTICIPLES = set(`made held built sent kept found known shown given taken drawn grown worn
  woven chosen broken hidden written driven bent spun sewn frozen borne thrown bound`)

/** Third-person verbs that follow a head noun in claims ("the processor executes instructions"). */
export const VERB_S = set(`comprises includes contains has is does defines forms receives provides extends
  generates determines stores transmits sends executes performs causes allows enables permits prevents requires uses
  supports engages contacts surrounds encloses covers connects couples moves rotates operates controls maintains
  produces outputs computes calculates identifies detects measures monitors indicates represents corresponds
  exceeds reaches becomes remains lies sits rests abuts faces opens closes carries holds retains limits
  separates divides joins passes flows reduces increases decreases applies selects compares displays reads writes
  applies emits reflects absorbs converts creates updates obtains accesses triggers activates deactivates
  communicates transfers delivers dispenses collects pivots slides translates`)

/** Base-form verbs that follow a (coordinated or plural) subject: "the rod and the joint provide a …". */
export const BASE_VERBS = set(`belong provide move create extend form define include comprise contain have cooperate engage
  allow cause represent operate act satisfy correspond prevent maintain permit enable receive rotate slide remain lie
  reach exceed meet overlap intersect communicate cooperate interact abut contact surround enclose cover connect couple
  perform generate determine produce transmit send store execute constitute become remain`)

/** Nouns that end in -s but are singular (or invariant): never treated as plurals. */
export const S_SINGULAR = set(`gas lens bias series species means apparatus chassis status bus plus minus corpus canvas
  atlas alias iris axis basis analysis thesis synthesis hypothesis diagnosis prosthesis emphasis crisis parenthesis
  radius focus nexus virus stylus sinus fetus uterus abacus cactus campus census chorus genus onus surplus bonus
  torus locus modulus calculus stimulus nucleus fungus lumen thus this its yes always perhaps across was has is
  does his hers ours yours news physics mathematics electronics optics mechanics dynamics kinetics statistics
  economics genetics acoustics logistics ethics graphics robotics analytics diagnostics thermodynamics
  hydraulics pneumatics aesthetics aerodynamics ergonomics billiards
  process access mass class glass gauss loss boss moss pass press stress dress cross gloss truss
  lattice various numerous previous continuous`)

/** Mass nouns: no plural/singular mismatch is reported for them. */
export const MASS_NOUNS = set(`data information software hardware firmware equipment water air power energy heat
  light content traffic feedback metadata text music media glass metal plastic rubber oil fuel steam ice smoke dust
  sand soil concrete wood foam paint ink blood tissue food waste mail electricity current voltage pressure
  temperature moisture humidity noise radiation fluid liquid material matter mixture composition solution
  water vapor vapour oxygen nitrogen hydrogen carbon silicon copper aluminum aluminium steel iron gold silver
  zinc tin lead nickel titanium polymer resin adhesive coolant lubricant refrigerant feedstock slurry
  code logic circuitry`)

/** Irregular plural → singular. */
export const IRREGULAR_PLURALS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    feet: "foot", teeth: "tooth", men: "man", women: "woman", children: "child", mice: "mouse", geese: "goose",
    people: "person", indices: "index", vertices: "vertex", matrices: "matrix", appendices: "appendix",
    apices: "apex", axes: "axis", analyses: "analysis", crises: "crisis", hypotheses: "hypothesis", theses: "thesis",
    parentheses: "parenthesis", syntheses: "synthesis", diagnoses: "diagnosis", prostheses: "prosthesis",
    emphases: "emphasis", criteria: "criterion", phenomena: "phenomenon", media: "medium", strata: "stratum",
    bacteria: "bacterium", radii: "radius", nuclei: "nucleus", stimuli: "stimulus", fungi: "fungus", loci: "locus",
    foci: "focus", cacti: "cactus", termini: "terminus", calculi: "calculus", automata: "automaton",
    lumina: "lumen", halves: "half", knives: "knife", leaves: "leaf", shelves: "shelf", wolves: "wolf", lives: "life",
    wives: "wife", calves: "calf", thieves: "thief", selves: "self", gases: "gas", gasses: "gas", biases: "bias",
    lenses: "lens", buses: "bus", busses: "bus", statuses: "status", apparatuses: "apparatus", caches: "cache",
    niches: "niche", aches: "ache", echoes: "echo", heroes: "hero", potatoes: "potato", tomatoes: "tomato",
    torpedoes: "torpedo", vetoes: "veto", cargoes: "cargo", volcanoes: "volcano", quizzes: "quiz",
    viruses: "virus", campuses: "campus", corpuses: "corpus", bonuses: "bonus", tori: "torus", moduli: "modulus",
    dice: "die", oxen: "ox", lice: "louse", bases: "base"
  })
)

/** Position and ordinal words: distinguishing modifiers ("a first gear" ≠ "a second gear"). */
export const ORDINALS = set(`first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth
  thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth nth last final
  primary secondary tertiary`)

/** Words that may be coordinated before a shared head ("the first and second gears", "upper and lower plates"). */
export const COORDINABLE = set(`first second third fourth fifth sixth seventh eighth ninth tenth upper lower inner
  outer left right front rear back top bottom proximal distal input output inlet outlet male female positive negative
  horizontal vertical primary secondary upstream downstream forward rearward leading trailing opposite opposing
  adjacent lateral medial anterior posterior central peripheral internal external inside outside near far source
  target transmit receive transmitting receiving read write start end starting ending minimum maximum high low
  short long narrow wide major minor`)

export const NUMBER_WORDS: ReadonlyMap<string, number> = new Map(
  Object.entries({ two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
    twelve: 12, twenty: 20, dozen: 12 })
)

/** Generic names of a process or a part of one: "the milking procedure" is the milking already recited. */
export const PROCESS_NOUNS = set(`procedure process operation treatment technique method reaction stage phase step cycle
  routine`)

/**
 * Parts and states of a living body that a claim about a patient or user may name without reciting
 * them ("the skin", "the synovial membrane", "the pain"). Words that also name machine parts
 * (arm, head, foot, tooth, membrane …) are left out.
 */
export const ANATOMY = set(`skin epidermis dermis scalp heart cardiac lung pulmonary liver hepatic kidney renal brain
  cerebral spinal spine vertebra skull cartilage synovia synovium synovial tendon ligament muscle muscular bone
  skeletal marrow artery arterial vein venous aorta nerve neural retina cornea eyelid eyeball eye ocular mouth oral
  gingiva gingival throat esophagus stomach gastric intestine intestinal colon rectum bladder uterus cervix vagina
  prostate breast nostril nostrils udder teat torso abdomen abdominal thorax pelvis knee ankle wrist elbow forearm thigh toe fingertip
  palm jaw mandible maxilla blood bloodstream plasma serum lymph mucosa mucosal tumor tumour lesion wound pain
  inflammation symptom swelling itching fever`)

/** "a set of feet": quantifier nouns that pass the reference on to their object. */
export const COLLECTIVES = set(`plurality set pair group series array multitude number collection sequence stack
  bundle batch bank cluster couple multiplicity variety range`)
