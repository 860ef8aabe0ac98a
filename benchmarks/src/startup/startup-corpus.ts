/**
 * What the first-search runs search: six short paragraphs of plain factual prose (written for this
 * benchmark, about well-documented subjects) ingested through `POST /ingest/`, and eleven questions about
 * them. Every question is a different text because the embedder caches query vectors by text: a repeated
 * query would time the cache, not the search.
 */
export const STARTUP_PARAGRAPHS: readonly string[] = [
  'Marie Curie was born in Warsaw in 1867 and moved to Paris in 1891 to study physics and mathematics at the Sorbonne. With her husband Pierre she discovered polonium and radium in 1898. She was the first woman to win a Nobel Prize and remains the only person to have won Nobel Prizes in two different sciences, physics in 1903 and chemistry in 1911.',
  'The Rosetta Stone was found in 1799 near the town of Rashid in the Nile delta by soldiers of the French expedition to Egypt. It carries the same decree of 196 BC in hieroglyphic, Demotic and ancient Greek. Jean-Francois Champollion announced his decipherment of the hieroglyphs in 1822, and the stone has been shown in the British Museum since 1802.',
  'Apollo 11 launched from Kennedy Space Center on 16 July 1969. Four days later Neil Armstrong and Buzz Aldrin landed the lunar module Eagle in the Sea of Tranquility while Michael Collins orbited the Moon in the command module Columbia. The crew collected about 21 kilograms of lunar samples and splashed down in the Pacific Ocean on 24 July.',
  'Ada Lovelace, the daughter of the poet Lord Byron, worked with Charles Babbage on his proposed Analytical Engine. In 1843 she published a translation of an article by Luigi Menabrea together with her own notes, which were longer than the article itself. Note G describes a method for the engine to compute Bernoulli numbers and is often called the first computer program.',
  'The Great Barrier Reef lies in the Coral Sea off the coast of Queensland, Australia, and stretches for more than 2,300 kilometres. It is made of nearly 3,000 individual reefs and 900 islands built by billions of small coral polyps. The reef was made a World Heritage Site in 1981 and has suffered several mass bleaching events as sea temperatures rose.',
  'Johannes Gutenberg, a goldsmith from Mainz, developed a printing press with movable metal type around 1440. His method combined a hand mould for casting letters, an oil-based ink and a screw press adapted from those used for wine and olive oil. The Gutenberg Bible, printed in about 180 copies around 1455, was the first major book printed this way in Europe.',
]

/** Eleven different questions: the first search of a run and the ten after it. */
export const STARTUP_QUERIES: readonly string[] = [
  'Who discovered radium and polonium?',
  'Where was the Rosetta Stone found?',
  'Which astronauts landed on the Moon in the lunar module Eagle?',
  'What did Ada Lovelace write about the Analytical Engine?',
  'How long is the Great Barrier Reef?',
  'When did Gutenberg build his printing press with movable type?',
  'Nobel Prize in chemistry 1911',
  'Champollion decipherment of hieroglyphs',
  'coral bleaching and rising sea temperatures',
  'first computer program Bernoulli numbers',
  'Apollo 11 splashdown in the Pacific Ocean',
]
