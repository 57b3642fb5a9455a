import { render } from "preact"
import "./styles/console.css"
import { listen } from "./routing/Location.js"
import { App } from "./shell/App.js"

listen()
render(<App />, document.getElementById("app")!)
