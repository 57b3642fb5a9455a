import { ScreenOutlet } from "../routing/ScreenOutlet.js"
import { SignIn } from "../session/SignIn.js"
import { signedIn, signOut } from "../session/Session.js"
import { MainNav } from "./MainNav.js"

/** The console: the sign-in form, or the signed-in frame (header, main navigation, the current screen). */
export const App = () => {
  if (!signedIn.value) return <SignIn />
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to the content
      </a>
      <header class="top-bar">
        <span class="brand">Voice Agent Platform</span>
        <button type="button" class="secondary small" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <div class="frame">
        <MainNav />
        <main id="main" tabIndex={-1}>
          <ScreenOutlet />
        </main>
      </div>
    </>
  )
}
