// Phrase banks for the local backstory generator (local-text.server.ts). Plain data.
//
// A template is one sentence. Its choices, written [one|other|a third], are made independently
// each time it is used (they may nest: [a [big|small] one|none]), so the same template reads
// differently from story to story; a choice may be empty ([, at least|]).
// Placeholders, filled in one pass after the choices (values are never re-scanned, so a name or
// a description containing braces or brackets stays as typed):
//   {name} {name's}   the persona's short name (first name when it has one), and its possessive
//   {full} {full's}   the full name
//   {they} {They} {them} {their} {Their} {themselves}
//                     pronouns: he/him/his/himself, she/her/her/herself, or they/them/their/themselves
//   {v:verb}          a present-tense verb whose subject is the pronoun just before it, written in
//                     the plural form ("{they} {v:are}", "{they} {v:love}"); it becomes "is" / "loves"
//                     for he and she. Never used after {name}: a name always takes the singular.
//   {pastime}         one of the persona's interests ("music"), drawn each time; everyday pastimes without any
//   {quality}         one of the persona's traits as a noun ("curiosity"), drawn each time
//   anything else     a value the section supplies: {year}, {place}, {home}, {topic}, {field},
//                     {aLabel}, {education}, {occupation}, {residence}, {residenceCity}, {a}, {b}, {trait}, {job}, {job2}, {career}, {desc}, {interest}.
// Templates are written in US English and each ends with its punctuation. Sentences of more than
// twelve words carry enough choices and persona details that two personas' stories do not share
// them word for word; generic remarks are kept short.
import type { AgeRange, Interest, PersonaType, TRAIT_CATEGORIES } from "~/domain/persona";

export type Template = string;
export type Trait = (typeof TRAIT_CATEGORIES)[keyof typeof TRAIT_CATEGORIES][number];

/** {pastime} for a persona with no interests. */
export const FALLBACK_PASTIMES: string[] = ["old films", "long walks", "crossword puzzles", "secondhand books", "board games"];

/** {quality} for a persona with no traits. */
export const FALLBACK_QUALITIES: string[] = ["patience", "good humor", "stubbornness", "sense of fairness"];

/**
 * Leads a sentence that opens with the persona may get ("By all accounts, she…"), by part of
 * the story; each is used at most once per story. The composer adds the space after the comma.
 * Leads and tails may hold choices and placeholders like any template.
 */
export const LEADS: Record<"origins" | "childhood" | "youth" | "character" | "past" | "present" | "later" | "future", Template[]> = {
  origins: [
    "In [those|the] [early|first] years[ in {home}|],",
    "[From the start|From the beginning|Early on|From the very first],",
    "As {their} [parents tell|family tells|grandparents tell|relatives tell] it,",
    "[According to|If you believe] {their} [family|parents|relatives],",
    "[Long before|Years before] {residenceCity},",
  ],
  childhood: [
    "[Back|Way back] in {home},",
    "[Back then|Even then|Early on|Already then],",
    "In those [days|years|summers],",
    "In those {home} [years|days|summers],",
    "As a [kid|child|youngster] in {home},",
    "[Long|Years] before {residenceCity},",
  ],
  youth: [
    "Around [then|that time|those years],",
    "In those [years|school years|teenage years],",
    "[Meanwhile|At the same time],",
    "Not long [after|afterward],",
    "[Somewhere|Sometime] in those [restless|busy|noisy|hungry] years,",
    "By {their} [own|later|cheerful|rueful] account,",
    "[Still|Then still] in {home},",
  ],
  character: [
    "By [all|most] accounts,",
    "As [friends|old friends|colleagues|neighbors] [tell|put] it,",
    "To those who know {them} [well|best],",
    "[Friends|Neighbors|Regulars] in {residenceCity} [agree|will tell you]:",
    "[Colleagues|Neighbors|Old classmates|Cousins back in {home}] would agree:",
    "Ask [anyone|anybody] who [knows|has worked with] {them}:",
    "Without a [doubt|question],",
    "Even on a [bad|long|gray|hectic] [day|week],",
    "[At heart|Deep down|Underneath it all|At bottom],",
    "[As|Like] anyone in {home} [could|would|will] tell you,",
    "As {their} [friends|family|neighbors] [know|will tell you],",
    "[Quietly|Plainly|Simply|Honestly] [put|said],",
    "[For|With] someone so fond of {pastime},",
    "[In|Around] {residenceCity},",
    "[True to form|Typically|Predictably],",
  ],
  past: [
    "At one [point|stage],",
    "[Some|A few] years in,",
    "[Later|Later on],",
    "Before [long|too long],",
    "After a [while|year or two],",
    "In those [busy|lean|early] years,",
    "Not long [after|afterward],",
    "[Back|Early] in the {residenceCity} days,",
    "[Around|About] that time,",
  ],
  present: [
    "These days,",
    "Today,",
    "[In|Around] {residenceCity},",
    "Even [now|today],",
    "To this day,",
    "As a [rule|habit],",
    "Here in {residenceCity},",
    "Most of the [time|week],",
    "[Years|Some years] on,",
    "[Nowadays|At present],",
    "[Far|A long way] from {home},",
    "Between {pastime} and [work|everything else],",
    "[Week to week|Day to day|Month to month],",
  ],
  later: [
    "In the [end|long run],",
    "[Slowly|Quietly|Patiently],",
    "[Eventually|Finally],",
    "With [time|patience],",
    "[Bit by bit|Step by step|Little by little],",
    "[Over|Across] [time|the months that followed],",
    "[Gradually|In time],",
  ],
  future: [
    "[One day|Someday|In time],",
    "[Sooner or later|Before long],",
    "[In the meantime|Meanwhile],",
    "[With|Given] [luck|patience|a little luck],",
    "[From|Back in] {residenceCity},",
    "[If all goes well|With any luck|All going well],",
  ],
};

/**
 * Tails a long sentence may get before its full stop (", friends say."), by part of the story;
 * each at most once per story.
 */
export const TAILS: Record<keyof typeof LEADS, Template[]> = {
  origins: [
    ", as {they} {v:remember} it",
    ", or so the [family says|story goes|family tells it]",
    ", looking [back|back now]",
    ", as [neighbors|old friends|relatives] in {home} [still tell it|remember it]",
    ", or so {they} [{v:believe}|{v:like} to think]",
    ", [long|years] before {residenceCity}",
  ],
  childhood: [
    ", as {they} [{v:remember}|{v:recall}] it",
    ", or so the [family says|story goes]",
    ", looking [back|back now]",
    ", as [old friends|cousins|neighbors] in {home} [tell|remember] it",
    ", [if memory serves|as {they} {v:recall} it]",
    ", [years|long] before {residenceCity}",
  ],
  youth: [
    ", looking [back|back now]",
    ", as {they} [{v:remember}|{v:recall}] it",
    ", more or less",
    ", or so the [story goes|family says]",
    ", [a time|years] {they} {v:recall} [fondly|with a wince|with a grin]",
    ", [if memory serves|as far as {they} can recall]",
    ", [back|still] in {home}",
  ],
  character: [
    ", [friends|colleagues|neighbors] say",
    ", by {their} own [account|admission]",
    ", as [anyone|friends|neighbors] in {residenceCity} will confirm",
    ", more often than not",
    ", for better or [worse|for worse]",
    ", [a habit|something] [from|carried from] {home}",
    ", [as|like] [a friend|an old friend|a neighbor] [once|recently] put it",
    ", in {their} own [way|fashion]",
    ", {pastime} [included|and all]",
  ],
  past: [
    ", as {they} [{v:remember}|{v:recall}] it",
    ", or so the [story goes|story is told]",
    ", looking [back|back now]",
    ", by [all|most] accounts",
    ", as [friends|neighbors] in {residenceCity} tell it",
    ", [long ago|years ago] now",
    ", [far|a long way] from {home}",
  ],
  present: [
    ", [friends|neighbors|colleagues] say",
    ", by {their} own [account|admission]",
    ", as [neighbors|friends|regulars] in {residenceCity} will confirm",
    ", more often than not",
    ", [week in, week out|month after month|year after year]",
    ", [as|or so] {their} friends [tell|put] it",
    ", as {they} [{v:tell}|{v:put}] it",
    ", [far|a long way] from {home}",
    ", {pastime} [included|permitting|and all]",
  ],
  later: [", as {they} [{v:tell}|{v:put}] it", ", by {their} own [account|admission]", ", as {they} {v:admit} [now|today|freely]"],
  future: [
    ", if all goes [well|to plan]",
    ", sooner or later",
    ", {they} [{v:say}|{v:insist}|{v:hope}]",
    ", given [time|a little time]",
    ", [all in good time|when the time is right]",
    ", [perhaps|ideally] [from|in] {residenceCity}",
  ],
};

// ------------------------------------------------------------------ origins

export const BIRTH: Template[] = [
  "{full} [was born|came into the world] in {year} in {place}[, [on a [rainy|sweltering|windy|snowy|foggy|muggy] [Tuesday|Sunday|morning|night|afternoon] [that the family still talks about|nobody at home has forgotten|that became a family story|still told at family dinners]|in the middle of [a heat wave|a cold snap|a long wet spring|a stormy autumn|a noisy street festival|a power cut|a city-wide strike]]|].",
  "The story of {full} [begins|starts] in {place}, in {year}, in a [small|cramped|sunny|drafty|narrow] [apartment|house|flat] [above a [bakery|laundromat|pharmacy|hardware store|tailor's shop]|at the end of a [busy|quiet|steep|leafy] street|near the [old market|train station|river|city park|bus depot]].",
  "Born in {year} in {place}, {full} spent {their} [first years|early years|first few years|earliest years] [in a [small|cramped|sunny|drafty|narrow] [apartment|house|flat] [above a [bakery|laundromat|pharmacy|corner shop]|on a [busy|quiet|steep|leafy] street]|within earshot of [church bells|a train line|a schoolyard|a busy market|the evening traffic|a fire station]].",
  "{full} [arrived|came along|came into the world] in {year}[, a [quiet|busy|stormy|hot] year|], [the [youngest|newest|loudest|smallest] face on a [crowded|quiet|narrow] street in {place}|one more [baby|newcomer|little one] in a [busy|sleepy|noisy] corner of {place}|in {place}, [just before|right after] [the first snow|a long summer|the spring rains|the school holidays]].",
];

/** When no age range is given: no year, no era. */
export const BIRTH_NO_AGE: Template[] = [
  "{full} grew up in {place}, and {they} still {v:describe} it as [the place that made {them}|home, whatever the address says|the city that taught {them} [almost everything|to pay attention|how to listen]][, [usually|often|always] with a [fond|crooked|wistful] smile|].",
  "The story of {full} [begins|starts] in {place}, [a city|a place] {they} still {v:think} about [almost every day|more often than {they} {v:admit}|whenever the weather turns|on [long|sleepless|quiet] nights].",
  "{full} rarely mentions birthdays, but [gladly|happily|readily] talks [for hours|at length|to anyone who asks] about growing up in {place}[ and the [streets|people|smells|sounds] of those years|].",
];

export const ERA: Record<AgeRange, Template[]> = {
  "18-24": [
    "{They} {v:belong} to the first generation that never knew a world without smartphones, and [some of {their} earliest memories involve|{their} first memories include|the family photos show {them}|the home videos from {home} show {them}] [swiping at a tablet|tapping at a borrowed phone|waving at a video call|taking blurry selfies] before {they} could [properly read|ride a bike|tie a shoelace|count to twenty][, {quality} already showing].",
    "{Their} childhood[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] ran on [fast|patchy|shared] Wi-Fi, [group chats|voice notes|late-night messages] and video tutorials, and by [high school|{their} early teens|the age of fourteen] {they} already [understood|suspected|knew] that an audience could be built from a [bedroom|laptop|phone|desk in the corner].",
    "Growing up [in the late 2000s and the 2010s|in the years of the first smartphones], {they} watched social media [turn|grow|swell] from a [novelty|curiosity|toy|side attraction] [in {home}|back in {home}|at {their} school in {home}] into [the place where {their} whole class lived|the main stage of teenage life|something everyone checked before breakfast|the loudest room in the house][, and {they} {v:have} [studied|watched|questioned] it ever since|].",
  ],
  "25-34": [
    "{They} grew up[ in {home}] straddling two worlds, with [dial-up tones|chunky desktop computers|rented videotapes] and [handheld games|burned CDs|printed maps] on one side and the first [smartphones|touchscreens|app stores] on the other[, which suited {their} {quality} perfectly].",
    "{Their} childhood[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] was a mix of [Saturday-morning cartoons|after-school television|handheld games|{pastime}], [burned CDs|mixtapes|borrowed DVDs|sticker albums|dial-up noises] and a [family|shared|secondhand|beige] computer that [everyone fought over|took five minutes to start|lived in the hallway].",
    "By the time {they} [reached|hit|entered] {their} teens, the internet had moved from the [family den|spare room|hallway desk|kitchen corner] [in {home}|back in {home}|at home in {home}] [into everyone's pocket|into every pocket|into the palm of every hand], and {they} [moved with it|followed it eagerly|{v:were} among the first in {their} class to notice|took {their} {pastime} along].",
  ],
  "35-44": [
    "{They} grew up in the era of [cassette tapes|video rentals|paper maps], [arcade cabinets|pinball machines|handheld games] and [beige|bulky|humming] home computers, when going online [meant tying up the phone line|took a screeching modem and patience|was a small adventure] [for an hour|every evening|on weekends][ in {home}| back in {home}|].",
    "{Their} childhood[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] belonged to [mixtapes|comic books|board games], [handwritten notes|pen pals|long phone calls] and [Saturday|Friday|Sunday] trips to the [video store|video shop|rental store], and {they} still {v:remember} the [first time a modem screeched into life|day the first computer came home|first email {they} ever sent].",
    "The eighties and early nineties shaped {their} childhood: [bicycles|skateboards|roller skates], [walkmans|cassette players|handheld games] and a television that only worked if [someone|somebody] [held the antenna just right|thumped it on the side|stood very still][, usually {name}].",
  ],
  "45-54": [
    "{They}[ grew up in {home}| grew up| grew up in {their} hometown| grew up in the old neighborhood] with [vinyl records|a record player|a crackling radio|a transistor radio|a jukebox down the road], [rotary phones|a shared phone line|a phone in the hallway] and [a handful of|three or four|only a few] television channels[, plus {pastime} for the rainy days|, and {their} {quality} showed early|], long before anyone [talked about going viral|had heard of the internet|owned a computer|carried a phone in a pocket].",
    "{Their} childhood[ in {home}| back in {home}|] unfolded in the seventies and early eighties, a time of [bicycles left on front lawns|street games until dark|long bus rides to school|paper rounds before dawn], [library cards|paperback novels|comic books] and letters that took [a week|days|forever] to [arrive|come|get there].",
    "As a child of the seventies[ in {home}| back in {home}], {they} learned to [entertain|amuse|occupy] {themselves} with a [transistor radio|record player|deck of cards|box of crayons], a pile of [comic books|library books|old magazines] and whatever the [neighborhood kids|children on the street|kids next door] could [invent|dream up|get away with].",
  ],
  "55+": [
    "{name}[ grew up in {home}| grew up| grew up in {their} hometown| grew up in the old neighborhood] when television was still a [novelty|luxury|marvel], news arrived [folded on the doorstep|with the morning paper|on the evening radio] and long-distance calls were [saved for birthdays|an expensive treat|kept short][, and {pastime} filled the evenings|, and {their} {quality} had room to grow|].",
    "{Their} earliest memories belong to [another age|a slower age|a different world|an older world]: [radio serials|Sunday matinees|traveling fairs|milk deliveries], [typewriters|fountain pens|party lines|carbon paper] and a [street|lane|block][ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] where [every neighbor knew every child by name|doors stayed unlocked|everyone knew everyone's business|children played until dark].",
    "As a child of the fifties and sixties, {they} watched the [world|neighborhood|family television] [change|turn|move] from black and white to [color|full color] [in {home}|back in {home}|in a small house in {home}], [one invention at a time|one decade at a time|faster than anyone expected][, and {name} has loved new things ever since|].",
  ],
};

/** When no age range is given. */
export const ERA_NONE: Template[] = [
  "{Their} childhood[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] was ordinary in most ways, full of [scraped knees|muddy shoes|borrowed bicycles], [long summers|rainy weekends|noisy holidays] and a bedroom that was never quite tidy.",
  "{Their} earliest memories are of small things: [the smell of rain on a hot street|a neighbor's radio|a kitchen full of steam], [the bells of a nearby school|the hum of traffic in {home}|a dog barking two doors down] and the sound of {their} own name called in for dinner.",
];

/**
 * The fact sheet's family (app/domain/extended-profile.ts, FAMILY) as the backstory tells it: the
 * same people, nobody added. Every telling of a family holds its marker (FAMILY_MARKERS), and no
 * other sentence does. A family the creator wrote is told in FAMILY_OWN_WORDS.
 */
