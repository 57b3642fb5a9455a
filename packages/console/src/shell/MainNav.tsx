import { place } from "../routing/Location.js"
import { Link } from "../routing/Link.js"
import { navigation } from "../routing/Routes.js"

/** The main navigation landmark: one link per section, the current section marked for screen readers. */
export const MainNav = () => {
  const path = place.value.path
  const current = (to: string) => (to === "" ? path === "" : path === to || path.startsWith(`${to}/`))
  return (
    <nav aria-label="Main" class="main-nav">
      <ul>
        {navigation.map((section) => (
          <li key={section.to} class={current(section.to) ? "current" : undefined}>
            <Link to={section.to}>{section.label}</Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
