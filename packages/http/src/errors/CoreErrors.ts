import { Money } from "@voice-agent-platform/core"
import type {
  AgentErrors,
  LiveCallErrors,
  ChatErrors,
  LanguageModelErrors,
  CallErrors,
  CallEventErrors,
  CampaignErrors,
  DoNotCallErrors,
  FileErrors,
  ImprovementErrors,
  IntegrationErrors,
  KnowledgeBaseErrors,
  OrganizationErrors,
  PhoneNumberErrors,
  QuotaErrors,
  RunErrors,
  ToolErrors,
  TriggerErrors,
  UsageErrors,
  WebhookErrors
} from "@voice-agent-platform/core"
import type { ValidationIssue } from "@voice-agent-platform/contract/errors/ApiErrors.js"
import {
  Conflict,
  Forbidden,
  NotFound,
  OutsideCallingHours,
  PaymentRequired,
  ServiceUnavailable,
  TooManyRequests,
  ValidationError
} from "@voice-agent-platform/contract/errors/ApiErrors.js"

type Failure = { readonly message: string }

/** `Retry-After` of a model failure whose provider did not say when to try again. */
export const modelRetrySeconds = 5

// The statuses live on the answer classes (`HttpApiSchema.annotations({ status })` in ApiErrors.ts).
const notFound = <E extends Failure>(e: E) => new NotFound({ detail: e.message })
const conflict = <E extends Failure>(e: E) => new Conflict({ detail: e.message })
const forbidden = <E extends Failure>(e: E) => new Forbidden({ detail: e.message })
const invalid = (loc: ValidationIssue["loc"], type: string, msg: string) =>
  new ValidationError({ detail: [{ loc, msg, type }] })

/**
 * The one place where core failures become HTTP answers: one entry per core error tag, the answer built
 * from the error. Core never knows a status code; handlers pipe their effects through
 * `Effect.mapError(CoreErrors.toHttp)`, and the types below are read off this table.
 */
