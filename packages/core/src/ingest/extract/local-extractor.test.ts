import nlp from 'compromise'
import { describe, expect, it } from 'vitest'
import { localExtractor } from './local-extractor.js'

const run = (
  text: string,
  sourceTimestamp = '2024-04-10T09:00:00.000Z',
  observateFor: string[] = [],
) =>
  localExtractor().extract(
    { passages: [{ id: 'p1', text }], sourceTimestamp, observateFor },
    { signal: new AbortController().signal },
  )

/** The names of the events extracted from `text`, in order. */
const eventNames = async (text: string) =>
  (await run(text)).entities.filter((e) => e.labels.includes('EVENT')).map((e) => e.name)

/** The edges extracted from `text` that are no event's legs, as "subject NAME object". */
const edges = async (text: string) => {
  const graph = await run(text)
  const name = (key: string) => graph.entities.find((e) => e.key === key)!.name
  return graph.relationships
    .filter((r) => !r.eventKey && !r.subjectKey.startsWith('EVENT:'))
    .map((r) => `${name(r.subjectKey)} ${r.name} ${name(r.objectKey)}`)
}

/** The `LOCATED_IN` edges extracted from `text`, as "inner in outer". */
const located = async (text: string) => {
  const graph = await run(text)
  const name = new Map(graph.entities.map((e) => [e.key, e.name]))
  return graph.relationships
    .filter((r) => r.name === 'LOCATED_IN')
    .map((r) => `${name.get(r.subjectKey)} in ${name.get(r.objectKey)}`)
}

describe('local extractor', () => {
  it('extracts people, places, the meetup and an event with its time and legs', async () => {
    const graph = await run('Emily organized the AI Ethics Meetup in London on March 8, 2024.')
    const byName = new Map(graph.entities.map((e) => [e.name, e]))
    expect(byName.get('Emily')?.labels).toEqual(['PERSON'])
    expect(byName.get('London')?.labels).toEqual(['PLACE'])
    expect(byName.get('AI Ethics Meetup')).toBeDefined()
    const event = graph.entities.find((e) => e.labels.includes('EVENT'))!
    expect(event.happenedAt).toBe('2024-03-08')
    const legs = graph.relationships.filter((r) => r.eventKey === event.key)
    const emily = byName.get('Emily')!.key
    expect(legs.map((r) => [r.subjectKey, r.name, r.objectKey])).toEqual([
      [emily, 'ORGANIZED', event.key],
      [event.key, 'TARGETED', byName.get('AI Ethics Meetup')!.key],
      [event.key, 'OCCURRED_IN', byName.get('London')!.key],
      [event.key, 'OCCURRED_ON', byName.get('March 8, 2024')!.key],
    ])
    expect(byName.get('March 8, 2024')?.labels).toEqual(['DATE'])
    expect(graph.observations.some((o) => o.aboutKey === emily)).toBe(true)
    expect(graph.entities.every((e) => e.passageIds.includes('p1'))).toBe(true)
  })

  it('reads an adjective after "a" as its noun before a relative date', async () => {
    // The tagger reads "novel" as the adjective: there was no object and no event.
    expect(await eventNames('Caroline: I read a novel last week.')).toEqual(['Caroline read novel'])
    expect(await eventNames('Caroline: I bought a classic yesterday.')).toEqual([
      'Caroline bought classic',
    ])
    const graph = await run('Caroline: We found a safe and loving home. It was a great day.')
    const concepts = graph.entities.filter((e) => e.labels.includes('CONCEPT')).map((e) => e.name)
    expect(concepts).not.toContain('safe')
    expect(concepts).not.toContain('great')
  })

  it('makes an event of a copula whose complement is a date alone, dated by it', async () => {
    // A date is no mention, so "is on June 3" had no object, and the sentence no event.
    const dated = async (text: string) =>
      (await run(text)).entities
        .filter((e) => e.labels.includes('EVENT'))
        .map((e) => [e.name, e.happenedAt])
    expect(await dated("Sarah's wedding is on June 3.")).toEqual([
      ["Sarah's wedding is June 3", '2024-06-03'],
    ])
    expect(await dated('Caroline: My exam is next Tuesday.')).toEqual([
      ['Caroline: exam is next Tuesday', '2024-04-16'],
    ])
    expect(await dated('The party was last Saturday, and it was great.')).toEqual([
      ['party was last Saturday', '2024-04-06'],
    ])
    expect(await dated('The conference is from June 3 to June 5.')).toEqual([
      ['conference is June 3 to June 5', '2024-06-03'],
    ])
    expect(await dated('The concert was in 2019.')).toEqual([['concert was 2019', '2019']])
    const wedding = await run("Sarah's wedding is on June 3.")
    const sarah = wedding.entities.find((e) => e.name === 'Sarah')!
    expect(wedding.relationships.map((r) => [r.name, r.objectKey])).toEqual([
      ['INVOLVED', sarah.key],
    ])
    // Not a person's own date, nor a complement that holds more than the date.
    expect(await dated('John was in 1990.')).toEqual([])
    expect(await dated('The launch was late again last week.')).toEqual([])
  })

  it("dates an event on the side of the text's time its verb's tense puts it", async () => {
    // Written on Wednesday 1 March 2023: chrono-node alone took the nearest May and Monday.
    const at = async (text: string) =>
      (await run(text, '2023-03-01T10:00:00Z')).entities.find((e) => e.labels.includes('EVENT'))
        ?.happenedAt
    expect(await at('Caroline: We met Jon in May.')).toBe('2022-05-01')
    expect(await at("Caroline: I'll see Jon on Monday.")).toBe('2023-03-06')
    expect(await at('Caroline: I saw Jon on Friday.')).toBe('2023-02-24')
  })

  it('resolves relative dates against the source timestamp and reads polarity', async () => {
    const graph = await run(
      'Yesterday Bob bought a new bike from Acme Corp for $450. He loved it.',
      '2024-04-10T09:00:00.000Z',
    )
    const event = graph.entities.find((e) => e.labels.includes('EVENT'))!
    expect(event.happenedAt).toBe('2024-04-09')
    expect(graph.entities.some((e) => e.labels.includes('MONEY') && e.name === '$450')).toBe(true)
    const bob = graph.entities.find((e) => e.name === 'Bob')!
    expect(graph.observations.find((o) => o.text === 'He loved it.')).toMatchObject({
      aboutKey: bob.key,
      polarity: 'positive',
    })
  })

  it('cites each passage once per entity and leaves compromise as it found it', async () => {
    const hooks = [...(nlp.world() as unknown as { hooks: string[] }).hooks]
    const graph = await localExtractor().extract(
      {
        passages: ['Dana met Omar. Dana thanked Omar.', 'Omar called Dana.'].map((text, i) => ({
          id: `p${i}`,
          text,
        })),
        sourceTimestamp: '2024-04-10T09:00:00.000Z',
        observateFor: [],
      },
      { signal: new AbortController().signal },
    )
    expect(graph.entities.find((e) => e.name === 'Dana')?.passageIds).toEqual(['p0', 'p1'])
    // The parse skips compromise's chunker for its own call only.
    expect((nlp.world() as unknown as { hooks: string[] }).hooks).toEqual(hooks)
    expect(hooks).toContain('chunks')
  })

  it('is deterministic and steers observations with observate_for', async () => {
    const text = 'The weather was cold. Caroline joined a support group.'
    expect(await run(text)).toEqual(await run(text))
    const focused = await run(text, undefined, ['weather'])
    expect(focused.observations.some((o) => o.text.includes('weather'))).toBe(true)
  })
})

