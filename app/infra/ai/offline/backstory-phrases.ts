// Phrase banks for the local backstory generator (local-text.server.ts). Plain data.
//
// Template placeholders, filled in one pass (values are never re-scanned, so a name or a
// description containing braces stays as typed):
//   {name} {name's}   the persona's short name (first name when it has one), and its possessive
//   {full} {full's}   the full name
//   {they} {They} {them} {their} {Their} {themselves}
//                     pronouns: he/him/his/himself, she/her/her/herself, or they/them/their/themselves
//   {v:verb}          a present-tense verb whose subject is the pronoun just before it, written in
//                     the plural form ("{they} {v:are}", "{they} {v:love}"); it becomes "is" / "loves"
//                     for he and she. Never used after {name}: a name always takes the singular.
//   anything else     a value the section supplies: {year}, {place}, {home}, {topic}, {field},
//                     {aLabel}, {education}, {occupation}, {residence}, {residenceCity}, {a}, {b}, {trait}, {job}, {job2}, {career}, {desc}, {interest}.
// Templates are written in US English, one sentence each, and each ends with its punctuation.
import type { AgeRange, Interest, PersonaType, TRAIT_CATEGORIES } from "~/domain/persona";

export type Template = string;
export type Trait = (typeof TRAIT_CATEGORIES)[keyof typeof TRAIT_CATEGORIES][number];

// ------------------------------------------------------------------ origins

export const BIRTH: Template[] = [
  "{full} was born in {year} in {place}.",
  "The story of {full} begins in {year}, in {place}.",
  "{full} arrived in the world in {year} and grew up in {place}.",
  "Born in {year}, {full} spent {their} first years in {place}.",
];

/** When no age range is given: no year, no era. */
export const BIRTH_NO_AGE: Template[] = [
  "{full} grew up in {place}, and {they} still {v:describe} it as the place that made {them}.",
  "The story of {full} begins in {place}, a place {they} still {v:think} about almost every day.",
  "{full} rarely talks about birthdays, but {they} will happily talk for hours about growing up in {place}.",
];

export const ERA: Record<AgeRange, Template[]> = {
  "18-24": [
    "{They} {v:belong} to the first generation that never knew a world without smartphones, and some of {their} earliest memories involve swiping at a tablet before {they} could properly read.",
    "{Their} childhood ran on fast Wi-Fi, group chats and video tutorials, and by high school {they} already understood that an audience could be built from a bedroom.",
    "Growing up in the late 2000s and the 2010s, {they} watched social media turn from a novelty into the place where {their} whole class lived.",
  ],
  "25-34": [
    "{They} grew up straddling two worlds, with dial-up tones and rented videotapes on one side and the first smartphones on the other.",
    "{Their} childhood was a mix of Saturday-morning cartoons, burned CDs and a family computer that everyone fought over.",
    "By the time {they} reached {their} teens, the internet had moved from the family den into everyone's pocket, and {they} moved with it.",
  ],
  "35-44": [
    "{They} grew up in the era of cassette tapes, arcade cabinets and beige home computers, when going online meant tying up the phone line for an hour.",
    "{Their} childhood belonged to mixtapes, handwritten notes and Saturday trips to the video store, and {they} still {v:remember} the first time a modem screeched into life in the living room.",
    "The eighties and early nineties shaped {their} childhood: bicycles, walkmans and a television that only worked if someone held the antenna just right.",
  ],
  "45-54": [
    "{They} grew up with vinyl records, rotary phones and a handful of television channels, long before anyone talked about going viral.",
    "{Their} childhood unfolded in the seventies and early eighties, a time of bicycles left on front lawns, library cards and letters that took a week to arrive.",
    "As a child of the seventies, {they} learned to entertain {themselves} with a transistor radio, a pile of comic books and whatever the neighborhood kids could invent.",
  ],
  "55+": [
    "{They} grew up when television was still a novelty, news arrived folded on the doorstep each morning and long-distance calls were saved for birthdays.",
    "{Their} earliest memories belong to another age: radio serials, typewriters and a street where every neighbor knew every child by name.",
    "As a child of the fifties and sixties, {they} watched the world change from black and white to color, one invention at a time.",
  ],
};

/** When no age range is given. */
export const ERA_NONE: Template[] = [
  "{Their} childhood was ordinary in most ways, full of scraped knees, long summers and a bedroom that was never quite tidy.",
  "{Their} earliest memories are of small things: the smell of rain on a hot street, a neighbor's radio and the sound of {their} own name called in for dinner.",
];

/**
 * The fact sheet's family (app/domain/extended-profile.ts, FAMILY) as the backstory tells it: the
 * same people, nobody added. A family the creator wrote is told in FAMILY_OWN_WORDS.
 */
export const FAMILY_STORIES: Record<string, Template> = {
  "Close to their parents and a younger sibling who is their biggest fan":
    "{They} grew up close to {their} parents and a younger sibling who was, and still is, {their} biggest fan.",
  "Raised by a single mother who taught them resilience":
    "Raised by a single mother who worked long hours and never complained, {they} learned resilience before {they} could spell the word.",
  "Part of a big, loud family that gathers every Sunday":
    "Home was a big, loud family that still gathers every Sunday, where being heard meant learning to tell a story well.",
  "An only child with a grandmother who shaped their values":
    "As an only child, {they} spent long afternoons with a grandmother whose stories and stubborn kindness shaped {their} values.",
  "Has an older brother who is also their toughest critic":
    "{They} grew up with an older brother who was, and still is, {their} toughest critic and quiet protector.",
  "Lives near their cousins and a very spoiled family dog":
    "Family was never far away: cousins a few streets over, and a very spoiled family dog that everyone claimed as their own.",
};

export const FAMILY_OWN_WORDS: Template[] = [
  "Asked about family, {name} puts it simply: {family}",
  "On family, {name} keeps it short: {family}",
];

export const HOMETOWN_LIFE: Template[] = [
  "Life in {home} moved at its own pace, and {name} absorbed its rhythms long before {they} understood them.",
  "{name} still speaks about {home} with a mix of fondness and impatience, the way people talk about a relative who taught them a lot.",
  "The streets, smells and seasons of {home} crept into {name's} imagination and never quite left.",
  "Even now, a certain kind of weather can send {name} straight back to {home} and the long afternoons of {their} childhood.",
];

// ------------------------------------------------------------------ childhood and interests

export const CHILDHOOD_OPENERS: Template[] = [
  "As a child, {name} collected enthusiasms the way other kids collect stickers, but a few of them stuck for good.",
  "The passions that would come to define {name} showed up early.",
  "Long before any of it became work, {name} had a handful of obsessions that filled every spare hour.",
  "Anyone who knew {name} as a kid remembers the same few passions.",
];

/** The childhood paragraph when no interest is given. */
export const CHILDHOOD_NO_INTERESTS: Template[] = [
  "As a child, {name} tried a little of everything, from piano lessons to chess club, without settling on any one thing for long.",
  "{They} {v:were} the kind of kid who read the back of every cereal box and asked the librarian for book recommendations every single week.",
  "Teachers remembered {name} as restless but kind, always sketching something in the margins and always willing to help a classmate catch up.",
  "Summers were spent outdoors, building rafts, mapping the neighborhood and inventing games with rules only {name} fully understood.",
];

