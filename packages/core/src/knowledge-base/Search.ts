/** BM25's usual constants: how fast repeated terms saturate, and how much long texts are discounted. */
export const k1 = 1.2
export const b = 0.75

/** Letters that Unicode does not decompose but that people type without their stroke. */
const folded: Readonly<Record<string, string>> = { ł: "l", đ: "d", ø: "o", ß: "ss", æ: "ae", œ: "oe", ı: "i" }

/**
 * The search terms of a text: runs of letters and digits, lower-case, without diacritics
 * (`Zażółć` → `zazolc`), so a query typed without Polish letters still finds them.
 */
export const tokenize = (text: string): ReadonlyArray<string> =>
  text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[łđøßæœı]/g, (c) => folded[c] ?? c)
    .match(/[\p{L}\p{N}]+/gu) ?? []

/**
 * The words of a text as the database indexes them: `tokenize`'s terms joined by single spaces. The
 * normalisation happens here, in code, so that PostgreSQL needs no `unaccent` extension (the embedded
 * PGlite and a managed server may not offer it) and both storages find the same words.
 */
export const indexedWords = (text: string): string => tokenize(text).join(" ")

/** An item with its relevance to a query; higher is more relevant. */
export interface Ranked<A> {
  readonly item: A
  readonly score: number
}

/**
 * Ranks items by BM25 relevance of their text to a query, computed over the given items as the
 * collection. Items sharing no term with the query are left out; ties keep the given order, so the
 * result is deterministic. At most `limit` results.
 */
export const rank = <A>(
  query: string,
  items: ReadonlyArray<A>,
  textOf: (item: A) => string,
  limit: number
): ReadonlyArray<Ranked<A>> => {
  const terms = [...new Set(tokenize(query))]
  if (terms.length === 0 || items.length === 0 || limit < 1) return []
  const documents = items.map((item) => {
    const frequencies = new Map<string, number>()
    const tokens = tokenize(textOf(item))
    for (const token of tokens) frequencies.set(token, (frequencies.get(token) ?? 0) + 1)
    return { item, length: tokens.length, frequencies }
  })
  const averageLength = documents.reduce((sum, d) => sum + d.length, 0) / documents.length || 1
  const idf = new Map(
    terms.map((term) => {
      const containing = documents.filter((d) => d.frequencies.has(term)).length
      // the "+1" form of IDF never goes negative, so a term found everywhere still counts a little
      return [term, Math.log(1 + (documents.length - containing + 0.5) / (containing + 0.5))] as const
    })
  )
  return documents
    .map((d, position) => {
      let score = 0
      for (const term of terms) {
        const tf = d.frequencies.get(term) ?? 0
        if (tf === 0) continue
        score += (idf.get(term)! * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.length) / averageLength))
      }
      return { item: d.item, score, position }
    })
    .filter((r) => r.score > 0)
    .sort((x, y) => y.score - x.score || x.position - y.position)
    .slice(0, Math.floor(limit))
    .map(({ item, score }) => ({ item, score }))
}
