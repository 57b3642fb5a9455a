import type { OpenApi } from "@effect/platform"

// The interactive reference's page, as @effect/platform's HttpApiScalar writes it (same markup, same
// escaping), made from a document built once and a script read on first use (see DocsRoutes).

/** JSON safe inside a <script> block: `<` and the Unicode line terminators escaped. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/[\u2028\u2029]/g, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"))

const text = (value: string): string =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

const attribute = (value: string): string => text(value).replace(/"/g, "&quot;").replace(/'/g, "&#39;")

/** The page: the document for Scalar, its configuration, and Scalar's script inlined. */
export const html = (spec: OpenApi.OpenAPISpec, javascript: string): string => {
  const description = spec.info.description
    ? `<meta name="description" content="${attribute(spec.info.description)}"/>
    <meta name="og:description" content="${attribute(spec.info.description)}"/>`
    : ""
  return `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <title>${text(spec.info.title)}</title>
    ${description}
    <meta
      name="viewport"
      content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <script id="api-reference" type="application/json">
      ${scriptJson(spec)}
    </script>
    <script>
      document.getElementById('api-reference').dataset.configuration = JSON.stringify(${scriptJson({ _integration: "html" })})
    </script>
    <script>${javascript}</script>
  </body>
</html>`
}