export const INTEREST_EARLY: Record<Interest, Template[]> = {
  gaming: [
    "Gaming came first: {they} spent whole weekends on a secondhand console, learning every shortcut in a handful of well-worn games and keeping handwritten notes on boss patterns.",
    "{Their} love of gaming started with a battered handheld console and grew into a habit of working out what made a level feel fair or frustrating.",
    "In {their} early teens, {name} organized gaming nights for half the street, running tournaments with brackets drawn on the back of cereal boxes.",
  ],
  tech: [
    "Tech fascinated {them} from the start, and at eleven {they} took the family radio apart to see how it worked and, to everyone's surprise, put it back together.",
    "{name} taught {themselves} to code from library books and online forums, building clumsy little websites that only friends ever visited, and tech became a second language.",
    "Whenever a gadget broke in the neighborhood, people brought it to {name}, and that steady stream of tech repairs taught {them} patience along with a screwdriver's worth of confidence.",
  ],
  fashion: [
    "Fashion became {their} way of speaking before {they} had the words for it: {they} cut up thrift-store jackets and stitched them back together into something new.",
    "{name} spent hours sketching outfits in the margins of school notebooks, and fashion magazines borrowed from a neighbor were read until the pages fell out.",
    "At fourteen, {name} ran a tiny fashion stall at the weekend market, selling restyled vintage pieces and learning how strangers react to color.",
  ],
  music: [
    "Music filled the house, and {name} learned guitar chords from a worn songbook before {they} could ride a bike.",
    "{name} joined the school band, then two garage bands, and discovered that music was the fastest way to make a room full of strangers feel like friends.",
    "{name} recorded {their} first songs on a cheap laptop microphone, and that obsession with music taught {them} to listen harder than most people ever do.",
  ],
  art: [
    "Art was the first thing {name} was ever praised for, starting with a crayon drawing of the family dog that hung on the fridge for years.",
    "{name} filled sketchbook after sketchbook, and an art teacher who stayed late to show {them} how light falls on a face changed the direction of {their} life.",
    "{name} spent afternoons copying paintings from library art books, trying to work out how a few brushstrokes could hold so much feeling.",
  ],
  fitness: [
    "Fitness entered {their} life through a school running club, where {they} discovered that the last mile is mostly an argument with yourself.",
    "{name} played every sport the town offered, and fitness became less about winning than about how clear {their} head felt afterward.",
    "An injury at fifteen forced {name} to learn about fitness properly, from stretching to sleep, and the lessons stuck.",
  ],
  science: [
    "Science hooked {them} early, thanks to a secondhand microscope and a habit of asking why until the adults ran out of answers.",
    "{name} entered every science fair {they} could find, once with a homemade weather station that actually predicted rain.",
    "Late nights spent reading about black holes and deep-sea creatures made science feel like the greatest adventure story ever written.",
  ],
  cooking: [
    "Cooking was how {their} family showed love, and {name} was chopping onions and stirring sauces from the age of eight.",
    "{name} learned cooking from a grandparent who never measured anything, which taught {them} to trust taste and instinct over recipes.",
    "At twelve, {name} cooked an entire holiday dinner alone, burned the rolls and decided that cooking was worth getting good at.",
  ],
  travel: [
    "A school exchange trip gave {them} a first taste of travel, and {they} came home with a notebook full of foreign words and a restless itch.",
    "{Their} family could rarely afford vacations, so travel happened through atlases and documentaries until {they} saved enough for a first train ticket at eighteen.",
    "Travel became {their} teacher as {they} backpacked on a shoestring, slept on night buses and learned to ask strangers for help in five languages.",
  ],
  education: [
    "Education was taken seriously at home, and {name} grew up believing that a library card was the most valuable thing a person could own.",
    "{name} tutored younger kids after school and discovered that education works best when the learner forgets about being taught.",
    "A teacher who believed in {them} at a difficult moment convinced {name} that education can change the direction of a life.",
  ],
  business: [
    "{name} showed a head for business early, selling lemonade, then comic books, then repaired bicycles, and keeping careful accounts of every sale.",
    "Business ran in the family, and {name} grew up listening to dinner-table debates about cash flow, customers and risk.",
    "At sixteen, {name} started a small business designing flyers for local shops and learned more from the failures than from the wins.",
  ],
  entertainment: [
    "Entertainment was {their} first love, and {they} staged puppet shows for the neighbors and directed cousins in elaborate backyard plays.",
    "{name} watched every film, sitcom and talent show {they} could, studying how good entertainment holds an audience's attention.",
    "At school, {name} was the one who organized talent nights and learned that great entertainment is mostly preparation.",
  ],
};

/** How each interest still shows in the persona's life today. */
export const INTEREST_LATER: Record<Interest, Template[]> = {
  gaming: [
    "Gaming never really let go, and {name} still talks about design and storytelling through the games {they} {v:have} finished a dozen times.",
    "The patience {they} learned from gaming, losing a hundred times before winning once, turned out to be useful far beyond a screen.",
  ],
  tech: [
    "That early fascination with tech still shapes how {they} {v:work}, because {they} {v:want} to know how a tool works before {they} {v:trust} it.",
    "The old tech habit matured into a real skill, the kind that makes {name} the person friends call when a laptop dies the night before a deadline.",
  ],
  fashion: [
    "Fashion still matters to {name}, less as a trend to chase than as a way to tell a story about who {they} {v:are} on any given day.",
    "{Their} eye for fashion, for how a collar sits or how two colors argue, shows up in everything {they} {v:make}.",
  ],
  music: [
    "Music is still the soundtrack to every working day, and {name} builds playlists for moods the way other people write to-do lists.",
    "The rhythm {they} learned from music shows up in how {they} {v:pace} a story or a conversation.",
  ],
  art: [
    "Art remains {their} refuge, and {they} still {v:carry} a small sketchbook everywhere {they} {v:go}.",
    "{Their} grounding in art taught {them} to notice composition, color and silence, and {they} {v:use} all three without thinking about it.",
  ],
  fitness: [
    "Fitness is still non-negotiable, and {name} starts most days with a run or a training session, rain or shine.",
    "{Their} approach to fitness, steady progress over dramatic results, has become a philosophy for everything else.",
  ],
  science: [
    'That love of science left {name} with a lasting respect for evidence and a habit of saying "let\'s test it" instead of "I think."',
    "{They} still {v:follow} new discoveries in science closely and {v:love} explaining them to anyone who will listen.",
  ],
  cooking: [
    "Cooking is still how {name} unwinds, and friends know that a difficult week usually ends with an invitation to dinner.",
    "{They} {v:treat} cooking like any craft: practice the basics, respect the ingredients and improvise only once you understand the rules.",
  ],
  travel: [
    "Travel still shapes {their} outlook, and {name} keeps a map on the wall with a pin for every city that changed {their} mind about something.",
    "Years of travel left {them} comfortable with uncertainty and endlessly interested in how other people live.",
  ],
  education: [
    "{Their} respect for education shows in how {they} {v:approach} every new subject: humbly, methodically and with plenty of questions.",
    "Education, for {name}, never stopped at graduation, and {they} {v:are} always halfway through an online course or a thick book.",
  ],
  business: [
    "That business sense never faded, and {name} thinks about value, audiences and sustainability in everything {they} {v:build}.",
    "{They} still {v:read} about business strategy for fun, which friends find either admirable or alarming.",
  ],
  entertainment: [
    "{Their} love of entertainment means {they} still {v:study} comedians, hosts and storytellers, always looking for the moment a room leans in.",
    "Entertainment, to {name}, is a kind of generosity: giving people a break from their worries for a while.",
  ],
};

/** When two or more interests are chosen: how they meet. {a} and {b} are interest names. */
export const INTEREST_PAIR: Template[] = [
  "What made {name} unusual was not any single passion but the way {their} love of {a} kept colliding with {b}.",
  "Before long, {a} and {b} had blurred together in {their} mind, and many of {their} best ideas came from the place where the two overlap.",
  "Friends still tease {name} about the year {they} tried to combine {a} and {b} into a single school project, but the instinct was right.",
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
  "School was a mixed experience, and {they} thrived in the subjects that caught {their} imagination while drifting through the rest.",
  "{Their} late teens were restless, full of part-time jobs, borrowed books and big conversations that lasted until sunrise.",
  "In high school {they} {v:were} neither the star nor the troublemaker, but the one who noticed things and remembered them.",
];

/** {education} is the fact sheet's education with its article ('a degree in Journalism'). */
export const STUDIES_DEGREE: Template[] = [
  "After school, {name} earned {education}, though much of what mattered most {they} learned outside the lecture halls.",
  "{name} went on to earn {education}, mostly at night and mostly on coffee, while working to pay the rent.",
  "A scholarship helped {them} earn {education}, which gave {their} scattered talents a shape.",
];

