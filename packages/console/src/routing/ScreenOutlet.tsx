import type { FunctionComponent } from "preact"
import { useEffect, useState } from "preact/hooks"
import { ErrorNotice, LoadingNotice } from "../components/Feedback.js"
import { PageHeading } from "../components/PageHeading.js"
import { place } from "./Location.js"
import { Link } from "./Link.js"
import { routeOf, type Route, type ScreenProps } from "./Routes.js"

const loaded = new Map<Route, FunctionComponent<ScreenProps>>()

/** The screen of the current address, its code loaded on first use; "Page not found" for an unknown address. */
export const ScreenOutlet = () => {
  const here = place.value
  const found = routeOf(here.path)
  if (found === undefined) return <NotFound />
  // a new agent's page is a new screen (its state starts afresh); a new query is the same screen
  const key = `${found.route.pattern}|${JSON.stringify(found.params)}`
  return <LoadedScreen key={key} route={found.route} params={found.params} query={here.query} />
}

const LoadedScreen = ({ route, params, query }: ScreenProps & { readonly route: Route }) => {
  const [screen, setScreen] = useState<FunctionComponent<ScreenProps> | Error | undefined>(() =>
    loaded.get(route)
  )
  useEffect(() => {
    if (screen !== undefined) return
    let live = true
    route.load().then(
      (component) => {
        loaded.set(route, component)
        if (live) setScreen(() => component)
      },
      () => live && setScreen(new Error("This screen could not be loaded. Reload the page to try again."))
    )
    return () => {
      live = false
    }
  }, [route])
  if (screen === undefined) return <LoadingNotice />
  if (screen instanceof Error) return <ErrorNotice error={screen} />
  const Screen = screen
  return <Screen params={params} query={query} />
}

const NotFound = () => (
  <>
    <PageHeading title="Page not found" />
    <p>
      No screen of the console has this address. <Link to="">Go to the overview</Link>.
    </p>
  </>
)