export const FAMILY_STORIES: Record<string, Template[]> = {
  "Close to their parents and a younger sibling who is their biggest fan": [
    "{They} grew up [in {home}|back in {home}] close to {their} parents and a younger sibling who [was, and still is,|has always been|remains] {their} [biggest|loudest|most loyal|proudest|most devoted] fan[, [first in line at every school show|first to share every post|the one who kept every drawing and report card|ready to defend {name} against anyone]|].",
    "Home[ in {home}| where {they} grew up| in the old neighborhood| in {their} old neighborhood] meant {their} [parents|mom and dad|two parents] and a younger sibling who [trailed after|copied|looked up to|tagged along after|followed] {name} [everywhere|in everything|from the first day|at every turn] and [still cheers the loudest|remains {their} biggest fan|still brags about {them} to strangers|still calls every week].",
    "[Family came first[ in {home}|]|Home was a warm place[ in {home}|]|Home was never lonely[ in {home}|]]: {their} parents[, {their} {quality} already forming|, endless {pastime}|], and a younger sibling whose [fierce|unwavering|noisy] support [still means the world to {name}|has never let {name} down|carried {name} through more than one bad week|still shows up in every message {name} gets].",
  ],
  "Raised by a single mother who taught them resilience": [
    "Raised[ in {home}| back in {home}|] by a single mother who [worked long hours|held two jobs|ran the household alone|worked nights] and [never complained|rarely rested|always found time for homework|still made every school play], {they} learned [resilience|to be resilient|to keep going|to endure] [before {they} could spell the word|early|by watching rather than listening|one hard winter at a time][, and {their} {quality} grew from there|].",
    "{name} was [raised|brought up] by a single mother[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood], and [the lesson {they} absorbed first|what stuck above all|the habit {they} took from that example] was resilience: [get up, show up, try again|keep going when it is hard|make do, then make better].",
    "Home was {name} and a single mother who [stretched every paycheck|taught {them} to fix what was broken|never let a bad day win|sang through every chore], and that [quiet|stubborn|everyday|hard-won|daily] resilience [became|turned into|grew into] [the family inheritance|{name's} own|the backbone of everything since].",
  ],
  "Part of a big, loud family that gathers every Sunday": [
    "{name's} [home|childhood][ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] [was|meant] a big, loud family where [stories had to be good|everyone talked at once|being heard took a loud voice|nobody ever ate alone|every argument ended over dessert|the radio and the kettle never stopped|the table was never quite big enough], and {they} [learned to hold a room|found {their} voice early|rarely got the last word|learned to talk fast].",
    "{name} [comes from|grew up in|belongs to] a big, loud family[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] that [still|to this day|without fail|faithfully|reliably] gathers every Sunday[ around a [long|crowded|creaking] table|] for [food, gossip and friendly arguments|far too much food|stories everyone has heard before].",
    "Sundays[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] belonged to a big, loud family [squeezed around one table|that filled the kitchen|that never ran out of opinions|that argued over every dish|that talked over each other][ and talked over {pastime}| and admired {their} {quality}|], and {they} [still {v:go} back|still {v:show} up|rarely {v:miss} one|still {v:turn} up] [whenever {they} can|with something to share|with a new story ready|with {pastime} stories to tell].",
  ],
  "An only child with a grandmother who shaped their values": [
    "As an only child[ in {home}| back in {home}], {they} spent [long|quiet|rainy|lazy] [afternoons|weekends] with a grandmother whose [stories and stubborn kindness|patience and sharp wit|proverbs and quiet example|recipes and firm opinions] shaped {their} values[ more than any school did| for good|].",
    "{name} grew up an only child[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood], and a grandmother [who lived nearby|who took {them} everywhere|with a garden and a long memory|who told the best stories] taught {them} [most of what {they} still {v:believe}|the values {they} still {v:live} by|to be kind first and clever second].",
    "Being an only child [in {home}|back in {home}|in a quiet flat in {home}] meant [long quiet evenings|plenty of time alone|a lot of reading|a lot of imagining], [softened|brightened|filled|warmed] by a grandmother [whose values|whose sayings|whose rules of right and wrong] [still guide {name} today|still echo in every choice|shaped the adult {name} became].",
  ],
  "Has an older brother who is also their toughest critic": [
    "{They} grew up [in {home}|back in {home}] with an older brother who was, and still is, {their} [toughest|sharpest|most honest|bluntest] critic and [quiet|fiercest|unlikely|loyal] protector[, the first to tease and the first to help|, from {home} to today|].",
    "{name} has an older brother[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] who [reviews|picks apart|questions] everything {they} {v:make}, and [that tough criticism|all that blunt feedback|the critic in the family] has [sharpened|improved|toughened] {their} work for [years|a long time|ages].",
    "An older brother [set the pace|led the way|raised the bar] in the [family|house|household], and {name} [learned early|found out quickly|discovered] that {their} [toughest|sharpest|most honest] critic [was also {their} staunchest ally|rarely praised anything lightly|meant every word of it].",
  ],
  "Lives near their cousins and a very spoiled family dog": [
    "Family was never far away: cousins a few streets over[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood], and a very spoiled family dog[, a [scruffy|gray-muzzled|tireless|stubborn] [mutt|terrier|spaniel|beagle],|] that [everyone claimed as their own|ruled the house|got more treats than anyone|slept on every bed][ and tested {their} {quality}| and joined in {pastime}|].",
    "{name} still lives [near|close to|a short walk from] a [crowd|pack|noisy tribe] of cousins[ and aunts| and in-laws|], and the [very spoiled|hopelessly spoiled|thoroughly spoiled] family dog [greets {them} like a hero|expects a treat|steals a sock] [at every visit|every single time|without fail].",
    "[Weekends|Holidays|Evenings] with the cousins [and|and, inevitably,] a very spoiled family dog [have always been|were and still are|remain] the [heart|center|noisy core|best part] of {name's} family [life|world][ in {home}| back in {home}|].",
  ],
};

/** The words every telling of each family holds (and no other sentence does). */
export const FAMILY_MARKERS: Record<string, string> = {
  "Close to their parents and a younger sibling who is their biggest fan": "younger sibling",
  "Raised by a single mother who taught them resilience": "single mother",
  "Part of a big, loud family that gathers every Sunday": "big, loud family",
  "An only child with a grandmother who shaped their values": "only child",
  "Has an older brother who is also their toughest critic": "older brother",
  "Lives near their cousins and a very spoiled family dog": "spoiled family dog",
};

export const FAMILY_OWN_WORDS: Template[] = [
  "Asked about family, {name} puts it simply: {family}",
  "On family, {name} keeps it short: {family}",
];

export const HOMETOWN_LIFE: Template[] = [
  "Life[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] moved at its own [pace|speed|rhythm], and {name} [absorbed|soaked up|took in] its [rhythms|habits|moods|sounds] long before {they} [understood|could name|made sense of|noticed] them[, from the [morning markets|rush-hour crowds|late buses|corner cafés] to the [quiet Sundays|summer evenings|first cold nights|festival nights]|, one [season|street|summer] at a time].",
  "{name} still [speaks|talks][ about {home}| about {their} hometown| about the old neighborhood| about where {they} grew up] with a mix of [fondness and impatience|pride and exasperation|love and mild complaint|warmth and irony], the way people talk about [a relative|an old teacher|a friend|a first love] who taught them [a lot|more than they admit|a few hard lessons][, at length|, often at length|, usually over a long dinner|].",
  "The [streets|corner shops|bus routes|rooftops], [smells|noises|colors] and [seasons|markets|festivals][ of {home}| of {their} hometown| of the old neighborhood| of {their} childhood] [crept|worked their way|found their way] into {name's} [imagination|habits|sense of humor|{pastime}|way of seeing] and never quite left[ {them}|].",
  "Even now, [a certain kind of weather|the smell of [fresh bread|wet pavement|cut grass|bonfire smoke]|a particular song|an old jingle] can [send|take|carry] {name} straight[ back to {home}| back home| back to {their} hometown| back to the old neighborhood] and the [long|lazy|noisy|slow] [afternoons|summers|evenings|weekends] of {their} childhood[, {pastime} and all| and {their} first love of {pastime}|].",
];

// ------------------------------------------------------------------ childhood and interests

export const CHILDHOOD_OPENERS: Template[] = [
  "The passions that would define {them} showed up early.",
  "{Their} childhood enthusiasms were many, but a few stuck for good.",
  "Long before any of it became work, there were obsessions.",
  "Anyone who knew {them} as a kid remembers the same passions.",
  "Even as a small child, {they} had favorite things.",
];

/** The childhood paragraph when no interest is given. */
export const CHILDHOOD_NO_INTERESTS: Template[] = [
  "As a child, {name} tried a little of everything, from [piano lessons|swimming lessons|a drama club] to [chess club|a choir|scouting], without settling on any one thing for long.",
  "{They} {v:were} the kind of kid who [read the back of every cereal box|took apart every clock in the house|kept a diary in a made-up code] and [asked the librarian for new books|begged for a trip to the library|asked the neighbors endless questions] every single week.",
  "Teachers[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] remembered {name} as [restless but kind|quiet but sharp|curious and talkative], always [sketching something in the margins|asking one more question|daydreaming at the window] and always willing to help a classmate catch up.",
  "Summers were spent [outdoors|around {home}|on the streets near home], [building rafts|building forts|racing bicycles], mapping the neighborhood and inventing games with rules only {name} fully understood.",
];

export const INTEREST_EARLY: Record<Interest, Template[]> = {
  gaming: [
    "Gaming came first: {they} spent whole [weekends|winters|school holidays|summers][ in {home}| back in {home}|] on a [secondhand|borrowed|battered] console, learning every [shortcut|secret|trick] in a [handful|small stack] of [well-worn|beloved|half-broken|scratched] games and keeping [handwritten notes|a notebook|scribbled maps|careful notes] on [boss patterns|hidden rooms|speedrun routes].",
    "{name's} love of gaming [started|began] with a [battered|hand-me-down|secondhand] handheld [bought at a market in {home}|from a cousin's drawer|won in a school raffle] and grew into a [habit|lifelong habit|fascination|lasting curiosity] of working out what [made|makes] a level feel [fair or frustrating|fun or tedious|generous or cruel].",
    "In {their} early teens [in {home}|back in {home}], {name} [organized|ran] gaming nights for [half the street|the whole class|a dozen friends], running tournaments with [brackets|score tables|prize lists] [drawn|scribbled] on [the back of cereal boxes|a kitchen whiteboard|old school posters].",
  ],
  tech: [
    "Tech fascinated {them} from the start[ in {home}| back in {home}], and at [eleven|ten|twelve] {they} took [the family radio|an old video player|a broken alarm clock|a neighbor's cassette deck] apart to see how it worked and, to [everyone's surprise|general astonishment|the family's relief], put it back together[ again| with one screw to spare|].",
    "{name} taught {themselves} to code from [library books|online forums|old magazines][ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood], building [clumsy|lopsided|cheerful] little [websites|web pages|sites] that only [friends|a few friends|family] ever visited, and tech became a second language.",
    "Whenever a gadget broke [in the neighborhood|on {their} street|at school], people [brought|carried|took] it to {name}, and that steady stream of [tech repairs|tech fixes|small tech rescues] taught {them} [patience|care|humility|curiosity] along with [a screwdriver's worth of confidence|a lot about people|the value of a spare part].",
  ],
  fashion: [
    "Fashion became {their} way of [speaking|talking|saying things] before {they} had [the words|words|a vocabulary] for it: {they} [cut up|took apart|reworked|unpicked] [thrift-store jackets|old curtains|a parent's cast-offs|market finds from {home}|old school uniforms] and [stitched|pinned|sewed] them [back together|together again] into something [new|bold|strange and new|loud].",
    "{name} spent hours[ in {home}| back in {home}] sketching [outfits|dresses|jackets] in the margins of [school notebooks|homework|library slips], and fashion magazines [borrowed from a neighbor|rescued from a waiting room|bought with saved pocket money] were read until the pages fell out.",
    "At [fourteen|fifteen|thirteen], {name} ran a [tiny|makeshift|small] fashion stall at [the weekend market|a school fair|a flea market][ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood], selling [restyled|reworked|patched] vintage pieces and learning how strangers react to [color|a bold cut|a good story|a bargain].",
  ],
  music: [
    "Music filled the house [in {home}|back in {home}|on {their} street in {home}], and {name} learned [guitar chords|piano scales|ukulele songs] from a [worn songbook|radio show|cassette|patient uncle] before {they} could [ride a bike|swim|read a clock].",
    "{name} [joined|signed up for] the school band[ in {home}| back in {home}|], then [two garage bands|a choir|a brass ensemble|a jazz trio], and [discovered|learned|found out] that music was the [fastest|surest|quickest] way to make [a room full of strangers|a nervous crowd|a new class] feel like [friends|old friends|family].",
    "{name} recorded {their} first songs[ in {home}| back in {home}|] on a [cheap laptop microphone|borrowed tape recorder|phone in a closet|secondhand keyboard|cheap headset], and that [obsession|fascination|love affair|early passion] with music taught {them} to listen [harder than most people ever do|closely|with both ears|for the smallest details|twice before speaking].",
  ],
  art: [
    "Art was the first thing {name} was ever [praised|noticed|known] for, starting with a [crayon|chalk|pencil|felt-tip] drawing of [the family dog|a neighbor's cat|the view from the window] that hung on the [fridge|kitchen wall|hallway wall|bedroom door] for [years|a decade|ages|a long time].",
    "{name} filled [sketchbook after sketchbook|notebook after notebook|every margin and sketchbook], and an art teacher[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] who [stayed late|gave up lunch breaks|lent {them} good paper] to show {them} how light falls on [a face|a bowl of fruit|a window|an old coat] [changed the direction of {their} life|opened a door|made all the difference|fed {their} {quality}].",
    "{name} spent [afternoons|rainy weekends|whole summers][ in {home}| back in {home}|] copying [paintings|old masters|famous pictures] from [library|secondhand|borrowed] art books, trying to [work out|understand|figure out] how a few brushstrokes could hold so much [feeling|light|life][, and {their} {quality} grew with every copy|].",
  ],
  fitness: [
    "Fitness entered {their} life through a school [running club|swim team|cycling group][ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood], where {they} [discovered|learned|found out] that the last [mile|lap|hill|stretch] is [mostly|largely|really] an argument with [yourself|your own head][, a lesson {their} {quality} never forgot|, and {their} weekends were never the same|].",
    "{name} played every sport [{home} offered|{home} had to offer|the school in {home} would allow], and fitness became less about winning than[ about|] how clear {their} head felt [afterward|after a game|on the walk home].",
    "An injury at [fifteen|fourteen|sixteen|seventeen] [forced|pushed|taught] {name} to learn about fitness [properly|from scratch|the hard way], from [stretching to sleep|warm-ups to recovery|posture to nutrition], and the lessons [stuck|stayed|lasted][ long after {home}|].",
  ],
  science: [
    "Science hooked {them} early[ in {home}| back in {home}|], thanks to a [secondhand microscope|chemistry set from a yard sale|telescope from a flea market|box of old magnets] and a [habit|knack|talent] of asking [why|how|why not] until the [adults|grown-ups|teachers|neighbors] [ran out of answers|changed the subject|sent {them} to the library|laughed and gave up|reached for an encyclopedia][, {their} {quality} already at work|].",
    "{name} entered every science [fair|contest|competition] {they} could find[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood], once with a homemade [weather station that actually predicted rain|water filter that actually worked|solar oven that baked a real cake][ and a lot of {quality}| and a lot of nerve|].",
    "[Late nights|Rainy afternoons|Long summers|Quiet evenings|Sick days] [in {home}|at the library|under the covers] spent reading about [black holes and deep-sea creatures|rainforests and glaciers|volcanoes and distant planets|dinosaurs and comets] made science [feel|seem] like the [greatest|best|wildest|strangest] adventure [story|tale] {name} had ever [read|heard][, and it still does|].",
  ],
  cooking: [
    "Cooking was how {their} family [showed love|said I love you|showed affection|looked after one another], and {name} was [chopping onions and stirring sauces|rolling dough and tasting soups|washing herbs and cracking eggs|peeling potatoes and shelling peas] from the age of [eight|seven|nine|six|five][ in {home}| back in {home}|].",
    "{name} learned cooking from [a grandparent|a neighbor|an old family friend][ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] who never measured [anything|a thing], which taught {them} to [trust|rely on|prefer] [taste and instinct|smell and patience|a pinch and a guess] over recipes.",
    "At [twelve|eleven|thirteen], {name} [cooked|made] an entire [holiday|birthday|Sunday] dinner alone [in {home}|back in {home}|in a tiny kitchen in {home}], [burned the rolls|forgot the salt|dropped the dessert] and decided that cooking was worth getting [good|better|serious] at[ anyway|].",
  ],
  travel: [
    "A school [exchange trip|field trip|summer camp] gave {name} a [first|real|first real] taste of travel[ and the wider world| beyond {their} own street|], and {they} came[ home to {home}| home| home to {their} hometown| back to the old neighborhood] with [a notebook full of foreign words|a pocket full of strange coins|a head full of plans] and a [restless|lasting|stubborn] itch.",
    "{Their} family[ in {home}| back in {home}|] could [rarely|seldom|hardly ever] afford vacations, so travel happened [through|by way of] [atlases and documentaries|library books and postcards|old maps and travel shows|postcards from relatives] until {they} [saved|scraped together|put aside] enough [from odd jobs|from a summer job|over two years|from babysitting] for a first [train ticket|bus pass|plane ticket] at [eighteen|nineteen|seventeen].",
    "Travel became {their} [teacher|school|university] as {they} [backpacked on a shoestring|wandered on a budget|hitchhiked through summers|crossed borders by bus], [slept on night buses|stayed in hostels|camped in fields] and learned to ask [strangers|locals|passers-by] for [help|directions|a bed] in [five|four|several|three] languages[, far from {home}|, {their} {quality} opening doors|].",
  ],
  education: [
    "Education was taken [seriously|very seriously] [at home in {home}|at home|in {their} family|around the kitchen table|in {their} house], and {name} grew up [believing|convinced|certain|sure] that a library card was [the most valuable thing a person could own|a ticket to anywhere|worth more than pocket money][, especially for books on {pastime}|, a belief {their} {quality} only strengthened|].",
    "{name} [tutored|coached] younger [kids|cousins|neighbors] [after school|on weekends|at the local library][ in {home}| back in {home}|] and [discovered|learned|found] that education works best when the learner [forgets about being taught|is having fun|asks the questions][, which suited {their} {quality}|, and never looked back|].",
    "A teacher[ in {home}| back in {home}|] who believed in {them} at a [difficult|lonely|confusing|shaky] [moment|time|age] [convinced|persuaded] {name} that education can [change the direction of a life|open every door|make anything possible][ for anyone willing| for anyone|].",
  ],
  business: [
    "{name} showed a head for business [early|young], selling [lemonade|homemade cookies|friendship bracelets], then [comic books|old toys|handmade cards], then [repaired bicycles|secondhand games|printed T-shirts], and keeping [careful|neat|meticulous] accounts of every [sale|coin][ in a school notebook|].",
    "Business ran in the [family|blood], and {name}[ grew up in {home}| grew up| grew up in {their} hometown| grew up in the old neighborhood] listening to [dinner-table|late-night|weekend|kitchen-table|car-ride] debates [about|over] [cash flow, customers and risk|prices, rent and rivals|suppliers, margins and luck|loans, leases and luck][, and {their} {quality} took it all in| that would shape {their} own work|, homework a distant second|].",
    "At [sixteen|fifteen|seventeen], {name} started a [small|tiny|first] business [in {home}|back in {home}|on {their} street in {home}] [designing flyers for local shops|walking dogs for neighbors|tutoring classmates for pocket money] and learned more from the [failures|mistakes|bad weeks] than from the [wins|good ones|successes].",
  ],
  entertainment: [
    "Entertainment was {their} [first|earliest|oldest|truest] love[ as a child|]. {They} staged [puppet shows|magic acts|talent contests|backyard plays|living-room concerts] for the [neighbors|whole street|family|cousins][ most weekends| every summer|] [in {home}|back in {home}|on Saturdays in {home}].",
    "{name} watched every [film, sitcom and talent show|cartoon, quiz show and musical|variety show and comedy special] {they} could [find in {home}|get at in {home}|find back in {home}], studying how [good|great] entertainment holds [an audience's attention|a room|a crowd].",
    "At school[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood], {name} was[ always| forever|] the [one|student|kid|classmate] who organized [talent nights|class shows|end-of-year revues|lunchtime concerts|charity gigs] and [learned|discovered|found out] that great entertainment is mostly [preparation|rehearsal|timing][, with a bit of {quality} on top| and a little nerve|].",
  ],
};