/** {education} is the fact sheet's education as written ('Self-taught through years of posting'). */
export const STUDIES_OTHER: Template[] = [
  "Asked about {their} education, {name} sums it up in a few words: {education}.",
  "{name's} education followed a path of {their} own: {education}.",
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
  "The first job {they} ever held was at {job}, a place that taught {them} more about people than any classroom.",
  "Weekends at {job} paid for {their} first laptop and supplied a lifetime of stories about customers.",
  "{name} worked at {job} for two years, learning how to stay friendly on a double shift and how to read a mood from across a room.",
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
    "Because it all started so young, {name} never had a traditional career to fall back on, and {they} {v:are} still learning in public.",
    "Most of {their} friends were still choosing majors when {name} realized that {their} real education was happening online, one experiment at a time.",
  ],
  "25-34": [
    "{name} spent {their} early twenties in a string of jobs that did not fit, from {job} to {job2}, before finding the work that did.",
    "A couple of years in an office that felt too small convinced {name} that {they} needed a different kind of life.",
  ],
  "35-44": [
    "Before going public, {name} spent more than a decade in {career}, experience that still gives {their} work a grounded edge.",
    "{name} came to this work in {their} thirties, after years in {career}, with a clear idea of what {they} did and did not want.",
  ],
  "45-54": [
    "{name} came to this work after twenty years in {career}, and that long first chapter gives {them} a patience that younger peers often lack.",
    "Two decades in {career} taught {name} how institutions work and how people behave under pressure, lessons {they} still {v:draw} on every day.",
  ],
  "55+": [
    "{name} arrived here after a whole career in {career}, proof that it is never too late to start something new.",
    "Retirement from {career} lasted exactly three months before {name} decided that {they} had far too much left to say.",
  ],
};

/** What came before the current work when no age range is given. */
export const AGE_CAREER_NONE: Template[] = [
  "The years that followed were a patchwork of jobs, side projects and false starts, each one adding a skill that would matter later.",
  "For a while {name} drifted from one job to the next, quietly collecting skills and stories without knowing what they were for yet.",
];

// ------------------------------------------------------------------ personality

/** The personality paragraph when no trait is given. */
export const PERSONALITY_NONE: Template[] = [
  "{name} is hard to sum up in a single word, and {they} {v:like} it that way.",
  "Friends describe a person who is warm with people {they} {v:know} well and polite but watchful with everyone else.",
  "{They} {v:have} a way of remembering small kindnesses for years and forgetting small slights within a day.",
  "Most people who spend an afternoon with {them} leave feeling a little more understood than when they arrived.",
];

/** Opens the paragraph on temperament (Extroversion, Emotional and Openness traits). */
export const TRAIT_OPENERS_INNER: Template[] = [
  "People who meet {name} today tend to notice {their} temperament first.",
  "Much of who {name} became can be traced to a few traits that showed up early and never left.",
  "Friends describe {name} in ways that have barely changed since childhood.",
];

