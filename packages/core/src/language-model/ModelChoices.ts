import { Context, Layer } from "effect"

/**
 * Which models an agent may choose (`workflow_configurations.model.model`): the operator's list
 * (`LLM_ALLOWED_MODELS`; with an OpenAI-compatible provider, `LLM_MODEL` alone unless set), or any name
 * (the embedded model, which has only itself). Every model runs on the operator's key at the operator's
 * price, and a self-hosted server may load a model it is asked for: a tenant does not pick freely.
 */
export interface ModelChoice {
  /** The model names an agent may name; `any` when the provider takes any name. */
  readonly allowed: ReadonlyArray<string> | "any"
}

export class ModelChoices extends Context.Reference<ModelChoices>()(
  "@voice-agent-platform/core/ModelChoices",
  {
    defaultValue: (): ModelChoice => ({ allowed: "any" })
  }
) {}

/** Whether an agent may choose `model`. */
export const isAllowed = (choice: ModelChoice, model: string): boolean =>
  choice.allowed === "any" || choice.allowed.includes(model)

export const layer = (choice: ModelChoice): Layer.Layer<ModelChoices> => Layer.succeed(ModelChoices, choice)