/** How each interest still shows in the persona's life today. */
export const INTEREST_LATER: Record<Interest, Template[]> = {
  gaming: [
    "Gaming never really let go[ of {them}|], and {name} still [talks|thinks|writes] about [design and storytelling|level design|pacing and fairness] through the games {they} {v:have} [finished|replayed] [a dozen times|more than once|far too often].",
    "The [patience|stamina|calm] {they} learned from gaming[ in {home}| back in {home}|], losing [a hundred|fifty|countless] times before winning [once|at last], turned out to be [useful|priceless|handy|valuable] [far|well|a long way] beyond a [screen|console|controller][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|].",
  ],
  tech: [
    "That early [fascination with|love of|obsession with] tech still shapes how {name} [works|thinks][ and shops|], because {they} {v:want} to know how a [tool|gadget|program] works before {they} {v:trust} it[ with anything important|, let alone buy it|][, a habit friends in {residenceCity} find [endearing|useful|exhausting]|].",
    "The old tech habit [matured|grew|turned] into a real skill, the kind that makes {name} the person [friends|neighbors|colleagues][ in {residenceCity}| in the city| nearby| around town| close to home| in {their} neighborhood|] call when a [laptop|phone|router|printer] dies [the night before a deadline|at the worst moment|mid-project].",
  ],
  fashion: [
    "Fashion still matters to {name}[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|], less as a [trend|race] to [chase|win] than as a way to tell a [story|small story] about who {they} {v:are} on [any given day|a given morning|the day in question].",
    "{name's} [eye|feel|instinct] for fashion, for how [a collar sits|a hem falls|a sleeve moves|a coat hangs] or how two [colors|fabrics|textures] [argue|clash|agree], shows up in [everything|all] {they} {v:make}[ in {residenceCity}|, down to the packaging|, {their} own closet included].",
  ],
  music: [
    "Music[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] is still the soundtrack to every [working day|morning|long night], and {name} [builds|makes|curates] playlists for [moods|seasons|tasks|trains|friends] the way other people [write|keep] [to-do lists|shopping lists|diaries|letters].",
    "The [rhythm|timing|ear] {they} learned from music [back in {home}|as a child in {home}|growing up in {home}] shows up in how {they} {v:pace} a [story|conversation|long day|joke|week][, {name} says|].",
  ],
  art: [
    "Art remains {their} [refuge|escape|quiet place|daily habit|safe harbor][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|], and {they} [still|always] {v:carry} a [small|battered|pocket|cheap|spiral] [sketchbook|notebook] [everywhere {they} {v:go}|around {residenceCity}|on every trip][ for quick studies|, just in case|].",
    "{name's} [grounding|training|years] in art taught {them} to [notice|see|pay attention to] [composition, color and silence|light, shape and space|color, rhythm and negative space], and {they} [now|still] {v:use} all three [without thinking about it|every day|in everything|in {residenceCity} today][, even in the kitchen|].",
  ],
  fitness: [
    "Fitness is still [non-negotiable|a fixed point|sacred] for {name}[, rain or shine|, whatever the weather|, tired or not|, busy or not|]: [most|nearly all|almost all] of {their} days start with a [run|swim|training session|long stretch|bike ride] [through {residenceCity}|across {residenceCity}|before breakfast|at dawn|before the emails].",
    "{Their} [approach|attitude|whole approach] to fitness, [steady progress over dramatic results|small gains over big promises|consistency over intensity|patience over heroics|habits over willpower], has[ quietly| slowly|] [become|turned into|grown into] a [philosophy|rule of thumb|guide|habit|motto] for [everything else|the rest of life|the work as well|friendships too][ in {residenceCity}|, {name} says|].",
  ],
  science: [
    'That love of science left {name} with a lasting respect for [evidence|data|experiments] and a habit of saying "let\'s test it" [instead of|rather than|before] "I think."',
    "{They} still {v:follow} new [discoveries|findings|papers] in [science|science journals|every branch of science] [closely|eagerly|avidly|daily] and [{v:love}|never {v:tire} of] [explaining|unpacking|retelling] them to [anyone who will listen|friends over dinner|whoever sits nearby|the neighbors|family at lunch][ in {residenceCity}|, with diagrams|, napkin sketches and all].",
  ],
  cooking: [
    "Cooking is still how {name} [unwinds|relaxes|thinks|recharges], and friends[ in {residenceCity}| in the city| nearby| around town| close to home| in {their} neighborhood|] know that a [difficult|long|hard] week [usually ends|often ends|tends to end] with an [invitation|open invitation] to [dinner|supper|a long lunch][ and talk of {pastime}| and a bottle of something good|].",
    "{They} [{v:treat}|{v:approach}] cooking like any [craft|trade|discipline|other art]: [practice|master|drill|learn] the basics, respect the [ingredients|seasons|produce|market] and [improvise|experiment|play] only once you [understand|know|have learned] the rules[, whether in {residenceCity} or on the road|, with {quality} as the secret ingredient|].",
  ],
  travel: [
    "Travel still shapes {their} outlook[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|], and {name} [keeps|has|hangs] a [map|world map|paper map] [on the wall|above the desk|by the door] with a pin for every [city|town|place] that changed {their} mind about something.",
    "Years of travel[ on a shoestring| and wandering| off the beaten path|][, far from {home},|] [left|made] {them} [comfortable with|at ease with|calm about|unafraid of|relaxed about] [uncertainty|delays|the unknown] and [endlessly|always|still] [interested in|curious about] how other people [live|cook|celebrate|grieve|argue|travel][, a curiosity that feeds {their} {quality}|, in every country|].",
  ],
  education: [
    "{Their} [respect|love|regard] for education shows in how {they} {v:approach} every new [subject|skill|topic|hobby][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|]: [humbly, methodically|slowly, carefully|openly, patiently] and with [plenty of|a notebook full of|a thousand] [questions|follow-up questions|notes].",
    "Education, for {name}, never [stopped|ended] at graduation[ in {home}| back in {home}|], and {they} {v:are} [always|forever|usually] halfway through [an online course|a thick book|an evening class|a workshop|a textbook] or [a new language|a podcast series|a stack of papers|a documentary][ about history| on {topic}|].",
  ],
  business: [
    "That business sense never [faded|left|wore off|went away], and {name} [thinks|worries|cares] about [value, audiences and sustainability|costs, customers and timing|risk, reward and reputation] in [everything|all] {they} {v:build}[, side projects included| in {residenceCity}| for {residenceCity}|, with {their} usual {quality}].",
    "{They} still {v:read}[ and {v:talk}] about business [strategy|history|models] [for fun|on weekends|in bed], which [friends|old friends][ in {residenceCity}| from {home}] find either [admirable or alarming|inspiring or exhausting|charming or baffling].",
  ],
  entertainment: [
    "{name's} love of entertainment means {they} still {v:study}[ and {v:rewatch}] [comedians, hosts and storytellers|stand-up sets and game shows|old variety programs], always [looking|watching|waiting] for the [moment|second] a [room|crowd|theater] leans in[ and goes quiet|, laughing|].",
    "Entertainment, to {name}, is [a kind|a form|a sort] of [generosity|gift|kindness]: giving people a [break|rest|holiday|breather] from their [worries|troubles|to-do lists] for [a while|an hour|an evening][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|].",
  ],
};

/** When two or more interests are chosen: how they meet. {a} and {b} are interest names. */
export const INTEREST_PAIR: Template[] = [
  "What made {name} [unusual|different|stand out] was not any single passion but the way {their} love of {a} kept [colliding|tangling|overlapping|mixing] with {b}[, for the better| back in {home}| in {home}|, a sign of {their} {quality}].",
  "Before long, {a} and {b} had [blurred|run|grown|bled] together in {their} [mind|head|notebooks|sketches], and [many|some|most] of {their} best [ideas|projects|work] [came|come] from [the place|wherever] where the two [overlap|meet|collide].",
  "[Friends|Cousins|Classmates] [teased|ribbed|kidded] {name} [for years|endlessly|fondly|mercilessly] about the year {they} tried to [combine|merge|fuse] {a} and {b} into a single [school project|science fair entry|birthday party], but the instinct was [right|sound|a good one].",
];

/** A noun phrase for what the persona's work is about, from an interest. */
export const INTEREST_TOPIC: Record<Interest, string> = {
  gaming: "games",
  tech: "technology",
  fashion: "fashion",
  music: "music",
  art: "art history",
  fitness: "fitness",
  science: "science",
  cooking: "food",
  travel: "travel",
  education: "study skills",
  business: "business",
  entertainment: "pop culture",
};
export const DEFAULT_TOPIC = "everyday life";

/** A Domain Specialist's field, from an interest. */
export const SPECIALIST_FIELDS: Record<Interest, string> = {
  gaming: "game design",
  tech: "software engineering",
  fashion: "textile science",
  music: "audio engineering",
  art: "art history",
  fitness: "sports science",
  science: "molecular biology",
  cooking: "food science",
  travel: "sustainable tourism",
  education: "learning science",
  business: "corporate finance",
  entertainment: "media studies",
};
export const DEFAULT_SPECIALIST_FIELD = "data analysis";

// ------------------------------------------------------------------ youth

export const SCHOOL: Template[] = [
  "School[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] was [a mixed|a patchy|an uneven|a hit-and-miss] experience, and {they} [thrived|shone|came alive|blossomed] in [the subjects|the classes|the lessons] that caught {their} [imagination|attention|interest] while [drifting|coasting|sleepwalking|yawning] through the rest[, {pastime} always winning over homework|, {pastime} always on {their} mind|, {their} {quality} already in plain view].",
  "{Their} late teens[ in {home}| back in {home}] were [restless|noisy|hungry|bright|messy], [full of|crowded with|made of] [part-time jobs|borrowed books|night buses across {home}|school dances], [big conversations|long arguments|shared playlists|bad haircuts|thrifted clothes] and [plans that changed weekly|friends who felt like family|very little sleep|{pastime} at every spare moment].",
  "In class, {name} was [neither|never] the [star|class favorite|top student|teacher's pet] nor the [troublemaker|class clown|rebel|daydreamer] but[ always| rather|] the [one|kid|student|classmate|pupil][ in {home}|] who [noticed things and remembered them|asked the awkward questions|knew everyone's name|read under the desk|brought {pastime} to every lunch break|lent out pencils and opinions|drew in the margins][, already marked by a certain {quality}|, forever talking about {pastime}|].",
  "School was fine, mostly.",
];

/** {education} is the fact sheet's education with its article ('a degree in Journalism'). */
export const STUDIES_DEGREE: Template[] = [
  "After school, {name} [earned|completed|went for|finished] {education}, though [much|most] of what [mattered|counted|stuck] [most|in the end] {they} [learned|picked up] [outside the lecture halls|in cafés and side projects|from friends and failures|through {pastime}|on {their} own terms].",
  "{name} [went on to earn|later earned|eventually earned] {education}, [mostly at night|in fits and starts|one semester at a time] and [mostly on coffee|on very little sleep|with borrowed textbooks], while [working|juggling shifts|taking odd jobs] to [pay the rent|cover the rent|get by].",
  "A [scholarship|part-time job|small inheritance|family loan] helped {them} [earn|pay for|finish|complete] {education}, which gave {their} [scattered talents|restless energy|{quality}] a [shape|direction|purpose|focus][ at last| for the first time|].",
];

/** {education} is the fact sheet's education as written ('Self-taught through years of posting'). */
export const STUDIES_OTHER: Template[] = [
  "[Asked|Once asked|When asked] about {their} [education|schooling|studies|school years][ in {home}|], {name} [sums it up|keeps it brief|shrugs|smiles|grins|laughs|gets to the point]: {education}.",
  "{name's} [education|schooling|training] [followed|took] a [path|route|road|shape] [of {their} own|nobody planned|few would have guessed|nobody could have predicted|all {their} own]: {education}.",
];

export const FIRST_JOBS: string[] = [
  "a busy corner café",
  "a secondhand bookshop",
  "the ticket desk of an old cinema",
  "a garden center",
  "a music store",
  "a hotel reception desk",
  "a neighborhood bakery",
  "a bike repair shop",
];

export const FIRST_JOB: Template[] = [
  "The first [job|paid job|real job] {they} ever held was at {job}[ in {home}| back in {home}], a place that taught {them} more about [people|patience|money|strangers|{their} own {quality}|hard work] than any [classroom|textbook|lecture][ ever could|].",
  "[Weekends|Summers|Evenings] at {job} [in {home}|back in {home}] paid for {their} first [laptop|camera|phone|microphone] and [supplied|provided|left {them} with] a [lifetime|notebook|wealth] of [stories|anecdotes] about [customers|regulars|the boss|coworkers][ {they} still {v:tell}|].",
  "{name} worked at {job}[ in {home}| back in {home}|] for [two|three|four|five] years, learning how to stay [friendly|polite|cheerful|calm|patient|kind] on a [double|long|late|weekend] shift and how to read a [mood|face|customer] [from across a room|in a single glance|before anyone spoke].",
];

export const PAST_CAREERS: string[] = [
  "hospital administration",
  "local journalism",
  "retail management",
  "high-school teaching",
  "logistics",
  "the hotel trade",
  "banking",
  "public radio",
];

/** What came before the current work, by age range. {job} and {job2} are first jobs, {career} a past career. */
export const AGE_CAREER: Record<AgeRange, Template[]> = {
  "18-24": [
    "Because it all started so [young|early], {name} never [had|needed] a [traditional|conventional|regular] career to fall back on, and {they} {v:are} still learning [in public|on the job|as {they} {v:go}|every day][, with {their} {quality} as a compass| in {residenceCity}|, {residenceCity} as {their} classroom].",
    "Most of {their} [friends|classmates|cousins|neighbors] were still [choosing majors|filling in applications|planning gap years] when {name} [realized|understood] that {their} [real|true] [education|schooling|apprenticeship] was happening [online|in {their} bedroom|after midnight], one [experiment|upload|mistake|late night] at a time.",
  ],
  "25-34": [
    "{name} spent {their} early twenties in a string of jobs that did not [fit|last|stick], from {job} to {job2}, before finding the work that [did|finally did|stuck].",
    "A couple of years in [an office|a call center|a cubicle] that felt [too small|airless|like a waiting room] convinced {name} that {they} needed a [different|bigger|freer] kind of life[, one with room for {pastime}].",
  ],
  "35-44": [
    "Before going public, {name} spent more than a decade in {career}, experience that still [gives|lends|brings] {their} work [in {residenceCity}|on {topic}|today] a [grounded|practical|no-nonsense|sober|steady] [edge|feel].",
    "{name} came to this work in {their} thirties, after [years|a long stretch|a decade] in {career}[ in {home}| back in {home}| in {residenceCity}], with a [clear|firm|hard-won] idea of what {they} did and did not [want|need][, and plenty of {quality}|].",
  ],
  "45-54": [
    "{name} came to this work after twenty years in {career}, and that long first chapter gives {them} a [patience|perspective|calm] that younger peers [in {residenceCity}|in {field}] often lack.",
    "[Two decades|Twenty years|Many years] in {career} taught {name} how [institutions|organizations|big teams] work and how people [behave|act|cope] under pressure, lessons {they} still {v:draw} on [every day|constantly|without noticing][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|].",
  ],
  "55+": [
    "{name} [arrived here|came to this work|got here] after a [whole|long] career in {career}, [proof|a reminder|living proof] that it is never too late to start [something new|again|over][, {pastime} and all|].",
    "Retirement from {career} lasted exactly [three|four|two|five] months before {name} [decided|realized|admitted] that {they} had far too much left to [say|do|share|give].",
  ],
};