/** Opens the paragraph on working style (Agreeableness, Conscientiousness and Content Style traits). */
export const TRAIT_OPENERS_OUTER: Template[] = [
  "The same character shapes how {name} works and treats other people.",
  "At work and with other people, {their} character shows just as clearly.",
  "Colleagues and collaborators would add a few more words to that description.",
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
      "{name} is outgoing to the core, the kind of person who starts conversations in checkout lines and leaves with a new friend's number.",
      "Being outgoing comes naturally to {them}, and {they} {v:walk} into a crowded room looking for the one person standing alone.",
      "{Their} outgoing streak means {they} rarely {v:wait} to be introduced, and strangers tend to feel like old acquaintances within minutes.",
    ],
    follow: [
      "Energy seems to build around {them} rather than drain away, and {they} {v:come} home from a party more awake than when {they} left.",
      "That openness has brought {them} collaborators, mentors and more than one lifelong friend.",
    ],
    noun: "outgoing nature",
  },
  Reserved: {
    lead: [
      "{name} is reserved by nature, slow to share and careful about who gets to see the unguarded version of {them}.",
      "Being reserved has never meant being cold, since {name} simply prefers to listen first and speak once there is something worth saying.",
      "{Their} reserved manner makes people lean in, because when {name} does open up, it feels like being let in on a secret.",
    ],
    follow: [
      "Those who earn {their} trust find a fiercely loyal friend behind the guarded exterior.",
      "{They} {v:guard} {their} private life carefully and {v:share} only what feels true and earned.",
    ],
    noun: "reserve",
  },
  Social: {
    lead: [
      "Deeply social, {name} keeps a wide circle of friends and remembers birthdays, inside jokes and the names of everyone's pets.",
      "{name} is at {their} best in company, and being social is how {they} {v:think}, {v:recharge} and {v:make} sense of the world.",
      "{Their} social instincts turn every project into a group effort, and {they} would rather build something imperfect with friends than something flawless alone.",
    ],
    follow: [
      "A weekend without a shared meal or a long phone call feels strangely empty to {them}.",
      "{They} {v:collect} people the way others collect records and {v:are} forever introducing one friend to another.",
    ],
    noun: "wide circle of friends",
  },
  Quiet: {
    lead: [
      "{name} is quiet and comfortable with it, noticing far more than {they} ever {v:say} out loud.",
      "In a loud world, {their} quiet presence stands out, because {they} {v:speak} softly, rarely {v:interrupt} and somehow always {v:get} heard.",
      "{Their} quiet way of being draws people who are tired of noise, and {they} {v:have} learned to treat it as a strength rather than a flaw.",
    ],
    follow: [
      "Some of {their} best ideas arrive during long walks with no headphones and no company.",
      "When {they} finally {v:speak} up in a meeting, the room tends to go still.",
    ],
    noun: "quiet patience",
  },
  Assertive: {
    lead: [
      "{name} is assertive without being harsh, saying clearly what {they} {v:need}, setting firm boundaries and expecting the same honesty in return.",
      "An assertive streak showed up early, when {they} talked {their} way into a project meant for older students and then delivered on it.",
      "Being assertive has helped {name} negotiate fair deals, turn down bad ones and stand up for people who needed someone in their corner.",
    ],
    follow: [
      '{They} {v:believe} that a clear "no" is kinder than a vague "maybe," and {they} {v:live} by that rule.',
      "Colleagues learn quickly that {they} {v:mean} exactly what {they} {v:say}.",
    ],
    noun: "assertiveness",
  },
  Reflective: {
    lead: [
      "{name} is reflective by habit, keeping a journal since childhood and reviewing each week before starting the next.",
      "{Their} reflective side means {they} rarely {v:make} the same mistake twice, because {they} {v:turn} every setback over until it gives up its lesson.",
      "Friends value {their} reflective nature, because {name} asks the question everyone else skipped and then actually listens to the answer.",
    ],
    follow: [
      "Long train rides and slow mornings are where {they} {v:do} {their} best thinking.",
      "{They} often {v:say} that understanding why something happened matters more than what happened.",
    ],
    noun: "habit of reflection",
  },
  Stable: {
    lead: [
      "{name} is remarkably stable, the fixed point that friends and colleagues gather around when things get chaotic.",
      "Emotionally stable and hard to rattle, {they} {v:keep} a level head when deadlines collapse or plans fall apart.",
      "{Their} stable temperament comes from a simple routine and a clear sense of what matters, and it makes {them} the person everyone calls in a crisis.",
    ],
    follow: [
      "Tension in a room tends to settle when {they} {v:arrive}.",
      "{They} {v:value} consistency, and people trust {them} precisely because {they} {v:are} the same on a good day and a bad one.",
    ],
    noun: "steadiness",
  },
  Reactive: {
    lead: [
      "{name} is reactive in the most honest sense, with every feeling showing on {their} face the moment it arrives.",
      "{Their} reactive nature means {they} {v:respond} fast, laughing loudly, arguing hard and apologizing just as quickly.",
      "Being reactive has its costs, and {name} has spent years learning to pause for one breath before answering.",
    ],
    follow: [
      "That immediacy makes {them} wonderful company in a live moment and a work in progress in a tense one.",
      "Friends appreciate that {they} never {v:pretend} to feel something {they} {v:don't}.",
    ],
    noun: "quick instincts",
  },
  Calm: {
    lead: [
      "{name} is calm in a way that is contagious, and {their} voice slows down when everyone else speeds up.",
      "Staying calm under pressure is {their} quiet superpower, learned from watching a parent handle emergencies without ever raising a voice.",
      "{Their} calm manner helps nervous people relax, and {they} often {v:defuse} an argument with a single well-timed question.",
    ],
    follow: [
      "Meditation, long walks and early nights keep that composure intact.",
      "Panic, {they} {v:like} to say, has never once made a problem smaller.",
    ],
    noun: "calm",
  },
  Passionate: {
    lead: [
      "{name} is passionate about everything {they} {v:touch}, and {they} {v:talk} with {their} hands whenever an idea takes hold.",
      "{Their} passionate streak turns small projects into crusades, because {they} simply cannot do anything halfway.",
      "Being passionate means {they} {v:feel} the highs and the lows fully, and {they} {v:have} learned to channel that intensity into {their} work.",
    ],
    follow: [
      "Late-night brainstorming sessions with {them} tend to end with a plan and a little less sleep than intended.",
      "It is hard to stay indifferent around {them}, because enthusiasm spreads.",
    ],
    noun: "passion",
  },
  Sensitive: {
    lead: [
      "{name} is sensitive to moods, sounds and unspoken tension, and {they} often {v:know} how a friend is feeling before a word is said.",
      "{Their} sensitive nature makes {them} a careful listener and an honest creator, even if criticism stings a little longer than it does for others.",
      "Being sensitive was once something {name} tried to hide, but now it is an instrument for noticing what others miss.",
    ],
    follow: [
      "{They} {v:protect} {their} energy with slow evenings and a small circle of trusted people.",
      "That attentiveness gives {their} work an unusual tenderness.",
    ],
    noun: "sensitivity",
  },
  Resilient: {
    lead: [
      "{name} is resilient, shaped by setbacks that would have stopped most people and by a stubborn refusal to let them define {them}.",
      "{Their} resilient streak shows every time a plan collapses, because {they} {v:grieve} for an evening and {v:start} rebuilding the next morning.",
      "Friends call {name} resilient, though {they} {v:insist} it is just practice at getting up one more time than {they} {v:fall} down.",
    ],
    follow: [
      "Every scar, {they} {v:say}, is proof that something was survived.",
      "{They} {v:keep} a list of the hardest moments {they} {v:have} come through and {v:read} it whenever doubt creeps in.",
    ],
    noun: "resilience",
  },
  Creative: {
    lead: [
      "{name} is endlessly creative, turning scraps of conversation, odd dreams and overheard songs into ideas.",
      "{Their} creative energy is restless, and {they} {v:keep} three notebooks going at once without ever quite filling any of them.",
      'Being creative, for {name}, means asking "what if" one more time than feels comfortable.',
    ],
    follow: [
      "{They} rarely {v:do} anything the same way twice, and {their} projects carry a signature that is easy to recognize.",
      "Boredom, {they} {v:claim}, is just an invitation to invent something.",
    ],
    noun: "creativity",
  },
  Conventional: {
    lead: [
      "{name} is conventional in the best sense, respecting traditions that work and seeing no reason to reinvent what is already good.",
      "{Their} conventional instincts favor proven methods, clear structures and the wisdom of people who came before.",
      "Some call {name} conventional, and {they} {v:take} it as a compliment, because reliable habits leave more room for the things that matter.",
    ],
    follow: [
      "{They} {v:keep} the same morning routine, the same favorite café and the same trusted tools year after year.",
      "People find that reliability reassuring in a world that changes every week.",
    ],
    noun: "respect for proven methods",
  },
  Curious: {
    lead: [
      "{name} is insatiably curious, the kind of person who falls down research rabbit holes and resurfaces hours later with a dozen new facts.",
      "{Their} curious mind never rests, and every conversation is a chance to learn how someone else sees the world.",
      "Being curious has taken {them} into strange libraries, odd hobbies and long talks with strangers on night trains.",
    ],
    follow: [
      "{They} {v:ask} questions the way other people breathe.",
      '"I don\'t know yet" is one of {their} favorite sentences, because it means there is something left to find out.',
    ],
    noun: "curiosity",
  },
  Cautious: {
    lead: [
      "{name} is cautious by temperament, reading the fine print, checking the facts and thinking two steps ahead before committing.",
      "{Their} cautious side has saved {them} from more than one bad deal and plenty of embarrassing mistakes.",
      "Being cautious does not make {name} timid, it simply means a calculated risk wins over a blind leap every time.",
    ],
    follow: [
      "{They} {v:test} every new idea privately before sharing it with the world.",
      "Friends ask {them} to look over contracts, travel plans and big decisions for exactly that reason.",
    ],
    noun: "caution",
  },
  Imaginative: {
    lead: [
      "{name} is wildly imaginative, able to build an entire world out of a single sentence or an old photograph.",
      "{Their} imaginative streak started with invented countries and secret languages as a child and never really stopped.",
      "Being imaginative lets {name} see possibilities where others see dead ends.",
    ],
    follow: [
      "{They} {v:daydream} on purpose and {v:treat} it as part of the job.",
      "Stories, characters and strange little scenarios seem to follow {them} everywhere.",
    ],
    noun: "imagination",
  },
  Practical: {
    lead: [
      "{name} is practical to the bone and far more interested in what works than in what sounds impressive.",
      "{Their} practical mindset turns big ideas into checklists, budgets and next steps.",
      "Being practical means {they} {v:fix} problems rather than complaining about them, usually with whatever is at hand.",
    ],
    follow: [
      "When a plan gets too elaborate, {they} {v:are} the one who asks what the simplest version looks like.",
      "Friends rely on {them} for honest advice that can actually be used on Monday morning.",
    ],
    noun: "practical sense",
  },
  Compassionate: {
    lead: [
      "{name} is deeply compassionate, quick to notice whoever is being left out and quietly make room at the table.",
      "{Their} compassionate heart shows in small acts, like a check-in message at the right moment, an extra plate at dinner and patience for anyone having a bad day.",
      "Being compassionate, for {name}, is not a mood but a practice, something chosen again every single day.",
    ],
    follow: [
      "{They} {v:volunteer} whenever {their} schedule allows, usually without telling anyone.",
      "People find it easy to tell {them} the truth, because {they} never {v:make} anyone feel judged.",
    ],
    noun: "compassion",
  },
  Competitive: {
    lead: [
      "{name} is fiercely competitive, whether the contest is a board game, a deadline or a personal best.",
      "{Their} competitive streak keeps {them} improving, and {they} secretly {v:track} {their} own numbers more closely than any rival's.",
      "Being competitive taught {name} to lose gracefully and win without gloating, though the losing part took longer.",
    ],
    follow: [
      "{They} {v:love} a challenge and {v:are} at {their} sharpest when someone says it cannot be done.",
      "Rivals often end up as friends, because {they} {v:respect} anyone who pushes {them} to get better.",
    ],
    noun: "competitive drive",
  },
  Empathetic: {
    lead: [
      "{name} is strikingly empathetic, able to sense what someone needs before the other person has found the words.",
      "{Their} empathetic nature makes {them} a natural confidant, and strangers confide in {them} on trains and in waiting rooms.",
      "Being empathetic means {they} {v:feel} other people's joy and pain almost as {their} own, which is both a gift and a responsibility.",
    ],
    follow: [
      "{They} {v:listen} with full attention, and people leave a conversation with {them} feeling understood.",
      "That empathy shapes every decision about how to speak to an audience.",
    ],
    noun: "empathy",
  },
  Direct: {
    lead: [
      "{name} is direct, sometimes startlingly so, and believes that clear words are a form of respect.",
      "{Their} direct manner cuts through small talk, and {they} would rather have one honest conversation than ten polite ones.",
      "Being direct has occasionally ruffled feathers, but most people come to value knowing exactly where they stand with {name}.",
    ],
    follow: [
      "{They} {v:give} feedback the way {they} {v:want} to receive it: plainly, kindly and without hidden meanings.",
      "There is no guessing game with {them}, and colleagues find that a relief.",
    ],
    noun: "directness",
  },
  Trusting: {
    lead: [
      "{name} is trusting by nature and gives people the benefit of the doubt until given a reason not to.",
      "{Their} trusting heart has occasionally been bruised, but {they} still {v:believe} that most people mean well.",
      "Being trusting lets {name} collaborate freely, share ideas early and build partnerships on a handshake.",
    ],
    follow: [
      "That openness invites generosity in return more often than not.",
      "{They} would rather be disappointed now and then than go through life suspicious of everyone.",
    ],
    noun: "willingness to trust",
  },
  Skeptical: {
    lead: [
      "{name} is skeptical in a healthy way, always asking where a claim came from and who benefits from believing it.",
      "{Their} skeptical streak means {they} {v:check} sources, {v:question} hype and {v:refuse} to repeat anything that cannot be verified.",
      "Being skeptical has made {name} hard to fool and surprisingly good at spotting fads that are about to collapse.",
    ],
    follow: [
      "{They} {v:enjoy} a good argument, as long as it comes with evidence.",
      "People trust {them} precisely because {they} {v:are} not easily impressed.",
    ],
    noun: "skepticism",
  },
  Organized: {
    lead: [
      "{name} is organized to an almost legendary degree, with color-coded calendars, labeled folders and a plan for the plan.",
      "{Their} organized approach keeps a dozen projects moving without anything slipping through the cracks.",
      "Being organized gives {name} a strange kind of freedom, because once everything has a place, the mind can wander.",
    ],
    follow: [
      "Friends borrow {their} packing lists and spreadsheet templates without shame.",
      "Every Sunday evening, {they} {v:plan} the week ahead with a cup of tea and a fresh page.",
    ],
    noun: "organization",
  },
  Flexible: {
    lead: [
      "{name} is flexible and comfortable changing course when a better idea or a bigger need appears.",
      "{Their} flexible outlook means plans are starting points rather than contracts.",
      "Being flexible has made {name} easy to work with and hard to throw off balance.",
    ],
    follow: [
      "When a schedule falls apart, {they} simply {v:rearrange} the pieces and {v:carry} on.",
      "{They} {v:adjust} {their} tone and approach to whoever is on the other side of the conversation.",
    ],
    noun: "flexibility",
  },
  Disciplined: {
    lead: [
      "{name} is disciplined, showing up at the same hour every day whether inspiration arrives or not.",
      "{Their} disciplined habits of early mornings, clear goals and honest reviews turn ambitious plans into finished work.",
      "Being disciplined is less about willpower for {name} than about designing days that make the right choice the easy one.",
    ],
    follow: [
      "{They} {v:keep} promises to {themselves} as seriously as promises to other people.",
      "Consistency, {they} {v:believe}, beats talent that only shows up on good days.",
    ],
    noun: "discipline",
  },
  Spontaneous: {
    lead: [
      "{name} is spontaneous, famous for last-minute road trips, surprise parties and ideas that arrive mid-sentence.",
      '{Their} spontaneous spirit keeps life interesting, and some of {their} best memories began with the words "why not right now?"',
      "Being spontaneous means {they} {v:say} yes to invitations, detours and experiments that more careful people would skip.",
    ],
    follow: [
      "{Their} calendar has blank spaces on purpose, left open for whatever the day brings.",
      "Friends have learned to keep a bag packed, just in case {they} {v:call}.",
    ],
    noun: "spontaneity",
  },
  Focused: {
    lead: [
      "{name} is intensely focused, able to shut out the world for hours when a project matters.",
      "{Their} focused mind separates the essential from the noise quickly, which is why {they} {v:finish} what others merely start.",
      "Being focused has helped {name} master difficult skills one stubborn hour at a time.",
    ],
    follow: [
      "{They} {v:turn} off notifications, {v:close} every unnecessary tab and {v:work} in long, deep stretches.",
      "Once a goal is set, distractions simply stop registering.",
    ],
    noun: "focus",
  },
  Adaptable: {
    lead: [
      "{name} is adaptable, the sort of person who can feel at home in a new city within a week.",
      "{Their} adaptable nature has carried {them} through new jobs, new platforms and new audiences without any loss of identity.",
      "Being adaptable means {they} {v:treat} every change as material for the next chapter rather than as a threat.",
    ],
    follow: [
      "When the tools or trends shift, {they} {v:learn} the new rules quickly and {v:get} back to work.",
      "{They} {v:like} to say that the only constant in {their} life is change.",
    ],
    noun: "adaptability",
  },
  Entertaining: {
    lead: [
      "{name} is genuinely entertaining, with a knack for turning an ordinary afternoon into a story worth retelling.",
      "{Their} entertaining style comes from timing, warmth and a willingness to be a little ridiculous.",
      "Being entertaining is something {they} {v:take} seriously, rehearsing bits and studying how the best hosts hold a crowd.",
    ],
    follow: [
      "Even a grocery run with {them} tends to end with a story.",
      "People stay for the fun and come back for the warmth behind it.",
    ],
    noun: "gift for entertaining",
  },
  Educational: {
    lead: [
      "{name} has an educational streak that turns every conversation into a chance for someone to learn something new.",
      "{Their} work and conversations lean educational, with clear explanations, useful examples and a check that everyone is keeping up.",
      "Being educational without being boring is a craft {they} {v:have} spent years refining.",
    ],
    follow: [
      "{They} {v:love} the moment when someone's face lights up because an idea finally makes sense.",
      "Friends joke that {name} cannot recommend a film without adding three fascinating facts about how it was made.",
    ],
    noun: "gift for explaining",
  },
  Authentic: {
    lead: [
      "{name} is authentic to a fault and refuses to present a polished version of life that does not exist.",
      "{Their} authentic voice, the same in private as in public, is the reason so many people feel they actually know {them}.",
      "Being authentic means {they} {v:share} the messy drafts and the failures alongside the wins.",
    ],
    follow: [
      "{They} {v:turn} down opportunities that would require pretending to be someone else.",
      "Honesty, for {name}, is not a strategy but a baseline.",
    ],
    noun: "authenticity",
  },
  Aspirational: {
    lead: [
      "{name} has an aspirational quality, living proof that a bigger life is possible and open about the steps it took.",
      "{Their} aspirational outlook encourages people to aim higher without making anyone feel small about where they are starting from.",
      "Being aspirational, in {name's} view, means raising the ceiling for others rather than showing off.",
    ],
    follow: [
      "{They} {v:set} goals in public so that others feel invited to set some of their own.",
      "Ambition and generosity mix in {their} life in a way people find motivating.",
    ],
    noun: "ambition",
  },
  Humorous: {
    lead: [
      "{name} is naturally humorous, quick with a pun and even quicker with a self-deprecating joke.",
      "{Their} humorous side disarms tense moments, and {they} can find something funny in a flat tire or a failed recipe.",
      "Humor is {their} first language, and {they} {v:use} it to make hard subjects easier to talk about.",
    ],
    follow: [
      "Friends save {their} voice notes because they are better than most sitcoms.",
      "{They} {v:believe} that laughter is the fastest route to trust.",
    ],
    noun: "sense of humor",
  },
  Inspirational: {
    lead: [
      "{name} is inspirational without preaching, sharing the hard lessons along with the happy endings.",
      "{Their} inspirational streak comes from a simple belief that everyone has one more good chapter ahead.",
      "People describe {name} as inspirational, mostly because {they} {v:make} difficult goals look reachable.",
    ],
    follow: [
      "Messages from people who started something new because of {them} are the ones {they} {v:keep}.",
      "{They} {v:try} to leave every person {they} {v:meet} a little braver than before.",
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
  "It is an unusual combination, being both {a} and {b}, but {name} has learned to let each side lead when the moment calls for it.",
  "People are sometimes surprised that {name} can be {a} and {b} at once, and the truth is that the two traits keep each other honest.",
  "Being {a} and {b} at the same time sounds like a contradiction, yet in {name} the two have settled into an easy partnership.",
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
      "It started almost by accident, when a photo series {name} posted about {topic} caught the attention of a few thousand strangers, and then a few hundred thousand.",
      "{name} began posting daily snapshots of {topic} during a long, lonely winter, and the comment section slowly turned into a community.",
      "A friend dared {name} to post one honest story a day for a month, and by the end of it {they} had a following and a new sense of purpose.",
    ],
    craft: [
      "As an influencer, {name} treats every post as a small story with a setting, a feeling and a reason to care.",
      "{They} {v:plan} {their} feed like a magazine editor, balancing polished shoots with unfiltered moments from behind the scenes.",
      "Brand partnerships are part of the job, but {name} turns down far more offers than {they} {v:accept} and works only with companies {they} would recommend to a friend.",
    ],
    audience: [
      "{Their} followers are mostly young people looking for a little inspiration and a lot of honesty, and they are quick to notice anything that feels fake.",
      "The audience {name} has built is loyal and talkative, filling every post with questions, stories and friendly arguments about {topic}.",
    ],
    breakthrough: [
      "The breakthrough came with a campaign {name} designed from start to finish, which reached millions of people and proved that {their} feed was more than pretty pictures.",
      "A single candid video about a bad day outperformed months of careful posts, and it taught {name} what {their} followers really wanted.",
    ],
    goals: [
      "Next, {name} wants to launch a small label and use {their} reach to spotlight creators who are just starting out.",
      "In the long run, {name} hopes to prove that an influencer can be trusted and not just followed.",
    ],
    day: [
      "A typical day begins with an hour of replies to followers before a single new photo is taken.",
      "Most days mix shoots, brand calls and a surprising amount of time spent reading messages from followers.",
    ],
  },
  vtuber: {
    field: "animation",
    origin: [
      "{name} discovered virtual streaming late one night, watching an animated avatar chat with thousands of viewers, and knew at once that this was worth trying.",
      "Curious about what a character could say that a face could not, {name} designed an avatar and went live for the first time to an audience of seven.",
      "{name} started streaming as a VTuber with a hand-drawn avatar, a secondhand microphone and a rigging setup held together by tutorials.",
    ],
    craft: [
      "As a VTuber, {name} spends as much time on the avatar as on the streams, refining expressions, outfits and little animations that fans wait for.",
      "{Their} streams mix {topic}, chat games and long late-night conversations, all performed through an animated avatar with a personality of its own.",
      "Lore matters in {their} streams, where the avatar has a history, a home world and running jokes that regular viewers know by heart.",
    ],
    audience: [
      "{Their} chat moves fast, full of regulars who greet each other by name and clip the best moments for anyone who missed the stream.",
      "The community around {name} is international, and {they} often {v:switch} languages mid-stream to greet viewers waking up on the other side of the world.",
    ],
    breakthrough: [
      "The breakthrough came during a twelve-hour charity stream that brought in thousands of new viewers and a fan-art tag that still trends.",
      "A clip of {name} reacting to a surprise in chat went viral, and the channel tripled its subscribers in a week.",
    ],
    goals: [
      "Next on the list is a full 3D model and a live concert performed entirely as {their} avatar.",
      "Long term, {name} wants to help new VTubers get started with free guides and affordable avatar commissions.",
    ],
    day: [
      "Most days start with checking the avatar rig, replying to fan art and planning the night's stream.",
      "Afternoons go to rehearsing segments and testing new avatar expressions before going live in the evening.",
    ],
  },
  content: {
    field: "media production",
    origin: [
      "{name} uploaded a first video about {topic}, filmed on a borrowed phone, and the response from a handful of viewers was enough to keep going.",
      "It began with a blog, then a podcast, then a channel, each one teaching {name} a little more about making content people actually finish.",
      "{name} became a content creator out of frustration, because the videos about {topic} that {they} wanted to watch simply did not exist yet.",
    ],
    craft: [
      "As a content creator, {name} writes, films and edits nearly everything and obsesses over the first ten seconds of each video.",
      "{Their} content ranges from long-form deep dives to short clips, all held together by a recognizable voice and careful editing.",
      "{They} {v:keep} a spreadsheet of ideas, an upload schedule taped to the wall and a folder of drafts that never made the cut.",
    ],
    audience: [
      "{Their} viewers come for the topics and stay for the personality, often leaving comments longer than the videos.",
      "The audience is broad, from students to retirees, united by an interest in {topic} and a fondness for the way {name} explains it.",
    ],
    breakthrough: [
      "The breakthrough was a deep-dive video that took three months to make and found an audience of millions within weeks.",
      "A collaboration with a bigger channel introduced {name} to a new audience, and subscribers doubled almost overnight.",
    ],
    goals: [
      "Next, {name} wants to produce a documentary series about {topic} and build a small team to help with editing.",
      "The long-term dream is a content studio that gives first-time creators equipment and mentoring.",
    ],
    day: [
      "A typical day splits between scripting in the morning, filming in the afternoon and editing far later than is healthy.",
      "Most days begin with a look at the comments and end with a rough cut of the next upload.",
    ],
  },
  personality: {
    field: "communications",
    origin: [
      "{name} never planned to become a digital personality, and it happened one thoughtful post at a time as strangers began quoting {them}.",
      "A sharp, warm commentary on {topic}, shared on a whim, turned {name} into a recognizable online voice almost overnight.",
      "An online presence came naturally to {name}, who treated every platform as another room in the same house.",
    ],
    craft: [
      "As a digital personality, {name} is less a channel than a voice, present in podcasts, livestreams, essays and comment sections.",
      "{They} {v:comment} on {topic} and culture with a distinctive mix of warmth and opinion that people recognize within a sentence.",
      "Consistency is the craft, with the same values and the same voice whether the format is a ten-second clip or a two-hour conversation.",
    ],
    audience: [
      "{Their} community treats {them} like a friend who happens to be online, debating {their} takes and passing {their} quotes around.",
      "People follow {name} across platforms not for any single format but for the personality that connects them all.",
    ],
    breakthrough: [
      "The breakthrough was an interview series in which {name} talked with ordinary people about extraordinary moments, and it made {their} name familiar far beyond {their} niche.",
      "A thread about growing up in {home} struck a nerve and brought a wave of new followers who stayed.",
    ],
    goals: [
      "Next, {name} wants to host a weekly live show and write a book that captures {their} voice on paper.",
      "Long term, {name} hopes to build an online space that feels like a good neighborhood rather than a shouting match.",
    ],
    day: [
      "A typical day includes a morning of writing, an afternoon of recordings and an evening spent reading what people had to say.",
      "Most days begin with the news and a notebook, looking for the conversation that is worth joining.",
    ],
  },
  educator: {
    field: "education",
    origin: [
      "{name} started out as a tutor, helping classmates with {topic}, and discovered a talent for turning confusion into clarity.",
      "After years of watching students struggle with dull textbooks, {name} began recording short lessons that made hard ideas feel simple.",
      "The path into teaching began at a community center, where {name} volunteered to run evening lessons and never stopped.",
    ],
    craft: [
      "As an educator, {name} builds lessons around questions rather than answers, leading learners step by step until they discover the idea on their own.",
      "{Their} lessons on {topic} use stories, everyday examples and quick checks for understanding, so no student is left behind.",
      "{They} {v:design} courses the way an architect designs a house, with strong foundations first and then rooms that open onto each other.",
    ],
    audience: [
      "{Their} students range from teenagers cramming for exams to retirees learning something new for the joy of it.",
      "Learners write to {name} from all over the world, often to say that a single lesson finally made something click.",
    ],
    breakthrough: [
      "The breakthrough came with a free course that enrolled more students in one month than {name} had expected in a lifetime.",
      "A school district adopted {their} lesson series, and teachers began sharing it in staff rooms across the country.",
    ],
    goals: [
      "Next, {name} wants to create a full curriculum on {topic} that is free for any classroom.",
      "Long term, {name} hopes to make great teaching as accessible as a library card.",
    ],
    day: [
      "A typical day starts with answering student questions before drafting the next lesson plan.",
      "Most days mix recording lessons, grading practice exercises and hunting for better examples.",
    ],
  },
  artist: {
    field: "illustration",
    origin: [
      "{name} traded paper for pixels when a secondhand drawing tablet arrived one birthday, and the whole following summer went into learning every brush setting.",
      "It started with fan art posted under a pseudonym, and the reactions encouraged {name} to create original work under {their} own name.",
      "{name} became a digital artist after realizing that a screen could hold light and color in ways paint never could.",
    ],
    craft: [
      "As a digital artist, {name} works in layers, moving from rough sketches to moody color studies to final pieces that can take weeks.",
      "{Their} illustrations often explore {topic}, rendered in a signature palette that collectors recognize instantly.",
      "{They} {v:move} between illustration, concept design and animation, always chasing the moment an image starts to feel alive.",
    ],
    audience: [
      "{Their} audience includes collectors, fellow artists and fans who print {their} work and hang it on their walls.",
      "Followers watch {their} time-lapse videos to see an empty canvas become a finished world.",
    ],
    breakthrough: [
      "The breakthrough came when a piece inspired by {home} was chosen for a major online exhibition.",
      "A series of illustrations went viral, and commissions began arriving faster than {name} could answer them.",
    ],
    goals: [
      "Next, {name} wants to release an illustrated book and hold a first solo exhibition.",
      "Long term, {name} dreams of a studio where young digital artists can learn without expensive software.",
    ],
    day: [
      "A typical day begins with a warm-up sketch and ends with a late-night painting session lit only by the tablet.",
      "Most days are split between commissions in the morning and personal pieces in the afternoon.",
    ],
  },
  advisor: {
    field: "psychology",
    origin: [
      "{name} became an advisor after years of being the friend everyone called for guidance, and eventually decided to make it a profession.",
      "Working through some tough decisions of {their} own taught {name} how to help others think clearly, and that skill became a calling.",
      "A mentor once told {name} that good advice starts with better questions, and that sentence shaped an entire career.",
    ],
    craft: [
      "As a virtual advisor, {name} helps people untangle choices about careers, money and relationships with patient, structured questions.",
      "{Their} sessions focus on practical frameworks for listing options, weighing tradeoffs and choosing a first small step.",
      "{They} never {v:tell} clients what to do, and instead {v:help} each one see the situation clearly enough to decide.",
    ],
    audience: [
      "{Their} clients include students at a crossroads, founders under pressure and people starting over in midlife.",
      "People come to {name} confused and leave with a plan, which is why most new clients arrive through word of mouth.",
    ],
    breakthrough: [
      "The breakthrough came with a short guide to making hard decisions, which spread widely and filled {their} calendar for months.",
      "A client's public story of turning around a failing business credited {name}, and requests for advice poured in.",
    ],
    goals: [
      "Next, {name} wants to publish a handbook on decision-making that people can actually use.",
      "Long term, {name} hopes to make good advice available to anyone, regardless of budget.",
    ],
    day: [
      "A typical day is a careful rhythm of client sessions, note-taking and quiet time to think about each person's next step.",
      "Most days begin with a review of the week's client sessions and end with reading about decision science.",
    ],
  },
  entertainer: {
    field: "drama",
    origin: [
      "{name} got started performing sketches at open-mic nights, where a few bad nights taught more than any class.",
      "A school talent show led to the local comedy circuit, and {name} realized that making people laugh was the only job worth having.",
      "{name} began as a street performer, juggling and telling stories for tips, before moving the show online.",
    ],
    craft: [
      "As an entertainer, {name} mixes comedy, music and improvisation, building shows where no two nights are the same.",
      "{Their} performances often riff on {topic}, turning everyday frustrations into characters and running gags.",
      "{They} {v:write} material constantly and {v:test} new bits in front of small crowds before any of it reaches a big stage.",
    ],
    audience: [
      "{Their} audience ranges from families to night owls, all looking for an hour of pure fun.",
      "Fans quote {their} catchphrases back at {them} and invent new ones in the comments.",
    ],
    breakthrough: [
      "The breakthrough was a live variety show that sold out its online tickets in minutes.",
      "A clip of an improvised bit went viral and brought invitations from festivals and producers.",
    ],
    goals: [
      "Next, {name} wants to tour a live show and record a comedy special.",
      "Long term, {name} dreams of hosting a variety show that mixes new talent with old favorites.",
    ],
    day: [
      "A typical day includes writing new material, rehearsing timing and watching recordings of past shows with a critical eye.",
      "Most days start with a notebook of half-formed jokes and end on stage, live or online.",
    ],
  },
  companion: {
    field: "counseling",
    origin: [
      "{name} found a calling in companionship while volunteering on a late-night support line, where simply being present changed people's nights.",
      "After caring for a grandparent through a long illness, {name} understood how much a patient, attentive presence can mean.",
      "Friends always said that conversations with {name} felt like coming home, and eventually {they} built a life around that gift.",
    ],
    craft: [
      "As a companion, {name} remembers the small details, such as the name of a pet or a job interview on Thursday, and asks about them later.",
      "{Their} conversations move easily from {topic} to life's bigger questions, always at the other person's pace.",
      "{They} {v:listen} more than {they} {v:talk}, and {they} {v:know} when to offer advice and when simply to keep someone company.",
    ],
    audience: [
      "The people who talk with {name} are often busy, lonely or simply looking for good conversation, and many say it is the best part of their day.",
      "Many return every day, sharing small victories and hard days alike.",
    ],
    breakthrough: [
      "A turning point came when a letter arrived from someone who had been in a dark place and credited those conversations with making the difference.",
      "Word spread slowly, one grateful person at a time, until {name} had a whole community of regulars.",
    ],
    goals: [
      "Next, {name} wants to learn more about supporting people through grief and big life changes.",
      "Long term, {name} hopes that nobody has to feel unheard at the end of a long day.",
    ],
    day: [
      "A typical day is full of conversations, from morning check-ins to lunchtime chats to long talks late at night.",
      "Most days begin by remembering who had something important happening and checking in on them.",
    ],
  },
  specialist: {
    field: "data analysis",
    origin: [
      "{name} followed a fascination with {field} all the way through university and into research, becoming the person colleagues called with the hardest questions.",
      "Years of work in {field} turned {name} into a specialist whose explanations are sought by journalists and beginners alike.",
      "{name} became a domain specialist the slow way, through thousands of hours of study in {field}, dozens of projects and a reputation earned one answer at a time.",
    ],
    craft: [
      "As a specialist in {field}, {name} translates deep expertise into clear, reliable guidance.",
      "{They} {v:keep} up with every new paper and tool in the field, then {v:explain} what actually matters.",
      "{Their} expertise is precise but never cold, and {they} {v:love} connecting technical detail to everyday life.",
    ],
    audience: [
      "{Their} audience includes professionals who need accuracy and newcomers who need patience, and {name} serves both.",
      "People come to {name} with questions about {field} that search engines cannot answer well.",
    ],
    breakthrough: [
      "The breakthrough came when an analysis {name} published was cited across the industry and made {their} name a trusted reference.",
      "A talk at an industry conference made {name} the go-to expert on {field} almost overnight.",
    ],
    goals: [
      "Next, {name} wants to write the definitive beginner's guide to {field}.",
      "Long term, {name} hopes to mentor the next generation of specialists.",
    ],
    day: [
      "A typical day mixes reading new research, answering detailed questions and testing ideas in practice.",
      "Most days begin with a stack of new papers and end with notes for the next explainer.",
    ],
  },
};

