/**
 * A valid one-page PDF whose text layer holds `lines` (Helvetica, one line each), written by hand so
 * tests need no PDF library and no binary fixture: header, five objects, a cross-reference table with
 * exact byte offsets, and the trailer (ISO 32000-1, sections 7.5 and 9). With `info.title`, a
 * document information dictionary holds it as its Title (section 14.3.3).
 */
export function minimalPdf(lines: readonly string[], info: { title?: string } = {}): Buffer {
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`)
  const content = [
    'BT',
    '/F1 12 Tf',
    '72 720 Td',
    '14 TL',
    ...lines.map((line, i) => `${i > 0 ? 'T* ' : ''}(${escape(line)}) Tj`),
    'ET',
  ].join('\n')
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    ...(info.title === undefined ? [] : [`<< /Title (${escape(info.title)}) >>`]),
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'))
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(out, 'latin1')
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')
  const infoRef = info.title === undefined ? '' : ` /Info ${objects.length} 0 R`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${infoRef} >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}