/** What came before the current work when no age range is given. */
export const AGE_CAREER_NONE: Template[] = [
  "The years that followed were a patchwork of jobs, side projects and false starts, each one adding a skill that would matter [later|eventually|in the end].",
  "For a while {name} drifted from one job to the next, quietly collecting [skills and stories|contacts and habits|lessons and friends] without knowing what they were for yet.",
];

// ------------------------------------------------------------------ personality

/** The personality paragraph when no trait is given. */
export const PERSONALITY_NONE: Template[] = [
  "{name} is hard to sum up in a single word, and {they} {v:like} it that way.",
  "Friends describe a person who is [warm|generous|funny] with people {they} {v:know} well and [polite but watchful|courteous but careful|friendly but private] with everyone else.",
  "{They} {v:have} a way of remembering small kindnesses for [years|decades|ever] and forgetting small slights within a day.",
  "Most people who spend an afternoon with {them} leave feeling [a little more understood|somewhat lighter|a bit braver] than when they arrived.",
];

/** Opens the paragraph on temperament (Extroversion, Emotional and Openness traits). */
export const TRAIT_OPENERS_INNER: Template[] = [
  "People who meet {them} today notice {their} temperament first.",
  "Much of who {they} became showed up early.",
  "Friends describe {them} the same way they did years ago.",
  "Temperament is where {their} story really lives.",
];

/** Opens the paragraph on working style (Agreeableness, Conscientiousness and Content Style traits). */
export const TRAIT_OPENERS_OUTER: Template[] = [
  "The same character shapes how {they} {v:work}.",
  "At work, {their} character shows just as clearly.",
  "Colleagues would add a few more words.",
  "Other sides show at work and with other people.",
];

export interface TraitBank {
  /** Each names the trait (or a close form of it: the markers tests look for). */
  lead: Template[];
  /** Each shows the trait at work without necessarily naming it. */
  follow: Template[];
  /** The trait as a noun phrase after "{their}", e.g. "curiosity". */
  noun: string;
}