describe('local extractor on encyclopaedic text (issue 27)', () => {
  const names = async (text: string) =>
    (await run(text)).entities
      .filter((e) => !e.labels.includes('EVENT'))
      .map((e) => `${e.labels[0]}:${e.name}`)

  it('joins a later surname and a quoted nickname to the full name', async () => {
    const graph = await run(
      'Wilfried "Willi" Schneider (born 13 March 1963 in Mediaș, Transylvania) is a German skeleton racer. ' +
        'Schneider became a coach. Willi won a medal.',
    )
    const people = graph.entities.filter((e) => e.labels.includes('PERSON')).map((e) => e.name)
    expect(people).toEqual(['Wilfried Schneider'])
  })

  it('takes the subject before an apposition that ends right before the verb', async () => {
    // Before: "Stanford University published paper".
    expect(
      await eventNames('Dr. Jane Smith, a professor at Stanford University, published a paper.'),
    ).toEqual(['Jane Smith published paper'])
    // A possessive determiner opens one too (before: "lead engineer wrote migration plan").
    expect(
      await eventNames('Dana Whitfield, our lead engineer, wrote the migration plan.'),
    ).toEqual(['Dana Whitfield wrote migration plan'])
    // A name between commas that opens with no article is no apposition of that kind.
    expect(await eventNames('In Paris, Marie Curie studied physics.')).toEqual([
      'Marie Curie studied physics',
    ])
  })

  it("keeps a ruler's regnal number I, which the tagger reads as the pronoun", async () => {
    // Before: "Carol I" and "Elizabeth I" were the bare first names, which coreference joined to "Carol II"
    // and "Elizabeth II": "Elizabeth II ruled England".
    const people = async (text: string) =>
      (await run(text)).entities.filter((e) => e.labels.includes('PERSON')).map((e) => e.name)
    expect(
      await people('Carol II was the eldest son of Ferdinand I. Carol I was his great-uncle.'),
    ).toEqual(['Carol II', 'Ferdinand I', 'Carol I'])
    expect(
      await eventNames('Elizabeth I ruled England. Elizabeth II ruled the United Kingdom.'),
    ).toEqual(['Elizabeth I ruled England', 'Elizabeth II ruled United Kingdom'])
    expect(await people('He served under King Leopold I in Brussels.')).toContain('Leopold I')
    // Before its verb "I" is the pronoun.
    expect(await people('When I met Paul I left early.')).toEqual(['Paul'])
  })

  it('types places from a preposition, a kind of place and a comma list', async () => {
    const found = await names(
      'He was born in Mediaș, Transylvania. He moved to the town of Guilderland in 1950.',
    )
    expect(found).toContain('PLACE:Mediaș')
    expect(found).toContain('PLACE:Transylvania')
    expect(found).toContain('PLACE:Guilderland')
  })

  it("gives a list's untyped names the type its typed names share", async () => {
    const found = await names(
      'The river flows through Barcelona, Alt Penedès and Garraf. ' +
        'He has deals with Nike, Gatorade and Under Armour.',
    )
    expect(found).toEqual(
      expect.arrayContaining([
        'PLACE:Barcelona',
        'PLACE:Alt Penedès',
        'PLACE:Garraf',
        'ORGANIZATION:Nike',
        'ORGANIZATION:Gatorade',
        'ORGANIZATION:Under Armour',
      ]),
    )
  })

  it("takes a country's nationality adjective and a capitalised US for places", async () => {
    const found = await names(
      'Roketsan is a major Turkish weapons manufacturer. Astley is a British singer. ' +
        'She was a Swedish politician, and he an American actor from the US. Let us go.',
    )
    for (const place of ['Turkish', 'British', 'Swedish', 'US'])
      expect(found).toContain(`PLACE:${place}`)
    // "American" is the node of the US here: the text names that country too.
    expect(found).not.toContain('PLACE:American')
    // The pronoun stays no entity, and a language is no place.
    expect(found.some((n) => /:us$/.test(n))).toBe(false)
    const language = await names(
      'It uses English stopwords and works for languages other than English. The Spanish translation followed. ' +
        'The novel was written in Spanish by Cervantes. She sang in French at the festival.',
    )
    expect(language.filter((n) => n.startsWith('PLACE:'))).toEqual([])
    // A compass word opening the adjective is part of it: before, the concept "South African" and the place
    // "African".
    // A nationality the tagger read into an organisation before a common noun is still one ("a Japanese
    // company"); before a capitalised word it opens a name ("European Union").
    const retagged = await names('Sony is a Japanese company. The European Union fined it.')
    expect(retagged).toContain('PLACE:Japanese')
    expect(retagged).toContain('ORGANIZATION:European Union')
    expect(retagged).not.toContain('PLACE:European')
    const compound = await names('She is a South African singer. He was a North Korean defector.')
    expect(compound.filter((n) => /African|Korean/.test(n)).sort()).toEqual([
      'PLACE:North Korean',
      'PLACE:South African',
    ])
  })

  it('puts a place in the place after "in" or "within", and a nationality opening a place\'s name in that name', async () => {
    const graph = await run(
      'Jon Montgomery won gold in Vancouver, British Columbia, Canada. Zabiele is a village within ' +
        'Szczytno County, in northern Poland. The French in Algeria fought the Polish Academy of Sciences. ' +
        'She toured Denmark, Germany and Sweden.',
    )
    const name = new Map(graph.entities.map((e) => [e.key, e.name]))
    const located = graph.relationships
      .filter((r) => r.name === 'LOCATED_IN')
      .map((r) => `${name.get(r.subjectKey)} in ${name.get(r.objectKey)}`)
    // A list of places side by side lies in none.
    // Zabiele, defined a village, heads a place statement and lies in the places after it.
    expect(located).toEqual([
      'Vancouver in British Columbia',
      'British Columbia in Canada',
      'Szczytno County in Poland',
      'Zabiele in Szczytno County',
      'Zabiele in Poland',
      // Through British Columbia (`place-closure.ts`), and as the gazetteer has it (`gazetteer.ts`).
      'Vancouver in Canada',
      // By the nationality in its name, where the text names that country.
      'Polish Academy of Sciences in Poland',
    ])
    const places = graph.entities.filter((e) => e.labels.includes('PLACE'))
    expect(places.map((e) => e.name)).not.toContain('British')
    // Before an organisation's name, the nationality says its country: Poland's node, the text naming it.
    expect(places.map((e) => e.name)).toEqual(expect.arrayContaining(['French', 'Algeria']))
    expect(places.find((e) => e.name === 'Poland')?.aliases).toEqual(['Polish'])
  })

  it('puts a place in the country the gazetteer gives it when the text names that country', async () => {
    // No sentence relates them: before, no edge.
    expect(await located('Jeff Healey was born in Toronto. He toured Canada in 1990.')).toEqual([
      'Toronto in Canada',
    ])
    // Not a smaller place of the name: the London of this text is not Ontario's.
    expect(await located('Sarah moved from London to Canada in 2019.')).toEqual([])
    // An organisation lies in the place its name holds, and so in that place's country.
    expect(
      await located('She studied at the University of Alberta. Alberta is a province of Canada.'),
    ).toEqual(
      expect.arrayContaining([
        'University of Alberta in Alberta',
        'University of Alberta in Canada',
      ]),
    )
  })

  it('reads a nationality as the country the text names, and puts an organisation named by it there', async () => {
    const graph = await run(
      'Henrik Angell was a Norwegian military officer. He grew up in Bergen, Norway. ' +
        'He entered the Norwegian Army.',
    )
    const norway = graph.entities.filter((e) => ['Norway', 'Norwegian'].includes(e.name))
    expect(norway.map((e) => [e.name, e.aliases])).toEqual([['Norway', ['Norwegian']]])
    const name = new Map(graph.entities.map((e) => [e.key, e.name]))
    const stated = graph.relationships.map(
      (r) => `${name.get(r.subjectKey)} ${r.name} ${name.get(r.objectKey)}`,
    )
    expect(stated).toEqual(
      expect.arrayContaining(['Bergen LOCATED_IN Norway', 'Norwegian Army LOCATED_IN Norway']),
    )
    // Every edge cites a node of the graph.
    expect(stated.filter((e) => e.includes('undefined'))).toEqual([])
    // An edge the country has already is one edge; one from the country to itself is none.
    const merged = await edges(
      'Bergen is a Norwegian city in Norway. The Norwegian flag flies over Norway.',
    )
    expect(merged.filter((e) => e === 'Bergen LOCATED_IN Norway')).toHaveLength(1)
    expect(merged.filter((e) => /Norway .* Norway/.test(e))).toEqual([])
    // Where the text names no country of it, the nationality keeps its node.
    expect(
      (await run('Henrik Angell was a Norwegian military officer.')).entities.map((e) => e.name),
    ).toContain('Norwegian')
  })

  it('puts the places a text about a place names, and puts nowhere, where that place lies', async () => {
    const text =
      'Westmere is a hamlet in the town of Guilderland, Albany County, New York. It is a suburb of ' +
      'the neighboring city of Albany. Paris is far away, and so is the Atlantic Ocean.'
    const edges = await located(text)
    expect(edges).toEqual(expect.arrayContaining(['Westmere in New York', 'Albany in New York']))
    // Not a city the gazetteer puts in another country, nor an ocean.
    expect(edges.filter((e) => /Paris|Atlantic/.test(e))).toEqual([])
    // Nor in a text that does not open with the place.
    expect(await located(`In 2020, ${text}`)).not.toContain('Albany in New York')
  })

  it('reads the place before a parenthesis, not a place inside it, as what a place statement is about', async () => {
    // Before, "Ōsaka" (in the parenthesis) was the subject: "Ōsaka in Japan" and Osaka Bay in nothing.
    expect(await located('Osaka Bay (Ōsaka - wan) is a bay in western Japan.')).toContain(
      'Osaka Bay in Japan',
    )
  })

  it("reads a Romance particle inside a name, and a zone, a comune or a strait as a place's kind", async () => {
    // Before, "Mola di Bari" (its "di") and "Debub Gondar" (a zone) stayed concepts and lay nowhere.
    expect(await located('Mola di Bari is a town in Italy.')).toEqual(['Mola di Bari in Italy'])
    expect(await located('Debub Gondar is a zone in Ethiopia.')).toEqual([
      'Debub Gondar in Ethiopia',
    ])
    expect(await located('Castel del Monte is a comune in Italy.')).toEqual([
      'Castel del Monte in Italy',
    ])
  })

  it('reads a state the tagger took for a team across a comma, and a subdivision by its kind, as places', async () => {
    const graph = await run(
      'Brookston is a city in Saint Louis County, Minnesota, United States. Płock lies in Masovian ' +
        'Voivodeship, Poland. He moved to Perm Krai.',
    )
    const name = new Map(graph.entities.map((e) => [e.key, e.name]))
    const located = graph.relationships
      .filter((r) => r.name === 'LOCATED_IN')
      .map((r) => `${name.get(r.subjectKey)} in ${name.get(r.objectKey)}`)
    // "Minnesota United" is a club: the tagger made the state an organisation and broke the chain.
    expect(located).toEqual(
      expect.arrayContaining([
        'Saint Louis County in Minnesota',
        'Minnesota in United States',
        'Masovian Voivodeship in Poland',
      ]),
    )
    const labelsOf = (n: string) => graph.entities.find((e) => e.name === n)?.labels
    expect(labelsOf('Minnesota')).toEqual(['PLACE'])
    expect(labelsOf('Masovian Voivodeship')).toEqual(['PLACE'])
    expect(labelsOf('Perm Krai')).toEqual(['PLACE'])
  })

  it('relates a person to the nationality before the role that introduces the name', async () => {
    const found = await edges(
      'Across the Black Waters is an English novel by the Indian writer Mulk Raj Anand. ' +
        'Number Ones is a video album by American recording artist Michael Jackson. ' +
        'A Canadian, the tech writer Jane Doe said, agreed.',
    )
    expect(found.filter((e) => e.includes(' NATIONALITY '))).toEqual([
      'Mulk Raj Anand NATIONALITY Indian',
      'Michael Jackson NATIONALITY American',
    ])
  })

  it('dates a work by the year after its title or before its kind', async () => {
    const dated = await edges(
      'Estefan recorded many albums, and her 1993 album, Mi Tierra, sold well. ' +
        'Inner Life had a hit with "Ain\'t No Mountain High Enough" (1981). ' +
        "Kiarostami directed Close-Up (1990). The album followed Taito's 1986 Arkanoid. " +
        'Juan Lavalle (1797) was a soldier. In 1986 Arkanoid was sold in Europe.',
    )
    expect(dated.filter((e) => e.includes(' DATED '))).toEqual([
      'Mi Tierra DATED 1993',
      "Ain't No Mountain High Enough DATED 1981",
      'Close-Up DATED 1990',
      'Arkanoid DATED 1986',
    ])
  })

  it('types a name by the kind noun before it, and every name of a list such a noun opens', async () => {
    const found = await names(
      'The 1980s saw hard rock bands such as Kamikaze, Alakran and Rata Blanca. ' +
        'Defence companies including Aselsan and Havelsan grew. ' +
        'It is named after the Danish naval officer Christian Krieger.',
    )
    for (const org of ['Kamikaze', 'Alakran', 'Rata Blanca', 'Aselsan', 'Havelsan'])
      expect(found).toContain(`ORGANIZATION:${org}`)
    expect(found).toContain('PERSON:Christian Krieger')
    // A list stops where the text between two names is more than a comma, "and" or "or".
    const after = await names('Bands such as Kamikaze played in Buenos Aires with Mark Ronson.')
    expect(after).toContain('ORGANIZATION:Kamikaze')
    expect(after).not.toContain('ORGANIZATION:Mark Ronson')
  })

  it('ends a name at an opening parenthesis, and reads an abbreviation defined there as the name', async () => {
    // The phrase ran on into the parenthesis and was dropped as code, with both names in it.
    const graph = await run(
      'Janne Johnsen (Conservative Party) is the mayor. The mayor is John Smith (Conservative Party). ' +
        'The line is operated by the Oberelbische Verkehrsgesellschaft Pirna Sebnitz mbH (OVPS). ' +
        'OVPS grew.',
    )
    const found = graph.entities.map((e) => e.name)
    for (const name of ['Janne Johnsen', 'John Smith', 'Conservative Party'])
      expect(found).toContain(name)
    // The aside is never the subject: "Janne Johnsen is mayor", not "Conservative Party is mayor".
    const events = graph.entities.filter((e) => e.labels.includes('EVENT')).map((e) => e.name)
    expect(events).toContain('Janne Johnsen is mayor')
    expect(events.some((name) => name.startsWith('Conservative Party'))).toBe(false)
    // "(OVPS)" abbreviates the name before it: no node of its own, here or in the next sentence.
    expect(found.filter((name) => name.startsWith('Oberelbische'))).toHaveLength(1)
    expect(found).not.toContain('OVPS')
    // It is that node's other name: a search or a later text naming only "OVPS" finds it.
    const company = graph.entities.find((e) => e.name.startsWith('Oberelbische'))!
    expect(company.aliases).toEqual(['OVPS'])
    expect(graph.entities.find((e) => e.name === 'Janne Johnsen')!.aliases).toBeUndefined()
  })

  it('reads an abbreviation of a name the tagger cut at "of" or "for" as that name\'s alias', async () => {
    const graph = await run(
      'The Washington Institute for Near East Policy (WINEP) is a think tank. ' +
        'Students of the Liverpool School of Tropical Medicine (LSTM) study malaria. WINEP grew.',
    )
    const aliases = new Map(graph.entities.map((e) => [e.name, e.aliases]))
    expect(aliases.get('Washington Institute for Near East Policy')).toEqual(['WINEP'])
    expect(aliases.get('Liverpool School of Tropical Medicine')).toEqual(['LSTM'])
    expect([...aliases.keys()]).not.toContain('WINEP')
    expect([...aliases.keys()]).not.toContain('LSTM')
  })

  it('reads a title a sentence opens by defining as one name, typed by the definition', async () => {
    const found = await names(
      'Rage Against the Machine is an American rap metal band. ' +
        'The Lord of the Rings is an epic novel. Danny White of the Dallas Cowboys was a quarterback.',
    )
    expect(found).toContain('ORGANIZATION:Rage Against the Machine')
    expect(found).toContain('CONCEPT:Lord of the Rings')
    for (const piece of ['Against', 'Machine', 'Lord', 'Rings'])
      expect(found.some((n) => n.endsWith(`:${piece}`))).toBe(false)
    expect(found).toContain('PERSON:Danny White')
    expect(found).toContain('ORGANIZATION:Dallas Cowboys')
  })

  it("joins a defined title's later mentions the tagger cut again", async () => {
    const graph = await run(
      'The Lord of the Rings is an epic novel. Peter Jackson adapted the Lord of the Rings in 2001.',
    )
    const found = graph.entities.map((e) => e.name)
    expect(found).not.toContain('Lord')
    expect(found).not.toContain('Rings')
    expect(graph.entities.filter((e) => e.name === 'Lord of the Rings')).toHaveLength(1)
    expect(found).toContain('Peter Jackson adapted Lord of the Rings')
  })

  it("leaves a possessive's apostrophe after an s out of the name", async () => {
    const found = await names("He starred in CBS' legal drama and in NBC's comedy.")
    expect(found).toContain('ORGANIZATION:CBS')
    expect(found.some((n) => n.includes("'"))).toBe(false)
  })

  it('keeps the name a kind word introduces at the end of a phrase too long for a concept', async () => {
    const found = await names(
      'He played two guitar solos for the Italian melodic death metal band Disarmonia Mundi.',
    )
    expect(found).toContain('ORGANIZATION:Disarmonia Mundi')
  })

  it('relates a passive verb\'s agent after "by", and names the event with it', async () => {
    const graph = await run(
      'Don Quixote was written in Spanish by Miguel de Cervantes. The film was directed by Ang Lee.',
    )
    const name = (key: string) => graph.entities.find((e) => e.key === key)!.name
    const events = graph.entities.filter((e) => e.labels.includes('EVENT'))
    expect(events.map((e) => e.name)).toEqual([
      'Don Quixote was written by Miguel de Cervantes',
      'film was directed by Ang Lee',
    ])
    expect(
      graph.relationships.filter((r) => r.name === 'TARGETED').map((r) => name(r.objectKey)),
    ).toEqual(['Miguel de Cervantes', 'Ang Lee'])
  })

  it('types organisations by their head word, and dates as dates, with no bare counts', async () => {
    const found = await names(
      'Alger served with the Royal Canadian Air Force from 1940 to 1945 and had four children.',
    )
    expect(found).toContain('ORGANIZATION:Royal Canadian Air Force')
    expect(found).toContain('DATE:from 1940 to 1945')
    expect(found.some((n) => /:four$/.test(n))).toBe(false)
  })

  it('dates an event by a year alone after a preposition or in parentheses', async () => {
    const graph = await run(
      'Marie Curie moved to Paris in 1891. The band released the album Heroes (1977). ' +
        'Curie married Pierre Curie on 26 July 1895. Curie hired 1500 assistants.',
    )
    const dated = graph.entities
      .filter((e) => e.labels.includes('EVENT'))
      .map((e) => [e.name, e.happenedAt])
    expect(dated).toEqual([
      ['Marie Curie moved Paris', '1891'],
      ['band released album Heroes', '1977'],
      ['Marie Curie married Pierre Curie', '1895-07-26'],
      // A number of a year's size that no preposition or parenthesis dates by is a count.
      ['Marie Curie hired 1500 assistants', null],
    ])
  })

  it('makes each date written with a year a node its events occurred on, and no other date', async () => {
    const graph = await run(
      'Marie Curie moved to Paris in 1891. Curie married Pierre Curie on 26 July 1895. ' +
        'Pierre Curie taught at the Sorbonne from 1900 to 1906. Curie hired 1500 assistants. ' +
        'Curie visited Warsaw on Monday.',
    )
    const name = new Map(graph.entities.map((e) => [e.key, e.name]))
    const occurredOn = graph.relationships
      .filter((r) => r.name === 'OCCURRED_ON')
      .map((r) => [name.get(r.subjectKey), name.get(r.objectKey)])
    expect(occurredOn).toEqual([
      ['Marie Curie moved Paris', '1891'],
      ['Marie Curie married Pierre Curie', '26 July 1895'],
      ['Pierre Curie taught Sorbonne', '1900'],
      ['Pierre Curie taught Sorbonne', '1906'],
    ])
    for (const date of ['1891', '26 July 1895', '1900', '1906'])
      expect(graph.entities.find((e) => e.name === date)?.labels).toEqual(['DATE'])
  })

  it('takes a range of counts for no date or time, and keeps times of day', async () => {
    const counts = await run(
      'Each source id holds 1 to 256 characters, and a page from 1 to 10 links.',
    )
    expect(counts.entities.filter((e) => e.labels.includes('DATE'))).toEqual([])
    expect(counts.entities.find((e) => e.labels.includes('EVENT'))?.happenedAt ?? null).toBeNull()
    const timed = await run('Emily opened the AI Ethics Meetup at 10 am.')
    expect(timed.entities.find((e) => e.labels.includes('EVENT'))?.happenedAt).toMatch(/T\d\d:/)
  })

  it('types a country by its dotted initialism, and a "person" ending in a road or a county a place', async () => {
    const found = await names(
      'He moved to the U.S. in 1990. The shop is on Wayne Gretzky Drive, and they lived near Franklin Lakes.',
    )
    expect(found).toEqual(
      expect.arrayContaining(['PLACE:U.S.', 'PLACE:Wayne Gretzky Drive', 'PLACE:Franklin Lakes']),
    )
    expect(found.filter((n) => n.startsWith('PERSON:') || n.startsWith('ORGANIZATION:'))).toEqual(
      [],
    )
  })

  it('types organisations by designators of agencies and services, and by those of other languages', async () => {
    const found = await names(
      'It was listed on the American Stock Exchange. She worked for the National Park Service and the ' +
        'United States Geological Survey. He studied at the Escuela Nacional de Bellas Artes, the ' +
        'Universidad de Chile and the Faculty of Law. The film was made by Walt Disney Pictures.',
    )
    expect(found).toEqual(
      expect.arrayContaining([
        'ORGANIZATION:American Stock Exchange',
        'ORGANIZATION:National Park Service',
        'ORGANIZATION:United States Geological Survey',
        'ORGANIZATION:Escuela Nacional de Bellas Artes',
        'ORGANIZATION:Universidad de Chile',
        'ORGANIZATION:Faculty of Law',
        'ORGANIZATION:Walt Disney Pictures',
      ]),
    )
    expect(found).not.toContain('PERSON:Walt Disney Pictures')
  })

  it('types companies by broadcasting, software and newspaper designators', async () => {
    const found = await names(
      'Raven Software released the game in 1994. Hunan Television broadcast the show. ' +
        'She wrote for the Chicago Tribune.',
    )
    expect(found).toEqual(
      expect.arrayContaining([
        'ORGANIZATION:Raven Software',
        'ORGANIZATION:Hunan Television',
        'ORGANIZATION:Chicago Tribune',
      ]),
    )
  })

  it('takes the name after an office written as a title, past what qualifies the office, for a person', async () => {
    const found = await names(
      'Padden lost to former Georgia Governor Jimmy Carter. He advised Vice-President Joe Biden. ' +
        'It was sold to General Motors New Zealand Limited.',
    )
    expect(found).toEqual(expect.arrayContaining(['PERSON:Jimmy Carter', 'PERSON:Joe Biden']))
    expect(found.filter((n) => n.startsWith('PERSON:'))).not.toContain(
      'PERSON:Motors New Zealand Limited',
    )
  })

  it('reads a kind word\'s "of" phrase and a name\'s numbering as part of the name', async () => {
    const found = await names(
      'He fought in the Battle of Midway and served in World War I and World War II. ' +
        'The War of the Spanish Succession ended in 1714, and the Duchy of Burgundy fell. ' +
        'After the Civil War I moved to Ohio.',
    )
    expect(found).toEqual(
      expect.arrayContaining([
        'CONCEPT:Battle of Midway',
        'CONCEPT:World War I',
        'CONCEPT:World War II',
        'CONCEPT:War of the Spanish Succession',
        'PLACE:Duchy of Burgundy',
        'CONCEPT:Civil War',
      ]),
    )
    expect(found.filter((n) => /:(?:Battle|Midway|World War|Duchy|Civil War I)$/.test(n))).toEqual(
      [],
    )
  })

  it('takes a title for part of a name, and a title alone for no one', async () => {
    const found = await names('Dr. Smith met Ms. Jones in Boston. She earned a PhD in Economics.')
    expect(found).toContain('PERSON:Smith')
    expect(found).toContain('PERSON:Jones')
    // The abbreviation's period cut neither a concept "Dr" nor a second "Smith" from the name.
    expect(found.filter((n) => /:(?:Dr|Ms|Smith|Jones)$/.test(n)).sort()).toEqual([
      'PERSON:Jones',
      'PERSON:Smith',
    ])
    expect(found).not.toContain('PERSON:PhD')
  })

  it("reads a name's initials as part of it, and a defined person's surname as that person", async () => {
    const found = await names(
      'Samuel C. Brightman (1911 – 1992) was a journalist. Brightman started his career early. ' +
        'The album was composed by A. R. Rahman. Patients took vitamin C. Patients then slept.',
    )
    // No concept "Samuel C" cut at the initial, and the defined person's later surname is he.
    expect(found.filter((n) => /Brightman|Samuel/.test(n))).toEqual(['PERSON:Samuel C. Brightman'])
    expect(found).toContain('PERSON:A. R. Rahman')
    expect(found).toContain('CONCEPT:vitamin C')
    expect(found.some((n) => n.includes('C. Patients'))).toBe(false)
  })

  it('takes the name of a "Qualifier kind Name" phrase as a mention of its own, beside the phrase', async () => {
    const found = await names(
      'Surreal is a song by Japanese recording artist Ayumi Hamasaki. He joined English football club Everton.',
    )
    expect(found).toContain('CONCEPT:Japanese recording artist Ayumi Hamasaki')
    expect(found).toContain('PERSON:Ayumi Hamasaki')
    expect(found).toContain('ORGANIZATION:Everton')
  })

  it('reads a common word opening a sentence as the lower-case kind word before a name', async () => {
    const found = await names(
      'Chief executive Tim Cook opened the campus. Former president Barack Obama visited Berlin. ' +
        'Japanese recording artist Ayumi Hamasaki sang.',
    )
    // Before: also the concepts "Chief executive Tim Cook" and "Former president Barack Obama".
    expect(found.filter((n) => /Cook|Obama/.test(n))).toEqual([
      'PERSON:Tim Cook',
      'PERSON:Barack Obama',
    ])
    // A nationality is capitalised anywhere: the phrase stays beside the name.
    expect(found).toContain('CONCEPT:Japanese recording artist Ayumi Hamasaki')
  })

  it('takes a possessor without its ending, and keeps a possessive inside a name', async () => {
    const found = await names(
      "He served in Boris Yeltsin's administration. Elves live in J.R.R. Tolkien's fictional universe. " +
        "She studied at King's College London and fed her dog's toys to it.",
    )
    expect(found).toContain('PERSON:Boris Yeltsin')
    expect(found).toContain('PERSON:J.R.R. Tolkien')
    // What a name possesses is no concept of its own.
    expect(found.filter((n) => /administration|universe/.test(n))).toEqual([])
    expect(found).toContain("ORGANIZATION:King's College London")
    expect(found).toContain("CONCEPT:dog's toys")
    expect(found.some((n) => /['’]s?$/.test(n))).toBe(false)
  })

  it("splits a place's possessive from the name after it, and keeps a saint's whole", async () => {
    const found = await names(
      "He worked on Tehran's Central Railway Station. Italy's Franca Raimondi sang first. " +
        "She studied at London's St. Martin's College and sailed to Martha's Vineyard.",
    )
    expect(found).toEqual(
      expect.arrayContaining([
        'PLACE:Tehran',
        'PLACE:Central Railway Station',
        'PLACE:Italy',
        'PLACE:London',
        "ORGANIZATION:St. Martin's College",
        "CONCEPT:Martha's Vineyard",
      ]),
    )
    // The name after the possessive is a mention of its own (typed by its own cues, none here).
    expect(found.some((n) => n.endsWith(':Franca Raimondi'))).toBe(true)
    expect(found.filter((n) => /Tehran's|Italy's|London's/.test(n))).toEqual([])
  })

  it("takes an organisation's kind word alone for the organisation named before with it", async () => {
    const found = await names(
      'Calgary City Council approved the plan. Later the Council voted against the Board.',
    )
    expect(found).toContain('ORGANIZATION:Calgary City Council')
    expect(found).not.toContain('ORGANIZATION:Council')
    // No organisation before it ends with "Board": it stays itself.
    expect(found).toContain('ORGANIZATION:Board')
  })

  it("names an event by the whole phrase its object's possessive opens", async () => {
    const graph = await run(
      "The Wolves are LeBron's favourite team. Melanie painted Caroline's new house last week.",
    )
    const events = graph.entities.filter((e) => e.labels.includes('EVENT')).map((e) => e.name)
    expect(events).toEqual([
      "Wolves are LeBron's favourite team",
      "Melanie painted Caroline's new house",
    ])
  })

  it("keeps the year of a named event's edition, so editions stay apart", async () => {
    const found = await names(
      'She competed at the 2008 Summer Olympics in Beijing. He ran at the 2012 Summer Olympics. ' +
        'In 2008 Summer Smith won.',
    )
    expect(found).toContain('CONCEPT:2008 Summer Olympics')
    expect(found).toContain('CONCEPT:2012 Summer Olympics')
    expect(found).not.toContain('CONCEPT:Summer Olympics')
    // A year before a name that is no event's stays out of it.
    expect(found).toContain('PERSON:Summer Smith')
  })

  it("names an event by its subject's possessive phrase, and the possessor only takes part", async () => {
    const graph = await run("John's sister moved to Boston in 2001.")
    const [event] = graph.entities.filter((e) => e.labels.includes('EVENT'))
    expect(event!.name).toBe("John's sister moved Boston")
    const john = graph.entities.find((e) => e.name === 'John')!
    const edges = graph.relationships.filter(
      (r) => r.subjectKey === john.key || r.objectKey === john.key,
    )
    // John did not move: his edge to the event is a participant's, not the verb's.
    expect(edges.map((r) => [r.subjectKey, r.name, r.objectKey])).toEqual([
      [event!.key, 'INVOLVED', john.key],
    ])
  })

  it('takes no bare number in a date for a date, nor a range of decimals for hours', async () => {
    const decimals = await run(
      'The index loaded in 0.33-0.38 s. The speed-up was 1.09 to 1.19 on that host.',
    )
    expect(decimals.entities.filter((e) => e.labels.includes('DATE'))).toEqual([])
    expect(decimals.entities.filter((e) => e.happenedAt)).toEqual([])
    const found = await names('The server answers within 60 s. Emily met Bob at 10 on Monday.')
    expect(found.filter((n) => n.startsWith('DATE:'))).toEqual([])
  })

  it("types a name as its text defines it, at every mention, over the tagger's lexicon", async () => {
    const found = await names(
      'Everton is an English football club based in Liverpool. Tim Cahill played for Everton. ' +
        'Seddon Atkinson was a British truck manufacturer. Seddon Atkinson built lorries in Oldham. ' +
        'Herman is a town in Dodge County, Wisconsin.',
    )
    expect(found).toContain('ORGANIZATION:Everton')
    expect(found).not.toContain('PLACE:Everton')
    expect(found).toContain('ORGANIZATION:Seddon Atkinson')
    expect(found).not.toContain('PERSON:Seddon Atkinson')
    expect(found).toContain('PLACE:Liverpool')
    expect(found).toContain('PERSON:Tim Cahill')
    // A place as defined, where the lexicon knows a man's name (it was a concept before 2026-12-06).
    expect(found.filter((n) => n.endsWith(':Herman'))).toEqual(['PLACE:Herman'])
  })

  it('takes no code fragment as an entity', async () => {
    const found = await names('Call of(entityUuid) before Store.get(key) returns.')
    expect(found.some((n) => /[()]/.test(n))).toBe(false)
  })

  it("takes a turn's speaker for a person in every turn, and a label that is a common word for no one", async () => {
    const speakers = async (text: string) =>
      (await run(text)).entities.filter((e) => e.labels.includes('PERSON')).map((e) => e.name)
    // compromise reads "Tim:" before "The" as an interjection; the label alone is a name.
    expect(await speakers('Tim: The Wolves are solid.')).toEqual(['Tim'])
    expect(await speakers("Caroline: I love Melanie's kids.")).toEqual(['Caroline', 'Melanie'])
    expect(await speakers('Note: this is slow.')).toEqual([])
    // Names compromise does not know, from the given-name lists: before, no one, and "I" no one either.
    expect(await speakers('Priya: I booked the flights to Rotterdam.')).toEqual(['Priya'])
    expect(await eventNames('Priya: I booked the flights to Rotterdam.')).toEqual([
      'Priya booked flights',
    ])
    expect(await speakers('Oluwaseun Adeyemi: We moved to Lagos.')).toEqual(['Oluwaseun Adeyemi'])
    expect(await speakers('Major: Computer Science')).toEqual([])
    // The speaker's name in another turn is that person, not a concept beside it.
    const graph = await run('Priya: I booked the flights.\nAnika: Thanks Priya! When do we leave?')
    expect(graph.entities.filter((e) => e.name === 'Priya').map((e) => e.labels)).toEqual([
      ['PERSON'],
    ])
  })

  it('takes labels a conversation uses for its speakers, as the lexicon reads them or not', async () => {
    // "Maya" is an interjection to the lexicon and "Leo" a noun: before, neither was a speaker, and no
    // "I" had an event.
    const chat =
      'Maya: Did you see that Jordan got the job at Spotify?\n' +
      'Leo: Yes! He starts in Stockholm next month.\n' +
      'Maya: I still owe him the book I borrowed.'
    const graph = await run(chat)
    const people = graph.entities.filter((e) => e.labels.includes('PERSON')).map((e) => e.name)
    expect(people.sort()).toEqual(['Jordan', 'Leo', 'Maya'])
    const events = graph.entities.filter((e) => e.labels.includes('EVENT')).map((e) => e.name)
    expect(events).toContain('Maya owe book')
    // "He" is someone the speakers talk about, not the first speaker (the text's first person).
    expect(events).toContain('Leo: Jordan starts Stockholm')
    // Nor is the first speaker the text's main person, whom "his" or "her" involves.
    const dog = await run('Maya: I love Lisbon.\nLeo: His dog chased the ball in the park.')
    const maya = dog.entities.find((e) => e.name === 'Maya')!.key
    const chased = dog.entities.find((e) => e.properties?.verb === 'chased')!.key
    expect(dog.relationships.some((r) => r.subjectKey === chased && r.objectKey === maya)).toBe(
      false,
    )
    // Nor is a speaker what "It" or "They" stands for: before, "It is special to me" was an
    // observation of Caroline's and "Melanie was stoked dinosaur exhibit" an event.
    const museum = await run(
      "Caroline: Yeah, I painted that lake sunrise last year! It's special to me.\n" +
        'Melanie: They were stoked for the dinosaur exhibit!',
    )
    expect(museum.observations.map((o) => o.text)).toEqual([
      'Caroline: Yeah, I painted that lake sunrise last year!',
    ])
    expect(museum.entities.filter((e) => e.labels.includes('EVENT')).map((e) => e.name)).toEqual([
      'Caroline painted lake sunrise',
    ])
    // Nor does "they" reach back past a speaker to someone named before ("Jon have great classes").
    expect(
      await eventNames(
        'Caroline: I met Jon at the gym.\nMelanie: Cool! They have great classes there.',
      ),
    ).toEqual(['Caroline met Jon'])
    // A record's fields are no speakers, though "Name" and "Price" are listed given names.
    const record = await run('Name: Ada Lovelace\nPrice: 5 dollars\nCity: London')
    expect(record.entities.filter((e) => e.labels.includes('PERSON')).map((e) => e.name)).toEqual([
      'Ada Lovelace',
    ])
  })

  it("ends a verb's clause at a subordinating conjunction with a subject pronoun of its own", async () => {
    // Before: "Caroline was Jon", the object taken from the clause of "when I met".
    expect(await eventNames('Caroline: I was in Paris when I met Jon.')).toEqual([
      'Caroline was Paris',
    ])
  })

  it('takes each labelled line of a transcript in one passage for the next turn', async () => {
    // Before: only the passage's first label was a speaker (Melanie was no one, her trip no event).
    expect(await eventNames('Caroline: I went to Paris.\nMelanie: I went to Rome.')).toEqual([
      'Caroline went Paris',
      'Melanie went Rome',
    ])
    expect(
      await eventNames(
        'User: I moved to Boston.\nAssistant: I visited Denver once.\nUser: I work at Google.',
      ),
    ).toEqual(['User moved Boston', 'User work Google'])
  })

  it('takes a chat transcript\'s "User:" for the person User, and "I" after another role for no one', async () => {
    // Before: "User:" was no one, so "I" went to the last person named ("Melanie took Fenway Park").
    expect(await eventNames('User: Melanie visited me in May. I took her to Fenway Park.')).toEqual(
      ['User: Melanie visited User', 'User took Fenway Park'],
    )
    expect(await eventNames('Human: I moved to Boston.')).toEqual(['User moved Boston'])
    expect(await eventNames('Assistant: Melanie told me about Jon. I went to Paris.')).toEqual([
      'Melanie told Jon',
    ])
  })

  it('gives "I" outside a turn and a quotation to no one: the writer, whom the text does not name', async () => {
    // Before: "Anika promised Priya" and "Tom Becker asked Tom Becker".
    expect(
      await eventNames(
        'Her sister Anika is getting married in Lisbon. I promised to send Priya the slides.',
      ),
    ).toEqual(['Anika is getting married Lisbon'])
    expect(await eventNames('Tom Becker called. We met Priya in Oakland.')).toEqual([])
    // Nor does the name before such a pronoun become the subject (before: "Last visited grandmother").
    expect(await eventNames('Last summer I visited my grandmother in Kraków.')).toEqual([])
    // A third person takes the name up again.
    expect(
      await eventNames('The volunteers at the shelter, they helped Maria every week.'),
    ).toEqual(['volunteers helped Maria'])
    // In a sentence that quotes, "I" is whose words they are: the last person named.
    expect(await eventNames('Tom Becker called. "I will send the slides," he said.')).toEqual([
      'Tom Becker will send slides',
    ])
  })

  it('gives "I" in a conversation turn to its speaker, not to the last person named', async () => {
    const graph = await run('Caroline: I love it. Melanie told me about Jon. I went to Paris.')
    const events = graph.entities.filter((e) => e.labels.includes('EVENT')).map((e) => e.name)
    expect(events).toContain('Caroline went Paris')
    expect(events.some((e) => e.startsWith('Melanie went'))).toBe(false)
  })

  it("takes an event's object from its verb's clause", async () => {
    const graph = await run('Caroline: I moved to Boston last year and I work at Google.')
    const [event] = graph.entities.filter((e) => e.labels.includes('EVENT'))
    // Before: "Caroline moved Google" (the first mention that is no place, in the next clause).
    expect(event!.name).toBe('Caroline moved Boston')
    const key = (name: string) => graph.entities.find((e) => e.name === name)!.key
    const legs = graph.relationships
      .filter((r) => r.subjectKey === event!.key)
      .map((r) => [r.name, r.objectKey])
    expect(legs).toContainEqual(['TARGETED', key('Boston')])
    // The next clause's mention still takes part in the sentence's event.
    expect(legs).toContainEqual(['INVOLVED', key('Google')])
  })

  it("ends a verb's clause at a second verb of its subject after a comma and a conjunction", async () => {
    // Before: "Wayne Gretzky lived Commission on Judicial Conduct" (the next clause's organisation).
    expect(
      await eventNames(
        'Wayne Gretzky lived in Saint John, New Brunswick, and served on the Commission on Judicial Conduct.',
      ),
    ).toEqual(['Wayne Gretzky lived Saint John'])
    // A list of names after the verb is no second clause.
    expect(await eventNames('Marie Curie visited Paris, Rome, and Vienna.')).toEqual([
      'Marie Curie visited Paris',
    ])
  })

  it("ends a verb's clause at a dash as at a semicolon", async () => {
    // Before: "Marie Curie moved physics" (the first mention that is no place, past the dash).
    for (const dash of ['—', ' — ', ' – ', ' - '])
      expect(
        await eventNames(
          `Marie Curie moved to Paris in 1891${dash}she studied physics at the Sorbonne.`,
        ),
        JSON.stringify(dash),
      ).toEqual(['Marie Curie moved Paris'])
  })

  it('takes a place the verb goes to as its object, before a person named after it', async () => {
    // Before: "Marie Curie moved Pierre Curie" (the first mention that is no place).
    const graph = await run('Marie Curie moved to Paris in 1891 with Pierre Curie.')
    const key = (name: string) => graph.entities.find((e) => e.name === name)!.key
    const event = graph.entities.find((e) => e.labels.includes('EVENT'))
    expect(event?.name).toBe('Marie Curie moved Paris')
    const legs = graph.relationships
      .filter((r) => r.subjectKey === event!.key)
      .map((r) => [r.name, r.objectKey])
    expect(legs).toContainEqual(['TARGETED', key('Paris')])
    expect(legs).toContainEqual(['INVOLVED', key('Pierre Curie')])
    // Only "to" and "into" make the place the goal: "in" is where something else happened.
    expect(await eventNames('Caroline: I went into Boston with Melanie.')).toEqual([
      'Caroline went Boston',
    ])
    expect(await eventNames('Caroline: I moved back to Boston with Melanie.')).toEqual([
      'Caroline moved Boston',
    ])
    expect(await eventNames('Caroline: I met Melanie in Boston.')).toEqual(['Caroline met Melanie'])
    expect(await eventNames('Caroline: I talked in Boston with Melanie.')).toEqual([
      'Caroline talked Melanie',
    ])
  })

  it('reads a clause after a semicolon with its own subject and verb as a sentence', async () => {
    // Before: "Olga Petrova manages hiring Ana Ruiz" (the second clause's object, its subject lost).
    expect(await eventNames('Olga Petrova manages hiring; she reports to Ana Ruiz.')).toEqual([
      'Olga Petrova reports Ana Ruiz',
    ])
    expect(
      await eventNames(
        'Lena raised concerns about the invoice; Priya agreed to review it with Marc.',
      ),
    ).toEqual(['Lena raised concerns invoice', 'Priya agreed Marc'])
    // A list in semicolons stays one sentence: every place is where the event occurred.
    const list = await run('Anna Berg lived in Paris, France; Berlin, Germany; and Rome, Italy.')
    const event = list.entities.find((e) => e.labels.includes('EVENT'))!
    const legs = list.relationships.filter((r) => r.subjectKey === event.key)
    const place = (key: string) => list.entities.find((e) => e.key === key)!.name
    expect(legs.map((r) => place(r.objectKey)).sort()).toEqual([
      'Berlin',
      'France',
      'Germany',
      'Italy',
      'Paris',
      'Rome',
    ])
  })

  it('takes no one a greeting addresses as the subject of what follows', async () => {
    // Before: "Tom thanks update" of an e-mail to Tom, and the concept "Dear Anna".
    const mail = await run('Hi Tom, thanks for the update. Best, Sarah')
    expect(mail.entities.filter((e) => e.labels.includes('EVENT'))).toEqual([])
    const dear = await names('Dear Anna, Marc visited the Louvre.')
    expect(dear).toContain('PERSON:Anna')
    expect(dear.filter((n) => n.includes('Dear'))).toEqual([])
    expect(await eventNames('Hello Maria! Tom booked the flights.')).toEqual(['Tom booked flights'])
    // A name listed with others before the verb is its subject, greeting or not.
    expect(await eventNames('Tom, Anna and Marc founded Acme.')).toEqual([
      'Tom, Anna and Marc founded Acme',
    ])
  })

  it('takes the goal over the origin, and names an origin it takes with "from"', async () => {
    // Before: "Kenji Sato moved Paris" (where he left) and "Kenji Sato joined Rakuten" (whom he left).
    expect(await eventNames('Kenji Sato moved from Paris to Berlin.')).toEqual([
      'Kenji Sato moved Berlin',
    ])
    expect(await eventNames('Kenji Sato transferred from the Ajax academy to Barcelona.')).toEqual([
      'Kenji Sato transferred Barcelona',
    ])
    expect(await eventNames('Kenji Sato joined in March from Rakuten.')).toEqual([
      'Kenji Sato joined from Rakuten',
    ])
    expect(await eventNames('Anna graduated from MIT in 2010.')).toEqual([
      'Anna graduated from MIT',
    ])
    // "from" after the object is no origin of the verb.
    expect(await eventNames('Anna received a letter from Tom.')).toEqual(['Anna received letter'])
  })

  it('takes a subject pronoun before the verb over a name in a phrase before it', async () => {
    // Before: "husband discovered elements polonium" and "Caroline: Mel went Boston".
    expect(
      await eventNames(
        'Marie Curie was a physicist. Together with her husband, she discovered polonium.',
      ),
    ).toEqual(['Marie Curie was physicist', 'Marie Curie discovered polonium'])
    expect(await eventNames('Caroline: Mel, I went to Boston yesterday.')).toEqual([
      'Caroline went Boston',
    ])
    // "I" or "we" after an opening word, with no name before it: before, no event at all.
    expect(await eventNames('Caroline: Hey Mel! Yesterday I went to Boston.')).toEqual([
      'Caroline went Boston',
    ])
    expect(await eventNames('Melanie: Last week we took the kids to the beach.')).toEqual([
      'Melanie took kids',
    ])
    // A name right before the verb is still its subject.
    expect(await eventNames('Caroline: Mel, my brother Jon moved to Boston.')).toEqual([
      'Caroline: Jon moved Boston',
    ])
  })

  it('reads a subject pronoun with a contracted auxiliary as the subject', async () => {
    // Before: no event in a turn's later sentences ("I'm" was not read as "I"), and the name before
    // it was the subject in the same sentence ("Mel, I'm moving" made Mel move).
    expect(await eventNames("Jon: Thanks! I'm working on my business.")).toEqual([
      'Jon is working business',
    ])
    expect(await eventNames('Jon: Hey Gina! I’ve emailed some wholesalers.')).toEqual([
      'Jon has emailed wholesalers',
    ])
    expect(await eventNames("Caroline: Mel, I'm moving to Boston.")).toEqual([
      'Caroline is moving Boston',
    ])
    expect(
      await eventNames("Melanie: The kids loved it. Yeah, we're taking them to the beach."),
    ).toEqual(['Melanie is taking them to beach'])
  })

  it('names a contracted auxiliary as written out, agreeing with the speaker', async () => {
    // Before: "Jon open dance studio" (a plan read as done), "Gina been Paris", "Jon not going Boston".
    expect(await eventNames("Jon: I'll open a dance studio in Boston.")).toEqual([
      'Jon will open dance studio',
    ])
    expect(await eventNames("Gina: We've been to Paris.")).toEqual(['Gina has been Paris'])
    expect(await eventNames("Jon: I'm not going to Boston.")).toEqual(['Jon is not going Boston'])
    expect(await eventNames('Jon: I have worked on my business.')).toEqual([
      'Jon has worked business',
    ])
    // A contracted copula alone is still no event ("I'm here", "Here's a pic"), as before, but for "I'm"
    // before an adjective and its preposition (below).
    expect(await eventNames("Caroline: I'm here with a pic.")).toEqual([])
    expect(await eventNames("Caroline: Here's a pic of the kids.")).toEqual([])
  })

  it("takes a sentence's verb from outside a parenthesis that names nothing", async () => {
    // Before: "Martin Ulrich born retired Austrian ice hockey defenceman", the aside's verb.
    expect(
      await eventNames(
        'Martin Ulrich (born December 16, 1969) is a retired Austrian ice hockey defenceman.',
      ),
    ).toEqual(['Martin Ulrich is retired Austrian ice hockey defenceman'])
    // An aside that names a place is what its verb relates.
    expect(
      await eventNames(
        'Wilfried Schneider (born 13 March 1963 in Mediaș, Transylvania) is a German skeleton racer.',
      ),
    ).toEqual(['Wilfried Schneider born Mediaș'])
    // What such a verb relates lies in its parenthesis: before, "Pavol Sedlák born SK Schwadorf".
    expect(
      await eventNames(
        'Pavol Sedlák (born 21 November 1979 in Bratislava) is a Slovak footballer, who currently plays for SK Schwadorf.',
      ),
    ).toEqual(['Pavol Sedlák born Bratislava'])
    // A common noun is not what an aside's verb relates: before, "Tyche meaning luck".
    expect(
      await eventNames(
        'Tyche (from Túkhē, meaning luck) was the presiding tutelary deity who governed the fortune of a city.',
      ),
    ).toEqual(['Tyche governed fortune'])
    // A parenthesis holding the verb alone is a label: before, "Tomás Silva backend Lena Vogel".
    expect(
      await eventNames('Attendees: Priya Raman (PM), Tomás Silva (backend), Lena Vogel (design).'),
    ).toEqual([])
    // A verb giving another name is an aside's: before, "Lookin Ass titled Lookin Ass Nigga".
    expect(
      await eventNames(
        '"Lookin Ass" (originally titled "Lookin Ass Nigga") is a song by American rapper Nicki Minaj.',
      ),
    ).toEqual(['Lookin Ass is song'])
  })

  it("takes a passive verb's agent past a nationality that describes it", async () => {
    // Before: "... was established by Australian".
    expect(
      await eventNames(
        'The Association of Australian Artistes was established in London in 1975 by Australian expatriate James Hunt.',
      ),
    ).toEqual(['Association of Australian Artistes was established by James Hunt'])
  })

  it('names an object opened by a nationality adjective with its noun', async () => {
    // Before: "Edvard Munch was Norwegian" and "Caroline love Italian": the adjective is the mention.
    expect(await eventNames('Edvard Munch was a Norwegian painter.')).toEqual([
      'Edvard Munch was Norwegian painter',
    ])
    expect(await eventNames('Caroline: I love Italian food and French wine.')).toEqual([
      'Caroline love Italian food',
    ])
    // After "is a" or "was an", the nationality is the object, before a noun further on: before,
    // "Alfred Geist Zantzinger was documentaries" and "Patrick Stettner is writer".
    expect(
      await eventNames(
        'Alfred Geist Zantzinger was an American documentary filmmaker specializing in documentaries.',
      ),
    ).toEqual(['Alfred Geist Zantzinger was American documentary filmmaker'])
    expect(await eventNames('Patrick Stettner is an American film director and writer.')).toEqual([
      'Patrick Stettner is American film director',
    ])
  })

  it("reads a month's name inside a person's name as part of the name", async () => {
    // Before: "August" was a date, the name overlapping it was dropped, and the sentence had no subject.
    const found = await names(
      'Henrik August Angell was a military officer. June Carter Cash was a singer.',
    )
    expect(found).toContain('PERSON:Henrik August Angell')
    expect(found).toContain('PERSON:June Carter Cash')
    // A month after a word that dates it stays a date.
    const graph = await run('Melanie: I went camping in August with my kids.')
    expect(graph.entities.find((e) => e.labels.includes('EVENT'))?.happenedAt).toMatch(/-08/)
  })

  it('reads a title in quotation marks as one name', async () => {
    // Before: "Lord" and "Rings", the person "Nicole" and the event 'Caroline loved "becoming Nicole'.
    expect(await eventNames('Caroline: I loved "Becoming Nicole" by Amy Ellis Nutt.')).toEqual([
      'Caroline loved Becoming Nicole',
    ])
    const found = await names(
      'Joanna: I watched "The Lord of the Rings" last night. Nate: Yeah! "The Name of the Wind" is great.',
    )
    expect(found).toContain('CONCEPT:The Lord of the Rings')
    expect(found).toContain('CONCEPT:The Name of the Wind')
    expect(found).not.toContain('PERSON:Nicole')
    // Written again without quotation marks, its article in small letters or not, it is the same title.
    const again = await names(
      'Tim: I am reading "The Name of the Wind". The Name of the Wind has a sequel. ' +
        'I think the Name of the Wind is great.',
    )
    expect(again.filter((n) => n.endsWith('Wind'))).toEqual(['CONCEPT:The Name of the Wind'])
    // A number inside a title is no date; a full stop inside the closing quote is not part of it.
    const game = await names(
      'Nate: I play "Cyberpunk 2077" and we did a piece called "Finding Freedom."',
    )
    expect(game).toContain('CONCEPT:Cyberpunk 2077')
    expect(game).toContain('CONCEPT:Finding Freedom')
    expect(game.filter((n) => n.startsWith('DATE:'))).toEqual([])
    const song = await run('Anna: I sang "Friday" by Rebecca Black.')
    const sang = song.entities.find((e) => e.labels.includes('EVENT'))
    expect(sang?.name).toBe('Anna sang Friday')
    expect(sang?.happenedAt).toBeNull()
    // A quoted sentence, a lone pronoun and a nickname are no titles.
    const other = await names(
      'John: The sign says "Always look on the bright side of life". I saw "That"! Wilfried "Willi" Schneider played.',
    )
    expect(other.filter((n) => n.includes('Always') || n.includes('That'))).toEqual([])
    // A noun phrase ends where a quotation opens: before, the concept 'concept "daughter Lily'.
    const phrase = await names('The concept "daughter Lily" was typed as a person.')
    expect(phrase.filter((n) => n.includes('"'))).toEqual([])
    expect(phrase).toContain('CONCEPT:concept')
    // Nor a quotation cut after a small word, which no title ends with.
    expect(
      await names('Hundreds joined the "Part of the Kurdistan Workers and" march.'),
    ).not.toContain('CONCEPT:Part of the Kurdistan Workers and')
    expect(other).toContain('PERSON:Wilfried Schneider')
    // In single quotation marks, as British usage writes them. Before: the closing mark read as a plural
    // possessive ("Blinders'"), no event, and the concepts "Name" and "Wind'".
    expect(
      await eventNames("The BBC drama 'Peaky Blinders' starred Cillian Murphy in ‘The Crown’."),
    ).toEqual(['Peaky Blinders starred Cillian Murphy'])
    // A title's marks quote no one: "We" is the writer's (before: "Olga Petrova watched BBC").
    expect(
      await eventNames(
        'Olga Petrova manages hiring. We watched the drama "Peaky Blinders" with Anna.',
      ),
    ).toEqual([])
    // A word of a quoted title is no verb of the sentence (before: "group connected all kinds").
    expect(
      await eventNames(
        'Caroline: Our group, "Connected LGBTQ Activists", is made of all kinds of people.',
      ),
    ).toEqual(['Caroline: Connected LGBTQ Activists is made all kinds'])
    const single = await names(
      "Tim: I read 'The Name of the Wind' and the Smiths' 'Meat Is Murder'.",
    )
    expect(single).toContain('CONCEPT:The Name of the Wind')
    expect(single).toContain('CONCEPT:Meat Is Murder')
    expect(single.filter((n) => n.includes("'"))).toEqual([])
  })

  it("reads a weekday's abbreviation opening a name as part of the name", async () => {
    // Before: chrono-node read "Sun" as last Sunday, and the name overlapping it was dropped.
    expect(await eventNames('Oracle bought Sun Microsystems in 2010.')).toEqual([
      'Oracle bought Sun Microsystems',
    ])
    expect(await names('Sun Yat-sen founded the Kuomintang.')).toContain('PERSON:Sun Yat-sen')
    // After a word that dates it, it stays a date.
    const graph = await run('Melanie: We went hiking on Sun with the kids.')
    expect(graph.entities.find((e) => e.labels.includes('EVENT'))?.happenedAt).toBe('2024-04-07')
  })

  it('takes the verb after an adverb that splits its group, and names the event without the adverb', async () => {
    // Before: "John Smith was Senate", "Anna Berg has Sony Music", "understanding will people": the
    // group ended at the auxiliary, and a passive lost its agent ("band was Ian Brown" went to the object).
    expect(await eventNames('John Smith was later elected to the Senate in 1990.')).toEqual([
      'John Smith was elected Senate',
    ])
    expect(await eventNames('Anna Berg has also worked with Sony Music in London.')).toEqual([
      'Anna Berg has worked Sony Music',
    ])
    expect(await eventNames('Their understanding will really help the people.')).toEqual([
      'understanding will help people',
    ])
    const graph = await run('The band was originally formed in Manchester by Ian Brown.')
    const event = graph.entities.find((e) => e.labels.includes('EVENT'))!
    expect(event.name).toBe('band was formed by Ian Brown')
    const target = graph.relationships.find(
      (r) => r.eventKey === event.key && r.name === 'TARGETED',
    )
    expect(graph.entities.find((e) => e.key === target?.objectKey)?.name).toBe('Ian Brown')
    // An adverb before an adjective leaves the copula alone.
    expect(await eventNames('Caroline: I was very excited about the parade.')).toEqual([
      'Caroline was very excited about parade',
    ])
  })

  it('keeps a name whole whose first word reads as a verb, in a sentence that defines it', async () => {
    // Before: the names "Enix" and "Caves", and no event (the verb "Square" had no subject).
    const found = await names(
      'Square Enix is a Japanese video game company. Camp Caves was a US Army training camp.',
    )
    // The company's defining noun types it.
    expect(found).toContain('ORGANIZATION:Square Enix')
    expect(found.some((n) => n.endsWith(':Camp Caves'))).toBe(true)
    expect(found.some((n) => /:(?:Enix|Caves)$/.test(n))).toBe(false)
    expect(await eventNames('Square Enix is a Japanese video game company.')).toEqual([
      'Square Enix is Japanese video game company',
    ])
    // A wish or an order keeps its verb, and a person's name after it stays a person.
    expect(await names('Hope Jon is a good friend.')).toContain('PERSON:Jon')
    // Any finite verb of the name after it. Before: "Falcon".
    for (const text of ['Project Falcon is late.', 'Project Falcon started in May.'])
      expect(await names(text)).toContain('CONCEPT:Project Falcon')
    expect(await names('Visit Paris and Rome.')).toEqual(['PLACE:Paris', 'PLACE:Rome'])
  })

  it('takes a sentence opening with "It" for one about the thing the text is about, unless "it" is expletive', async () => {
    // Before: no event in the second and third sentences (no subject). An expletive "it" is no one's:
    // without that exception, "Fingerpori is said Jarla" and "Fingerpori was Helsinki".
    expect(
      await eventNames(
        'Fingerpori is a Finnish comic strip. It is drawn by Pertti Jarla. It was first published in ' +
          'Helsingin Sanomat in 2007. It is said that Jarla lived in Oulu. It was important to visit Helsinki.',
      ),
    ).toEqual([
      'Fingerpori is Finnish comic',
      'Fingerpori is drawn by Pertti Jarla',
      'Fingerpori was published Helsingin Sanomat',
    ])
    // A text about a person: "it" is never that person.
    expect(await eventNames('Marie Curie was a physicist. It was a cold winter in Paris.')).toEqual(
      ['Marie Curie was physicist'],
    )
  })

  it("reads a relative clause after a copula's complement as the subject's verb", async () => {
    // Before: "Marie Curie was Nobel Prizes" and "Property Brothers is Cineflix".
    expect(
      await eventNames('Marie Curie was a Polish physicist who won two Nobel Prizes.'),
    ).toEqual(['Marie Curie won Nobel Prizes'])
    expect(
      await eventNames(
        'Property Brothers is a Canadian reality television series that is produced by Cineflix.',
      ),
    ).toEqual(['Property Brothers is produced by Cineflix'])
    // "who" or "which" after a comma describes the complement too.
    expect(
      await eventNames(
        'Lehmann Bernheimer was a German antique dealer, who built the Bernheimer-Haus in Munich.',
      ),
    ).toEqual(['Lehmann Bernheimer built Bernheimer-Haus'])
    expect(await eventNames('Melanie: Oliver is a dog that always loves the park.')).toEqual([
      'Melanie: Oliver loves park',
    ])
    // The pronoun refers to another noun, or is the clause's object: the copula stays the verb.
    expect(
      await eventNames('Irène is the daughter of Pierre Curie, who discovered radium.'),
    ).toEqual(['Irène is daughter'])
    expect(await eventNames('Melanie: Oliver is a dog that I love.')).toEqual([
      'Melanie: Oliver is dog',
    ])
  })

  it('takes a personal pronoun right after the verb as its object when its clause names nothing', async () => {
    // Before: "Albert Einstein admired character", a noun from past the semicolon.
    const text =
      'Marie Curie was a physicist. Albert Einstein admired her; he praised her character.'
    // The clause after the semicolon is a sentence of its own, with its own event.
    expect(await eventNames(text)).toEqual([
      'Marie Curie was physicist',
      'Albert Einstein admired Marie Curie',
      'Albert Einstein praised character',
    ])
    expect(await eventNames('Melanie: Caroline helped me.')).toEqual([
      'Melanie: Caroline helped Melanie',
    ])
    // "her" before a noun is a possessive; a clause that names something keeps that as the object.
    expect(
      await eventNames('Marie Curie was a physicist. Albert Einstein admired her work.'),
    ).toEqual(['Marie Curie was physicist', 'Albert Einstein admired work'])
    expect(await eventNames('Melanie: Caroline told me about Jon.')).toEqual([
      'Melanie: Caroline told Jon',
    ])
  })

  it('takes no interjection of chat as an entity, nor a greeting into a name', async () => {
    const graph = await run('Nate: Thanks Nate! Cool, here it is. Congrats on the win! Great job.')
    const found = graph.entities.filter((e) => !e.labels.includes('EVENT'))
    const byName = new Map(found.map((e) => [e.name, e.labels]))
    for (const word of ['Thanks', 'Thanks Nate', 'Cool', 'Congrats', 'Great'])
      expect(byName.has(word), word).toBe(false)
    expect(byName.get('Nate')).toEqual(['PERSON'])
    expect(byName.get('win')).toEqual(['CONCEPT'])
    // An exclamation before a name is cut from it; a word that is also a name stays one past the reply.
    const names = async (text: string) =>
      (await run(text)).entities.filter((e) => !e.labels.includes('EVENT')).map((e) => e.name)
    expect(await names('Joanna: Woah Joanna, that is great!')).toEqual(['Joanna'])
    // A reply or an imperative the tagger joins to the given name after it, at the opening of a turn.
    expect(await names("Jon: Absolutely Jon, let's do it!")).toEqual(['Jon'])
    expect(await names("Joanna: Anytime Nate! I'm here for you.")).toContain('Nate')
    expect(await names("Joanna: Anytime Nate! I'm here for you.")).not.toContain('Anytime Nate')
    expect(await names('Gina: Remember Jon, the studio opens at nine.')).toContain('Jon')
    expect(await names('Gina: Remember Jon, the studio opens at nine.')).not.toContain(
      'Remember Jon',
    )
    // A name whose first word is no reply stays whole at the opening.
    expect(await names('Gina: Rob Thomas sang that song.')).toContain('Rob Thomas')
    expect(await names('Gina: Sue Perkins hosts the show.')).toContain('Sue Perkins')
    expect(await names('Maria moved to Nice in 2019.')).toContain('Nice')
    // An abbreviated discourse marker opening a turn is no entity, and no event's subject.
    const fyi = await run('Melanie: FYI, I joined the support group in Boston.')
    expect(fyi.entities.map((e) => e.name)).not.toContain('FYI')
    expect(fyi.entities.filter((e) => e.labels.includes('EVENT')).map((e) => e.name)).toEqual([
      'Melanie joined support group',
    ])
  })

  it("names a turn's event about someone else with the turn's speaker", async () => {
    expect(await eventNames('Caroline: My friend Jen lives in Denver.')).toEqual([
      'Caroline: Jen lives Denver',
    ])
    // The speaker's own events and text with no turns are named as before.
    expect(await eventNames('Caroline: I moved to Denver.')).toEqual(['Caroline moved Denver'])
    expect(await eventNames('My friend Jen lives in Denver.')).toEqual(['Jen lives Denver'])
  })

  it('takes the field names of records for no entity, as a CSV upload is ingested', async () => {
    const found = await names(
      'Name: Ada Lovelace\nCity: London\nRole: mathematician\n\n' +
        'Name: Grace Hopper\nCity: New York\nRole: admiral',
    )
    expect(found).toEqual(
      expect.arrayContaining(['PERSON:Ada Lovelace', 'PLACE:London', 'PLACE:New York']),
    )
    expect(found.filter((n) => /:(?:Name|City|Role)$/.test(n))).toEqual([])
    const lower = await names('name: Ada Lovelace\ncity: London\n\nname: Grace Hopper\ncity: Paris')
    expect(lower.filter((n) => /:(?:name|city)$/i.test(n))).toEqual([])
    // A JSON document as `jsonToText` writes it: a field's path is a field name, even used once.
    // Before: concepts "contact.city" and "contact.email".
    const json = await names(
      'customer: Acme Corp\ncontact.city: Denver\ncontact.email: jane@acme.example\norders[0].product: Falcon X2 drone',
    )
    expect(json).toEqual(expect.arrayContaining(['ORGANIZATION:Acme Corp', 'PLACE:Denver']))
    expect(json.filter((n) => /contact|orders/.test(n))).toEqual([])
    // A label's word the tagger reads as a verb is no verb: before, no event (the verb "notes").
    expect(
      await eventNames('customer: Acme Corp\nnotes: Jane Doe asked Bob for a discount.'),
    ).toEqual(['Jane Doe asked Bob'])
    expect(await eventNames('Remark: Jane Doe asked Bob for a discount.')).toEqual([
      'Jane Doe asked Bob',
    ])
    // A speaker's label names a person, however often it opens a line.
    expect(
      await names('Caroline: I went to Paris.\nMelanie: I went to Rome.\nCaroline: Cool.'),
    ).toEqual(expect.arrayContaining(['PERSON:Caroline', 'PERSON:Melanie']))
  })

  it('takes no auxiliary opening a question for a name', async () => {
    const found = await names(
      'User: Can you remind me when my dentist appointment is?\nUser: Could you book a table at Nopa?',
    )
    expect(found).not.toContain('CONCEPT:Can')
    expect(found).not.toContain('CONCEPT:Could')
    expect(found).toContain('CONCEPT:dentist appointment')
    // A word of that shape that is a name stays one.
    expect(await names('Will Smith called. May Chen moved to Paris.')).toContain(
      'PERSON:Will Smith',
    )
  })

  it('relates no person addressed at the end of a turn', async () => {
    // Before: "Caroline: bowl is Mel", "Caroline sounds Mel".
    expect(await eventNames('Caroline: That bowl is amazing, Mel!')).toEqual([])
    expect(await eventNames('Caroline: That sounds great, Mel! 😊')).toEqual([])
    expect(await eventNames('Caroline: I went to the park with Mel.')).toEqual([
      'Caroline went park',
    ])
    // An appositive still leaves its noun the object; outside a conversation nothing changes.
    expect(await eventNames('Caroline: I visited my brother, Jon.')).toEqual([
      'Caroline visited brother',
    ])
  })

  it('takes no pro-form for a concept, and relates nothing a negative one stands for', async () => {
    const found = [
      ...(await names('Melanie: I love it here.')),
      ...(await names('Jon: Anyone can do it. Nobody told me.')),
      ...(await names('Gina: Thanks for being there for me!')),
      ...(await names('Jon: Is there anything I can do to help?')),
    ]
    for (const word of ['here', 'Anyone', 'Nobody', 'there', 'Is'])
      expect(found.filter((n) => n.endsWith(`:${word}`))).toEqual([])
    // Before: "Caroline has friends" (the next noun, past "nothing"), earlier "Caroline has nothing".
    expect(
      await eventNames('Caroline: I have nothing to do today, none of my friends are there.'),
    ).toEqual([])
    expect(await eventNames('Melanie: I saw nobody at the park.')).toEqual([])
    expect(await eventNames('Caroline: I have a dog.')).toEqual(['Caroline has dog'])
  })

  it('takes no function word for a concept', async () => {
    const found = await names(
      'Caroline: Since then I have painted for a while. Melanie: What a trip!',
    )
    expect(found.filter((n) => n.startsWith('CONCEPT:')).sort()).toEqual(['CONCEPT:trip'])
  })

  it('reads a word in capitals that the text also writes in small letters as that word', async () => {
    // The acronym rule typed "NULL" and "ENTITY" organisations (the docs brain: "Entity", 51 passages).
    const found = await names(
      'A migration adds the column with NULL, and reads fill sourceId: null. Types come before ENTITY when an entity is typed later.',
    )
    expect(found).toEqual(expect.arrayContaining(['CONCEPT:NULL', 'CONCEPT:ENTITY']))
    expect(found.filter((n) => n.startsWith('ORGANIZATION:'))).toEqual([])
    // An acronym the text never writes as a word is still an organisation.
    expect(await names('He joined ASCAP in 1952 and left the society in 1960.')).toContain(
      'ORGANIZATION:ASCAP',
    )
  })

  it('takes no imperative opening a turn for a concept', async () => {
    const found = await names(
      "Jon: Keep it up!\nGina: Go for it!\nJon: Let's keep going and chase our dreams!",
    )
    expect(found).not.toContain('CONCEPT:Keep')
    expect(found).not.toContain('CONCEPT:Go')
    expect(found).not.toContain('CONCEPT:Let')
    expect(found).toContain('CONCEPT:dreams')
    expect(await eventNames("Jon: Let's keep going and chase our dreams!")).toEqual([
      'Jon keep going dreams',
    ])
    // The same word as the subject of a verb stays a concept.
    expect(await names('Jon: Love is all you need.')).toContain('CONCEPT:Love')
  })

  it('takes no symbol into a name, but the ampersand of a company', async () => {
    const names = async (text: string) =>
      (await run(text)).entities.filter((e) => !e.labels.includes('EVENT')).map((e) => e.name)
    const path = await names('The shortest path runs Ada → Babbage → Royal Society.')
    expect(path.filter((n) => n.includes('→'))).toEqual([])
    expect(path).toContain('Ada')
    expect(await names('He worked at Procter & Gamble.')).toContain('Procter & Gamble')
  })

  it('reads Markdown as its text: no heading, emphasis, link or code syntax in a name', async () => {
    const text =
      '# Analytical Engine notes\n\n**Ada Lovelace** worked with Charles Babbage in London.\n\n- a [plan](https://example.org/plan) of the engine\n\n```\nconst x = of(entityUuid)\n```\n'
    const { entities, observations } = await run(text)
    const found = entities.map((e) => e.name)
    expect(found).toEqual(expect.arrayContaining(['Ada Lovelace', 'Charles Babbage', 'London']))
    expect(found.filter((n) => /[#*[\]()`]|https|entityUuid/.test(n))).toEqual([])
    expect(entities.find((e) => e.name === 'Ada Lovelace')!.labels).toEqual(['PERSON'])
    for (const o of observations) expect(o.text).not.toMatch(/\*\*| {2}/)
  })

  it('keeps punctuation and line breaks out of names and verbs, as Markdown leaves them', async () => {
    const { entities } = await run(
      "The window is read from `happened_at`, `as_of`, `known_at` and the ingestion's `source_timestamp`.\n" +
        'Ask the local\nextractor. `POST /model/relationship` takes `valid_at` (default: `happened_at`,\nelse now).',
    )
    const found = entities.map((e) => e.name)
    expect(found).toEqual(expect.arrayContaining(['happened_at', 'as_of', 'known_at']))
    // No name holds a comma standing apart, a line break or a run of spaces, events' verbs included.
    expect(found.filter((n) => / ,|\n| {2}/.test(n))).toEqual([])
  })

  it('links the named participants of a sentence through its event and places in a list', async () => {
    const graph = await run(
      'Schneider coached Jon Montgomery to victory at the 2010 Winter Olympics in Vancouver, British Columbia.',
    )
    const key = (name: string) => graph.entities.find((e) => e.name === name)!.key
    const event = graph.entities.find((e) => e.labels.includes('EVENT'))!
    const legs = graph.relationships.filter((r) => r.eventKey === event.key).map((r) => r.objectKey)
    expect(legs).toContain(key('2010 Winter Olympics'))
    expect(legs).toContain(key('Vancouver'))
    expect(
      graph.relationships.some(
        (r) =>
          r.name === 'LOCATED_IN' &&
          r.subjectKey === key('Vancouver') &&
          r.objectKey === key('British Columbia'),
      ),
    ).toBe(true)
  })

  it('takes the name out of a kind-and-name phrase, and joins an organisation across "of"', async () => {
    const found = await names(
      'He played with the band Ladytron. She studied at the Liverpool School of Tropical Medicine.',
    )
    expect(found).toContain('ORGANIZATION:Ladytron')
    expect(found).toContain('ORGANIZATION:Liverpool School of Tropical Medicine')
  })

  it('reads a first name as a place before a state, named as written', async () => {
    const found = await names('It broadcasts in Saint John, New Brunswick. He died in Nancy.')
    expect(found).toContain('PLACE:Saint John')
    expect(found).toContain('PLACE:Nancy')
    expect(found.filter((n) => n.startsWith('PERSON:'))).toEqual([])
  })

  it('takes an acronym in a passage with code for a term, unless its words make it an organisation', async () => {
    const found = await names(
      'The graph is an HNSW index; `hnswlib-node` keeps it. The WAL journal holds the pages.',
    )
    expect(found).toEqual(expect.arrayContaining(['CONCEPT:HNSW', 'CONCEPT:WAL']))
    expect(found.filter((n) => n.startsWith('ORGANIZATION:'))).toEqual([])
    expect(
      await names('The `tfjs` backend was developed by NVRA engineers, then by NVRA alone.'),
    ).toContain('ORGANIZATION:NVRA')
    // Prose without code keeps the acronym rule.
    const prose = await names('The graph is an HNSW index. The WAL journal holds the pages.')
    expect(prose).toEqual(expect.arrayContaining(['ORGANIZATION:HNSW', 'ORGANIZATION:WAL']))
  })

  it("joins an organisation's remit when it is a list, and no two organisations", async () => {
    expect(
      await names('He studied at the Moscow School of Painting, Sculpture and Architecture.'),
    ).toContain('ORGANIZATION:Moscow School of Painting, Sculpture and Architecture')
    expect(await names('The National Council for Peace and Order took power.')).toContain(
      'ORGANIZATION:National Council for Peace and Order',
    )
    const two = await names('She was a member of the Academy of Sciences and the Royal Society.')
    expect(two).toEqual(
      expect.arrayContaining(['ORGANIZATION:Academy of Sciences', 'ORGANIZATION:Royal Society']),
    )
    expect(await names('He taught at the University of Alberta and McGill University.')).toEqual(
      expect.arrayContaining([
        'ORGANIZATION:University of Alberta',
        'ORGANIZATION:McGill University',
      ]),
    )
    expect(await names('He taught at the University of Alberta and Toronto.')).toContain(
      'PLACE:Toronto',
    )
  })

  it('types no name inside an inline code span', async () => {
    const found = await names('Set `Mary Shelley` as the name. Mary Shelley wrote Frankenstein.')
    expect(found).toContain('CONCEPT:Mary Shelley')
    expect(found).toContain('PERSON:Mary Shelley')
  })

  it('joins an organisation to its remit across "for", and a deliberating body across "on"', async () => {
    const found = await names(
      'She worked at the Hospital for Tropical Diseases. He chaired the Commission on Judicial Conduct.',
    )
    expect(found).toContain('ORGANIZATION:Hospital for Tropical Diseases')
    expect(found).toContain('ORGANIZATION:Commission on Judicial Conduct')
    expect(found).not.toContain('CONCEPT:Tropical Diseases')
    // An army on an island, and a chamber's seat, are no remit.
    expect(await names('The Army on Okinawa surrendered.')).not.toContain(
      'ORGANIZATION:Army on Okinawa',
    )
    expect(await names('He was a Member of Parliament for Mpwapwa.')).not.toContain(
      'ORGANIZATION:Parliament for Mpwapwa',
    )
  })

  it('reads a team from its home and plural, and its nickname alone as the team', async () => {
    const found = await names(
      'He played for the Kansas City Royals and the Edmonton Oilers. The Royals released him in 1990.',
    )
    expect(found).toContain('ORGANIZATION:Kansas City Royals')
    expect(found).toContain('ORGANIZATION:Edmonton Oilers')
    expect(found.filter((n) => /Royals$/.test(n))).toEqual(['ORGANIZATION:Kansas City Royals'])
    // "The Oilers" alone is no bare surname that would make "Edmonton Oilers" a person.
    const team = await names('He played for the Edmonton Oilers. The Oilers won the Stanley Cup.')
    expect(team).toContain('ORGANIZATION:Edmonton Oilers')
    expect(team.filter((n) => n.startsWith('PERSON:'))).toEqual([])
    expect(await names('Orlando Jones starred in it. Jones said it was fun.')).toContain(
      'PERSON:Orlando Jones',
    )
  })

  it('reads a given name and a place-like surname as a person beside a person cue', async () => {
    // Before: "Mary Field" and "Peter Hall" were places (the tagger reads "Field" and "Hall" as heads of
    // place names), so "Mary Field was born in Leeds" had no subject and no event.
    expect(await names('Mary Field was born in Leeds.')).toContain('PERSON:Mary Field')
    expect(await eventNames('Mary Field was born in Leeds.')).toEqual(['Mary Field was born Leeds'])
    expect(await names('Peter Hall (born 1931) is an English director.')).toContain(
      'PERSON:Peter Hall',
    )
    // Without a cue, or without a given name, the place stays.
    expect(await names('She moved to Albert Hall in 1990.')).toContain('PLACE:Albert Hall')
    expect(await names('Victoria Park was opened in 1845.')).toContain('PLACE:Victoria Park')
  })

  it('reads no person in a product named after its company, nor a title or role in a name', async () => {
    // The tagger reads "Toyota Avalon" as a person ("Avalon" is a given name).
    const found = await names(
      'The Toyota Avalon is a full-size car produced by Toyota in the United States. Toyota ' +
        'marketed the Avalon as a replacement for the Toyota Cressida, a model discontinued in 1992.',
    )
    expect(found).toContain('ORGANIZATION:Toyota')
    expect(found).toContain('CONCEPT:Toyota Avalon')
    expect(found.filter((n) => n.startsWith('PERSON:'))).toEqual([])
    const people = await names(
      'Guitarist Jimmy Page joined later. The Prime Minister met Lieutenant-General Sir George Prevost.',
    )
    expect(people).toContain('PERSON:Jimmy Page')
    expect(people).toContain('PERSON:George Prevost')
    expect(people).not.toContain('PERSON:Prime Minister')
  })

  it('reads a one-word name after a kinship or acquaintance noun as a person', async () => {
    const found = await names(
      'My daughter Lily just started kindergarten. My neighbor Zoltan lent us his ladder.',
    )
    expect(found).toContain('PERSON:Lily')
    expect(found).toContain('PERSON:Zoltan')
    expect(found).not.toContain('CONCEPT:daughter Lily')
    // Any other kind word before one word leaves the phrase as it was.
    expect(await names('Their dog Biscuit barked.')).toContain('CONCEPT:dog Biscuit')
  })

  it('names an event by the adjective and preposition after a copula, and by a place it acts on', async () => {
    expect(await eventNames('Melanie is afraid of spiders.')).toEqual([
      'Melanie is afraid of spiders',
    ])
    // The tagger reads this "to" as a conjunction.
    expect(await eventNames('Tom is allergic to peanuts, so we never keep them.')).toEqual([
      'Tom is allergic to peanuts',
    ])
    expect(await eventNames('John was happy with the new car.')).toEqual([
      'John was happy with new car',
    ])
    expect(await eventNames('Caroline: I am so proud of my kids.')).toEqual([
      'Caroline is so proud of kids',
    ])
    // "I'm" alone had no name, so the sentence no event; another pronoun's contraction keeps none.
    expect(await eventNames("Joanna: I'm allergic to most reptiles.")).toEqual([
      'Joanna is allergic to most reptiles',
    ])
    expect(await eventNames("Maria: You're really inspiring with your commitment.")).toEqual([])
    // "to me": the preposition's object is no mention, so the copula stays alone.
    expect(
      await eventNames('Mental health is important to me, and Jen helped.'),
    ).not.toContainEqual(expect.stringContaining('important to'))
    // A place straight after the verb is its object; a companion after "with" is not.
    expect(
      await eventNames('Dana and her husband Tom hiked Mount Hood with their dog Max.'),
    ).toEqual(['Tom hiked Mount Hood'])
    // A place after a preposition stays where the event happened.
    expect(await eventNames('Dana met Omar in Paris.')).toEqual(['Dana met Omar'])
  })

  it('reads the short Curie text of issue 27 as a person would', async () => {
    const graph = await run(
      'Marie Curie was a Polish and naturalised-French physicist and chemist. She was the first woman ' +
        'to win a Nobel Prize. In 1895 she married the French physicist Pierre Curie. Albert Einstein ' +
        'admired her; Einstein later wrote that she was the only one whom fame had not corrupted.',
    )
    const labelOf = (name: string) => graph.entities.find((e) => e.name === name)?.labels
    // A phrase with no capital is no person, so "she" is still Marie Curie.
    expect(labelOf('first woman')).toEqual(['CONCEPT'])
    const events = graph.entities.filter((e) => e.labels.includes('EVENT')).map((e) => e.name)
    expect(events).toContain('Marie Curie married French physicist Pierre Curie')
    // Nobody admires himself: the later "Einstein" is the subject again, not what was admired.
    expect(events).not.toContain('Albert Einstein admired Albert Einstein')
    expect(events.filter((name) => name.startsWith('Albert Einstein admired'))).toHaveLength(1)
  })

  it('gives an event to every name coordinated with its subject', async () => {
    const graph = await run('Marie Curie and Pierre Curie discovered polonium in 1898.')
    const [event] = graph.entities.filter((e) => e.labels.includes('EVENT'))
    // Before: "Pierre Curie discovered polonium", Marie Curie only taking part.
    expect(event!.name).toBe('Marie Curie and Pierre Curie discovered polonium')
    const name = (key: string) => graph.entities.find((e) => e.key === key)!.name
    const doers = graph.relationships.filter((r) => r.objectKey === event!.key)
    expect(doers.map((r) => [name(r.subjectKey), r.name])).toEqual([
      ['Marie Curie', 'DISCOVERED'],
      ['Pierre Curie', 'DISCOVERED'],
    ])
    expect(await eventNames('Tom, Anna and Lisa Berg founded Acme Corp in 1999.')).toEqual([
      'Tom, Anna and Lisa Berg founded Acme Corp',
    ])
    // Not a list a preposition governs, nor names side by side with no "and".
    expect(await eventNames('The marriage of Marie and Pierre produced two daughters.')).toEqual([
      'Pierre produced two daughters',
    ])
    expect(await eventNames('Tom, a friend of Anna, founded Acme Corp.')).toEqual([
      'Tom founded Acme Corp',
    ])
  })

  it('takes the subject before "from" or "at", not the name the phrase adds', async () => {
    // Before: "Acme Robotics presented new warehouse pilot", "Morgan Stanley expect rate cut".
    expect(
      await eventNames(
        'Sarah Chen from Acme Robotics presented the new warehouse pilot in Rotterdam.',
      ),
    ).toEqual(['Sarah Chen presented new warehouse pilot'])
    expect(await eventNames('A researcher at the MIT Media Lab published the study.')).toEqual([
      'researcher published study',
    ])
  })

  it('ends a verb\'s clause at "and" and a second verb of its subject, with or without a comma', async () => {
    // Before: "Grace Hopper was born Vassar College", the object taken from the second verb's clause.
    expect(
      await eventNames(
        'Grace Hopper was born in New York City in 1906 and graduated from Vassar College in 1928.',
      ),
    ).toEqual(['Grace Hopper was born New York City'])
  })

  it('relates the subject to what each further verb of its clause names, by an edge', async () => {
    // Before: no edge to Vassar College but the event's INVOLVED leg.
    expect(
      await edges(
        'Grace Hopper was born in New York City in 1906 and graduated from Vassar College in 1928.',
      ),
    ).toEqual(['Grace Hopper GRADUATED Vassar College'])
    // A verb in the present tense ends the clause too. Before: "Bob Martin lives Airbus".
    expect(
      await eventNames('Bob Martin is a doctor. He lives in Lyon and works at Airbus.'),
    ).toEqual(['Bob Martin is doctor', 'Bob Martin lives Lyon'])
    expect(await edges('Bob Martin lives in Lyon and works at Airbus.')).toEqual([
      'Bob Martin WORKS Airbus',
    ])
    // "joined" is an adjective to the tagger there; not in "was tired and bored".
    expect(await edges('In 2024 Bob Martin moved to Toulouse and joined Siemens.')).toEqual([
      'Bob Martin JOINED Siemens',
    ])
    // Each further verb in turn, with a comma or without.
    expect(
      await edges(
        'Wayne Gretzky lived in Saint John, and served on the Commission on Judicial Conduct and joined the Liberal Party.',
      ),
    ).toEqual([
      'Wayne Gretzky SERVED Commission on Judicial Conduct',
      'Wayne Gretzky JOINED Liberal Party',
    ])
    // Not a gerund (a noun to the reader), nor a verb after "or", nor one with a subject of its own.
    expect(await edges('Siemens sells trains and consulting to Deutsche Bahn.')).toEqual([])
    // A possessor does none of it: "John Smith JOINED Google" was his sister's doing.
    expect(await edges("John Smith's sister moved to Boston and joined Google.")).toEqual([])
    // Named things at both ends: no edge to "company", none from "band".
    expect(await edges('Bob Martin moved to Lyon and started a company.')).toEqual([])
    expect(await edges('The band moved to Lyon and signed with Universal Music.')).toEqual([])
    expect(
      await edges(
        'Sunlight in Arizona is more of a hazard than wind or rain in the Sonoran Desert.',
      ),
    ).toEqual([])
    // After a semicolon, a clause with its own subject relates that subject: Anna worked at Fiat.
    expect(
      await edges('Bob Martin moved to Paris; Anna stayed in Rome and worked at Fiat.'),
    ).toEqual(['Anna WORKED Fiat'])
  })

  it('relates a name a relative clause describes after a comma to what the clause names, by an edge', async () => {
    // Before: no edge; Shopify only took part in the event about the manager.
    expect(await edges('The user’s manager is David Kim, who joined Shopify in 2021.')).toEqual([
      'David Kim JOINED Shopify',
    ])
    expect(await edges('The river flows into Lake Geneva, which borders France.')).toEqual([
      'Lake Geneva BORDERS France',
    ])
    expect(await edges('Ana met Tom Hanks, who later visited Rome.')).toEqual([
      'Tom Hanks VISITED Rome',
    ])
    // Not the sentence's own verb again, nor a clause about a common noun or naming only one.
    expect(await edges('Marie Curie, who won the Nobel Prize, was born in Warsaw.')).toEqual([])
    expect(await edges('Ana met the dealer, who built the Bernheimer-Haus.')).toEqual([])
    expect(await edges('Ana met Tom Hanks, who joined the team.')).toEqual([])
    // Nor the last place of a chain, which the clause may not be about.
    expect(
      (await edges('The Ducks are a team based in Beijing, China, which plays in the CBA.')).filter(
        (e) => !e.includes('LOCATED_IN'),
      ),
    ).toEqual([])
    expect(
      await edges('Lehmann Bernheimer was a German antique dealer, who built the Bernheimer-Haus.'),
    ).toEqual([])
  })

  it('keeps "it" and its preposition in the name of an event whose object the pronoun is', async () => {
    // Before: "Tim Cook unveiled Steve Jobs Theater", "Caroline bought Target".
    expect(await eventNames('Tim Cook unveiled it at the Steve Jobs Theater.')).toEqual([
      'Tim Cook unveiled it at Steve Jobs Theater',
    ])
    expect(await eventNames('FedEx lists it as delayed in Chicago.')).toEqual([
      'FedEx lists it as delayed in Chicago',
    ])
    expect(await eventNames('Caroline: I bought them at Target yesterday.')).toEqual([
      'Caroline bought them at Target',
    ])
  })

  it('reads a nationality opening a state named by its kind as part of that name', async () => {
    // Before: "Dutch" was a place of its own beside "Dutch Republic".
    const graph = await run('The war between Spain and the Dutch Republic ended in 1648.')
    const places = graph.entities.filter((e) => e.labels.includes('PLACE')).map((e) => e.name)
    expect(places.sort()).toEqual(['Dutch Republic', 'Spain'])
  })

  it('types the names a plural role introduces after a comma as people', async () => {
    // Before: "Daniel Park" was a place (the tagger's, for "Park"), and "Park" a concept beside it.
    const graph = await run(
      'Contoso was founded by two former Microsoft engineers, Daniel Park and Aisha Khan. Park ' +
        'became chief technology officer.',
    )
    const people = graph.entities.filter((e) => e.labels.includes('PERSON')).map((e) => e.name)
    expect(people.sort()).toEqual(['Aisha Khan', 'Daniel Park'])
    expect(graph.entities.some((e) => e.name === 'Park')).toBe(false)
  })

  it('reads a listed given name the tagger takes for a verb, and a result between two names', async () => {
    // Before: "Erling" a gerund (no subject, "Haaland" a concept); "Manchester City beat Arsenal" one
    // concept and no event.
    const graph = await run(
      'Manchester City beat Arsenal 3-1 at the Etihad Stadium on Sunday. Erling Haaland scored twice.',
    )
    const people = graph.entities.filter((e) => e.labels.includes('PERSON')).map((e) => e.name)
    expect(people).toEqual(['Erling Haaland'])
    expect(graph.entities.some((e) => e.name === 'Haaland')).toBe(false)
    const events = graph.entities.filter((e) => e.labels.includes('EVENT')).map((e) => e.name)
    expect(events).toContain('Manchester City beat Arsenal')
  })

  it('reads a participle alone before "by" as a passive with its agent', async () => {
    // Before: "Researchers led Anna Lindqvist", "deal announced Maria Gonzalez".
    expect(
      await eventNames('Researchers led by Anna Lindqvist found that the effect was stronger.'),
    ).toEqual(['Researchers led by Anna Lindqvist'])
    expect(
      await eventNames('The deal, announced by CEO Maria Gonzalez in Seattle, closes in March.'),
    ).toEqual(['deal announced by Maria Gonzalez'])
  })

  it('ties a sentence opening with a pronoun to the first person of the text', async () => {
    const graph = await run(
      'Anna Berg was a Swedish painter. Her teacher Karl Holm admired Lund. She moved to Paris.',
    )
    const key = (name: string) => graph.entities.find((e) => e.name === name)!.key
    const events = graph.entities.filter((e) => e.labels.includes('EVENT'))
    const legsOf = (event: (typeof events)[number]) =>
      graph.relationships
        .filter((r) => r.eventKey === event.key)
        .flatMap((r) => [r.subjectKey, r.objectKey])
    const moved = events.find((e) => e.properties?.verb === 'moved')!
    expect(legsOf(moved)).toContain(key('Anna Berg'))
    const admired = events.find((e) => e.properties?.verb === 'admired')!
    expect(legsOf(admired)).toContain(key('Anna Berg'))
  })

  it('gives "he" and "she" to the main person unless a given name or title rules it out', async () => {
    const subjects = async (text: string) => {
      const graph = await run(text)
      const name = (key: string | undefined) => graph.entities.find((e) => e.key === key)?.name
      const events = graph.entities.filter((e) => e.labels.includes('EVENT'))
      const observed = graph.observations.map((o) => [o.text, name(o.aboutKey)])
      return {
        // The edge from an event's subject (the one leg that ends at the event).
        events: events.map((e) => [
          e.properties?.verb,
          name(graph.relationships.find((r) => r.objectKey === e.key)?.subjectKey),
        ]),
        observed,
      }
    }
    // The sister is no named person: nothing says John competed.
    const sister = await subjects(
      "John's sister moved to Boston in 2001. She competed at the 2008 Summer Olympics.",
    )
    expect(sister.events.map(([verb]) => verb)).toEqual(['moved'])
    expect(sister.observed.map(([, about]) => about)).toEqual(['John'])
    const curie = await subjects(
      'Pierre Curie married Marie Sklodowska in 1895. She discovered polonium. He taught physics in Paris.',
    )
    expect(curie.events).toEqual([
      ['married', 'Pierre Curie'],
      ['discovered', 'Marie Sklodowska'],
      ['taught', 'Pierre Curie'],
    ])
    // A pronoun after an opening phrase is the main person too, not the last person named.
    const opened = await subjects(
      'Marie Curie was born in Warsaw. She followed her sister Bronisława to Paris. In 1895, she married Pierre Curie.',
    )
    expect(opened.events.find(([verb]) => verb === 'married')).toEqual(['married', 'Marie Curie'])
    const titled = await subjects('Mrs. Green met Tom in Rome. She praised Harvard.')
    expect(titled.events).toEqual([
      ['met', 'Green'],
      ['praised', 'Green'],
    ])
  })

  it('relates the subject of the main clause after an opening clause that names none', async () => {
    const graph = await run(
      'Born in Warsaw, Marie Curie moved to Paris. Having won the race, John celebrated with Mary. ' +
        'Check the docs, then run the server.',
    )
    const name = (key: string) => graph.entities.find((e) => e.key === key)!.name
    expect(
      graph.relationships.map((r) => `${name(r.subjectKey)} -${r.name}-> ${name(r.objectKey)}`),
    ).toEqual(['Marie Curie -MOVED-> Paris', 'John -CELEBRATED-> Mary'])
    // An edge, no event node: the retrieval walk reads the nodes a passage mentions.
    expect(graph.entities.filter((e) => e.labels.includes('EVENT'))).toEqual([])
  })

  it('ties a sentence opening with a definite description to the first thing a text about no person names', async () => {
    const graph = await run(
      'Polar Music is a Swedish record label. The label signed ABBA in Stockholm in 1972.',
    )
    const topic = graph.entities.find((e) => e.name === 'Polar Music')!.key
    const signed = graph.entities.find((e) => e.properties?.verb === 'signed')!
    const legs = graph.relationships.filter((r) => r.eventKey === signed.key)
    expect(legs.some((r) => r.subjectKey === topic || r.objectKey === topic)).toBe(true)
  })

  it('ties a definite description to the band or company a text is about, though it names a person', async () => {
    const graph = await run(
      'Polar Music is a Swedish record label founded by Stig Anderson. The label signed ABBA in Stockholm in 1972.',
    )
    const topic = graph.entities.find((e) => e.name === 'Polar Music')!.key
    const signed = graph.entities.find((e) => e.properties?.verb === 'signed')!
    const legs = graph.relationships.filter((r) => r.eventKey === signed.key)
    expect(legs.some((r) => r.objectKey === topic)).toBe(true)
  })

  it('types a person by a given name of another language the tagger does not know', async () => {
    for (const [text, name] of [
      ['Kwame Nkrumah led Ghana to independence in 1957.', 'Kwame Nkrumah'],
      ['The exhibition showed works by Auguste Rodin in Paris.', 'Auguste Rodin'],
    ]) {
      const graph = await run(text!)
      expect(graph.entities.find((e) => e.name === name)?.labels, name).toEqual(['PERSON'])
    }
  })

  it('relates a place heading a sentence to the places it lies in, with no event', async () => {
    const graph = await run(
      'Foots Creek is an unincorporated community in Jackson County, in the U.S. state of Oregon.',
    )
    const key = (name: string) => graph.entities.find((e) => e.name === name)!.key
    const located = graph.relationships
      .filter((r) => r.name === 'LOCATED_IN' && r.subjectKey === key('Foots Creek'))
      .map((r) => r.objectKey)
    expect(located).toEqual([key('Jackson County'), key('U.S.'), key('Oregon')])
    expect(graph.entities.some((e) => e.labels.includes('EVENT'))).toBe(false)
  })

  it('puts a division in the country its kind is qualified by, and siblings in neither', async () => {
    const graph = await run(
      'Kochi is a city in the Indian state of Kerala. The creek flows through the Canadian province of ' +
        'Saskatchewan and the U.S. state of Montana.',
    )
    const key = (name: string) => graph.entities.find((e) => e.name === name)!.key
    const located = (name: string) =>
      graph.relationships
        .filter((r) => r.name === 'LOCATED_IN' && r.subjectKey === key(name))
        .map((r) => graph.entities.find((e) => e.key === r.objectKey)!.name)
        .sort()
    expect(located('Kochi')).toEqual(['Indian', 'Kerala'])
    expect(located('Kerala')).toEqual(['Indian'])
    expect(located('Indian')).toEqual([])
    expect(located('Saskatchewan')).toEqual(['Canadian'])
    expect(located('Montana')).toEqual(['U.S.'])
  })

  it('reads "the country of" a name as that name, in its continent', async () => {
    const graph = await run('Mérida is a city in the South American country of Venezuela.')
    expect(graph.entities.map((e) => e.name).sort()).toEqual([
      'Mérida',
      'South American',
      'Venezuela',
      'city',
    ])
    const venezuela = graph.entities.find((e) => e.name === 'Venezuela')!
    const inside = graph.relationships.filter((r) => r.subjectKey === venezuela.key)
    expect(inside.map((r) => graph.entities.find((e) => e.key === r.objectKey)!.name)).toEqual([
      'South American',
    ])
  })

  it("keeps an initialism's last period wherever the sentence ends", async () => {
    const graph = await run(
      'He left the U.S. in 1990. Texas is a U.S. state. She lives in the U.S.',
    )
    expect(graph.entities.filter((e) => /^U\.S/.test(e.name)).map((e) => e.name)).toEqual(['U.S.'])
  })

  it('takes the division, not its country, for what "It" refers to', async () => {
    const graph = await run(
      'The following is a list of colleges in the U.S. state of Connecticut. It has forty schools.',
    )
    const name = (key: string) => graph.entities.find((e) => e.key === key)!.name
    const has = graph.entities.find((e) => e.labels.includes('EVENT') && /forty/.test(e.name))!
    const actor = graph.relationships.find((r) => r.objectKey === has.key)!
    expect(name(actor.subjectKey)).toBe('Connecticut')
  })

  it('puts each place a place statement names in the later ones that hold it', async () => {
    const graph = await run(
      'The Foix is a river in Catalonia in the province of Barcelona, northeastern Spain.',
    )
    const name = (key: string) => graph.entities.find((e) => e.key === key)!.name
    const located = graph.relationships
      .filter((r) => r.name === 'LOCATED_IN')
      .map((r) => `${name(r.subjectKey)} in ${name(r.objectKey)}`)
    // Spain after a compass word was the river's object ("Foix IS Spain"), and no place was in it.
    expect(located).toContain('Foix in Spain')
    expect(located).toContain('Catalonia in Spain')
    expect(located).toContain('Barcelona in Spain')
    expect(located).not.toContain('Spain in Catalonia')
  })
})

describe('local extractor, a passage cut inside a code block', () => {
  it('reads no entity in the code and reads the prose after its closing fence', async () => {
    const text =
      'Start the server.\n\n```sh\nexport TOKEN=secret\n\nROLE=api PORT=8000 npm start\n```\n\nAda Lovelace met Charles Babbage in London.\n'
    const cut = text.indexOf('ROLE')
    const passage = { id: 'p2', text: text.slice(cut), start: cut, end: text.length }
    const names = async (input: { text?: string }) =>
      (
        await localExtractor().extract(
          {
            passages: [passage],
            sourceTimestamp: '2024-04-10T09:00:00.000Z',
            observateFor: [],
            ...input,
          },
          { signal: new AbortController().signal },
        )
      ).entities
        .filter((e) => !e.labels.includes('EVENT'))
        .map((e) => e.name)
    const withText = await names({ text })
    expect(withText).toEqual(expect.arrayContaining(['Ada Lovelace', 'Charles Babbage', 'London']))
    expect(withText.filter((n) => /ROLE|PORT|npm/.test(n))).toEqual([])
    // Without the whole text the closing fence opens a block: the prose is lost, the code read.
    expect(await names({})).not.toContain('Ada Lovelace')
  })
})

describe('local extractor, what it read before', () => {
  it('extracts a text the same after a text that splits one of its numbers from a word', async () => {
    const text = 'Prévost was commander of St. Vincent from 1731 to 1733.'
    const dates = async () =>
      (await run(text)).entities.filter((e) => e.labels.includes('DATE')).map((e) => e.name)
    // wink-nlp cached "1733" as a word when "c.1733" came first (wink-entities.ts).
    await run('Thomas Bevan (c.1733 – 31 January 1819) was a Welsh missionary.')
    expect(await dates()).toEqual(['from 1731 to 1733', '1731', '1733'])
  })
})

describe('local extractor on hard-wrapped text and its punctuation', () => {
  const unwrapped =
    'Martin Ulrich is a German footballer who played for the Stuttgart Kickers in the Bundesliga. He ' +
    'was born in Berlin on December 16, 1969, and joined the club from Hertha BSC when he was nineteen.'
  /** The same, wrapped at 72 and at 88 columns as a text editor would (a break inside a name in each). */
  const wrapped = [
    'Martin Ulrich is a German footballer who played for the Stuttgart\nKickers in the Bundesliga. He ' +
      'was born in Berlin on December 16, 1969,\nand joined the club from Hertha BSC when he was nineteen.',
    'Martin Ulrich is a German footballer who played for the Stuttgart Kickers in the\nBundesliga. He ' +
      'was born in Berlin on December 16, 1969, and joined the club from Hertha\nBSC when he was nineteen.',
  ]
  const summary = async (text: string) => {
    const graph = await run(text)
    const names = new Map(graph.entities.map((e) => [e.key, e.name]))
    return {
      entities: graph.entities.map((e) => `${e.labels.join(',')} ${e.name}`).sort(),
      relationships: graph.relationships
        .map((r) => `${names.get(r.subjectKey)} ${r.name} ${names.get(r.objectKey)}`)
        .sort(),
    }
  }

  it('reads a paragraph wrapped at a fixed width as the paragraph unwrapped', async () => {
    const expected = await summary(unwrapped)
    expect(expected.entities).toContain('ORGANIZATION Stuttgart Kickers')
    expect(expected.relationships).toContain(
      'Martin Ulrich was born Berlin OCCURRED_ON December 16, 1969',
    )
    for (const text of wrapped) {
      expect(text.replace(/\n/g, ' ')).toBe(unwrapped)
      expect(await summary(text)).toEqual(expected)
    }
  })

  it('writes a date across a line break on one line, and a URL without the punctuation after it', async () => {
    const graph = await run(
      'Martin Ulrich (born December\n16, 1969) is a German footballer. The names come from faker (MIT;\n' +
        'https://github.com/faker-js/faker), every locale; see https://example.org/page. Or\n' +
        '"https://en.wikipedia.org/wiki/Rome" (https://example.org/a(b)).',
    )
    const names = graph.entities.map((e) => e.name)
    expect(names).toContain('December 16, 1969')
    expect(names.filter((n) => n.includes('://')).sort()).toEqual([
      'https://en.wikipedia.org/wiki/Rome',
      'https://example.org/a(b)',
      'https://example.org/page',
      'https://github.com/faker-js/faker',
    ])
  })
})
