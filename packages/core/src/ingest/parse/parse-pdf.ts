import { EngramError } from '../../errors.js'

/** pdf.js's text items: strings with an end-of-line flag, and marked-content markers without text. */
interface TextItemLike {
  str?: string
  hasEOL?: boolean
}

/** pdf.js, loaded on first use: most servers never see a PDF, and it is a large module. */
async function pdfjs() {
  return import('pdfjs-dist/legacy/build/pdf.mjs')
}

function invalidPdf(reason: string): EngramError {
  return new EngramError('VALIDATION_ERROR', `The file is not a readable PDF: ${reason}.`, {
    status: 422,
    detail: [{ loc: ['file'], msg: `not a readable PDF: ${reason}`, type: 'value_error' }],
    resolution: 'Send an unencrypted PDF with a text layer, or its text as a .txt file.',
  })
}

/** True when the bytes carry the PDF header, which the format allows anywhere in the first 1 KB. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-')
}

async function openPdf(bytes: Uint8Array) {
  const { getDocument } = await pdfjs()
  // Text only: no fonts are loaded or rendered, no code from the document is evaluated, and the
  // library's console warnings about fonts it would need to render stay quiet.
  const task = getDocument({
    data: new Uint8Array(bytes),
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    verbosity: 0,
  })
  try {
    return await task.promise
  } catch (error) {
    await task.destroy()
    const name = error instanceof Error ? error.name : ''
    throw invalidPdf(
      name === 'PasswordException'
        ? 'it is encrypted'
        : error instanceof Error
          ? error.message
          : String(error),
    )
  }
}

/** Opens a PDF far enough to know its pages (cheap): a broken or encrypted file is refused up front. */
export async function checkPdf(bytes: Uint8Array): Promise<number> {
  const doc = await openPdf(bytes)
  try {
    return doc.numPages
  } finally {
    await doc.destroy()
  }
}

/** The Title of a PDF's document information dictionary (ISO 32000-1, 14.3.3), when not blank. */
async function pdfTitle(doc: Awaited<ReturnType<typeof openPdf>>): Promise<string | null> {
  const { info } = await doc.getMetadata()
  const title = (info as { Title?: unknown } | null)?.Title
  if (typeof title !== 'string') return null
  const text = title.replace(/\s+/g, ' ').trim()
  return text === '' ? null : text
}

/**
 * The text layer of a PDF with Mozilla's pdf.js (pure JavaScript, offline): lines as the document
 * marks them, pages separated by a blank line. Scanned pages without a text layer yield nothing (no
 * OCR here); a PDF with no text at all is refused, since it would ingest as nothing.
 */
export async function parsePdf(
  bytes: Uint8Array,
): Promise<{ text: string; pages: number; title: string | null }> {
  const doc = await openPdf(bytes)
  try {
    const pages: string[] = []
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n)
      const content = await page.getTextContent()
      pages.push(
        (content.items as TextItemLike[])
          .map((item) => (item.str ?? '') + (item.hasEOL ? '\n' : ''))
          .join('')
          .replace(/[ \t]+\n/g, '\n')
          .trim(),
      )
      page.cleanup()
    }
    const text = pages.filter((p) => p.length > 0).join('\n\n')
    if (text.length === 0) throw invalidPdf('it has no text layer (scanned pages need OCR first)')
    return { text, pages: doc.numPages, title: await pdfTitle(doc) }
  } finally {
    await doc.destroy()
  }
}