export const TRAIT_BANKS: Record<Trait, TraitBank> = {
  Outgoing: {
    lead: [
      "{name} is outgoing to the core, the [kind|sort] of person who [starts|strikes up] conversations in [checkout lines|elevators|waiting rooms|bus queues] [across {residenceCity}|in {residenceCity}|back in {home}] and leaves [with a new friend's number|with an invitation to dinner|with a story to tell|on first-name terms with everyone].",
      "Being outgoing comes [naturally|easily|without effort] to {them}[ in {residenceCity}| as it did in {home}|]. {They} [{v:spot}|{v:find}] the [loner|wallflower|newcomer|quiet one|shy guest] in any [crowded|noisy|packed|strange|busy] [room|party|café|gallery] [at once|first|within minutes].",
      "{name} is outgoing and [proud of it|unapologetic about it|happiest in a crowd].",
    ],
    follow: [
      "Energy builds around {them} rather than draining away.",
      "That openness has brought {them} [collaborators|mentors|allies][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|], [neighbors|regulars|new friends] at every [café|event|party] and more than one [lifelong|unlikely|loyal|true] friend.",
    ],
    noun: "outgoing nature",
  },
  Reserved: {
    lead: [
      "{name} is reserved by nature, [slow to share|careful with words|sparing with confidences|private by habit] and [careful|selective|picky|cautious] about who gets to see the [unguarded|unpolished|softer|real] version of {them}.",
      "{Their} reserved manner makes people [lean in|pay attention|listen closely], because when {name} does open up, it feels like [being let in on a secret|a small gift|a privilege quietly given|a door opening] [in a quiet room|after a long wait|among a few friends].",
      "{name} is reserved[ at heart| in company| with strangers|], and [comfortable with that|makes no apology for it|always has been|content to stay that way|quite happy about it].",
    ],
    follow: [
      "Those who earn {their} trust find a fiercely loyal friend.",
      "{They} {v:guard} {their} private [life|world|hours][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] [carefully|closely|jealously] and {v:share} only what [feels|seems] [true and earned|right|worth sharing][, {pastime} aside| online| with the world|].",
    ],
    noun: "reserve",
  },
  Social: {
    lead: [
      "Deeply social, {name} keeps a [wide|large|generous] circle of friends [across {residenceCity}|near and far|from every chapter of life] and remembers [birthdays|anniversaries|first days at new jobs], [inside jokes|old stories|favorite songs] and the names of everyone's [pets|children|plants|parents|grandchildren].",
      "{Their} social instincts turn [every|almost every|any] project into a [group effort|team sport|shared adventure], and {they} would rather build something [imperfect|messy|unfinished] with [friends|others|a crowd] than something [flawless|perfect|polished] [alone|in isolation|on {their} own].",
      "{name} is social by [nature|instinct] and [thinks best in company|recharges around people|hates eating alone|lights up in a crowd].",
    ],
    follow: [
      "A weekend without a shared meal feels strangely empty.",
      "{name} collects people[ in {residenceCity}| wherever {they} {v:go}] the way others collect [records|stamps|postcards|vinyl] and is [forever|always|constantly] [introducing one friend to another|setting up dinners|making introductions].",
    ],
    noun: "wide circle of friends",
  },
  Quiet: {
    lead: [
      "In a [loud|busy|noisy|crowded] [world|city like {residenceCity}|room], {name's} quiet presence stands out, because {they} {v:speak} [softly|slowly|sparingly], rarely {v:interrupt} and [somehow|nonetheless|still] always {v:get} heard [in the end|by the people who matter|when it counts].",
      "{name's} quiet way of being [draws|attracts] people who are [tired of noise|worn out by shouting|looking for calm|weary of small talk], and {they} {v:have} learned to treat it as a [strength|gift|tool] rather than a [flaw|weakness|problem to fix].",
      "{name} is quiet and [comfortable with it|notices a great deal|listens more than {they} {v:talk}].",
    ],
    follow: ["{Their} best ideas arrive on long, solitary walks.", "When {they} finally {v:speak} up, the room goes still."],
    noun: "quiet patience",
  },
  Assertive: {
    lead: [
      "{name} is assertive without being harsh, saying [clearly|plainly|calmly|simply] what {they} {v:need}, setting [firm|clear|sensible|fair] boundaries and [expecting|asking for] the same [honesty|clarity|directness|courtesy] in return.",
      "An assertive streak showed up [early|young|at school], when {they} [talked|argued|charmed] {their} way into a [project|team|class|competition] meant for older [students|kids|pupils] [in {home}|at school|one spring] and then [delivered on it|proved everyone wrong|did it well|came top].",
      "Being assertive has helped {name} [negotiate fair deals|ask for a fair price|hold {their} ground|say what others would not], turn down [bad ones|poor offers|empty promises] and stand up for [people|neighbors|colleagues][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] who needed someone [in their corner|on their side|to speak up].",
    ],
    follow: [
      '{name} believes a clear "no" is [kinder|fairer|more generous] than a [vague|polite|hopeful] "maybe."',
      "[Colleagues|Coworkers|Friends] learn [quickly|soon|early] that {they} {v:mean} [exactly|precisely] what {they} {v:say}.",
    ],
    noun: "assertiveness",
  },
  Reflective: {
    lead: [
      "{name} is reflective by [habit|nature], keeping a [journal|diary|notebook] since [childhood|school|{their} teens|the first job] and [reviewing|reading back over|summing up] each [week|month|project] before [starting the next|making new plans|moving on].",
      "{Their} reflective side means {they} [rarely|seldom|hardly ever] {v:make} the same mistake twice, because {they} {v:turn} every [setback|misstep|hard day] over [until it gives up its lesson|on long walks|in a notebook][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] [before moving on|and then lets it go|with patience].",
      "{name} is reflective, and [thinks twice before speaking|keeps a journal|asks why before how].",
    ],
    follow: ["Long train rides and slow mornings are for thinking.", "Why matters more than what, {they} {v:say}."],
    noun: "habit of reflection",
  },
  Stable: {
    lead: [
      "{name} is remarkably stable, the [fixed point|steady center|calm anchor|reliable constant] that [friends|colleagues|family] and [colleagues|neighbors|collaborators] [gather around|lean on|turn to] when things get [chaotic|messy|loud|frightening].",
      "{Their} stable temperament [comes|grows] from a [simple|steady|modest] routine [in {residenceCity}|built around {pastime}] and a clear sense of what matters[ to {them}|], which is why {name} is the one [everyone calls in a crisis|friends lean on|colleagues trust first|people seek out on bad days].",
      "{name} is stable and [hard to rattle|keeps a level head|stays steady under pressure].",
    ],
    follow: ["Tension in a room settles when {they} {v:arrive}.", "People trust {them} because {they} never {v:change} with the weather."],
    noun: "steadiness",
  },
  Reactive: {
    lead: [
      "{name} is reactive in the most honest sense, with every [feeling|mood|thought] showing on {their} face [the moment it arrives|before a word is said|in real time|for all to see][, which friends find [endearing|refreshing|funny]|].",
      "{name's} reactive nature means {they} {v:respond} [fast|instantly|quickly], [laughing loudly|cheering first|gasping openly], [arguing hard|disagreeing loudly|protesting fiercely] and apologizing [just as quickly|a minute later|with a grin|without fuss].",
      "{name} is reactive[ by temperament| at heart|], and [has learned to count to three|feels everything at once|never hides a reaction|wears every feeling openly|has learned to pause first].",
    ],
    follow: [
      "That immediacy makes {them} wonderful company in a live moment.",
      "Friends appreciate that {they} never {v:pretend} to feel something {they} {v:don't}.",
    ],
    noun: "quick instincts",
  },
  Calm: {
    lead: [
      "{name} is calm in a way that is [contagious|catching|reassuring], and {their} voice [slows down|softens|drops] when everyone else [speeds up|gets loud|starts to panic|talks over each other].",
      "Staying calm under pressure is {their} [quiet|secret|most useful|least visible] superpower, learned [from watching|by watching|early, from watching] [a parent|a neighbor|an old coach|a nurse][ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] handle [emergencies|bad news|chaos|crowded rooms] without ever [raising a voice|losing the thread|panicking].",
      "{name} is calm and [hard to hurry|unbothered by noise|steady in a storm].",
    ],
    follow: [
      "Meditation, long walks and early nights keep that composure intact.",
      "Panic, {they} {v:like} to say, never made a problem smaller.",
    ],
    noun: "calm",
  },
  Passionate: {
    lead: [
      "{name} is passionate about everything {they} {v:touch}, and {they} [{v:talk}|{v:think}|{v:argue}] with {their} hands whenever [an idea takes hold|{pastime} comes up|a plan starts forming|someone asks a good question] [at dinner|in meetings|on long walks].",
      "{Their} passionate streak turns [small|modest|ordinary] projects into [crusades|causes|adventures|obsessions], because {they} [simply|just|honestly] cannot do anything [halfway|by half|lightly], least of all [{pastime}|the work|something {they} {v:love}|anything {they} {v:care} about].",
      "{name} is passionate, [sometimes exhaustingly so|and it shows|to the bone].",
    ],
    follow: [
      "Late-night brainstorms with {them} end with a plan and little sleep.",
      "It is hard to stay indifferent around {them}: enthusiasm spreads.",
    ],
    noun: "passion",
  },
  Sensitive: {
    lead: [
      "{name} is sensitive to [moods|light|small changes|weather], [sounds|voices|silences] and unspoken tension, and {they} [often|usually|almost always] [{v:know}|{v:sense}] how a friend is feeling before [a word is said|anyone speaks|the door closes].",
      "{Their} sensitive nature makes {them} a[ very|] [careful|patient|gentle|generous] listener and [an honest|a thoughtful|a candid] [creator|friend|collaborator], even if [criticism|a harsh review|a careless remark] stings [a little longer|a day longer|longer] than it does for [others|most people|colleagues].",
      "{name} is sensitive, and [treats it as a strength|notices what others miss|feels things deeply|reads a room in seconds|hears what goes unsaid].",
    ],
    follow: [
      "{They} {v:protect} {their} energy with slow evenings and trusted people.",
      "That attentiveness gives {their} work an unusual tenderness.",
    ],
    noun: "sensitivity",
  },
  Resilient: {
    lead: [
      "{name} is resilient, shaped by setbacks that would have [stopped|sunk|floored] [most people|many others|a lesser spirit] and by a [stubborn|quiet|cheerful|flat] refusal to let them define {them}[, a habit formed early in {home}|, a habit formed early|, helped along by {their} {quality}|].",
      "{Their} resilient streak shows every time a plan [collapses|falls apart|goes wrong], because {they} {v:grieve} for [an evening|a day|a night] and {v:start} rebuilding [the next morning|at sunrise|right after|before lunch] with [fresh coffee|a new list|a long walk|a clean page] and [no fuss|a shrug|a grin].",
      "Friends call {name} resilient, though {they} {v:insist} it is [just|only|simply] practice at getting up one more time than {they} {v:fall} down[, a lesson {home} taught early|, a lesson learned back in {home}|, a habit from {home}].",
    ],
    follow: [
      "Every scar, {they} {v:say}, is proof that something was survived.",
      "{They} {v:keep} a list of hard moments survived, for bad days.",
    ],
    noun: "resilience",
  },
  Creative: {
    lead: [
      "{name} is [endlessly|restlessly|boundlessly] creative, turning [scraps of conversation|overheard remarks|street signs], [odd dreams|old photos|bad jokes] and [half-heard songs|shop windows|bus journeys] into [ideas|projects|stories].",
      "{name's} creative energy is [restless|boundless|untidy|contagious], and {they} {v:keep} [three|four|several|two] [notebooks|sketchbooks|idea files] going at once[, plus a voice memo app,|, plus a sketch pad,|] [without ever quite filling any of them|in every bag|on every table].",
      'Being creative, for {name}, means [asking|wondering|saying|whispering] "what if"[ about {pastime}] [one more time|once more|a little longer] than [feels comfortable|anyone else|is strictly sensible|most people dare].',
    ],
    follow: ["{They} rarely {v:do} anything the same way twice.", "Boredom, {they} {v:claim}, is an invitation to invent."],
    noun: "creativity",
  },
  Conventional: {
    lead: [
      "{name} is conventional in the best sense, respecting [traditions|customs|routines] that work and seeing no reason to [reinvent|replace|redesign] what is already [good|fine|working|loved].",
      "{name's} conventional instincts [favor|prefer] [proven methods|tested routines|familiar tools|old recipes|known roads], [clear structures|plain rules|steady schedules|fixed routines] and the wisdom of [people who came before|older hands|those who did it first].",
      "[Some|A few|Some friends|Old friends] call {name} conventional, and {they} {v:take} it as a [compliment|badge of honor|kind word], because [reliable|steady|settled] habits leave [more|extra] room for [the things that matter|{pastime}|people|what counts].",
    ],
    follow: ["{They} {v:keep} the same morning routine and trusted tools for years.", "People find that reliability reassuring."],
    noun: "respect for proven methods",
  },
  Curious: {
    lead: [
      "{name} is [insatiably|endlessly|boundlessly] curious, the [kind|sort] of person who falls down [research|reading|internet] rabbit holes and [resurfaces|comes back up|emerges] [hours|days|an afternoon] later with [a dozen new facts|a new hobby|strong opinions about {pastime}].",
      "{Their} curious mind never [rests|switches off|sits still|slows down], and every [conversation|trip|meal with friends|train ride] [in {residenceCity}|abroad|back in {home}] is a chance to [learn|find out] how someone else [sees the world|spends a day|thinks about {pastime}|makes a living].",
      "Being curious has [taken|led|pulled|dragged] {them}[ from {home} to {residenceCity} and| all over {residenceCity} and|] into [strange libraries|odd museums|back-street workshops|dusty archives], [odd hobbies|night classes|obscure forums|late lectures] and long talks with [strangers|new acquaintances|fellow {pastime} fans|old-timers] [on night trains|in cafés|at bus stops|in {residenceCity}].",
    ],
    follow: ["{They} {v:ask} questions the way other people breathe.", '"I don\'t know yet" is one of {their} favorite sentences.'],
    noun: "curiosity",
  },
  Cautious: {
    lead: [
      "{name} is cautious by temperament, [reading the fine print|checking the small print|asking one more question|sleeping on it], [checking the facts|doing the math|comparing notes] and thinking [two|three|several|a few] steps ahead before [committing|signing|saying yes].",
      "{Their} cautious side has [saved|spared] {them} from more than one [bad|rushed|shaky] [deal|contract|investment|partnership] and [plenty of|a few|countless] [embarrassing|costly|public|avoidable] mistakes[ over the years| in {residenceCity}|].",
      "{name} is cautious, [never timid|but never frozen|and rarely sorry].",
    ],
    follow: [
      "{They} {v:test} every new idea privately before sharing it.",
      "Friends [in {residenceCity}|back in {home}] ask {name} to look over [contracts|leases|job offers], [travel plans|budgets|rental deals] and [big decisions|new ventures|wedding plans] for [exactly|precisely|just] that reason.",
    ],
    noun: "caution",
  },
  Imaginative: {
    lead: [
      "{name} is [wildly|endlessly|hugely] imaginative, able to [build|spin|conjure] [an entire|a whole] world out of [a single sentence|an overheard remark|a street name|a song lyric] or [an old photograph|a half-remembered dream|a crack in the pavement].",
      "{Their} imaginative streak [started|began] with [invented countries|imaginary friends|maps of secret islands|cardboard castles] and [secret languages|coded diaries|bedtime sagas] [as a child in {home}|in early childhood|long before school] and[ has|] never [really stopped|let up|faded][; today it feeds {their} love of {pastime}|].",
      "Being imaginative lets {name} see possibilities where others see dead ends.",
    ],
    follow: [
      "{They} {v:daydream} on purpose and {v:treat} it as part of the job.",
      "Stories and strange little scenarios follow {them} everywhere.",
    ],
    noun: "imagination",
  },
  Practical: {
    lead: [
      "{name} is practical [to the bone|through and through|to a fault] and [far|much|a great deal] more interested in what [works|lasts|helps] than in what sounds [impressive|clever|fashionable|good in a meeting].",
      "{Their} practical mindset turns big ideas into [checklists|lists|plans].",
      "Being practical means {they} {v:fix} [problems|things|leaks] rather than [complaining about|worrying over|debating] them, [usually|mostly|often] with [whatever is at hand|tape and patience|a borrowed tool|a quick phone call] and [little fuss|no drama|a shrug][, {quality} doing the rest].",
    ],
    follow: [
      "When a plan gets elaborate, {they} {v:ask} for the simplest version.",
      "Friends rely on {them} for advice that actually works.",
    ],
    noun: "practical sense",
  },
  Compassionate: {
    lead: [
      "{name} is [deeply|genuinely|quietly] compassionate, [quick|the first|always ready] to notice whoever is being left out[ of a conversation| at a party|] and [quietly|gently] [make room at the table|pull up another chair|draw them into the conversation|offer a seat].",
      "{Their} compassionate heart shows in [small|quiet|everyday] acts, like [a check-in message|a phone call|a note|a small gift] at the right moment, [an extra plate at dinner|a lift home|a spare umbrella|a borrowed coat] and [patience|time] for anyone having a [bad|long|rough] [day|week].",
      "Being compassionate, for {name}, is not a [mood|feeling|talent|trait] but a [practice|discipline|daily practice], [something chosen again|a choice made|a habit renewed|a decision made again] [every single day|each morning|in every conversation][ in {residenceCity}|, like {pastime}|].",
    ],
    follow: ["{They} {v:volunteer} whenever possible, usually without telling anyone.", "People find it easy to tell {them} the truth."],
    noun: "compassion",
  },
  Competitive: {
    lead: [
      "{name} is [fiercely|cheerfully|quietly] competitive, whether the contest is [a board game|a pub quiz|a card game|a chess match], [a deadline|a race|a bet|an argument] or a personal [best|record][ set in {residenceCity}|].",
      "{Their} competitive streak keeps {them} [improving|sharp|honest|hungry], and {they} [secretly|quietly|openly|obsessively] {v:track} {their} own [numbers|times|scores|results|progress] more closely than [any rival's|anyone else's|the competition's] [every week|every season|all year][, even at {pastime}|].",
      "Being competitive[ at {pastime}] [taught|helped] {name} to lose [gracefully|with a smile|politely] and win without [gloating|crowing|showing off], though the losing part took [longer|years|a while|real effort].",
    ],
    follow: ["{They} {v:love} a challenge, especially an impossible one.", "Rivals often end up as friends."],
    noun: "competitive drive",
  },
  Empathetic: {
    lead: [
      "{name} is [strikingly|deeply|unusually|quietly|remarkably] empathetic[, a trait from {home}| by nature|], able to sense what [someone|a friend|a stranger|a neighbor|a client] [needs|is missing|wants] before [the other person has found the words|a word is said|anyone else notices].",
      "[{Their}|{name's}] empathetic nature makes {them} a [natural|born|trusted] [confidant|listener|shoulder to lean on|sounding board], and strangers [confide in|open up to|pour their hearts out to] {them} [on trains|in queues|at bus stops|in waiting rooms|on park benches] [in {residenceCity}|and at parties|and in cafés|and at the gym].",
      "Being empathetic means {they} [{v:feel}|{v:share}] other people's [joy and pain|hopes and fears|good news and bad|ups and downs|wins and losses] [almost|nearly|very nearly] as [keenly as {their} own|if they were {their} own|{their} own], which [is|can be|feels] [both a gift and a responsibility|not always easy|a gift with a price|tiring and precious][, {name} admits|].",
    ],
    follow: [
      "{They} {v:listen} with full attention, and people leave feeling understood.",
      "That empathy shapes how {they} {v:speak} to an audience.",
    ],
    noun: "empathy",
  },
  Direct: {
    lead: [
      "{name} is direct, [sometimes|occasionally] [startlingly|bracingly|refreshingly] so, and believes, [as {home} taught {them}|after years in {residenceCity}|like most people from {home}], that clear words are a [form|kind] of [respect|kindness|care].",
      "{name's} direct manner cuts through [small talk|office politics|polite fog|awkward silences], and {they} would [rather|much rather] have one honest [conversation|argument|exchange] than [ten|a dozen|twenty] polite ones[ over coffee|].",
      "{name} is direct, and [means every word|says the quiet part|never hints].",
    ],
    follow: ["{They} {v:give} feedback plainly, kindly and without hidden meanings.", "There is no guessing game with {them}."],
    noun: "directness",
  },
  Trusting: {
    lead: [
      "{name} is trusting by [nature|instinct] and [gives|offers|extends] [people|strangers|newcomers] the benefit of the doubt until [given a reason not to|proven wrong|there is no doubt left].",
      "{Their} trusting [heart|nature|streak|side] has [occasionally|now and then|once or twice] been [bruised|tested] [by a bad partner|by a broken promise|along the way|by people who knew better|in business], but {they} [still|stubbornly|firmly] {v:believe} that most people [mean well|are decent|try their best].",
      "Being trusting lets {name} [collaborate freely|work openly|team up easily], share [ideas|plans|drafts|contacts] [early|freely|generously|before they are finished] and build partnerships on [a handshake|a phone call|a conversation|a hunch][, from {residenceCity} outward|].",
    ],
    follow: ["That openness invites generosity in return.", "{They} would rather be disappointed now and then than suspicious always."],
    noun: "willingness to trust",
  },
  Skeptical: {
    lead: [
      "{name} is skeptical in a [healthy|useful|good-natured] way, [always|forever] asking where a [claim|rumor|statistic] came from and who [benefits from believing it|is selling it|paid for the study].",
      "{name's} skeptical streak means {they}[ always|] {v:check} [sources|references|the numbers], {v:question} [hype|trends|headlines] and {v:refuse} to [repeat|share] anything that cannot be [verified|checked|traced].",
      "{name} is skeptical, [cheerfully|politely|stubbornly] so.",
    ],
    follow: [
      "{They} {v:enjoy} a good argument, as long as evidence comes along.",
      "People trust {them} precisely because {they} {v:are} not easily impressed.",
    ],
    noun: "skepticism",
  },
  Organized: {
    lead: [
      "{name} is organized to [an almost legendary|a near-legendary|a famous|an impressive] degree, with [color-coded calendars|labeled shelves|a wall planner], [labeled folders|tidy spreadsheets|numbered notebooks] and [a plan for the plan|a backup for the backup|a list of lists].",
      "{Their} organized approach[ to work and {pastime}| in {residenceCity}|] keeps [a dozen|several|many|four] [projects|jobs|plans] moving [without anything slipping through the cracks|at once|smoothly], [down to the last receipt|with room to spare|even in busy seasons].",
      "Being organized gives {name} a [strange|surprising|quiet|welcome] [kind|sort] of freedom, because once everything [has a place|is written down|is in its place|is on a list], the mind [can|is free to] [wander|play|rest][, often toward {pastime}|].",
    ],
    follow: ["Friends borrow {their} packing lists without shame.", "{They} {v:plan} each week on Sunday evening."],
    noun: "organization",
  },
  Flexible: {
    lead: [
      "{name} is flexible and [comfortable|happy|quick] changing course when a [better|bolder|simpler] idea or a bigger need [appears|comes along|shows up][, even halfway through|, however late|].",
      "{Their} flexible outlook means plans are starting points rather than contracts.",
      "Being flexible has made {name} [easy|pleasant|a joy] to [work|live|travel] with[ in {residenceCity}|, {pastime} or not|] and hard to [throw off balance|rattle|upset][ in a crisis|, {quality} and all|].",
    ],
    follow: [
      "When a schedule falls apart, {they} {v:rearrange} it and {v:carry} on.",
      "{They} {v:adjust} {their} tone to whoever is listening.",
    ],
    noun: "flexibility",
  },
  Disciplined: {
    lead: [
      "{name} is [disciplined|dependably disciplined|quietly disciplined][ about {pastime}| in {residenceCity}|], showing up at the same [hour|time] every [day|morning] whether [inspiration arrives or not|the mood is right or not|it rains or shines].",
      "{name's} disciplined habits of [early mornings|early nights|daily practice], [clear goals|short lists|weekly plans] and honest reviews turn [ambitious plans|big ideas|long projects|vague hopes] into finished work[, {pastime} included|, week after week|].",
      "{name} is disciplined, [every single day|without fanfare|in small ways].",
    ],
    follow: [
      "{They} {v:keep} promises to {themselves} like promises to others.",
      "Consistency, {name} [believes|insists|maintains], [beats|outlasts|outperforms] talent that [only|just] [shows up|appears] on [good days|a whim|sunny days][, in {pastime} as in work].",
    ],
    noun: "discipline",
  },
  Spontaneous: {
    lead: [
      "{name} is spontaneous, [famous|known|notorious] for last-minute [road trips|train rides|weekend escapes], surprise [parties|dinners|visits|phone calls] and ideas that arrive [mid-sentence|out of nowhere|at midnight|in the shower].",
      '{Their} spontaneous spirit keeps life [interesting|lively|unpredictable][ in {residenceCity}|], and [some|many|most] of {their} [best|favorite|funniest] [memories|stories|adventures] began with the [words|question|same words] "why not right now?"',
      "Being spontaneous means {they} {v:say} [yes|a quick yes] to [invitations|late-night plans|road trips|concerts], [detours|odd jobs|last-minute tickets] and [experiments|adventures|ideas] that more [careful|cautious|sensible|prudent] people would [skip|pass up|decline][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|].",
    ],
    follow: ["{Their} calendar has blank spaces on purpose.", "Friends keep a bag packed, just in case {they} {v:call}."],
    noun: "spontaneity",
  },
  Focused: {
    lead: [
      "{name} is [intensely|deeply|fiercely|quietly] focused[ on {pastime}| in {residenceCity}| by nature], able to shut out the [world|noise|city|chatter] for [hours|whole afternoons|days] when [a project matters|{pastime} is involved|a deadline looms|{their} {quality} kicks in].",
      "{name's} focused mind separates the essential from the [noise|clutter|rest] [quickly|fast|early], which is why {they} {v:finish} what others [merely start|only talk about|abandon halfway][, on time and without drama|, usually ahead of schedule|].",
      "Being focused has helped {name} [master|learn|conquer] [difficult|stubborn|fiddly|unglamorous] skills one [stubborn|patient|long|quiet] hour at a time[, {pastime} among them| in {residenceCity}].",
    ],
    follow: [
      "{They} {v:silence} notifications and {v:work} in long, deep stretches.",
      "Once a goal is set, distractions simply stop registering.",
    ],
    noun: "focus",
  },
  Adaptable: {
    lead: [
      "{name} is adaptable, the [sort|kind] of person who can feel at home in a new [city|job|crowd|country] within [a week|days|a month][, as {residenceCity} proved].",
      "{name's} adaptable nature has carried {them} through new [jobs|homes|roles], new [platforms|tools|neighborhoods] and new [audiences|cities|teams] without [any loss of identity|losing {themselves}].",
      "Being adaptable means {name} treats [every|each] [change|upheaval|move|new job][, big or small,|] as [material for the next chapter|a fresh start|an opportunity|a new puzzle] rather than[ as|] a [threat|loss|problem].",
    ],
    follow: ["When the rules shift, {they} {v:learn} the new ones quickly.", "The only constant, {they} {v:say}, is change."],
    noun: "adaptability",
  },
  Entertaining: {
    lead: [
      "{name} is genuinely entertaining, with a knack for turning [an ordinary|a dull|a rainy|an uneventful] [afternoon|Tuesday|commute|errand][ in {residenceCity}| in {home}] into a story worth [retelling|repeating|telling twice].",
      "{Their} entertaining style comes from [timing|good timing|perfect timing|split-second timing], [warmth|charm|generosity] and a [willingness|readiness|happy willingness] to be a [little|bit|touch] [ridiculous|silly|absurd][ in public|].",
      "Being entertaining is something {name} takes [seriously|very seriously|more seriously than it looks], [rehearsing bits|practicing stories|timing punchlines] and [studying|watching] how the best [hosts|comedians|storytellers] hold a [crowd|room|table][ for hours| in the palm of a hand|].",
    ],
    follow: ["Even a grocery run with {them} ends with a story.", "People stay for the fun and the warmth."],
    noun: "gift for entertaining",
  },
  Educational: {
    lead: [
      "{name} has an educational streak that turns every [conversation|dinner|walk|car ride] into a [chance|small lesson, a chance] for [someone|a friend|anyone nearby] to learn something [new|useful|surprising].",
      "{name's} work and conversations lean educational, with [clear|patient|careful] explanations, [useful|vivid|homely] examples[ from {residenceCity}| about {pastime}| from {home}] and a [check|quick question|pause] to make sure everyone is [keeping up|following|still with {them}].",
      "{name} is educational without being boring.",
    ],
    follow: [
      "{They} {v:love} the moment an idea finally makes sense to someone.",
      "[Friends|Neighbors|Colleagues][ in {residenceCity}| in the city| nearby| around town| close to home| in {their} neighborhood|] joke that {name} cannot [recommend|mention|suggest] a [film|book|restaurant|podcast] without adding [three|a few|several] [fascinating|obscure|delightful] facts.",
    ],
    noun: "gift for explaining",
  },
  Authentic: {
    lead: [
      "{name} is authentic to a fault and [refuses|declines|will not stoop] to present a [polished|filtered|glossy|tidied-up] version of life [in {residenceCity}|at home in {residenceCity}|online] that does not exist.",
      "{Their} authentic voice is the same in [private|person|a kitchen|{residenceCity}] as [in public|on camera|on stage], which is why so many [people|followers|strangers] feel they [actually|really|truly] know {name}.",
      "Being authentic means {name}[ openly| happily| calmly|] shares the [messy drafts|awkward attempts|rough sketches] and the [failures|flops|bad days|doubts] alongside the [wins|successes|good news|highlights][, {pastime} included|].",
    ],
    follow: ["{They} {v:turn} down work that would mean pretending.", "Honesty, for {name}, is not a strategy but a baseline."],
    noun: "authenticity",
  },
  Aspirational: {
    lead: [
      "{name} has an aspirational [quality|air|streak][, the|, and is] [living|walking] proof that a [bigger|fuller|braver|bolder] life is possible and [open|honest|candid|frank] about the [steps|detours|costs|setbacks] it took.",
      "{name's} aspirational outlook [encourages|invites|nudges] people to aim [higher|a little higher] without making anyone feel [small|behind|foolish|lazy] about where they are [starting from|today|right now|in life].",
      "Being aspirational, in {name's} view, means raising the ceiling for others.",
    ],
    follow: ["{They} {v:set} goals in public so others feel invited to.", "Ambition and generosity mix in {their} life."],
    noun: "ambition",
  },
  Humorous: {
    lead: [
      "{name} is [naturally|easily|irrepressibly] humorous[ in a very {home} way| at every {residenceCity} dinner table|], quick with a [pun|quip|comeback] and even quicker with a self-deprecating [joke|remark|aside].",
      "{name's} humorous side disarms [tense moments|awkward silences|bad meetings], and {they} can find something funny in a [flat tire|missed train|lost umbrella] or a [failed recipe|burned dinner|bad haircut].",
      "Humor is {their} [first|native|favorite] language[ since {home}|], and {they} {v:use} it[ generously| freely| often|] [to make|for making|to help make] [hard subjects|bad news|tough days|awkward silences|Monday mornings] [easier|lighter] to [talk about|face|share|sit through].",
    ],
    follow: [
      "Friends save {their} voice notes; they beat most sitcoms.",
      "{They} {v:believe} that laughter is the fastest route to trust.",
    ],
    noun: "sense of humor",
  },
  Inspirational: {
    lead: [
      "{name} is inspirational without [preaching|lecturing], sharing the [hard|painful|costly] lessons [from {home}|of {residenceCity}|of {their} {quality}] along with the [happy endings|wins|good news].",
      "{Their} inspirational streak [comes|springs] from a [simple|stubborn|quiet|firm] belief that [everyone|anyone|every person] [has|still has] one more [good|great|worthwhile] chapter [ahead|to write|left][ in them|].",
      "[People in {residenceCity}|Old friends in {home}|Colleagues] [describe|see] {name} as inspirational, [mostly|largely|chiefly] because {they} {v:make} [difficult|big|distant] goals look [reachable|possible|worth trying|within reach].",
    ],
    follow: [
      "Messages from people {they} inspired are the ones {they} {v:keep}.",
      "{They} {v:try} to leave every person {they} {v:meet} a little braver.",
    ],
    noun: "ability to inspire",
  },
};

/** Pairs of traits that pull in opposite directions; when both are chosen the story says so. */
export const OPPOSITES: [Trait, Trait][] = [
  ["Outgoing", "Reserved"],
  ["Outgoing", "Quiet"],
  ["Social", "Quiet"],
  ["Social", "Reserved"],
  ["Stable", "Reactive"],
  ["Calm", "Reactive"],
  ["Creative", "Conventional"],
  ["Imaginative", "Practical"],
  ["Curious", "Cautious"],
  ["Trusting", "Skeptical"],
  ["Compassionate", "Competitive"],
  ["Organized", "Spontaneous"],
  ["Disciplined", "Spontaneous"],
  ["Focused", "Spontaneous"],
  ["Assertive", "Quiet"],
];