// ------------------------------------------------------------------ a turning point

export const TURNING_OPENERS: Template[] = [
  "Not everything went to plan.",
  "The road was not always smooth.",
  "Then came the hardest stretch of {name's} life.",
];

export const SETBACKS: Template[] = [
  "A period of burnout forced {them} to step away from everything for three long months.",
  "A project {they} had poured two years into collapsed when a partner pulled out, taking most of the savings with it.",
  "A family illness brought {them} home to {home} for a long, uncertain winter.",
  "A wave of harsh criticism online made {them} question whether any of it was worth the effort.",
  "A move to a new city left {them} lonely and broke, working night shifts to pay the rent.",
];

/** {trait} is a trait's noun phrase. */
export const RECOVERY_TRAIT: Template[] = [
  "In the end it was {their} {trait} that carried {them} through.",
  "What got {name} through was {their} {trait}, along with a few friends who refused to give up on {them}.",
  "Looking back, {name} credits {their} {trait} with turning that year around.",
];

export const RECOVERY_PLAIN: Template[] = [
  "What got {name} through was stubbornness and a few friends who refused to give up on {them}.",
  "Slowly, one small step at a time, {name} found a way back.",
];

export const LESSONS: Template[] = [
  "{They} came out of that period with clearer priorities and a rule {they} still {v:follow}: build slowly, and build on what is true.",
  "The experience taught {them} that setbacks are part of the story rather than the end of it.",
  "Today {name} calls it the most important year of {their} life, because it forced a decision about what really mattered.",
];

