import { PageHeading } from "../../components/PageHeading.js"
import { navigate } from "../../routing/Location.js"
import { api } from "../../session/Session.js"
import { emptyDraft } from "./ToolDraft.js"
import { ToolForm } from "./ToolForm.js"
import { toolPath } from "./ToolPaths.js"

/** A new tool from the form; its page once the API made it. */
export const CreateToolScreen = () => (
  <>
    <PageHeading title="Create a tool" />
    <ToolForm
      initial={emptyDraft}
      submitLabel="Create the tool"
      submit={async (body) => {
        const tool = await api.post("/api/v1/tools", { body })
        navigate(toolPath(tool.tool_uuid))
      }}
    />
  </>
)