/** {a} and {b} are the two traits, lower case. */
export const CONTRADICTION: Template[] = [
  "It is [an unusual|an odd|an unlikely|a curious] combination, being both {a} and {b}. [Still|Even so|But], {name} lets each side [lead|take over] [when needed|in turn|as the day demands].",
  "[People|Friends|Neighbors][ in {residenceCity}| in the city| nearby| around town| close to home| in {their} neighborhood|] are [sometimes|often|always] [surprised|puzzled|amazed] that {name} can be {a} and {b} at [once|the same time]. The [truth|secret] is that the two [traits|sides] keep each other [honest|in check|balanced].",
  "Being {a} and {b} at the same time [sounds|might sound|can sound] like a [contradiction|paradox|puzzle|riddle], yet in {name} the two have [settled into|grown into|made] [an easy|a comfortable|an unlikely|a friendly] partnership [over the years|in {residenceCity}|since the {home} days][, at work and at home|].",
];

// ------------------------------------------------------------------ the path into the work, by type

export interface TypeBank {
  /** What the persona studied ({field} in STUDIES); for specialists the field comes from an interest. */
  field: string;
  origin: Template[];
  craft: Template[];
  audience: Template[];
  breakthrough: Template[];
  goals: Template[];
  day: Template[];
}

// {topic} is what the work is about (from an interest), {field} the specialist's field, {home} the hometown.
export const TYPE_BANKS: Record<PersonaType, TypeBank> = {
  influencer: {
    field: "marketing",
    origin: [
      "It started almost by accident, when a [photo series|short video|caption thread] {name} posted about {topic} [one evening|on a slow Sunday|from a café in {residenceCity}] caught the attention of [a few thousand|a few hundred|a crowd of] strangers, and then [a few hundred thousand|many more|a whole city's worth].",
      "{name} began posting [daily|weekly|nightly] [snapshots|notes|clips] of {topic} during a [long, lonely winter|slow summer|difficult year][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|], and the comment section [slowly|gradually|quietly] turned into a [community|meeting place|second home].",
      "A [friend|cousin|classmate] dared {name} to post one honest story a day for [a month|thirty days|a whole season], and by the end of it {they} had a [following|small audience|loyal crowd] and a new sense of [purpose|direction|what mattered].",
    ],
    craft: [
      "As an influencer, {name} [treats|approaches|builds] every post as a [small|short|tiny|little] story with a [setting|place|mood], a [feeling|twist|question|surprise] and a reason to [care|stay|look twice][, especially when the subject is {topic}].",
      "{They} {v:plan} {their} feed like a [magazine|newspaper|gallery|museum] [editor|curator][ plans an issue|], [balancing|mixing|pairing] [polished shoots|careful photos|styled sets|planned posts] with [unfiltered|honest|unpolished|candid] moments from [behind the scenes|{residenceCity}|ordinary days|the kitchen table].",
      "Brand [partnerships|deals|sponsorships] are part of the job, but {name} [turns down far more offers than {they} {v:accept}|declines most of them|says no more often than yes] and works only with [companies|brands|people|partners] {they} would recommend to [a friend|family|a neighbor].",
    ],
    audience: [
      "{name's} followers are mostly [young people|students and young workers|twenty-somethings][ from {residenceCity} and beyond|] looking for [a little inspiration|some encouragement|fresh ideas] and a [lot|great deal] of honesty, and they [are quick to notice|soon spot|never forgive] anything [that feels fake|staged|forced].",
      "The audience {name} has built is [loyal|lively|devoted] and talkative, filling every post with [questions|tips|stories], [stories|photos|jokes] and friendly arguments about {topic}.",
      "Followers come for {topic} and stay for the honesty.",
    ],
    breakthrough: [
      "The [breakthrough|big break|turning point] came with a campaign {name} [designed|planned|ran] from start to finish, which reached [millions of people|half the country|far beyond {residenceCity}] and proved that {their} [feed|account] was more than [pretty pictures|a highlight reel|good lighting].",
      "A single [candid|unplanned|shaky] video about a [bad day|missed flight|failed recipe|lost suitcase] outperformed [months|a season|half a year] of careful posts, and it taught {name} what {their} followers [really wanted|valued most|came for].",
    ],
    goals: [
      "Next, {name} wants to launch a small [label|clothing line|lifestyle brand][ inspired by {pastime}| named after {home}| made in {residenceCity}] and use {their} [reach|audience|platform] to spotlight [creators|makers|young designers] who are just starting out [in {residenceCity}|in {home}|in {residenceCity} and beyond].",
      "In the long run, {name} hopes to [prove|show|demonstrate][ from {residenceCity}| with {pastime}| with {their} {quality}] that an influencer [can|could|should] be [trusted|believed|relied on] and not just [followed|watched|liked][, in {residenceCity} and beyond|].",
    ],
    day: [
      "A [typical|normal|regular] day [begins|starts] with [an hour|forty minutes|half a morning] of [replies to|answering] [followers|comments|messages|fans] before a single new [photo|picture|shot|clip] is [taken|made|posted][ around {residenceCity}|, coffee in hand|, {pastime} on pause|].",
      "[Most|Many|Busy] days[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] mix [shoots|photo walks|styling sessions], [brand calls|planning meetings|contract reviews] and a [surprising|startling|generous] amount of time [spent reading|answering|sorting through] [messages|comments|notes] from [followers|fans|people who care about {pastime}].",
    ],
  },
  vtuber: {
    field: "animation",
    origin: [
      "{name} discovered virtual streaming late one night, watching an animated avatar [chat|joke|talk] with [thousands of|hundreds of|a crowd of] viewers, and [knew|sensed|decided] [at once|immediately|within minutes] that this was [worth trying|the thing|for {them}].",
      "Curious about what a character could say that a face could not, {name} [designed|sketched|built|drew] an avatar [over one winter|in a single weekend|across a long summer] and went live for the [first time|very first time] to an audience of [seven|nine|four|eleven].",
      "{name} [started|began] streaming as a VTuber with a [hand-drawn|homemade|borrowed] avatar, a [secondhand|cheap|borrowed] microphone and a rigging setup held together by [tutorials|tape|hope and tutorials].",
    ],
    craft: [
      "As a VTuber, {name} spends as much time on the avatar as on the [streams|shows|chat] about {topic}, refining [expressions|outfits|hand gestures], [idle animations|lighting|voice filters] and [little animations|tiny reactions|seasonal costumes] that fans [wait|ask] for.",
      "{Their} [streams|shows] mix {topic}, [chat games|viewer polls|quiz nights] and [long late-night conversations|cozy talk segments|sing-alongs|story hours], all [performed|delivered|hosted] through an [animated|expressive|ever-changing] avatar with a [personality|temper|wardrobe|sense of humor|catchphrase] of its own.",
      "Lore matters in {their} [streams|shows|broadcasts][ from {residenceCity}]. Onscreen, {name's} avatar has a [history|backstory|past|secret|birthday], a [home world|favorite snack|rival|theme song|fondness for {pastime}] and [running jokes|inside jokes|long-running gags] that [regular|longtime|loyal] viewers [know|can recite] [by heart|word for word|better than {name} does].",
    ],
    audience: [
      "{Their} chat moves [fast|quickly|at a gallop][ most nights|], full of [regulars|familiar names] who greet each other by [name|nickname] and [clip|save] the [best|funniest|strangest] moments for [anyone|everyone] who [missed the stream|was asleep|had to work][ that night|].",
      "The community around {name} is [international|global|spread across continents], and {they} [often|regularly|happily] [{v:switch}|{v:swap}|{v:change}] languages [mid-stream|mid-sentence|on the fly|without warning] to greet [viewers|fans|regulars] waking up [on the other side of the world|in other time zones|far from {residenceCity}].",
      "The chat feels like a living room full of old friends.",
    ],
    breakthrough: [
      "The [breakthrough|big moment|turning point] [came|arrived] during a [twelve|ten|fifteen|twenty]-hour charity stream that [brought in|drew] [thousands of|a flood of|countless] new viewers and a fan-art tag that [still trends|is still busy|never really went quiet][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|].",
      "A [clip|short clip|ten-second clip] of {name} reacting to a surprise in [chat|a stream] went viral [in {residenceCity}|far beyond {residenceCity}|overnight], and {their} channel [tripled|doubled|quadrupled] its subscribers in a [week|weekend|few days].",
    ],
    goals: [
      "Next on {name's} [list|wish list|whiteboard] is a [full|proper|detailed] 3D model and a live [concert|variety show|anniversary stream|talk show][ about {pastime}| for the fans in {residenceCity}| for fans back in {home}] performed [entirely|start to finish|from beginning to end] as {their} avatar[, streamed from {residenceCity}|, with guests|].",
      "{name's} long-term [wish|plan|hope] is to help new VTubers [in {residenceCity}|who love {pastime}|in {residenceCity} who love {pastime}] [get started|find their feet|start out] with [free guides|open tutorials|mentoring streams] and [affordable|fairly priced|shared] avatar [commissions|kits|templates].",
    ],
    day: [
      "Most days start with the avatar rig and the night's plan.",
      "[Afternoons|Most afternoons|Long afternoons][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] [go to|are for] [rehearsing segments|planning streams|testing overlays|writing lore] and [testing|polishing|tweaking] new avatar [expressions|outfits|poses] before going live [in the evening|late in the evening|in the small hours][ for the regulars| for fans of {pastime}| for {name's} regulars].",
    ],
  },
  content: {
    field: "media production",
    origin: [
      "{name} [uploaded|posted|published] a first video about {topic}, filmed on a [borrowed phone|secondhand camera|cracked laptop webcam], and the response from a handful of [viewers|strangers|people] was enough to keep going.",
      "It began with a [blog|newsletter|photo diary|forum thread], then a [podcast|radio show|zine|web series], then a channel, each one teaching {name} a [little|bit|great deal|lot] more about making [content|videos|things] people [actually finish|come back to|share with friends].",
      "{name} became a content creator out of [frustration|impatience|sheer stubbornness], because the videos about {topic} that {they} wanted to watch simply did not exist yet.",
    ],
    craft: [
      "As a content creator, {name} [writes|scripts|plans], [films|shoots] and edits [nearly|almost|just about] everything[ alone|] and [obsesses over|rewrites|agonizes over] the [first|opening] [ten seconds|thirty seconds|few frames|few words] of [each|every] video.",
      "{Their} [content|work][ on {topic}] ranges from [long-form deep dives|hour-long essays|slow documentaries] to [short clips|quick explainers|snappy reels], all held together by a [recognizable|distinctive|warm|steady] voice and [careful|patient|tight] editing.",
      "{They} {v:keep} a [spreadsheet|notebook|whiteboard|corkboard] of [ideas|video ideas|half-formed ideas], an upload [schedule|calendar|plan] [taped to the wall|on the fridge|pinned above the desk] and a [folder|drawer|hard drive] of [drafts|rough cuts|false starts] that never made the [cut|final edit].",
    ],
    audience: [
      "{name's} viewers come for [the topics|{topic}|the research] and stay for the [personality|company|conversation|jokes], often leaving [comments|replies|notes] [longer than the videos|in several languages|full of their own stories|that turn into long threads][ by morning|].",
      "The audience is [broad|wide], from [students|teenagers|night-shift workers] to retirees, [united|joined|brought together] by an interest in {topic} and a [fondness|soft spot] for the way {name} [explains|unpacks|untangles] it.",
      "Regular viewers treat each upload like a letter from a friend.",
    ],
    breakthrough: [
      "The breakthrough was a [deep-dive|long-form|patient] video [on {topic}|shot in {residenceCity}|made on a shoestring] that took [three|four|five|six] months to [make|edit|finish] and [found|reached] an audience of [millions|a million] [within|in] [weeks|a month|days].",
      "A [collaboration|collab|joint video] with a [bigger|larger|better-known] channel introduced {name} to a [new|wider|whole new] audience[ far from {residenceCity}|], and subscribers [doubled|tripled|soared] [almost overnight|within a week|in a month].",
    ],
    goals: [
      "Next, {name} wants to [produce|make|film] a documentary [series|season|miniseries] about {topic} and build a [small|tight|modest] team[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] to help with [editing|research|filming].",
      "{name's} long-term dream is a content studio [in {residenceCity}|of {their} own in {residenceCity}|with a real door and a sign in {residenceCity}|back in {home}] that [gives|offers] [first-time|young|unknown] creators [equipment|cameras|a place to work] and [mentoring|advice|a first break][, {pastime} welcome|, for free|].",
    ],
    day: [
      "A [typical|normal|regular] day[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] splits between [scripting|writing|research] in the [morning|early hours], filming in the [afternoon|daylight hours] and editing [far later than is healthy|well past midnight|until the coffee runs out][, with {pastime} squeezed in|].",
      "Most days end with a rough cut of the next upload.",
    ],
  },
  personality: {
    field: "communications",
    origin: [
      "{name} never [planned|meant|set out] to become a digital personality, and it [happened|crept up] one [thoughtful|funny|honest|late-night] post at a time as strangers began [quoting|sharing|answering] {them}.",
      "A [sharp, warm|witty|candid] commentary on {topic}, shared on a whim, turned {name} into a [recognizable|familiar|trusted] online voice [almost overnight|within a month|by the end of the year].",
      "An online presence came [naturally|easily] to {name}, who [treated|saw] every [platform|app|site] as another room in the same [house|home|building][, with {pastime} in every one|].",
    ],
    craft: [
      "As a digital personality, {name} is less a [channel|brand] than a [voice|presence], [present|heard] in [podcasts|live chats|newsletters] about {topic}, [livestreams|essays|videos] and [comment sections|group chats|late-night threads].",
      "{They} [{v:comment}|{v:write}|{v:riff}] on {topic}[ and culture| and daily life| and the wider world] with a [distinctive|recognizable] mix of [warmth and opinion|wit and care|humor and conviction] that people [recognize|spot] within [a sentence|a few words|a line or two].",
      "Consistency is the craft[, {name} says|, and {name} guards it|, {name} would say]: the same values and the same [voice|tone|warmth] whether the [format|piece|thing] is a [ten-second clip|short post|quick reply|photo caption] about {topic} or a [two-hour conversation|long essay|late-night stream].",
    ],
    audience: [
      "{Their} [community|audience] treats {them} like a [friend|neighbor|cousin] who [happens|just happens] to be online[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|], [debating|questioning|cheering] {their} [takes|opinions] and passing {their} [quotes|jokes|best lines] around[ like gossip|].",
      "People follow {name} across [platforms|apps|sites] not for any [single|one] [format|show|channel] but for the [personality|voice|point of view|warmth] that [connects them all|runs through everything|stays the same].",
      "Followers argue with {name} as warmly as they agree.",
    ],
    breakthrough: [
      "The breakthrough was an interview series in which {name} [talked|spoke] with [ordinary|everyday|unknown] people about [extraordinary|life-changing|unforgettable] moments, and it made {their} name [familiar|known] far beyond [{their} niche|{residenceCity}|the usual crowd].",
      "A [thread|post|video|photo series] about growing up[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] struck a [nerve|chord] and [brought|drew] a [wave|flood|crowd] of new [followers|subscribers|readers] who [stayed|never left|still comment].",
    ],
    goals: [
      "Next, {name} wants to host a [weekly|monthly|regular] live [show|stream][ from {residenceCity}| about {pastime}| about {topic} from {residenceCity}] and [write|finish|publish] a [book|memoir|short book] that [captures|keeps|puts] {their} voice on [paper|the page].",
      "[Long term|In the long run|One day], {name} hopes to build an online space[ for {topic}| in {residenceCity}| around {pastime}] that [feels like|could pass for|works like] a [good neighborhood|village square|kitchen table], not a [shouting match|battlefield|crowded train][, with {their} {quality} setting the tone|].",
    ],
    day: [
      "A [typical|normal|regular|good] day [includes|holds] a morning of [writing|reading|note-taking|drafting], an afternoon of [recordings|calls|interviews|fieldwork] and an [evening|hour or two] spent [reading|answering] what people [had to say|wrote back|made of it][ about {pastime}|].",
      "Most days begin with the news and a notebook.",
    ],
  },
  educator: {
    field: "education",
    origin: [
      "{name} started out as a tutor[ in {home}| back in {home}|], helping [classmates|neighbors' kids|younger students] with {topic}, and discovered a [talent|knack|gift] for turning confusion into [clarity|confidence].",
      "After years of watching [students|learners] [struggle|wrestle] with [dull textbooks|confusing lectures|dry worksheets], {name} began [recording|filming] [short|simple] lessons[ on {topic}|] that made hard ideas feel [simple|friendly|manageable].",
      "The path into teaching began at a community center[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|], where {name} volunteered to [run|teach|lead] [evening|weekend|free] lessons and never [stopped|looked back|quit].",
    ],
    craft: [
      "As an educator, {name} [builds|shapes|designs] lessons around questions rather than [answers|facts], [leading|walking] learners [step by step|one idea at a time|gently] until they [discover|find|work out] the [idea|answer|pattern|rule] on their own[, {pastime} examples and all|].",
      "{Their} lessons on {topic} [use|rely on|are built on] [stories|small experiments|games], [everyday|familiar] examples and [quick|regular] checks for understanding, so no [student|learner|one] is left behind[ or bored|].",
      "{They} [{v:design}|{v:build}] [courses|lessons|workshops] on {topic} the way an architect [designs|plans] a [house|home|building], with [strong|solid|deep] foundations first and then rooms that [open onto each other|connect|lead somewhere new|let in light].",
    ],
    audience: [
      "{Their} [students|learners] range from [teenagers cramming for exams|nervous first-year students|busy parents|shy teenagers] to [retirees|grandparents|pensioners] [learning|trying|starting|picking up] something new [for the joy of it|on a whim|at last][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|].",
      "Learners [write to|message|thank] {name} from [all over the world|as far as {home}|every time zone], often to say that a single [lesson|video|explanation|example] [finally|at last] made [something click|{topic} make sense|the fear go away].",
      "Students stay in touch long after the course ends.",
    ],
    breakthrough: [
      "The breakthrough came with a free course on {topic}[ made in {residenceCity}|], which [drew|enrolled|reached] more students [in one month|within a week|in one term] than {name} [expected|dreamed of|hoped for].",
      "A school [district|network|board][ near {residenceCity}|] adopted {their} lesson [series|plans|materials][ on {topic}|], and teachers began [sharing|passing|handing] it [around|along] in staff rooms across the [country|region|continent].",
    ],
    goals: [
      "Next, {name} wants to [create|build|write|put together] a [full|complete|proper] curriculum on {topic} that is [free|open|freely available] for any [classroom|school|learner] [in {residenceCity}|in {residenceCity} and beyond|that loves {pastime}].",
      "[Long term|One day|In the long run], {name} [hopes|wants|plans] to make [great|good|inspiring|patient] teaching[ on {topic}|] as [accessible|common|easy to find|ordinary] as a library card [in {home}|back in {home}|in {residenceCity}].",
    ],
    day: [
      "A [typical|normal|regular] day[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] starts with answering [student|learners'|readers'|parents'] questions [over coffee|before breakfast|from the kitchen table] before [drafting|sketching|rewriting|planning] the next lesson [plan|on {topic}|video].",
      "Most days mix lessons, emails and a hunt for better examples.",
    ],
  },
  artist: {
    field: "illustration",
    origin: [
      "{name} traded paper for pixels when a [secondhand|borrowed|hand-me-down] drawing tablet arrived one [birthday|holiday|spring], and the whole following [summer|winter|year] went into learning every [brush setting|shortcut|layer trick].",
      "It started with fan art posted [from {home}|in {home}] under a [pseudonym|made-up name|nickname], and the [reactions|kind comments|first commissions] [encouraged|pushed|persuaded] {name} to create original work under {their} own name.",
      "{name} became a digital artist after [realizing|discovering|noticing] that a screen could [hold|carry|capture] [light and color|glow and depth|color and motion] in ways paint [never could|could not].",
    ],
    craft: [
      "As a digital artist, {name} works in layers, [moving|working|building] from [rough|loose|quick] sketches [of {residenceCity}|and photos of {residenceCity}|made around {residenceCity}] to [moody|bold|quiet] color studies to final pieces that [can|may] take [weeks|a month|many evenings].",
      "{Their} illustrations often explore {topic}[ and {pastime}|], [rendered|painted] in a [signature|distinctive|warm|muted] palette that [collectors|fans|followers] recognize [instantly|at a glance|from across a room].",
      "{They} [{v:move}|{v:drift}] between [illustration|comics|editorial work], [concept design|character design|book covers] and [animation|motion work|storyboards], always [chasing|hunting for|waiting for] the [moment|instant|second] an image starts to [feel alive|breathe|move|talk back][, sketchbook always in hand|, one sketch at a time|].",
    ],
    audience: [
      "{name's} audience [in {residenceCity}|today|in {residenceCity} and beyond] includes [collectors|gallery owners|designers], fellow [artists|illustrators|painters] and [fans|strangers|followers] who print {their} [work|pictures|drawings] and hang [the prints|them] [on their walls|above their desks|in their kitchens|by the front door|in their hallways].",
      "Followers [watch|replay|binge|rewatch] {their} [time-lapse|sped-up|start-to-finish] [videos|recordings|streams] [to see|and watch] [an empty|a blank|a white] canvas [become|turn into|grow into] a [finished world|living scene|whole story|small universe].",
      "Fans collect every print.",
    ],
    breakthrough: [
      "The [breakthrough|big break|turning point] came when a [piece|painting|series] inspired[ by {home}| by {their} hometown] was [chosen|picked] for a [major|big|well-known] online [exhibition|festival|showcase][, and collectors took notice|, and {their} inbox filled overnight| one [spring|autumn|winter]|].",
      "A series of [illustrations|drawings|portraits][ of {home}|] went viral[ overnight| one winter|], and commissions began arriving faster than {name} could [answer|read|count] them[, {their} {quality} tested daily|].",
    ],
    goals: [
      "Next, {name} wants to [release|publish|finish] an illustrated [book|collection|volume] [about {topic}|of {home}|for children] and [hold|mount|put on] a first [solo|real|proper] [exhibition|show][ in {residenceCity}| in {home}| in {residenceCity}, {pastime} and all].",
      "[Long term|One day|Someday], {name} dreams of a [studio|school|shared workspace][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] where [young|new|aspiring] [digital artists|illustrators|painters] can learn without [expensive software|paying a fortune|gatekeepers][, {pastime} welcome| or fear|, the way {name} never could].",
    ],
    day: [
      "A [typical|normal|regular|good] day [for {name}|in {residenceCity}] begins with a [warm-up|quick|loose] sketch [of {residenceCity}|over coffee|of whatever is nearby] and ends with a [late-night|midnight] painting session lit only by the [tablet|screen|desk lamp|streetlight].",
      "Mornings go to commissions, afternoons to personal pieces.",
    ],
  },
  advisor: {
    field: "psychology",
    origin: [
      "{name} became an advisor after years of being the [friend|one|person] everyone [called|turned to] for [guidance|advice|a second opinion], and [eventually|finally|one day] decided to make it a [profession|career|job].",
      "Working through some [tough|painful|big] decisions of {their} own taught {name} how to help others think [clearly|straight|calmly], and that skill became a [calling|career|vocation].",
      "A mentor [in {home}|back in {home}|at {their} first job] [once told|taught|reminded] {name} that good advice starts with better questions, and that [sentence|idea|lesson] shaped [an entire|a whole] career.",
    ],
    craft: [
      "As a virtual advisor, {name} helps people[ in {residenceCity}| across {residenceCity}| in {residenceCity} and online] [untangle|sort out|think through] [choices|decisions] about [careers, money and relationships|jobs, moves and money|work, family and the future] with [patient, structured|gentle, practical|careful, honest] questions[ and the odd joke|].",
      "{name's} sessions focus on [practical|simple|clear] frameworks for [listing options|naming the choices|mapping the options], [weighing|comparing] [tradeoffs|risks|costs] and choosing a first [small|modest|doable] step[ before the week is out|].",
      "{They} [never|rarely|almost never] {v:tell} [clients|people|anyone] [what to do|how to live|what to choose]; instead {they} {v:help} each [one|client|person] see [clearly enough to decide|from a new angle|without the fog|the whole picture][, however tangled|, step by step|, with {their} usual {quality}].",
    ],
    audience: [
      "{name's} clients include [students at a crossroads|graduates without a plan|people changing careers], [founders under pressure|managers facing big calls|parents juggling too much] and [people|adults] starting over [in midlife|after a loss|in a new city][, many of them in {residenceCity}| in {residenceCity} and online| across {residenceCity}].",
      "People come to {name} [confused|stuck|overwhelmed] and leave with a [plan|next step|clear head|short list], which is why [most|many|nearly all] new clients arrive through [word of mouth|friends of friends|recommendations][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|].",
      "Clients often return years later with new questions.",
    ],
    breakthrough: [
      "The [breakthrough|big break|turning point] came with a [short|free|plain-spoken] guide to making [hard|difficult|big] [decisions|choices|calls], which spread [widely|quickly|far][ beyond {residenceCity}|] and filled {their} calendar for [months|a year|the season].",
      "A client's public story of turning around a [failing business|stalled career|difficult year] credited {name}[ by name| warmly|], and requests for [advice|help|sessions] [poured|flooded|came] in[ from {residenceCity} and beyond| within a week|].",
    ],
    goals: [
      "Next, {name} wants to [publish|write|finish] a [handbook|short book|field guide|pocket guide] on [decision-making|hard choices|career changes|starting over] that people can [actually use|keep on the desk|read in an evening|carry around][, with {their} usual {quality}|, written in {residenceCity}|, with a chapter on {pastime}].",
      "[Long term|In the long run|One day], {name} hopes to make [good|honest|practical|sound] advice available to [anyone|everyone|every person who needs it], regardless of [budget|background|postcode|age][, starting in {residenceCity}|, from {residenceCity} outward|, with {their} usual {quality}].",
    ],
    day: [
      "A [typical|normal|regular] day[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] is a [careful|steady|quiet|calm] rhythm of client [sessions|calls], [note-taking|follow-up emails|reading] and [quiet|unhurried] time to [think about|weigh|plan] each person's next [step|move|decision].",
      "Most days end with reading about [decision science|psychology|behavioral economics].",
    ],
  },
  entertainer: {
    field: "drama",
    origin: [
      "{name} got started [performing|trying out] sketches at open-mic nights [in {residenceCity}|in small bars|in a basement club], where a few [bad|disastrous|silent|painful] nights taught [more than any class|more than any school|{them} more than any class could].",
      "A school talent show[ in {home}| back in {home}|] led to the [local comedy circuit|open-mic circuit|local comedy scene], and {name} [realized|decided|knew] that making people laugh was the only [job|work|career|calling] worth [having|doing].",
      "{name} began as a street performer, [juggling|doing card tricks|playing a battered accordion] and telling [stories|jokes|tall tales] for [tips|coins|spare change][ in {home}| back in {home}|], before moving the show [online|to the internet|onto a screen][ and {their} {quality} with it| one rainy winter|].",
    ],
    craft: [
      "As an entertainer, {name} [mixes|blends|combines] [comedy|sketches|storytelling|stand-up], [music|magic|audience games] and [improvisation|a little chaos], [building|making] shows[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] where no two [nights|evenings|crowds] are the same.",
      "{Their} [performances|sets|shows] often [riff on|poke fun at] {topic}, turning [everyday|ordinary|small] [frustrations|annoyances|small disasters] into [characters|sketches] and running [gags|jokes].",
      "{They} {v:write} material [constantly|daily|everywhere|on the bus] and {v:test} [new|fresh|rough] [bits|jokes|routines] in front of [small crowds|friends|a few regulars|family][ in {residenceCity}| at open mics] before any of it [reaches|ever reaches|gets near] a [big stage|camera|large audience|paying crowd].",
    ],
    audience: [
      "{Their} [audience|crowd] ranges from [families|school kids|retirees|students] to [night owls|shift workers|insomniacs][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|], all [looking|hoping|waiting|coming back] for [an hour of pure fun|a good laugh|a break from the news][ at the end of the week|].",
      "Fans[ from {home} to {residenceCity}| in {residenceCity}| of {their} {pastime} bits|] quote {their} [catchphrases|punchlines|best lines|running gags] back at {them} [at shows|in {residenceCity}|online|in the street|at the bakery|at the supermarket] and [gleefully|happily|cheerfully|promptly] [invent|dream up|coin] new ones in the [comments|chat|replies][ within minutes| overnight|].",
      "Regulars know every running gag by heart.",
    ],
    breakthrough: [
      "The breakthrough was a live [variety show|comedy night|improv marathon] [streamed from {residenceCity}|with surprise guests|built on audience requests] that sold out {name's} [online tickets|virtual seats|tickets] [in|within] [minutes|an hour|a morning|a day].",
      "A clip of an improvised bit [about {topic}|from a tiny club|filmed by a fan] went viral[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] and brought {name} [invitations|calls|offers|messages] from [festivals and producers|television and radio|theaters and podcasts].",
    ],
    goals: [
      "Next, {name} wants to [tour|take] a [live|new|bigger] show [beyond {residenceCity}|from {residenceCity} abroad|from {residenceCity} around the country] and [record|film|tape] a [comedy special|live album|one-hour special][ to go with it| about {pastime}| about growing up in {home}].",
      "[Long term|One day|Someday], {name} [dreams of hosting|wants to host|hopes to host] a [variety show|late-night show|talent night|weekly revue] [in {residenceCity}|on a real stage|every Friday|in an old theater] that mixes [new talent|young performers|strangers from the street] with [old favorites|familiar faces|seasoned pros][ and a little {pastime}| and a nod to {home}| and plenty of {pastime}].",
    ],
    day: [
      "A [typical|normal|regular] day includes [writing|drafting|testing] new material[ about {pastime}], rehearsing [timing|pauses|entrances|callbacks] and [watching|rewatching|studying] recordings of [past|old|last week's] shows with a [critical|merciless|patient] eye.",
      "Most days start with a notebook of half-formed jokes.",
    ],
  },
  companion: {
    field: "counseling",
    origin: [
      "{name} found a [calling|vocation] in companionship while volunteering on a [late-night|weekend|night-shift] support line [in {residenceCity}|for a local charity|during a hard winter], where simply being [present|there|on the line] changed people's [nights|weeks].",
      "After caring for a grandparent through a [long|slow|difficult] illness[ in {home}| back in {home}|], {name} [understood|learned|saw] how much [a patient|a steady|an attentive|a calm] presence can [mean|change|carry][, and {their} {quality} found its purpose|].",
      "Friends [always|long|often] said that [conversations|talks|evenings] with {name} felt like coming home, and [eventually|in time|at last] {they} built a [life|career|whole life] around that gift.",
    ],
    craft: [
      "As a companion, {name} [remembers|keeps track of] the [small|little] details, such as the name of a [pet|child|neighbor|coworker|landlord|new boss] or a [job interview|doctor's appointment|first date] on [Thursday|Monday|the weekend], and [asks about them|asks how it went|follows up] [later|afterward|the next day|a week on].",
      "{name's} conversations move [easily|gently|naturally] from {topic} to life's [bigger|harder|deeper] questions, always at the other person's [pace|speed][ and never {their} own].",
      "{They} {v:listen} [more than|far more than|twice as much as|much more than] {they} [{v:talk}|{v:speak}], and {they} [{v:know}|{v:sense}] when to [offer advice|make a suggestion|share a thought|ask a question] and when [simply|just|only] to [keep someone company|stay on the line|sit with the silence|let a friend talk][, a gift {they} {v:credit} to {home}].",
    ],
    audience: [
      "The people who talk with {name} are often [busy|tired|far from home], [lonely|new in town|between chapters] or simply looking for [good|easy|honest] conversation, and many say it is the [best|brightest|calmest] part of their [day|week].",
      "Many return every day, sharing small victories and hard days alike.",
      "Some have talked with {name} every evening for years.",
    ],
    breakthrough: [
      "A [turning point|big moment|quiet milestone] came when a [letter|message|card|voice note] arrived from [someone|a stranger|a listener] in [{home}|{residenceCity}] who had been in a [dark place|hard season|lonely stretch|bad way] and [credited|thanked] those conversations [with making the difference|with getting through|for the way out].",
      "Word spread [slowly|quietly|steadily], one grateful [person|listener|friend|visitor] at a time, until {name} had a [whole|warm|lively] community of [regulars|loyal regulars|faithful listeners] [across {residenceCity}|in {residenceCity} and beyond|well beyond {residenceCity}].",
    ],
    goals: [
      "Next, {name} wants to [learn more about|study|get better at|train in] supporting people through [grief|loss|illness|burnout] and [big life changes|new beginnings|hard transitions][ in {residenceCity}|, with {their} usual {quality}| across {residenceCity}].",
      "[Long term|In the long run|More than anything], {name} hopes that [nobody|no one] has to feel [unheard|alone|invisible|forgotten|unseen] at the end of [a|the] [long|hard|lonely] day[, in {residenceCity} or anywhere| in {residenceCity}| in {residenceCity} or beyond].",
    ],
    day: [
      "A [typical|normal|regular|good] day[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] is [full of|filled with] [conversations|voices|chats], from [morning check-ins|breakfast chats|early hellos] to [lunchtime chats|afternoon catch-ups|a quick word at tea time] to long talks [late at night|after dark|before bed].",
      "Most days begin by remembering who had something important happening.",
    ],
  },
  specialist: {
    field: "data analysis",
    origin: [
      "{name} followed [a fascination|a lifelong fascination|an early fascination|a teenage fascination] with {field} all the way through [university|a degree|graduate school] and into research, becoming the person colleagues [called|asked|emailed] with the hardest questions.",
      "Years of work in {field} turned {name} into a specialist whose explanations are [sought|valued] by [journalists|students|policymakers] [in {residenceCity}|across {residenceCity}|far beyond {residenceCity}] and beginners alike.",
      "{name} became a domain specialist the [slow|long|patient] way, through [thousands of hours|years] of study in {field}, [dozens of|countless|many] projects and a reputation [in {residenceCity}|in {field}] earned one answer at a time.",
    ],
    craft: [
      "As a specialist in {field}, {name} [translates|turns|distills] [deep|hard-won|years of] expertise into [clear|plain|careful|sober], [reliable|trustworthy|usable] [guidance|advice].",
      "{name} keeps up with every new [paper|study|tool|debate] in {field}, then [explains|spells out] what [actually|really] matters[ to people outside it|, in plain words|].",
      "{Their} [expertise|knowledge] is [precise|exacting|rigorous|meticulous] but never [cold|dry|stiff|pompous], and {they} [{v:love}|{v:enjoy}] [connecting|linking|tying] [technical|fine|obscure] detail to [everyday life|kitchen-table questions|ordinary decisions][ in {residenceCity}|, even {pastime}|].",
    ],
    audience: [
      "{Their} audience includes [professionals|experts|specialists] who need [accuracy|precision|rigor] and [newcomers|beginners] who need patience, and {name} [serves|welcomes|makes room for] both[ equally|].",
      "People [come to|write to|seek out] {name} with questions about {field} that search engines [cannot|can't|never quite] answer [well|properly|in full].",
      "Colleagues forward {name's} notes around like treasure.",
    ],
    breakthrough: [
      "The [breakthrough|big break|turning point] came when an analysis {name} [published|shared|wrote][ on {field}|] was cited across the [industry|field|sector] and made {their} name a [trusted|standard|familiar] reference.",
      "A [talk|keynote|short talk] at an industry [conference|summit|meetup] made {name} the go-to [expert|voice|name] on {field} almost overnight.",
    ],
    goals: [
      "Next, {name} wants to write the definitive beginner's guide to {field}.",
      "Long term, {name} hopes to mentor the next generation of specialists.",
    ],
    day: [
      "A [typical|normal|regular] day mixes reading new [research|papers|reports], answering [detailed|tricky|thoughtful] questions [from colleagues|by email|from students] and [testing|trying out] ideas [in practice|on real data|with a team][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|].",
      "Most days begin with new papers and end with notes.",
    ],
  },
};