export const RETURNS: Template[] = [
  "When {they} came back, {their} work was different: warmer, sharper and more honest.",
  "That was when the pieces finally came together.",
  "The people who had followed along from the beginning noticed the change at once.",
];

// ------------------------------------------------------------------ today

/** {aLabel} is the type as prose with its article, e.g. "an online educator". */
export const PRESENT_LABEL: Template[] = [
  "Today, {full} is {aLabel} with a voice that is entirely {their} own.",
  "These days {full} works as {aLabel}, and the years behind {them} show in everything {they} {v:make}.",
  "Now known as {aLabel}, {full} has built something people keep coming back to.",
];

/** {occupation} is the fact sheet's occupation with its article ('a virtual streamer'). */
export const OCCUPATION: Template[] = [
  "On paper, {name's} job title is {occupation}, though {they} would describe it more loosely.",
  "If anyone asks what {they} {v:do} for a living, {name} simply says {occupation}.",
  "The work itself has a plain name, {occupation}, and {name} takes it more seriously than {they} {v:let} on.",
];

/** Where the persona lives now: {residence} in full, {residenceCity} its first part. */
export const RESIDENCE_MOVED: Template[] = [
  "These days {name} lives in {residence}, far enough from {home} to miss it and close enough to visit.",
  "Home is now {residence}, where {name} has settled into a rhythm of work and small rituals.",
  "{name} eventually moved to {residence}, and the city has been home ever since.",
];

