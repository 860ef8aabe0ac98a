import { describe, expect, it } from 'vitest'
import {
  isCommonWord,
  isProperPhrase,
  isListedPlace,
  isTeamName,
  isListedGivenNameLabel,
  opensWithListedGivenName,
  placeInPhrase,
  PLACE_RANK,
  placeRank,
  properNameType,
} from './proper-name-type.js'

const none = () => false

describe('proper name types', () => {
  it('reads organisations and places from the head word', () => {
    expect(properNameType('Calgary City Council', 'PLACE', '', '', none)).toBe('ORGANIZATION')
    // A "person" ending with a word in small letters is a role's phrase (the tagger's, from its titles).
    expect(properNameType('Navy rear admiral', 'PERSON', 'and ', '.', none)).toBe('CONCEPT')
    expect(properNameType('University of Alberta', 'CONCEPT', '', '', none)).toBe('ORGANIZATION')
    // Investment firms named by their kind: "E2 Capital Partners", "Pluribus Ventures".
    for (const firm of ['Pluribus Ventures', 'E2 Capital Partners'])
      expect(properNameType(firm, 'CONCEPT', 'with ', ' in 2005.', none)).toBe('ORGANIZATION')
    // "House of" and an organisation head before "of" anywhere in the name, over the tagger's place.
    for (const name of [
      'House of Commons',
      'Washington House of Representatives',
      'Royal Bank of Scotland',
    ])
      expect(properNameType(name, 'PLACE', '', '', none), name).toBe('ORGANIZATION')
    expect(properNameType('Gulf of Mexico', 'PLACE', '', '', none)).toBe('PLACE')
    // A nationality before a place's kind is a common phrase; a name it opens is a name.
    expect(properNameType('Venezuelan city', 'PLACE', 'a small ', '', none)).toBe('CONCEPT')
    expect(properNameType('Polish village', 'PLACE', 'a ', '', none)).toBe('CONCEPT')
    expect(properNameType('South American city', 'PLACE', 'a ', '', none)).toBe('CONCEPT')
    expect(properNameType('North Korean city', 'PLACE', 'a ', '', none)).toBe('CONCEPT')
    expect(properNameType('Indian Ocean', 'PLACE', 'the ', '', none)).toBe('PLACE')
    // An organisation head, then its city.
    expect(properNameType('Kings College London', 'PLACE', '', '', none)).toBe('ORGANIZATION')
    expect(properNameType('Union Square Park', 'PLACE', '', '', none)).toBe('PLACE')
    expect(properNameType('Hudson River', 'CONCEPT', '', '', none)).toBe('PLACE')
    expect(properNameType('2002 Winter Olympics', 'CONCEPT', 'at the ', '', none)).toBe('CONCEPT')
    // What a company does to a work, before the name: "published by", "produced by".
    for (const before of ['It was published by ', 'The album was produced by '])
      expect(properNameType('Avex Trax', 'CONCEPT', before, '.', none), before).toBe('ORGANIZATION')
    expect(properNameType('Avex Trax', 'CONCEPT', 'It was sung by ', '.', none)).toBe('CONCEPT')
    // Membership, an office heading it, a broadcast: "members of APEC", "CEO of", "aired on".
    for (const before of ['were already members of ', 'He became CEO of ', 'It aired on the '])
      expect(properNameType('Televisa', 'CONCEPT', before, '.', none), before).toBe('ORGANIZATION')
    expect(properNameType('Jaws', 'CONCEPT', 'the director of ', '.', none)).toBe('CONCEPT')
    expect(properNameType('South Korea', 'CONCEPT', 'the President of ', '.', none)).toBe('CONCEPT')
    // Not the body one belongs to: a city of the place lists.
    expect(properNameType('Plymouth', 'CONCEPT', 'a member of ', "'s team", none)).toBe('PLACE')
    // Work at a name the tagger took for a place: an employer, unless the lexicon knows the place.
    for (const before of [
      'She works at ',
      'He got a job at ',
      'I worked for the ',
      'an engineer at ',
    ])
      expect(properNameType('Spotify', 'PLACE', before, '.', none), before).toBe('ORGANIZATION')
    expect(properNameType('Spotify', 'PLACE', 'We met at ', '.', none)).toBe('PLACE')
    expect(properNameType('London', 'PLACE', 'She works at ', '.', none)).toBe('PLACE')
    // A club by a footballer's transfers, though it is named by its city or read as a person.
    for (const [name, label, before] of [
      ['Porto', 'PLACE', 'He began his career with '],
      ['Rio Ave', 'PLACE', 'spending a season on loan at '],
      ['Everton', 'PLACE', 'Chelsea loaned him to '],
      ['Chelsea', 'PERSON', 'In 2013, he was signed by '],
      // And every club of a list the cue opens.
      ['Everton', 'PLACE', 'Chelsea loaned him to Vitesse Arnhem, '],
      ['Málaga', 'CONCEPT', 'Chelsea loaned him to Vitesse Arnhem, Everton and '],
    ])
      expect(properNameType(name!, label!, before!, '.', none), name).toBe('ORGANIZATION')
    expect(properNameType('England', 'PLACE', 'He played for ', '.', none)).toBe('PLACE')
    expect(properNameType('London', 'PLACE', 'He signed for Chelsea. Paris, ', '.', none)).toBe(
      'PLACE',
    )
    // A school by a person's schooling, unless the lexicon knows the place.
    for (const before of ['She graduated from ', 'He was educated at ', 'a degree from '])
      expect(properNameType('Tulane', 'CONCEPT', before, '.', none), before).toBe('ORGANIZATION')
    expect(properNameType('Montreal', 'PLACE', 'He was educated at ', '.', none)).toBe('PLACE')
    // A state named by its kind, which the tagger calls an organisation.
    for (const name of ['Roman Empire', 'Dutch Republic', 'Umayyad Caliphate'])
      expect(properNameType(name, 'ORGANIZATION', '', '', none), name).toBe('PLACE')
  })

  it('reads a team from a city or region and a plural, not from a place kind or an event', () => {
    for (const name of [
      'Edmonton Oilers',
      'Kansas City Kings',
      'Leicester Tigers',
      'Texas Rangers',
    ])
      expect(properNameType(name, 'PLACE', 'for the ', '', none), name).toBe('ORGANIZATION')
    expect(isTeamName('Beijing Ducks')).toBe(true)
    for (const name of [
      'Palm Springs', // a place kind's plural
      'Cayman Islands',
      'Berlin Olympics', // an event's
      'Buenos Aires', // a place the lexicon knows
      'Japan Relations', // a country is no team's home
      'Integrated Airport Systems', // a place kind that is no town's
      'Edmonton', // one word
      'Boston Harbor', // no plural
    ])
      expect(isTeamName(name), name).toBe(false)
    expect(properNameType('Palm Springs', 'PLACE', 'in ', '', none)).toBe('PLACE')
  })

  it('reads a first name as a place before a state or country, or after "in", unless it is a person\'s place', () => {
    expect(
      properNameType('Troy', 'PERSON', 'He was buried in Oakwood Cemetery, ', ', New York.', none),
    ).toBe('PLACE')
    expect(
      properNameType('Sullivan', 'PERSON', 'It lies near ', ', Missouri, in the south', none),
    ).toBe('PLACE')
    expect(properNameType('Nancy', 'PERSON', 'He died in 1748 in ', '.', none)).toBe('PLACE')
    // Addressed, confided in, or a possessor: a person.
    expect(properNameType('Mel', 'PERSON', 'Caroline: Hey ', ', France was lovely.', none)).toBe(
      'PERSON',
    )
    expect(properNameType('Mel', 'PERSON', '', ', Texas was lovely.', none)).toBe('PERSON')
    expect(properNameType('Nancy', 'PERSON', 'I confided in ', ' about it.', none)).toBe('PERSON')
    expect(properNameType('Nancy', 'PERSON', 'We met in ', "'s room.", none)).toBe('PERSON')
    // A city after the comma is no sign ("Hey Mel, Paris was ..." addresses too), nor is a full name.
    expect(properNameType('Jon', 'PERSON', 'I told ', ', Paris was lovely.', none)).toBe('PERSON')
    expect(properNameType('Nancy Reagan', 'PERSON', 'He met ', ', Texas.', none)).toBe('PERSON')
  })

  it('reads a sports club from its designator, before or after the name, even for a tagged person', () => {
    expect(properNameType('FK Teleoptik', 'PERSON', '', '', none)).toBe('ORGANIZATION')
    // German clubs' designators: the tagger's "Hertha" made "Hertha BSC" a person.
    expect(properNameType('Hertha BSC', 'PERSON', 'played for ', '.', none)).toBe('ORGANIZATION')
    expect(properNameType('SpVgg Unterhaching', 'PERSON', 'for ', '.', none)).toBe('ORGANIZATION')
    expect(properNameType('AFC Bournemouth', 'PLACE', '', '', none)).toBe('ORGANIZATION')
    expect(properNameType('Puskás Akadémia FC', 'CONCEPT', '', '', none)).toBe('ORGANIZATION')
    // Initials of people are not designators.
    expect(properNameType('AC Green', 'PERSON', '', '', none)).toBe('PERSON')
  })

  it('takes no named event or award for a person, whatever given name it opens with', () => {
    for (const name of [
      'Summer Olympics',
      'Grace Cup',
      'Victoria Cross Award',
      'Summer Games 2012',
    ])
      expect(properNameType(name, 'PERSON', 'hosted the ', '.', none), name).toBe('CONCEPT')
    // Heads that are also surnames stay a person's.
    expect(properNameType('Kathleen Battle', 'PERSON', '', ' sang', none)).toBe('PERSON')
  })

  it('takes no name holding a word of a religion for a person, but a given name that is one', () => {
    for (const name of ['Roman Catholic', 'Eastern Orthodox', 'Anglican'])
      expect(properNameType(name, 'PERSON', 'practiced by the ', ' churches', none), name).toBe(
        'CONCEPT',
      )
    expect(properNameType('Christian Bale', 'PERSON', '', ' starred', none)).toBe('PERSON')
  })

  it('takes no name holding a computing initialism for a person, but a stage name', () => {
    for (const name of ['REST API', 'PostgreSQL URL', 'Streamable HTTP', 'Largest JSON'])
      expect(properNameType(name, 'PERSON', 'It is a ', '.', none), name).toBe('CONCEPT')
    expect(properNameType('DJ Shadow', 'PERSON', '', ' met', none)).toBe('PERSON')
    // One word of a product's shape is none either; a surname's prefix keeps its capital.
    for (const name of ['PostgreSQL', 'GitHub', 'iPhone'])
      expect(properNameType(name, 'PERSON', 'With ', ', it runs.', none), name).toBe('CONCEPT')
    expect(properNameType('Two MCP', 'PERSON', '', ' servers run.', none)).toBe('CONCEPT')
    for (const name of ['McAllister', 'DeShawn'])
      expect(properNameType(name, 'PERSON', 'With ', ', it runs.', none), name).toBe('PERSON')
  })

  it('takes an office for no person, unless a given name is in it', () => {
    for (const name of [
      'Prime Minister',
      'Deputy Director',
      'Deputy Prime Minister',
      'Deputy Leader',
    ])
      expect(properNameType(name, 'PERSON', 'the ', ' said', none), name).toBe('CONCEPT')
    // "Roman Emperor" stays a person's: "Roman" is a given name (Polanski).
    expect(properNameType('Roman Emperor', 'PERSON', '', ' said', none)).toBe('PERSON')
    expect(properNameType('Julie Leader', 'PERSON', '', ' said', none)).toBe('PERSON')
    // Offices that are surnames too are not read as offices.
    expect(properNameType('Joey Bishop', 'PERSON', '', ' said', none)).toBe('PERSON')
  })

  it('ranks an initialism with its periods as written without them', () => {
    // "U.S." was unranked, so "Gogebic County, Michigan, U.S." put no county in the country through its state.
    expect(placeRank('U.S.')).toBe(PLACE_RANK.country)
    expect(placeRank('U.K.')).toBe(placeRank('UK'))
  })

  it('reads a place from a kind word opening its name, or a numbered road', () => {
    for (const name of ['Piazza XX Settembre', 'Via Nino Bixio', 'Monte Roraima', 'U.S. Route 20'])
      expect(properNameType(name, 'CONCEPT', 'along the ', '.', none), name).toBe('PLACE')
    expect(properNameType('Fort Winnebago', 'PERSON', 'building ', '.', none)).toBe('PLACE')
    // Not when another kind word is in it, nor a saint's name.
    expect(properNameType('Fort Wayne Film Festival', 'CONCEPT', 'the ', '.', none)).toBe('CONCEPT')
    expect(properNameType('Santa Isabel', 'CONCEPT', 'the ', '.', none)).toBe('CONCEPT')
    // A person's given name may be such a word.
    expect(properNameType('Monte Irvin', 'PERSON', '', ' said', none)).toBe('PERSON')
  })

  it('keeps a tagged person only when the phrase has a capital', () => {
    expect(properNameType('Marie Curie', 'PERSON', '', '', none)).toBe('PERSON')
    expect(properNameType('first woman', 'PERSON', 'She was the ', ' to win', none)).toBe('CONCEPT')
    expect(properNameType('fridge', 'PLACE', 'put the cake in the ', '.', none)).toBe('CONCEPT')
    // A "person" ending with an organisation head no one has as a surname; "Church" is one.
    expect(properNameType('Barry University', 'PERSON', '', '', none)).toBe('ORGANIZATION')
    // compromise tags "Janne Johnsen (Conservative Party)" as one person's run.
    expect(properNameType('Conservative Party', 'PERSON', '(', ')', none)).toBe('ORGANIZATION')
    expect(properNameType('Charlotte Church', 'PERSON', '', '', none)).toBe('PERSON')
    expect(properNameType('Paris', 'PLACE', 'lived in ', '.', none)).toBe('PLACE')
  })

  it('reads places from the preposition before and a place beside', () => {
    expect(properNameType('Mediaș', 'CONCEPT', 'born in ', ', Transylvania', none)).toBe('PLACE')
    const isPlace = (n: string) => n === 'Mediaș'
    expect(properNameType('Transylvania', 'CONCEPT', 'born in Mediaș, ', ')', isPlace)).toBe(
      'PLACE',
    )
    expect(properNameType('Transylvania', 'CONCEPT', 'born in Mediaș, ', ')', none)).toBe('CONCEPT')
  })

  it('reads no place from "in" before a name that modifies the noun after it, unless that noun is a place\'s', () => {
    expect(properNameType('Allow', 'CONCEPT', 'the methods listed in the ', ' header.', none)).toBe(
      'CONCEPT',
    )
    expect(properNameType('Kurdish', 'CONCEPT', 'a poet in the ', ' language', none)).toBe(
      'CONCEPT',
    )
    expect(properNameType('Padden', 'CONCEPT', 'At ', "'s request, the state", none)).toBe(
      'CONCEPT',
    )
    expect(properNameType('Kasso', 'CONCEPT', 'He lived in the ', ' area.', none)).toBe('PLACE')
    expect(properNameType('Kasso', 'CONCEPT', 'He lived in the ', ' valley.', none)).toBe('PLACE')
    expect(properNameType('Kasso', 'CONCEPT', 'He died in ', ' in 1950.', none)).toBe('PLACE')
    expect(properNameType('Kasso', 'CONCEPT', 'He died in ', ' and was buried there.', none)).toBe(
      'PLACE',
    )
  })

  it('reads no place after a prize or a degree "in"', () => {
    expect(properNameType('Physics', 'CONCEPT', 'won the Nobel Prize in ', ' in 1903.', none)).toBe(
      'CONCEPT',
    )
    expect(properNameType('Economics', 'CONCEPT', 'She holds a PhD in ', '.', none)).toBe('CONCEPT')
    expect(properNameType('London', 'CONCEPT', 'won a medal in ', '.', none)).toBe('PLACE')
  })

  it('reads no place in a product-shaped word after "in", but keeps surnames\' prefixes', () => {
    for (const name of ['PostgreSQL', 'JavaScript', 'iPhone', 'ENGRAM_PLUGINS'])
      expect(properNameType(name, 'CONCEPT', 'Every record lives in ', '.', none), name).toBe(
        'CONCEPT',
      )
    expect(properNameType('McAllen', 'CONCEPT', 'He was born in ', '.', none)).toBe('PLACE')
    expect(properNameType('DeKalb', 'CONCEPT', 'She grew up in ', '.', none)).toBe('PLACE')
  })

  it('reads no place in capitals then small letters, nor in a product-shaped word the tagger calls one', () => {
    for (const name of ['SQLite', 'URLs', 'PDFs'])
      expect(properNameType(name, 'CONCEPT', 'Every record lives in ', '.', none), name).toBe(
        'CONCEPT',
      )
    for (const name of ['graphologyView', 'TeX'])
      expect(properNameType(name, 'PLACE', 'It draws ', ' here.', none), name).toBe('CONCEPT')
    expect(properNameType('DeKalb', 'PLACE', 'She grew up in ', '.', none)).toBe('PLACE')
    expect(properNameType('Paris', 'PLACE', 'It draws ', ' here.', none)).toBe('PLACE')
  })

  it("takes an organisation's head word alone opening a sentence for the common noun", () => {
    expect(properNameType('Records', 'CONCEPT', '', ' come back as the core types.', none)).toBe(
      'CONCEPT',
    )
    expect(properNameType('Red Greg Records', 'CONCEPT', '', ' released it.', none)).toBe(
      'ORGANIZATION',
    )
  })

  it('takes no data format or common initialism for an organisation, though the tagger does', () => {
    expect(properNameType('JSON', 'ORGANIZATION', 'before reading the ', '.', none)).toBe('CONCEPT')
    expect(properNameType('CEO', 'ORGANIZATION', 'He met the ', '.', none)).toBe('CONCEPT')
    for (const name of ['FYI', 'LGBTQ'])
      expect(properNameType(name, 'CONCEPT', 'the ', ' support group', none), name).toBe('CONCEPT')
    expect(properNameType('BBC', 'ORGANIZATION', 'He joined the ', '.', none)).toBe('ORGANIZATION')
  })

  it('takes an English word in capitals for a word, not an acronym', () => {
    for (const name of ['PERSON', 'INSERT', 'LOG'])
      expect(properNameType(name, 'CONCEPT', 'the label ', ' is', none), name).toBe('CONCEPT')
    expect(properNameType('PERSON', 'ORGANIZATION', 'the ', ' label', none)).toBe('CONCEPT')
    for (const name of ['ASCAP', 'WHO', 'IRA'])
      expect(properNameType(name, 'CONCEPT', 'a member of ', '.', none), name).toBe('ORGANIZATION')
  })

  it('takes one word in capitals for an acronym, not a person, though the tagger knows a first name', () => {
    const cases: [name: string, before: string, after: string, type: string][] = [
      ['STAN', 'weights (after ', ', SIGIR 2019)', 'ORGANIZATION'],
      ['ARIA', 'the WAI-', ' tabs pattern', 'ORGANIZATION'],
      ['MAX', 'the ', ' value', 'CONCEPT'],
      // Written as a name, or too short for an acronym: still the tagger's person.
      ['Stan', 'with ', '.', 'PERSON'],
      ['JO', 'with ', '.', 'PERSON'],
    ]
    for (const [name, before, after, type] of cases)
      expect(properNameType(name, 'PERSON', before, after, none), name).toBe(type)
  })

  it('leaves common nouns untyped and types other acronyms as organisations', () => {
    expect(properNameType('school board', 'ORGANIZATION', '', '', none)).toBe('CONCEPT')
    expect(properNameType('ASCAP', 'CONCEPT', '', '', none)).toBe('ORGANIZATION')
    // ... but not an initialism of a common noun, a format or a protocol, and a country's is a place.
    for (const kind of ['TV', 'CEO', 'DVD', 'JSON', 'HTTP', 'POST'])
      expect(properNameType(kind, 'CONCEPT', '', '', none), kind).toBe('CONCEPT')
    expect(properNameType('UK', 'CONCEPT', '', '', none)).toBe('PLACE')
    expect(isProperPhrase('University of Alberta')).toBe(true)
    expect(isProperPhrase('men of Alberta')).toBe(false)
  })

  it('finds the place a descriptive phrase names', () => {
    expect(placeInPhrase('town of Guilderland')).toBe('Guilderland')
    expect(placeInPhrase('Canadian province of Alberta')).toBe('Alberta')
    expect(placeInPhrase('northern England')).toBe('England')
    expect(placeInPhrase('University of Alberta')).toBeNull()
  })

  it('knows given names of many languages the lexicon does not, beside words it knows only as names', () => {
    for (const name of ['Kwame Nkrumah', 'Auguste Rodin', 'Harald Thune', 'Édouard Manet'])
      expect(opensWithListedGivenName(name), name).toBe(true)
    // One word is no full name; a listed word the lexicon knows otherwise ("golden", "Sydney" as a
    // place too) or a common word after it ("fire") makes no person; nor does a saint's title.
    for (const name of ['Kwame', 'Golden Horde', 'Sydney Swans', 'Arcade Fire', 'Santa Isabel'])
      expect(opensWithListedGivenName(name), name).toBe(false)
  })

  it("takes a turn's label for a person by a listed given name the lexicon does not know", () => {
    for (const label of ['Priya', 'Kwame', 'Oluwaseun', 'Kwame Nkrumah'])
      expect(isListedGivenNameLabel(label), label).toBe(true)
    // A field's label is a word the lexicon knows ("Major" is a listed given name); a saint's title.
    for (const label of ['Note', 'City', 'Major', 'Golden Horde', 'Santa'])
      expect(isListedGivenNameLabel(label), label).toBe(false)
  })

  it('knows places of the world the lexicon does not, unless it knows the word as something else', () => {
    for (const name of ['Smolensk', 'Bahir Dar', 'Rogaland', 'Minneapolis'])
      expect(isListedPlace(name), name).toBe(true)
    // Not listed; listed but an adjective by its ending; listed but a word the lexicon knows otherwise.
    for (const name of ['Pelutho', 'Central', 'Cardinal', 'Reading'])
      expect(isListedPlace(name), name).toBe(false)
    expect(properNameType('Smolensk', 'CONCEPT', 'He moved to ', ' in 1990.', none)).toBe('PLACE')
    expect(properNameType('Reading', 'CONCEPT', 'He moved to ', ' in 1990.', none)).toBe('CONCEPT')
  })

  it('knows words the lexicon holds only as common words, not nationalities or names', () => {
    for (const word of ['Chief', 'Former', 'Senior', 'Deputy'])
      expect(isCommonWord(word), word).toBe(true)
    // A nationality (by the lexicon or the added list), a name, a place, a word the lexicon lacks.
    for (const word of ['Japanese', 'English', 'Mary', 'Paris', 'Kang'])
      expect(isCommonWord(word), word).toBe(false)
  })
})