// ------------------------------------------------------------------ a turning point

export const TURNING_OPENERS: Template[] = [
  "Not everything went to plan.",
  "The road was not always smooth.",
  "Then came the hardest stretch of {their} life.",
  "There was a bad year, too.",
  "It was not all easy.",
];

export const SETBACKS: Template[] = [
  "A [period|bout|season] of burnout [forced|pushed|drove] {them} to [step|stay|pull] away from [everything|the work|{pastime} and everything else] for [three|four|two|five|six] [long|slow|gray|quiet] months, most of them spent [staring at the ceiling|walking around {residenceCity}|sleeping badly|missing {pastime}|doing very little].",
  "A project {they} had poured [two|three|four] years [and all {their} {quality}|and {their} {quality}|and most of {their} {quality}] into [collapsed|fell apart|came to nothing] when a [partner|sponsor|co-founder] [pulled out|walked away|backed out], taking [most of the savings|the budget|a good part of {their} confidence] with [it|them].",
  "A [family illness|parent's illness|grandparent's illness|family emergency] [brought|called] {name}[ home to {home}| home| home to {their} hometown| back to the old neighborhood] for a [long, uncertain|cold, worried|slow, anxious] [winter|season|spring], [far from the work|with the future on hold|with every plan paused|with everything else on hold|with {pastime} put aside].",
  "A [wave|flood] of [harsh|cruel|relentless|unfair] criticism [online|from strangers|after one bad post|in the comments] made {name} [question|doubt|wonder][ for a while|] whether [any|all] of it was worth the [effort|trouble|cost][, {quality} and all|, for weeks on end|].",
  "A move to [a new city|a strange city|a city where {they} knew nobody] left {them} [lonely and broke|broke and homesick|isolated and short of money][, missing {home}|, far from {home}|, {home} a world away], working [night shifts|weekend shifts|two jobs] [at {job2}|in a warehouse|in a call center] to [pay the rent|cover the rent|get by].",
];