export const answers = {
  AgentNotFound: notFound<AgentErrors.AgentNotFound>,
  RunNotFound: notFound<RunErrors.RunNotFound>,
  RunFileNotAvailable: notFound<RunErrors.RunFileNotAvailable>,
  ImprovementNotFound: notFound<ImprovementErrors.ImprovementNotFound>,
  IntegrationConnectionNotFound: notFound<IntegrationErrors.IntegrationConnectionNotFound>,
  OrganizationNotFound: notFound<OrganizationErrors.OrganizationNotFound>,
  ApiKeyNotFound: notFound<OrganizationErrors.ApiKeyNotFound>,
  PhoneNumberNotFound: notFound<PhoneNumberErrors.PhoneNumberNotFound>,
  TriggerNotFound: notFound<TriggerErrors.TriggerNotFound>,
  DoNotCallEntryNotFound: notFound<DoNotCallErrors.DoNotCallEntryNotFound>,
  ToolNotFound: notFound<ToolErrors.ToolNotFound>,
  CredentialNotFound: notFound<ToolErrors.CredentialNotFound>,
  DocumentNotFound: notFound<KnowledgeBaseErrors.DocumentNotFound>,
  WebhookEndpointNotFound: notFound<WebhookErrors.WebhookEndpointNotFound>,
  CampaignNotFound: notFound<CampaignErrors.CampaignNotFound>,
  ContactNotFound: notFound<CampaignErrors.ContactNotFound>,

  AgentArchived: conflict<AgentErrors.AgentArchived>,
  AgentToolArchived: conflict<AgentErrors.AgentToolArchived>,
  RunEndedNoToolCalls: conflict<CallErrors.RunEndedNoToolCalls>,
  ToolCallLimitReached: conflict<CallErrors.ToolCallLimitReached>,
  RunStillLive: conflict<RunErrors.RunStillLive>,
  CallAlreadyEnded: conflict<CallEventErrors.CallAlreadyEnded>,
  ImprovementAlreadyDecided: conflict<ImprovementErrors.ImprovementAlreadyDecided>,
  NoInventory: conflict<PhoneNumberErrors.NoInventory>,
  PhoneNumberNotActive: conflict<PhoneNumberErrors.PhoneNumberNotActive>,
  PhoneNumberExists: conflict<PhoneNumberErrors.PhoneNumberExists>,
  TriggerArchived: conflict<TriggerErrors.TriggerArchived>,
  ToolArchived: conflict<ToolErrors.ToolArchived>,
  ToolArchivedNotRun: conflict<ToolErrors.ToolArchivedNotRun>,
  CredentialInUse: conflict<ToolErrors.CredentialInUse>,
  QuotaExceeded: conflict<QuotaErrors.QuotaExceeded>,
  LastActiveApiKey: conflict<OrganizationErrors.LastActiveApiKey>,
  CampaignTransitionNotAllowed: conflict<CampaignErrors.CampaignTransitionNotAllowed>,
  CampaignNotEditable: conflict<CampaignErrors.CampaignNotEditable>,
  ContactNotPending: conflict<CampaignErrors.ContactNotPending>,
  NotAChat: conflict<ChatErrors.NotAChat>,
  ConversationEnded: conflict<ChatErrors.ConversationEnded>,
  TurnLimitReached: conflict<ChatErrors.TurnLimitReached>,
  TurnBusy: conflict<ChatErrors.TurnBusy>,

  InsufficientBalance: (e: OrganizationErrors.InsufficientBalance) =>
    new PaymentRequired({
      detail: e.message,
      balance_pln: Money.toDecimal(e.balance),
      required_pln: Money.toDecimal(e.required),
      top_up_pln: Money.toDecimal(e.top_up)
    }),

  NumberTypeMismatch: (e: PhoneNumberErrors.NumberTypeMismatch) =>
    invalid(["body", "phone_number_id"], "value_error.number_type", e.message),
  NoCallerId: (e: CallErrors.NoCallerId) =>
    invalid(["body", "from_phone_number_id"], "value_error.no_caller_id", e.message),
  InvalidPhoneNumber: (e: PhoneNumberErrors.InvalidPhoneNumber) =>
    invalid(["body", "phone_number"], "value_error.phone_number", e.message),
  InvalidTransferNumber: (e: AgentErrors.InvalidTransferNumber) =>
    invalid(
      e.in_configuration
        ? ["body", "workflow_configurations", "transfer_numbers", e.index]
        : ["body", "transfer_numbers", e.index],
      "value_error.phone_number",
      e.message
    ),
  InvalidReportingPeriod: (e: UsageErrors.InvalidReportingPeriod) =>
    invalid(["query", e.field], "value_error", e.message),
  ReportingPeriodTooLong: (e: UsageErrors.ReportingPeriodTooLong) =>
    invalid(["query", e.field], "value_error.period_too_long", e.message),
  DocumentTooLarge: (e: KnowledgeBaseErrors.DocumentTooLarge) =>
    invalid(["body", "file"], "value_error.file_too_large", e.message),
  IntegrationProviderMissing: (e: ToolErrors.IntegrationProviderMissing) =>
    invalid(["path", "tool_uuid"], "value_error.integration_provider_missing", e.message),
  InvalidRecording: (e: CallEventErrors.InvalidRecording) =>
    invalid(["body"], "value_error.recording", e.message),
  TooManyContacts: (e: CampaignErrors.TooManyContacts) =>
    invalid(["body", "contacts"], "value_error.too_many_contacts", e.message),
  TextRequired: (e: ChatErrors.TextRequired) => invalid(["body", "text"], "value_error.missing", e.message),
  ModelNotAllowed: (e: AgentErrors.ModelNotAllowed) =>
    invalid(
      ["body", "workflow_configurations", "model", "model"],
      "value_error.model_not_allowed",
      e.message
    ),
  ModelRefused: (e: LanguageModelErrors.ModelRefused) =>
    invalid(["body"], "value_error.model_refused", e.message),
  ModelInputTooLong: (e: LanguageModelErrors.ModelInputTooLong) =>
    invalid(["body"], "value_error.conversation_too_long", e.message),

  DoNotCallListed: forbidden<CallErrors.DoNotCallListed>,
  DownloadLinkRefused: forbidden<FileErrors.DownloadLinkRefused>,
  OutsideCallingHours: (e: CallErrors.OutsideCallingHours) =>
    OutsideCallingHours.withRetryAfter(
      { code: "outside_calling_hours", message: e.message, retry_at: e.retry_at.toISOString() },
      e.retry_after_seconds
    ),
  ChannelsBusy: (e: CallErrors.ChannelsBusy) =>
    TooManyRequests.withRetryAfter(e.message, e.retry_after_seconds),
  BrowserSessionsBusy: (e: LiveCallErrors.BrowserSessionsBusy) =>
    TooManyRequests.withRetryAfter(e.message, e.retry_after_seconds),
  TelephonyUnavailable: (e: CallErrors.TelephonyUnavailable) => new ServiceUnavailable({ detail: e.message }),
  // the model's failures are one answer, 503 `model_unavailable: …`, retried after what the provider asked
  ModelUnavailable: (e: LanguageModelErrors.ModelUnavailable) =>
    ServiceUnavailable.withRetryAfter(`model_unavailable: ${e.reason}`, modelRetrySeconds),
  ModelRateLimited: (e: LanguageModelErrors.ModelRateLimited) =>
    ServiceUnavailable.withRetryAfter(
      `model_unavailable: the model provider is rate limiting requests (${e.reason})`,
      e.retry_after_ms === null ? modelRetrySeconds : Math.max(1, Math.ceil(e.retry_after_ms / 1000))
    ),
  ModelDeadline: (e: LanguageModelErrors.ModelDeadline) =>
    ServiceUnavailable.withRetryAfter(
      `model_unavailable: the model did not answer within ${e.timeout_ms} ms`,
      modelRetrySeconds
    )
}

type Answers = typeof answers

// Checked when compiled: every entry answers the error whose tag is its key (a method's parameter is
// compared both ways, so an entry taking another tag's error fails here).
answers satisfies {
  readonly [Tag in keyof Answers]: { answer(error: { readonly _tag: Tag }): unknown }["answer"]
}

/** Every typed failure of the core that the API can meet. */
export type CoreError = { readonly [Tag in keyof Answers]: Parameters<Answers[Tag]>[0] }[keyof Answers]

/** The API error a core error becomes. */
export type HttpErrorOf<E extends CoreError> = ReturnType<Answers[E["_tag"]]>

/** A core failure as the HTTP answer the table gives it. */
export const toHttp = <E extends CoreError>(error: E): HttpErrorOf<E> => {
  const answer = answers[error._tag as keyof Answers] as (error: CoreError) => unknown
  return answer(error) as HttpErrorOf<E>
}
