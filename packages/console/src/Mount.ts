// Where the console is mounted, read from where its own script was loaded (`…/console/assets/main-….js`):
// the bundled server serves it at /console, and an embedder that mounts the API under a prefix (and strips
// it) serves it at /prefix/console; the API is then under /prefix as well. The server answers index.html with
// asset addresses relative to the page, so the script is found at any depth and under any prefix.

/** The console's own address, ending with `/` (e.g. `/console/`): screens' paths are relative to it. */
export const consoleBase: string = new URL("../", import.meta.url).pathname

/** The address the API's paths (`/api/v1/…`) are relative to, ending with `/` (e.g. `/`). */
export const apiRoot: string = new URL("../../", import.meta.url).pathname
