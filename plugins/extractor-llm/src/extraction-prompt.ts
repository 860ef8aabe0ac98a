import type { ChatMessage } from './chat-completion.js'

const SYSTEM = `You turn text into a knowledge graph for a memory engine. Answer only with JSON that matches the schema.

- entities: people (PERSON), places (PLACE), organisations (ORGANIZATION), other named things, objects and topics (CONCEPT), sums of money (MONEY), other amounts (QUANTITY), email addresses (EMAIL), URLs (URL). One entry per distinct thing, named as in the text without a leading article; other names the text gives it (an abbreviation it defines, a nickname) go into aliases. Dates and times are not entities: they go into happened_at.
- events: every action, "who did what to whom, when". actor is the entity that acted, target the entity acted on, context the places or settings it happened in. A gathering that someone organises or attends is the target entity, not the event: "Emily organized the AI Ethics Meetup" is an event with verb "organized", actor Emily and target AI Ethics Meetup.
- happened_at: resolve relative expressions ("yesterday", "last March", "on Friday") against the reference time. Use YYYY-MM-DD, or a full date-time with offset only when the text gives a time of day. null when the text says nothing about when.
- facts: relations without an action ("Anna is Emily's sister", "Acme is based in Paris"), with an UPPER_SNAKE_CASE predicate.
- observations: short standalone statements worth remembering about an entity or event: preferences, traits, states, plans, outcomes. Write them in the third person with the name, not a pronoun.
- polarity: positive for achievements, capacities and liking; negative for losses, deficits, needs and dislike; neutral otherwise.
- passages: every item cites the refs of the passages it comes from.
Use only what the text supports. Empty lists are fine.`

/** A passage as the prompt shows it: a short ref the model cites instead of the passage id. */
export interface PromptPassage {
  ref: string
  text: string
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

/**
 * The system and user messages for one batch. The reference time is given with its weekday so that
 * "on Friday" or "last week" resolve without calendar arithmetic by the model.
 */
export function extractionMessages(input: {
  passages: PromptPassage[]
  sourceTimestamp: string
  observateFor: string[]
}): ChatMessage[] {
  const reference = new Date(input.sourceTimestamp)
  const weekday = Number.isNaN(reference.getTime()) ? '' : ` (${WEEKDAYS[reference.getUTCDay()]})`
  const focus =
    input.observateFor.length > 0
      ? `Observations should be about these first: ${input.observateFor.join('; ')}.\n`
      : ''
  const passages = input.passages.map((p) => `[${p.ref}]\n${p.text}`).join('\n\n')
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `Reference time: ${input.sourceTimestamp}${weekday}.\n${focus}\n${passages}`,
    },
  ]
}

/** The follow-up that asks once for a corrected answer, quoting what was wrong. */
export function repairMessages(
  messages: ChatMessage[],
  answer: string,
  issues: string[],
): ChatMessage[] {
  const listed = issues.slice(0, 20).map((issue) => `- ${issue}`)
  if (issues.length > 20) listed.push(`- and ${issues.length - 20} more`)
  return [
    ...messages,
    { role: 'assistant', content: answer },
    {
      role: 'user',
      content: `That answer cannot be used:\n${listed.join('\n')}\nAnswer again with the complete, corrected JSON only.`,
    },
  ]
}
