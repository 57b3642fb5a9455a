/**
 * Names the server (paths are relative to the origin that serves the document; an empty `servers` list is
 * an error for OpenAPI linters and generated clients) and the license, when the generator left them out.
 */
export const withServerAndLicense = (spec: Record<string, any>): Record<string, any> => {
  if (!Array.isArray(spec.servers) || spec.servers.length === 0) {
    spec.servers = [{ url: "/", description: "The server that serves this document" }]
  }
  spec.info = { license: { name: "Apache-2.0", identifier: "Apache-2.0" }, ...spec.info }
  return spec
}