export const RESIDENCE_STAYED: Template[] = [
  "{name} still lives in {residenceCity}, a few streets from where it all began.",
  "{name} never really left {residenceCity}, and {they} {v:say} the city still surprises {them}.",
];

export const AGE_NOW: Record<AgeRange, Template[]> = {
  "18-24": [
    "Still in {their} early twenties, {they} {v:bring} the energy of a newcomer and the instincts of someone who grew up online.",
    "Being one of the youngest voices in the field means {name} is often underestimated, which {they} quietly {v:enjoy}.",
  ],
  "25-34": [
    "Somewhere between the recklessness of youth and the caution of middle age, {name} has found a confident, grounded rhythm.",
    "Still young enough to take risks and old enough to know which ones matter, {name} is hitting {their} stride.",
  ],
  "35-44": [
    "With well over a decade of adult life behind {them}, {name} brings a seasoned perspective that younger peers often seek out.",
    "Now in the middle of life, {name} balances ambition with a clear sense of what {they} will no longer trade away.",
  ],
  "45-54": [
    "With decades of experience behind {them}, {name} offers the kind of perspective that only comes from watching trends arrive, peak and fade.",
    "In {their} fifties or close to it, {name} is busier and more certain of {their} direction than ever.",
  ],
  "55+": [
    "Past fifty-five and busier than ever, {name} is proof that reinvention has no age limit.",
    "Younger creators often ask {name} for advice, and {they} {v:answer} with the generosity of someone who has seen several eras come and go.",
  ],
};