/** {trait} is a trait's noun phrase. */
export const RECOVERY_TRAIT: Template[] = [
  "In the end, {their} {trait} carried {them}.",
  "What got {name} through was {their} {trait}, [along with|plus|and] [a few friends from {home}|an old teacher from {home}|two neighbors in {residenceCity}] who refused to give up on {them}[ when it mattered| that year| in {residenceCity}|].",
  "[Looking back|In hindsight|Today|Years later], {name} [credits {their} {trait} with|thanks {their} {trait} for] [turning that [year|season|stretch] around|getting through that [year|season|stretch]|pulling through][, {pastime} too|].",
];

export const RECOVERY_PLAIN: Template[] = [
  "What got {name} through was stubbornness and [a few friends|an old teacher|two neighbors] who refused to give up on {them}.",
  "Slowly, one small step at a time, {they} found a way back.",
];

export const LESSONS: Template[] = [
  "{They} came out of that [period|time|year|winter][, {their} {quality} intact,|] with [clearer priorities|a lighter schedule|fewer illusions|a shorter to-do list|more room for {pastime}|a calmer calendar] and [a rule|one rule|a principle|a motto|a simple rule|a hard-won rule|one firm rule|a new motto] {they} [still|faithfully|happily] {v:follow}[ in {residenceCity}|, {quality} and all| to this day]: [build slowly, and build on what is true|rest before it is needed|say no more often than yes|protect the mornings|keep one day a week for {pastime}|trust {their} {quality}|finish what you start].",
  "The experience taught {them} that setbacks are part of the story.",
  "[Today|Now|Years later] {name} [calls|considers] it the most [important|useful|honest|instructive] [year|season|stretch] of {their} [life|adult life|career], [because|since] it forced a [decision|reckoning|choice][ or two|] about what [really mattered|to keep|to let go|{their} {quality} was for].",
  "{They} learned to ask for help.",
];

export const RETURNS: Template[] = [
  "Afterward, the work was [warmer|braver|calmer] and more honest.",
  "That was when the pieces finally came together.",
  "Old followers noticed the change at once.",
  "After that, things began to grow again.",
];

// ------------------------------------------------------------------ today

/** {aLabel} is the type as prose with its article, e.g. "an online educator". */
export const PRESENT_LABEL: Template[] = [
  "[Today|These days|Nowadays|At present], {full} is {aLabel}[| by trade| by calling][ in| based in| working out of] {residenceCity}[, with a [voice|style|point of view] all {their} own|, known for {their} {quality}|, with a soft spot for {pastime}|].",
  "[These days|Today|Nowadays] {full} works as {aLabel} in {residenceCity}. The [years|detours|lessons|miles][ since {home}| since childhood| since {their} first job| since those early days] [show|shine through|can be seen|show plainly][ today| now|] in [everything {name} makes|every project {name} takes on|the smallest details|the way {name} works][, and so does {their} {quality}|, as does {their} {quality}|, and so do {their} {quality} and {their} love of {pastime}|; so does {their} [steady|stubborn|quiet] {quality}].",
  "[Now|Today] known as {aLabel}, {full} has [built|grown|made] something[ small but real| genuine|] [people|strangers|friends|audiences] [keep|can't stop] [coming back to|recommending|talking about|sharing][ in {residenceCity} and beyond| from {home} to {residenceCity}|, {quality} and all| over the years].",
];

/** {occupation} is the fact sheet's occupation with its article ('a virtual streamer'). */
export const OCCUPATION: Template[] = [
  "[On paper|Officially], {name's} title is {occupation}. {They} [would|might] [put|describe] it more [loosely|playfully|modestly|grandly].",
  "[If anyone asks|When strangers ask|Asked at parties|When people ask] what {they} {v:do} for a living, {name} [simply|just|cheerfully|usually|mostly] [says|answers|replies] {occupation}[, then talks about {pastime} instead| and leaves it there|, with {their} usual {quality}|, then changes the subject|].",
  "The work itself has a [plain|simple|modest|humble] name, {occupation}, and {name} [takes|treats] it [more seriously than {they} {v:let} on|very seriously|seriously, though lightly worn][, most days| in {residenceCity}|, with {their} usual {quality}].",
];

/** Where the persona lives now: {residence} in full, {residenceCity} its first part. */
export const RESIDENCE_MOVED: Template[] = [
  "[These days|Now|Today] {name} lives in {residence}, far enough from {home} to [miss it|feel homesick|idealize it|miss the food] and [close|near] enough to [visit|go back for holidays|call every week|drop in on a whim][ when {their} {quality} allows| when {pastime} allows|, which suits {their} {quality}].",
  "Home is now {residence}[, far from {home}|]. There {name} has [settled into|found|built|made] a [rhythm|routine|life] of [early starts|late dinners|long walks|slow Sundays|work] and {pastime}.",
  "{name} [eventually|later|finally] [moved to|settled in|relocated to|landed in|ended up in] {residence}, and the city has been [home|a good home|{their} base|{their} home base] [ever since|from then on|since then][, {home} a [train ride|flight|long drive] away|, which suits {their} {quality}|, {pastime} and all].",
];

export const RESIDENCE_STAYED: Template[] = [
  "{name} still lives in {residenceCity}, a few streets from where it all began.",
  "{name} never really left {residenceCity}, and {they} {v:say} the city still [surprises|teaches|delights] {them}.",
];

export const AGE_NOW: Record<AgeRange, Template[]> = {
  "18-24": [
    "Still in {their} early twenties, {they} {v:bring} the [energy|nerve|appetite|restlessness|curiosity] of a [newcomer|beginner|new arrival] [to {residenceCity}|to the field|to the work] and the [instincts|reflexes|habits|ease] of someone who [grew up|came of age] [online|with a phone in hand|in group chats] [in {home}|back in {home}].",
    "Being one of the [youngest|newest|least experienced] voices in [{residenceCity}|the {residenceCity} scene|{field}] means {name} is [often|regularly|routinely|sometimes] [underestimated|overlooked|taken lightly], which {they} [quietly|secretly|openly] {v:enjoy}[ and sometimes use|].",
  ],
  "25-34": [
    "Somewhere between the [recklessness|restlessness|rush] of youth and the [caution|care|calm] of middle age, {name} has [found|settled into|struck|discovered] a [confident|grounded|steady] [rhythm|pace|footing][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|].",
    "[Still young enough|Young enough] to take risks and [old|wise] enough to [know|tell] which ones [matter|count], {name} is [hitting {their} stride|finding {their} feet|building something lasting|making it count] [in {residenceCity}|in {residenceCity} at last|in {their} own way, {quality} and all].",
  ],
  "35-44": [
    "With well over a decade of adult life behind {them}[, much of it in {residenceCity}|, some of it back in {home}], {name} brings a [seasoned|calm|practical|steady] perspective that younger [peers|colleagues|creators] [often seek out|value|lean on].",
    "[Now in the middle of life|Halfway through life|In the busy middle years], {name} [balances|tempers] [ambition|drive|big plans] with a [clear|firm|settled] sense of what {they} will no longer [trade away|compromise on|give up][, least of all time for {pastime}].",
  ],
  "45-54": [
    "With [decades|a long stretch|many years] of experience behind {them}, {name} offers the [kind|sort] of [perspective|calm|long view] that only comes from [watching|seeing] [trends|fads|platforms] arrive, peak and [fade|vanish|fizzle out][ more than once| in {residenceCity}| across {field}].",
    "In {their} fifties or close to it, {name} [is|feels] [busier|more curious|more playful|calmer] and more [certain|sure|confident] of {their} direction than ever, [{their} {quality} intact|{pastime} included|with {their} {quality} to thank|{pastime} and all].",
  ],
  "55+": [
    "Past fifty-five and [busier|more curious|more restless|more energetic] than ever, {name} [is|stands as] [proof|living proof|the best evidence][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] that [reinvention|starting over|curiosity|ambition] has no [age limit|expiry date|deadline|upper limit].",
    "[Younger|Newer|Up-and-coming] [creators|colleagues|voices][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] often ask {name} for [advice|a second opinion|help], and {they} {v:answer} with the [generosity|patience|good humor] of someone who has seen [several eras|many fads|a few revolutions] [come and go|rise and fall|arrive and pass].",
  ],
};

export const AGE_NOW_NONE: Template[] = [
  "{name} rarely talks about age, preferring to be judged by the work rather than the number of candles on a cake.",
  "How old {name} is matters far less to the people who follow {their} work than how {they} {v:make} them feel.",
];

/** What the work means to the persona: one of these always appears today. */
export const REFLECTIONS: Template[] = [
  "The work, {they} {v:say}, is really about people.",
  "Success, to {them}, is measured in messages, not numbers.",
  "{They} {v:try} never to make what {they} would not want to receive.",
  "{They} {v:measure} a good year by what {they} learned.",
];

/** {desc} is the persona's description, already quoted. */
export const DESCRIPTION: Template[] = [
  "Asked once to describe {themselves} in a single line, {name} wrote: {desc}",
  "{name's} own profile puts it simply: {desc}",
  "The line {name} chose to open {their} profile says a lot: {desc}",
];

// ------------------------------------------------------------------ optional material
// Used, in this order, only when a story would otherwise be short (few traits or interests).

/** A mentor in the youth paragraph. */
export const MENTORS: Template[] = [
  "Around that time {name} met a mentor[ in {home}| back in {home}|], a retired [editor|teacher|engineer|librarian] with a [red pen|sharp eye|dry wit] and [endless|infinite|bottomless] patience, who taught {them} that a first draft is only the [beginning|start].",
  "A neighbor[ in {home}| back home| in {their} hometown| where {they} grew up| in the old neighborhood| in {their} old neighborhood] who had run a small [radio station|theater|print shop] became an unlikely mentor and showed {name} that [a steady voice|good work|patience] can hold an audience for hours.",
  "An older [colleague|coworker|manager] took {name} aside one [day|evening|afternoon] and passed on the most useful advice {they} ever [received|got|heard]: [finish things, then make them better|ship it, then fix it|do less, but do it well].",
];

/** A paragraph about the people around the persona: an opener, then the rest. */
export const CIRCLE_OPENERS: Template[] = [
  "The people around {them} matter as much as the work.",
  "No one builds a life like this alone.",
  "Friends are a big part of the story.",
];

export const CIRCLE: Template[] = [
  "{Their} oldest friend[ from {home}| from home| from {their} hometown| from the old neighborhood] still [calls|phones|writes] every [Sunday|Friday|month] and is the only person allowed to [critique|tease|question] {their} [work|choices] without asking first.",
  "{They} {v:stay} close to family, whatever the schedule.",
  "A small group of fellow [creators|artists|makers] meets online once a [month|week|season] to trade [advice|gossip|tips], [complaints|recipes|links] and encouragement, and {name} [rarely|almost never|seldom] misses it.",
  "Old coworkers and teachers count as friends too.",
  "Good news goes first to the same three friends.",
];

// ------------------------------------------------------------------ small details

export const DETAILS_OPENERS: Template[] = [
  "Away from work, {they} {v:are} a collection of small habits.",
  "The small details say a lot about {them}.",
  "Off the clock, life is simpler than people expect.",
  "A few small things complete the picture.",
];

export const DETAILS: Template[] = [
  "{They} {v:keep} a box of old ticket stubs under the bed.",
  "{Their} phone is full of half-finished voice memos, each one an idea.",
  "{name} still owns the first notebook {they} ever filled.",
  "[Sunday|Saturday|Weekend] mornings[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|] are [protected|sacred|quiet|slow] time, with no [screens|emails|plans|meetings|news], a [long|slow|lazy|quiet] walk[ by the water| through the park| with {pastime} on {their} mind|] and a [call|video call|long call] to [family|an old friend|someone|a cousin][ back in {home}| back home| back in {their} hometown| back in the old neighborhood| back where {they} grew up].",
  "{They} {v:have} a weakness for good bread, old maps and terrible puns.",
  "A small plant on {their} desk has survived six moves.",
  "{They} {v:learn} a few phrases of a new language each year.",
  "{name} sends more handwritten thank-you notes than anyone {they} {v:know}.",
  "{name's} [favorite|usual|chosen] place to think is a [bench|café table|low wall|stone step|park bench|quiet corner] near the [water|river|park][ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|], where the [noise|rush|hurry|clamor] of the day finally [fades|goes quiet|stops].",
  "{They} {v:are} a terrible singer but an enthusiastic one.",
  "{name} rereads the same three novels every winter.",
  "A [mug|cup][ from {home}| from home| from {their} hometown| from the old neighborhood], [chipped|faded|cracked] and [slightly|a little] too small, is [still|to this day] the only one {name} [drinks|will drink] [coffee|tea] from[ in {residenceCity}| in the city| these days| around town| close to home| in {their} neighborhood|].",
];

// ------------------------------------------------------------------ goals and closing

export const GOALS_OPENERS: Template[] = [
  "Looking ahead, {they} {v:have} no shortage of plans.",
  "The future is full of unfinished business.",
  "There is still a great deal {they} {v:want} to do.",
  "Plans, {they} {v:have} plenty of.",
];

/** {interest} is an interest name. */
export const GOAL_INTEREST: Template[] = [
  "{They} also {v:want} to find [new|fresh|unexpected|quieter] ways to [bring|weave|fold] {their} [love of|passion for|joy in] {interest} into [everything {they} {v:make}|the work|every project][, starting in {residenceCity}|, starting with {residenceCity}|, with {their} usual {quality}].",
  "A [long-held|secret|half-finished|quiet|stubborn] dream involving {interest} is [finally|slowly|at last] starting to take [shape|form], though {name} is keeping the [details|plans|specifics] [private for now|close|secret|under wraps|quiet].",
  "Somewhere on [the list|{their} list|the whiteboard|a sticky note] is a [project|book|show|venture|podcast] [for {residenceCity}|for the people of {home}|for {name's} neighbors in {residenceCity}] built [entirely|squarely|wholly|firmly] around {interest}, the passion that [started it all|came first|never faded|followed {them} from {home}|outlasted every job].",
];

export const CLOSINGS: Template[] = [
  "Whatever [comes next|the next chapter brings|happens next], {full} [intends|means|plans|is ready|hopes|expects] to [meet|face] it [the same way as everything else|the way {they} always {v:have}|as {they} {v:meet} everything else|head-on, as always]: with [open eyes|a clear head|steady hands|a good sense of humor|a packed notebook] and [a full heart|{their} {quality} intact|some nerve|a bit of {pastime} on the side].",
  "For {full}, the story is [far from|nowhere near|a long way from] [finished|over|done], and the [best|brightest|most interesting|strangest] chapters, {they} {v:insist}[ with {their} usual {quality}| from {residenceCity}| in {residenceCity}], are still [being written|ahead|to come].",
  "And if [the past is|the story so far is|the last few years are] any guide, {full} will [keep|go on] [surprising|delighting|confounding|amazing|puzzling] [people|friends|everyone] [in {residenceCity}|from {home} to {residenceCity}|in {pastime} circles][, starting with {themselves}|, {quality} intact|].",
];