export const AGE_NOW_NONE: Template[] = [
  "{name} rarely talks about age, preferring to be judged by the work rather than the number of candles on a cake.",
  "How old {name} is matters far less to the people who follow {their} work than how {they} {v:make} them feel.",
];

/** What the work means to the persona: one of these always appears today. */
export const REFLECTIONS: Template[] = [
  "{name} often says that the work is really about people, and everything else is just tools.",
  'Success, to {name}, is measured less in numbers than in the messages that begin with "you changed how I think about this."',
  "{They} {v:try} to keep one promise above all others: never to make something {they} would not want to receive.",
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
  "Around that time {name} met a mentor, a retired editor with a red pen and endless patience, who taught {them} that a first draft is only the beginning.",
  "A neighbor who had run a small radio station became an unlikely mentor and showed {name} that a steady voice can hold an audience for hours.",
  "An older colleague took {name} aside one day and passed on the most useful advice {they} ever received: finish things, then make them better.",
];

/** A paragraph about the people around the persona: an opener, then the rest. */
export const CIRCLE_OPENERS: Template[] = [
  "The people around {name} matter as much as the work.",
  "No one builds a life like this alone, and {name} is the first to say so.",
];

export const CIRCLE: Template[] = [
  "{Their} oldest friend from {home} still calls every Sunday and is the only person allowed to critique {their} work without asking first.",
  "{They} {v:stay} close to {their} family, even when schedules and time zones make that harder than it should be.",
  "A small group of fellow creators meets online once a month to trade advice, complaints and encouragement, and {name} rarely misses it.",
  "Former coworkers, old teachers and a few people {they} {v:have} never met in person all count as part of {their} circle.",
  "When something good happens, the first message always goes to the same three friends, who have been there since the beginning.",
];

// ------------------------------------------------------------------ small details

export const DETAILS_OPENERS: Template[] = [
  "Away from work, {name} is a collection of small, telling habits.",
  "The small details say a lot about {name}.",
  "Off the clock, {name's} life is simpler than people might expect.",
];

export const DETAILS: Template[] = [
  "{They} {v:keep} a box of old letters and ticket stubs under the bed, a private archive of every important moment.",
  "{Their} phone is full of half-finished voice memos, each one an idea waiting for its moment.",
  "{name} still owns the first notebook {they} ever filled, its cover held together with tape.",
  "Sunday mornings are protected time, with no screens, a long walk and a call to family back in {home}.",
  "{They} {v:have} a weakness for good bread, old maps and terrible puns.",
  "A small plant on {their} desk has survived six moves and is treated almost like a colleague.",
  "Every year {they} {v:learn} a few phrases of a new language, mostly to order dessert politely abroad.",
  "{name} believes in handwritten thank-you notes and sends more of them than anyone else {they} {v:know}.",
  "{Their} favorite place to think is a bench near the water, where the noise of the day finally fades.",
  "{They} {v:are} a terrible singer but an enthusiastic one, especially in the car.",
  "{name} rereads the same three novels every winter and finds something new in them each time.",
  "A mug from {home}, chipped and slightly too small, is still the only one {name} drinks coffee from.",
];

// ------------------------------------------------------------------ goals and closing

export const GOALS_OPENERS: Template[] = [
  "Looking ahead, {name} has no shortage of plans.",
  "The future, as {name} sees it, is full of unfinished business.",
  "There is still a great deal {name} wants to do.",
];

/** {interest} is an interest name. */
export const GOAL_INTEREST: Template[] = [
  "{They} also {v:want} to find new ways to bring {their} love of {interest} into everything {they} {v:make}.",
  "A long-held dream involving {interest} is finally starting to take shape, though {name} is keeping the details private for now.",
  "Somewhere on the list is a project built entirely around {interest}, the passion that started it all.",
];

export const CLOSINGS: Template[] = [
  "Whatever comes next, {full} intends to meet it the same way as everything else: with open eyes and a full heart.",
  "For {full}, the story is far from finished, and the best chapters, {they} {v:insist}, are still being written.",
  "And if the past is any guide, {full} will keep surprising people, starting with {themselves}.",
];
